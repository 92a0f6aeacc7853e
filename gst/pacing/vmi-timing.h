/* gst-vmi: virtual wire and timing analysis of a paced stream
 *
 * Pure C. The same maths serves the unit tests, vmi-pace and vmi-analyze.
 * Definitions follow the thesis (ch. 4.1) and docs/pacing.md:
 *   PIT_i      = t_{i+1} - t_i
 *   J_p        = max |T - PIT_i|                (peak-period jitter, T = 1/f)
 *   v_i        = i - f * t_i                    (virtual receiver occupancy)
 *   span       = max v - min v                  (buffer a receiver needs)
 *   J_ALT est. = span / (2 f)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_TIMING_H__
#define __VMI_TIMING_H__

#include <glib.h>

G_BEGIN_DECLS

/* ---- virtual wire ----
 * Frames leave back to back at line_rate bit/s; each occupies its wire
 * bytes (frame + FCS + preamble/SFD + IFG) of byte-times. */
typedef struct
{
  guint64 line_rate;            /* bit/s */
  guint64 pos;                  /* byte-time at which the next frame starts */
  guint64 frames, media;
} VmiVWire;

void vmi_vwire_init (VmiVWire * w, guint64 line_rate_bps);
/* Puts one frame on the wire, returns the byte-time at which it starts. */
static inline guint64
vmi_vwire_push (VmiVWire * w, guint wire_bytes, gboolean media)
{
  guint64 start = w->pos;
  w->pos += wire_bytes;
  w->frames++;
  w->media += media ? 1 : 0;
  return start;
}
/* byte-time -> ns: pos * 8e9 / line_rate */
double vmi_vwire_ns (const VmiVWire * w, guint64 pos);

/* ---- ST 2110-21 style limits (docs/pacing.md) ----
 * R_active = 1: ST 2022-6 carries the whole raster, blanking included, so
 * the sender is linear. All limits then depend only on the packet rate
 * N / T_frame. */
typedef struct
{
  guint cmax_narrow, cmax_wide;
  guint vrx_narrow, vrx_wide;
} VmiTimingLimits;

void vmi_timing_limits (double packets_per_s, VmiTimingLimits * lim);

typedef struct
{
  gsize packets;
  double duration_ns;           /* t_last - t_first */
  double rate_hz;               /* f used for occupancy, J_p, Cinst, VRX */
  gboolean rate_estimated;      /* least squares when not given */
  double rate_mean_hz;          /* (n - 1) / (t_n - t_1) */

  double pit_mean_ns, pit_min_ns, pit_max_ns, pit_stddev_ns;
  double pit_p1_ns, pit_p50_ns, pit_p99_ns, pit_p999_ns;
  double peak_period_jitter_ns;

  double occupancy_min, occupancy_max, occupancy_span;
  double alt_jitter_ns;

  guint windows;                /* complete 1-s windows */
  guint64 window_min, window_max;
  double window_mean;

  guint cinst_max;              /* drain at 1.1 f, deterministic service */
  guint vrx_max;                /* drain every 1/f from the earliest start
                                 * that never underflows */
  VmiTimingLimits limits;
} VmiTimingReport;

/* t_ns: n non-decreasing times (ns, any origin; pass times relative to the
 * first packet for best precision). rate_hz <= 0: estimate f by least
 * squares of i against t_i. Returns FALSE if n < 2 or duration is 0. */
gboolean vmi_timing_analyze (const double *t_ns, gsize n, double rate_hz,
    VmiTimingReport * rep);

/* Least-squares packet rate (packets/s) of i against t_i. */
double vmi_timing_rate_ls (const double *t_ns, gsize n);

/* v_i = i - f t_i (t relative to t_0) for i in [0, n) into v. */
void vmi_timing_occupancy (const double *t_ns, gsize n, double rate_hz,
    double *v);

/* Packets per complete 1-s window from t_0; returns a g_new array
 * (g_free it) and the number of windows in *n_windows. */
guint64 *vmi_timing_windows (const double *t_ns, gsize n, guint * n_windows);

/* ---- frequency-controller qualification (thesis 4.4.4, 4.6.3) ----
 * From the arrival times t of a reference stream, the N_W-regularised
 * controller F_r sampled every W:
 *   A_W = max_k |T (F_r((k+1)W) - F_r(kW)) - W|
 *   C_W = (max_k e_k - min_k e_k) / 2,  e_k = T F_r(kW) - kW
 * (C_W with the best constant shift, the finite-trace form of the inf/sup).
 * Property 5: J_ALT <= A_W + C_W + T^e; property 2 then gives the receiver
 * buffer the controlled pacer needs: b > 2 f (A_W + C_W + T^e).
 * FALSE when the trace holds fewer than N_W + 1 windows. */
gboolean vmi_timing_fc_bounds (const double *t_ns, gsize n, double rate_hz,
    double window_ns, guint n_windows, double *a_w_ns, double *c_w_ns);

/* ---- RTP sequence tracking ---- */
typedef struct
{
  gboolean started;
  guint16 expected;
  guint64 errors;               /* packets whose seq was not prev + 1 */
  guint64 lost;                 /* sum of forward gaps */
  guint64 late;                 /* reordered or duplicate (backwards) */
} VmiSeqStats;

void vmi_seq_stats_push (VmiSeqStats * s, guint16 seq);

G_END_DECLS

#endif /* __VMI_TIMING_H__ */
