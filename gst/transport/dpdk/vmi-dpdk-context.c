/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The process-wide EAL and port table of the dpdk transport (see
 * vmi-dpdk.h for why the EAL outlives its last user). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* rte_dev_dma_map()/rte_dev_dma_unmap() are still experimental in 22.11 */
#define ALLOW_EXPERIMENTAL_API

#include "vmi-dpdk.h"
#include "pool/vmi-dma.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_memory.h>

/* RX ring, and descriptors a TX queue holds; the pools are larger than any
 * queue so that a full ring (a slow net_ring peer) never starves the other
 * direction of mbufs */
#define RX_DESC 1024
#define TX_DESC 1024
#define RX_POOL_SIZE 8191
#define TX_POOL_SIZE 16383
#define COPY_POOL_SIZE 8191
#define POOL_CACHE 256
#define HDR_ROOM 128            /* 42 B net + 24 B RTP/HBRMT, and more */
#define COPY_ROOM 2048          /* a whole 1514-byte frame */
#define LINK_WAIT_MS 3000

static GMutex ctx_lock;
static guint ctx_refs;          /* transports open */
static gboolean eal_running;
static gchar *eal_args_in_force;        /* NULL: started by the application */
static gchar *eal_failure;      /* why the one rte_eal_init() we made failed */
static gboolean cleanup_registered;
static VmiDpdkPort *ports[RTE_MAX_ETHPORTS];

/* "a  b" and " a b" are the same arguments */
static gchar *
normalize_args (const gchar * args)
{
  gchar **v = g_strsplit_set (args ? args : "", " \t\n", -1);
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; v[i]; i++)
    if (*v[i])
      g_string_append_printf (s, "%s%s", s->len ? " " : "", v[i]);
  g_strfreev (v);
  return g_string_free (s, FALSE);
}

/* --- frame memory for DMA (vmi-dma.h) -------------------------------------
 *
 * Every frame the vmi allocator (and the sink's rasters) allocates while
 * the EAL runs is registered as DPDK external memory (rte_extmem_register:
 * rte_mem_virt2memseg_list() then finds it, and mbufs may point into it)
 * and mapped for DMA into every PCI device's IOMMU domain at IOVA = VA
 * (rte_dev_dma_map). A virtual device has no DMA: registration alone is
 * all it needs, and rte_dev_dma_map() says ENOTSUP for it. */

static gboolean
is_vdev (const struct rte_device *dev)
{
  return rte_dev_bus (dev)
      && g_strcmp0 (rte_bus_name (rte_dev_bus (dev)), "vdev") == 0;
}

static void
dma_unmap_devices (gpointer mem, gsize size, guint16 upto)
{
  struct rte_eth_dev_info info;
  guint16 p;

  RTE_ETH_FOREACH_DEV (p) {
    if (p >= upto)
      break;
    if (rte_eth_dev_info_get (p, &info) == 0 && info.device
        && !is_vdev (info.device))
      rte_dev_dma_unmap ((struct rte_device *) info.device, mem,
          (guint64) (guintptr) mem, size);
  }
}

