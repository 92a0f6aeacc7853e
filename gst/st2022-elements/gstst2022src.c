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
 * pixel-aspect-ratio 1/1, SD bt601 and 4:3 pixels); a format change
 * mid-stream renegotiates.
 *
 * A receive thread of its own reads the transport and assembles the frames;
 * finished frames wait in a short queue for the streaming thread. A slow
 * downstream therefore costs counted frames (`frames-dropped`, oldest
 * first, with a QoS message), never silent datagram loss in the kernel;
 * datagrams the transport itself dropped (a full socket receive queue) are
 * counted in `packets-overflow` (the stream's datagrams they cost) and
 * `overflow-events` (the transport's own count).
 *
 * Datagram payloads are written straight into the output frames (from the
 * downstream pool, else a GstVmiBufferPool): one copy per byte, the
 * kernel's. It is a live source: a frame's PTS is the pipeline clock time at
 * which its first datagram arrived, minus the base time; the RTP timestamp,
 * sequence numbers and FRCount travel in a #GstSt2022Meta. With
 * `clock-source=ptp` or `tai` (SMPTE ST 2059) the PTS is the instant the RTP
 * timestamp names and stats carry each frame's latency (docs/timing.md).
 *
 * The element locks on the first stream to send `lock-datagrams`
 * consecutive consistent datagrams (SSRC, payload type, format, sequence
 * numbers), a stray alone never: datagrams of other senders on the same
 * port, implausible sequence numbers and datagrams of the stream that
 * contradict the frame being built (FRCount, marker) are counted
 * (`packets-foreign`, `packets-out-of-window`) and dropped without touching
 * that frame. Candidate streams are followed side by side, so strays never
 * delay the real one. A real change (a restarted sender, a format change)
 * is taken the same way; the confirming datagrams are kept and handed on,
 * so nothing of the new stream is lost.
 *
 * Loss never stalls the stream: a frame with missing datagrams is still
 * pushed (unless `drop-corrupted=true`) with the missing parts concealed
 * (previous frame's pixels, or black when there is none), flagged
 * %GST_BUFFER_FLAG_CORRUPTED and counted. Concealment is bounded: one
 * frame per frame period on average (bursts of up to 16); frames beyond
 * are dropped and counted.
 *
 * When no valid datagram arrives for `timeout` ns an `st2022-timeout`
 * element message is posted (once per silence; `signal-lost` counts them,
 * `signal-restored` counts the returns). During silence nothing is pushed:
 * a live mixer (compositor, audiomixer and other #GstAggregator subclasses)
 * times out on its own latency and keeps showing the pad's last frame,
 * which is what a made-up repeated frame would give it, without claiming a
 * signal that is not there. Statistics are in `stats` and are posted as
 * `st2022-stats` element messages every `stats-interval` ms (during silence
 * too) and at EOS (use `num-buffers` to end after N frames).
 *
 * ST 2022-7: with `secondary-address` set the element also receives a
 * second path (`secondary-*`), each through its own stream lock, and merges
 * the two by sequence number before assembling frames: the first copy of a
 * datagram wins and a datagram is lost only when both paths lost it, within
 * a path differential of `seamless-window` ms. A path silent for `timeout`
 * while the other carries the stream is posted as `st2022-path` (`path`,
 * `state`) with a warning, and again when it returns; per-path counters are
 * in `stats` (docs/seamless.md).
 *
 * Many streams per core (transport=dpdk): sources of one process with the
 * same `shared-engine` name share one receive thread (pinned by `rx-cpu`)
 * and one DPDK port, which hands each source the datagrams sent to its
 * `address` and `port`; sources join and leave while the others play. A
 * shared engine never waits for one source's downstream: the first frame of
 * a new format is dropped while that source negotiates caps
 * (docs/transports.md).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m st2022src address=239.1.1.1 port=5004 multicast-iface=eth0 ! \
 *   queue ! vmi10to8 ! videoconvert ! autovideosink
 * ]| Joins a multicast group and displays the stream.
 * |[
 * gst-launch-1.0 st2022src address=239.1.1.1 multicast-iface=eth0 \
 *   secondary-address=239.2.1.1 secondary-multicast-iface=eth1 ! \
 *   queue ! vmi10to8 ! videoconvert ! autovideosink
 * ]| The same stream on two networks (ST 2022-7), either one may fail.
 * Not run by the docs test: it needs a NIC bound to vfio-pci.
 * |[
 * gst-launch-1.0 \
 *   st2022src transport=dpdk dpdk-eal-args="-a 0000:01:00.0" \
 *     address=239.1.1.1 shared-engine=rx0 rx-cpu=3 ! queue ! fakesink \
 *   st2022src transport=dpdk dpdk-eal-args="-a 0000:01:00.0" \
 *     address=239.1.1.2 shared-engine=rx0 ! queue ! fakesink
 * ]| Two streams received by one thread on CPU 3.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstst2022src-priv.h"
#include "gstvmicapsdiag.h"
#include "gstst2022uri.h"
#include "gstst2022meta.h"
#include "gstvmielements.h"

GST_DEBUG_CATEGORY (gst_st2022_src_debug);
#define GST_CAT_DEFAULT gst_st2022_src_debug

#define gst_st2022_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstSt2022Src, gst_st2022_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_st2022_src_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (st2022src, "st2022src",
    GST_RANK_NONE, GST_TYPE_ST2022_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_st2022_src_debug, "st2022src", 0,
        "ST 2022-6 receiver"));

static void gst_st2022_src_finalize (GObject * object);
static gboolean gst_st2022_src_start (GstBaseSrc * bsrc);
static gboolean gst_st2022_src_stop (GstBaseSrc * bsrc);
static void gst_st2022_src_check_stall (GstSt2022Src * self);
static gboolean gst_st2022_src_unlock (GstBaseSrc * bsrc);
static gboolean gst_st2022_src_unlock_stop (GstBaseSrc * bsrc);
static GstFlowReturn gst_st2022_src_create (GstPushSrc * psrc,
    GstBuffer ** buf);

GstBaseSrcClass *
gst_st2022_src_parent_base_class (void)
{
  return GST_BASE_SRC_CLASS (parent_class);
}

static GstClock *
gst_st2022_src_provide_clock (GstElement * element)
{
  return gst_st2022_clock_provide (element, &GST_ST2022_SRC (element)->timing);
}

static void
gst_st2022_src_class_init (GstSt2022SrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);
  GstCaps *caps;

  gobject_class->set_property = gst_st2022_src_set_property;
  gobject_class->get_property = gst_st2022_src_get_property;
  gobject_class->finalize = gst_st2022_src_finalize;
  element_class->provide_clock = gst_st2022_src_provide_clock;
  gst_st2022_src_install_properties (gobject_class);

  caps = gst_st2022_supported_caps ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  gst_element_class_add_pad_template (element_class,
      gst_st2022_anc_rx_audio_template ());
  gst_element_class_set_static_metadata (element_class,
      "ST 2022-6 source", "Source/Network/Video",
      "Receives a SMPTE ST 2022-6 stream as raw video (also as "
      "st2022://@group:port). Example: gst-launch-1.0 st2022src "
      "sdp-file=stream.sdp ! vmi10to8 ! video/x-raw,format=I420 ! "
      "videoconvert ! autovideosink", "gst-vmi developers");

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
  self->ssrc = DEFAULT_PROP_SSRC;
  self->lock_datagrams = DEFAULT_PROP_LOCK_DATAGRAMS;
  self->timeout = DEFAULT_PROP_TIMEOUT;
  self->shared_engine = g_strdup (DEFAULT_PROP_SHARED_ENGINE);
  self->rx_cpu = DEFAULT_PROP_RX_CPU;
  self->dpdk_rx_mbufs = DEFAULT_PROP_DPDK_RX_MBUFS;
  gst_st2022_common_settings_init (&self->common);
  gst_st2022_legs_settings_init (&self->legs_settings, FALSE);
  gst_st2022_clock_init (&self->timing);
  GST_OBJECT_FLAG_SET (self, GST_ELEMENT_FLAG_PROVIDE_CLOCK);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  g_queue_init (&self->out);

  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
  /* EOS leaves through the pad whatever caused it (num-buffers, an
   * application's EOS event): the final counters go out just before it */
  gst_pad_add_probe (GST_BASE_SRC_PAD (self),
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, gst_st2022_src_eos_probe, NULL,
      NULL);
  self->anc = gst_st2022_anc_rx_new (GST_ELEMENT (self));
  self->nmos = gst_st2022_nmos_new (GST_ELEMENT (self));
  self->helpers.common = &self->common;
  self->helpers.sdp = &self->sdp;
  self->helpers.nmos = self->nmos;
  self->helpers.legs = &self->legs_settings;
  self->helpers.clock = &self->timing;
}

