/* gst-vmi tools: statistics of a host-jitter series (vmi-jitter)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-jitter-stats.h"
#include "vmi-timing.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

guint64
vmi_jitter_buffer_packets (double rate_hz, double jitter_ns)
{
  /* b > 2 f J, strictly: a product landing on an integer needs one more */
  return (guint64) floor (2.0 * rate_hz * jitter_ns / 1e9) + 1;
}

gsize
vmi_jitter_spikes (const double *t, gsize n, double threshold, gsize * idx,
    gsize max_idx)
{
  gsize i, k = 0;

  for (i = 0; i + 1 < n; i++) {
    if (t[i + 1] - t[i] > threshold) {
      if (k < max_idx)
        idx[k] = i;
      k++;
    }
  }
  return k;
}

gboolean
vmi_jitter_summarize (const double *t, gsize n, double period_ns,
    double spike_threshold_ns, double stream_rate_hz, VmiJitterSummary * s)
{
  VmiTimingReport r;

  memset (s, 0, sizeof (*s));
  /* the analyzer's PIT figures are exactly the ΔT statistics; its rate
   * argument is the T that J is measured against */
  if (!vmi_timing_analyze (t, n, period_ns > 0 ? 1e9 / period_ns : 0, &r))
    return FALSE;
  s->count = n - 1;
  s->period_ns = 1e9 / r.rate_hz;
  s->period_estimated = r.rate_estimated;
  s->mean_ns = r.pit_mean_ns;
  s->stddev_ns = r.pit_stddev_ns;
  s->min_ns = r.pit_min_ns;
  s->p50_ns = r.pit_p50_ns;
  s->p99_ns = r.pit_p99_ns;
  s->p999_ns = r.pit_p999_ns;
  s->max_ns = r.pit_max_ns;
  s->jitter_ns = r.peak_period_jitter_ns;
  s->spike_threshold_ns = spike_threshold_ns > 0 ? spike_threshold_ns :
      s->period_ns + VMI_JITTER_SPIKE_MARGIN_NS;
  s->spikes = vmi_jitter_spikes (t, n, s->spike_threshold_ns, NULL, 0);
  s->stream_rate_hz = stream_rate_hz > 0 ? stream_rate_hz : r.rate_hz;
  s->buffer_packets = vmi_jitter_buffer_packets (s->stream_rate_hz,
      s->jitter_ns);
  s->buffer_us = (double) s->buffer_packets / s->stream_rate_hz * 1e6;
  return TRUE;
}

double
vmi_jitter_stream_period (const double *t, const guint32 * pos, gsize n)
{
  double tm = 0, pm = 0, sxy = 0, sxx = 0;
  gsize i;

  if (n < 2)
    return 0;
  for (i = 0; i < n; i++) {
    tm += t[i] - t[0];
    pm += (double) pos[i] - pos[0];
  }
  tm /= (double) n;
  pm /= (double) n;
  for (i = 0; i < n; i++) {
    double dt = (t[i] - t[0]) - tm;
    sxy += dt * (((double) pos[i] - pos[0]) - pm);
    sxx += dt * dt;
  }
  if (sxx <= 0 || sxy <= 0)
    return 0;
  return sxx / sxy;
}

static inline guint64
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

gsize
vmi_jitter_dummy_loop (guint64 * ts, gsize n, guint64 period,
    const volatile sig_atomic_t * stop)
{
  gsize i;
  guint64 prev = now_ns ();

  ts[0] = prev;
  for (i = 1; i < n && !(stop && *stop); i++) {
    guint64 t, deadline = prev + period;
    do
      t = now_ns ();
    while (t < deadline);
    ts[i] = prev = t;
  }
  return i;
}

static double
thread_cpu_ns (void)
{
  struct rusage ru;

  getrusage (RUSAGE_THREAD, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

gsize
vmi_jitter_sleep_loop (guint64 * late, gsize n, guint64 period,
    double *cpu_ns_per_wake)
{
  guint64 instant = now_ns ();
  double c0 = thread_cpu_ns ();
  gsize i;

  for (i = 0; i < n; i++) {
    struct timespec ts;
    guint64 t;

    instant += period;
    ts.tv_sec = (time_t) (instant / G_GUINT64_CONSTANT (1000000000));
    ts.tv_nsec = (long) (instant % G_GUINT64_CONSTANT (1000000000));
    if (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
      break;
    t = now_ns ();
    late[i] = t > instant ? t - instant : 0;
  }
  *cpu_ns_per_wake = i ? (thread_cpu_ns () - c0) / i : 0;
  return i;
}
