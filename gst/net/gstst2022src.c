/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-st2022src
 * @title: st2022src
 *
 * Receives a SMPTE ST 2022-6 stream and outputs its frames as raw video
 * (`UYVP`, the wire's own packing, preferred; or `v210`). The caps come from
 * the stream's HBRMT header (size, rate, interlacing; colorimetry bt709,
 * pixel-aspect-ratio 1/1); a format change mid-stream renegotiates.
 *
 * Datagram payloads are written straight into the output frames (from the
 * downstream pool, else a GstVmiBufferPool): one copy per byte, the
 * kernel's. It is a live source: a frame's PTS is the pipeline clock time at
 * which its first datagram arrived, minus the base time; the RTP timestamp,
 * sequence numbers and FRCount travel in a #GstSt2022Meta.
 *
 * Loss never stalls the stream: a frame with missing datagrams is still
 * pushed (unless `drop-corrupted=true`) with the missing parts concealed
 * (previous frame's pixels, or black when there is none), flagged
 * %GST_BUFFER_FLAG_CORRUPTED and counted. Statistics are in `stats` and are
 * posted as `st2022-stats` element messages every `stats-interval` ms and at
 * EOS (use `num-buffers` to end after N frames).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m st2022src address=239.1.1.1 port=5004 multicast-iface=eth0 ! \
 *   vmi10to8 ! video/x-raw,format=I420 ! autovideosink
 * ]| Joins a multicast group and displays the stream.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/video/video.h>

#include "gstst2022src.h"
#include "gstst2022common.h"
#include "gstst2022sdp.h"
#include "gstst2022uri.h"
#include "gstst2022meta.h"
#include "gstvmielements.h"
#include "st2022/st2022.h"
#include "pool/gstvmibufferpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_st2022_src_debug);
#define GST_CAT_DEFAULT gst_st2022_src_debug

#define DEFAULT_PROP_ADDRESS "0.0.0.0"
#define DEFAULT_PROP_PORT 5004
#define DEFAULT_PROP_MULTICAST_IFACE NULL
#define DEFAULT_PROP_SOURCE_ADDRESS NULL
#define DEFAULT_PROP_BUFFER_SIZE (64 * 1024 * 1024)
#define DEFAULT_PROP_DROP_CORRUPTED FALSE
#define DEFAULT_PROP_PAYLOAD_TYPE 0

/* datagrams per recv_burst() */
#define RX_BURST 64
/* how long the stream may pause before a frame still waiting for its end
 * is given up and pushed (frame periods) */
#define IDLE_FLUSH_FRAMES 8
#define RX_TIMEOUT_US 20000
/* up to two frames between frame_begin and frame_end, plus one spare */
#define N_SLOTS 3

enum
{
  PROP_0,
  PROP_ADDRESS,
  PROP_PORT,
  PROP_MULTICAST_IFACE,
  PROP_SOURCE_ADDRESS,
  PROP_BUFFER_SIZE,
  PROP_DROP_CORRUPTED,
  PROP_STATS,
  PROP_PAYLOAD_TYPE,
  /* transport, iface, dpdk-eal-args, dpdk-port, stats-interval */
  PROP_COMMON_FIRST,
  /* sdp, sdp-file */
  PROP_SDP_FIRST = PROP_COMMON_FIRST + GST_ST2022_COMMON_N_PROPS,
};

typedef struct
{
  gboolean in_use;
  GstBuffer *buffer;            /* the output frame */
  GstVideoFrame frame;          /* @buffer mapped for writing */
  guint8 *raster;               /* v210 output: the frame is assembled here */
  gsize raster_size;
  gboolean v210;                /* output format when the frame began */
  const St2022Format *fmt;
  guint16 hdr_seq;              /* first datagram seen of the frame */
  guint32 hdr_vts;
  guint8 hdr_cf;
} GstSt2022SrcSlot;

struct _GstSt2022Src
{
  GstPushSrc parent;

  /* properties, under the object lock */
  gchar *address;
  gint port;
  gchar *multicast_iface;
  gchar *source_address;
  gint buffer_size;
  gboolean drop_corrupted;
  guint payload_type;
  GstSt2022CommonSettings common;
  GstSt2022SdpSettings sdp;

