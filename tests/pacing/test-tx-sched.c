/* gst-vmi: unit tests of the shared transmit schedule (vmi-tx-sched.h)
 *
 * A simulated sender drives the schedule: it waits for each run's deadline
 * (a jump of the simulated clock), sends it, and spends a fixed time per
 * datagram. Checked exactly: the order of runs across 2 to 8 streams of
 * different rates and phases, each stream's runs on its own pacing
 * instants, datagram and frame counts, streams joining and leaving, short
 * sends, lateness, and the heap against a linear scan. Batched passes
 * (vmi_tx_sched_pass()) are driven by a simulated shared thread that
 * sleeps until the first run when none is due within the window and
 * wakes a fixed latency late: the exact send order and times, the
 * wake-ups saved, and lateness still counted.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>

#include "vmi-tx-sched.h"

#define BATCH_NS 100000
#define UNPACED 64

/* 1080p59.94: 4497 datagrams per 1001/60 ms */
#define P5994 G_GUINT64_CONSTANT (16683333)
#define N1080 4497

/* a frame queued a little before its start, as the elements queue them */
#define IN_TIME(start) ((start) - 1000)

typedef struct
{
  guint id, first, count;
  gint64 deadline, at;
} Sent;

/* Runs the schedule until @until (or until idle), @cost ns per datagram,
 * appending what left to @log (may be NULL). Returns the clock. */
static gint64
drive (VmiTxSched * s, gint64 now, gint64 until, gint64 cost, GArray * log)
{
  VmiTxRun r;

  while (vmi_tx_sched_peek (s, &r)) {
    Sent e;

    if (r.deadline > now)
      now = r.deadline;
    if (now >= until)
      break;
    e.id = r.id;
    e.first = r.first;
    e.count = r.count;
    e.deadline = r.deadline;
    e.at = now;
    if (log)
      g_array_append_val (log, e);
    vmi_tx_sched_sent (s, r.id, r.count, now);
    now += cost * r.count;
  }
  return now;
}

static void
test_args (void)
{
  VmiTxSched s;
  VmiTxRun r;
  VmiTxSchedStats st;

  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_false (vmi_tx_sched_peek (&s, &r));
  g_assert_false (vmi_tx_sched_begin_frame (&s, VMI_TX_SCHED_MAX_STREAMS, 0,
          P5994, N1080, TRUE, IN_TIME (0)));
  g_assert_false (vmi_tx_sched_begin_frame (&s, 0, 0, P5994, 0, TRUE,
      IN_TIME (0)));
  g_assert_false (vmi_tx_sched_begin_frame (&s, 0, 0, 0, N1080, TRUE,
      IN_TIME (0)));
  g_assert_false (vmi_tx_sched_peek (&s, &r));
  /* no pacing needs no period */
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 5, 0, 100, FALSE,
      IN_TIME (5)));
  g_assert_true (vmi_tx_sched_peek (&s, &r));
  g_assert_cmpuint (r.id, ==, 0);
  g_assert_cmpuint (r.first, ==, 0);
  g_assert_cmpuint (r.count, ==, UNPACED);
  g_assert_cmpint (r.deadline, ==, 5);
  /* not a stream with a frame: ignored */
  g_assert_false (vmi_tx_sched_sent (&s, 1, 10, 0));
  g_assert_false (vmi_tx_sched_sent (&s, 0, 0, 0));
  g_assert_false (vmi_tx_sched_sent (&s, 0, UNPACED, 5));
  g_assert_true (vmi_tx_sched_sent (&s, 0, 36, 5));
  g_assert_false (vmi_tx_sched_busy (&s, 0));
  g_assert_false (vmi_tx_sched_peek (&s, &r));
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 1);
  g_assert_cmpuint (st.datagrams, ==, 100);
  g_assert_cmpuint (st.runs, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 0);
}

/* One 1080p59.94 stream alone: runs of 26 datagrams (4497 x 100 us /
 * 16.68 ms), each leaving on its pacing instant start + period * first / n */
static void
test_one_stream_even (void)
{
  VmiTxSched s;
  GArray *log = g_array_new (FALSE, FALSE, sizeof (Sent));
  VmiTxSchedStats st;
  guint i, total = 0;

  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 3, 1000, P5994, N1080, TRUE,
      IN_TIME (1000)));
  drive (&s, 0, G_MAXINT64, 0, log);
  /* 4497 / 26 = 172 runs and a 25th... 172 * 26 = 4472, +25 */
  g_assert_cmpuint (log->len, ==, 173);
  for (i = 0; i < log->len; i++) {
    Sent *e = &g_array_index (log, Sent, i);

    g_assert_cmpuint (e->id, ==, 3);
    g_assert_cmpuint (e->first, ==, i * 26);
    g_assert_cmpuint (e->count, ==, i < 172 ? 26 : 25);
    g_assert_cmpint (e->deadline, ==, 1000 + (gint64) (P5994 * i * 26 /
            N1080));
    g_assert_cmpint (e->at, ==, e->deadline);
    total += e->count;
  }
  g_assert_cmpuint (total, ==, N1080);
  vmi_tx_sched_get_stats (&s, 3, &st);
  g_assert_cmpuint (st.frames, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 0);
  g_assert_cmpuint (st.runs, ==, 173);
  g_assert_cmpuint (st.runs_late, ==, 0);
  g_assert_cmpint (st.late_max, ==, 0);
  g_assert_cmpuint (st.datagrams, ==, N1080);
  g_array_free (log, TRUE);
}

typedef struct
{
  guint n;                      /* datagrams per frame */
  guint64 period;               /* ns */
  gint64 phase;                 /* first frame's start */
} Stream;

/* 2 to 8 streams of different formats and phases, each sending frames
 * back to back for @frames frames; zero cost: every run leaves exactly on
 * its instant, runs in deadline order (id order on ties), every stream's
 * datagrams counted exactly. */