static void
gst_st2022_src_finalize (GObject * object)
{
  GstSt2022Src *self = GST_ST2022_SRC (object);

  g_free (self->address);
  g_free (self->multicast_iface);
  g_free (self->source_address);
  g_free (self->shared_engine);
  gst_st2022_common_settings_clear (&self->common);
  gst_st2022_sdp_settings_clear (&self->sdp);
  gst_st2022_legs_settings_clear (&self->legs_settings);
  gst_st2022_src_legs_free (self->legs);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  gst_st2022_anc_rx_free (self->anc);
  gst_st2022_nmos_free (self->nmos);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* --- depacketizer callbacks (receive thread, inside push) --------------- */

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
}

/* Caps change only in the streaming thread, between buffers: the receive
 * thread asks for @fmt and waits until create() has pushed the frames of
 * the old format and negotiated. Called with @lock. */
static gboolean
gst_st2022_src_wait_caps (GstSt2022Src * self, const St2022Format * fmt)
{
  self->want_fmt = fmt;
  self->neg_result = 0;
  g_cond_broadcast (&self->cond);
  while (self->neg_result == 0 && !self->stopping)
    g_cond_wait (&self->cond, &self->lock);
  self->want_fmt = NULL;
  return self->neg_result > 0 && self->fmt == fmt;
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
  GstVideoInfo vinfo;
  gboolean v210;

  g_mutex_lock (&self->lock);
  if (fmt != self->fmt && self->shared) {
    /* a shared engine never waits for one source's downstream: this frame
     * is dropped while the streaming thread negotiates */
    if (self->want_fmt != fmt) {
      self->want_fmt = fmt;
      self->neg_result = 0;
      g_cond_broadcast (&self->cond);
    }
    g_mutex_unlock (&self->lock);
    return FALSE;
  }
  if (self->shared)
    self->want_fmt = NULL;
  if (fmt != self->fmt && !gst_st2022_src_wait_caps (self, fmt)) {
    g_mutex_unlock (&self->lock);
    return FALSE;
  }
  vinfo = self->vinfo;
  v210 = self->v210;
  g_mutex_unlock (&self->lock);

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
    gst_st2022_src_check_stall (self);
    gst_st2022_src_post_qos (self, fmt, GST_CLOCK_TIME_NONE);
    return FALSE;
  }
  if (!gst_video_frame_map (&slot->frame, &vinfo, buf, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    return FALSE;
  }

  slot->in_use = TRUE;
  slot->buffer = buf;
  slot->fmt = fmt;
  slot->hdr_seq = hdr->seq;
  slot->hdr_vts = hdr->vts;
  slot->hdr_cf = hdr->cf;
  slot->v210 = v210;
  target->user_data = slot;
  /* both straight into the output frame: v210 without a raster pass */
  target->type = v210 ? ST2022_TARGET_V210 : ST2022_TARGET_UYVP;
  target->data = GST_VIDEO_FRAME_PLANE_DATA (&slot->frame, 0);
  target->stride = GST_VIDEO_FRAME_PLANE_STRIDE (&slot->frame, 0);
  target->size = (fmt->height - 1) * target->stride +
      st2022_picture_min_stride (fmt, v210 ? ST2022_PIXEL_V210 :
      ST2022_PIXEL_UYVP);
  /* the blanking (ANC) goes to a side buffer, the picture stays one copy */
  target->blank = gst_st2022_anc_rx_side_buffer (self->anc,
      slot - self->slots, fmt, &target->blank_dirty);
  target->blank_size = target->blank ? fmt->frame_bytes : 0;
  self->in_progress++;
  return TRUE;
}

