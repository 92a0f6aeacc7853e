/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The process-wide DPDK context of the dpdk transport: one EAL per process,
 * started by the first element that needs it and shared (refcounted) by
 * every later one, and the ports it has opened (the gst-plugins-bad
 * sys/aja device-handle pattern: a mutex-protected table of refcounted
 * handles).
 *
 * The EAL is never cleaned up while the process runs: DPDK cannot start an
 * EAL again after rte_eal_cleanup() (rte_eal_init() fails with EALREADY),
 * so a pipeline that goes NULL -> READY a second time would find no DPDK.
 * When the last user goes the ports are stopped (the NIC stops receiving)
 * and the EAL stays; rte_eal_cleanup() runs at process exit, and only when
 * no transport is open then. */

#ifndef __VMI_DPDK_H__
#define __VMI_DPDK_H__

#include <glib.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>

#include "transport/vmi-transport.h"

G_BEGIN_DECLS

typedef struct
{
  guint16 id;
  gchar name[RTE_ETH_NAME_MAX_LEN];
  gchar driver[64];
  struct rte_ether_addr mac;

  /* under the context mutex */
  gboolean configured;
  guint tx_used;                /* senders */
  gboolean rx_used;
  gchar *tx_engine;             /* their shared transmit engine, or NULL */

  /* fixed once configured */
  gboolean chains;              /* TX takes multi-segment mbufs */
  gboolean vdev;                /* a virtual device: the CPU reads TX mbufs,
                                 * so any virtual address will do */
  guint16 rx_desc, tx_desc;
  struct rte_mempool *rx_pool;  /* RX ring and control frames */
  struct rte_mempool *hdr_pool; /* TX: Ethernet/IP/UDP + RTP headers */
  struct rte_mempool *ext_pool; /* TX: mbufs attached to frame memory */
  struct rte_mempool *copy_pool;        /* TX: copied datagrams, gap frames */

  /* the TX queue: a sender's datagrams and a receiver's ARP/IGMP answers */
  rte_spinlock_t txq0_lock;
  gint tx_attached;             /* atomic: TX mbufs pointing into frames */
} VmiDpdkPort;

/* Private area of every ext_pool mbuf: the shared info DPDK keeps for an
 * attached external buffer, and the frame whose memory it points into. */
typedef struct
{
  struct rte_mbuf_ext_shared_info shinfo;
  VmiTxFrame *frame;
  VmiDpdkPort *port;            /* ports live as long as the process */
} VmiDpdkExtPriv;

/* Starts the EAL from @eal_args on first use (a shell-quoted string, as on
 * the dpdk-testpmd command line) and takes a reference. When the EAL runs
 * already with other arguments, *@warning says which ones are in force. */
gboolean vmi_dpdk_context_acquire (const gchar * eal_args, gchar ** warning,
    GError ** error);
void vmi_dpdk_context_release (void);

/* The port for @dir: by @name (a DPDK device name such as "net_pcap0" or a
 * PCI address) when not NULL/empty, else by index @index. Configures and
 * starts it when nobody uses it yet. Fails with VMI_TRANSPORT_ERROR_BUSY
 * when another element of the process uses that direction of the port,
 * unless both send for the same shared transmit engine (@tx_engine not
 * NULL or empty).
 * Needs a context reference. *@warning: advice (link down, ...).
 * @rx_mbufs: the receive pool's size when this call configures the port
 * (0: the default, 8191). */
VmiDpdkPort *vmi_dpdk_port_acquire (gint index, const gchar * name,
    VmiTransportDirection dir, guint rx_mbufs, const gchar * tx_engine,
    gchar ** warning, GError ** error);
void vmi_dpdk_port_release (VmiDpdkPort * port, VmiTransportDirection dir);
/* Senders of the port now (senders of one shared transmit engine share
 * it: @tx_engine of vmi_dpdk_port_acquire()) */
guint vmi_dpdk_port_senders (VmiDpdkPort * port);

/* Sends one control frame (ARP, IGMP) of @len bytes; from any thread. */
gboolean vmi_dpdk_port_send_ctrl (VmiDpdkPort * port, const guint8 * frame,
    gsize len);

/* Lets the calling thread use the mempools' per-lcore caches (a DPDK
 * lcore id, given back when the thread exits). Cheap after the first call. */
void vmi_dpdk_thread_register (void);

static inline VmiDpdkExtPriv *
vmi_dpdk_ext_priv (struct rte_mbuf *m)
{
  return (VmiDpdkExtPriv *) rte_mbuf_to_priv (m);
}

G_END_DECLS

#endif /* __VMI_DPDK_H__ */
