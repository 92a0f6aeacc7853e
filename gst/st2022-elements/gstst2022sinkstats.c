/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022sink's statistics: the transmit engine's and the transport's
 * counters in the `stats` structure, posted as `st2022-stats`; the QoS
 * message and the warning of frames sent late; the warning of a zero-copy
 * route that copies anyway. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstst2022sink-priv.h"

#define GST_CAT_DEFAULT gst_st2022_sink_debug

/* at most one "cannot keep real time" warning per this many ns */
#define LATE_WARN_INTERVAL (5 * GST_SECOND)

/* The transmit engine's counters into self->stats (object lock held) */
static void
gst_st2022_sink_collect_stats (GstSt2022Sink * self)
{
  VmiTxEngineStats es;

  if (self->engine == NULL)
    return;
  vmi_tx_engine_get_stats (self->engine, &es);
  self->stats.packets = es.packets;
  self->stats.bytes = es.bytes;
  self->stats.frames = es.frames;
  self->stats.underruns = es.underruns;
  self->stats.frames_repeated = es.frames_repeated;
  self->stats.gap_frames = es.gap_frames;
  self->stats.gap_bytes = es.gap_bytes;

  if (self->t) {
    VmiTransportStats ts;

    vmi_transport_get_stats (self->t, &ts);
    self->stats.zerocopy_done = ts.tx_zerocopy_done;
    self->stats.zerocopy_copied = ts.tx_zerocopy_copied;
  }
}

/* shared-engine: how the shared thread kept each frame's pacing instants
 * (object lock held) */
static void
gst_st2022_sink_add_engine_stats (GstSt2022Sink * self, GstStructure * s)
{
  VmiTxEngineStats es;

  if (self->engine == NULL || !self->shared_engine || !*self->shared_engine)
    return;
  vmi_tx_engine_get_stats (self->engine, &es);
  gst_structure_set (s, "engine-frames-late", G_TYPE_UINT64, es.frames_late,
      "engine-frames-behind", G_TYPE_UINT64, es.frames_behind,
      "engine-late-max", G_TYPE_INT64, es.late_max, NULL);
}

/* zerocopy=true on a route where the kernel copies every send anyway
 * (loopback, veth, a bridge) costs more CPU than a copying send and says so
 * only in a counter: tell the user once. Checked every 32nd frame, so the
 * render path stays free of the transport's statistics. */
void
gst_st2022_sink_check_zerocopy (GstSt2022Sink * self)
{
  VmiTransportStats ts;

  if (G_LIKELY (!self->zerocopy || self->zc_warned || self->t == NULL ||
          (++self->zc_checks & 31) != 0))
    return;
  vmi_transport_get_stats (self->t, &ts);
  if (ts.tx_zerocopy_copied == 0)
    return;
  self->zc_warned = TRUE;
  GST_ELEMENT_WARNING (self, RESOURCE, WRITE, ("zerocopy=true, but the "
          "kernel copied %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT
          " zero-copy sends completed so far on this route (loopback, veth "
          "and bridges always copy): that costs more CPU than a copying "
          "send; set zerocopy=false", ts.tx_zerocopy_copied,
          ts.tx_zerocopy_done), (NULL));
}

/* the `stats` structure, the engine's counters read now (object lock
 * held) */
GstStructure *
gst_st2022_sink_stats_structure_unlocked (GstSt2022Sink * self)
{
  GstStructure *s;

  gst_st2022_sink_collect_stats (self);
  s = gst_st2022_stats_to_structure (&self->stats, TRUE);
  gst_st2022_sink_add_engine_stats (self, s);
  gst_st2022_anc_tx_add_stats (self->anc, s);
  gst_st2022_legs_sink_add_stats (self->t, s);
  return s;
}

void
gst_st2022_sink_post_stats (GstSt2022Sink * self)
{
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  s = gst_st2022_sink_stats_structure_unlocked (self);
  GST_OBJECT_UNLOCK (self);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* A frame that leaves @late ns after its launch time: a QoS message for
 * each (as sinks tell they are late), and now and then a warning saying by
 * how much the sender misses real time. */
void
gst_st2022_sink_report_late (GstSt2022Sink * self, GstClockTime rt,
    GstClockTime pts, GstClockTime period, gint64 late, gint64 now)
{
  GstMessage *qos;
  guint64 frames, late_total;

  GST_OBJECT_LOCK (self);
  gst_st2022_sink_collect_stats (self);
  frames = self->stats.frames;
  late_total = self->stats.frames_late;
  GST_OBJECT_UNLOCK (self);
  qos = gst_message_new_qos (GST_OBJECT (self), TRUE, rt, GST_CLOCK_TIME_NONE,
      pts, period);
  /* jitter > 0: late; proportion: how far behind real time, in frames */
  gst_message_set_qos_values (qos, late, 1.0 + (gdouble) late / period, 0);
  gst_message_set_qos_stats (qos, GST_FORMAT_BUFFERS, frames, 0);
  gst_element_post_message (GST_ELEMENT (self), qos);

  self->late_unwarned++;
  self->late_worst = MAX (self->late_worst, late);
  if (self->late_warned_mono != 0
      && now - self->late_warned_mono < (gint64) LATE_WARN_INTERVAL)
    return;
  GST_ELEMENT_WARNING (self, CORE, CLOCK,
      ("st2022sink cannot keep real time: %" G_GUINT64_FORMAT " frame(s) "
          "left up to %.1f ms (%.1f frames) after their launch time (%"
          G_GUINT64_FORMAT " late in all). Upstream delivers frames too late "
          "or the machine is too loaded; raise processing-deadline, lower "
          "the load, or check the upstream elements' QoS.",
          self->late_unwarned, self->late_worst / 1e6,
          (gdouble) self->late_worst / period, late_total), (NULL));
  self->late_unwarned = 0;
  self->late_worst = 0;
  self->late_warned_mono = now;
}
