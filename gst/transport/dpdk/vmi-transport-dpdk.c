/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The `dpdk` transport: kernel bypass on any DPDK port (a NIC bound to
 * vfio-pci, or a virtual device: net_ring, net_pcap, net_memif,
 * net_af_packet, ...), one TX queue for a sender and the RX queue for a
 * receiver.
 *
 * TX is zero copy: each datagram is a small mbuf holding the 42-byte
 * Ethernet/IPv4/UDP header and the 24-byte RTP/HBRMT header, chained to an
 * mbuf attached (rte_pktmbuf_attach_extbuf) to the payload inside the
 * frame's raster; the attached mbuf holds a VmiTxFrame reference that its
 * free callback drops when the NIC is done. Memory outside the VmiTxFrame
 * (the zero-padded last payload, or a burst without a frame) is copied.
 * Ports that take no mbuf chains get one copied mbuf per datagram.
 *
 * RX busy-polls the port and hands payload pointers straight from the
 * mbufs, which live until the next recv_burst(); it answers ARP for a
 * unicast address and speaks IGMPv3 for a multicast group itself, since no
 * kernel sees these frames. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-dpdk.h"
#include "transport/vmi-transport-private.h"
#include "transport/vmi-rawnet.h"
#include "transport/vmi-rx-demux.h"
#include "transport/vmi-rx-engine.h"
#include "pacing/vmi-gap-frame.h"
#include "pool/vmi-dma.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sched.h>
#include <sys/socket.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

/* mbufs built per rte_eth_tx_burst(): a full queue wastes at most this
 * many builds per retry */
#define TX_CHUNK 32
/* payload pieces below this are copied into the header mbuf: an mbuf of
 * its own costs more than copying them */
#define EXT_MIN 256
/* mbufs per rte_eth_rx_burst() */
#define RX_MAX 64
#define RX_SCRATCH 2048
/* frames whose headers are prefetched ahead of the one classified */
#define RX_PREFETCH 4
/* empty polls before a busy-polling receiver yields its core once: costs
 * nothing on an isolated core, and lets a shared one run the others */
#define IDLE_POLLS_PER_YIELD 256
/* how long close() waits for the NIC (or a net_ring peer) to give back
 * mbufs that point into frames */
#define CLOSE_DRAIN_MS 2000
/* ARP resolution of a unicast destination at open */
#define ARP_TRIES 10
#define ARP_INTERVAL_MS 300

/* One stream received: what classifies its frames, and its IGMP state */
typedef struct
{
  gboolean used;
  VmiRawnetFilter filter;
  gboolean joined;
  guint32 local_ip;
} RxStream;

typedef struct
{
  VmiTransport parent;

  VmiTransportDirection dir;
  VmiDpdkPort *port;
  gboolean have_ctx;
  gchar *warning;
  guint64 hz;

  /* TX */
  VmiRawnetFlow flow;
  guint8 net_hdr[VMI_RAWNET_UDP_HDR_LEN];       /* for net_hdr_payload bytes */
  guint net_hdr_payload;
  VmiGapOpcode gap_opcode;
  gboolean zerocopy;            /* payloads may stay in frame memory */
  struct rte_mempool *run_pool; /* TxRun, one pool per port */
  gboolean iova_va;
  const VmiTxFrame *dma_frame;  /* the last frame checked for DMA memory */
  const guint8 *dma_mem;
  gboolean dma_ok;
  guint64 tx_gap_frames, tx_gap_bytes;

  /* RX: the one stream, or (demux) the streams added, by id */
  RxStream rx1;
  gboolean demux;
  RxStream *streams;
  VmiRxDemux table;
  struct rte_mbuf *held[RX_MAX];        /* handed out by the last call */
  guint n_held;
  guint8 *scratch;              /* chained mbufs, linearized */
  gint wake;                    /* atomic: wakeups pending */
  guint64 rx_filtered;
  guint64 drop_base;            /* port counters at open */
} VmiTransportDpdk;

/* One fast-path run's payload mbufs (all of one frame) share this
 * external-buffer info: each mbuf's free only counts the shared
 * reference down, and the last one gives back the run's frame references
 * and attached counts at once (per datagram a callback and an atomic
 * operation fewer). From a pool per port: the info must outlive whichever
 * of the run's mbufs is freed first. */
typedef struct
{
  struct rte_mbuf_ext_shared_info shinfo;
  VmiTxFrame *frame;
  VmiDpdkPort *port;
  struct rte_mempool *pool;
  /* the datagrams of the run the PMD took: one frame reference and one
   * attached count each, as build_datagram() takes */
  gint n;
} TxRun;

/* TX_POOL_SIZE in vmi-dpdk-context.c: never more runs than payload mbufs */
#define RUN_POOL_SIZE 16383
#define RUN_POOL_CACHE 256

static struct rte_mempool *
run_pool_get (VmiDpdkPort * port)
{
  gchar name[RTE_MEMPOOL_NAMESIZE];
  struct rte_mempool *mp;
  int socket = rte_eth_dev_socket_id (port->id);

  g_snprintf (name, sizeof (name), "vmi_run_%u", port->id);
  mp = rte_mempool_lookup (name);
  if (mp == NULL)
    mp = rte_mempool_create (name, RUN_POOL_SIZE, sizeof (TxRun),
        RUN_POOL_CACHE, 0, NULL, NULL, NULL, NULL,
        socket < 0 ? (int) rte_socket_id () : socket, 0);
  return mp;
}

static void vmi_transport_dpdk_close (VmiTransport * t);

