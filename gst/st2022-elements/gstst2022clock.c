/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstst2022clock.h"

#include <string.h>
#include <sys/timex.h>
#include <gst/net/gstptpclock.h>

#include "transport/vmi-tx-engine.h"

GST_DEBUG_CATEGORY_STATIC (st2022clock_debug);
#define GST_CAT_DEFAULT st2022clock_debug

G_DEFINE_ENUM_TYPE (GstSt2022ClockSource, gst_st2022_clock_source,
    G_DEFINE_ENUM_VALUE (GST_ST2022_CLOCK_SOURCE_PIPELINE, "pipeline"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_CLOCK_SOURCE_PTP, "ptp"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_CLOCK_SOURCE_TAI, "tai"));

#define DEFAULT_PROP_CLOCK_SOURCE GST_ST2022_CLOCK_SOURCE_PIPELINE
/* ST 2059-2's default domain */
#define DEFAULT_PROP_PTP_DOMAIN 127
#define DEFAULT_PROP_PTP_TIMEOUT 30
#define DEFAULT_PROP_TX_OFFSET 0

/* PTP counts as lost when no time update came for this long: ptp4l's
 * default sync interval is 1 s, ST 2059-2's 1/8 s */
#define PTP_STALE_US (5 * G_USEC_PER_SEC)
/* how often the kernel's TAI state is read in tai mode */
#define TAI_CHECK_US G_USEC_PER_SEC

static void
ensure_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (st2022clock_debug, "st2022clock", 0,
        "ST 2059 timing of st2022sink / st2022src");
    g_once_init_leave (&done, 1);
  }
}

