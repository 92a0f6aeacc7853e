/* gst-vmi: unit tests of the pacing core (algorithms 1 and 2, frequency
 * controller, gap frames) on the virtual wire.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <math.h>

#include "vmi-pacer.h"
#include "vmi-gap-frame.h"
#include "vmi-timing.h"
#include "vmi-ref-sim.h"

#define DUR VMI_ST2022_6_WIRE_BYTES

/* 1080i59.94: 4497 datagrams per frame at 30000/1001 frames/s */
static void
tau_1080i (guint64 line_rate, guint64 * num, guint64 * den)
{
  fail_unless (vmi_pace_tau_for_rate (line_rate, 4497, 30000, 1001, num, den));
}

GST_START_TEST (test_tau_exact)
{
  guint64 num, den;

  /* tau = 1.25e9 * 1001 / (4497 * 30000), reduced */
  tau_1080i (10000000000ULL, &num, &den);
  fail_unless ((unsigned __int128) num * 4497 * 30000 ==
      (unsigned __int128) den * 1250000000ULL * 1001);
  fail_unless_equals_uint64 (num, 125125000);
  fail_unless_equals_uint64 (den, 13491);
  /* ~ 9274.70 byte-times */
  fail_unless (fabs ((double) num / den - 9274.7016) < 1e-3);
}

GST_END_TEST;

GST_START_TEST (test_preconditions)
{
  VmiPacer p;
  guint64 num, den;
  guint32 n;
  VmiFreqCtl *ctl;

  tau_1080i (10000000000ULL, &num, &den);
  /* n_max must be > 2 n_min */
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 100, 200, DUR,
          num, den), VMI_PACE_ERR_N_RANGE);
  fail_unless_equals_int (vmi_pacer_next (&p, &n), VMI_PACE_CMD_ERROR);
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 100, 201, DUR,
          num, den), VMI_PACE_OK);
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 0, 1538, DUR,
          num, den), VMI_PACE_ERR_INVALID);

  /* 1080i59.94 does not fit 1 Gbit/s: tau = 927.47 < 1466 + 84 */
  tau_1080i (1000000000ULL, &num, &den);
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 84, 1538, DUR,
          num, den), VMI_PACE_ERR_RATE_TOO_HIGH);
  fail_unless_equals_int (vmi_pacer_next (&p, &n), VMI_PACE_CMD_ERROR);
  fail_unless_equals_int (vmi_pacer_error (&p), VMI_PACE_ERR_RATE_TOO_HIGH);
  fail_unless (strstr (vmi_pace_error_string (VMI_PACE_ERR_RATE_TOO_HIGH),
          "too high") != NULL);
  /* boundary: tau - dur == n_min exactly is allowed, one byte less is not */
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 84, 1538, DUR,
          DUR + 84, 1), VMI_PACE_OK);
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 84, 1538, DUR,
          (DUR + 84) * 7 - 1, 7), VMI_PACE_ERR_RATE_TOO_HIGH);

  /* a rational too fine for 62-bit state arithmetic is refused up front */
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 84, 1538, DUR,
          G_GUINT64_CONSTANT (1) << 61, (G_GUINT64_CONSTANT (1) << 60) - 1),
      VMI_PACE_ERR_OVERFLOW);

  /* controlled: a reference faster than the line allows stops the pacer
   * at its first update, with the error, not an assert */
  ctl = vmi_freq_ctl_new (2, 64);
  fail_unless_equals_int (vmi_pacer_init_controlled (&p, 84, 1538, DUR, ctl,
          100000, 100000), VMI_PACE_OK);
  {
    guint64 t;
    VmiPaceCmd c;
    /* one arrival every 1000 byte-times < 1466 + 84 */
    for (t = 0; (c = vmi_pacer_next (&p, &n)) == VMI_PACE_CMD_STALL;
        t += 1000)
      fail_unless (vmi_freq_ctl_push (ctl, t));
    fail_unless_equals_int (c, VMI_PACE_CMD_ERROR);
    fail_unless_equals_int (vmi_pacer_error (&p), VMI_PACE_ERR_RATE_TOO_HIGH);
  }
  vmi_freq_ctl_free (ctl);

  /* controlled: no reference at all */
  ctl = vmi_freq_ctl_new (2, 64);
  vmi_pacer_init_controlled (&p, 84, 1538, DUR, ctl, 100000, 100000);
  fail_unless_equals_int (vmi_pacer_next (&p, &n), VMI_PACE_CMD_STALL);
  vmi_freq_ctl_set_horizon (ctl, 1000000);
  fail_unless_equals_int (vmi_pacer_next (&p, &n), VMI_PACE_CMD_ERROR);
  fail_unless_equals_int (vmi_pacer_error (&p), VMI_PACE_ERR_NO_REFERENCE);
  vmi_freq_ctl_free (ctl);

  /* lead shorter than the window is refused */
  ctl = vmi_freq_ctl_new (2, 64);
  fail_unless_equals_int (vmi_pacer_init_controlled (&p, 84, 1538, DUR, ctl,
          100000, 99999), VMI_PACE_ERR_INVALID);
  vmi_freq_ctl_free (ctl);
}