static void
run_streams (const Stream * sd, guint n_streams, guint frames, gint64 cost,
    GArray * log, VmiTxSched * s)
{
  guint done[VMI_TX_SCHED_MAX_STREAMS] = { 0 };
  gint64 now = 0;
  guint i, live = n_streams;
  VmiTxRun r;

  vmi_tx_sched_init (s, BATCH_NS, UNPACED);
  for (i = 0; i < n_streams; i++)
    g_assert_true (vmi_tx_sched_begin_frame (s, i, sd[i].phase,
            sd[i].period, sd[i].n, TRUE, IN_TIME (sd[i].phase)));
  while (live && vmi_tx_sched_peek (s, &r)) {
    Sent e = { r.id, r.first, r.count, r.deadline, MAX (now, r.deadline) };

    now = e.at;
    g_array_append_val (log, e);
    if (vmi_tx_sched_sent (s, r.id, r.count, now)) {
      /* the next frame of that stream, one period after the last */
      if (++done[r.id] < frames)
        g_assert_true (vmi_tx_sched_begin_frame (s, r.id, sd[r.id].phase +
                (gint64) (sd[r.id].period * done[r.id]), sd[r.id].period,
                sd[r.id].n, TRUE, IN_TIME (sd[r.id].phase +
                (gint64) (sd[r.id].period * done[r.id]))));
      else
        live--;
    }
    now += cost * r.count;
  }
}

static const Stream eight[] = {
  {N1080, P5994, 0},            /* 1080p59.94 */
  {N1080, P5994, 2085417},      /* an eighth of a frame later */
  {N1080, 20000000, 333},       /* 1080p50 */
  {4497 / 2 + 1, 33366667, 7},  /* 1080i29.97's rate, half the datagrams */
  {2247, 16683333, 4170833},    /* 720p59.94 */
  {2247, 20000000, 9999999},    /* 720p50 */
  {N1080, 16666667, 12345678},  /* 1080p60 */
  {1, 40000000, 5},             /* one datagram a frame */
};

static void
check_interleave (guint n_streams)
{
  VmiTxSched s;
  GArray *log = g_array_new (FALSE, FALSE, sizeof (Sent));
  guint64 counted[8] = { 0 };
  guint next[8] = { 0 }, frame[8] = { 0 };
  guint i;
  const guint frames = 3;

  run_streams (eight, n_streams, frames, 0, log, &s);
  for (i = 0; i < log->len; i++) {
    Sent *e = &g_array_index (log, Sent, i);
    const Stream *sd = &eight[e->id];
    guint batch = MAX (1, (guint) ((guint64) sd->n * BATCH_NS / sd->period));

    g_assert_cmpuint (e->id, <, n_streams);
    /* each stream's runs in order, on its own instants */
    g_assert_cmpuint (e->first, ==, next[e->id]);
    g_assert_cmpuint (e->count, ==, MIN (batch, sd->n - e->first));
    g_assert_cmpint (e->deadline, ==, sd->phase + (gint64) (sd->period *
            frame[e->id]) + (gint64) (sd->period * e->first / sd->n));
    g_assert_cmpint (e->at, ==, e->deadline);
    /* merged: earliest deadline first, lower id on a tie */
    if (i > 0) {
      Sent *p = &g_array_index (log, Sent, i - 1);
      g_assert_true (p->deadline < e->deadline || (p->deadline ==
              e->deadline && (p->id < e->id || p->id == e->id)));
    }
    counted[e->id] += e->count;
    next[e->id] += e->count;
    if (next[e->id] == sd->n) {
      next[e->id] = 0;
      frame[e->id]++;
    }
  }
  for (i = 0; i < n_streams; i++) {
    VmiTxSchedStats st;

    vmi_tx_sched_get_stats (&s, i, &st);
    g_assert_cmpuint (counted[i], ==, (guint64) frames * eight[i].n);
    g_assert_cmpuint (st.datagrams, ==, (guint64) frames * eight[i].n);
    g_assert_cmpuint (st.frames, ==, frames);
    g_assert_cmpuint (st.frames_late, ==, 0);
    g_assert_cmpuint (st.runs_late, ==, 0);
    g_assert_cmpuint (frame[i], ==, frames);
  }
  g_array_free (log, TRUE);
}

static void
test_interleave (void)
{
  guint n;

  for (n = 2; n <= 8; n++)
    check_interleave (n);
}

/* Two streams on the same instants: the lower id first, every time */
static void
test_tie (void)
{
  VmiTxSched s;
  GArray *log = g_array_new (FALSE, FALSE, sizeof (Sent));
  guint i;

  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 9, 0, P5994, N1080, TRUE,
      IN_TIME (0)));
  g_assert_true (vmi_tx_sched_begin_frame (&s, 4, 0, P5994, N1080, TRUE,
      IN_TIME (0)));
  drive (&s, 0, G_MAXINT64, 0, log);
  g_assert_cmpuint (log->len, ==, 2 * 173);
  for (i = 0; i < log->len; i++)
    g_assert_cmpuint (g_array_index (log, Sent, i).id, ==, i % 2 ? 9 : 4);
  g_array_free (log, TRUE);
}

/* 8 x 1080p59.94 (2.156 M datagrams/s) at 200 ns a datagram (43 % of the
 * thread): every run leaves within its 5 % (834 us), nothing late; at
 * 400 ns (86 %) still; at 500 ns (108 %) the streams fall behind and are
 * counted late. */