void
gst_st2022_clock_install_properties (GObjectClass * klass, guint first_id,
    gboolean is_sink)
{
  /**
   * GstSt2022Sink:clock-source:
   *
   * The time the element works on. `pipeline`: the pipeline's clock, as
   * chosen by the pipeline (RTP timestamps from running time). `ptp`: the
   * element provides a GstPtpClock on `ptp-domain` (IEEE 1588 / SMPTE
   * ST 2059-2), waits for it to lock at start, and sends on the SMPTE
   * epoch. `tai`: the element provides the system clock in TAI mode, for
   * hosts whose clock ptp4l and phc2sys discipline, and sends on the epoch.
   */
  /**
   * GstSt2022Src:clock-source:
   *
   * As on st2022sink: `ptp` or `tai` make the element provide that clock,
   * measure each frame's latency against the time its RTP timestamp names
   * (`latency-*-us` in stats) and timestamp output buffers from the RTP
   * time, so receivers of senders on the same PTP line up frame for frame.
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_CLOCK_PROP_CLOCK_SOURCE,
      g_param_spec_enum ("clock-source", "Clock source",
          "Time reference: pipeline (the pipeline's clock), ptp (provide a "
          "PTP clock on ptp-domain, SMPTE epoch), tai (provide the system "
          "clock in TAI mode, SMPTE epoch)", GST_TYPE_ST2022_CLOCK_SOURCE,
          DEFAULT_PROP_CLOCK_SOURCE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:ptp-domain:
   *
   * PTP domain of `clock-source=ptp` (ST 2059-2 default 127).
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_CLOCK_PROP_PTP_DOMAIN,
      g_param_spec_uint ("ptp-domain", "PTP domain",
          "PTP domain of clock-source=ptp", 0, 255, DEFAULT_PROP_PTP_DOMAIN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:ptp-timeout:
   *
   * Seconds `clock-source=ptp` waits at start for the PTP clock to lock
   * before failing with an error saying what to check.
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_CLOCK_PROP_PTP_TIMEOUT,
      g_param_spec_uint ("ptp-timeout", "PTP timeout",
          "Seconds to wait for PTP lock at start", 1, 3600,
          DEFAULT_PROP_PTP_TIMEOUT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  if (is_sink) {
    /**
     * GstSt2022Sink:tx-offset:
     *
     * On the epoch (`clock-source` ptp or tai): ns after its alignment
     * point at which a frame's first datagram leaves.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_CLOCK_PROP_TX_OFFSET,
        g_param_spec_int64 ("tx-offset", "TX offset",
            "ns after a frame's alignment point at which it leaves "
            "(clock-source ptp or tai)", 0, GST_SECOND, DEFAULT_PROP_TX_OFFSET,
            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
            GST_PARAM_MUTABLE_READY));
  }
}

void
gst_st2022_clock_init (GstSt2022Clock * c)
{
  ensure_debug ();
  memset (c, 0, sizeof (*c));
  c->source = DEFAULT_PROP_CLOCK_SOURCE;
  c->domain = DEFAULT_PROP_PTP_DOMAIN;
  c->timeout_s = DEFAULT_PROP_PTP_TIMEOUT;
  c->tx_offset = DEFAULT_PROP_TX_OFFSET;
}

gboolean
gst_st2022_clock_set_property (GstSt2022Clock * c, guint first_id,
    guint prop_id, const GValue * value)
{
  if (prop_id < first_id || prop_id >= first_id + GST_ST2022_CLOCK_N_PROPS)
    return FALSE;
  switch (prop_id - first_id) {
    case GST_ST2022_CLOCK_PROP_CLOCK_SOURCE:
      c->source = g_value_get_enum (value);
      break;
    case GST_ST2022_CLOCK_PROP_PTP_DOMAIN:
      c->domain = g_value_get_uint (value);
      break;
    case GST_ST2022_CLOCK_PROP_PTP_TIMEOUT:
      c->timeout_s = g_value_get_uint (value);
      break;
    case GST_ST2022_CLOCK_PROP_TX_OFFSET:
      c->tx_offset = g_value_get_int64 (value);
      break;
  }
  return TRUE;
}

gboolean
gst_st2022_clock_get_property (const GstSt2022Clock * c, guint first_id,
    guint prop_id, GValue * value)
{
  if (prop_id < first_id || prop_id >= first_id + GST_ST2022_CLOCK_N_PROPS)
    return FALSE;
  switch (prop_id - first_id) {
    case GST_ST2022_CLOCK_PROP_CLOCK_SOURCE:
      g_value_set_enum (value, c->source);
      break;
    case GST_ST2022_CLOCK_PROP_PTP_DOMAIN:
      g_value_set_uint (value, c->domain);
      break;
    case GST_ST2022_CLOCK_PROP_PTP_TIMEOUT:
      g_value_set_uint (value, c->timeout_s);
      break;
    case GST_ST2022_CLOCK_PROP_TX_OFFSET:
      g_value_set_int64 (value, c->tx_offset);
      break;
  }
  return TRUE;
}

static const gchar *
source_name (GstSt2022ClockSource s)
{
  return s == GST_ST2022_CLOCK_SOURCE_PTP ? "ptp" :
      s == GST_ST2022_CLOCK_SOURCE_TAI ? "tai" : "pipeline";
}

/* EUI-64 as RFC 7273 writes it: 08-00-11-FF-FE-21-E1-B0 */
static gchar *
clock_id_string (guint64 id)
{
  return g_strdup_printf ("%02X-%02X-%02X-%02X-%02X-%02X-%02X-%02X",
      (guint) (id >> 56) & 0xff, (guint) (id >> 48) & 0xff,
      (guint) (id >> 40) & 0xff, (guint) (id >> 32) & 0xff,
      (guint) (id >> 24) & 0xff, (guint) (id >> 16) & 0xff,
      (guint) (id >> 8) & 0xff, (guint) id & 0xff);
}

/* Element message `st2022-clock`: what the time reference is doing */
static void
post_state (GstElement * element, GstSt2022Clock * c, const gchar * state)
{
  GstStructure *s = gst_structure_new ("st2022-clock",
      "clock-source", G_TYPE_STRING, source_name (c->cur_source),
      "state", G_TYPE_STRING, state, NULL);

  if (c->cur_source == GST_ST2022_CLOCK_SOURCE_PTP) {
    guint64 gm = __atomic_load_n (&c->grandmaster, __ATOMIC_RELAXED);

    gst_structure_set (s, "ptp-domain", G_TYPE_UINT, c->cur_domain, NULL);
    if (gm) {
      gchar *id = clock_id_string (gm);

      gst_structure_set (s, "grandmaster-id", G_TYPE_STRING, id, NULL);
      g_free (id);
    }
  }
  GST_INFO_OBJECT (element, "%" GST_PTR_FORMAT, s);
  gst_element_post_message (element,
      gst_message_new_element (GST_OBJECT (element), s));
}

/* From the PTP thread: our domain's time updates and master changes */
static gboolean
ptp_stats (guint8 domain, const GstStructure * stats, gpointer user_data)
{
  GstSt2022Clock *c = user_data;
  guint64 gm;

  if (domain != c->cur_domain)
    return TRUE;
  if (gst_structure_has_name (stats, GST_PTP_STATISTICS_TIME_UPDATED))
    __atomic_store_n (&c->last_update, g_get_monotonic_time (),
        __ATOMIC_RELAXED);
  else if (gst_structure_has_name (stats,
          GST_PTP_STATISTICS_BEST_MASTER_CLOCK_SELECTED)
      && gst_structure_get_uint64 (stats, "grandmaster-clock-id", &gm))
    __atomic_store_n (&c->grandmaster, gm, __ATOMIC_RELAXED);
  return TRUE;
}

/* The kernel's view of the system clock: synchronised (not STA_UNSYNC) and
 * with a TAI offset set (ptp4l/phc2sys -w set it; without it CLOCK_TAI is
 * UTC and everything lands 37 s off) */
static gboolean
tai_state (gint * tai_offset, gboolean * unsync)
{
  struct timex tx = { 0 };
  int st = adjtimex (&tx);

  if (st < 0)
    return FALSE;
  *tai_offset = tx.tai;
  *unsync = st == TIME_ERROR || (tx.status & STA_UNSYNC);
  return TRUE;
}

gboolean
gst_st2022_clock_start (GstElement * element, GstSt2022Clock * c)
{
  GstClock *clock = NULL;
  guint timeout_s;
  gint tai = 0;
  gboolean unsync = TRUE;

  GST_OBJECT_LOCK (element);
  c->cur_source = c->source;
  c->cur_domain = c->domain;
  c->cur_tx_offset = c->tx_offset;
  timeout_s = c->timeout_s;
  GST_OBJECT_UNLOCK (element);
  c->have_k = FALSE;
  c->synchronised = FALSE;
  c->next_check = 0;
  c->last_update = 0;
  c->grandmaster = 0;
  c->reported = FALSE;
  GST_OBJECT_LOCK (element);
  c->lat_n = 0;
  c->lat_min = c->lat_max = c->lat_sum = 0;
  GST_OBJECT_UNLOCK (element);

  switch (c->cur_source) {
    case GST_ST2022_CLOCK_SOURCE_PIPELINE:
      return TRUE;
    case GST_ST2022_CLOCK_SOURCE_TAI:
      clock = g_object_new (GST_TYPE_SYSTEM_CLOCK, "name", "st2022-tai-clock",
          "clock-type", GST_CLOCK_TYPE_TAI, NULL);
      gst_object_ref_sink (clock);
      if (!tai_state (&tai, &unsync) || tai == 0 || unsync)
        GST_ELEMENT_WARNING (element, CORE, CLOCK,
            ("clock-source=tai: the system clock is %s (kernel TAI offset "
                "%d s): frames will not be on the SMPTE epoch and HBRMT R "
                "says unlocked. Discipline it with ptp4l and phc2sys -w (which "
                "sets the TAI offset), or use clock-source=ptp",
                unsync ? "not synchronised" : "synchronised", tai), (NULL));
      break;
    case GST_ST2022_CLOCK_SOURCE_PTP:
      if (!gst_ptp_is_supported ())
        goto ptp_unsupported;
      if (!gst_ptp_init (GST_PTP_CLOCK_ID_NONE, NULL))
        goto ptp_init_failed;
      c->stats_id = gst_ptp_statistics_callback_add (ptp_stats, c, NULL);
      clock = gst_ptp_clock_new ("st2022-ptp-clock", c->cur_domain);
      if (clock == NULL)
        goto ptp_init_failed;
      post_state (element, c, "waiting");
      if (!gst_clock_wait_for_sync (clock, timeout_s * GST_SECOND)) {
        gst_object_unref (clock);
        goto ptp_timeout;
      }
      {
        guint64 gm = 0;

        g_object_get (clock, "grandmaster-clock-id", &gm, NULL);
        if (gm)
          __atomic_store_n (&c->grandmaster, gm, __ATOMIC_RELAXED);
      }
      __atomic_store_n (&c->last_update, g_get_monotonic_time (),
          __ATOMIC_RELAXED);
      break;
  }

  GST_OBJECT_LOCK (element);
  c->clock = clock;
  GST_OBJECT_UNLOCK (element);
  gst_element_post_message (element, gst_message_new_clock_provide
      (GST_OBJECT (element), clock, TRUE));
  gst_st2022_clock_check (element, c);
  return TRUE;

  /* ERRORS */
ptp_unsupported:
  {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        ("clock-source=ptp: this GStreamer has no PTP support on this "
            "platform; use clock-source=tai with ptp4l and phc2sys"), (NULL));
    return FALSE;
  }
ptp_init_failed:
  {
    GST_ELEMENT_ERROR (element, RESOURCE, OPEN_READ,
        ("clock-source=ptp: could not start PTP: gst-ptp-helper (GStreamer's "
            "libexec) must be installed and able to bind UDP ports 319 and "
            "320 (run as root, or give it CAP_NET_BIND_SERVICE)"), (NULL));
    if (c->stats_id)
      gst_ptp_statistics_callback_remove (c->stats_id);
    c->stats_id = 0;
    return FALSE;
  }
ptp_timeout:
  {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("clock-source=ptp: no PTP lock on domain %u within %u s. Check that "
            "a grandmaster (e.g. ptp4l) serves domain %u on a network of "
            "this host, that PTP multicast (224.0.1.129, UDP 319/320) "
            "reaches it, or raise ptp-timeout", c->cur_domain, timeout_s,
            c->cur_domain), (NULL));
    post_state (element, c, "timeout");
    gst_ptp_statistics_callback_remove (c->stats_id);
    c->stats_id = 0;
    return FALSE;
  }
}