GST_END_TEST;

/* Property 3 and equation 4.6: every wait within [n_min, n_max], and the
 * i-th send exactly at byte-time floor((i - 1) tau). 10^7 commands over
 * many tau and (n_min, n_max, dur). */
GST_START_TEST (test_safety_and_exactness)
{
  static const struct
  {
    guint32 n_min, n_max, dur;
  } cfg[] = {
    {84, 1538, DUR}, {84, 169, DUR}, {1, 3, 1}, {10, 21, 100}, {84, 1538, 64},
  };
  GRand *rand = g_rand_new_with_seed (42);
  guint64 total = 0, runs = 0;
  guint32 seen_min = G_MAXUINT32, seen_max = 0;

  while (total < 10000000) {
    guint c = runs % G_N_ELEMENTS (cfg);
    guint32 n_min = cfg[c].n_min, n_max = cfg[c].n_max, dur = cfg[c].dur;
    guint64 lo = (guint64) dur + n_min, num, den, i = 0, pos = 0;
    VmiPacer p;
    guint k;

    /* tau in [dur + n_min, dur + n_min + 3 (n_max + n_min)], including the
     * edges and the n_max..n_max+n_min band where the split matters */
    den = 1 + g_rand_int_range (rand, 0, 1000000);
    switch (runs % 5) {
      case 0:
        num = lo * den;
        break;
      case 1:
        num = (lo + n_max) * den + g_rand_int_range (rand, 0, n_min * den);
        break;
      case 2:
        num = (lo + n_max + n_min) * den - 1;
        break;
      default:
        num = lo * den + (guint64) (g_rand_double (rand) * 3.0 *
            (n_max + n_min) * den);
        break;
    }
    fail_unless_equals_int (vmi_pacer_init_free_running (&p, n_min, n_max,
            dur, num, den), VMI_PACE_OK);
    vmi_pacer_get_tau (&p, &num, &den); /* reduced */
    for (k = 0; k < 20000; k++) {
      guint32 n;
      VmiPaceCmd cmd = vmi_pacer_next (&p, &n);
      if (cmd == VMI_PACE_CMD_SEND) {
        unsigned __int128 expect = (unsigned __int128) i * num / den;
        if ((unsigned __int128) pos != expect)
          fail ("send %" G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT
              ", expected floor(i tau) = %" G_GUINT64_FORMAT " (tau %"
              G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ")", i, pos,
              (guint64) expect, num, den);
        if (n != dur)
          fail ("send of %u bytes", n);
        i++;
      } else {
        if (cmd != VMI_PACE_CMD_WAIT)
          fail ("unexpected command %d", cmd);
        if (n < n_min || n > n_max)
          fail ("wait(%u) outside [%u, %u] for tau %" G_GUINT64_FORMAT "/%"
              G_GUINT64_FORMAT, n, n_min, n_max, num, den);
        if (n_min == 84 && n_max == 1538) {
          seen_min = MIN (seen_min, n);
          seen_max = MAX (seen_max, n);
        }
      }
      pos += n;
      if ((gint64) pos != vmi_pacer_position (&p))
        fail ("position %" G_GINT64_FORMAT " != %" G_GUINT64_FORMAT,
            vmi_pacer_position (&p), pos);
    }
    total += k;
    runs++;
  }
  g_rand_free (rand);
  GST_INFO ("%" G_GUINT64_FORMAT " commands over %" G_GUINT64_FORMAT
      " tau values, 84/1538 gaps seen %u..%u", total, runs, seen_min,
      seen_max);
  /* the random taus exercise the whole range */
  fail_unless_equals_int (seen_min, 84);
  fail_unless_equals_int (seen_max, 1538);
}