static void
test_load (void)
{
  Stream same[8];
  VmiTxSched s;
  GArray *log = g_array_new (FALSE, FALSE, sizeof (Sent));
  guint i, k;
  const gint64 costs[] = { 200, 400, 500 };

  for (i = 0; i < 8; i++) {
    same[i].n = N1080;
    same[i].period = P5994;
    same[i].phase = (gint64) (P5994 * i / 8);
  }
  for (k = 0; k < G_N_ELEMENTS (costs); k++) {
    guint64 late = 0, frames = 0;

    g_array_set_size (log, 0);
    run_streams (same, 8, 20, costs[k], log, &s);
    for (i = 0; i < 8; i++) {
      VmiTxSchedStats st;

      vmi_tx_sched_get_stats (&s, i, &st);
      g_assert_cmpuint (st.datagrams, ==, 20 * N1080);
      frames += st.frames;
      late += st.frames_late;
      if (costs[k] < 500)
        g_assert_cmpint (st.late_max, <=, (gint64) P5994 / 20);
    }
    g_assert_cmpuint (frames, ==, 8 * 20);
    if (costs[k] < 500)
      g_assert_cmpuint (late, ==, 0);
    else
      g_assert_cmpuint (late, >, 0);
  }
  g_array_free (log, TRUE);
}

/* Lateness, exactly: one stream of 4 datagrams over 400 ns, one a run
 * (batch 100 ns), sent at 150 ns a datagram: the runs leave 0, 50, 100,
 * 150 ns behind their instants; late beyond 400 / 20 = 20 ns. */
static void
test_lateness_exact (void)
{
  VmiTxSched s;
  VmiTxSchedStats st;

  vmi_tx_sched_init (&s, 100, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 0, 400, 4, TRUE,
      IN_TIME (0)));
  g_assert_cmpint (drive (&s, 0, G_MAXINT64, 150, NULL), ==, 600);
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 1);
  g_assert_cmpuint (st.runs, ==, 4);
  g_assert_cmpuint (st.runs_late, ==, 3);
  g_assert_cmpint (st.late_max, ==, 150);
  /* 20 ns late is in time, 21 is not */
  vmi_tx_sched_reset_stats (&s, 0);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 0, 400, 2, TRUE,
      IN_TIME (0)));
  g_assert_false (vmi_tx_sched_sent (&s, 0, 1, 20));
  g_assert_true (vmi_tx_sched_sent (&s, 0, 1, 200 + 21));
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 1);
  g_assert_cmpuint (st.runs, ==, 2);
  g_assert_cmpuint (st.runs_late, ==, 1);
  g_assert_cmpint (st.late_max, ==, 21);
  /* without pacing only the first run has a deadline */
  vmi_tx_sched_reset_stats (&s, 0);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 1000, 400, 200, FALSE,
      IN_TIME (1000)));
  g_assert_false (vmi_tx_sched_sent (&s, 0, 64, 1000));
  g_assert_false (vmi_tx_sched_sent (&s, 0, 64, 9000));
  g_assert_false (vmi_tx_sched_sent (&s, 0, 64, 19000));
  g_assert_true (vmi_tx_sched_sent (&s, 0, 8, 29000));
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames_late, ==, 0);
  g_assert_cmpuint (st.runs, ==, 1);
  g_assert_cmpuint (st.datagrams, ==, 200);
}

/* A frame that reaches the schedule 5 ms after its start (upstream late):
 * behind; the runs due by then leave at once to catch up, not counted
 * late; the runs after are the schedule's again */
static void
test_behind (void)
{
  VmiTxSched s;
  GArray *log = g_array_new (FALSE, FALSE, sizeof (Sent));
  VmiTxSchedStats st;
  guint i, catch_up = 0;

  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 0, P5994, N1080, TRUE,
          5000000));
  /* 100 ns a datagram: the backlog of 5 ms (52 runs) leaves in 135 us */
  drive (&s, 5000000, G_MAXINT64, 100, log);
  for (i = 0; i < log->len; i++) {
    Sent *e = &g_array_index (log, Sent, i);

    if (e->deadline < 5000000) {
      catch_up++;
      g_assert_cmpint (e->at, ==, 5000000 + (gint64) e->first * 100);
    }
  }
  /* runs due before 5 ms: first * 16683333 / 4497 < 5000000 */
  g_assert_cmpuint (catch_up, ==, 52);
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 1);
  g_assert_cmpuint (st.frames_behind, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 0);
  g_assert_cmpuint (st.runs, ==, 173 - 52);
  g_assert_cmpuint (st.runs_late, ==, 0);
  /* the first run after the backlog waited for it: due at 5015758, left
   * at 5000000 + 1352 x 100 */
  g_assert_cmpint (st.late_max, ==, 5000000 + 52 * 26 * 100 -
      (gint64) (P5994 * 52 * 26 / N1080));
  g_assert_cmpint (st.late_max, ==, 119442);

  /* queued just in time (5 % = 834166 ns): not behind (stream 1: stream
   * 0's frame above ended after 0, which would make it behind) */
  g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 0, P5994, 10, TRUE,
          (gint64) P5994 / 20));
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.frames_behind, ==, 0);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 0, P5994, 10, TRUE,
          (gint64) P5994 / 20 + 1));
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.frames_behind, ==, 1);
  g_array_free (log, TRUE);
}

/* Frames of a stream as a sink queues them: launch time and when queued */
typedef struct
{
  gint64 start, ready;
} Frame;

#define PLAN_FRAMES 8

typedef struct
{
  guint n_frames;
  Frame f[PLAN_FRAMES];
} Plan;

/* @plan on time: frame k at @phase + k periods, queued just before */
static void
plan_on_time (Plan * plan, gint64 phase, guint n_frames)
{
  guint k;

  plan->n_frames = n_frames;
  for (k = 0; k < n_frames; k++) {
    plan->f[k].start = phase + (gint64) (P5994 * k);
    plan->f[k].ready = IN_TIME (plan->f[k].start);
  }
}