  /* streaming state */
  VmiTransport *t;
  St2022Depacketizer *depay;
  VmiRxSlot rx[RX_BURST];
  GstSt2022SrcSlot slots[N_SLOTS];
  GQueue out;                   /* finished frames, oldest first */
  const St2022Format *fmt;      /* format of the negotiated caps */
  const St2022Format *stream_fmt;       /* format the stream is in now */
  GstVideoInfo vinfo;           /* negotiated */
  gboolean v210;
  GstBuffer *prev;              /* last pushed frame: concealment source */
  guint8 *prev_raster;          /* v210: last finished raster */
  gsize prev_raster_size;
  GstFlowReturn flow_error;
  gint64 last_rx_mono;
  guint in_progress;            /* frames begun and not ended */
  gint flushing;                /* atomic */
  gboolean eos_posted;

  /* stats: counters of the depacketizer plus ours, under the object lock */
  GstSt2022Stats stats;
  guint64 packets_discarded;
  guint64 frames_skipped;
  guint64 frames_aborted;
  guint64 format_changes;
  guint64 dropped_corrupted;
  guint64 dropped_caps;         /* begun under caps changed since */
  guint64 frames_pushed;
  GstClockTime last_post;
};

#define gst_st2022_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstSt2022Src, gst_st2022_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_st2022_src_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (st2022src, "st2022src",
    GST_RANK_NONE, GST_TYPE_ST2022_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_st2022_src_debug, "st2022src", 0,
        "ST 2022-6 receiver"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, format = (string) { UYVP, v210 }, "
        "width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], "
        "framerate = (fraction) [ 0, MAX ]"));

static void gst_st2022_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_st2022_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static void gst_st2022_src_finalize (GObject * object);
static gboolean gst_st2022_src_start (GstBaseSrc * bsrc);
static gboolean gst_st2022_src_stop (GstBaseSrc * bsrc);
static gboolean gst_st2022_src_unlock (GstBaseSrc * bsrc);
static gboolean gst_st2022_src_unlock_stop (GstBaseSrc * bsrc);
static GstCaps *gst_st2022_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter);
static gboolean gst_st2022_src_negotiate (GstBaseSrc * bsrc);
static GstCaps *gst_st2022_src_fixate (GstBaseSrc * bsrc, GstCaps * caps);
static gboolean gst_st2022_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps);
static gboolean gst_st2022_src_decide_allocation (GstBaseSrc * bsrc,
    GstQuery * query);
static gboolean gst_st2022_src_query (GstBaseSrc * bsrc, GstQuery * query);
static GstFlowReturn gst_st2022_src_create (GstPushSrc * psrc,
    GstBuffer ** buf);

static void
gst_st2022_src_class_init (GstSt2022SrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);

  gobject_class->set_property = gst_st2022_src_set_property;
  gobject_class->get_property = gst_st2022_src_get_property;
  gobject_class->finalize = gst_st2022_src_finalize;

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
          "Network interface to join multicast on (e.g. eth0)",
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
   * Only datagrams of this RTP payload type are received (0: any).
   */
  g_object_class_install_property (gobject_class, PROP_PAYLOAD_TYPE,
      g_param_spec_uint ("payload-type", "Payload type",
          "RTP payload type to receive (0 = any)", 0, 127,
          DEFAULT_PROP_PAYLOAD_TYPE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  gst_st2022_common_install_properties (gobject_class, PROP_COMMON_FIRST);
  gst_st2022_sdp_install_properties (gobject_class, PROP_SDP_FIRST, FALSE);

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "ST 2022-6 source", "Source/Network/Video",
      "Receives a SMPTE ST 2022-6 stream as raw video", "gst-vmi developers");

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_st2022_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_st2022_src_stop);
  bsrc_class->unlock = GST_DEBUG_FUNCPTR (gst_st2022_src_unlock);
  bsrc_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_st2022_src_unlock_stop);
  bsrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_st2022_src_get_caps);
  bsrc_class->negotiate = GST_DEBUG_FUNCPTR (gst_st2022_src_negotiate);
  bsrc_class->fixate = GST_DEBUG_FUNCPTR (gst_st2022_src_fixate);
  bsrc_class->set_caps = GST_DEBUG_FUNCPTR (gst_st2022_src_set_caps);
  bsrc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_st2022_src_decide_allocation);
  bsrc_class->query = GST_DEBUG_FUNCPTR (gst_st2022_src_query);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_st2022_src_create);

  gst_type_mark_as_plugin_api (GST_TYPE_ST2022_TRANSPORT, 0);
}

