/* gst-vmi: unit tests of the SMPTE epoch arithmetic (gst/pacing/vmi-epoch.h)
 *
 * Every frame rate ST 2022-6 carries, 1000/1001 rates over days of frames,
 * the 2^32 wrap of the media clocks, and values computed independently
 * (Python fractions) for dates in 2026.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>

#include "vmi-epoch.h"

typedef struct
{
  gint n, d;
  guint32 rtp_step;             /* exact 27 MHz ticks per frame */
} Rate;

static const Rate rates[] = {
  {60, 1, 450000}, {60000, 1001, 450450}, {50, 1, 540000},
  {48, 1, 562500}, {48000, 1001, 563062}, {30, 1, 900000},
  {30000, 1001, 900900}, {25, 1, 1080000}, {24, 1, 1125000},
  {24000, 1001, 1126125},
};

/* 2026-11-25 in TAI ns, about where real streams run */
#define NOW_NS G_GUINT64_CONSTANT (1795651200000000000)
#define NS_PER_S G_GUINT64_CONSTANT (1000000000)

static void
test_init (void)
{
  VmiEpoch ep;

  g_assert_false (vmi_epoch_init (&ep, 0, 1));
  g_assert_false (vmi_epoch_init (&ep, 25, 0));
  g_assert_false (vmi_epoch_init (&ep, -25, 1));
  g_assert_true (vmi_epoch_init (&ep, 60000, 2002));
  g_assert_cmpuint (ep.fps_n, ==, 30000);
  g_assert_cmpuint (ep.fps_d, ==, 1001);
}

/* Values from Python's fractions: floor (k d / n * 27e6) mod 2^32 and
 * ceil (k d / n * 1e9) */
static void
test_known_values (void)
{
  static const struct
  {
    gint n, d;
    guint64 k;
    guint32 rtp;
    guint64 ns;
  } v[] = {
    {30000, 1001, G_GUINT64_CONSTANT (53234567891), 46658220,
        G_GUINT64_CONSTANT (1776260081963033334)},
    {60000, 1001, G_GUINT64_CONSTANT (106469135783), 47108670,
        G_GUINT64_CONSTANT (1776260081979716667)},
    {25, 1, G_GUINT64_CONSTANT (44400000000), 105185280,
        G_GUINT64_CONSTANT (1776000000000000000)},
    {24000, 1001, G_GUINT64_CONSTANT (123456789012), 2982198404u,
        G_GUINT64_CONSTANT (5149176908375500000)},
    {50, 1, G_GUINT64_CONSTANT (88811111111), 35812768,
        G_GUINT64_CONSTANT (1776222222220000000)},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (v); i++) {
    VmiEpoch ep;

    g_assert_true (vmi_epoch_init (&ep, v[i].n, v[i].d));
    g_assert_cmpuint (vmi_epoch_rtp (&ep, v[i].k), ==, v[i].rtp);
    g_assert_cmpuint (vmi_epoch_frame_time_ns (&ep, v[i].k), ==, v[i].ns);
    /* the frame a sender picks for its own alignment instant */
    g_assert_cmpuint (vmi_epoch_frame_at_or_after (&ep, v[i].ns), ==,
        v[i].k);
    g_assert_cmpuint (vmi_epoch_frame_at_or_after (&ep, v[i].ns + 1), ==,
        v[i].k + 1);
  }
}

/* Three days of frames from NOW at every rate: each RTP step exact, each
 * alignment instant within a ns of k d / n, and after every n frames
 * exactly d seconds more (nothing accumulates, nothing drifts). */