/* An IPv4 literal, or a name resolved to IPv4 (raw frames are IPv4 only). */
static gboolean
parse_ipv4 (const gchar * what, const gchar * s, guint32 * out,
    GError ** error)
{
  struct addrinfo hints = { 0 }, *res = NULL;
  struct in_addr a;

  if (inet_pton (AF_INET, s, &a) == 1) {
    *out = a.s_addr;
    return TRUE;
  }
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  if (getaddrinfo (s, NULL, &hints, &res) == 0 && res) {
    *out = ((struct sockaddr_in *) res->ai_addr)->sin_addr.s_addr;
    freeaddrinfo (res);
    return TRUE;
  }
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
      "%s '%s' is not an IPv4 address: transport=dpdk sends and receives "
      "IPv4 only", what, s);
  return FALSE;
}

static void
append_warning (VmiTransportDpdk * d, gchar * w)
{
  gchar *all;

  if (w == NULL)
    return;
  if (d->warning == NULL) {
    d->warning = w;
    return;
  }
  all = g_strdup_printf ("%s; %s", d->warning, w);
  g_free (d->warning);
  g_free (w);
  d->warning = all;
}

static inline guint16
tx_burst (VmiTransportDpdk * d, struct rte_mbuf **m, guint16 n)
{
  VmiDpdkPort *p = d->port;
  guint16 sent;

  /* a src on the same port sends its ARP/IGMP answers on this queue too:
   * one uncontended lock per burst of up to TX_CHUNK datagrams */
  rte_spinlock_lock (&p->txq0_lock);
  sent = rte_eth_tx_burst (p->id, 0, m, n);
  rte_spinlock_unlock (&p->txq0_lock);
  return sent;
}

/* Unicast destination without destination-mac: ARP on the port. */
static gboolean
resolve_mac (VmiTransportDpdk * d, const VmiTransportConfig * cfg,
    GError ** error)
{
  guint8 req[VMI_RAWNET_CTRL_FRAME_MAX];
  gsize len;
  guint i;

  if (d->port->rx_used)
    goto port_busy;
  len = vmi_rawnet_build_arp_request (req, sizeof (req), d->flow.src_mac,
      d->flow.src_ip, d->flow.dst_ip);
  for (i = 0; i < ARP_TRIES; i++) {
    guint64 end;
    struct rte_mbuf *m = rte_pktmbuf_alloc (d->port->copy_pool);

    if (m && rte_pktmbuf_append (m, len)) {
      memcpy (rte_pktmbuf_mtod (m, guint8 *), req, len);
      if (tx_burst (d, &m, 1) == 1)
        m = NULL;
    }
    if (m)
      rte_pktmbuf_free (m);
    end = rte_get_timer_cycles () + d->hz * ARP_INTERVAL_MS / 1000;
    while (rte_get_timer_cycles () < end) {
      struct rte_mbuf *rx[32];
      guint16 k, j;
      gboolean found = FALSE;

      k = rte_eth_rx_burst (d->port->id, 0, rx, 32);
      for (j = 0; j < k; j++) {
        if (!found && rx[j]->nb_segs == 1)
          found = vmi_rawnet_parse_arp_reply (rte_pktmbuf_mtod (rx[j],
                  guint8 *), rx[j]->data_len, d->flow.dst_ip,
              d->flow.dst_mac);
        rte_pktmbuf_free (rx[j]);
      }
      if (found)
        return TRUE;
      if (k == 0)
        g_usleep (1000);
    }
  }
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
      "no ARP reply from %s on DPDK port %u (%s) within %u ms: check that "
      "the host is on that port's network (and bind-address is an address "
      "of it), or set destination-mac to the next hop's MAC", cfg->address,
      d->port->id, d->port->name, ARP_TRIES * ARP_INTERVAL_MS);
  return FALSE;

port_busy:
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
      "cannot resolve %s by ARP: an st2022src of this process receives on "
      "DPDK port %u (%s); set destination-mac to the next hop's MAC",
      cfg->address, d->port->id, d->port->name);
  return FALSE;
}