static GstPadProbeReturn
gst_st2022_src_eos_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data);

static void
gst_st2022_src_init (GstSt2022Src * self)
{
  self->address = g_strdup (DEFAULT_PROP_ADDRESS);
  self->port = DEFAULT_PROP_PORT;
  self->multicast_iface = g_strdup (DEFAULT_PROP_MULTICAST_IFACE);
  self->source_address = g_strdup (DEFAULT_PROP_SOURCE_ADDRESS);
  self->buffer_size = DEFAULT_PROP_BUFFER_SIZE;
  self->drop_corrupted = DEFAULT_PROP_DROP_CORRUPTED;
  self->payload_type = DEFAULT_PROP_PAYLOAD_TYPE;
  gst_st2022_common_settings_init (&self->common);
  g_queue_init (&self->out);

  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
  /* EOS leaves through the pad whatever caused it (num-buffers, an
   * application's EOS event): the final counters go out just before it */
  gst_pad_add_probe (GST_BASE_SRC_PAD (self),
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, gst_st2022_src_eos_probe, NULL,
      NULL);
}

static void
gst_st2022_src_finalize (GObject * object)
{
  GstSt2022Src *self = GST_ST2022_SRC (object);

  g_free (self->address);
  g_free (self->multicast_iface);
  g_free (self->source_address);
  gst_st2022_common_settings_clear (&self->common);
  gst_st2022_sdp_settings_clear (&self->sdp);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
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
    default:
      if (!gst_st2022_common_set_property (&self->common, PROP_COMMON_FIRST,
              prop_id, value) && !gst_st2022_sdp_set_property (&self->sdp,
              PROP_SDP_FIRST, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static GstStructure *
gst_st2022_src_stats_structure_unlocked (GstSt2022Src * self)
{
  GstStructure *s = gst_st2022_stats_to_structure (&self->stats, FALSE);

  gst_structure_set (s,
      "packets-discarded", G_TYPE_UINT64, self->packets_discarded,
      "frames-skipped", G_TYPE_UINT64, self->frames_skipped,
      "frames-aborted", G_TYPE_UINT64, self->frames_aborted,
      "format-changes", G_TYPE_UINT64, self->format_changes, NULL);
  return s;
}

static void
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
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_st2022_src_stats_structure_unlocked (self));
      break;
    case PROP_PAYLOAD_TYPE:
      g_value_set_uint (value, self->payload_type);
      break;
    default:
      if (!gst_st2022_common_get_property (&self->common, PROP_COMMON_FIRST,
              prop_id, value) && !gst_st2022_sdp_get_property (&self->sdp,
              PROP_SDP_FIRST, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Folds the depacketizer's counters into ours (streaming thread). */
static void
gst_st2022_src_update_stats (GstSt2022Src * self)
{
  St2022DepacketizerStats d;

  if (self->depay == NULL)
    return;
  st2022_depacketizer_get_stats (self->depay, &d);
  GST_OBJECT_LOCK (self);
  self->stats.packets = d.packets;
  self->stats.packets_lost = d.packets_lost;
  self->stats.packets_reordered = d.packets_reordered;
  self->stats.packets_duplicate = d.packets_duplicate;
  self->stats.packets_invalid = d.packets_invalid;
  self->stats.bytes = d.bytes;
  self->stats.frames = self->frames_pushed;
  self->stats.frames_corrupted = d.frames_corrupted;
  self->stats.frames_dropped = d.frames_dropped + d.frames_skipped +
      self->dropped_corrupted + self->dropped_caps;
  self->packets_discarded = d.packets_discarded;
  self->frames_skipped = d.frames_skipped;
  self->frames_aborted = d.frames_aborted;
  self->format_changes = d.format_changes;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_st2022_src_post_stats (GstSt2022Src * self)
{
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  s = gst_st2022_src_stats_structure_unlocked (self);
  GST_OBJECT_UNLOCK (self);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static GstPadProbeReturn
gst_st2022_src_eos_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  GstSt2022Src *self = GST_ST2022_SRC (GST_PAD_PARENT (pad));
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS && self && !self->eos_posted) {
    gst_st2022_src_update_stats (self);
    gst_st2022_src_post_stats (self);
    self->eos_posted = TRUE;
  }
  return GST_PAD_PROBE_OK;
}

/* A frame of the stream that will not be pushed, told the GStreamer way
 * (as live sources do) besides the counters. */
static void
gst_st2022_src_post_qos (GstSt2022Src * self, GstClockTime arrival)
{
  GstClockTime base = gst_element_get_base_time (GST_ELEMENT (self));
  GstClockTime rt = GST_CLOCK_TIME_IS_VALID (arrival) && arrival >= base ?
      arrival - base : GST_CLOCK_TIME_NONE;
  GstClockTime dur = self->stream_fmt ? gst_util_uint64_scale_int (GST_SECOND,
      self->stream_fmt->fps_d, self->stream_fmt->fps_n) : GST_CLOCK_TIME_NONE;
  GstMessage *msg = gst_message_new_qos (GST_OBJECT (self), TRUE, rt, rt, rt,
      dur);
  guint64 dropped;

  GST_OBJECT_LOCK (self);
  dropped = self->stats.frames_dropped;
  GST_OBJECT_UNLOCK (self);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, self->frames_pushed,
      dropped + 1);
  gst_element_post_message (GST_ELEMENT (self), msg);
}

/* --- depacketizer callbacks (streaming thread, inside push) ------------- */

static GstSt2022SrcSlot *
get_free_slot (GstSt2022Src * self)
{
  guint i;

  for (i = 0; i < N_SLOTS; i++)
    if (!self->slots[i].in_use)
      return &self->slots[i];
  return NULL;
}

static void
release_slot (GstSt2022Src * self, GstSt2022SrcSlot * slot)
{
  if (slot->buffer) {
    gst_video_frame_unmap (&slot->frame);
    gst_clear_buffer (&slot->buffer);
  }
  slot->in_use = FALSE;
}

/* Forgets the concealment source (a new format, a new start). */
static void
gst_st2022_src_clear_prev (GstSt2022Src * self)
{
  gst_clear_buffer (&self->prev);
  g_clear_pointer (&self->prev_raster, g_free);
  self->prev_raster_size = 0;
}

static gboolean
on_frame_begin (gpointer user_data, const St2022Format * fmt,
    const St2022Header * hdr, St2022Target * target)
{
  GstSt2022Src *self = user_data;
  GstBufferPool *pool = NULL;
  GstBufferPoolAcquireParams params = { 0 };
  GstSt2022SrcSlot *slot;
  GstBuffer *buf = NULL;
  GstFlowReturn fret;

  if (self->flow_error != GST_FLOW_OK)
    return FALSE;

  if (fmt != self->fmt) {
    /* caps change only between buffers: if frames of the old format still
     * wait to be pushed, this first frame of the new one is dropped */
    if (!g_queue_is_empty (&self->out))
      return FALSE;
    self->stream_fmt = fmt;
    if (!gst_base_src_negotiate (GST_BASE_SRC (self))) {
      self->flow_error = GST_FLOW_NOT_NEGOTIATED;
      return FALSE;
    }
  }

  slot = get_free_slot (self);
  if (slot == NULL)
    return FALSE;

  /* never block the receive path on a slow consumer: no free frame means
   * this frame is dropped and counted, the next ones go on */
  pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (self));
  if (pool == NULL)
    return FALSE;
  params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  fret = gst_buffer_pool_acquire_buffer (pool, &buf, &params);
  gst_object_unref (pool);
  if (fret != GST_FLOW_OK) {
    GST_LOG_OBJECT (self, "no free output frame (%s): frame dropped",
        gst_flow_get_name (fret));
    gst_st2022_src_post_qos (self, GST_CLOCK_TIME_NONE);
    return FALSE;
  }
  if (!gst_video_frame_map (&slot->frame, &self->vinfo, buf, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    return FALSE;
  }

  slot->in_use = TRUE;
  slot->buffer = buf;
  slot->fmt = fmt;
  slot->hdr_seq = hdr->seq;
  slot->hdr_vts = hdr->vts;
  slot->hdr_cf = hdr->cf;
  slot->v210 = self->v210;
  target->user_data = slot;
  if (self->v210) {
    /* a slot's raster is kept across frames, but a format change can need
     * a bigger one */
    if (slot->raster_size < fmt->frame_bytes) {
      g_free (slot->raster);
      slot->raster = g_malloc (fmt->frame_bytes);
      slot->raster_size = fmt->frame_bytes;
    }
    target->type = ST2022_TARGET_RASTER;
    target->data = slot->raster;
    target->size = slot->raster_size;
    target->stride = 0;
  } else {
    target->type = ST2022_TARGET_UYVP;
    target->data = GST_VIDEO_FRAME_PLANE_DATA (&slot->frame, 0);
    target->stride = GST_VIDEO_FRAME_PLANE_STRIDE (&slot->frame, 0);
    target->size = (fmt->height - 1) * target->stride + fmt->active_bytes;
  }
  self->in_progress++;
  return TRUE;
}

static void
on_frame_end (gpointer user_data, St2022Target * target,
    const St2022FrameInfo * info)
{
  GstSt2022Src *self = user_data;
  GstSt2022SrcSlot *slot = target->user_data;
  GstBuffer *buf = slot->buffer;
  GstClockTime base;
  GstSt2022Meta *meta;
  guint16 index;

  self->in_progress--;
  /* a guessed frame start proved wrong: the frame holds misplaced data */
  if (info->aborted) {
    release_slot (self, slot);
    return;
  }
  /* downstream renegotiated (UYVP <-> v210) while the frame was arriving:
   * it was assembled for caps that no longer hold */
  if (slot->v210 != self->v210 || slot->fmt != self->fmt) {
    self->dropped_caps++;
    release_slot (self, slot);
    return;
  }

  if (!info->complete) {
    GST_DEBUG_OBJECT (self, "frame %u: %u of %u datagrams missing%s",
        info->frcount, info->missing, info->datagrams,
        info->marker ? "" : " (marker too)");
    if (self->drop_corrupted) {
      self->dropped_corrupted++;
      release_slot (self, slot);
      gst_st2022_src_post_qos (self, info->first_arrival_ns);
      return;
    }
    if (self->v210) {
      /* the raster keeps the previous frame's bytes, or black */
      st2022_conceal_raster (info->format, info->missing_map, slot->raster,
          self->prev_raster_size >= info->format->frame_bytes ?
          self->prev_raster : NULL);
    } else {
      GstVideoFrame prev;
      gboolean have_prev = self->prev
          && gst_video_frame_map (&prev, &self->vinfo, self->prev,
          GST_MAP_READ);

      st2022_conceal_uyvp (info->format, info->missing_map,
          GST_VIDEO_FRAME_PLANE_DATA (&slot->frame, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&slot->frame, 0),
          have_prev ? GST_VIDEO_FRAME_PLANE_DATA (&prev, 0) : NULL,
          have_prev ? GST_VIDEO_FRAME_PLANE_STRIDE (&prev, 0) : 0);
      if (have_prev)
        gst_video_frame_unmap (&prev);
    }
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  }

  if (self->v210) {
    st2022_raster_read (info->format, slot->raster, info->format->frame_bytes,
        ST2022_PIXEL_V210, GST_VIDEO_FRAME_PLANE_DATA (&slot->frame, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&slot->frame, 0));
    /* the finished raster becomes the concealment source: swap buffers */
    {
      guint8 *tmp = self->prev_raster;
      gsize tmp_size = self->prev_raster_size;

      self->prev_raster = slot->raster;
      self->prev_raster_size = slot->raster_size;
      slot->raster = tmp;
      slot->raster_size = tmp_size;
    }
  }
  gst_video_frame_unmap (&slot->frame);
  slot->buffer = NULL;
  slot->in_use = FALSE;

  base = gst_element_get_base_time (GST_ELEMENT (self));
  GST_BUFFER_PTS (buf) = info->first_arrival_ns >= base ?
      info->first_arrival_ns - base : 0;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale_int (GST_SECOND,
      info->format->fps_d, info->format->fps_n);
  if (info->format->interlaced)
    GST_BUFFER_FLAG_SET (buf, GST_VIDEO_BUFFER_FLAG_INTERLACED |
        GST_VIDEO_BUFFER_FLAG_TFF);

  meta = gst_buffer_add_st2022_meta (buf);
  meta->rtp_timestamp = info->rtp_ts;
  meta->ssrc = info->ssrc;
  meta->frcount = info->frcount;
  meta->first_seq = info->first_seq;
  meta->last_seq = (guint16) (info->first_seq + info->datagrams - 1);
  meta->packets = info->datagrams;
  meta->packets_missing = info->missing;
  index = (guint16) (slot->hdr_seq - info->first_seq);
  meta->video_timestamp = slot->hdr_cf ?
      slot->hdr_vts - st2022_datagram_vts_offset (index) : 0;

  gst_buffer_replace (&self->prev, buf);
  g_queue_push_tail (&self->out, buf);
}

static void
on_format_changed (gpointer user_data, const St2022Format * old_fmt,
    const St2022Format * new_fmt)
{
  GstSt2022Src *self = user_data;

  GST_INFO_OBJECT (self, "stream format %s -> %s",
      old_fmt ? old_fmt->name : "(none)", new_fmt->name);
  /* a sender restart (new SSRC) keeps the format: nothing to renegotiate */
  if (old_fmt != new_fmt)
    gst_st2022_src_clear_prev (self);
}

static const St2022DepacketizerCallbacks depay_callbacks = {
  on_frame_begin,
  on_frame_end,
  on_format_changed,
};

/* --- GstBaseSrc ---------------------------------------------------------- */

/* port=0: the transport bound an ephemeral port; tell the application */
static gboolean
gst_st2022_src_report_port (GstSt2022Src * self)
{
  guint16 port = vmi_transport_get_local_port (self->t);

  if (port == 0)
    goto no_port;
  GST_OBJECT_LOCK (self);
  self->port = port;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "bound ephemeral port %u", port);
  g_object_notify (G_OBJECT (self), "port");
  return TRUE;

  /* ERRORS */
no_port:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("port=0 (an ephemeral port) needs transport=socket; set port to "
            "the stream's UDP port"), (NULL));
    g_clear_pointer (&self->t, vmi_transport_close);
    return FALSE;
  }
}

