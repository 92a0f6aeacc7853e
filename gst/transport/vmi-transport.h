/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The transport interface: how st2022sink and st2022src move datagrams.
 *
 * Plain C (GLib types, no GObject, no GStreamer) so that the socket,
 * AF_PACKET and DPDK transports and the tests can share it. A transport moves
 * UDP *payloads*: raw transports (packet, dpdk) build the Ethernet/IP/UDP
 * headers themselves from the same configuration, so the elements never know
 * which one they talk to.
 *
 * Threading: one transport instance is used by one streaming thread;
 * vmi_transport_wakeup() is the only call that may come from another thread
 * (the elements' unlock()). */

#ifndef __VMI_TRANSPORT_H__
#define __VMI_TRANSPORT_H__

#include <glib.h>
#include <string.h>
#include <sys/uio.h>

G_BEGIN_DECLS

typedef enum
{
  VMI_TRANSPORT_KIND_SOCKET = 0,
  VMI_TRANSPORT_KIND_PACKET = 1,
  VMI_TRANSPORT_KIND_DPDK = 2,
} VmiTransportKind;

typedef enum
{
  VMI_TRANSPORT_DIR_SEND = 0,
  VMI_TRANSPORT_DIR_RECEIVE = 1,
} VmiTransportDirection;

/* What a transport can do; the elements ask for a capability, never for a
 * transport kind (a new transport touches neither the elements nor the
 * other transports). */
typedef enum
{
  /* builds Ethernet/IPv4/UDP itself: `bind-address`, `destination-mac`
   * and `iface` apply; it sees every frame on the wire (ARP, IGMP, ...) */
  VMI_TRANSPORT_CAP_RAW_ETHERNET = 1 << 0,
  /* burst entries may be gap frames (VmiTxDatagram.gap_wire_bytes): the
   * NIC's queue is the burst's queue, so a Pacing-Assistant can drive it */
  VMI_TRANSPORT_CAP_GAP_FRAMES = 1 << 1,
  /* the NIC may still read payload memory after send_burst() returns: the
   * transport holds VmiTxFrame references until it is done (see below) */
  VMI_TRANSPORT_CAP_ZEROCOPY_TX = 1 << 2,
  /* recv_burst() busy-polls (kernel bypass): call it from a thread of its
   * own, never from a streaming thread that also does other work */
  VMI_TRANSPORT_CAP_BUSY_POLL = 1 << 3,
  /* RECEIVE opened with VmiTransportConfig.demux: takes any number of
   * streams (add_stream/remove_stream) and names each datagram's stream
   * in VmiRxSlot.stream (a shared receive engine, gst/transport/vmi-rx-engine.h) */
  VMI_TRANSPORT_CAP_DEMUX = 1 << 4,
} VmiTransportCaps;

#define VMI_TRANSPORT_ERROR (vmi_transport_error_quark ())

typedef enum
{
  VMI_TRANSPORT_ERROR_ADDRESS,      /* bad host/address/interface/MAC */
  VMI_TRANSPORT_ERROR_OPEN,         /* socket()/bind()/join/port start failed */
  VMI_TRANSPORT_ERROR_IO,           /* send/receive failed hard */
  VMI_TRANSPORT_ERROR_UNSUPPORTED,  /* transport/feature not in this build */
  VMI_TRANSPORT_ERROR_BUSY,         /* port/interface already used by another element */
  VMI_TRANSPORT_ERROR_PERMISSION,   /* needs root / CAP_NET_RAW / hugepages */
  /* the network interface is missing or down, or the address is not on
   * the host (yet): opening again may work once the link is there (an ST
   * 2022-7 second path waits for it rather than failing) */
  VMI_TRANSPORT_ERROR_LINK,
} VmiTransportErrorCode;

/* Gap-frame kind of raw transports (the sink's `gap-frame`, docs/pacing.md), the
 * 802.3 MAC-control opcode written (gst/pacing/vmi-gap-frame.h). */
typedef enum
{
  VMI_TRANSPORT_GAP_MAC_CONTROL = 0,    /* opcode 0x0000, default */
  VMI_TRANSPORT_GAP_PAUSE = 1,          /* PAUSE, quanta 0 */
} VmiTransportGapKind;

/* Everything a transport needs to open. Strings are borrowed for the
 * duration of open() only. */
typedef struct
{
  VmiTransportDirection direction;
  /* SEND: destination host (unicast or multicast group).
   * RECEIVE: local address to bind; a multicast group is joined. */
  const gchar *address;
  guint16 port;
  /* interface name for multicast join / multicast send; NULL = default */
  const gchar *multicast_iface;
  /* RECEIVE: SSM source (IP_ADD_SOURCE_MEMBERSHIP); NULL = any source */
  const gchar *source_address;
  /* SEND: multicast TTL */
  gint ttl_mc;
  /* requested kernel socket buffer (SO_RCVBUF / SO_SNDBUF), bytes; 0 = OS
   * default */
  gint buffer_size;
  /* raw transports: interface name, DPDK EAL arguments and port */
  const gchar *iface;
  const gchar *dpdk_eal_args;
  gint dpdk_port;
  /* SEND: source IPv4 of raw frames / local bind address on sockets;
   * NULL = the interface's own */
  const gchar *bind_address;
  /* SEND, raw, unicast: "aa:bb:cc:dd:ee:ff"; NULL or "" = resolve by ARP
   * (multicast always derives 01:00:5e:...) */
  const gchar *destination_mac;
  /* SEND, raw: what gap entries are made of */
  VmiTransportGapKind gap_kind;
  /* SEND: source UDP port; 0 = the transport picks (sockets: ephemeral,
   * raw: the destination port) */
  guint16 source_port;
  /* SEND, transports with VMI_TRANSPORT_CAP_ZEROCOPY_TX: let the NIC read
   * payloads in place (sockets: MSG_ZEROCOPY) */
  gboolean zerocopy;
  /* RECEIVE, VMI_TRANSPORT_CAP_DEMUX: open the port for streams added
   * later with add_stream() (address, port and source_address of this
   * configuration are then not a stream) */
  gboolean demux;
  /* RECEIVE, dpdk: mbufs of the port's receive pool when this open
   * configures the port; 0 = the transport's default */
  guint rx_mbufs;
  /* SEND, dpdk: the shared transmit engine (vmi-tx-shared.h) this sender
   * joins; senders naming the same one share the port's TX queue. NULL or
   * "": the port's only sender */
  const gchar *shared_engine;
  /* how the element names this path's properties in messages: NULL or ""
   * for the primary, "secondary-" for an ST 2022-7 second path (a static
   * string: the transport keeps it) */
  const gchar *prop_prefix;
  /* transport=packet: an interface without carrier fails the open (LINK)
   * instead of opening with a warning (the other transports do not send
   * through an interface of their own): set when a path is reopened in
   * the background, where
   * the open is tried again and a path counts as up only once it can
   * carry (a freshly set-up interface drops what is sent until the kernel
   * has activated it, and the send calls still succeed) */
  gboolean need_carrier;
} VmiTransportConfig;

/* TX ownership contract (zero-copy TX).
 *
 * A frame's datagrams point into memory owned by the element (the SDI
 * raster). Every burst entry names its VmiTxFrame. A transport that lets
 * the NIC read payload memory after send_burst() has returned
 * (VMI_TRANSPORT_CAP_ZEROCOPY_TX) takes one reference per datagram it
 * keeps with vmi_tx_frame_ref() and drops it when the NIC is done; any
 * iovec not wholly inside [mem, mem + size) it must copy before returning
 * (headers, the zero-padded tail). The element holds one reference of its
 * own while it submits the frame and drops it after the last burst;
 * @release runs (on whichever thread drops the last reference) when
 * nothing reads the memory any more, and only then may it be rewritten.
 * Copying transports never take a reference, so for them @release runs
 * when the element drops its own. */
typedef struct _VmiTxFrame VmiTxFrame;
struct _VmiTxFrame
{
  gint refs;                    /* atomic */
  const guint8 *mem;            /* memory that stays valid until @release */
  gsize size;
  void (*release) (VmiTxFrame * frame, gpointer user_data);
  gpointer user_data;
};

static inline void
vmi_tx_frame_init (VmiTxFrame * f, const guint8 * mem, gsize size,
    void (*release) (VmiTxFrame *, gpointer), gpointer user_data)
{
  f->mem = mem;
  f->size = size;
  f->release = release;
  f->user_data = user_data;
  g_atomic_int_set (&f->refs, 1);
}

static inline void
vmi_tx_frame_ref (VmiTxFrame * f)
{
  g_atomic_int_inc (&f->refs);
}

static inline void
vmi_tx_frame_unref (VmiTxFrame * f)
{
  if (g_atomic_int_dec_and_test (&f->refs) && f->release)
    f->release (f, f->user_data);
}

/* Drops @n references at once (a transport that took them together). */
static inline void
vmi_tx_frame_unref_n (VmiTxFrame * f, gint n)
{
  if (n > 0 && g_atomic_int_add (&f->refs, -n) == n && f->release)
    f->release (f, f->user_data);
}

/* TRUE when [p, p + len) lies in the frame's stable memory. */
static inline gboolean
vmi_tx_frame_contains (const VmiTxFrame * f, const void *p, gsize len)
{
  const guint8 *b = (const guint8 *) p;
  return f != NULL && b >= f->mem && len <= f->size
      && (gsize) (b - f->mem) <= f->size - len;
}

/* One burst entry: a datagram (a gather list of UDP payload pieces:
 * RTP+HBRMT header bytes, a pointer into the frame's raster, padding), or,
 * when @gap_wire_bytes is not 0, a gap frame occupying that many bytes of
 * wire time (preamble, SFD, FCS and IFG included; 84...1538; only on
 * transports with VMI_TRANSPORT_CAP_GAP_FRAMES) so one burst carries a
 * Pacing-Assistant's SEND/WAIT stream in order. */
typedef struct
{
  struct iovec *iov;
  guint n_iov;
  guint gap_wire_bytes;
  VmiTxFrame *frame;            /* NULL: the memory is valid during the call only */
} VmiTxDatagram;

/* One received datagram, in the transport's memory (a socket buffer, a
 * packet ring, an mbuf): valid until the next recv_burst() or close(), so
 * transports that receive in place (DPDK) hand datagrams over without a
 * copy. */
typedef struct
{
  const guint8 *data;
  gsize len;
  guint32 src_ipv4;             /* network byte order, 0 when not IPv4 */
  guint stream;                 /* demux: the add_stream() id, else 0 */
} VmiRxSlot;

/* Counters a transport keeps below the elements (all cumulative). */
typedef struct
{
  /* datagrams the kernel or NIC dropped before we saw them
   * (SO_RXQ_OVFL, imissed, rx_nombuf, ring overruns) */
  guint64 rx_dropped;
  /* raw transports: frames received that were not our stream (other
   * ports, groups, ARP/IGMP handled, non-IPv4) */
  guint64 rx_filtered;
  /* TX: gap frames and their wire bytes; times the TX queue ran empty
   * while a burst was pending (a Pacing-Assistant's underrun) */
  guint64 tx_gap_frames;
  guint64 tx_gap_bytes;
  /* TX with zerocopy: sends whose completion came back, and those of them
   * the kernel copied after all (loopback, veth, a device without
   * scatter-gather) */
  guint64 tx_zerocopy_done;
  guint64 tx_zerocopy_copied;
} VmiTransportStats;

typedef struct _VmiTransport VmiTransport;

typedef struct
{
  const gchar *name;
  VmiTransportKind kind;
  guint caps;                   /* VmiTransportCaps */

  /* Allocates the instance and opens it. Returns NULL and sets @error on
   * failure; the error message says what to do. */
  VmiTransport *(*open) (const VmiTransportConfig * config, GError ** error);
  void (*close) (VmiTransport * t);

  /* Sends @n entries (datagrams or gaps) as one burst, in order. Returns
   * the number queued (a short count means the queue is full; retry the
   * rest), or -1 with @error set. */
  gint (*send_burst) (VmiTransport * t, const VmiTxDatagram * dgrams, guint n,
      GError ** error);

  /* Receives up to @n datagrams, filling @slots, waiting at most
   * @timeout_us (-1 forever, 0 poll) for the first one. Returns the number
   * received, 0 on timeout or wakeup, -1 with @error set on failure. */
  gint (*recv_burst) (VmiTransport * t, VmiRxSlot * slots, guint n,
      gint64 timeout_us, GError ** error);

  /* Interrupts a blocking recv_burst() (any thread). Each call makes at
   * most one pending or future recv_burst() return 0. */
  void (*wakeup) (VmiTransport * t);

  /* Optional: something the user should fix, found at open (e.g. "receive
   * buffer capped at 212992 bytes (asked 67108864): raise net.core.rmem_max
   * with sysctl -w net.core.rmem_max=67108864"); owned by the transport,
   * NULL when all is well. The elements post it as a warning. */
  const gchar *(*get_warning) (VmiTransport * t);

  /* Optional: cumulative counters; NULL = all zero. Any thread. */
  void (*get_stats) (VmiTransport * t, VmiTransportStats * stats);

  /* Optional: the local UDP port bound (RECEIVE with port 0 binds an
   * ephemeral one); NULL or 0 = the transport cannot tell. */
  guint16 (*get_local_port) (VmiTransport * t);

  /* VMI_TRANSPORT_CAP_DEMUX (a transport opened with `demux`): from then
   * on recv_burst() also returns the datagrams of the stream @cfg
   * describes (address, port, source_address; multicast groups joined)
   * with VmiRxSlot.stream = @id. Called from the thread that calls
   * recv_burst(), between two calls. */
  gboolean (*add_stream) (VmiTransport * t, guint id,
      const VmiTransportConfig * cfg, GError ** error);
  void (*remove_stream) (VmiTransport * t, guint id);
} VmiTransportClass;

/* Every instance starts with its class, so the helpers below dispatch. */
struct _VmiTransport
{
  const VmiTransportClass *klass;
};

GQuark vmi_transport_error_quark (void);

/* Replaces @cfg's strings by copies of their own (the configuration then
 * outlives the caller's strings); vmi_transport_config_clear() frees them.
 * shared_engine stays borrowed. */
void vmi_transport_config_own_strings (VmiTransportConfig * cfg);
void vmi_transport_config_clear (VmiTransportConfig * cfg);

/* The class for @kind, or NULL when this build lacks it (vmi-transport.c
 * holds the one table of transports). */
const VmiTransportClass *vmi_transport_lookup (VmiTransportKind kind);

/* The class named @name ("socket", "packet", "dpdk"), or NULL. */
const VmiTransportClass *vmi_transport_lookup_by_name (const gchar * name);

static inline gboolean
vmi_transport_class_has_caps (const VmiTransportClass * klass, guint caps)
{
  return klass != NULL && (klass->caps & caps) == caps;
}

static inline void
vmi_transport_close (VmiTransport * t)
{
  if (t)
    t->klass->close (t);
}

static inline gboolean
vmi_transport_has_caps (const VmiTransport * t, guint caps)
{
  return vmi_transport_class_has_caps (t->klass, caps);
}

static inline gint
vmi_transport_send_burst (VmiTransport * t, const VmiTxDatagram * d, guint n,
    GError ** error)
{
  return t->klass->send_burst (t, d, n, error);
}

static inline gint
vmi_transport_recv_burst (VmiTransport * t, VmiRxSlot * s, guint n,
    gint64 timeout_us, GError ** error)
{
  return t->klass->recv_burst (t, s, n, timeout_us, error);
}

static inline void
vmi_transport_wakeup (VmiTransport * t)
{
  if (t && t->klass->wakeup)
    t->klass->wakeup (t);
}

static inline const gchar *
vmi_transport_get_warning (VmiTransport * t)
{
  return t->klass->get_warning ? t->klass->get_warning (t) : NULL;
}

static inline void
vmi_transport_get_stats (VmiTransport * t, VmiTransportStats * stats)
{
  memset (stats, 0, sizeof (*stats));
  if (t && t->klass->get_stats)
    t->klass->get_stats (t, stats);
}

static inline guint16
vmi_transport_get_local_port (VmiTransport * t)
{
  return t && t->klass->get_local_port ? t->klass->get_local_port (t) : 0;
}

G_END_DECLS

#endif /* __VMI_TRANSPORT_H__ */
