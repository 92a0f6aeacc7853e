/* gst-vmi: virtual wire and timing analysis of a paced stream
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
vmi_vwire_init (VmiVWire * w, guint64 line_rate_bps)
{
  w->line_rate = line_rate_bps;
  w->pos = 0;
  w->frames = 0;
  w->media = 0;
}

double
vmi_vwire_ns (const VmiVWire * w, guint64 pos)
{
  /* exact up to double rounding: split to keep the product small */
  guint64 q = pos / w->line_rate, r = pos % w->line_rate;
  return (double) q * 8e9 + (double) r * 8e9 / (double) w->line_rate;
}

void
vmi_timing_limits (double pps, VmiTimingLimits * lim)
{
  lim->cmax_narrow = MAX (4, (guint) floor (pps / 43200.0));
  lim->vrx_narrow = MAX (8, (guint) floor (pps / 27000.0));
  lim->cmax_wide = MAX (16, (guint) floor (pps / 21600.0));
  lim->vrx_wide = MAX (720, (guint) floor (pps / 300.0));
}

double
vmi_timing_rate_ls (const double *t, gsize n)
{
  double tm = 0, im = (double) (n - 1) / 2.0, sxy = 0, sxx = 0;
  gsize i;

  if (n < 2)
    return 0;
  for (i = 0; i < n; i++)
    tm += t[i] - t[0];
  tm /= (double) n;
  for (i = 0; i < n; i++) {
    double dt = (t[i] - t[0]) - tm;
    sxy += dt * ((double) i - im);
    sxx += dt * dt;
  }
  if (sxx <= 0)
    return 0;
  return sxy / sxx * 1e9;
}

void
vmi_timing_occupancy (const double *t, gsize n, double f, double *v)
{
  gsize i;
  for (i = 0; i < n; i++)
    v[i] = (double) i - f * (t[i] - t[0]) * 1e-9;
}

