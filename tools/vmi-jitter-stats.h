/* gst-vmi tools: statistics of a host-jitter series (vmi-jitter)
 *
 * Pure C (GLib and the pacing core's timing maths). The input is a series
 * of timestamps, one per loop iteration or per received datagram; the
 * figures are those of the inter-arrival times ΔT_i = t_{i+1} - t_i:
 *
 *   mean, σ (population), nearest-rank p50 / p99 / p99.9, max
 *                          from vmi_timing_analyze (gst/pacing/vmi-timing.h)
 *   J = max_i |ΔT_i - T|   the peak-period jitter of the series against the
 *                          period T it should have (thesis ch. 4.1)
 *   spikes                 ΔT_i > spike threshold
 *   buffer                 b = floor (2 f J) + 1 datagrams, the smallest
 *                          integer with b > 2 f J (Property 2: a stream
 *                          whose ALT-jitter is below J is (b, f)-paced),
 *                          for the stream rate f; b / f in µs.
 *
 * J_p bounds the ALT-jitter an isolated stall adds (a stall of d gives
 * J_p = d and J_ALT = d / 2), so the buffer errs on the safe side.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_JITTER_STATS_H__
#define __VMI_JITTER_STATS_H__

#include <glib.h>
#include <signal.h>

G_BEGIN_DECLS

typedef struct
{
  gsize count;                  /* ΔT samples (timestamps - 1) */
  double period_ns;             /* T: given, or 1 / least-squares rate */
  gboolean period_estimated;
  double mean_ns, stddev_ns, min_ns;
  double p50_ns, p99_ns, p999_ns, max_ns;
  double jitter_ns;             /* J = max |ΔT - T| */
  double spike_threshold_ns;
  gsize spikes;                 /* ΔT > spike_threshold_ns */
  double stream_rate_hz;        /* f the buffer is sized for */
  guint64 buffer_packets;       /* floor (2 f J) + 1 */
  double buffer_us;             /* buffer_packets / f */
} VmiJitterSummary;

/* Threshold used when none is given: T + 5 µs (the papers' baseline
 * spikes reach ~15 µs at T = 7.41 µs). */
#define VMI_JITTER_SPIKE_MARGIN_NS 5000.0

/* t_ns: n >= 2 non-decreasing timestamps (ns, any origin: pass them
 * relative to the first for precision). period_ns <= 0: T from the
 * least-squares rate of the series. spike_threshold_ns <= 0: T + 5 µs.
 * stream_rate_hz <= 0: f = 1 / T. FALSE when n < 2 or the series spans no
 * time. */
gboolean vmi_jitter_summarize (const double *t_ns, gsize n, double period_ns,
    double spike_threshold_ns, double stream_rate_hz, VmiJitterSummary * s);

/* Receiver buffer for jitter J at rate f: the smallest b with b > 2 f J. */
guint64 vmi_jitter_buffer_packets (double rate_hz, double jitter_ns);

/* Indices i of the spikes (ΔT_i = t[i+1] - t[i] > threshold), the first
 * max_idx of them into idx; returns how many there are in all. */
gsize vmi_jitter_spikes (const double *t_ns, gsize n, double threshold_ns,
    gsize * idx, gsize max_idx);

/* The period of a stream from datagrams at times t_ns[i] that hold places
 * pos[i] in it (RTP order; lost datagrams leave gaps): 1 / the
 * least-squares slope of pos against t, in ns. Losses do not stretch it as
 * they stretch the mean ΔT, and a receiver late for a while moves a few
 * points rather than an end point. 0 when n < 2 or t spans no time. */
double vmi_jitter_stream_period (const double *t_ns, const guint32 * pos,
    gsize n);

/* The papers' dummy loop: busy-waits @period_ns from the previous
 * timestamp, then takes the next (CLOCK_MONOTONIC, ns), so a stall shows
 * as one long ΔT and is not caught up. Fills ts_ns[0..n); stops early
 * when *@stop turns non-zero (may be NULL); returns how many it took. */
gsize vmi_jitter_dummy_loop (guint64 * ts_ns, gsize n, guint64 period_ns,
    const volatile sig_atomic_t * stop);

/* Timer wake-ups as a software-paced or shared transmit engine takes
 * them: @n sleeps (clock_nanosleep to an absolute CLOCK_MONOTONIC
 * instant) @period_ns apart, each instant @period_ns after the previous
 * one, so that a late wake-up does not move the ones after it. Fills
 * late_ns[0..n) with how long after its instant each wake-up ran and
 * *@cpu_ns_per_wake with the calling thread's CPU time (RUSAGE_THREAD)
 * per wake-up: what each one costs the core besides the work it does.
 * Returns how many it took (n, or fewer when a sleep failed). */
gsize vmi_jitter_sleep_loop (guint64 * late_ns, gsize n, guint64 period_ns,
    double *cpu_ns_per_wake);

G_END_DECLS

#endif /* __VMI_JITTER_STATS_H__ */
