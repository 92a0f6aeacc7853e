/* gst-vmi: unit tests of vmi-jitter's statistics core on synthetic series
 * (tools/vmi-jitter-stats.c): ΔT figures, spike detection, and the
 * receiver buffer b > 2 f J; the tracefs line parser on lines as the
 * kernel prints them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <math.h>

#include "vmi-jitter-stats.h"
#include "vmi-jitter-trace.h"

#define T_1080I 7410.0
#define F_1080I (4497.0 * 30000.0 / 1001.0)

static gboolean
close_to (double a, double b)
{
  return fabs (a - b) <= 1e-9 * MAX (1.0, fabs (b));
}

#define assert_close(a, b) \
  fail_unless (close_to ((a), (b)), "%s = %.12g, expected %.12g", #a, \
      (double) (a), (double) (b))

/* The dummy loop of the papers: one period per iteration, four stalls
 * that make ΔT = 15 µs. */
static double *
dummy_series (gsize n, const gsize * at, guint n_at, double spike)
{
  double *t = g_new (double, n);
  gsize i;
  guint k;

  t[0] = 0;
  for (i = 0; i + 1 < n; i++) {
    double dt = T_1080I;
    for (k = 0; k < n_at; k++)
      if (at[k] == i)
        dt = spike;
    t[i + 1] = t[i] + dt;
  }
  return t;
}

GST_START_TEST (test_dummy_four_spikes)
{
  static const gsize at[] = { 100, 300, 500, 999 };
  double *t = dummy_series (1001, at, 4, 15000);
  double p = 4.0 / 1000, mean = T_1080I + p * (15000 - T_1080I);
  VmiJitterSummary s;
  gsize idx[8];

  fail_unless (vmi_jitter_summarize (t, 1001, T_1080I, 0, 0, &s));
  fail_unless_equals_int (s.count, 1000);
  fail_if (s.period_estimated);
  assert_close (s.period_ns, T_1080I);
  assert_close (s.mean_ns, mean);
  /* two values: σ² = p (1 - p) (b - a)² */
  assert_close (s.stddev_ns, sqrt (p * (1 - p)) * (15000 - T_1080I));
  assert_close (s.min_ns, T_1080I);
  /* nearest rank: p99 is rank 990 (7410), p99.9 rank 999 (a spike) */
  assert_close (s.p50_ns, T_1080I);
  assert_close (s.p99_ns, T_1080I);
  assert_close (s.p999_ns, 15000);
  assert_close (s.max_ns, 15000);
  assert_close (s.jitter_ns, 15000 - T_1080I);
  /* default threshold T + 5 µs */
  assert_close (s.spike_threshold_ns, T_1080I + 5000);
  fail_unless_equals_int (s.spikes, 4);
  fail_unless_equals_int (vmi_jitter_spikes (t, 1001, s.spike_threshold_ns,
          idx, 8), 4);
  fail_unless_equals_int (idx[0], 100);
  fail_unless_equals_int (idx[1], 300);
  fail_unless_equals_int (idx[2], 500);
  fail_unless_equals_int (idx[3], 999);
  /* f = 1 / T: 2 f J = 2 * 7590 / 7410 = 2.05 -> 3 datagrams, 3 T */
  assert_close (s.stream_rate_hz, 1e9 / T_1080I);
  fail_unless_equals_int (s.buffer_packets, 3);
  assert_close (s.buffer_us, 3 * T_1080I / 1000);

  /* the same host jitter for a 1080i59.94 stream: 2 f J = 2.046 -> 3 */
  fail_unless (vmi_jitter_summarize (t, 1001, T_1080I, 0, F_1080I, &s));
  assert_close (s.stream_rate_hz, F_1080I);
  fail_unless_equals_int (s.buffer_packets, 3);
  assert_close (s.buffer_us, 3 / F_1080I * 1e6);
  g_free (t);
}

GST_END_TEST;