guint64 *
vmi_timing_windows (const double *t, gsize n, guint * n_windows)
{
  guint nw, k;
  guint64 *c;
  gsize i;

  *n_windows = 0;
  if (n < 1)
    return NULL;
  /* absurd capture clocks (a 1970 timestamp next to today's) must not
   * make us allocate gigabytes: report no windows beyond ~4 months */
  if ((t[n - 1] - t[0]) / 1e9 > 1e7)
    return NULL;
  nw = (guint) floor ((t[n - 1] - t[0]) / 1e9);
  c = g_new0 (guint64, MAX (nw, 1));
  for (i = 0; i < n; i++) {
    k = (guint) floor ((t[i] - t[0]) / 1e9);
    if (k < nw)
      c[k]++;
  }
  *n_windows = nw;
  return c;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* nearest-rank percentile of sorted a[0..m) */
static double
percentile (const double *a, gsize m, double p)
{
  /* the epsilon keeps 99.9 % of 1000 at rank 999, not 1000 */
  gsize rank = (gsize) ceil (p / 100.0 * (double) m - 1e-9);
  if (rank < 1)
    rank = 1;
  if (rank > m)
    rank = m;
  return a[rank - 1];
}

/* Cinst: a buffer served one packet per T_drain = 1 / (1.1 f), packets
 * leaving back to back while it holds any; sampled just after each
 * arrival. */
static guint
cinst_max (const double *t, gsize n, double f)
{
  double tdrain = 1e9 / (1.1 * f), dep_prev = -INFINITY;
  double *dep = g_new (double, n);
  gsize i, oldest = 0;
  guint best = 0;

  for (i = 0; i < n; i++) {
    double start = MAX (t[i], dep_prev);
    dep[i] = start + tdrain;
    dep_prev = dep[i];
    while (oldest < i && dep[oldest] <= t[i])
      oldest++;
    best = MAX (best, (guint) (i - oldest + 1));
  }
  g_free (dep);
  return best;
}

/* VRX: one packet drained every 1/f, starting at the earliest t0 at which
 * no drain ever finds the buffer empty: t0 = max (t_i - i/f). Level just
 * after arrival i: (i + 1) - #drains strictly before t_i. */
static guint
vrx_max (const double *t, gsize n, double f)
{
  double t0 = -INFINITY;
  gsize i;
  guint best = 0;

  for (i = 0; i < n; i++)
    t0 = MAX (t0, (t[i] - t[0]) * 1e-9 - (double) i / f);
  for (i = 0; i < n; i++) {
    double x = ((t[i] - t[0]) * 1e-9 - t0) * f;
    double drained = x > 0 ? ceil (x - 1e-6) : 0;
    double level = (double) (i + 1) - drained;
    if (level > best)
      best = (guint) level;
  }
  return best;
}

gboolean
vmi_timing_analyze (const double *t, gsize n, double rate_hz,
    VmiTimingReport * rep)
{
  double *pit, sum = 0, sq = 0, f, T, vmin = INFINITY, vmax = -INFINITY;
  gsize i, m;
  guint64 *win;
  guint nw;

  memset (rep, 0, sizeof (*rep));
  rep->packets = n;
  if (n < 2 || t[n - 1] <= t[0])
    return FALSE;
  rep->duration_ns = t[n - 1] - t[0];
  rep->rate_mean_hz = (double) (n - 1) / rep->duration_ns * 1e9;
  if (rate_hz > 0) {
    f = rate_hz;
  } else {
    f = vmi_timing_rate_ls (t, n);
    /* a capture whose clock stepped backwards can defeat the fit */
    if (!(f > 0) || !isfinite (f))
      f = rep->rate_mean_hz;
    rep->rate_estimated = TRUE;
  }
  rep->rate_hz = f;
  T = 1e9 / f;

  m = n - 1;
  pit = g_new (double, m);
  for (i = 0; i < m; i++) {
    pit[i] = t[i + 1] - t[i];
    sum += pit[i];
  }
  rep->pit_mean_ns = sum / (double) m;
  for (i = 0; i < m; i++) {
    double d = pit[i] - rep->pit_mean_ns;
    sq += d * d;
    rep->peak_period_jitter_ns = MAX (rep->peak_period_jitter_ns,
        fabs (T - pit[i]));
  }
  rep->pit_stddev_ns = sqrt (sq / (double) m);
  qsort (pit, m, sizeof (double), cmp_double);
  rep->pit_min_ns = pit[0];
  rep->pit_max_ns = pit[m - 1];
  rep->pit_p1_ns = percentile (pit, m, 1);
  rep->pit_p50_ns = percentile (pit, m, 50);
  rep->pit_p99_ns = percentile (pit, m, 99);
  rep->pit_p999_ns = percentile (pit, m, 99.9);
  g_free (pit);

  for (i = 0; i < n; i++) {
    double v = (double) i - f * (t[i] - t[0]) * 1e-9;
    vmin = MIN (vmin, v);
    vmax = MAX (vmax, v);
  }
  rep->occupancy_min = vmin;
  rep->occupancy_max = vmax;
  rep->occupancy_span = vmax - vmin;
  rep->alt_jitter_ns = rep->occupancy_span / (2.0 * f) * 1e9;

  win = vmi_timing_windows (t, n, &nw);
  rep->windows = nw;
  if (nw) {
    guint64 wsum = 0;
    rep->window_min = G_MAXUINT64;
    for (i = 0; i < nw; i++) {
      rep->window_min = MIN (rep->window_min, win[i]);
      rep->window_max = MAX (rep->window_max, win[i]);
      wsum += win[i];
    }
    rep->window_mean = (double) wsum / nw;
  }
  g_free (win);

  rep->cinst_max = cinst_max (t, n, f);
  rep->vrx_max = vrx_max (t, n, f);
  vmi_timing_limits (f, &rep->limits);
  return TRUE;
}

gboolean
vmi_timing_fc_bounds (const double *t, gsize n, double f, double W,
    guint nw, double *a_w, double *c_w)
{
  guint64 kmax, k, *fb;
  gsize i = 0;
  double T = 1e9 / f, prev = 0, emin = INFINITY, emax = -INFINITY, amax = 0;

  if (n < 2 || f <= 0 || W <= 0 || nw == 0)
    return FALSE;
  kmax = (guint64) floor ((t[n - 1] - t[0]) / W);
  if (kmax < nw || kmax > 100000000)
    return FALSE;
  /* F_b(kW): arrivals at or before kW (tolerance for kW computed in
   * floating point landing a hair before an arrival) */
  fb = g_new (guint64, kmax + 1);
  for (k = 0; k <= kmax; k++) {
    double u = (double) k * W + 1e-6;
    while (i < n && t[i] - t[0] <= u)
      i++;
    fb[k] = i;
  }
  for (k = nw - 1; k <= kmax; k++) {
    double fr = 0, e;
    guint l;
    for (l = 0; l < nw; l++)
      fr += (double) fb[k - l];
    fr /= nw;
    e = T * fr - (double) k * W;
    emin = MIN (emin, e);
    emax = MAX (emax, e);
    if (k > nw - 1)
      amax = MAX (amax, fabs (T * (fr - prev) - W));
    prev = fr;
  }
  g_free (fb);
  *a_w = amax;
  *c_w = (emax - emin) / 2;
  return TRUE;
}

void
vmi_seq_stats_push (VmiSeqStats * s, guint16 seq)
{
  guint16 d;

  if (!s->started) {
    s->started = TRUE;
    s->expected = seq + 1;
    return;
  }
  d = (guint16) (seq - s->expected);
  if (d == 0) {
    s->expected = seq + 1;
  } else if (d < 0x8000) {
    s->errors++;
    s->lost += d;
    s->expected = seq + 1;
  } else {
    s->errors++;
    s->late++;
  }
}
