/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022sink's properties: their installation (with their documentation)
 * and set/get, its own and the range it shares with st2022src
 * (gstst2022helpers.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstst2022sink-priv.h"

#define GST_CAT_DEFAULT gst_st2022_sink_debug

void
gst_st2022_sink_install_properties (GObjectClass * gobject_class)
{
  /**
   * GstSt2022Sink:host:
   *
   * Destination: a unicast address or a multicast group (IPv4 or IPv6).
   */
  g_object_class_install_property (gobject_class, PROP_HOST,
      g_param_spec_string ("host", "Host",
          "Destination address (unicast or multicast group)",
          DEFAULT_PROP_HOST, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:port:
   *
   * Destination UDP port.
   */
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_int ("port", "Port", "Destination UDP port", 1, 65535,
          DEFAULT_PROP_PORT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:multicast-iface:
   *
   * Network interface multicast is sent on (NULL: the routing table's).
   */
  g_object_class_install_property (gobject_class, PROP_MULTICAST_IFACE,
      g_param_spec_string ("multicast-iface", "Multicast interface",
          "Network interface to send multicast on (e.g. eth0; NULL = the "
          "routing table's: set it, or multicast follows the default route)",
          DEFAULT_PROP_MULTICAST_IFACE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:ttl-mc:
   *
   * IP time-to-live (IPv6 hop limit) of multicast datagrams.
   */
  g_object_class_install_property (gobject_class, PROP_TTL_MC,
      g_param_spec_int ("ttl-mc", "Multicast TTL",
          "Time-to-live of multicast datagrams", 0, 255, DEFAULT_PROP_TTL_MC,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:payload-type:
   *
   * RTP payload type (dynamic; 98 by convention for ST 2022-6).
   */
  g_object_class_install_property (gobject_class, PROP_PAYLOAD_TYPE,
      g_param_spec_uint ("payload-type", "Payload type",
          "RTP payload type", 96, 127, DEFAULT_PROP_PAYLOAD_TYPE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:ssrc:
   *
   * RTP SSRC; 4294967295 (the default) picks a random one at start.
   */
  g_object_class_install_property (gobject_class, PROP_SSRC,
      g_param_spec_uint ("ssrc", "SSRC",
          "RTP SSRC (4294967295 = random)", 0, G_MAXUINT, DEFAULT_PROP_SSRC,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:pacing:
   *
   * How each frame's datagrams are spread in time. `pa-*` modes need a raw
   * transport (packet or dpdk).
   */
  g_object_class_install_property (gobject_class, PROP_PACING,
      g_param_spec_enum ("pacing", "Pacing", "Pacing of datagrams",
          GST_TYPE_ST2022_PACING, DEFAULT_PROP_PACING,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:line-rate:
   *
   * Link speed in bit/s, the Pacing-Assistant's timer (pa-* pacing only).
   */
  g_object_class_install_property (gobject_class, PROP_LINE_RATE,
      g_param_spec_uint64 ("line-rate", "Line rate",
          "Link speed in bit/s for Pacing-Assistant pacing", 1000000,
          G_GUINT64_CONSTANT (400000000000), DEFAULT_PROP_LINE_RATE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:buffer-size:
   *
   * Kernel send buffer (SO_SNDBUF) to request, bytes; 0 = OS default.
   */
  g_object_class_install_property (gobject_class, PROP_BUFFER_SIZE,
      g_param_spec_int ("buffer-size", "Buffer size",
          "Kernel send buffer size in bytes (0 = OS default)", 0, G_MAXINT,
          DEFAULT_PROP_BUFFER_SIZE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:bind-address:
   *
   * Source IPv4 address of the frames on raw transports (NULL: the
   * interface's own); on sockets the local address to bind, as udpsink's.
   */
  g_object_class_install_property (gobject_class, PROP_BIND_ADDRESS,
      g_param_spec_string ("bind-address", "Bind address",
          "Source address of the datagrams (NULL = the interface's)",
          DEFAULT_PROP_BIND_ADDRESS, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:destination-mac:
   *
   * Raw transports, unicast: the next hop's MAC ("aa:bb:cc:dd:ee:ff");
   * empty resolves it by ARP on the port. Multicast always derives
   * 01:00:5e:... from the group.
   */
  g_object_class_install_property (gobject_class, PROP_DESTINATION_MAC,
      g_param_spec_string ("destination-mac", "Destination MAC",
          "Destination MAC of unicast raw frames (empty = ARP)",
          DEFAULT_PROP_DESTINATION_MAC, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:gap-frame:
   *
   * What fills the wire between media packets under Pacing-Assistant
   * pacing: 802.3 MAC-control frames with opcode 0 (default) or PAUSE
   * frames with quanta 0, both to 01:80:C2:00:00:01.
   */
  g_object_class_install_property (gobject_class, PROP_GAP_FRAME,
      g_param_spec_enum ("gap-frame", "Gap frame",
          "Gap frames of Pacing-Assistant pacing", GST_TYPE_ST2022_GAP_FRAME,
          DEFAULT_PROP_GAP_FRAME, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
          | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:reference-address:
   *
   * pacing=pa-controlled: address (group) of an auxiliary copy of the
   * source stream whose arrivals are the frequency controller's reference.
   * NULL: the reference is the pipeline clock (sync=true).
   */
  g_object_class_install_property (gobject_class, PROP_REFERENCE_ADDRESS,
      g_param_spec_string ("reference-address", "Reference address",
          "Auxiliary reference stream of pa-controlled pacing (NULL = the "
          "pipeline clock)", DEFAULT_PROP_REFERENCE_ADDRESS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:reference-port:
   *
   * UDP port of the reference stream (pa-controlled).
   */
  g_object_class_install_property (gobject_class, PROP_REFERENCE_PORT,
      g_param_spec_int ("reference-port", "Reference port",
          "UDP port of the reference stream (pa-controlled)", 0, 65535,
          DEFAULT_PROP_REFERENCE_PORT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:pacing-window:
   *
   * pa-controlled: W, the wire time between two estimates of the packet
   * period, in ns of wire time.
   */
  g_object_class_install_property (gobject_class, PROP_PACING_WINDOW,
      g_param_spec_uint64 ("pacing-window", "Pacing window",
          "Controller window W in ns of wire time (pa-controlled)",
          GST_MSECOND, 60 * GST_SECOND, DEFAULT_PROP_PACING_WINDOW,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:pacing-windows:
   *
   * pa-controlled: N_W, how many windows the regularised controller
   * averages.
   */
  g_object_class_install_property (gobject_class, PROP_PACING_WINDOWS,
      g_param_spec_uint ("pacing-windows", "Pacing windows",
          "Windows averaged by the controller (pa-controlled)", 1, 64,
          DEFAULT_PROP_PACING_WINDOWS, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:underrun:
   *
   * What a Pacing-Assistant-paced wire carries when upstream is late:
   * the last frame again (default), or gap frames.
   */
  g_object_class_install_property (gobject_class, PROP_UNDERRUN,
      g_param_spec_enum ("underrun", "Underrun",
          "What the paced wire carries when upstream is late",
          GST_TYPE_ST2022_UNDERRUN, DEFAULT_PROP_UNDERRUN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:tx-cpu:
   *
   * CPU core the transmit thread is pinned to (-1: not pinned). With a
   * `shared-engine`, the sink that starts the engine pins it, and each
   * sink's streaming thread (its raster writer) keeps off that core.
   */
  g_object_class_install_property (gobject_class, PROP_TX_CPU,
      g_param_spec_int ("tx-cpu", "Transmit CPU",
          "Core to pin the transmit thread to (-1 = none)", -1, 4095,
          DEFAULT_PROP_TX_CPU, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:shared-engine:
   *
   * Sinks of this process on the same transport and port with the same
   * non-empty name share one transmit thread, which sends whichever
   * stream's datagrams are due first, each stream paced on its own frame
   * period. Empty: a thread of the element's own. transport=dpdk, pacing
   * software or none (a Pacing-Assistant needs the port to itself); not
   * with `secondary-host`.
   */
  g_object_class_install_property (gobject_class, PROP_SHARED_ENGINE,
      g_param_spec_string ("shared-engine", "Shared engine",
          "Name of a transmit thread shared by the sinks of this process "
          "with the same name (transport=dpdk; empty = a thread of its own)",
          DEFAULT_PROP_SHARED_ENGINE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:zerocopy:
   *
   * Send with MSG_ZEROCOPY (transport=socket): the network device reads
   * each datagram's payload straight out of the SDI raster instead of the
   * kernel copying 6.2 MB per 1080-line frame into socket buffers. Each
   * raster stays held until the kernel reports its sends done, so the
   * sink keeps a few more rasters in flight. It pays off on a real NIC with
   * scatter-gather and UDP segmentation; over loopback, veth or a bridge the
   * kernel copies anyway (counted in `zerocopy-copied`). Needs Linux 5.0 or
   * later; root, or an RLIMIT_MEMLOCK large enough for the pinned pages.
   */
  g_object_class_install_property (gobject_class, PROP_ZEROCOPY,
      g_param_spec_boolean ("zerocopy", "Zero-copy send",
          "Let the network device read payloads in place (MSG_ZEROCOPY, "
          "transport=socket)", DEFAULT_PROP_ZEROCOPY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:psf:
   *
   * Send progressive pictures as segmented frames (PsF, HBRMT FRAME 0x22 or
   * 0x24) where the format table has a PsF raster of their size and rate:
   * `interlace-mode=progressive` caps, and `interleaved` caps without
   * `field-order` (what st2022src gives for PsF), at 1080 and 2048×1080,
   * 23.98 to 30 frames a second. Caps with a `field-order` stay interlaced
   * (1080i), and rates without PsF (720p, 1080p50 and up) stay
   * progressive. With psf=false an interleaved 1080 picture at 25, 29.97
   * or 30 goes out as 1080i, and PsF only where no interlaced raster has
   * the picture's size and rate (1080 at 23.98/24, 2048×1080).
   */
  g_object_class_install_property (gobject_class, PROP_PSF,
      g_param_spec_boolean ("psf", "Segmented frames",
          "Send progressive pictures (and interleaved ones without "
          "field-order) as PsF where the rate has a PsF raster",
          DEFAULT_PROP_PSF, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:stats:
   *
   * Counters (`st2022-stats` structure): packets, bytes, frames, and
   * frames-late (launch time missed by more than a frame); with
   * zerocopy=true, zerocopy-done (sends the kernel reported done) and
   * zerocopy-copied (those it copied after all); with a `shared-engine`,
   * engine-frames-late (frames the shared thread sent with a run of
   * datagrams more than 5 % of a frame period behind its pacing instant:
   * the thread could not keep up), engine-frames-behind (frames that
   * reached it after their launch time, or whose launch time came before
   * the stream's previous frame was done: upstream was late) and
   * engine-late-max (the latest such run, ns).
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Transmit statistics",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_st2022_helpers_install_properties (gobject_class, PROP_HELPERS_FIRST,
      TRUE);
}

void
gst_st2022_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSt2022Sink *self = GST_ST2022_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
      g_free (self->host);
      self->host = g_value_dup_string (value);
      break;
    case PROP_PORT:
      self->port = g_value_get_int (value);
      break;
    case PROP_MULTICAST_IFACE:
      g_free (self->multicast_iface);
      self->multicast_iface = g_value_dup_string (value);
      break;
    case PROP_TTL_MC:
      self->ttl_mc = g_value_get_int (value);
      break;
    case PROP_PAYLOAD_TYPE:
      self->payload_type = g_value_get_uint (value);
      break;
    case PROP_SSRC:
      self->ssrc = g_value_get_uint (value);
      break;
    case PROP_PACING:
      self->pacing = g_value_get_enum (value);
      break;
    case PROP_LINE_RATE:
      self->line_rate = g_value_get_uint64 (value);
      break;
    case PROP_BUFFER_SIZE:
      self->buffer_size = g_value_get_int (value);
      break;
    case PROP_BIND_ADDRESS:
      g_free (self->bind_address);
      self->bind_address = g_value_dup_string (value);
      break;
    case PROP_DESTINATION_MAC:
      g_free (self->destination_mac);
      self->destination_mac = g_value_dup_string (value);
      break;
    case PROP_GAP_FRAME:
      self->gap_frame = g_value_get_enum (value);
      break;
    case PROP_REFERENCE_ADDRESS:
      g_free (self->reference_address);
      self->reference_address = g_value_dup_string (value);
      break;
    case PROP_REFERENCE_PORT:
      self->reference_port = g_value_get_int (value);
      break;
    case PROP_PACING_WINDOW:
      self->pacing_window = g_value_get_uint64 (value);
      break;
    case PROP_PACING_WINDOWS:
      self->pacing_windows = g_value_get_uint (value);
      break;
    case PROP_UNDERRUN:
      self->underrun = g_value_get_enum (value);
      break;
    case PROP_TX_CPU:
      self->tx_cpu = g_value_get_int (value);
      break;
    case PROP_SHARED_ENGINE:
      g_free (self->shared_engine);
      self->shared_engine = g_value_dup_string (value);
      break;
    case PROP_ZEROCOPY:
      self->zerocopy = g_value_get_boolean (value);
      break;
    case PROP_PSF:
      self->psf = g_value_get_boolean (value);
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
gst_st2022_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSt2022Sink *self = GST_ST2022_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
      g_value_set_string (value, self->host);
      break;
    case PROP_PORT:
      g_value_set_int (value, self->port);
      break;
    case PROP_MULTICAST_IFACE:
      g_value_set_string (value, self->multicast_iface);
      break;
    case PROP_TTL_MC:
      g_value_set_int (value, self->ttl_mc);
      break;
    case PROP_PAYLOAD_TYPE:
      g_value_set_uint (value, self->payload_type);
      break;
    case PROP_SSRC:
      g_value_set_uint (value, self->ssrc);
      break;
    case PROP_PACING:
      g_value_set_enum (value, self->pacing);
      break;
    case PROP_LINE_RATE:
      g_value_set_uint64 (value, self->line_rate);
      break;
    case PROP_BUFFER_SIZE:
      g_value_set_int (value, self->buffer_size);
      break;
    case PROP_BIND_ADDRESS:
      g_value_set_string (value, self->bind_address);
      break;
    case PROP_DESTINATION_MAC:
      g_value_set_string (value, self->destination_mac);
      break;
    case PROP_GAP_FRAME:
      g_value_set_enum (value, self->gap_frame);
      break;
    case PROP_REFERENCE_ADDRESS:
      g_value_set_string (value, self->reference_address);
      break;
    case PROP_REFERENCE_PORT:
      g_value_set_int (value, self->reference_port);
      break;
    case PROP_PACING_WINDOW:
      g_value_set_uint64 (value, self->pacing_window);
      break;
    case PROP_PACING_WINDOWS:
      g_value_set_uint (value, self->pacing_windows);
      break;
    case PROP_UNDERRUN:
      g_value_set_enum (value, self->underrun);
      break;
    case PROP_TX_CPU:
      g_value_set_int (value, self->tx_cpu);
      break;
    case PROP_SHARED_ENGINE:
      g_value_set_string (value, self->shared_engine);
      break;
    case PROP_ZEROCOPY:
      g_value_set_boolean (value, self->zerocopy);
      break;
    case PROP_PSF:
      g_value_set_boolean (value, self->psf);
      break;
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_st2022_sink_stats_structure_unlocked (self));
      break;
    default:
      if (!gst_st2022_helpers_get_property (&self->helpers, PROP_HELPERS_FIRST,
              prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}