/* Concealment copies from the previous frame: whatever arrives, it is done
 * for at most one frame per frame period on average, from a budget that
 * holds CONCEAL_BURST periods (a sender that catches up after a stall sends
 * frames faster than real time); frames over budget are dropped and
 * counted. */
static gboolean
gst_st2022_src_conceal_allowed (GstSt2022Src * self,
    const St2022FrameInfo * info)
{
  GstClockTime period = gst_st2022_src_frame_duration (info->format);
  GstClockTime now = info->last_arrival_ns;

  if (!GST_CLOCK_TIME_IS_VALID (self->conceal_last)) {
    self->conceal_budget = CONCEAL_BURST * period;
  } else if (now > self->conceal_last) {
    self->conceal_budget = MIN (CONCEAL_BURST * period,
        self->conceal_budget + (now - self->conceal_last));
  }
  self->conceal_last = now;
  if (self->conceal_budget < period)
    return FALSE;
  self->conceal_budget -= period;
  return TRUE;
}

/* A frame was dropped for want of a consumer. When the streaming thread
 * has taken nothing for STALL_WARN_US it is blocked, typically a sink on one
 * of our pads waiting to preroll while the other pad's sink never gets its
 * first buffer from the same thread (no queues, as after a demuxer). */
static void
gst_st2022_src_check_stall (GstSt2022Src * self)
{
  gint64 blocked;
  gboolean audio, has_audio;

  g_mutex_lock (&self->lock);
  blocked = g_get_monotonic_time () - self->taken_mono;
  audio = self->pushing_audio;
  /* after EOS (num-buffers) nobody takes frames, by design */
  if (self->stall_warned || self->flushing || blocked < STALL_WARN_US ||
      GST_STATE (self) != GST_STATE_PLAYING ||
      GST_PAD_IS_EOS (GST_BASE_SRC_PAD (self))) {
    g_mutex_unlock (&self->lock);
    return;
  }
  self->stall_warned = TRUE;
  g_mutex_unlock (&self->lock);

  GST_OBJECT_LOCK (self);
  has_audio = GST_ELEMENT (self)->numsrcpads > 1;
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_WARNING (self, STREAM, FAILED,
      ("st2022src has been blocked for %.1f s pushing on its %s pad, and "
          "drops the frames it receives: %s", blocked / 1e6,
          audio ? "audio" : "video", has_audio ? "put a queue after each "
          "of its pads (video and audio), as after a demuxer (without them "
          "one pad's sink waits to preroll while the other's never gets "
          "a buffer); with queues, downstream (a muxer, an encoder) is not "
          "taking frames" : "downstream takes no frames"),
      ("no frame taken by the streaming thread for %" G_GINT64_FORMAT
          " us", blocked));
}