GST_END_TEST;

/* Algorithm 1 for 1080i59.94 at 10 Gbit/s on the virtual wire: every media
 * packet starts within one byte-time of i tau; the analysis sees a
 * (1, f)-paced stream. */
GST_START_TEST (test_free_running_1080i_on_wire)
{
  const guint64 rate = 10000000000ULL, npk = 1348000;   /* ~10 s */
  guint64 num, den, i = 0;
  VmiPacer p;
  VmiVWire w;
  double *t = g_new (double, npk), maxdev = 0, f;
  guint32 gmin = G_MAXUINT32, gmax = 0;
  VmiTimingReport rep;

  tau_1080i (rate, &num, &den);
  fail_unless_equals_int (vmi_pacer_init_free_running (&p, 84, 1538, DUR,
          num, den), VMI_PACE_OK);
  vmi_vwire_init (&w, rate);
  while (i < npk) {
    guint32 n;
    VmiPaceCmd c = vmi_pacer_next (&p, &n);
    guint64 start = vmi_vwire_push (&w, n, c == VMI_PACE_CMD_SEND);
    if (c == VMI_PACE_CMD_SEND) {
      /* exact: start == floor (i tau), so 0 <= i tau - start < 1 */
      double dev = (double) ((unsigned __int128) i * num % den) / den;
      if ((unsigned __int128) start != (unsigned __int128) i * num / den)
        fail ("packet %" G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT, i, start);
      maxdev = MAX (maxdev, dev);
      t[i++] = vmi_vwire_ns (&w, start);
    } else {
      if (c != VMI_PACE_CMD_WAIT)
        fail ("unexpected command %d", c);
      gmin = MIN (gmin, n);
      gmax = MAX (gmax, n);
    }
  }
  fail_unless (maxdev < 1.0);
  fail_unless (gmin >= 84 && gmax <= 1538);

  f = 4497.0 * 30000.0 / 1001.0;
  fail_unless (vmi_timing_analyze (t, npk, f, &rep));
  /* PIT is floor(tau) or ceil(tau) byte-times of 0.8 ns */
  fail_unless (fabs (rep.pit_min_ns - 9274 * 0.8) < 1e-3);
  fail_unless (fabs (rep.pit_max_ns - 9275 * 0.8) < 1e-3);
  fail_unless (fabs (rep.pit_mean_ns - 1e9 / f) < 1e-3);
  fail_unless (rep.occupancy_span < 1.0 / 9274.0 + 1e-6);
  fail_unless (rep.peak_period_jitter_ns <= 0.8 + 1e-6);
  fail_unless_equals_int (rep.windows, 10);
  fail_unless (rep.window_min >= 134775 && rep.window_max <= 134776);
  fail_unless_equals_int (rep.cinst_max, 1);
  fail_unless (rep.vrx_max <= 2);
  g_print ("free-running 1080i59.94 @10G: %" G_GUINT64_FORMAT " packets, max "
      "|start - i tau| = %.6f byte-times, gaps %u..%u, span %.6f, J_p %.3f ns\n",
      npk, maxdev, gmin, gmax, rep.occupancy_span, rep.peak_period_jitter_ns);
  g_free (t);
}

GST_END_TEST;

/* Algorithm 2 following a reference at ppm offset with uniform arrival
 * jitter: rate within 5 ppm of the reference after two windows, occupancy
 * span (against the reference rate) within 3 packets. */