/* Runs 1080p59.94 streams (paced) through their plans as the engine does
 * (a stream's next frame begins as its last datagram leaves), @cost ns a
 * datagram; the thread is held off for @hold_ns once, at the first run due
 * at or after @hold_at. */
static void
run_plans (VmiTxSched * s, const Plan * plans, guint n_streams, gint64 cost,
    gint64 hold_at, gint64 hold_ns)
{
  guint done[VMI_TX_SCHED_MAX_STREAMS] = { 0 };
  gboolean held = hold_ns == 0;
  gint64 now = G_MININT64;
  VmiTxRun r;
  guint i;

  vmi_tx_sched_init (s, BATCH_NS, UNPACED);
  for (i = 0; i < n_streams; i++)
    g_assert_true (vmi_tx_sched_begin_frame (s, i, plans[i].f[0].start,
            P5994, N1080, TRUE, plans[i].f[0].ready));
  while (vmi_tx_sched_peek (s, &r)) {
    now = MAX (now, r.deadline);
    if (!held && now >= hold_at) {
      now += hold_ns;
      held = TRUE;
    }
    if (vmi_tx_sched_sent (s, r.id, r.count, now)
        && ++done[r.id] < plans[r.id].n_frames) {
      const Frame *f = &plans[r.id].f[done[r.id]];

      g_assert_true (vmi_tx_sched_begin_frame (s, r.id, f->start, P5994,
              N1080, TRUE, f->ready));
    }
    now += cost * r.count;
  }
}

/* the deadline of the last run of a 1080p59.94 frame starting at @start:
 * datagram 4472 (172 runs of 26) */
#define LAST_RUN(start) ((start) + (gint64) (P5994 * 4472 / N1080))

/* A sink re-anchors a late frame at R; its next frame keeps its own launch
 * time, which lies before the re-anchored one is done: by half a period
 * (queued before its start), and by two periods (queued after it, as when
 * upstream delivers a backlog). The frames that cannot start on time are
 * behind, none late (the engine sends each right after the one before);
 * a stream on time beside it has nothing late or behind. */
static void
test_reanchored (void)
{
  VmiTxSched s;
  VmiTxSchedStats st;
  Plan plans[2];
  const gint64 R = 10000000;
  guint k;

  /* half a period: frame 1 starts at R + P / 2, frame 0 is done at
   * R + P x 4472 / 4497 (8.25 ms later) */
  plans[0].n_frames = 4;
  plans[0].f[0] = (Frame) { R, R - 1000 };
  plans[0].f[1] = (Frame) { R + (gint64) P5994 / 2, R + 1000 };
  for (k = 2; k < 4; k++)
    plans[0].f[k] = (Frame) { R + (gint64) (P5994 * (2 * k - 1) / 2),
      R + 1000 };
  plan_on_time (&plans[1], (gint64) P5994 / 3, 5);
  run_plans (&s, plans, 2, 50, 0, 0);
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 4);
  g_assert_cmpuint (st.datagrams, ==, 4 * N1080);
  g_assert_cmpuint (st.frames_behind, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 0);
  g_assert_cmpuint (st.runs_late, ==, 0);
  /* frame 1: its first run (measured from frame 0's last run) and those
   * due after that (datagram 2236 on); the 85 between caught up */
  g_assert_cmpuint (st.runs, ==, 3 * 173 + 1 + (173 - 86));
  g_assert_cmpint (st.late_max, <=, (gint64) P5994 / 20);
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.frames, ==, 5);
  g_assert_cmpuint (st.frames_behind, ==, 0);
  g_assert_cmpuint (st.frames_late, ==, 0);
  g_assert_cmpuint (st.runs, ==, 5 * 173);

  /* two periods: frame 1 starts at R - P, queued at R + 1 us (after its
   * start), frame 2 at R, both wholly due before frame 0 is done: caught
   * up at once, behind; frame 3 (R + P) starts 0.36 ms after its launch
   * time, after the two backlogs (4497 x 50 ns each): not behind */
  plans[0].n_frames = 5;
  for (k = 1; k < 5; k++)
    plans[0].f[k] = (Frame) { R + (gint64) P5994 * ((gint) k - 2), R + 1000 };
  run_plans (&s, plans, 2, 50, 0, 0);
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 5);
  g_assert_cmpuint (st.datagrams, ==, 5 * N1080);
  g_assert_cmpuint (st.frames_behind, ==, 2);
  g_assert_cmpuint (st.frames_late, ==, 0);
  g_assert_cmpuint (st.runs_late, ==, 0);
  g_assert_cmpint (st.late_max, <=, (gint64) P5994 / 20);
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.frames, ==, 5);
  g_assert_cmpuint (st.frames_behind, ==, 0);
  g_assert_cmpuint (st.frames_late, ==, 0);
  g_assert_cmpuint (st.runs_late, ==, 0);
  /* its runs waited for the two backlogs (EDF sends the earlier due
   * first), 2 x 4497 x 50 ns at most */
  g_assert_cmpint (st.late_max, >, 0);
  g_assert_cmpint (st.late_max, <=, 2 * N1080 * 50);
}

/* The thread's own lateness stays its own. Held off 20 ms (1.2 periods)
 * in stream 0's frame 3: the frames of both streams with runs due in the
 * 20 ms are late, stream 0's frame 4 too although it only begins when
 * frame 3 is done (its launch time lies after frame 3's last run's
 * deadline, so it is not behind). Held off 2 ms at the last run of a
 * re-anchored frame: that frame is late, and so is the overlapping one
 * after it (measured from that last run's deadline), which is also
 * behind. */