/* Hands a finished frame to the streaming thread; the oldest waiting one
 * makes room when downstream is too slow. */
static void
gst_st2022_src_queue_frame (GstSt2022Src * self, GstBuffer * buf,
    const St2022Format * fmt)
{
  GstBuffer *old = NULL;

  g_mutex_lock (&self->lock);
  if (g_queue_get_length (&self->out) >= OUT_QUEUE_MAX)
    old = g_queue_pop_head (&self->out);
  g_queue_push_tail (&self->out, buf);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  if (old) {
    GstClockTime pts = GST_BUFFER_PTS (old);

    self->dropped_queue++;
    gst_buffer_unref (old);
    gst_st2022_src_check_stall (self);
    gst_st2022_src_update_stats (self);
    gst_st2022_src_post_qos (self, fmt, GST_CLOCK_TIME_IS_VALID (pts) ?
        pts + gst_element_get_base_time (GST_ELEMENT (self)) : pts);
  }
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
  gboolean caps_changed;

  self->in_progress--;
  /* a guessed frame start proved wrong: the frame holds misplaced data */
  if (info->aborted) {
    release_slot (self, slot);
    return;
  }
  /* downstream renegotiated (UYVP <-> v210) while the frame was arriving:
   * it was assembled for caps that no longer hold */
  g_mutex_lock (&self->lock);
  caps_changed = slot->v210 != self->v210 || slot->fmt != self->fmt;
  g_mutex_unlock (&self->lock);
  if (caps_changed) {
    self->dropped_caps++;
    release_slot (self, slot);
    return;
  }

  if (!info->complete) {
    gboolean drop;

    GST_DEBUG_OBJECT (self, "frame %u: %u of %u datagrams missing%s",
        info->frcount, info->missing, info->datagrams,
        info->marker ? "" : " (marker too)");
    /* changeable while playing */
    GST_OBJECT_LOCK (self);
    drop = self->drop_corrupted;
    GST_OBJECT_UNLOCK (self);
    if (drop) {
      self->dropped_corrupted++;
      release_slot (self, slot);
      gst_st2022_src_post_qos (self, info->format, info->first_arrival_ns);
      return;
    }
    if (!gst_st2022_src_conceal_allowed (self, info)) {
      self->dropped_conceal++;
      release_slot (self, slot);
      gst_st2022_src_post_qos (self, info->format, info->first_arrival_ns);
      return;
    }
    {
      GstVideoFrame prev;
      /* (the same size: not a frame of the other pixel format) */
      gboolean have_prev = self->prev
          && gst_buffer_get_size (self->prev) == gst_buffer_get_size (buf)
          && gst_video_frame_map (&prev, &slot->frame.info, self->prev,
          GST_MAP_READ);

      guint8 *pd = have_prev ? GST_VIDEO_FRAME_PLANE_DATA (&prev, 0) : NULL;
      gsize ps = have_prev ? GST_VIDEO_FRAME_PLANE_STRIDE (&prev, 0) : 0;

      if (slot->v210)
        st2022_conceal_v210 (info->format, info->missing_map,
            info->v210_edges, GST_VIDEO_FRAME_PLANE_DATA (&slot->frame, 0),
            GST_VIDEO_FRAME_PLANE_STRIDE (&slot->frame, 0), pd, ps);
      else
        st2022_conceal_uyvp (info->format, info->missing_map,
            GST_VIDEO_FRAME_PLANE_DATA (&slot->frame, 0),
            GST_VIDEO_FRAME_PLANE_STRIDE (&slot->frame, 0), pd, ps);
      if (have_prev)
        gst_video_frame_unmap (&prev);
    }
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  }

  gst_video_frame_unmap (&slot->frame);
  slot->buffer = NULL;
  slot->in_use = FALSE;
  /* timecode, captions, audio: from the blanking side buffer */
  gst_st2022_anc_rx_frame (self->anc, buf, target->blank, info);

  base = gst_element_get_base_time (GST_ELEMENT (self));
  GST_BUFFER_PTS (buf) = info->first_arrival_ns >= base ?
      info->first_arrival_ns - base : 0;
  gst_st2022_clock_rx_frame (GST_ELEMENT (self), &self->timing, info->rtp_ts,
      info->first_arrival_ns, buf);
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = gst_st2022_src_frame_duration (info->format);
  if (info->format->interlaced && !info->format->psf)
    GST_BUFFER_FLAG_SET (buf, GST_VIDEO_BUFFER_FLAG_INTERLACED |
        (info->format->bottom_field_first ? 0 : GST_VIDEO_BUFFER_FLAG_TFF));

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
  /* the counters include this frame before anyone can see it pushed */
  gst_st2022_src_update_stats (self);
  gst_st2022_src_queue_frame (self, buf, info->format);
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
  g_auto (VmiTransportConfig) cfg = { 0 };
  g_auto (VmiTransportConfig) cfg2 = { 0 };
  GstSt2022Transport transport;
  guint pt, ssrc, confirm, window, rx_mbufs;
  gboolean two_paths;
  gchar *engine;
  gint rx_cpu;

  if (!gst_st2022_sdp_src_configure (GST_ELEMENT (self), &self->sdp))
    return FALSE;

  GST_OBJECT_LOCK (self);
  transport = self->common.transport;
  cfg.direction = VMI_TRANSPORT_DIR_RECEIVE;
  cfg.address = self->address;
  cfg.port = self->port;
  cfg.multicast_iface = self->multicast_iface;
  cfg.source_address = self->source_address;
  cfg.buffer_size = self->buffer_size;
  cfg.iface = self->common.iface;
  cfg.dpdk_eal_args = self->common.dpdk_eal_args;
  cfg.dpdk_port = self->common.dpdk_port;
  gst_st2022_transport_config_own_strings (&cfg);
  two_paths = gst_st2022_legs_config (&self->legs_settings, &cfg, &cfg2);
  window = self->legs_settings.window_ms;
  pt = self->payload_type;
  ssrc = self->ssrc;
  confirm = self->lock_datagrams;
  engine = self->shared_engine && *self->shared_engine ?
      g_strdup (self->shared_engine) : NULL;
  rx_cpu = self->rx_cpu;
  rx_mbufs = self->dpdk_rx_mbufs;
  memset (&self->stats, 0, sizeof (self->stats));
  memset (&self->lock_stats, 0, sizeof (self->lock_stats));
  self->packets_discarded = self->frames_skipped = self->format_changes = 0;
  self->frames_aborted = self->packets_overflow = 0;
  self->overflow_events = 0;
  self->full_since = 0;
  self->dropped_corrupted = self->dropped_caps = self->frames_pushed = 0;
  self->dropped_queue = self->dropped_conceal = 0;
  self->signal_lost_count = self->signal_restored_count = 0;
  GST_OBJECT_UNLOCK (self);

  if (engine && two_paths) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("shared-engine '%s' "
            "receives one path per source: clear secondary-address (ST "
            "2022-7) or shared-engine", engine), (NULL));
    g_free (engine);
    return FALSE;
  }
  /* with a shared engine the engine's transport receives for us (joined
   * below, once everything it calls is ready) */
  cfg.rx_mbufs = rx_mbufs;
  if (engine == NULL) {
    self->t = gst_st2022_transport_open (GST_ELEMENT (self), transport, &cfg,
        0, NULL);
    if (self->t == NULL)
      return FALSE;
    if (cfg.port == 0 && !gst_st2022_src_report_port (self))
      return FALSE;
  }
  if (!gst_st2022_clock_start (GST_ELEMENT (self), &self->timing)) {
    g_clear_pointer (&self->t, vmi_transport_close);
    g_free (engine);
    return FALSE;
  }

  self->depay = st2022_depacketizer_new (&depay_callbacks, self);
  st2022_depacketizer_set_payload_type (self->depay, pt ? (gint) pt : -1);
  self->lock_gate = st2022_stream_lock_new (confirm);
  self->rx_dropped_told = 0;
  st2022_stream_lock_set_filter (self->lock_gate, pt ? (gint) pt : -1,
      ssrc != G_MAXUINT, ssrc);
  st2022_stream_lock_set_depacketizer (self->lock_gate, self->depay);
  g_clear_pointer (&self->legs, gst_st2022_src_legs_free);
  if (two_paths) {
    self->legs = gst_st2022_src_legs_new (GST_ELEMENT (self), transport,
        &cfg, &cfg2, window, self->t, self->lock_gate, self->depay, confirm,
        pt ? (gint) pt : -1, ssrc != G_MAXUINT, ssrc);
    if (self->legs == NULL) {
      g_free (engine);
      goto legs_failed;
    }
  }
  self->fmt = NULL;
  self->stream_fmt = NULL;
  self->want_fmt = NULL;
  self->flow_error = FALSE;
  self->in_progress = 0;
  self->start_mono = self->last_rx_mono = g_get_monotonic_time ();
  self->had_signal = self->signal_lost = FALSE;
  self->conceal_last = GST_CLOCK_TIME_NONE;
  self->last_post = GST_CLOCK_TIME_NONE;
  self->eos_posted = FALSE;
  self->flushing = self->stopping = FALSE;
  self->taken_mono = self->start_mono;
  self->pushing_audio = self->stall_warned = FALSE;
  g_clear_error (&self->rx_error);
  if (engine) {
    self->shared = TRUE;
    if (!gst_st2022_src_join_engine (self, transport, engine, &cfg, rx_cpu,
            rx_mbufs)) {
      g_free (engine);
      gst_st2022_src_stop (bsrc);
      return FALSE;
    }
    g_free (engine);
  } else {
    self->thread_cpu = rx_cpu;
    self->thread = g_thread_new ("st2022src-rx", gst_st2022_src_rx_thread,
        self);
  }
  if (!gst_st2022_nmos_start (self->nmos)) {
    gst_st2022_src_stop (bsrc);
    return FALSE;
  }
  return TRUE;

  /* ERRORS */