static void
run_controlled (double ppm, double jitter_ns, guint n_w, guint32 seed,
    double *ppm_err, double *span, guint32 * gmin, guint32 * gmax)
{
  const guint64 rate = 10000000000ULL;
  const double f_nom = 4497.0 * 30000.0 / 1001.0;
  const double f_ref = f_nom * (1.0 + ppm * 1e-6);
  const guint64 npk = (guint64) (f_nom * 8);    /* 8 s */
  const guint64 skip = (guint64) (f_nom * 2);   /* settle: 2 windows */
  VmiFreqCtl *ctl = vmi_freq_ctl_new (n_w, 1024);
  VmiRefSim ref;
  VmiPacer p;
  VmiVWire w;
  double *t = g_new (double, npk);
  guint64 i = 0, W = 1250000000ULL;
  VmiTimingReport rep;

  *gmin = G_MAXUINT32;
  *gmax = 0;
  vmi_ref_sim_init (&ref, f_nom, ppm, jitter_ns, seed, rate);
  fail_unless_equals_int (vmi_pacer_init_controlled (&p, 84, 1538, DUR, ctl,
          W, W), VMI_PACE_OK);
  vmi_vwire_init (&w, rate);
  while (i < npk) {
    guint32 n;
    VmiPaceCmd c = vmi_pacer_next (&p, &n);
    switch (c) {
      case VMI_PACE_CMD_SEND:
        t[i++] = vmi_vwire_ns (&w, vmi_vwire_push (&w, n, TRUE));
        break;
      case VMI_PACE_CMD_WAIT:
        if (n < 84 || n > 1538)
          fail ("wait(%u)", n);
        *gmin = MIN (*gmin, n);
        *gmax = MAX (*gmax, n);
        vmi_vwire_push (&w, n, FALSE);
        break;
      case VMI_PACE_CMD_STALL:
        if (!vmi_freq_ctl_push (ctl, vmi_ref_sim_next (&ref)))
          fail ("controller queue full");
        break;
      default:
        fail ("pacer error %s", vmi_pace_error_string (vmi_pacer_error (&p)));
    }
  }
  /* y_now is the wire position (the corrected line 25 keeps it so) */
  fail_unless_equals_int64 (vmi_pacer_position (&p), (gint64) w.pos);
  fail_unless (p.updates >= 8);
  /* the rate the pacer settled on, against the reference's */
  *ppm_err = (vmi_timing_rate_ls (t + skip, npk - skip) / f_ref - 1.0) * 1e6;
  /* what a receiver consuming at the reference rate sees */
  fail_unless (vmi_timing_analyze (t + skip, npk - skip, f_ref, &rep));
  *span = rep.occupancy_span;
  vmi_ref_sim_clear (&ref);
  vmi_freq_ctl_free (ctl);
  g_free (t);
}