static void
test_held_off (void)
{
  VmiTxSched s;
  VmiTxSchedStats st;
  Plan plans[2];
  const gint64 R = 10000000;
  guint k;

  plan_on_time (&plans[0], 0, 8);
  plan_on_time (&plans[1], (gint64) P5994 / 3, 8);
  run_plans (&s, plans, 2, 50, (gint64) P5994 * 13 / 4, 20000000);
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 8);
  g_assert_cmpuint (st.frames_behind, ==, 0);
  /* frames 3 (from 3.25 P) and 4 (due until 3.25 P + 1.2 P = 4.45 P):
   * frame 3 is done at 4.45 P, but was due to be at 3.99 P, before frame
   * 4's start (4 P): frame 4's lateness is the thread's */
  g_assert_cmpuint (st.frames_late, ==, 2);
  /* its first run after the hold: due at most a run (92.8 us) after it */
  g_assert_cmpint (st.late_max, >, 20000000 - (gint64) (P5994 * 26 / N1080));
  g_assert_cmpint (st.late_max, <=, 20000000);
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.frames, ==, 8);
  g_assert_cmpuint (st.frames_behind, ==, 0);
  /* frames 2 (to 3.33 P), 3 and 4 (from 4.33 P) */
  g_assert_cmpuint (st.frames_late, ==, 3);

  /* the re-anchored stream of test_reanchored (half a period) held off
   * 2 ms at frame 0's last run */
  plans[0].n_frames = 4;
  plans[0].f[0] = (Frame) { R, R - 1000 };
  for (k = 1; k < 4; k++)
    plans[0].f[k] = (Frame) { R + (gint64) (P5994 * (2 * k - 1) / 2),
      R + 1000 };
  plan_on_time (&plans[1], (gint64) P5994 / 3, 5);
  run_plans (&s, plans, 2, 50, LAST_RUN (R), 2000000);
  vmi_tx_sched_get_stats (&s, 0, &st);
  g_assert_cmpuint (st.frames, ==, 4);
  g_assert_cmpuint (st.frames_behind, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 2);
  g_assert_cmpint (st.late_max, >=, 2000000);
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.frames_behind, ==, 0);
  /* stream 1's frame 0 (P / 3 to 4 P / 3) has runs due in the 2 ms */
  g_assert_cmpuint (st.frames_late, ==, 1);
}

/* A full queue: the rest of a run keeps its deadline and comes next, its
 * lateness counted once, by its first datagram */
static void
test_short_send (void)
{
  VmiTxSched s;
  VmiTxRun r;
  VmiTxSchedStats st;

  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 0, P5994, N1080, TRUE,
      IN_TIME (0)));
  g_assert_true (vmi_tx_sched_begin_frame (&s, 2, 50000, P5994, N1080,
          TRUE, IN_TIME (50000)));
  g_assert_true (vmi_tx_sched_peek (&s, &r));
  g_assert_cmpuint (r.id, ==, 1);
  g_assert_cmpuint (r.count, ==, 26);
  g_assert_false (vmi_tx_sched_sent (&s, 1, 10, 0));
  g_assert_true (vmi_tx_sched_peek (&s, &r));
  g_assert_cmpuint (r.id, ==, 1);
  g_assert_cmpuint (r.first, ==, 10);
  g_assert_cmpuint (r.count, ==, 16);
  g_assert_cmpint (r.deadline, ==, 0);
  /* the rest leaves 90 us later: not a late run of its own */
  g_assert_false (vmi_tx_sched_sent (&s, 1, 16, 90000));
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.runs, ==, 1);
  g_assert_cmpuint (st.runs_late, ==, 0);
  g_assert_cmpuint (st.datagrams, ==, 26);
  /* stream 2 (due at 50 us) before stream 1's second run (at 92.8 us) */
  g_assert_true (vmi_tx_sched_peek (&s, &r));
  g_assert_cmpuint (r.id, ==, 2);
  g_assert_cmpint (r.deadline, ==, 50000);
  g_assert_false (vmi_tx_sched_sent (&s, 2, 26, 90000));
  g_assert_true (vmi_tx_sched_peek (&s, &r));
  g_assert_cmpuint (r.id, ==, 1);
  g_assert_cmpuint (r.first, ==, 26);
  g_assert_cmpint (r.deadline, ==, (gint64) (P5994 * 26 / N1080));
}

/* Streams joining and leaving: a stream that begins mid-run is merged
 * from its first instant on, one cancelled mid-frame never shows again,
 * and neither changes when the others' runs leave. */