static gboolean
dma_register (gpointer mem, gsize size, gsize page_size, gpointer user_data,
    gchar ** reason)
{
  struct rte_eth_dev_info info;
  guint16 p;

  if (rte_extmem_register (mem, size, NULL, 0, page_size) != 0) {
    *reason = g_strdup_printf ("rte_extmem_register of %" G_GSIZE_FORMAT
        " bytes: %s%s", size, rte_strerror (rte_errno), rte_errno == ENOSPC ?
        " (each frame takes one of DPDK's RTE_MAX_MEMSEG_LISTS memory "
        "lists)" : "");
    return FALSE;
  }
  RTE_ETH_FOREACH_DEV (p) {
    if (rte_eth_dev_info_get (p, &info) != 0 || info.device == NULL
        || is_vdev (info.device))
      continue;
    if (rte_eal_iova_mode () != RTE_IOVA_VA) {
      *reason = g_strdup ("DPDK runs with IOVA as PA: frame memory outside "
          "DPDK's own can only be given to a NIC with IOVA as VA (a NIC bound "
          "to vfio-pci with an IOMMU, --iova-mode=va)");
      goto undo;
    }
    if (rte_dev_dma_map ((struct rte_device *) info.device, mem,
            (guint64) (guintptr) mem, size) != 0 && rte_errno != ENOTSUP) {
      *reason = g_strdup_printf ("rte_dev_dma_map for port %u (%s): %s", p,
          rte_dev_name (info.device), rte_strerror (rte_errno));
      goto undo;
    }
  }
  return TRUE;

undo:
  dma_unmap_devices (mem, size, p);
  rte_extmem_unregister (mem, size);
  return FALSE;
}

static void
dma_unregister (gpointer mem, gsize size, gpointer user_data)
{
  /* after rte_eal_cleanup() at exit DPDK's tables are gone with it */
  if (!eal_running)
    return;
  dma_unmap_devices (mem, size, RTE_MAX_ETHPORTS);
  rte_extmem_unregister (mem, size);
}

static const VmiDmaHooks dma_hooks = { dma_register, dma_unregister };

static void
eal_cleanup_at_exit (void)
{
  /* only when nothing uses DPDK any more: an application that exits with
   * a pipeline still running keeps its threads inside DPDK */
  g_mutex_lock (&ctx_lock);
  if (eal_running && ctx_refs == 0 && eal_args_in_force) {
    guint16 p;
    RTE_ETH_FOREACH_DEV (p) {
      if (ports[p] && ports[p]->configured)
        rte_eth_dev_close (p);
    }
    vmi_dma_set_hooks (NULL, NULL);
    eal_running = FALSE;
    rte_eal_cleanup ();
  }
  g_mutex_unlock (&ctx_lock);
}

static gboolean
eal_start (const gchar * eal_args, GError ** error)
{
  gchar **argv = NULL, **full;
  gint argc = 0, i, rc;
  GError *perr = NULL;
  cpu_set_t cpus;
  gboolean have_cpus;

  if (eal_args && *eal_args && !g_shell_parse_argv (eal_args, &argc, &argv,
          &perr))
    goto parse_failed;

  /* rte_eal_init() keeps argv: a copy that lives as long as the process */
  full = g_new0 (gchar *, argc + 2);
  full[0] = g_strdup ("gst-vmi");
  for (i = 0; i < argc; i++)
    full[i + 1] = g_strdup (argv[i]);
  g_strfreev (argv);

  /* rte_eal_init() pins the calling thread (an application thread, the one
   * setting the pipeline to READY) to the main lcore: give it back its
   * CPUs afterwards */
  have_cpus = pthread_getaffinity_np (pthread_self (), sizeof (cpus),
      &cpus) == 0;
  rc = rte_eal_init (argc + 1, full);
  if (have_cpus)
    pthread_setaffinity_np (pthread_self (), sizeof (cpus), &cpus);
  if (rc < 0) {
    if (rte_errno == EALREADY && eal_failure == NULL) {
      /* the application started the EAL itself: use it */
      eal_running = TRUE;
      eal_args_in_force = NULL;
      vmi_dma_set_hooks (&dma_hooks, NULL);
      return TRUE;
    }
    goto init_failed;
  }
  eal_running = TRUE;
  eal_args_in_force = normalize_args (eal_args);
  vmi_dma_set_hooks (&dma_hooks, NULL);
  if (!cleanup_registered) {
    cleanup_registered = TRUE;
    atexit (eal_cleanup_at_exit);
  }
  return TRUE;

  /* ERRORS */
parse_failed:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "cannot parse dpdk-eal-args '%s': %s", eal_args, perr->message);
    g_clear_error (&perr);
    return FALSE;
  }