GST_START_TEST (test_controlled_follows_reference)
{
  static const double ppms[] = { 100, -100 };
  guint k, seed;

  for (k = 0; k < G_N_ELEMENTS (ppms); k++) {
    for (seed = 1; seed <= 2; seed++) {
      double err, span;
      guint32 gmin, gmax;
      run_controlled (ppms[k], 10000, 2, seed, &err, &span, &gmin, &gmax);
      g_print ("controlled ref %+g ppm, 10 us jitter, W = 1 s, N_W = 2, "
          "seed %u: rate error %+.3f ppm, occupancy span %.3f packets, "
          "gaps %u..%u\n", ppms[k], seed, err, span, gmin, gmax);
      fail_unless (fabs (err) < 5.0, "rate error %g ppm", err);
      fail_unless (span <= 3.0, "span %g", span);
      fail_unless (gmin >= 84 && gmax <= 1538);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_freq_ctl)
{
  VmiFreqCtl *c = vmi_freq_ctl_new (2, 4);
  guint64 f, span, count;
  guint used;

  fail_unless (vmi_freq_ctl_push (c, 10));
  fail_unless (vmi_freq_ctl_push (c, 20));
  fail_unless (!vmi_freq_ctl_push (c, 15));     /* backwards */
  fail_unless (vmi_freq_ctl_count (c, 10, &f)); /* 20 > 10 seen */
  fail_unless_equals_uint64 (f, 1);
  fail_unless (!vmi_freq_ctl_count (c, 20, &f));        /* nothing after 20 yet */
  vmi_freq_ctl_set_horizon (c, 25);
  fail_unless (vmi_freq_ctl_count (c, 20, &f));
  fail_unless_equals_uint64 (f, 2);
  fail_unless (!vmi_freq_ctl_push (c, 20));     /* already answered for 20 */
  fail_unless (vmi_freq_ctl_push (c, 30));
  fail_unless (vmi_freq_ctl_push (c, 40));
  fail_unless (vmi_freq_ctl_push (c, 50));
  fail_unless (vmi_freq_ctl_push (c, 60));
  fail_unless (!vmi_freq_ctl_push (c, 70));     /* queue of 4 full */
  vmi_freq_ctl_free (c);

  /* regularisation: samples every 100, counts 10, 14, 6, 10 per window */
  c = vmi_freq_ctl_new (2, 64);
  {
    static const guint per[] = { 10, 14, 6, 10 };
    guint k, j;
    for (k = 0; k < 4; k++)
      for (j = 0; j < per[k]; j++)
        fail_unless (vmi_freq_ctl_push (c, 100 * k + 1 + j));
    vmi_freq_ctl_set_horizon (c, 1000);
  }
  fail_unless (vmi_freq_ctl_sample (c, 0, &span, &count, &used));
  fail_unless_equals_int (used, 0);
  fail_unless (vmi_freq_ctl_sample (c, 100, &span, &count, &used));
  fail_unless (used == 1 && span == 100 && count == 10);
  fail_unless (vmi_freq_ctl_sample (c, 200, &span, &count, &used));
  fail_unless (used == 2 && span == 200 && count == 24);
  fail_unless (vmi_freq_ctl_sample (c, 300, &span, &count, &used));
  fail_unless (used == 2 && span == 200 && count == 20);
  fail_unless (vmi_freq_ctl_sample (c, 400, &span, &count, &used));
  fail_unless (used == 2 && span == 200 && count == 16);
  vmi_freq_ctl_free (c);

  fail_unless_equals_uint64 (vmi_pace_ns_to_bytes (1000, 10000000000ULL),
      1250);
  fail_unless_equals_uint64 (vmi_pace_ns_to_bytes (3600ULL * 1000000000ULL *
          10, 100000000000ULL), 36000ULL * 12500000000ULL);
}

GST_END_TEST;

GST_START_TEST (test_gap_frame)
{
  static const guint8 src[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
  guint8 buf[1600];
  guint n;

  fail_unless_equals_int (vmi_gap_frame_len (83), 0);
  fail_unless_equals_int (vmi_gap_frame_len (84), 60);
  fail_unless_equals_int (vmi_gap_frame_len (1538), 1514);
  fail_unless_equals_int (vmi_gap_frame_len (1539), 0);

  for (n = 84; n <= 1538; n++) {
    guint len, k;
    memset (buf, 0xaa, sizeof (buf));
    len = vmi_gap_frame_build (buf, sizeof (buf), n, src,
        n & 1 ? VMI_GAP_OPCODE_PAUSE : VMI_GAP_OPCODE_RESERVED);
    fail_unless_equals_int (len, n - 24);
    /* frame + FCS + preamble/SFD + IFG = n */
    fail_unless_equals_int (len + 4 + 8 + 12, n);
    fail_unless (memcmp (buf, "\x01\x80\xc2\x00\x00\x01", 6) == 0);
    fail_unless (memcmp (buf + 6, src, 6) == 0);
    fail_unless (buf[12] == 0x88 && buf[13] == 0x08);
    fail_unless (buf[14] == 0x00 && buf[15] == (n & 1 ? 0x01 : 0x00));
    for (k = 16; k < len; k++)
      if (buf[k] != 0)
        fail ("byte %u of gap %u", k, n);
    fail_unless (buf[len] == 0xaa);     /* nothing written past the frame */
  }
  /* buffer too small / size out of range */
  fail_unless_equals_int (vmi_gap_frame_build (buf, 59, 84, src,
          VMI_GAP_OPCODE_RESERVED), 0);
  fail_unless_equals_int (vmi_gap_frame_build (buf, sizeof (buf), 1539, src,
          VMI_GAP_OPCODE_RESERVED), 0);
}

GST_END_TEST;

/* Algorithm 1's exact command sequence (thesis p. 73, lines 3-19) on
 * small numbers where every branch is taken: wait(n_min) when n_max < s <
 * n_max + n_min, wait(n_max) from s = n_max + n_min on (the boundary
 * included), wait(floor s) below, with the fraction carried. Send times
 * alone cannot tell these apart. */
GST_START_TEST (test_command_sequence_exact)
{
  static const struct
  {
    guint64 num, den;
    const gint seq[10];         /* > 0 send of that size, < 0 wait of -n */
  } cases[] = {
    /* s = 25: middle branch, then the floor */
    {125, 1, {100, -10, -15, 100, -10, -15, 100, -10, -15, 100}},
    /* s = 31 = n_max + n_min: n_max first */
    {131, 1, {100, -21, -10, 100, -21, -10, 100, -21, -10, 100}},
    /* s = 25.5: the half carries into every second period */
    {251, 2, {100, -10, -15, 100, -10, -16, 100, -10, -15, 100}},
  };
  guint c, k;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    VmiPacer p;

    fail_unless_equals_int (vmi_pacer_init_free_running (&p, 10, 21, 100,
            cases[c].num, cases[c].den), VMI_PACE_OK);
    for (k = 0; k < G_N_ELEMENTS (cases[c].seq); k++) {
      guint32 n = 0;
      VmiPaceCmd cmd = vmi_pacer_next (&p, &n);
      gint want = cases[c].seq[k];

      fail_unless_equals_int (cmd, want > 0 ? VMI_PACE_CMD_SEND :
          VMI_PACE_CMD_WAIT);
      fail_unless_equals_int (n, ABS (want));
    }
  }
}

GST_END_TEST;

/* ST 2110-21 limits at a rate where each divisor decides the floor:
 * 431000 packets/s: 9.98 (43200), 15.96 (27000), 19.95 (21600), 1436.7
 * (300) */
GST_START_TEST (test_limits_exact)
{
  VmiTimingLimits l;

  vmi_timing_limits (431000.0, &l);
  fail_unless_equals_int (l.cmax_narrow, 9);
  fail_unless_equals_int (l.vrx_narrow, 15);
  fail_unless_equals_int (l.cmax_wide, 19);
  fail_unless_equals_int (l.vrx_wide, 1436);
  /* the floors of the standard below */
  vmi_timing_limits (1000.0, &l);
  fail_unless_equals_int (l.cmax_narrow, 4);
  fail_unless_equals_int (l.vrx_narrow, 8);
  fail_unless_equals_int (l.cmax_wide, 16);
  fail_unless_equals_int (l.vrx_wide, 720);
}

GST_END_TEST;

/* analyzer maths on sequences with known answers */
GST_START_TEST (test_analysis_known)
{
  const double T = 1e9 / 134775.224775;
  const gsize n = 400000;
  double *t = g_new (double, n);
  VmiTimingReport r;
  gsize i;

  /* perfectly periodic */
  for (i = 0; i < n; i++)
    t[i] = i * T;
  fail_unless (vmi_timing_analyze (t, n, 0, &r));
  fail_unless (r.rate_estimated);
  fail_unless (fabs (r.rate_hz - 134775.224775) < 1e-3);
  fail_unless (fabs (r.pit_mean_ns - T) < 1e-6);
  fail_unless (fabs (r.pit_min_ns - T) < 1e-6 && fabs (r.pit_max_ns - T) < 1e-6);
  fail_unless (r.peak_period_jitter_ns < 1e-6);
  fail_unless (r.occupancy_span <= 1.0);
  fail_unless (r.occupancy_span < 1e-6);
  fail_unless (r.alt_jitter_ns < 1e-3);
  fail_unless_equals_int (r.cinst_max, 1);
  fail_unless_equals_int (r.vrx_max, 1);
  fail_unless_equals_int (r.windows, 2);
  fail_unless (r.window_min == 134775 || r.window_min == 134776);
  /* limits for 134775 packets/s: narrow 4/8, wide 16/720 */
  fail_unless (r.limits.cmax_narrow == 4 && r.limits.vrx_narrow == 8);
  fail_unless (r.limits.cmax_wide == 16 && r.limits.vrx_wide == 720);

  /* sinusoid of amplitude A: ALT-jitter A, span 2 f A, J_p 2 A sin(pi/P) */
  {
    const double A = 2000, P = 1000;
    for (i = 0; i < n; i++)
      t[i] = i * T + A * sin (2 * G_PI * i / P);
    fail_unless (vmi_timing_analyze (t, n, 1e9 / T, &r));
    fail_unless (fabs (r.alt_jitter_ns - A) < 1e-3 * A, "%g", r.alt_jitter_ns);
    fail_unless (fabs (r.occupancy_span - 2 * A / T) < 1e-3);
    fail_unless (fabs (r.peak_period_jitter_ns - 2 * A * sin (G_PI / P)) <
        1e-3 * A * sin (G_PI / P) + 1e-6);
    /* the least-squares rate sees through the sinusoid */
    fail_unless (vmi_timing_analyze (t, n, 0, &r));
    fail_unless (fabs (r.rate_hz * T / 1e9 - 1) < 1e-6);
    fail_unless (fabs (r.alt_jitter_ns - A) < 0.01 * A);
  }

  /* bursts of B packets 10 ns apart every B T: span B - 1 (+ 10 ns worth),
   * Cinst B, VRX B - 1 */
  {
    const guint B = 6;
    for (i = 0; i < n; i++)
      t[i] = (i / B) * B * T + (i % B) * 10.0;
    fail_unless (vmi_timing_analyze (t, n, 1e9 / T, &r));
    fail_unless (fabs (r.occupancy_span - ((B - 1) - (B - 1) * 10.0 / T))
        < 1e-6, "%g", r.occupancy_span);
    fail_unless_equals_int (r.cinst_max, B);
    fail_unless_equals_int (r.vrx_max, B - 1);
    fail_unless (fabs (r.pit_min_ns - 10.0) < 1e-6);
    fail_unless (fabs (r.pit_max_ns - (B * T - (B - 1) * 10.0)) < 1e-6);
    fail_unless (r.cinst_max > r.limits.cmax_narrow);
    fail_unless (r.cinst_max <= r.limits.cmax_wide);
  }

  /* controller qualification: periodic reference, W = 100.5 T. N_W = 1:
   * counts alternate 100/101 -> A_W = T/2; e_k in {T/2, T} -> C_W = T/4.
   * N_W = 2 averages them away: A_W = C_W = 0. */
  {
    double a, c;
    for (i = 0; i < n; i++)
      t[i] = i * T;
    fail_unless (vmi_timing_fc_bounds (t, n, 1e9 / T, 100.5 * T, 1, &a, &c));
    fail_unless (fabs (a - T / 2) < 1e-6, "A_W %g", a);
    fail_unless (fabs (c - T / 4) < 1e-6, "C_W %g", c);
    fail_unless (vmi_timing_fc_bounds (t, n, 1e9 / T, 100.5 * T, 2, &a, &c));
    fail_unless (a < 1e-6 && c < 1e-6, "A_W %g C_W %g", a, c);
    /* a trace shorter than N_W + 1 windows cannot qualify anything */
    fail_if (vmi_timing_fc_bounds (t, 150, 1e9 / T, 100.5 * T, 2, &a, &c));
  }

  /* percentiles: PITs 1..1000 ns -> nearest rank */
  for (i = 0; i < 1001; i++)
    t[i] = i * (i + 1) / 2.0;
  fail_unless (vmi_timing_analyze (t, 1001, 0, &r));
  fail_unless (r.pit_p1_ns == 10 && r.pit_p50_ns == 500 && r.pit_p99_ns == 990
      && r.pit_p999_ns == 999 && r.pit_min_ns == 1 && r.pit_max_ns == 1000);

  /* windows: 1000 packets/s over 3.5 s -> 3 complete windows of 1000 */
  for (i = 0; i < 3501; i++)
    t[i] = i * 1e6;
  fail_unless (vmi_timing_analyze (t, 3501, 0, &r));
  fail_unless (r.windows == 3 && r.window_min == 1000 && r.window_max == 1000);

  g_free (t);
}

GST_END_TEST;

GST_START_TEST (test_seq_stats)
{
  VmiSeqStats s = { 0 };
  static const guint16 seq[] = { 65533, 65534, 65535, 0, 2, 3, 3, 1, 4, 10 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (seq); i++)
    vmi_seq_stats_push (&s, seq[i]);
  /* 0 -> 2 (lost 1), 3 dup, 1 late, 4 -> 10 (lost 5) */
  fail_unless_equals_uint64 (s.errors, 4);
  fail_unless_equals_uint64 (s.lost, 6);
  fail_unless_equals_uint64 (s.late, 2);
}

GST_END_TEST;

static Suite *
pacing_core_suite (void)
{
  Suite *s = suite_create ("pacing-core");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_tau_exact);
  tcase_add_test (tc, test_preconditions);
  tcase_add_test (tc, test_safety_and_exactness);
  tcase_add_test (tc, test_free_running_1080i_on_wire);
  tcase_add_test (tc, test_controlled_follows_reference);
  tcase_add_test (tc, test_freq_ctl);
  tcase_add_test (tc, test_gap_frame);
  tcase_add_test (tc, test_analysis_known);
  tcase_add_test (tc, test_command_sequence_exact);
  tcase_add_test (tc, test_limits_exact);
  tcase_add_test (tc, test_seq_stats);
  return s;
}

GST_CHECK_MAIN (pacing_core);