static void
test_join_leave (void)
{
  VmiTxSched s, ref;
  GArray *log = g_array_new (FALSE, FALSE, sizeof (Sent)), *rlog =
      g_array_new (FALSE, FALSE, sizeof (Sent));
  VmiTxSchedStats st;
  gint64 now;
  guint i, j, left = 0, stream1 = 0, stream5 = 0;

  /* the reference: stream 0 alone */
  vmi_tx_sched_init (&ref, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&ref, 0, 0, P5994, N1080, TRUE,
      IN_TIME (0)));
  drive (&ref, 0, G_MAXINT64, 0, rlog);

  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 0, P5994, N1080, TRUE,
      IN_TIME (0)));
  g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 1000, P5994, N1080, TRUE,
      IN_TIME (1000)));
  now = drive (&s, 0, 5000000, 0, log);
  /* stream 5 joins at 5 ms with a frame starting then */
  g_assert_true (vmi_tx_sched_begin_frame (&s, 5, now, P5994, 2247, TRUE,
      IN_TIME (now)));
  now = drive (&s, now, 10000000, 0, log);
  /* stream 1 leaves at 10 ms, mid-frame */
  g_assert_true (vmi_tx_sched_busy (&s, 1));
  vmi_tx_sched_cancel (&s, 1);
  g_assert_false (vmi_tx_sched_busy (&s, 1));
  left = log->len;
  drive (&s, now, G_MAXINT64, 0, log);

  /* stream 0's runs are the reference's, on the same instants */
  for (i = 0, j = 0; i < log->len; i++) {
    Sent *e = &g_array_index (log, Sent, i);

    if (e->id == 0) {
      Sent *r = &g_array_index (rlog, Sent, j++);
      g_assert_cmpuint (e->first, ==, r->first);
      g_assert_cmpuint (e->count, ==, r->count);
      g_assert_cmpint (e->at, ==, r->at);
    } else if (e->id == 1) {
      g_assert_cmpuint (i, <, left);
      stream1 += e->count;
    } else {
      g_assert_cmpuint (e->id, ==, 5);
      g_assert_cmpint (e->deadline, >=, 5000000);
      g_assert_cmpint (e->at, ==, e->deadline);
      stream5 += e->count;
    }
  }
  g_assert_cmpuint (j, ==, rlog->len);
  g_assert_cmpuint (stream5, ==, 2247);
  /* stream 1 sent the runs due before 10 ms: 104 runs of 26 (the 104th
   * is due at 1000 + 16683333 * 2678 / 4497 = 9936060 ns) */
  g_assert_cmpuint (stream1, ==, (G_GUINT64_CONSTANT (9998999) * N1080 /
          P5994 / 26 + 1) * 26);
  g_assert_cmpuint (stream1, ==, 2704);
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.frames, ==, 0);
  g_assert_cmpuint (st.datagrams, ==, stream1);
  vmi_tx_sched_get_stats (&s, 5, &st);
  g_assert_cmpuint (st.frames, ==, 1);
  g_assert_cmpuint (st.frames_late, ==, 0);
  vmi_tx_sched_reset_stats (&s, 1);
  vmi_tx_sched_get_stats (&s, 1, &st);
  g_assert_cmpuint (st.datagrams, ==, 0);
  /* begin_frame on a busy stream restarts it */
  g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 0, P5994, N1080, TRUE,
      IN_TIME (0)));
  g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 7, P5994, 100, TRUE,
      IN_TIME (7)));
  g_assert_cmpuint (s.n_heap, ==, 1);
  g_array_free (log, TRUE);
  g_array_free (rlog, TRUE);
}

/* The heap against a linear scan, 64 streams, random begins, cancels and
 * sends */
static void
test_heap_random (void)
{
  VmiTxSched s;
  GRand *rand = g_rand_new_with_seed (29);
  guint step;

  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  for (step = 0; step < 200000; step++) {
    guint op = g_rand_int_range (rand, 0, 10);
    guint id = g_rand_int_range (rand, 0, VMI_TX_SCHED_MAX_STREAMS);
    VmiTxRun r;
    gint best = -1;
    gint64 best_due = 0;
    guint i;

    if (op < 3) {
      g_assert_true (vmi_tx_sched_begin_frame (&s, id,
              g_rand_int_range (rand, 0, 1000000), 1000000 +
              g_rand_int_range (rand, 0, 1000), 1 + g_rand_int_range (rand, 0,
                  500), g_rand_boolean (rand), 0));
    } else if (op == 3) {
      vmi_tx_sched_cancel (&s, id);
    } else if (vmi_tx_sched_peek (&s, &r)) {
      vmi_tx_sched_sent (&s, r.id, 1 + g_rand_int_range (rand, 0, r.count),
          r.deadline + g_rand_int_range (rand, 0, 100000));
    }
    for (i = 0; i < VMI_TX_SCHED_MAX_STREAMS; i++) {
      const VmiTxSchedStream *st = &s.streams[i];
      /* the schedule's order: a stream catching up by when its last run
       * left (vmi-tx-sched.h), else by deadline */
      if (st->active && (best < 0 || st->key < best_due)) {
        best = i;
        best_due = st->key;
      }
    }
    if (best < 0) {
      g_assert_false (vmi_tx_sched_peek (&s, &r));
    } else {
      g_assert_true (vmi_tx_sched_peek (&s, &r));
      g_assert_cmpuint (r.id, ==, best);
      g_assert_cmpint (r.deadline, ==, s.streams[best].due);
      g_assert_cmpint (s.streams[best].key, >=, s.streams[best].due);
    }
  }
  g_rand_free (rand);
}

/* ---- batched passes ---- */

/* A simulated shared thread (vmi-tx-shared.c's loop): @cost ns per
 * datagram, woken @wake_lat ns after the instant it slept until */
typedef struct
{
  VmiTxSched *s;
  gint64 clock, cost, wake_lat;
  GArray *log;
  guint wakeups, passes;
  /* send fails for this stream (-1: none); send finds the queue full
   * once at this call (0: never) */
  gint fail_id;
  guint full_at, calls;
  guint done[VMI_TX_SCHED_MAX_STREAMS], failed[VMI_TX_SCHED_MAX_STREAMS];
} Sim;

static gint64
sim_now (gpointer user)
{
  return ((Sim *) user)->clock;
}

static gint
sim_send (gpointer user, const VmiTxRun * run)
{
  Sim *m = user;
  Sent e = { run->id, run->first, run->count, run->deadline, m->clock };

  if (++m->calls == m->full_at)
    return 0;
  if ((gint) run->id == m->fail_id)
    return -1;
  g_array_append_val (m->log, e);
  m->clock += m->cost * run->count;
  return (gint) run->count;
}

static void
sim_done (gpointer user, guint id, gboolean complete)
{
  Sim *m = user;

  if (complete)
    m->done[id]++;
  else
    m->failed[id]++;
}

static const VmiTxSchedOps sim_ops = { sim_now, sim_send, sim_done };

static void
sim_run (Sim * m, gint64 window)
{
  VmiTxRun r;
  gboolean full;

  while (vmi_tx_sched_peek (m->s, &r)) {
    if (r.deadline - m->clock > window) {
      m->clock = r.deadline + m->wake_lat;
      m->wakeups++;
      continue;
    }
    m->passes++;
    vmi_tx_sched_pass (m->s, m->clock, window, 64, &sim_ops, m, &full);
  }
}