static gboolean
open_send (VmiTransportDpdk * d, const VmiTransportConfig * cfg,
    GError ** error)
{
  VmiRawnetFlow *f = &d->flow;

  if (!parse_ipv4 ("host", cfg->address, &f->dst_ip, error))
    return FALSE;
  f->src_ip = 0;
  if (cfg->bind_address && *cfg->bind_address
      && !parse_ipv4 ("bind-address", cfg->bind_address, &f->src_ip, error))
    return FALSE;
  memcpy (f->src_mac, d->port->mac.addr_bytes, 6);
  f->dst_port = cfg->port;
  f->src_port = cfg->source_port ? cfg->source_port : cfg->port;
  f->dscp = 0;
  d->gap_opcode = cfg->gap_kind == VMI_TRANSPORT_GAP_PAUSE ?
      VMI_GAP_OPCODE_PAUSE : VMI_GAP_OPCODE_RESERVED;

  if (vmi_rawnet_is_multicast (f->dst_ip)) {
    f->ttl = cfg->ttl_mc > 0 ? MIN (cfg->ttl_mc, 255) : 1;
    vmi_rawnet_multicast_mac (f->dst_ip, f->dst_mac);
  } else {
    f->ttl = 64;
    if (cfg->destination_mac && *cfg->destination_mac) {
      if (!vmi_rawnet_parse_mac (cfg->destination_mac, f->dst_mac))
        goto bad_mac;
    } else if (!resolve_mac (d, cfg, error)) {
      return FALSE;
    }
  }
  /* a DPDK port has no address of its own to default to; multicast from
   * 0.0.0.0 reaches plain joins but no source-specific (SSM) receiver */
  if (f->src_ip == 0)
    append_warning (d, g_strdup_printf ("no bind-address: the frames to %s "
            "leave DPDK port %u from 0.0.0.0%s; set bind-address to this "
            "host's address on that network", cfg->address, d->port->id,
            vmi_rawnet_is_multicast (f->dst_ip) ? " (receivers that join "
            "the group for a given source, SSM, drop them)" : ""));

  d->iova_va = rte_eal_iova_mode () == RTE_IOVA_VA;
  /* a virtual device's CPU reads the attached memory; a NIC's DMA only
   * frame memory registered for it (vmi-dma.h, vmi-dpdk-context.c):
   * frame_dma_ok() picks per frame, the rest is copied */
  d->zerocopy = d->port->chains;
  /* without it every datagram takes build_datagram() */
  d->run_pool = d->zerocopy ? run_pool_get (d->port) : NULL;
  if (!d->port->chains)
    append_warning (d, g_strdup_printf ("DPDK port %u (%s, driver %s) takes "
            "no multi-segment mbufs: payloads are copied (no zero-copy TX)",
            d->port->id, d->port->name, d->port->driver));
  else if (vmi_dma_get_failure ())
    append_warning (d, g_strdup_printf ("frame memory could not be "
            "registered for DMA (%s): %s", vmi_dma_get_failure (),
            d->port->vdev ? "a NIC would get copies of such frames' "
            "payloads (this virtual device reads them in place)" :
            "payloads of such frames are copied for this NIC"));
  return TRUE;

bad_mac:
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
      "destination-mac '%s' is not a MAC address: write it as "
      "aa:bb:cc:dd:ee:ff", cfg->destination_mac);
  return FALSE;
}

static void
send_igmp (VmiTransportDpdk * d, const RxStream * s, gboolean join,
    gboolean state)
{
  guint8 buf[VMI_RAWNET_CTRL_FRAME_MAX];
  gsize len;

  if (state)
    len = vmi_rawnet_build_igmpv3_state_report (buf, sizeof (buf),
        d->port->mac.addr_bytes, s->local_ip, s->filter.group,
        s->filter.source);
  else
    len = vmi_rawnet_build_igmpv3_report (buf, sizeof (buf),
        d->port->mac.addr_bytes, s->local_ip, s->filter.group,
        s->filter.source, join);
  if (len > 0)
    vmi_dpdk_port_send_ctrl (d->port, buf, len);
}

/* The filter (and multicast join) of the stream @cfg names */
static gboolean
stream_open (VmiTransportDpdk * d, RxStream * rs,
    const VmiTransportConfig * cfg, GError ** error)
{
  VmiRawnetFilter *f = &rs->filter;
  guint32 addr = 0;

  memset (rs, 0, sizeof (*rs));
  if (cfg->address && *cfg->address
      && !parse_ipv4 ("address", cfg->address, &addr, error))
    return FALSE;
  f->port = cfg->port;
  if (cfg->source_address && *cfg->source_address
      && !parse_ipv4 ("source-address", cfg->source_address, &f->source,
          error))
    return FALSE;
  if (vmi_rawnet_is_multicast (addr)) {
    f->group = addr;
    /* a NIC delivers multicast only when asked (vdevs ignore this) */
    rte_eth_allmulticast_enable (d->port->id);
  } else {
    f->local_ip = addr;
    rs->local_ip = addr;
  }
  rs->used = TRUE;
  if (f->group) {
    send_igmp (d, rs, TRUE, FALSE);
    rs->joined = TRUE;
  }
  return TRUE;
}

static void
stream_close (VmiTransportDpdk * d, RxStream * rs)
{
  if (rs->joined)
    send_igmp (d, rs, FALSE, FALSE);
  rs->joined = FALSE;
  rs->used = FALSE;
}

static gboolean
open_receive (VmiTransportDpdk * d, const VmiTransportConfig * cfg,
    GError ** error)
{
  struct rte_eth_stats st;

  d->scratch = g_malloc ((gsize) RX_MAX * RX_SCRATCH);
  if (rte_eth_stats_get (d->port->id, &st) == 0)
    d->drop_base = st.imissed + st.rx_nombuf;
  if (cfg->demux) {
    /* a shared receive engine's port: the streams come with add_stream */
    d->demux = TRUE;
    d->streams = g_new0 (RxStream, VMI_RX_ENGINE_MAX_STREAMS);
    vmi_rx_demux_init (&d->table);
    return TRUE;
  }
  return stream_open (d, &d->rx1, cfg, error);
}

static VmiTransport *
vmi_transport_dpdk_open (const VmiTransportConfig * cfg, GError ** error)
{
  VmiTransportDpdk *d = g_new0 (VmiTransportDpdk, 1);
  gchar *w = NULL;

  d->parent.klass = &vmi_transport_dpdk_class;
  d->dir = cfg->direction;
  if (!vmi_dpdk_context_acquire (cfg->dpdk_eal_args, &w, error))
    goto error;
  d->have_ctx = TRUE;
  append_warning (d, w);
  d->hz = rte_get_timer_hz ();
  /* `iface` names the port when set ("net_ring0", "0000:01:00.0") */
  d->port = vmi_dpdk_port_acquire (cfg->dpdk_port, cfg->iface, cfg->direction,
      cfg->rx_mbufs, cfg->shared_engine, &w, error);
  if (d->port == NULL)
    goto error;
  append_warning (d, w);
  vmi_dpdk_thread_register ();

  if (cfg->direction == VMI_TRANSPORT_DIR_SEND ? !open_send (d, cfg, error)
      : !open_receive (d, cfg, error))
    goto error;
  return &d->parent;

error:
  /* the advice found so far (other EAL arguments in force, ...) may be
   * why it failed */
  if (d->warning && error && *error)
    g_prefix_error (error, "%s; ", d->warning);
  vmi_transport_dpdk_close (&d->parent);
  return NULL;
}

