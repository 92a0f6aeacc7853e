/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022src's statistics: the counters of the depacketizer, the stream
 * lock, the transport and the element folded into the `stats` structure,
 * posted as `st2022-stats` (periodically, at EOS, at stop), and the QoS
 * message of a frame not pushed. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstst2022src-priv.h"

#define GST_CAT_DEFAULT gst_st2022_src_debug

GstStructure *
gst_st2022_src_stats_structure_unlocked (GstSt2022Src * self)
{
  GstStructure *s = gst_st2022_stats_to_structure (&self->stats, FALSE);

  gst_structure_set (s,
      "packets-discarded", G_TYPE_UINT64, self->packets_discarded,
      "packets-foreign", G_TYPE_UINT64, self->lock_stats.foreign,
      "packets-out-of-window", G_TYPE_UINT64, self->lock_stats.out_of_window,
      "packets-overflow", G_TYPE_UINT64, self->packets_overflow,
      "overflow-events", G_TYPE_UINT64, self->overflow_events,
      "frames-skipped", G_TYPE_UINT64, self->frames_skipped,
      "frames-aborted", G_TYPE_UINT64, self->frames_aborted,
      "format-changes", G_TYPE_UINT64, self->format_changes,
      "stream-locks", G_TYPE_UINT64, self->lock_stats.locks,
      "signal-lost", G_TYPE_UINT64, self->signal_lost_count,
      "signal-restored", G_TYPE_UINT64, self->signal_restored_count, NULL);
  gst_st2022_anc_rx_add_stats (self->anc, s);
  if (self->legs)
    gst_st2022_src_legs_add_stats (self->legs, s);
  gst_st2022_clock_add_stats (&self->timing, s);
  return s;
}

/* Folds the depacketizer's and the lock's counters into ours (receive
 * thread). */
void
gst_st2022_src_update_stats (GstSt2022Src * self)
{
  St2022DepacketizerStats d;
  St2022LockStats l;
  VmiTransportStats ts;
  guint64 overflow;

  if (self->depay == NULL)
    return;
  st2022_depacketizer_get_stats (self->depay, &d);
  st2022_stream_lock_get_stats (self->lock_gate, &l);
  vmi_transport_get_stats (self->t ? self->t : self->engine_t, &ts);
  overflow = ts.rx_dropped;
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
      self->dropped_corrupted + self->dropped_caps + self->dropped_queue +
      self->dropped_conceal;
  self->lock_stats = l;
  self->packets_overflow = l.overflow;
  self->overflow_events = overflow;
  self->packets_discarded = d.packets_discarded;
  self->frames_skipped = d.frames_skipped;
  self->frames_aborted = d.frames_aborted;
  self->format_changes = d.format_changes;
  GST_OBJECT_UNLOCK (self);
  if (self->legs)
    gst_st2022_src_legs_update_stats (self->legs);
}

void
gst_st2022_src_post_stats (GstSt2022Src * self)
{
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  s = gst_st2022_src_stats_structure_unlocked (self);
  GST_OBJECT_UNLOCK (self);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

GstPadProbeReturn
gst_st2022_src_eos_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  GstSt2022Src *self = GST_ST2022_SRC (GST_PAD_PARENT (pad));
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS && self && !self->eos_posted) {
    /* the receive thread folded its counters in before queueing the last
     * frame; frames_pushed is ours */
    GST_OBJECT_LOCK (self);
    self->stats.frames = self->frames_pushed;
    GST_OBJECT_UNLOCK (self);
    gst_st2022_src_post_stats (self);
    self->eos_posted = TRUE;
  }
  return GST_PAD_PROBE_OK;
}

GstClockTime
gst_st2022_src_frame_duration (const St2022Format * fmt)
{
  return fmt ? gst_util_uint64_scale_int (GST_SECOND, fmt->fps_d,
      fmt->fps_n) : GST_CLOCK_TIME_NONE;
}

/* A frame of the stream that will not be pushed, told the GStreamer way
 * (as live sources do) besides the counters. */
void
gst_st2022_src_post_qos (GstSt2022Src * self, const St2022Format * fmt,
    GstClockTime arrival)
{
  GstClockTime base = gst_element_get_base_time (GST_ELEMENT (self));
  GstClockTime rt = GST_CLOCK_TIME_IS_VALID (arrival) && arrival >= base ?
      arrival - base : GST_CLOCK_TIME_NONE;
  GstMessage *msg = gst_message_new_qos (GST_OBJECT (self), TRUE, rt, rt, rt,
      gst_st2022_src_frame_duration (fmt));
  guint64 dropped, pushed;

  GST_OBJECT_LOCK (self);
  dropped = self->stats.frames_dropped;
  pushed = self->frames_pushed;
  GST_OBJECT_UNLOCK (self);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, pushed, dropped + 1);
  gst_element_post_message (GST_ELEMENT (self), msg);
}
