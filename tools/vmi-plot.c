/* gst-vmi tools: timing plot (cairo PNG)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-plot.h"

#include <math.h>
#include <stdlib.h>
#include <cairo.h>

#define PW 520                  /* panel width */
#define PH 400                  /* panel height */
#define TOP 54
#define ML 70                   /* margins inside a panel */
#define MR 16
#define MT 36
#define MB 52

typedef struct
{
  cairo_t *cr;
  double x0, y0, w, h;          /* plot area in device units */
  double xmin, xmax, ymin, ymax;
  gboolean xlog, ylog;          /* log: min/max are decades */
} Axes;

static double
nice_step (double range, int target)
{
  double raw = range / target, mag = pow (10, floor (log10 (raw))), f = raw / mag;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

static double
ax_x (const Axes * a, double x)
{
  if (a->xlog)
    x = log10 (MAX (x, pow (10, a->xmin)));
  return a->x0 + (x - a->xmin) / (a->xmax - a->xmin) * a->w;
}

static double
ax_y (const Axes * a, double y)
{
  if (a->ylog)
    y = log10 (MAX (y, pow (10, a->ymin)));
  return a->y0 + a->h - (y - a->ymin) / (a->ymax - a->ymin) * a->h;
}

static void
text (cairo_t * cr, double x, double y, const char *s, double ax, double ay)
{
  cairo_text_extents_t e;
  cairo_text_extents (cr, s, &e);
  cairo_move_to (cr, x - e.width * ax - e.x_bearing,
      y - e.height * ay - e.y_bearing);
  cairo_show_text (cr, s);
}

static void
axes_draw (Axes * a, double px, const char *title, const char *xl,
    const char *yl)
{
  cairo_t *cr = a->cr;
  double v, step;
  char buf[64];

  a->x0 = px + ML;
  a->y0 = TOP + MT;
  a->w = PW - ML - MR;
  a->h = PH - MT - MB;
  if (a->xmax <= a->xmin)
    a->xmax = a->xmin + 1;
  if (a->ymax <= a->ymin)
    a->ymax = a->ymin + 1;

  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_font_size (cr, 15);
  text (cr, px + PW / 2.0, TOP + 14, title, 0.5, 0.5);
  cairo_set_font_size (cr, 12);
  text (cr, a->x0 + a->w / 2, a->y0 + a->h + 38, xl, 0.5, 0.5);
  cairo_save (cr);
  cairo_translate (cr, px + 14, a->y0 + a->h / 2);
  cairo_rotate (cr, -G_PI / 2);
  text (cr, 0, 0, yl, 0.5, 0.5);
  cairo_restore (cr);

  cairo_set_line_width (cr, 1);
  cairo_set_font_size (cr, 11);
  step = a->xlog ? 1 : nice_step (a->xmax - a->xmin, 5);
  for (v = ceil (a->xmin / step) * step; v <= a->xmax + step * 1e-9;
      v += step) {
    double x = a->xlog ? a->x0 + (v - a->xmin) / (a->xmax - a->xmin) * a->w
        : ax_x (a, v);
    cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
    cairo_move_to (cr, x, a->y0);
    cairo_line_to (cr, x, a->y0 + a->h);
    cairo_stroke (cr);
    cairo_set_source_rgb (cr, 0, 0, 0);
    if (a->xlog)
      g_snprintf (buf, sizeof (buf), "%g", pow (10, v));
    else
      g_snprintf (buf, sizeof (buf), "%g", fabs (v) < step * 1e-6 ? 0 : v);
    text (cr, x, a->y0 + a->h + 12, buf, 0.5, 0.5);
  }
  if (a->ylog) {
    for (v = ceil (a->ymin); v <= a->ymax; v += 1) {
      double y = a->y0 + a->h - (v - a->ymin) / (a->ymax - a->ymin) * a->h;
      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      cairo_move_to (cr, a->x0, y);
      cairo_line_to (cr, a->x0 + a->w, y);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, 0, 0, 0);
      g_snprintf (buf, sizeof (buf), "1e%d", (int) v);
      text (cr, a->x0 - 6, y, buf, 1, 0.5);
    }
  } else {
    step = nice_step (a->ymax - a->ymin, 6);
    for (v = ceil (a->ymin / step) * step; v <= a->ymax + step * 1e-9;
        v += step) {
      double y = ax_y (a, v);
      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      cairo_move_to (cr, a->x0, y);
      cairo_line_to (cr, a->x0 + a->w, y);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, 0, 0, 0);
      g_snprintf (buf, sizeof (buf), "%g", fabs (v) < step * 1e-6 ? 0 : v);
      text (cr, a->x0 - 6, y, buf, 1, 0.5);
    }
  }
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_rectangle (cr, a->x0, a->y0, a->w, a->h);
  cairo_stroke (cr);
}