static gboolean
gst_st2022_src_start (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);
  VmiTransportConfig cfg = { 0 };
  GstSt2022Transport transport;
  guint payload_type;

  if (!gst_st2022_sdp_src_configure (GST_ELEMENT (self), &self->sdp))
    return FALSE;

  GST_OBJECT_LOCK (self);
  transport = self->common.transport;
  payload_type = self->payload_type;
  cfg.direction = VMI_TRANSPORT_DIR_RECEIVE;
  cfg.address = self->address;
  cfg.port = self->port;
  cfg.multicast_iface = self->multicast_iface;
  cfg.source_address = self->source_address;
  cfg.buffer_size = self->buffer_size;
  cfg.iface = self->common.iface;
  cfg.dpdk_eal_args = self->common.dpdk_eal_args;
  cfg.dpdk_port = self->common.dpdk_port;
  memset (&self->stats, 0, sizeof (self->stats));
  self->packets_discarded = self->frames_skipped = self->format_changes = 0;
  self->frames_aborted = 0;
  self->dropped_corrupted = self->dropped_caps = self->frames_pushed = 0;
  GST_OBJECT_UNLOCK (self);

  /* the strings stay valid: properties are MUTABLE_READY */
  self->t = gst_st2022_transport_open (GST_ELEMENT (self), transport, &cfg,
      0, NULL);
  if (self->t == NULL)
    return FALSE;
  if (cfg.port == 0 && !gst_st2022_src_report_port (self))
    return FALSE;

  self->depay = st2022_depacketizer_new (&depay_callbacks, self);
  if (payload_type != 0)
    st2022_depacketizer_set_payload_type (self->depay, payload_type);
  self->fmt = NULL;
  self->stream_fmt = NULL;
  self->flow_error = GST_FLOW_OK;
  self->in_progress = 0;
  self->last_rx_mono = g_get_monotonic_time ();
  self->last_post = GST_CLOCK_TIME_NONE;
  self->eos_posted = FALSE;
  g_atomic_int_set (&self->flushing, 0);
  return TRUE;
}