void
gst_st2022_clock_stop (GstElement * element, GstSt2022Clock * c)
{
  GstClock *clock;

  if (c->stats_id)
    gst_ptp_statistics_callback_remove (c->stats_id);
  c->stats_id = 0;
  GST_OBJECT_LOCK (element);
  clock = c->clock;
  c->clock = NULL;
  GST_OBJECT_UNLOCK (element);
  if (clock) {
    gst_element_post_message (element,
        gst_message_new_clock_lost (GST_OBJECT (element), clock));
    gst_object_unref (clock);
  }
}

GstClock *
gst_st2022_clock_provide (GstElement * element, GstSt2022Clock * c)
{
  GstClock *clock;

  GST_OBJECT_LOCK (element);
  clock = c->clock ? gst_object_ref (c->clock) : NULL;
  GST_OBJECT_UNLOCK (element);
  return clock;
}

gboolean
gst_st2022_clock_on_epoch (const GstSt2022Clock * c)
{
  return c->cur_source != GST_ST2022_CLOCK_SOURCE_PIPELINE;
}

gboolean
gst_st2022_clock_check (GstElement * element, GstSt2022Clock * c)
{
  gboolean synced = FALSE;
  gint64 now = g_get_monotonic_time ();

  if (c->clock == NULL)
    return FALSE;
  if (c->cur_source == GST_ST2022_CLOCK_SOURCE_PTP) {
    gint64 last = __atomic_load_n (&c->last_update, __ATOMIC_RELAXED);

    synced = gst_clock_is_synced (c->clock) && now - last < PTP_STALE_US;
  } else {
    gint tai;
    gboolean unsync;

    if (now < c->next_check)
      return c->synchronised;
    c->next_check = now + TAI_CHECK_US;
    synced = tai_state (&tai, &unsync) && tai != 0 && !unsync;
  }
  if (synced != c->synchronised || !c->reported) {
    c->synchronised = synced;
    c->reported = TRUE;
    post_state (element, c, synced ? "synchronised" : "lost");
  }
  return synced;
}