init_failed:
  {
    gint err = rte_errno;

    if (err == EALREADY && eal_failure) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
          "DPDK's EAL failed to start earlier in this process (%s) and "
          "DPDK cannot start it again: fix dpdk-eal-args and restart the "
          "application", eal_failure);
      return FALSE;
    }
    g_free (eal_failure);
    if (err == EACCES || err == ENOMEM) {
      eal_failure = g_strdup_printf ("no usable hugepages (rte_eal_init: "
          "%s)", rte_strerror (err));
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_PERMISSION,
          "DPDK found no usable hugepages (rte_eal_init: %s): as root run "
          "`echo 512 > /proc/sys/vm/nr_hugepages` and `mount -t hugetlbfs "
          "nodev /dev/hugepages`, or add --no-huge -m 512 to dpdk-eal-args "
          "(slower, and no multi-process)", rte_strerror (err));
    } else if (err == EINVAL || err == ENOENT || err == EFAULT) {
      eal_failure = g_strdup_printf ("bad EAL arguments '%s'",
          eal_args ? eal_args : "");
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
          "DPDK rejected dpdk-eal-args '%s' (rte_eal_init: %s; DPDK's own "
          "message is on stderr): fix them, e.g. \"--no-huge --no-pci -m 512 "
          "--file-prefix vmi --vdev net_ring0\" for a test, or "
          "\"-a 0000:01:00.0\" for a NIC bound to vfio-pci",
          eal_args ? eal_args : "", rte_strerror (err));
    } else {
      eal_failure = g_strdup_printf ("rte_eal_init: %s", rte_strerror (err));
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
          "DPDK's EAL did not start with dpdk-eal-args '%s' (rte_eal_init: "
          "%s; DPDK's own message is on stderr): check them; with no "
          "hugepages add --no-huge -m 512, without a NIC add --no-pci",
          eal_args ? eal_args : "", rte_strerror (err));
    }
    return FALSE;
  }
}

gboolean
vmi_dpdk_context_acquire (const gchar * eal_args, gchar ** warning,
    GError ** error)
{
  gboolean ok = TRUE;

  *warning = NULL;
  g_mutex_lock (&ctx_lock);
  if (!eal_running)
    ok = eal_start (eal_args, error);
  else {
    gchar *mine = normalize_args (eal_args);

    if (eal_args_in_force == NULL)
      *warning = g_strdup_printf ("DPDK's EAL was started by the application "
          "with its own arguments; dpdk-eal-args '%s' are ignored", mine);
    else if (g_strcmp0 (mine, eal_args_in_force) != 0)
      *warning = g_strdup_printf ("DPDK's EAL runs already in this process "
          "with dpdk-eal-args '%s' (one EAL per process, started by the "
          "first element): this element's '%s' are ignored; give every "
          "element the same dpdk-eal-args", eal_args_in_force, mine);
    g_free (mine);
  }
  if (ok)
    ctx_refs++;
  g_mutex_unlock (&ctx_lock);
  return ok;
}

void
vmi_dpdk_context_release (void)
{
  g_mutex_lock (&ctx_lock);
  g_assert (ctx_refs > 0);
  ctx_refs--;
  g_mutex_unlock (&ctx_lock);
}

static gchar *
list_ports (void)
{
  GString *s = g_string_new (NULL);
  guint16 p;

  RTE_ETH_FOREACH_DEV (p) {
    gchar name[RTE_ETH_NAME_MAX_LEN];
    if (rte_eth_dev_get_name_by_port (p, name) == 0)
      g_string_append_printf (s, "%s%u (%s)", s->len ? ", " : "", p, name);
  }
  return g_string_free (s, FALSE);
}

