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

#define VMI_TRANSPORT_ERROR (vmi_transport_error_quark ())

typedef enum
{
  VMI_TRANSPORT_ERROR_ADDRESS,      /* bad host/address/interface name */
  VMI_TRANSPORT_ERROR_OPEN,         /* socket()/bind()/join failed */
  VMI_TRANSPORT_ERROR_IO,           /* send/receive failed hard */
  VMI_TRANSPORT_ERROR_UNSUPPORTED,  /* transport/feature not in this build */
} VmiTransportErrorCode;

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
} VmiTransportConfig;

/* One datagram to send: a gather list of UDP payload pieces (RTP+HBRMT
 * header bytes, a pointer into the frame's raster, padding). */
typedef struct
{
  struct iovec *iov;
  guint n_iov;
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
} VmiRxSlot;

typedef struct _VmiTransport VmiTransport;

typedef struct
{
  const gchar *name;
  VmiTransportKind kind;

  /* Allocates the instance and opens it. Returns NULL and sets @error on
   * failure. */
  VmiTransport *(*open) (const VmiTransportConfig * config, GError ** error);
  void (*close) (VmiTransport * t);

  /* Sends @n datagrams as one burst. Returns the number sent (a short count
   * means the queue is full; retry the rest), or -1 with @error set. */
  gint (*send_burst) (VmiTransport * t, const VmiTxDatagram * dgrams, guint n,
      GError ** error);

  /* Receives up to @n datagrams, filling @slots, waiting at most
   * @timeout_us (-1 forever, 0 poll) for the first one. Returns the number
   * received, 0 on timeout or wakeup, -1 with @error set on failure. */
  gint (*recv_burst) (VmiTransport * t, VmiRxSlot * slots, guint n,
      gint64 timeout_us, GError ** error);

  /* Raw transports only (NULL otherwise): queue a gap frame that occupies
   * @wire_bytes of wire time (preamble, FCS and IFG included) and is dropped
   * by the next hop (DESIGN.md §4). */
  gint (*send_gap) (VmiTransport * t, guint wire_bytes, GError ** error);

  /* Interrupts a blocking recv_burst() (any thread). Each call makes at
   * most one pending or future recv_burst() return 0. */
  void (*wakeup) (VmiTransport * t);

  /* Actual kernel buffer size granted (bytes), for the "capped" warning;
   * 0 when not applicable. */
  gint (*get_buffer_size) (VmiTransport * t);

  /* RECEIVE: datagrams dropped before recv_burst() could hand them out
   * since open() (socket: the kernel's full receive queue, SO_RXQ_OVFL;
   * a NIC: its missed-packet count), as far as the transport knows; NULL
   * when it cannot tell.  Same thread as recv_burst(). */
  guint64 (*get_rx_dropped) (VmiTransport * t);
} VmiTransportClass;

/* Every instance starts with its class, so the helpers below dispatch. */
struct _VmiTransport
{
  const VmiTransportClass *klass;
};

GQuark vmi_transport_error_quark (void);

/* The class for @kind, or NULL when this build lacks it. */
const VmiTransportClass *vmi_transport_lookup (VmiTransportKind kind);

extern const VmiTransportClass vmi_transport_socket_class;

static inline void
vmi_transport_close (VmiTransport * t)
{
  if (t)
    t->klass->close (t);
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

static inline guint64
vmi_transport_get_rx_dropped (VmiTransport * t)
{
  return t && t->klass->get_rx_dropped ? t->klass->get_rx_dropped (t) : 0;
}

static inline void
vmi_transport_wakeup (VmiTransport * t)
{
  if (t && t->klass->wakeup)
    t->klass->wakeup (t);
}

G_END_DECLS

#endif /* __VMI_TRANSPORT_H__ */