static void
panel_pit (cairo_t * cr, double px, const double *t, gsize n,
    const VmiTimingReport * r)
{
  enum { NB = 80 };
  guint64 bins[NB] = { 0 }, maxc = 0;
  double lo = r->pit_min_ns, hi = r->pit_max_ns, bw;
  Axes a = { cr };
  gsize i;
  char buf[96];

  if (hi - lo < 2) {
    double c = (hi + lo) / 2;
    lo = c - 1;
    hi = c + 1;
  } else {
    /* keep the extreme values off the bin edges */
    double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  bw = (hi - lo) / NB;
  /* PITs measured on a byte clock sit on a 0.8 ns grid: shift the bins by
   * an odd fraction so no value lands on an edge and splits in two */
  lo -= 0.37 * bw;
  hi -= 0.37 * bw;
  for (i = 0; i + 1 < n; i++) {
    int b = (int) floor ((t[i + 1] - t[i] - lo) / bw);
    bins[CLAMP (b, 0, NB - 1)]++;
  }
  for (i = 0; i < NB; i++)
    maxc = MAX (maxc, bins[i]);
  a.xmin = lo;
  a.xmax = hi;
  a.ylog = TRUE;
  a.ymin = 0;
  a.ymax = ceil (log10 ((double) maxc + 1) + 0.1);
  axes_draw (&a, px, "Packet inter-arrival time", "PIT (ns)",
      "packets (log)");
  cairo_set_source_rgb (cr, 0.15, 0.35, 0.7);
  for (i = 0; i < NB; i++) {
    double x1, x2, y;
    if (!bins[i])
      continue;
    x1 = ax_x (&a, lo + i * bw);
    x2 = ax_x (&a, lo + (i + 1) * bw);
    y = ax_y (&a, (double) bins[i]);
    cairo_rectangle (cr, x1, y, MAX (x2 - x1 - 0.5, 1.0),
        a.y0 + a.h - y);
  }
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_font_size (cr, 11);
  g_snprintf (buf, sizeof (buf), "mean %.2f  p1 %.2f  p99.9 %.2f ns",
      r->pit_mean_ns, r->pit_p1_ns, r->pit_p999_ns);
  text (cr, a.x0 + 6, a.y0 + 10, buf, 0, 0.5);
  g_snprintf (buf, sizeof (buf), "peak-period jitter %.2f ns",
      r->peak_period_jitter_ns);
  text (cr, a.x0 + 6, a.y0 + 25, buf, 0, 0.5);
}

/* A series drawn as one vertical stroke per pixel column of @a's plot
 * area, from the least to the greatest value that fell in it: a million
 * points cost the plot's width */
typedef struct
{
  const Axes *a;
  guint cols;
  double *min, *max;
} Envelope;

static void
envelope_init (Envelope * e, const Axes * a)
{
  guint c;

  e->a = a;
  e->cols = (guint) a->w;
  e->min = g_new (double, e->cols);
  e->max = g_new (double, e->cols);
  for (c = 0; c < e->cols; c++) {
    e->min[c] = INFINITY;
    e->max[c] = -INFINITY;
  }
}

/* value @v at @x (the x axis runs from 0) */
static void
envelope_add (Envelope * e, double x, double v)
{
  guint c = (guint) MIN ((double) e->cols - 1, x / e->a->xmax * e->cols);

  e->min[c] = MIN (e->min[c], v);
  e->max[c] = MAX (e->max[c], v);
}

/* strokes the columns in the current colour and line width, each
 * reaching @inset beyond its extremes, and frees @e */
static void
envelope_stroke (Envelope * e, double inset)
{
  cairo_t *cr = e->a->cr;
  guint c;

  for (c = 0; c < e->cols; c++) {
    double x = e->a->x0 + c + 0.5;

    if (e->min[c] > e->max[c])
      continue;
    cairo_move_to (cr, x, ax_y (e->a, e->min[c]) + inset);
    cairo_line_to (cr, x, ax_y (e->a, e->max[c]) - inset);
  }
  cairo_stroke (cr);
  g_free (e->min);
  g_free (e->max);
}

static void
panel_occupancy (cairo_t * cr, double px, const double *t, gsize n,
    const VmiTimingReport * r)
{
  Axes a = { cr };
  double pad = MAX (0.5, r->occupancy_span * 0.1), f = r->rate_hz;
  Envelope e;
  gsize i;
  char buf[96];

  a.xmin = 0;
  a.xmax = r->duration_ns / 1e9;
  a.ymin = floor (r->occupancy_min - pad);
  a.ymax = ceil (r->occupancy_max + pad);
  axes_draw (&a, px, "Virtual receiver occupancy i - f t_i", "time (s)",
      "packets");
  envelope_init (&e, &a);
  for (i = 0; i < n; i++) {
    double s = (t[i] - t[0]) / 1e9;

    envelope_add (&e, s, (double) i - f * s);
  }
  cairo_set_source_rgb (cr, 0.75, 0.2, 0.1);
  cairo_set_line_width (cr, 1.2);
  envelope_stroke (&e, 0.6);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_font_size (cr, 11);
  g_snprintf (buf, sizeof (buf), "span %.3f packets, ALT-jitter ~ %.1f ns",
      r->occupancy_span, r->alt_jitter_ns);
  text (cr, a.x0 + 6, a.y0 + 10, buf, 0, 0.5);
  g_snprintf (buf, sizeof (buf), "f = %.3f /s (%s)", f,
      r->rate_estimated ? "least squares" : "given");
  text (cr, a.x0 + 6, a.y0 + 25, buf, 0, 0.5);
}

static void
panel_windows (cairo_t * cr, double px, const double *t, gsize n,
    const VmiTimingReport * r)
{
  Axes a = { cr };
  guint nw, k;
  guint64 *w = vmi_timing_windows (t, n, &nw);
  char buf[96];

  a.xmin = 0;
  a.xmax = MAX (nw, 1);
  if (nw) {
    double lo = (double) r->window_min, hi = (double) r->window_max;
    double pad = MAX (2.0, (hi - lo) * 0.2);
    a.ymin = floor (lo - pad);
    a.ymax = ceil (hi + pad);
  } else {
    a.ymin = 0;
    a.ymax = 1;
  }
  axes_draw (&a, px, "Packets per 1-s window", "window (s)", "packets");
  cairo_set_source_rgb (cr, 0.1, 0.55, 0.25);
  for (k = 0; k < nw; k++) {
    double x1 = ax_x (&a, k), x2 = ax_x (&a, k + 1), y = ax_y (&a, w[k]);
    cairo_rectangle (cr, x1 + 1, y, MAX (x2 - x1 - 2, 1.0), a.y0 + a.h - y);
  }
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_font_size (cr, 11);
  if (nw)
    g_snprintf (buf, sizeof (buf), "min %" G_GUINT64_FORMAT "  max %"
        G_GUINT64_FORMAT "  mean %.2f", r->window_min, r->window_max,
        r->window_mean);
  else
    g_snprintf (buf, sizeof (buf), "trace shorter than one window");
  text (cr, a.x0 + 6, a.y0 + 10, buf, 0, 0.5);
  g_free (w);
}

/* A white page with the default font. */
static cairo_t *
page_new (int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cairo_t *cr = cairo_create (s);

  cairo_surface_destroy (s);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
      CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_font_size (cr, 16);
  return cr;
}

/* Writes the page to @path and frees it. */
static gboolean
page_write (cairo_t * cr, const gchar * path, GError ** error)
{
  cairo_status_t st = cairo_surface_write_to_png (cairo_get_target (cr), path);

  cairo_destroy (cr);
  if (st != CAIRO_STATUS_SUCCESS) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot write %s: %s", path, cairo_status_to_string (st));
    return FALSE;
  }
  return TRUE;
}