GST_START_TEST (test_spike_threshold)
{
  static const gsize at[] = { 0, 7, 8 };
  double *t = dummy_series (10, at, 3, 20000);
  VmiJitterSummary s;
  gsize idx[2];

  /* ΔT equal to the threshold is not a spike; the first and last are */
  fail_unless_equals_int (vmi_jitter_spikes (t, 10, 20000, idx, 2), 0);
  fail_unless_equals_int (vmi_jitter_spikes (t, 10, 19999.5, idx, 2), 3);
  /* only max_idx indices are written; the count is the total */
  fail_unless_equals_int (idx[0], 0);
  fail_unless_equals_int (idx[1], 7);
  fail_unless_equals_int (vmi_jitter_spikes (t, 10, T_1080I, NULL, 0), 3);
  fail_unless_equals_int (vmi_jitter_spikes (t, 10, T_1080I - 1, NULL, 0),
      9);

  fail_unless (vmi_jitter_summarize (t, 10, T_1080I, 12000, 0, &s));
  assert_close (s.spike_threshold_ns, 12000);
  fail_unless_equals_int (s.spikes, 3);
  g_free (t);
}

GST_END_TEST;

GST_START_TEST (test_buffer_formula)
{
  /* b is the smallest integer strictly above 2 f J */
  fail_unless_equals_int (vmi_jitter_buffer_packets (1e5, 0), 1);
  fail_unless_equals_int (vmi_jitter_buffer_packets (1e5, 9999), 2);
  fail_unless_equals_int (vmi_jitter_buffer_packets (1e5, 10000), 3);
  fail_unless_equals_int (vmi_jitter_buffer_packets (1e5, 10001), 3);
  /* 1 ms at 1080i59.94: 269.55 -> 270 datagrams */
  fail_unless_equals_int (vmi_jitter_buffer_packets (F_1080I, 1e6), 270);
  /* the thesis' software-pacing spikes (40 µs): 10.78 -> 11 */
  fail_unless_equals_int (vmi_jitter_buffer_packets (F_1080I, 40000), 11);
}

GST_END_TEST;

/* A packet sink: datagrams on a 10 µs grid, the receiver stalls so that
 * datagrams 50..59 arrive together with the 59th. */
GST_START_TEST (test_sink_burst)
{
  double t[200];
  VmiJitterSummary s;
  gsize i;

  for (i = 0; i < 200; i++)
    t[i] = (i >= 50 && i < 59 ? 59 : i) * 10000.0;
  fail_unless (vmi_jitter_summarize (t, 200, 10000, 0, 0, &s));
  fail_unless_equals_int (s.count, 199);
  assert_close (s.mean_ns, 10000);
  assert_close (s.min_ns, 0);
  assert_close (s.max_ns, 100000);
  /* one ΔT of 10 T and nine of 0 around a grid of T */
  assert_close (s.stddev_ns, sqrt ((81e8 + 9e8) / 199));
  assert_close (s.jitter_ns, 90000);
  fail_unless_equals_int (s.spikes, 1);
  /* f = 1e5: 2 f J = 18 exactly -> 19 */
  fail_unless_equals_int (s.buffer_packets, 19);
  assert_close (s.buffer_us, 190);
}

GST_END_TEST;

GST_START_TEST (test_estimated_period)
{
  double t[1000];
  VmiJitterSummary s;
  gsize i;

  for (i = 0; i < 1000; i++)
    t[i] = i * 1000.0;
  fail_unless (vmi_jitter_summarize (t, 1000, 0, 0, 0, &s));
  fail_unless (s.period_estimated);
  fail_unless (fabs (s.period_ns - 1000) < 1e-6);
  fail_unless (s.jitter_ns < 1e-6);
  fail_unless_equals_int (s.spikes, 0);
  fail_unless_equals_int (s.buffer_packets, 1);

  /* nothing to measure */
  fail_if (vmi_jitter_summarize (t, 1, 0, 0, 0, &s));
  t[1] = 0;
  fail_if (vmi_jitter_summarize (t, 2, 0, 0, 0, &s));
}

GST_END_TEST;

GST_START_TEST (test_stream_period)
{
  double t[1000];
  guint32 pos[1000];
  gsize i, n = 0;

  /* every third datagram lost: the period is still T, the mean ΔT 3 T */
  for (i = 0; i < 3000; i += 3) {
    pos[n] = (guint32) i + 70000;
    t[n++] = 5e6 + i * T_1080I;
  }
  assert_close (vmi_jitter_stream_period (t, pos, n), T_1080I);
  /* a receiver 10 T late for the first half: the slope moves, a little */
  for (i = 0; i < n / 2; i++)
    t[i] += 10 * T_1080I;
  fail_unless (vmi_jitter_stream_period (t, pos, n) < T_1080I);
  fail_unless (vmi_jitter_stream_period (t, pos, n) > 0.99 * T_1080I);
  fail_unless (vmi_jitter_stream_period (t, pos, 1) == 0);
  t[1] = t[0];
  fail_unless (vmi_jitter_stream_period (t, pos, 2) == 0);
}