legs_failed:
  {
    g_clear_pointer (&self->depay, st2022_depacketizer_free);
    g_clear_pointer (&self->lock_gate, st2022_stream_lock_free);
    g_clear_pointer (&self->t, vmi_transport_close);
    return FALSE;
  }
}

static gboolean
gst_st2022_src_stop (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);
  guint i;

  gst_st2022_nmos_stop (self->nmos);
  if (self->thread) {
    g_mutex_lock (&self->lock);
    self->stopping = TRUE;
    g_cond_broadcast (&self->cond);
    /* under @lock: the receive thread swaps transports under it */
    vmi_transport_wakeup (self->t);
    gst_st2022_src_legs_wakeup (self->legs);
    g_mutex_unlock (&self->lock);
    g_thread_join (self->thread);
    self->thread = NULL;
  }
  if (self->member) {
    /* the engine calls us no more once this returns; the others play on */
    g_mutex_lock (&self->lock);
    self->stopping = TRUE;
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
    vmi_rx_engine_leave (self->member);
    self->member = NULL;
  }
  self->engine_t = NULL;
  self->shared = FALSE;
  g_clear_pointer (&self->swap_t, vmi_transport_close);
  g_clear_pointer (&self->swap_t2, vmi_transport_close);
  g_atomic_int_set (&self->swap_pending, 0);
  self->swap_since = 0;
  if (self->legs)
    gst_st2022_src_legs_stop (self->legs);
  if (self->depay && !self->eos_posted) {
    gst_st2022_src_update_stats (self);
    gst_st2022_src_post_stats (self);
  }
  g_clear_pointer (&self->depay, st2022_depacketizer_free);
  g_clear_pointer (&self->lock_gate, st2022_stream_lock_free);
  g_clear_pointer (&self->t, vmi_transport_close);
  for (i = 0; i < N_SLOTS; i++) {
    release_slot (self, &self->slots[i]);
  }
  g_queue_clear_full (&self->out, (GDestroyNotify) gst_buffer_unref);
  g_clear_error (&self->rx_error);
  gst_st2022_src_clear_prev (self);
  self->fmt = NULL;
  gst_st2022_anc_rx_reset (self->anc, TRUE);
  gst_st2022_clock_stop (GST_ELEMENT (self), &self->timing);
  return TRUE;
}

