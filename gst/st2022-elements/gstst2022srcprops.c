/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022src's properties: their installation (with their documentation)
 * and set/get, its own and those of the helpers it shares with st2022sink
 * (common, SDP, NMOS, ST 2022-7 legs, clock), each a range of ids. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sched.h>

#include "gstst2022src-priv.h"

#define GST_CAT_DEFAULT gst_st2022_src_debug

void
gst_st2022_src_install_properties (GObjectClass * gobject_class)
{
  /**
   * GstSt2022Src:address:
   *
   * Local address to receive on; a multicast group is joined.
   */
  g_object_class_install_property (gobject_class, PROP_ADDRESS,
      g_param_spec_string ("address", "Address",
          "Address to receive on (a multicast group is joined)",
          DEFAULT_PROP_ADDRESS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:port:
   *
   * UDP port to receive on; 0 binds an ephemeral port (socket transport)
   * and sets this property to it at start (notify::port), as udpsrc does.
   */
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_int ("port", "Port",
          "UDP port (0 = an ephemeral port, read back after start)", 0, 65535,
          DEFAULT_PROP_PORT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:multicast-iface:
   *
   * Network interface to join the multicast group on (NULL: the routing
   * table's).
   */
  g_object_class_install_property (gobject_class, PROP_MULTICAST_IFACE,
      g_param_spec_string ("multicast-iface", "Multicast interface",
          "Network interface to join multicast on (e.g. eth0; NULL = the "
          "routing table's)",
          DEFAULT_PROP_MULTICAST_IFACE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:source-address:
   *
   * Source-specific multicast: only datagrams from this sender are
   * received (NULL: any source).
   */
  g_object_class_install_property (gobject_class, PROP_SOURCE_ADDRESS,
      g_param_spec_string ("source-address", "Source address",
          "Sender address for source-specific multicast (NULL = any)",
          DEFAULT_PROP_SOURCE_ADDRESS, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:buffer-size:
   *
   * Kernel receive buffer (SO_RCVBUF) to request, bytes. The default holds
   * about ten 1080-line frames, so a busy machine loses nothing; a warning
   * says when the kernel grants less.
   */
  g_object_class_install_property (gobject_class, PROP_BUFFER_SIZE,
      g_param_spec_int ("buffer-size", "Buffer size",
          "Kernel receive buffer size in bytes (0 = OS default)", 0, G_MAXINT,
          DEFAULT_PROP_BUFFER_SIZE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:drop-corrupted:
   *
   * Drop frames with missing datagrams instead of pushing them concealed
   * and flagged CORRUPTED (they are counted in frames-dropped).
   */
  g_object_class_install_property (gobject_class, PROP_DROP_CORRUPTED,
      g_param_spec_boolean ("drop-corrupted", "Drop corrupted",
          "Drop frames with missing datagrams instead of concealing them",
          DEFAULT_PROP_DROP_CORRUPTED, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS));
  /**
   * GstSt2022Src:stats:
   *
   * Counters (`st2022-stats` structure); see docs/elements.md for their
   * exact meaning.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Receive statistics",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSt2022Src:payload-type:
   *
   * Only datagrams of this RTP payload type are received (0: any, the
   * stream's own); others are counted in packets-invalid.
   */
  g_object_class_install_property (gobject_class, PROP_PAYLOAD_TYPE,
      g_param_spec_uint ("payload-type", "Payload type",
          "RTP payload type to receive (0 = any)", 0, 127,
          DEFAULT_PROP_PAYLOAD_TYPE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:ssrc:
   *
   * Only the stream with this RTP SSRC is received; datagrams of others are
   * counted in packets-foreign. 4294967295 (the default, as in the RTP
   * payloaders): any, the first stream seen.
   */
  g_object_class_install_property (gobject_class, PROP_SSRC,
      g_param_spec_uint ("ssrc", "SSRC",
          "RTP SSRC to receive (4294967295 = any)", 0, G_MAXUINT,
          DEFAULT_PROP_SSRC, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:lock-datagrams:
   *
   * Consecutive, consistent datagrams of a stream needed before the
   * element locks on it: the first stream, or another one (another SSRC or
   * format, or the same SSRC far from the expected sequence number) to
   * leave the stream it is locked on for. Strays never lock. Fewer
   * switch faster after a sender restart; more resist a hostile or
   * misconfigured second sender on the same port. The datagrams that
   * confirm the new stream are kept and used, so a switch loses nothing.
   */
  g_object_class_install_property (gobject_class, PROP_LOCK_DATAGRAMS,
      g_param_spec_uint ("lock-datagrams", "Lock datagrams",
          "Consecutive datagrams of a new stream before switching to it", 1,
          ST2022_LOCK_MAX_CONFIRM, DEFAULT_PROP_LOCK_DATAGRAMS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:timeout:
   *
   * Post an `st2022-timeout` element message (fields `timeout`, the
   * property's value, and `signal-lost`, FALSE when no stream was ever
   * received) when no valid datagram arrived for this long, in ns (0:
   * never). Posted once per silence.
   */
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint64 ("timeout", "Timeout",
          "Post an st2022-timeout message and a warning after this many ns "
          "without a datagram (0 = never)",
          0, G_MAXUINT64, DEFAULT_PROP_TIMEOUT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS));
  /**
   * GstSt2022Src:shared-engine:
   *
   * Sources of this process on the same transport with the same non-empty
   * name share one receive thread (and one DPDK port), which hands each
   * the datagrams to its `address` and `port`. Empty: a thread of the
   * element's own. transport=dpdk only; not with `secondary-address`.
   */
  g_object_class_install_property (gobject_class, PROP_SHARED_ENGINE,
      g_param_spec_string ("shared-engine", "Shared engine",
          "Name of a receive thread shared by the sources of this process "
          "with the same name (transport=dpdk; empty = a thread of its own)",
          DEFAULT_PROP_SHARED_ENGINE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:rx-cpu:
   *
   * CPU the receive thread is pinned to (-1: not pinned). With a
   * `shared-engine`, the source that starts the engine pins it.
   */
  g_object_class_install_property (gobject_class, PROP_RX_CPU,
      g_param_spec_int ("rx-cpu", "Receive CPU",
          "Pin the receive thread (or the shared engine it starts) to this "
          "CPU (-1 = not pinned)", -1, CPU_SETSIZE - 1, DEFAULT_PROP_RX_CPU,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Src:dpdk-rx-mbufs:
   *
   * Size of the DPDK port's receive mbuf pool, set by the source that
   * configures the port (0: 8191, or 49151 for a `shared-engine`). A
   * net_pcap `infinite_rx` replay holds its whole file in this pool.
   */
  g_object_class_install_property (gobject_class, PROP_DPDK_RX_MBUFS,
      g_param_spec_uint ("dpdk-rx-mbufs", "DPDK receive mbufs",
          "mbufs of the DPDK port's receive pool (0 = 8191, or 49151 with "
          "a shared-engine)", 0, 1 << 24, DEFAULT_PROP_DPDK_RX_MBUFS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_st2022_helpers_install_properties (gobject_class, PROP_HELPERS_FIRST,
      FALSE);
}

void
gst_st2022_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSt2022Src *self = GST_ST2022_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ADDRESS:
      g_free (self->address);
      self->address = g_value_dup_string (value);
      break;
    case PROP_PORT:
      self->port = g_value_get_int (value);
      break;
    case PROP_MULTICAST_IFACE:
      g_free (self->multicast_iface);
      self->multicast_iface = g_value_dup_string (value);
      break;
    case PROP_SOURCE_ADDRESS:
      g_free (self->source_address);
      self->source_address = g_value_dup_string (value);
      break;
    case PROP_BUFFER_SIZE:
      self->buffer_size = g_value_get_int (value);
      break;
    case PROP_DROP_CORRUPTED:
      self->drop_corrupted = g_value_get_boolean (value);
      break;
    case PROP_PAYLOAD_TYPE:
      self->payload_type = g_value_get_uint (value);
      break;
    case PROP_SSRC:
      self->ssrc = g_value_get_uint (value);
      break;
    case PROP_LOCK_DATAGRAMS:
      self->lock_datagrams = g_value_get_uint (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint64 (value);
      break;
    case PROP_SHARED_ENGINE:
      g_free (self->shared_engine);
      self->shared_engine = g_value_dup_string (value);
      break;
    case PROP_RX_CPU:
      self->rx_cpu = g_value_get_int (value);
      break;
    case PROP_DPDK_RX_MBUFS:
      self->dpdk_rx_mbufs = g_value_get_uint (value);
      break;
    default:
      if (!gst_st2022_helpers_set_property (&self->helpers, PROP_HELPERS_FIRST,
              prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

void
gst_st2022_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSt2022Src *self = GST_ST2022_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ADDRESS:
      g_value_set_string (value, self->address);
      break;
    case PROP_PORT:
      g_value_set_int (value, self->port);
      break;
    case PROP_MULTICAST_IFACE:
      g_value_set_string (value, self->multicast_iface);
      break;
    case PROP_SOURCE_ADDRESS:
      g_value_set_string (value, self->source_address);
      break;
    case PROP_BUFFER_SIZE:
      g_value_set_int (value, self->buffer_size);
      break;
    case PROP_DROP_CORRUPTED:
      g_value_set_boolean (value, self->drop_corrupted);
      break;
    case PROP_PAYLOAD_TYPE:
      g_value_set_uint (value, self->payload_type);
      break;
    case PROP_SSRC:
      g_value_set_uint (value, self->ssrc);
      break;
    case PROP_LOCK_DATAGRAMS:
      g_value_set_uint (value, self->lock_datagrams);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint64 (value, self->timeout);
      break;
    case PROP_SHARED_ENGINE:
      g_value_set_string (value, self->shared_engine);
      break;
    case PROP_RX_CPU:
      g_value_set_int (value, self->rx_cpu);
      break;
    case PROP_DPDK_RX_MBUFS:
      g_value_set_uint (value, self->dpdk_rx_mbufs);
      break;
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_st2022_src_stats_structure_unlocked (self));
      break;
    default:
      if (!gst_st2022_helpers_get_property (&self->helpers, PROP_HELPERS_FIRST,
              prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}
