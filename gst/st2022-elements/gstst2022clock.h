/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* ST 2059 timing for st2022sink and st2022src: the `clock-source`,
 * `ptp-domain`, `ptp-timeout` (and, on the sink, `tx-offset`) properties,
 * the clock the element provides (a GstPtpClock, or the system clock in TAI
 * mode), its lock state on the bus, and the sender's schedule on the
 * SMPTE epoch (gst/pacing/vmi-epoch.h does the arithmetic). */

#ifndef __GST_ST2022_CLOCK_H__
#define __GST_ST2022_CLOCK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

#include "pacing/vmi-epoch.h"

G_BEGIN_DECLS

typedef enum
{
  GST_ST2022_CLOCK_SOURCE_PIPELINE,
  GST_ST2022_CLOCK_SOURCE_PTP,
  GST_ST2022_CLOCK_SOURCE_TAI,
} GstSt2022ClockSource;

#define GST_TYPE_ST2022_CLOCK_SOURCE (gst_st2022_clock_source_get_type ())
GType gst_st2022_clock_source_get_type (void);

typedef enum
{
  GST_ST2022_CLOCK_PROP_CLOCK_SOURCE,
  GST_ST2022_CLOCK_PROP_PTP_DOMAIN,
  GST_ST2022_CLOCK_PROP_PTP_TIMEOUT,
  GST_ST2022_CLOCK_PROP_TX_OFFSET,      /* sink only */
  GST_ST2022_CLOCK_N_PROPS,
} GstSt2022ClockProp;

typedef struct
{
  /* properties (object lock) */
  GstSt2022ClockSource source;
  guint domain;
  guint timeout_s;
  gint64 tx_offset;

  /* from start to stop */
  GstSt2022ClockSource cur_source;
  guint cur_domain;
  GstClock *clock;
  gulong stats_id;
  gint64 last_update;           /* atomic: monotonic µs of the last PTP
                                 * time update on our domain */
  guint64 grandmaster;          /* PTP: at lock, and as updated */
  gboolean synchronised;        /* as last reported on the bus */
  gint64 next_check;            /* monotonic µs of the next TAI check */
  gint64 cur_tx_offset;

  /* receiver: each frame's latency (object lock), µs */
  guint64 lat_n;
  gdouble lat_min, lat_max, lat_sum;
  gboolean reported;            /* a state was posted since start */

  /* the sender's schedule on the epoch */
  VmiEpoch ep;
  gboolean have_k;
  guint64 last_k;
} GstSt2022Clock;

void gst_st2022_clock_install_properties (GObjectClass * klass,
    guint first_id, gboolean is_sink);
void gst_st2022_clock_init (GstSt2022Clock * c);
gboolean gst_st2022_clock_set_property (GstSt2022Clock * c, guint first_id,
    guint prop_id, const GValue * value);
gboolean gst_st2022_clock_get_property (const GstSt2022Clock * c,
    guint first_id, guint prop_id, GValue * value);

/* At start: with `ptp` or `tai` creates the clock the element provides and,
 * for `ptp`, waits up to `ptp-timeout` for lock, saying so on the bus.
 * FALSE after a GST_ELEMENT_ERROR naming what to check. */
gboolean gst_st2022_clock_start (GstElement * element, GstSt2022Clock * c);
void gst_st2022_clock_stop (GstElement * element, GstSt2022Clock * c);
/* provide_clock: the clock while running on ptp/tai, else NULL */
GstClock *gst_st2022_clock_provide (GstElement * element,
    GstSt2022Clock * c);
/* ptp or tai (from start to stop) */
gboolean gst_st2022_clock_on_epoch (const GstSt2022Clock * c);
/* Whether the time reference is synchronised now (PTP: locked and updated
 * within the last few seconds; TAI: the kernel's clock synchronised and its
 * TAI offset set). Posts the change on the bus when it changes. */
gboolean gst_st2022_clock_check (GstElement * element, GstSt2022Clock * c);
/* RFC 7273 ts-refclk value ("ptp=IEEE1588-2008:<gm>:<domain>" or
 * "ptp=IEEE1588-2008:traceable"), NULL off the epoch. g_free() it. */
gchar *gst_st2022_clock_ts_refclk (GstSt2022Clock * c);

/* The stream's frame rate (set_caps) */
void gst_st2022_clock_set_rate (GstSt2022Clock * c, gint fps_n, gint fps_d);

/* The sender on the epoch: the frame a buffer becomes and the
 * CLOCK_MONOTONIC instant its first datagram leaves (alignment point plus
 * tx-offset). @rt: the buffer's running time (NONE: the next frame from
 * now). Waits on the clock as the base class does when the sink syncs;
 * returns that wait's flow return. *@late_ns > 0: the frame's alignment
 * point had passed by that much, it goes on the next one. */
GstFlowReturn gst_st2022_clock_schedule (GstBaseSink * sink,
    GstSt2022Clock * c, GstClock * clock, GstClockTime rt, guint64 period,
    guint64 * k, gint64 * start_mono, gint64 * late_ns);

/* VmiTxEngineConfig.epoch_clock (@c: the GstSt2022Clock): the provided
 * clock's time now minus tx-offset */
guint64 gst_st2022_clock_epoch_now (gpointer c);

/* The receiver on the epoch: a frame whose first datagram arrived at
 * @arrival (pipeline clock) with RTP timestamp @rtp. Counts its latency
 * (arrival minus the instant the RTP timestamp names) and sets @buf's PTS
 * to that instant as running time. Nothing off the epoch. */
void gst_st2022_clock_rx_frame (GstElement * element, GstSt2022Clock * c,
    guint32 rtp, GstClockTime arrival, GstBuffer * buf);
/* latency-min-us, latency-mean-us, latency-max-us into @s (object lock
 * held), once a frame was measured */
void gst_st2022_clock_add_stats (const GstSt2022Clock * c, GstStructure * s);

G_END_DECLS

#endif /* __GST_ST2022_CLOCK_H__ */