gchar *
gst_st2022_clock_ts_refclk (GstSt2022Clock * c)
{
  guint64 gm;
  gchar *id, *s;

  switch (c->cur_source) {
    case GST_ST2022_CLOCK_SOURCE_PTP:
      gm = __atomic_load_n (&c->grandmaster, __ATOMIC_RELAXED);
      if (gm == 0)
        return g_strdup ("ptp=IEEE1588-2008:traceable");
      id = clock_id_string (gm);
      s = g_strdup_printf ("ptp=IEEE1588-2008:%s:%u", id, c->cur_domain);
      g_free (id);
      return s;
    case GST_ST2022_CLOCK_SOURCE_TAI:
      /* the host follows some PTP grandmaster we cannot name */
      return g_strdup ("ptp=IEEE1588-2008:traceable");
    default:
      return NULL;
  }
}

guint64
gst_st2022_clock_epoch_now (gpointer data)
{
  GstSt2022Clock *c = data;
  GstClockTime now = gst_clock_get_time (c->clock);

  return now - MIN (now, (GstClockTime) c->cur_tx_offset);
}

void
gst_st2022_clock_set_rate (GstSt2022Clock * c, gint fps_n, gint fps_d)
{
  VmiEpoch ep;

  if (!vmi_epoch_init (&ep, fps_n, fps_d))
    return;
  if (ep.fps_n != c->ep.fps_n || ep.fps_d != c->ep.fps_d) {
    /* frame indices count frames of one rate */
    c->ep = ep;
    c->have_k = FALSE;
  }
}