static gboolean
gst_st2022_src_stop (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);
  guint i;

  if (self->depay && !self->eos_posted) {
    gst_st2022_src_update_stats (self);
    gst_st2022_src_post_stats (self);
  }
  g_clear_pointer (&self->depay, st2022_depacketizer_free);
  g_clear_pointer (&self->t, vmi_transport_close);
  for (i = 0; i < N_SLOTS; i++) {
    release_slot (self, &self->slots[i]);
    g_clear_pointer (&self->slots[i].raster, g_free);
    self->slots[i].raster_size = 0;
  }
  g_queue_clear_full (&self->out, (GDestroyNotify) gst_buffer_unref);
  gst_st2022_src_clear_prev (self);
  self->fmt = NULL;
  return TRUE;
}

static gboolean
gst_st2022_src_unlock (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  g_atomic_int_set (&self->flushing, 1);
  vmi_transport_wakeup (self->t);
  return TRUE;
}

static gboolean
gst_st2022_src_unlock_stop (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  g_atomic_int_set (&self->flushing, 0);
  return TRUE;
}

/* The stream's caps: what the sink accepts for @fmt, plus what the wire
 * implies (SDI HD is square-pixel BT.709). */
static GstCaps *
gst_st2022_src_format_caps (const St2022Format * fmt)
{
  GstStructure *s = gst_st2022_format_structure (fmt);

  gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      "colorimetry", G_TYPE_STRING, "bt709", NULL);
  return gst_caps_new_full (s, NULL);
}