static void
test_days_no_drift (void)
{
  guint r;

  for (r = 0; r < G_N_ELEMENTS (rates); r++) {
    VmiEpoch ep;
    guint64 k0, k, frames;
    guint64 t0, t_prev;
    guint32 rtp_prev;
    guint64 wraps = 0;

    g_assert_true (vmi_epoch_init (&ep, rates[r].n, rates[r].d));
    frames = (guint64) 3 * 86400 * rates[r].n / rates[r].d;
    k0 = vmi_epoch_frame_at_or_after (&ep, NOW_NS);
    t0 = t_prev = vmi_epoch_frame_time_ns (&ep, k0);
    g_assert_cmpuint (t0, >=, NOW_NS);
    rtp_prev = vmi_epoch_rtp (&ep, k0);
    for (k = k0 + 1; k <= k0 + frames; k++) {
      guint64 t = vmi_epoch_frame_time_ns (&ep, k);
      guint32 rtp = vmi_epoch_rtp (&ep, k);
      guint64 period_floor = rates[r].d * NS_PER_S / rates[r].n;

      if ((guint32) (rtp - rtp_prev) != rates[r].rtp_step
          && rates[r].n != 48000)
        g_error ("%d/%d: frame %" G_GUINT64_FORMAT " RTP step %u", rates[r].n,
            rates[r].d, k, (guint32) (rtp - rtp_prev));
      if (rtp < rtp_prev)
        wraps++;
      if (t - t_prev != period_floor && t - t_prev != period_floor + 1)
        g_error ("%d/%d: frame %" G_GUINT64_FORMAT " period %" G_GUINT64_FORMAT,
            rates[r].n, rates[r].d, k, t - t_prev);
      if ((k - k0) % ep.fps_n == 0)
        g_assert_cmpuint (t - t0, ==, (k - k0) / ep.fps_n * ep.fps_d *
            NS_PER_S);
      t_prev = t;
      rtp_prev = rtp;
    }
    /* 27 MHz wraps every 159 s: three days wrap it ~1630 times */
    if (rates[r].n != 48000)
      g_assert_cmpuint (wraps, ==, ((guint64) vmi_epoch_rtp (&ep, k0) +
              frames * rates[r].rtp_step) >> 32);
  }
}

/* 48000/1001 has a non-integer step (563062.5): it alternates, and every
 * two frames advance exactly 1126125 ticks */
static void
test_half_tick_rate (void)
{
  VmiEpoch ep;
  guint64 k;

  g_assert_true (vmi_epoch_init (&ep, 48000, 1001));
  for (k = 1000000; k < 1000100; k++) {
    guint32 step = vmi_epoch_rtp (&ep, k + 1) - vmi_epoch_rtp (&ep, k);

    g_assert_true (step == 563062 || step == 563063);
    g_assert_cmpuint ((guint32) (vmi_epoch_rtp (&ep, k + 2) -
            vmi_epoch_rtp (&ep, k)), ==, 1126125);
    /* k even: k * 1001 / 48000 * 27e6 = k * 563062.5 is whole */
    if (k % 2 == 0)
      g_assert_cmpuint (vmi_epoch_rtp (&ep, k), ==,
          (guint32) (k / 2 * 1126125));
  }
}

/* Across the 2^32 boundary of each media clock the step stays exact */
static void
test_wrap (void)
{
  guint r;

  for (r = 0; r < G_N_ELEMENTS (rates); r++) {
    VmiEpoch ep;
    guint64 k, wraps;

    if (rates[r].n == 48000)
      continue;
    g_assert_true (vmi_epoch_init (&ep, rates[r].n, rates[r].d));
    /* the frames around the 1000th wrap */
    wraps = G_GUINT64_CONSTANT (1000) << 32;
    k = wraps / rates[r].rtp_step;
    g_assert_cmpuint (vmi_epoch_rtp (&ep, k), ==,
        (guint32) (k * rates[r].rtp_step));
    g_assert_cmpuint (vmi_epoch_rtp (&ep, k + 1), ==,
        (guint32) ((k + 1) * rates[r].rtp_step));
    g_assert_cmpuint (vmi_epoch_rtp (&ep, k + 1), <, vmi_epoch_rtp (&ep, k));
  }
}

/* The ST 2022-6 video timestamp on its CF clock: 1080i59.94 counts
 * 148.5/1.001 MHz words, 4950000 a frame; 1080p59.94 (3G) 297/1.001 MHz;
 * 720p50 148.5 MHz, 2970000 a frame */