GstFlowReturn
gst_st2022_clock_schedule (GstBaseSink * sink, GstSt2022Clock * c,
    GstClock * clock, GstClockTime rt, guint64 period, guint64 * k_out,
    gint64 * start_mono, gint64 * late_ns)
{
  GstClockTime base = gst_element_get_base_time (GST_ELEMENT (sink));
  GstClockTime now, due, launch;
  GstClockTimeDiff jitter, ts_offset, to_pipeline = 0;
  gboolean sync = gst_base_sink_get_sync (sink) && GST_CLOCK_TIME_IS_VALID
      (rt) && clock;
  guint64 k;

  now = gst_clock_get_time (c->clock);
  /* running time is on the pipeline's clock; the epoch on ours (the same
   * one unless the application chose another) */
  if (clock && clock != c->clock)
    to_pipeline = GST_CLOCK_DIFF (now, gst_clock_get_time (clock));
  if (sync) {
    /* the instant the buffer is due, as the base class would wait for it */
    ts_offset = gst_base_sink_get_ts_offset (sink);
    due = base + rt + gst_base_sink_get_latency (sink);
    due = ts_offset < 0 ? due - MIN (due, (GstClockTime) - ts_offset) :
        due + ts_offset;
    due -= MIN (due, gst_base_sink_get_render_delay (sink));
    due -= to_pipeline;
  } else {
    due = now;
  }
  /* the first alignment point at or after it, each frame on a later one;
   * one that could no longer leave on time goes on the next one that can */
  k = vmi_epoch_frame_at_or_after (&c->ep, due);
  if (c->have_k && k <= c->last_k)
    k = c->last_k + 1;
  *late_ns = 0;
  if (vmi_epoch_frame_time_ns (&c->ep, k) + c->cur_tx_offset < now) {
    GST_DEBUG_OBJECT (sink, "frame %" G_GUINT64_FORMAT " too late for its "
        "alignment point, on the next one", k);
    *late_ns = GST_CLOCK_DIFF (vmi_epoch_frame_time_ns (&c->ep, k) +
        c->cur_tx_offset, now);
    k = vmi_epoch_frame_at_or_after (&c->ep, now - MIN (now,
            (GstClockTime) c->cur_tx_offset));
  }
  launch = vmi_epoch_frame_time_ns (&c->ep, k) + c->cur_tx_offset;

  if (sync) {
    /* coarse wait in the base class (PAUSED, flushing) up to a frame
     * ahead; the transmit thread takes the rest. The base class adds
     * latency and ts-offset to the running time it is given: take them
     * off again. */
    GstClockTimeDiff adjust = (GstClockTimeDiff) gst_base_sink_get_latency
        (sink) + gst_base_sink_get_ts_offset (sink) -
        (GstClockTimeDiff) gst_base_sink_get_render_delay (sink);
    GstClockTimeDiff wait_rt = GST_CLOCK_DIFF (base, launch + to_pipeline) -
        (GstClockTimeDiff) period - adjust;

    if (wait_rt > 0) {
      GstFlowReturn ret = gst_base_sink_wait (sink, wait_rt, &jitter);

      if (ret != GST_FLOW_OK)
        return ret;
      now = gst_clock_get_time (c->clock);
    }
  }
  *start_mono = vmi_tx_mono_now () + GST_CLOCK_DIFF (now, launch);
  GST_LOG_OBJECT (sink, "frame %" G_GUINT64_FORMAT " (RTP %u) leaves at %"
      G_GUINT64_FORMAT ", in %" G_GINT64_FORMAT " ns", k,
      vmi_epoch_rtp (&c->ep, k), launch, GST_CLOCK_DIFF (now, launch));
  *k_out = k;
  c->last_k = k;
  c->have_k = TRUE;
  return GST_FLOW_OK;
}