static GstCaps *
gst_st2022_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);
  GstCaps *caps;

  if (self->stream_fmt)
    caps = gst_st2022_src_format_caps (self->stream_fmt);
  else
    caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (bsrc));

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, caps,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = tmp;
  }
  return caps;
}

/* The caps are the stream's: nothing to negotiate before its first header
 * (the base class asks once before the first create()). */
static gboolean
gst_st2022_src_negotiate (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  if (self->stream_fmt == NULL)
    return TRUE;
  return GST_BASE_SRC_CLASS (parent_class)->negotiate (bsrc);
}

static GstCaps *
gst_st2022_src_fixate (GstBaseSrc * bsrc, GstCaps * caps)
{
  /* the format list's first entry that downstream kept: UYVP unless
   * downstream only takes v210 */
  caps = gst_caps_truncate (caps);
  caps = gst_caps_make_writable (caps);
  gst_structure_fixate_field_string (gst_caps_get_structure (caps, 0),
      "format", "UYVP");
  return GST_BASE_SRC_CLASS (parent_class)->fixate (bsrc, caps);
}

static gboolean
gst_st2022_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  self->vinfo = info;
  self->v210 = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_v210;
  self->fmt = self->stream_fmt;
  GST_INFO_OBJECT (self, "stream %s as %" GST_PTR_FORMAT,
      self->fmt ? self->fmt->name : "?", caps);
  return TRUE;
}