/* The frames' owner frees them once the transport is closed: first get
 * back every mbuf still pointing into one (sent ones a NIC has not freed
 * yet, or that sit in a net_ring peer's queue). */
static void
drain_attached (VmiTransportDpdk * d)
{
  gint64 end = g_get_monotonic_time () + CLOSE_DRAIN_MS * 1000;

  while (g_atomic_int_get (&d->port->tx_attached) > 0) {
    if (g_get_monotonic_time () > end) {
      /* the frames stay referenced: their owner must not free them */
      g_warning ("dpdk transport: %d mbufs of port %u still point into "
          "frames after %d ms (a peer that stopped reading?)",
          g_atomic_int_get (&d->port->tx_attached), d->port->id,
          CLOSE_DRAIN_MS);
      return;
    }
    rte_eth_tx_done_cleanup (d->port->id, 0, 0);
    g_usleep (1000);
  }
}

static void
vmi_transport_dpdk_close (VmiTransport * t)
{
  VmiTransportDpdk *d = (VmiTransportDpdk *) t;

  /* the port's count is every sender's: with others of a shared engine
   * still sending it never drains (their engine waits for its own frames
   * instead, vmi-tx-engine.c) */
  if (d->port && d->dir == VMI_TRANSPORT_DIR_SEND
      && vmi_dpdk_port_senders (d->port) == 1)
    drain_attached (d);

  if (d->n_held)
    rte_pktmbuf_free_bulk (d->held, d->n_held);
  d->n_held = 0;
  if (d->streams) {
    guint i;

    for (i = 0; i < VMI_RX_ENGINE_MAX_STREAMS; i++)
      stream_close (d, &d->streams[i]);
    g_free (d->streams);
  }
  stream_close (d, &d->rx1);
  if (d->port)
    vmi_dpdk_port_release (d->port, d->dir);
  if (d->have_ctx)
    vmi_dpdk_context_release ();
  g_free (d->scratch);
  g_free (d->warning);
  g_free (d);
}

/* --- TX ----------------------------------------------------------------- */

/* May the port read @f's memory in place? A virtual device always can; a
 * NIC when the memory is registered for DMA (checked once per frame). */
static inline gboolean
frame_dma_ok (VmiTransportDpdk * d, const VmiTxFrame * f)
{
  if (d->port->vdev)
    return TRUE;
  if (f != d->dma_frame || f->mem != d->dma_mem) {
    d->dma_frame = f;
    d->dma_mem = f->mem;
    d->dma_ok = vmi_dma_contains (f->mem, f->size);
  }
  return d->dma_ok;
}

static void
run_free (void *addr, void *opaque)
{
  TxRun *run = opaque;
  VmiDpdkPort *port = run->port;
  gint n = run->n;

  vmi_tx_frame_unref_n (run->frame, n);
  rte_mempool_put (run->pool, run);
  g_atomic_int_add (&port->tx_attached, -n);
}

/* A datagram of a run that the PMD did not take gives its frame reference
 * and attached count back now, before its mbufs are freed (the run's last
 * free, which may come later from the PMD, gives back the rest). */
static void
run_untaken (struct rte_mbuf *h)
{
  struct rte_mbuf *e = h->next;
  TxRun *run;

  if (e == NULL || !RTE_MBUF_HAS_EXTBUF (e)
      || e->shinfo->free_cb != run_free)
    return;
  run = e->shinfo->fcb_opaque;
  run->n--;
  vmi_tx_frame_unref (run->frame);
  g_atomic_int_add (&run->port->tx_attached, -1);
}

/* The NIC is done with an attached payload. */
static void
ext_free (void *addr, void *opaque)
{
  VmiDpdkExtPriv *priv = opaque;
  VmiDpdkPort *port = priv->port;

  vmi_tx_frame_unref (priv->frame);
  g_atomic_int_add (&port->tx_attached, -1);
}

static inline const guint8 *
net_header (VmiTransportDpdk * d, guint payload)
{
  if (G_UNLIKELY (payload != d->net_hdr_payload)) {
    vmi_rawnet_build_udp_header (d->net_hdr, &d->flow, payload);
    d->net_hdr_payload = payload;
  }
  return d->net_hdr;
}

/* Appends @len bytes copied from @src to the chain ending in *@last,
 * growing it by a copy mbuf when *@last has no room. Plain memcpy (not
 * rte_memcpy): every copy stays visible to the tests' copy counter. */
static gboolean
chain_copy (VmiTransportDpdk * d, struct rte_mbuf *head,
    struct rte_mbuf **last, const void *src, gsize len)
{
  struct rte_mbuf *l = *last;
  gchar *dst;

  if (RTE_MBUF_HAS_EXTBUF (l) || rte_pktmbuf_tailroom (l) < len) {
    struct rte_mbuf *c = rte_pktmbuf_alloc (d->port->copy_pool);
    if (c == NULL)
      return FALSE;
    l->next = c;
    head->nb_segs++;
    *last = l = c;
  }
  dst = rte_pktmbuf_mtod_offset (l, gchar *, l->data_len);
  memcpy (dst, src, len);
  l->data_len += len;
  head->pkt_len += len;
  return TRUE;
}