static struct rte_mempool *
pool_get (const gchar * what, guint16 port, guint n, guint16 priv,
    guint16 room, GError ** error)
{
  gchar name[RTE_MEMPOOL_NAMESIZE];
  struct rte_mempool *mp;

  g_snprintf (name, sizeof (name), "vmi_%s_%u", what, port);
  mp = rte_mempool_lookup (name);
  if (mp)
    return mp;
  mp = rte_pktmbuf_pool_create (name, n, POOL_CACHE, priv, room,
      rte_eth_dev_socket_id (port) < 0 ? (int) rte_socket_id () :
      rte_eth_dev_socket_id (port));
  if (mp == NULL)
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_PERMISSION,
        "cannot allocate %u DPDK mbufs for port %u (%s): give the EAL more "
        "memory (-m 1024 with --no-huge, or more hugepages: `echo 1024 > "
        "/proc/sys/vm/nr_hugepages`)", n, port, rte_strerror (rte_errno));
  return mp;
}

/* Drivers that take mbuf chains on TX without saying so in tx_offload_capa
 * (they copy each segment, or only free the mbufs) */
static gboolean
driver_takes_chains (const gchar * driver)
{
  static const gchar *const known[] = { "net_pcap", "net_null", "net_ring",
    "net_af_packet", "net_tap", "net_memif",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_strcmp0 (driver, known[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
port_configure (VmiDpdkPort * p, guint rx_mbufs, GError ** error)
{
  struct rte_eth_conf conf;
  struct rte_eth_dev_info info;
  gint rc;
  guint16 nrx = RX_DESC, ntx = TX_DESC;

  if ((rc = rte_eth_dev_info_get (p->id, &info)) != 0)
    goto failed;
  g_strlcpy (p->driver, info.driver_name, sizeof (p->driver));
  p->vdev = info.device && rte_dev_bus (info.device)
      && g_strcmp0 (rte_bus_name (rte_dev_bus (info.device)), "vdev") == 0;
  memset (&conf, 0, sizeof (conf));
  p->chains = (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS) ||
      driver_takes_chains (info.driver_name);
  if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
    conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
  /* our TX mbufs come from pools no other thread frees into */
  if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
    conf.txmode.offloads &= ~RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
  /* one TX queue: a peer such as net_memif must see as many queues as it
   * has (a second queue for ARP/IGMP answers would break that); the
   * receiver's answers share it under a lock only while a sender uses the
   * port too */
  if ((rc = rte_eth_dev_configure (p->id, 1, 1, &conf)) != 0)
    goto failed;
  if ((rc = rte_eth_dev_adjust_nb_rx_tx_desc (p->id, &nrx, &ntx)) != 0)
    goto failed;
  p->rx_desc = nrx;
  p->tx_desc = ntx;

  /* a replay (net_pcap infinite_rx) holds all its frames in mbufs of this
   * pool from the start: a shared receive engine's replay of many streams
   * needs more (st2022src dpdk-rx-mbufs) */
  if (!(p->rx_pool = pool_get ("rx", p->id, rx_mbufs ? rx_mbufs :
              RX_POOL_SIZE, 0,
              RTE_MBUF_DEFAULT_BUF_SIZE, error)))
    return FALSE;
  if (!(p->hdr_pool = pool_get ("hdr", p->id, TX_POOL_SIZE, 0,
              RTE_PKTMBUF_HEADROOM + HDR_ROOM, error)))
    return FALSE;
  if (!(p->ext_pool = pool_get ("ext", p->id, TX_POOL_SIZE,
              RTE_ALIGN (sizeof (VmiDpdkExtPriv), RTE_MBUF_PRIV_ALIGN), 0,
              error)))
    return FALSE;
  if (!(p->copy_pool = pool_get ("copy", p->id, COPY_POOL_SIZE, 0,
              RTE_PKTMBUF_HEADROOM + COPY_ROOM, error)))
    return FALSE;

  if ((rc = rte_eth_rx_queue_setup (p->id, 0, nrx,
              rte_eth_dev_socket_id (p->id), NULL, p->rx_pool)) != 0)
    goto rx_queue_failed;
  if ((rc = rte_eth_tx_queue_setup (p->id, 0, ntx,
              rte_eth_dev_socket_id (p->id), NULL)) != 0)
    goto failed;
  rte_eth_macaddr_get (p->id, &p->mac);
  rte_spinlock_init (&p->txq0_lock);
  p->configured = TRUE;
  return TRUE;

failed:
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
      "cannot set up DPDK port %u (%s, driver %s): %s", p->id, p->name,
      p->driver[0] ? p->driver : "?", rte_strerror (rc < 0 ? -rc : rc));
  return FALSE;

rx_queue_failed:
  /* most often a replay (net_pcap infinite_rx) larger than the pool: it
   * copies its whole file into the pool here (DPDK says how many mbufs
   * it needs on stderr) */
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
      "cannot set up the receive queue of DPDK port %u (%s, driver %s): "
      "%s. Its pool has %u mbufs; a net_pcap infinite_rx replay needs one "
      "per frame of its file: raise st2022src's dpdk-rx-mbufs", p->id,
      p->name, p->driver[0] ? p->driver : "?",
      rte_strerror (rc < 0 ? -rc : rc), p->rx_pool->size);
  return FALSE;
}

VmiDpdkPort *
vmi_dpdk_port_acquire (gint index, const gchar * name,
    VmiTransportDirection dir, guint rx_mbufs, const gchar * tx_engine,
    gchar ** warning, GError ** error)
{
  VmiDpdkPort *p;
  guint16 id;
  gint rc;
  guint i;
  gboolean first;
  struct rte_eth_link link;

  *warning = NULL;
  g_mutex_lock (&ctx_lock);
  if (name && *name) {
    if (rte_eth_dev_get_port_by_name (name, &id) != 0)
      goto no_such_port;
  } else {
    if (index < 0 || index >= RTE_MAX_ETHPORTS
        || !rte_eth_dev_is_valid_port (index))
      goto no_such_port;
    id = index;
  }

  p = ports[id];
  if (p == NULL) {
    p = ports[id] = g_new0 (VmiDpdkPort, 1);
    p->id = id;
    rte_eth_dev_get_name_by_port (id, p->name);
  }
  if (tx_engine && !*tx_engine)
    tx_engine = NULL;
  /* one thread sends on queue 0 for every sender of a shared engine */
  if (dir == VMI_TRANSPORT_DIR_SEND ? p->tx_used && (tx_engine == NULL
          || g_strcmp0 (tx_engine, p->tx_engine) != 0) : p->rx_used)
    goto busy;
  if (!p->configured && !port_configure (p, rx_mbufs, error))
    goto error;

  first = !p->tx_used && !p->rx_used;
  if (first && (rc = rte_eth_dev_start (id)) != 0)
    goto start_failed;
  if (dir == VMI_TRANSPORT_DIR_SEND) {
    if (p->tx_used++ == 0)
      p->tx_engine = g_strdup (tx_engine);
  } else {
    p->rx_used = TRUE;
  }

  /* a NIC negotiates for a moment after start, a net_memif client
   * connects: wait for the link a little before saying it is down */
  for (i = 0; i < LINK_WAIT_MS / 10; i++) {
    memset (&link, 0, sizeof (link));
    if (rte_eth_link_get_nowait (id, &link) != 0
        || link.link_status == RTE_ETH_LINK_UP)
      break;
    g_usleep (10000);
  }
  if (link.link_status == RTE_ETH_LINK_DOWN)
    *warning = g_strdup_printf ("the link of DPDK port %u (%s) is down "
        "after %u ms: check the cable and the peer; the element runs and "
        "%s as soon as the link comes up", id, p->name, LINK_WAIT_MS,
        dir == VMI_TRANSPORT_DIR_SEND ? "sends" : "receives");
  g_mutex_unlock (&ctx_lock);
  return p;

  /* ERRORS */
no_such_port:
  {
    gchar *list = list_ports ();
    guint n = rte_eth_dev_count_avail ();

    if (name && *name)
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
          "no DPDK port named '%s'; this process has %u: %s. Add a virtual "
          "device with --vdev (e.g. --vdev net_ring0) or allow a NIC with -a "
          "<PCI address> in dpdk-eal-args", name, n, n ? list : "none");
    else
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
          "no DPDK port %d; this process has %u port%s%s%s. Add a virtual "
          "device with --vdev (e.g. --vdev net_ring0) or allow a NIC bound "
          "to vfio-pci with -a <PCI address> in dpdk-eal-args, then set "
          "dpdk-port to its index", index, n, n == 1 ? "" : "s",
          n ? ": " : "", list);
    g_free (list);
    goto error;
  }
busy:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_BUSY,
        "DPDK port %u (%s) is already %s by another element of this "
        "process: give each %s its own port (dpdk-port), e.g. another --vdev "
        "or NIC%s", id, p->name, dir == VMI_TRANSPORT_DIR_SEND ? "sending" :
        "receiving", dir == VMI_TRANSPORT_DIR_SEND ? "st2022sink" :
        "st2022src", dir == VMI_TRANSPORT_DIR_SEND ? ", or give every "
        "st2022sink on it the same shared-engine" : "");
    goto error;
  }