static gboolean
gst_st2022_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  GstCaps *caps;
  GstVideoInfo info;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size, min, max;
  gboolean update;

  gst_query_parse_allocation (query, &caps, NULL);
  /* the base class asks before the stream has told us its format */
  if (caps == NULL)
    return TRUE;
  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    update = TRUE;
  } else {
    size = info.size;
    min = max = 0;
    update = FALSE;
  }
  /* only video pools know strides: anything else gets ours */
  if (pool && !GST_IS_VIDEO_BUFFER_POOL (pool))
    gst_clear_object (&pool);
  if (pool == NULL)
    pool = gst_vmi_buffer_pool_new ();

  size = MAX (size, (guint) info.size);
  /* two frames being assembled, the concealment reference and one being
   * pushed */
  min = MAX (min, 4);
  /* bounded, so a stalled consumer turns into counted drops, not memory */
  if (max == 0)
    max = MAX (min, 16);
  max = MAX (max, min);

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min,
            max) || !gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      GST_ELEMENT_ERROR (bsrc, RESOURCE, SETTINGS,
          ("could not configure the output buffer pool"), (NULL));
      return FALSE;
    }
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_get_params (config, NULL, &size, &min, &max);
    gst_structure_free (config);
  }

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);

  return GST_BASE_SRC_CLASS (parent_class)->decide_allocation (bsrc, query);
}