/* 5 streams of 1080p59.94 starting 0, 3, 11, 30 and 50 us apart, one
 * frame each, a thread woken 15 us late, 100 ns a datagram, the 20 us
 * window: each of the 173 runs of a frame is one wake-up for the streams
 * at 0, 3, 11 and 30 us (the one at 30 us leaving early, within the
 * window) and one for the stream at 50 us: 346 wake-ups, where without
 * the window the one at 30 us needs one more (519: the runs at 3 and
 * 11 us are already due when the thread wakes 15 us late); every send at
 * its exact instant, every stream on its pacing instants within the
 * window and the wake-up latency. */
static void
test_batched_exact (void)
{
  static const gint64 phase[] = { 0, 3000, 11000, 50000, 30000 };
  /* the order of a pass: by deadline */
  static const guint order[] = { 0, 1, 2, 4, 3 };
  VmiTxSched s;
  Sim m = { &s, -1000000, 100, 15000, NULL, 0, 0, -1, 0, 0 };
  guint i, k, at_i = 0;
  gint64 late_max[5] = { 0 };

  m.log = g_array_new (FALSE, FALSE, sizeof (Sent));
  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  for (i = 0; i < 5; i++)
    g_assert_true (vmi_tx_sched_begin_frame (&s, i, phase[i], P5994, N1080,
            TRUE, IN_TIME (phase[i])));
  sim_run (&m, VMI_TX_SCHED_WINDOW_NS);
  g_assert_cmpuint (m.wakeups, ==, 2 * 173);
  g_assert_cmpuint (m.passes, ==, 2 * 173);
  g_assert_cmpuint (m.log->len, ==, 5 * 173);
  for (k = 0; k < 173; k++) {
    gint64 d = (gint64) (P5994 * k * 26 / N1080);
    guint count = k < 172 ? 26 : 25;
    /* the first pass wakes for stream 0, the second for stream 3 */
    gint64 at = d + 15000;

    for (i = 0; i < 5; i++) {
      Sent *e = &g_array_index (m.log, Sent, at_i++);
      guint id = order[i];

      if (id == 3)
        at = d + 50000 + 15000;
      g_assert_cmpuint (e->id, ==, id);
      g_assert_cmpuint (e->first, ==, k * 26);
      g_assert_cmpuint (e->count, ==, count);
      g_assert_cmpint (e->deadline, ==, phase[id] + d);
      g_assert_cmpint (e->at, ==, at);
      /* early by the window at most, late by the wake-up and the pass */
      g_assert_cmpint (e->at - e->deadline, >=, -VMI_TX_SCHED_WINDOW_NS);
      g_assert_cmpint (e->at - e->deadline, <=, 15000 + 4 * 26 * 100);
      late_max[id] = MAX (late_max[id], e->at - e->deadline);
      at += 100 * count;
    }
  }
  for (i = 0; i < 5; i++) {
    VmiTxSchedStats st;

    vmi_tx_sched_get_stats (&s, i, &st);
    g_assert_cmpuint (m.done[i], ==, 1);
    g_assert_cmpuint (st.frames, ==, 1);
    g_assert_cmpuint (st.datagrams, ==, N1080);
    g_assert_cmpuint (st.runs, ==, 173);
    g_assert_cmpuint (st.frames_late, ==, 0);
    g_assert_cmpint (st.late_max, ==, late_max[i]);
  }
  /* stream 0 and 3 wake the thread: 15 us; 1 and 2 after 1 and 2 runs of
   * the pass; 4 (at 30 us) leaves 7.2 us early: never late */
  g_assert_cmpint (late_max[0], ==, 15000);
  g_assert_cmpint (late_max[1], ==, 15000 + 2600 - 3000);
  g_assert_cmpint (late_max[2], ==, 15000 + 5200 - 11000);
  g_assert_cmpint (late_max[3], ==, 15000);
  g_assert_cmpint (late_max[4], ==, 0);

  /* the same without a window */
  g_array_set_size (m.log, 0);
  m.clock = -1000000;
  m.wakeups = m.passes = 0;
  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  for (i = 0; i < 5; i++)
    g_assert_true (vmi_tx_sched_begin_frame (&s, i, phase[i], P5994, N1080,
            TRUE, IN_TIME (phase[i])));
  sim_run (&m, 0);
  g_assert_cmpuint (m.wakeups, ==, 3 * 173);
  g_assert_cmpuint (m.log->len, ==, 5 * 173);
  g_array_free (m.log, TRUE);
}

/* The window hides no lateness: a thread woken 900 us late (more than
 * the 834 us of 5 %) sends the stream's late run first, and the frame is
 * late with late-max 900 us exactly, as without a window */
static void
test_batched_late (void)
{
  VmiTxSched s;
  Sim m = { &s, 0, 100, 900000, NULL, 0, 0, -1, 0, 0 };
  gint64 window[] = { VMI_TX_SCHED_WINDOW_NS, 0 };
  guint w;

  m.log = g_array_new (FALSE, FALSE, sizeof (Sent));
  for (w = 0; w < G_N_ELEMENTS (window); w++) {
    VmiTxSchedStats st;

    m.clock = -1000000;
    vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
    g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 0, P5994, N1080, TRUE,
            IN_TIME (0)));
    sim_run (&m, window[w]);
    vmi_tx_sched_get_stats (&s, 0, &st);
    g_assert_cmpuint (st.frames, ==, 1);
    g_assert_cmpuint (st.frames_late, ==, 1);
    g_assert_cmpint (st.late_max, ==, 900000);
    g_assert_cmpuint (st.datagrams, ==, N1080);
  }
  g_array_free (m.log, TRUE);
}