void
gst_st2022_clock_rx_frame (GstElement * element, GstSt2022Clock * c,
    guint32 rtp, GstClockTime arrival, GstBuffer * buf)
{
  GstClock *pclock;
  GstClockTimeDiff to_epoch = 0;
  GstClockTime base, t;
  gint64 named, arrival_epoch;
  gdouble lat;

  if (c->clock == NULL || !GST_CLOCK_TIME_IS_VALID (arrival))
    return;
  GST_OBJECT_LOCK (element);
  pclock = GST_ELEMENT_CLOCK (element) ?
      gst_object_ref (GST_ELEMENT_CLOCK (element)) : NULL;
  GST_OBJECT_UNLOCK (element);
  /* arrivals are on the pipeline's clock (the host's monotonic time before
   * there is one); the RTP time on ours */
  if (pclock == NULL)
    to_epoch = GST_CLOCK_DIFF ((GstClockTime) g_get_monotonic_time () * 1000,
        gst_clock_get_time (c->clock));
  else if (pclock != c->clock)
    to_epoch = GST_CLOCK_DIFF (gst_clock_get_time (pclock),
        gst_clock_get_time (c->clock));
  arrival_epoch = (gint64) arrival + to_epoch;
  named = vmi_epoch_rtp_to_ns (rtp, arrival_epoch);
  lat = (arrival_epoch - named) / 1000.0;

  GST_OBJECT_LOCK (element);
  if (c->lat_n == 0 || lat < c->lat_min)
    c->lat_min = lat;
  if (c->lat_n == 0 || lat > c->lat_max)
    c->lat_max = lat;
  c->lat_sum += lat;
  c->lat_n++;
  GST_OBJECT_UNLOCK (element);

  /* receivers of senders on one PTP then stamp a frame of the same
   * alignment point alike, whatever the path */
  base = gst_element_get_base_time (element);
  t = (GstClockTime) MAX (named - to_epoch, 0);
  GST_BUFFER_PTS (buf) = t >= base ? t - base : 0;
  if (pclock)
    gst_object_unref (pclock);
}

void
gst_st2022_clock_add_stats (const GstSt2022Clock * c, GstStructure * s)
{
  if (c->lat_n == 0)
    return;
  gst_structure_set (s, "latency-min-us", G_TYPE_DOUBLE, c->lat_min,
      "latency-mean-us", G_TYPE_DOUBLE, c->lat_sum / c->lat_n,
      "latency-max-us", G_TYPE_DOUBLE, c->lat_max, NULL);
}