/* One datagram as an mbuf (chain), or NULL when a pool is empty. */
static struct rte_mbuf *
build_datagram (VmiTransportDpdk * d, const VmiTxDatagram * dg, guint len)
{
  struct rte_mbuf *h, *last;
  guint k;

  h = rte_pktmbuf_alloc (d->port->chains ? d->port->hdr_pool :
      d->port->copy_pool);
  if (G_UNLIKELY (h == NULL))
    return NULL;
  memcpy (rte_pktmbuf_mtod (h, guint8 *), net_header (d, len),
      VMI_RAWNET_UDP_HDR_LEN);
  h->data_len = h->pkt_len = VMI_RAWNET_UDP_HDR_LEN;
  last = h;
  for (k = 0; k < dg->n_iov; k++) {
    const guint8 *base = dg->iov[k].iov_base;
    gsize l = dg->iov[k].iov_len;

    if (l == 0)
      continue;
    if (d->zerocopy && l >= EXT_MIN
        && vmi_tx_frame_contains (dg->frame, base, l)
        && frame_dma_ok (d, dg->frame)) {
      struct rte_mbuf *e = rte_pktmbuf_alloc (d->port->ext_pool);
      VmiDpdkExtPriv *priv;

      if (G_UNLIKELY (e == NULL))
        goto no_mbuf;
      priv = vmi_dpdk_ext_priv (e);
      priv->frame = dg->frame;
      priv->port = d->port;
      priv->shinfo.free_cb = ext_free;
      priv->shinfo.fcb_opaque = priv;
      rte_mbuf_ext_refcnt_set (&priv->shinfo, 1);
      rte_pktmbuf_attach_extbuf (e, (void *) base, d->iova_va ?
          (rte_iova_t) (uintptr_t) base : rte_mem_virt2iova (base), l,
          &priv->shinfo);
      e->data_len = l;
      e->pkt_len = l;
      vmi_tx_frame_ref (dg->frame);
      g_atomic_int_inc (&d->port->tx_attached);
      last->next = e;
      h->nb_segs++;
      h->pkt_len += l;
      last = e;
    } else if (G_UNLIKELY (!chain_copy (d, h, &last, base, l))) {
      goto no_mbuf;
    }
  }
  return h;

no_mbuf:
  rte_pktmbuf_free (h);
  return NULL;
}

/* Headers up to this long go straight behind the network header in the
 * header mbuf on the fast path (HDR_ROOM in vmi-dpdk-context.c: 128) */
#define FAST_HDR_MAX 64

/* The common case of a zero-copy send: a header piece and one payload piece
 * inside @f. */
static inline gboolean
fast_datagram (const VmiTxDatagram * e, const VmiTxFrame * f)
{
  return e->gap_wire_bytes == 0 && e->n_iov == 2 && e->frame == f
      && e->iov[0].iov_len <= FAST_HDR_MAX && e->iov[1].iov_len >= EXT_MIN
      && e->iov[1].iov_len <= VMI_RAWNET_MAX_UDP_PAYLOAD - FAST_HDR_MAX
      && vmi_tx_frame_contains (f, e->iov[1].iov_base, e->iov[1].iov_len);
}

/* A datagram's own header (RTP and the like, up to FAST_HDR_MAX bytes) as
 * two fixed-size moves that overlap: a copy of a variable size is a libc
 * call per datagram */
static inline void
copy_header (guint8 * dst, const guint8 * src, guint len)
{
  if (len >= 32) {
    memcpy (dst, src, 32);
    memcpy (dst + len - 32, src + len - 32, 32);
  } else if (len >= 16) {
    memcpy (dst, src, 16);
    memcpy (dst + len - 16, src + len - 16, 16);
  } else {
    memcpy (dst, src, len);
  }
}

/* Builds up to @n datagrams of the fast kind (all of one frame) into @m,
 * two mbufs each taken from the pools in bulk, the payload mbufs sharing
 * one TxRun; the frame references and the port's attached count (one per
 * datagram, as build_datagram() takes) are added once for the run.
 * Returns how many (0: not the fast kind, or a pool is empty). */
static guint
build_fast (VmiTransportDpdk * d, const VmiTxDatagram * dg, guint n,
    struct rte_mbuf **m)
{
  struct rte_mbuf *ext[TX_CHUNK];
  VmiTxFrame *f = dg[0].frame;
  TxRun *run;
  guint r, i;