static void
test_cf_clocks (void)
{
  VmiEpoch ep;
  guint64 k;

  g_assert_true (vmi_epoch_init (&ep, 30000, 1001));
  for (k = G_GUINT64_CONSTANT (53234567000); k < G_GUINT64_CONSTANT
      (53234567100); k++)
    g_assert_cmpuint (vmi_epoch_ticks (&ep, k, G_GUINT64_CONSTANT
            (148500000000), 1001), ==, (guint32) (k * 4950000));
  g_assert_true (vmi_epoch_init (&ep, 60000, 1001));
  for (k = G_GUINT64_CONSTANT (106469135000); k < G_GUINT64_CONSTANT
      (106469135100); k++)
    g_assert_cmpuint (vmi_epoch_ticks (&ep, k, G_GUINT64_CONSTANT
            (297000000000), 1001), ==, (guint32) (k * 4950000));
  g_assert_true (vmi_epoch_init (&ep, 50, 1));
  for (k = G_GUINT64_CONSTANT (88811111000); k < G_GUINT64_CONSTANT
      (88811111100); k++)
    g_assert_cmpuint (vmi_epoch_ticks (&ep, k, 148500000, 1), ==,
        (guint32) (k * 2970000));
}

/* frame_at_or_after is the first frame whose (rounded-up) instant is not
 * before t, for arbitrary t at every rate */
static void
test_at_or_after (void)
{
  GRand *rnd = g_rand_new_with_seed (2059);
  guint r, i;

  for (r = 0; r < G_N_ELEMENTS (rates); r++) {
    VmiEpoch ep;

    g_assert_true (vmi_epoch_init (&ep, rates[r].n, rates[r].d));
    g_assert_cmpuint (vmi_epoch_frame_at_or_after (&ep, 0), ==, 0);
    g_assert_cmpuint (vmi_epoch_frame_at_or_after (&ep, 1), ==, 1);
    for (i = 0; i < 100000; i++) {
      guint64 t = NOW_NS + ((guint64) g_rand_int (rnd) << 16 |
          g_rand_int_range (rnd, 0, 65536));
      guint64 k = vmi_epoch_frame_at_or_after (&ep, t);

      g_assert_cmpuint (vmi_epoch_frame_time_ns (&ep, k), >=, t);
      g_assert_cmpuint (vmi_epoch_frame_time_ns (&ep, k - 1), <, t);
    }
  }
  g_rand_free (rnd);
}

/* A receiver's view: the instant an RTP timestamp names, from an arrival
 * time up to 79 s either side of it */
static void
test_rtp_to_ns (void)
{
  static const gint64 deltas[] = { 0, 1, 700000, 5000000, -3000000,
    70 * (gint64) NS_PER_S, -70 * (gint64) NS_PER_S
  };
  guint r, i;

  for (r = 0; r < G_N_ELEMENTS (rates); r++) {
    VmiEpoch ep;
    guint64 k, t;

    g_assert_true (vmi_epoch_init (&ep, rates[r].n, rates[r].d));
    for (k = vmi_epoch_frame_at_or_after (&ep, NOW_NS);
        k < vmi_epoch_frame_at_or_after (&ep, NOW_NS) + 400; k += 7) {
      t = vmi_epoch_frame_time_ns (&ep, k);
      for (i = 0; i < G_N_ELEMENTS (deltas); i++) {
        gint64 named = vmi_epoch_rtp_to_ns (vmi_epoch_rtp (&ep, k),
            t + deltas[i]);

        /* floor (a * 27 MHz) names an instant at most one tick (37 ns)
         * before the alignment point a */
        g_assert_cmpint (named, <=, (gint64) t);
        g_assert_cmpint ((gint64) t - named, <=, 38);
      }
    }
  }
  /* the 27 MHz count 0 read just after the epoch and just before a wrap */
  g_assert_cmpint (vmi_epoch_rtp_to_ns (0, 1000), ==, 0);
  g_assert_cmpint (vmi_epoch_rtp_to_ns (27, 10 * NS_PER_S), ==, 1000);
  g_assert_cmpint (vmi_epoch_rtp_to_ns (0xffffffffu - 26, 5 * NS_PER_S), ==,
      -1000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/epoch/init", test_init);
  g_test_add_func ("/epoch/known-values", test_known_values);
  g_test_add_func ("/epoch/days-no-drift", test_days_no_drift);
  g_test_add_func ("/epoch/half-tick-rate", test_half_tick_rate);
  g_test_add_func ("/epoch/wrap", test_wrap);
  g_test_add_func ("/epoch/cf-clocks", test_cf_clocks);
  g_test_add_func ("/epoch/at-or-after", test_at_or_after);
  g_test_add_func ("/epoch/rtp-to-ns", test_rtp_to_ns);
  return g_test_run ();
}