gboolean
vmi_plot_png (const gchar * path, const gchar * title, const double *t,
    gsize n, const VmiTimingReport * rep, GError ** error)
{
  cairo_t *cr = page_new (3 * PW, TOP + PH);
  gchar *head, *base;

  base = g_path_get_basename (title);
  head = g_strdup_printf ("%s: %" G_GSIZE_FORMAT " packets over %.3f s",
      base, rep->packets, rep->duration_ns / 1e9);
  g_free (base);
  text (cr, 3 * PW / 2.0, 18, head, 0.5, 0.5);
  g_free (head);

  panel_pit (cr, 0, t, n, rep);
  panel_occupancy (cr, PW, t, n, rep);
  panel_windows (cr, 2 * PW, t, n, rep);
  return page_write (cr, path, error);
}

static void
hline_dashed (Axes * a, double y, double r, double g, double b)
{
  static const double dash[] = { 5, 4 };
  cairo_t *cr = a->cr;

  if (y < a->ymin || y > a->ymax)
    return;
  cairo_save (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, a->x0, ax_y (a, y));
  cairo_line_to (cr, a->x0 + a->w, ax_y (a, y));
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
vline_dashed (Axes * a, double x, double r, double g, double b)
{
  static const double dash[] = { 5, 4 };
  cairo_t *cr = a->cr;

  double px = ax_x (a, x);

  if (px < a->x0 || px > a->x0 + a->w)
    return;
  cairo_save (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, px, a->y0);
  cairo_line_to (cr, px, a->y0 + a->h);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
panel_dt_series (cairo_t * cr, double px, const double *t, gsize n,
    double dt_max, double period_ns, double threshold_ns)
{
  Axes a = { cr };
  Envelope e;
  double dur = (t[n - 1] - t[0]) / 1e9;
  gsize i;

  a.xmin = 0;
  a.xmax = dur > 0 ? dur : 1;
  a.ymin = 0;
  a.ymax = MAX (dt_max, threshold_ns) * 1.08 / 1e3;
  axes_draw (&a, px, "Inter-arrival time over time", "time (s)",
      "ΔT (µs)");
  envelope_init (&e, &a);
  for (i = 0; i + 1 < n; i++)
    envelope_add (&e, (t[i + 1] - t[0]) / 1e9, (t[i + 1] - t[i]) / 1e3);
  cairo_set_source_rgb (cr, 0.15, 0.35, 0.7);
  cairo_set_line_width (cr, 1.0);
  envelope_stroke (&e, 0.5);
  hline_dashed (&a, period_ns / 1e3, 0.1, 0.55, 0.25);
  hline_dashed (&a, threshold_ns / 1e3, 0.75, 0.2, 0.1);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_font_size (cr, 11);
  text (cr, a.x0 + 6, a.y0 + 10, "green: period T   red: spike threshold",
      0, 0.5);
}

static void
panel_dt_ccdf (cairo_t * cr, double px, const double *sorted, gsize m,
    double period_ns, double threshold_ns)
{
  Axes a = { cr };
  gsize i;
  gboolean first = TRUE;

  /* log ΔT: the 7 µs body and ms stalls on one axis; 0 (a burst) sits on
   * the left edge */
  a.xlog = TRUE;
  a.xmin = floor (log10 (MAX (sorted[0], 100) / 1e3));
  a.xmax = ceil (log10 (MAX (sorted[m - 1], threshold_ns) * 1.2 / 1e3));
  a.ylog = TRUE;
  a.ymin = floor (log10 (1.0 / (double) m)) - 0.2;
  a.ymax = 0.05;
  axes_draw (&a, px, "Distribution of ΔT (1 - CDF)", "ΔT (µs, log)",
      "P(ΔT > x) (log)");
  cairo_set_source_rgb (cr, 0.75, 0.2, 0.1);
  cairo_set_line_width (cr, 1.4);
  /* a step per distinct value: P(ΔT > x) drops at each sample */
  for (i = 0; i < m; i++) {
    double x = ax_x (&a, sorted[i] / 1e3);
    double before = (double) (m - i) / (double) m;
    if (i + 1 < m && sorted[i + 1] == sorted[i])
      continue;
    if (first)
      cairo_move_to (cr, a.x0, ax_y (&a, 1));
    cairo_line_to (cr, x, ax_y (&a, first ? 1 : before));
    cairo_line_to (cr, x, ax_y (&a, MAX ((double) (m - i - 1) / m,
                pow (10, a.ymin))));
    first = FALSE;
  }
  cairo_stroke (cr);
  vline_dashed (&a, period_ns / 1e3, 0.1, 0.55, 0.25);
  vline_dashed (&a, threshold_ns / 1e3, 0.75, 0.2, 0.1);
}

static int
cmp_dbl (const void *x, const void *y)
{
  double a = *(const double *) x, b = *(const double *) y;
  return (a > b) - (a < b);
}

gboolean
vmi_plot_jitter_png (const gchar * path, const gchar * title,
    const gchar * caption, const double *t, gsize n, double period_ns,
    double threshold_ns, GError ** error)
{
  cairo_t *cr;
  double *dt;
  gsize i, m;

  if (n < 2) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "cannot plot %s: fewer than two timestamps", path);
    return FALSE;
  }
  m = n - 1;
  dt = g_new (double, m);
  for (i = 0; i < m; i++)
    dt[i] = t[i + 1] - t[i];
  qsort (dt, m, sizeof (double), cmp_dbl);

  cr = page_new (2 * PW, TOP + 16 + PH);
  text (cr, PW, 16, title, 0.5, 0.5);
  cairo_set_font_size (cr, 12);
  if (caption)
    text (cr, PW, 36, caption, 0.5, 0.5);
  cairo_translate (cr, 0, 16);
  panel_dt_series (cr, 0, t, n, dt[m - 1], period_ns, threshold_ns);
  panel_dt_ccdf (cr, PW, dt, m, period_ns, threshold_ns);
  g_free (dt);
  return page_write (cr, path, error);
}