  if (!d->zerocopy || f == NULL || d->run_pool == NULL
      || !frame_dma_ok (d, f))
    return 0;
  for (r = 0; r < n && fast_datagram (&dg[r], f); r++);
  if (r == 0)
    return 0;
  if (G_UNLIKELY (rte_mempool_get (d->run_pool, (void **) &run) != 0))
    return 0;
  if (G_UNLIKELY (rte_pktmbuf_alloc_bulk (d->port->hdr_pool, m, r) != 0)) {
    rte_mempool_put (d->run_pool, run);
    return 0;
  }
  if (G_UNLIKELY (rte_pktmbuf_alloc_bulk (d->port->ext_pool, ext, r) != 0)) {
    rte_pktmbuf_free_bulk (m, r);
    rte_mempool_put (d->run_pool, run);
    return 0;
  }
  run->frame = f;
  run->port = d->port;
  run->pool = d->run_pool;
  run->shinfo.free_cb = run_free;
  run->shinfo.fcb_opaque = run;
  run->n = r;
  rte_mbuf_ext_refcnt_set (&run->shinfo, r);
  for (i = 0; i < r; i++) {
    const struct iovec *iov = dg[i].iov;
    struct rte_mbuf *h = m[i], *e = ext[i];
    guint8 *p = rte_pktmbuf_mtod (h, guint8 *);
    guint hl = iov[0].iov_len, pl = iov[1].iov_len;
    void *base = iov[1].iov_base;

    memcpy (p, net_header (d, hl + pl), VMI_RAWNET_UDP_HDR_LEN);
    copy_header (p + VMI_RAWNET_UDP_HDR_LEN, iov[0].iov_base, hl);
    h->data_len = VMI_RAWNET_UDP_HDR_LEN + hl;
    h->pkt_len = VMI_RAWNET_UDP_HDR_LEN + hl + pl;
    h->nb_segs = 2;
    h->next = e;

    rte_pktmbuf_attach_extbuf (e, base, d->iova_va ?
        (rte_iova_t) (uintptr_t) base : rte_mem_virt2iova (base), pl,
        &run->shinfo);
    e->data_len = pl;
    e->pkt_len = pl;
  }
  g_atomic_int_add (&f->refs, r);
  g_atomic_int_add (&d->port->tx_attached, r);
  return r;
}

static struct rte_mbuf *
build_gap (VmiTransportDpdk * d, guint wire_bytes)
{
  struct rte_mbuf *m = rte_pktmbuf_alloc (d->port->copy_pool);
  guint len;

  if (G_UNLIKELY (m == NULL))
    return NULL;
  len = vmi_gap_frame_build (rte_pktmbuf_mtod (m, guint8 *),
      rte_pktmbuf_tailroom (m), wire_bytes, d->flow.src_mac, d->gap_opcode);
  m->data_len = m->pkt_len = len;
  return m;
}

static gboolean
link_down (VmiTransportDpdk * d)
{
  struct rte_eth_link link;

  memset (&link, 0, sizeof (link));
  return rte_eth_link_get_nowait (d->port->id, &link) == 0
      && link.link_status == RTE_ETH_LINK_DOWN;
}

static gint
vmi_transport_dpdk_send_burst (VmiTransport * t, const VmiTxDatagram * dg,
    guint n, GError ** error)
{
  VmiTransportDpdk *d = (VmiTransportDpdk *) t;
  struct rte_mbuf *m[TX_CHUNK];
  guint gap[TX_CHUNK];
  guint done = 0, i, built, k;
  guint16 sent;

  vmi_dpdk_thread_register ();
  while (done < n) {
    guint chunk = MIN (n - done, TX_CHUNK);

    for (built = 0; built < chunk; built++) {
      const VmiTxDatagram *e = &dg[done + built];
      /* runs of one frame each: a frame (a ring slice) may end mid-chunk */
      guint r = build_fast (d, e, chunk - built, m + built);

      if (r > 0) {
        memset (gap + built, 0, r * sizeof (gap[0]));
        built += r - 1;
        continue;
      }
      if (e->gap_wire_bytes) {
        if (G_UNLIKELY (e->gap_wire_bytes < VMI_GAP_MIN_WIRE_BYTES
                || e->gap_wire_bytes > VMI_GAP_MAX_WIRE_BYTES))
          goto bad_gap;
        m[built] = build_gap (d, e->gap_wire_bytes);
        gap[built] = e->gap_wire_bytes;
      } else {
        gsize len = 0;
        for (k = 0; k < e->n_iov; k++)
          len += e->iov[k].iov_len;
        if (G_UNLIKELY (len > VMI_RAWNET_MAX_UDP_PAYLOAD))
          goto too_big;
        m[built] = build_datagram (d, e, len);
        gap[built] = 0;
      }
      if (G_UNLIKELY (m[built] == NULL))
        break;
    }
    /* an empty pool is a full queue seen from here: mbufs are in flight */
    if (G_UNLIKELY (built == 0))
      return done;
    sent = tx_burst (d, m, built);
    if (G_UNLIKELY (sent == 0) && link_down (d)) {
      /* no carrier: dropped, as a NIC without one would, so that a
       * sender never spins on a dead link (or a net_memif peer gone) */
      rte_pktmbuf_free_bulk (m, built);
      done += built;
      continue;
    }
    for (i = 0; i < sent; i++)
      if (gap[i]) {
        d->tx_gap_frames++;
        d->tx_gap_bytes += gap[i];
      }
    done += sent;
    if (sent < built) {
      /* what the PMD did not take is ours to free (the frame references
       * go with it) */
      for (i = sent; i < built; i++)
        run_untaken (m[i]);
      rte_pktmbuf_free_bulk (&m[sent], built - sent);
      return done;
    }
    if (built < chunk)
      return done;
  }
  return done;

  /* ERRORS */
bad_gap:
  {
    guint w = dg[done + built].gap_wire_bytes;
    if (built)
      rte_pktmbuf_free_bulk (m, built);
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "gap of %u wire bytes: a gap frame occupies %u...%u", w,
        VMI_GAP_MIN_WIRE_BYTES, VMI_GAP_MAX_WIRE_BYTES);
    return -1;
  }
too_big:
  {
    if (built)
      rte_pktmbuf_free_bulk (m, built);
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "datagram larger than %u bytes: it does not fit a 1500-byte "
        "Ethernet frame", VMI_RAWNET_MAX_UDP_PAYLOAD);
    return -1;
  }
}

/* --- RX ----------------------------------------------------------------- */