start_failed:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot start DPDK port %u (%s): %s", id, p->name,
        rte_strerror (-rc));
    goto error;
  }
error:
  g_mutex_unlock (&ctx_lock);
  return NULL;
}

void
vmi_dpdk_port_release (VmiDpdkPort * p, VmiTransportDirection dir)
{
  g_mutex_lock (&ctx_lock);
  if (dir == VMI_TRANSPORT_DIR_SEND) {
    if (--p->tx_used == 0)
      g_clear_pointer (&p->tx_engine, g_free);
  } else {
    p->rx_used = FALSE;
  }
  /* stopped, not closed: the next user starts it again with the same
   * queues and pools (the pools cannot go while a queue may hold mbufs) */
  if (!p->tx_used && !p->rx_used)
    rte_eth_dev_stop (p->id);
  g_mutex_unlock (&ctx_lock);
}

guint
vmi_dpdk_port_senders (VmiDpdkPort * p)
{
  guint n;

  g_mutex_lock (&ctx_lock);
  n = p->tx_used;
  g_mutex_unlock (&ctx_lock);
  return n;
}

gboolean
vmi_dpdk_port_send_ctrl (VmiDpdkPort * p, const guint8 * frame, gsize len)
{
  struct rte_mbuf *m = rte_pktmbuf_alloc (p->copy_pool);
  guint16 sent;
  gchar *d;

  if (m == NULL)
    return FALSE;
  d = rte_pktmbuf_append (m, len);
  if (d == NULL) {
    rte_pktmbuf_free (m);
    return FALSE;
  }
  memcpy (d, frame, len);
  rte_spinlock_lock (&p->txq0_lock);
  sent = rte_eth_tx_burst (p->id, 0, &m, 1);
  rte_spinlock_unlock (&p->txq0_lock);
  if (sent == 0)
    rte_pktmbuf_free (m);
  return sent == 1;
}

static void
thread_unregister (gpointer data)
{
  /* only threads that took an lcore id here give one back */
  if (GPOINTER_TO_INT (data) == 1)
    rte_thread_unregister ();
}

static GPrivate registered = G_PRIVATE_INIT (thread_unregister);

void
vmi_dpdk_thread_register (void)
{
  if (G_LIKELY (g_private_get (&registered) != NULL))
    return;
  /* EAL threads have an lcore id already; others take a free one if any
   * (without one the pools work, only without per-thread caches) */
  if (rte_lcore_id () == LCORE_ID_ANY && rte_thread_register () == 0)
    g_private_set (&registered, GINT_TO_POINTER (1));
  else
    g_private_set (&registered, GINT_TO_POINTER (2));
}