/* A failed send ends that stream's frame (done, not complete) and the
 * pass goes on with the others; a full queue ends the pass with the run
 * still due */
static void
test_batched_errors (void)
{
  VmiTxSched s;
  Sim m = { &s, 0, 100, 0, NULL, 0, 0, 1, 2, 0 };
  VmiTxRun r;
  gboolean full;
  guint runs;

  m.log = g_array_new (FALSE, FALSE, sizeof (Sent));
  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 0, P5994, N1080, TRUE,
          IN_TIME (0)));
  g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 1000, P5994, N1080, TRUE,
          IN_TIME (1000)));
  g_assert_true (vmi_tx_sched_begin_frame (&s, 2, 2000, P5994, N1080, TRUE,
          IN_TIME (2000)));
  /* call 1: stream 0 sent; call 2: full */
  runs = vmi_tx_sched_pass (&s, 0, VMI_TX_SCHED_WINDOW_NS, 64, &sim_ops, &m,
      &full);
  g_assert_cmpuint (runs, ==, 2);
  g_assert_true (full);
  g_assert_cmpuint (m.log->len, ==, 1);
  g_assert_true (vmi_tx_sched_peek (&s, &r));
  g_assert_cmpuint (r.id, ==, 1);
  g_assert_cmpuint (r.first, ==, 0);
  /* call 3: stream 1 fails, call 4: stream 2 sent; stream 0's next run is
   * 96 us away, outside the window */
  runs = vmi_tx_sched_pass (&s, 2600, VMI_TX_SCHED_WINDOW_NS, 64, &sim_ops,
      &m, &full);
  g_assert_cmpuint (runs, ==, 2);
  g_assert_false (full);
  g_assert_cmpuint (m.failed[1], ==, 1);
  g_assert_false (vmi_tx_sched_busy (&s, 1));
  g_assert_cmpuint (m.log->len, ==, 2);
  g_assert_cmpuint (g_array_index (m.log, Sent, 1).id, ==, 2);
  /* the pass's bound */
  m.fail_id = -1;
  runs = vmi_tx_sched_pass (&s, 10 * P5994, 0, 3, &sim_ops, &m, &full);
  g_assert_cmpuint (runs, ==, 3);
  g_assert_cmpuint (m.log->len, ==, 5);
  g_array_free (m.log, TRUE);
}

/* A stream catching up does not hold the others: stream 1's frame is
 * queued 10 ms after its start (behind), its 104 runs due by then leave
 * at once, at 400 ns a datagram 1.08 ms of sending; stream 0, on time,
 * still has each run leave within two runs of the catching-up stream
 * (20.8 us) of its instant and is not late; stream 1's own runs due
 * after 10 ms wait for its backlog, and its frame is late. */
static void
test_catch_up_fair (void)
{
  VmiTxSched s;
  Sim m = { &s, -1000000, 400, 0, NULL, 0, 0, -1, 0, 0 };
  const gint64 queued = 10000000;
  gboolean injected = FALSE, full;
  VmiTxSchedStats st0, st1;
  VmiTxRun r;

  m.log = g_array_new (FALSE, FALSE, sizeof (Sent));
  vmi_tx_sched_init (&s, BATCH_NS, UNPACED);
  g_assert_true (vmi_tx_sched_begin_frame (&s, 0, 0, P5994, N1080, TRUE,
          IN_TIME (0)));
  while (vmi_tx_sched_peek (&s, &r)) {
    if (!injected && r.deadline > queued) {
      m.clock = MAX (m.clock, queued);
      g_assert_true (vmi_tx_sched_begin_frame (&s, 1, 0, P5994, N1080,
              TRUE, queued));
      injected = TRUE;
      continue;
    }
    if (r.deadline - m.clock > VMI_TX_SCHED_WINDOW_NS) {
      m.clock = r.deadline;
      continue;
    }
    vmi_tx_sched_pass (&s, m.clock, VMI_TX_SCHED_WINDOW_NS, 64, &sim_ops, &m,
        &full);
  }
  vmi_tx_sched_get_stats (&s, 0, &st0);
  vmi_tx_sched_get_stats (&s, 1, &st1);
  g_assert_cmpuint (st0.datagrams, ==, N1080);
  g_assert_cmpuint (st1.datagrams, ==, N1080);
  g_assert_cmpuint (st1.frames_behind, ==, 1);
  /* its own runs due after 10 ms wait for its backlog: its lateness */
  g_assert_cmpuint (st1.frames_late, ==, 1);
  g_assert_cmpuint (st0.frames_late, ==, 0);
  g_assert_cmpint (st0.late_max, <=, 2 * 26 * 400);
  g_array_free (m.log, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tx-sched/args", test_args);
  g_test_add_func ("/tx-sched/one-stream-even", test_one_stream_even);
  g_test_add_func ("/tx-sched/interleave", test_interleave);
  g_test_add_func ("/tx-sched/tie", test_tie);
  g_test_add_func ("/tx-sched/load", test_load);
  g_test_add_func ("/tx-sched/lateness-exact", test_lateness_exact);
  g_test_add_func ("/tx-sched/behind", test_behind);
  g_test_add_func ("/tx-sched/reanchored", test_reanchored);
  g_test_add_func ("/tx-sched/held-off", test_held_off);
  g_test_add_func ("/tx-sched/short-send", test_short_send);
  g_test_add_func ("/tx-sched/join-leave", test_join_leave);
  g_test_add_func ("/tx-sched/heap-random", test_heap_random);
  g_test_add_func ("/tx-sched/batched-exact", test_batched_exact);
  g_test_add_func ("/tx-sched/batched-late", test_batched_late);
  g_test_add_func ("/tx-sched/batched-errors", test_batched_errors);
  g_test_add_func ("/tx-sched/catch-up-fair", test_catch_up_fair);
  return g_test_run ();
}