static gboolean
gst_st2022_src_unlock (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  g_mutex_lock (&self->lock);
  self->flushing = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_st2022_src_unlock_stop (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  g_mutex_lock (&self->lock);
  self->flushing = FALSE;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static GstFlowReturn
gst_st2022_src_create (GstPushSrc * psrc, GstBuffer ** outbuf)
{
  GstSt2022Src *self = GST_ST2022_SRC (psrc);
  const St2022Format *want;
  gboolean ok;
  gchar *msg;

  vmi_rx_engine_keep_off_cpu (self->member);
  g_mutex_lock (&self->lock);
  for (;;) {
    if (!g_queue_is_empty (&self->out)) {
      *outbuf = g_queue_pop_head (&self->out);
      self->taken_mono = g_get_monotonic_time ();
      self->stall_warned = FALSE;
      break;
    }
    if (self->flushing)
      goto flushing;
    if (self->rx_error)
      goto receive_failed;
    if (self->want_fmt && self->neg_result == 0) {
      /* the frames of the old format are out: renegotiate for the new */
      want = self->want_fmt;
      g_mutex_unlock (&self->lock);
      self->stream_fmt = want;
      ok = gst_base_src_negotiate (GST_BASE_SRC (self));
      g_mutex_lock (&self->lock);
      self->neg_result = ok ? 1 : -1;
      g_cond_broadcast (&self->cond);
      if (!ok)
        goto negotiation_failed;
      continue;
    }
    g_cond_wait (&self->cond, &self->lock);
  }
  g_mutex_unlock (&self->lock);

  /* the frame's embedded audio leaves just before it */
  g_mutex_lock (&self->lock);
  self->pushing_audio = TRUE;
  g_mutex_unlock (&self->lock);
  gst_st2022_anc_rx_push (self->anc, *outbuf);
  g_mutex_lock (&self->lock);
  self->pushing_audio = FALSE;
  g_mutex_unlock (&self->lock);
  GST_OBJECT_LOCK (self);
  self->frames_pushed++;
  self->stats.frames = self->frames_pushed;
  GST_OBJECT_UNLOCK (self);
  return GST_FLOW_OK;

  /* ERRORS */
flushing:
  {
    g_mutex_unlock (&self->lock);
    return GST_FLOW_FLUSHING;
  }
receive_failed:
  {
    msg = g_strdup (self->rx_error->message);
    g_mutex_unlock (&self->lock);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", msg), (NULL));
    g_free (msg);
    return GST_FLOW_ERROR;
  }
negotiation_failed:
  {
    gchar *why = gst_vmi_caps_refusal (GST_BASE_SRC_PAD (self));

    g_mutex_unlock (&self->lock);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("downstream refuses both UYVP and v210 for %s: %s", want->name,
            why), ("the stream is 10-bit 4:2:2; videoconvert or vmi10to8 "
            "convert it to 8-bit formats"));
    g_free (why);
    return GST_FLOW_NOT_NEGOTIATED;
  }
}