static void
answer (VmiTransportDpdk * d, const RxStream * rs, VmiRawnetRxKind kind,
    const guint8 * frame, gsize len, const guint8 * msg, gsize msg_len)
{
  guint8 buf[VMI_RAWNET_CTRL_FRAME_MAX];
  gsize out;

  if (kind == VMI_RAWNET_RX_ARP_REQUEST && rs->local_ip) {
    out = vmi_rawnet_build_arp_reply (buf, sizeof (buf), frame, len,
        d->port->mac.addr_bytes, rs->local_ip);
    if (out)
      vmi_dpdk_port_send_ctrl (d->port, buf, out);
  } else if (kind == VMI_RAWNET_RX_IGMP_QUERY && rs->joined) {
    guint32 g = vmi_rawnet_igmp_query_group (msg, msg_len);
    if (g == 0 || g == rs->filter.group)
      send_igmp (d, rs, TRUE, TRUE);
  }
}

/* Demux: the stream a frame is for, by its IPv4 destination and UDP
 * destination port (read in place, checked by the stream's filter after),
 * or VMI_RX_DEMUX_NONE */
static inline guint
demux_stream (VmiTransportDpdk * d, const guint8 * frame, gsize len)
{
  guint ihl;

  if (G_UNLIKELY (len < VMI_RAWNET_ETH_HDR_LEN + 20 + 8)
      || frame[12] != 0x08 || frame[13] != 0x00 || frame[23] != 17)
    return VMI_RX_DEMUX_NONE;
  ihl = (frame[14] & 0xf) * 4;
  if (G_UNLIKELY (len < VMI_RAWNET_ETH_HDR_LEN + ihl + 8))
    return VMI_RX_DEMUX_NONE;
  return vmi_rx_demux_lookup (&d->table, *(const guint32 *) (gconstpointer)
      (frame + 30), (guint16) (frame[VMI_RAWNET_ETH_HDR_LEN + ihl + 2] << 8 |
          frame[VMI_RAWNET_ETH_HDR_LEN + ihl + 3]));
}

/* Demux: a frame no stream took (ARP, IGMP, strays): the answers each
 * stream owes */
static void
demux_control (VmiTransportDpdk * d, const guint8 * frame, gsize len)
{
  guint i;

  /* only ARP and IGMP ask for answers */
  if (len < VMI_RAWNET_ETH_HDR_LEN + 20 || frame[12] != 0x08
      || (frame[13] != 0x06 && (frame[13] != 0x00 || frame[23] != 2)))
    return;
  for (i = 0; i < VMI_RX_ENGINE_MAX_STREAMS; i++) {
    const RxStream *rs = &d->streams[i];
    const guint8 *payload;
    gsize plen;
    guint32 src;
    VmiRawnetRxKind kind;

    if (!rs->used)
      continue;
    kind = vmi_rawnet_classify (frame, len, &rs->filter, &payload, &plen,
        &src);
    if (kind == VMI_RAWNET_RX_ARP_REQUEST || kind == VMI_RAWNET_RX_IGMP_QUERY)
      answer (d, rs, kind, frame, len, payload, plen);
  }
}

static gint
vmi_transport_dpdk_recv_burst (VmiTransport * t, VmiRxSlot * slots, guint n,
    gint64 timeout_us, GError ** error)
{
  VmiTransportDpdk *d = (VmiTransportDpdk *) t;
  struct rte_mbuf *rx[RX_MAX];
  guint64 deadline = 0;
  guint idle = 0;

  if (d->n_held) {
    rte_pktmbuf_free_bulk (d->held, d->n_held);
    d->n_held = 0;
  }
  vmi_dpdk_thread_register ();
  n = MIN (n, RX_MAX);

  for (;;) {
    guint16 k, j;
    guint got = 0;

    if (G_UNLIKELY (g_atomic_int_get (&d->wake) > 0)) {
      g_atomic_int_add (&d->wake, -1);
      return 0;
    }
    k = rte_eth_rx_burst (d->port->id, 0, rx, n);
    /* the mbufs of a PMD that only passes them on (net_ring, a peer's
     * zero-copy memif) were last written on another core: ask for all of
     * them at once, so the reads of buf_addr below do not wait one by one */
    for (j = 0; j < k; j++)
      rte_prefetch0 (rx[j]);
    /* a NIC's DMA leaves the headers out of the cache: fetch them a few
     * frames ahead of the classification that reads them */
    for (j = 0; j < MIN (k, RX_PREFETCH); j++)
      rte_prefetch0 (rte_pktmbuf_mtod (rx[j], void *));
    for (j = 0; j < k; j++) {
      struct rte_mbuf *m = rx[j];
      const guint8 *frame, *payload;
      gsize plen;
      guint32 src;
      VmiRawnetRxKind kind;

      if (j + RX_PREFETCH < k)
        rte_prefetch0 (rte_pktmbuf_mtod (rx[j + RX_PREFETCH], void *));
      if (G_LIKELY (m->nb_segs == 1))
        frame = rte_pktmbuf_mtod (m, const guint8 *);
      else if (m->pkt_len <= RX_SCRATCH)
        /* a chain (net_ring from our own TX): one contiguous copy */
        frame = rte_pktmbuf_read (m, 0, m->pkt_len,
            d->scratch + (gsize) got * RX_SCRATCH);
      else
        frame = NULL;
      if (d->demux) {
        guint id = frame ? demux_stream (d, frame, m->pkt_len) :
            VMI_RX_DEMUX_NONE;

        kind = id != VMI_RX_DEMUX_NONE ? vmi_rawnet_classify (frame,
            m->pkt_len, &d->streams[id].filter, &payload, &plen, &src) :
            VMI_RAWNET_RX_OTHER;
        if (G_LIKELY (kind == VMI_RAWNET_RX_OURS)) {
          slots[got].data = payload;
          slots[got].len = plen;
          slots[got].src_ipv4 = src;
          slots[got].stream = id;
          d->held[got++] = m;
          continue;
        }
        if (frame)
          demux_control (d, frame, m->pkt_len);
        d->rx_filtered++;
        rte_pktmbuf_free (m);
        continue;
      }
      kind = frame ? vmi_rawnet_classify (frame, m->pkt_len, &d->rx1.filter,
          &payload, &plen, &src) : VMI_RAWNET_RX_MALFORMED;
      if (G_LIKELY (kind == VMI_RAWNET_RX_OURS)) {
        slots[got].data = payload;
        slots[got].len = plen;
        slots[got].src_ipv4 = src;
        slots[got].stream = 0;
        d->held[got++] = m;
        continue;
      }
      if (kind == VMI_RAWNET_RX_ARP_REQUEST
          || kind == VMI_RAWNET_RX_IGMP_QUERY)
        answer (d, &d->rx1, kind, frame, m->pkt_len, payload, plen);
      d->rx_filtered++;
      rte_pktmbuf_free (m);
    }
    if (got) {
      d->n_held = got;
      return got;
    }
    if (timeout_us == 0)
      return 0;
    /* frames not ours count as idle too: a port full of other traffic
     * must not stretch the timeout. The clock is read only once idle: a
     * busy receiver never pays for it */
    if (deadline == 0 && timeout_us > 0)
      deadline = rte_get_timer_cycles () + d->hz * (guint64) timeout_us /
          G_USEC_PER_SEC;
    else if (deadline && rte_get_timer_cycles () >= deadline)
      return 0;
    if (k == 0) {
      if (++idle % IDLE_POLLS_PER_YIELD == 0)
        sched_yield ();
      else
        rte_pause ();
    }
  }
}