GST_END_TEST;

GST_START_TEST (test_trace_lines)
{
  VmiJitterEvent ev;

  fail_unless (vmi_jitter_trace_parse_line ("          <idle>-0       [001] "
          "d.h1.  1234.567890: irq_handler_entry: irq=25 name=virtio0-input.0",
          &ev));
  fail_unless_equals_int (ev.kind, VMI_JITTER_EV_IRQ);
  fail_unless_equals_int (ev.cpu, 1);
  assert_close (ev.ts_ns, 1234567890000.0);
  /* a task name with brackets and blanks; no irq-info column */
  fail_unless (vmi_jitter_trace_parse_line ("  kworker/u4:2 [x]-77 [000]   "
          "17.000001: netif_receive_skb: dev=lo skbaddr=0x0 len=1400", &ev));
  fail_unless_equals_int (ev.kind, VMI_JITTER_EV_NET);
  fail_unless_equals_int (ev.cpu, 0);
  assert_close (ev.ts_ns, 17000001000.0);
  fail_unless (vmi_jitter_trace_parse_line ("  vmi-jitter-9 [012] d..2. "
          "5.000002: sched_switch: prev_comm=vmi-jitter prev_pid=9", &ev));
  fail_unless_equals_int (ev.kind, VMI_JITTER_EV_SCHED);
  fail_unless_equals_int (ev.cpu, 12);
  fail_unless (vmi_jitter_trace_parse_line ("  ksoftirqd/0-14 [000] ..s1. "
          "5.000003: napi_poll: napi poll on napi struct 0x0 for device lo "
          "work 1 budget 64", &ev));
  fail_unless_equals_int (ev.kind, VMI_JITTER_EV_NAPI);
  /* headers, other events, garbage */
  fail_if (vmi_jitter_trace_parse_line ("# tracer: nop", &ev));
  fail_if (vmi_jitter_trace_parse_line ("  a-1 [000] .... 1.000000: "
          "irq_handler_exit: irq=1 ret=handled", &ev));
  fail_if (vmi_jitter_trace_parse_line ("  a-1 [000] .... x: y", &ev));
  fail_if (vmi_jitter_trace_parse_line ("", &ev));
}

GST_END_TEST;

static guint64
mono_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* vmi-host-check's timer wake-ups: absolute instants a period apart, so
 * that the last wake-up comes n periods after the start plus its own
 * lateness, and the CPU per wake-up is the calling thread's, which cannot
 * exceed the wall time per wake-up. */
GST_START_TEST (test_sleep_loop)
{
  const gsize n = 200;
  const guint64 period = 100000;
  guint64 late[200], t0, t1;
  double cpu_ns = -1;

  t0 = mono_ns ();
  fail_unless_equals_int (vmi_jitter_sleep_loop (late, n, period, &cpu_ns),
      n);
  t1 = mono_ns ();
  fail_unless (t1 - t0 >= n * period + late[n - 1],
      "%" G_GUINT64_FORMAT " ns for %" G_GSIZE_FORMAT " wake-ups, the last "
      "%" G_GUINT64_FORMAT " ns late", t1 - t0, n, late[n - 1]);
  fail_unless (cpu_ns > 0 && cpu_ns <= (double) (t1 - t0) / n,
      "%.0f ns of CPU per wake-up, %.0f ns of wall time", cpu_ns,
      (double) (t1 - t0) / n);
}

GST_END_TEST;

static Suite *
jitter_stats_suite (void)
{
  Suite *s = suite_create ("jitter-stats");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_dummy_four_spikes);
  tcase_add_test (tc, test_spike_threshold);
  tcase_add_test (tc, test_buffer_formula);
  tcase_add_test (tc, test_sink_burst);
  tcase_add_test (tc, test_estimated_period);
  tcase_add_test (tc, test_stream_period);
  tcase_add_test (tc, test_trace_lines);
  tcase_add_test (tc, test_sleep_loop);
  return s;
}

GST_CHECK_MAIN (jitter_stats);