static gboolean
gst_st2022_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    const St2022Format *fmt = self->stream_fmt;
    GstClockTime frame = fmt ? gst_util_uint64_scale_int (GST_SECOND,
        fmt->fps_d, fmt->fps_n) : 40 * GST_MSECOND;

    /* a frame is pushed when its last datagram arrived, one frame after
     * its PTS, plus scheduling jitter; the socket buffer can hold frames
     * for as long as downstream needs */
    gst_query_set_latency (query, TRUE, frame + 10 * GST_MSECOND,
        GST_CLOCK_TIME_NONE);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

static GstFlowReturn
gst_st2022_src_create (GstPushSrc * psrc, GstBuffer ** outbuf)
{
  GstSt2022Src *self = GST_ST2022_SRC (psrc);
  GstClock *clock;
  GError *err = NULL;
  gint n, i;

  for (;;) {
    if (!g_queue_is_empty (&self->out)) {
      *outbuf = g_queue_pop_head (&self->out);
      self->frames_pushed++;
      break;
    }
    if (self->flow_error != GST_FLOW_OK)
      goto negotiation_failed;
    if (g_atomic_int_get (&self->flushing))
      return GST_FLOW_FLUSHING;

    n = vmi_transport_recv_burst (self->t, self->rx, RX_BURST, RX_TIMEOUT_US,
        &err);
    if (n < 0)
      goto receive_failed;
    if (n == 0) {
      /* a pause in the stream ends the frame still open (its end may have
       * been lost): it is pushed now rather than when the stream resumes */
      if (self->in_progress > 0 && self->stream_fmt
          && g_get_monotonic_time () - self->last_rx_mono >
          IDLE_FLUSH_FRAMES * (gint64) self->stream_fmt->fps_d * G_USEC_PER_SEC
          / self->stream_fmt->fps_n) {
        st2022_depacketizer_flush (self->depay);
        gst_st2022_src_update_stats (self);
      }
      continue;
    }

    self->last_rx_mono = g_get_monotonic_time ();
    GST_OBJECT_LOCK (self);
    clock = GST_ELEMENT_CLOCK (self) ? gst_object_ref (GST_ELEMENT_CLOCK (self))
        : NULL;
    GST_OBJECT_UNLOCK (self);
    {
      /* one arrival time per burst: bursts are far shorter than a frame */
      guint64 arrival = clock ? gst_clock_get_time (clock) :
          (guint64) g_get_monotonic_time () * 1000;
      for (i = 0; i < n; i++)
        st2022_depacketizer_push (self->depay, self->rx[i].data,
            self->rx[i].len, arrival);
    }
    if (clock)
      gst_object_unref (clock);
    gst_st2022_src_update_stats (self);
  }

  gst_st2022_src_update_stats (self);
  if (gst_st2022_common_stats_due (GST_ELEMENT (self), &self->common,
          &self->last_post, GST_BUFFER_PTS (*outbuf)))
    gst_st2022_src_post_stats (self);
  return GST_FLOW_OK;

  /* ERRORS */
receive_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", err->message), (NULL));
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
negotiation_failed:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("downstream accepts neither UYVP nor v210 for %s",
            self->stream_fmt ? self->stream_fmt->name : "the stream"),
        (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
}