static void
vmi_transport_dpdk_wakeup (VmiTransport * t)
{
  VmiTransportDpdk *d = (VmiTransportDpdk *) t;

  g_atomic_int_inc (&d->wake);
}

static gboolean
vmi_transport_dpdk_add_stream (VmiTransport * t, guint id,
    const VmiTransportConfig * cfg, GError ** error)
{
  VmiTransportDpdk *d = (VmiTransportDpdk *) t;
  RxStream *rs;

  if (!d->demux || id >= VMI_RX_ENGINE_MAX_STREAMS || d->streams[id].used) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "DPDK port %u (%s): stream %u cannot be added", d->port->id,
        d->port->name, id);
    return FALSE;
  }
  rs = &d->streams[id];
  if (!stream_open (d, rs, cfg, error))
    return FALSE;
  if (!vmi_rx_demux_add (&d->table, rs->filter.group ? rs->filter.group :
          rs->filter.local_ip, rs->filter.port, id)) {
    stream_close (d, rs);
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_BUSY,
        "another receiver of this shared engine takes %s:%u on DPDK port "
        "%u (%s) already: give each receiver its own address and port",
        cfg->address && *cfg->address ? cfg->address : "0.0.0.0", cfg->port,
        d->port->id, d->port->name);
    return FALSE;
  }
  return TRUE;
}

static void
vmi_transport_dpdk_remove_stream (VmiTransport * t, guint id)
{
  VmiTransportDpdk *d = (VmiTransportDpdk *) t;

  if (!d->demux || id >= VMI_RX_ENGINE_MAX_STREAMS)
    return;
  vmi_rx_demux_remove (&d->table, id);
  stream_close (d, &d->streams[id]);
}

static const gchar *
vmi_transport_dpdk_get_warning (VmiTransport * t)
{
  return ((VmiTransportDpdk *) t)->warning;
}

static void
vmi_transport_dpdk_get_stats (VmiTransport * t, VmiTransportStats * s)
{
  VmiTransportDpdk *d = (VmiTransportDpdk *) t;
  struct rte_eth_stats st;

  if (d->dir == VMI_TRANSPORT_DIR_RECEIVE) {
    /* drops before the RX ring: the NIC's (imissed) and ours (no mbuf) */
    if (rte_eth_stats_get (d->port->id, &st) == 0)
      s->rx_dropped = st.imissed + st.rx_nombuf - MIN (d->drop_base,
          st.imissed + st.rx_nombuf);
    s->rx_filtered = d->rx_filtered;
  } else {
    s->tx_gap_frames = d->tx_gap_frames;
    s->tx_gap_bytes = d->tx_gap_bytes;
  }
}

const VmiTransportClass vmi_transport_dpdk_class = {
  .name = "dpdk",
  .kind = VMI_TRANSPORT_KIND_DPDK,
  .caps = VMI_TRANSPORT_CAP_RAW_ETHERNET | VMI_TRANSPORT_CAP_GAP_FRAMES |
      VMI_TRANSPORT_CAP_ZEROCOPY_TX | VMI_TRANSPORT_CAP_BUSY_POLL |
      VMI_TRANSPORT_CAP_DEMUX,
  .open = vmi_transport_dpdk_open,
  .close = vmi_transport_dpdk_close,
  .send_burst = vmi_transport_dpdk_send_burst,
  .recv_burst = vmi_transport_dpdk_recv_burst,
  .wakeup = vmi_transport_dpdk_wakeup,
  .get_warning = vmi_transport_dpdk_get_warning,
  .get_stats = vmi_transport_dpdk_get_stats,
  .add_stream = vmi_transport_dpdk_add_stream,
  .remove_stream = vmi_transport_dpdk_remove_stream,
};
