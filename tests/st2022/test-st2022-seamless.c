/* gst-vmi: unit tests of the ST 2022-7 seamless merge
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Two simulated paths deliver the datagrams of a stream at 1080i59.94's
 * rate (one every 7418 ns), each with its own losses, delay, reordering and
 * duplicates; the merge's output must be every datagram at least one path
 * delivered, once, in order, and its counters exact.
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022-seamless.h"

#define PERIOD_NS 7418
#define MS (G_GUINT64_CONSTANT (1000000))
#define PA ST2022_SEAMLESS_PRIMARY
#define PB ST2022_SEAMLESS_SECONDARY

typedef struct
{
  guint64 t;
  guint path;
  guint stream;                 /* 0, 1: which key / sequence start */
  guint idx;                    /* datagram index in its stream */
} Ev;

typedef struct
{
  GArray *out;                  /* guint32: stream << 24 | idx */
  guint resyncs;
  guint64 last_arrival;
} Sink;

static void
on_emit (gpointer user_data, const guint8 * data, gsize len,
    guint64 arrival_ns, St2022SeamlessPath path, gconstpointer tag)
{
  Sink *s = user_data;
  guint32 v;

  fail_unless_equals_int (len, 40);
  /* the push's tag only for a datagram that leaves from its memory */
  fail_unless (tag == NULL || tag == data);
  memcpy (&v, data, 4);
  /* the payload is the datagram's own, whichever path it came from */
  fail_unless (data[4] == (guint8) v && data[39] == (guint8) (v >> 8));
  g_array_append_val (s->out, v);
  s->last_arrival = arrival_ns;
}

static void
on_resync (gpointer user_data)
{
  Sink *s = user_data;

  s->resyncs++;
}

static const St2022SeamlessCallbacks cbs = { on_emit, on_resync };

static const guint64 keys[2] = { 0x11112222u, 0x33334444u };
static const guint16 seq0[2] = { 65000, 1234 };

static St2022SeamlessVerdict
push_ev (St2022Seamless * m, const Ev * e)
{
  guint8 d[40];
  guint32 v = e->stream << 24 | e->idx;

  memset (d, 0, sizeof (d));
  memcpy (d, &v, 4);
  d[4] = (guint8) v;
  d[39] = (guint8) (v >> 8);
  return st2022_seamless_push (m, e->path, keys[e->stream],
      (guint16) (seq0[e->stream] + e->idx), d, sizeof (d), e->t, d);
}

static gint
ev_cmp (gconstpointer a, gconstpointer b)
{
  const Ev *x = a, *y = b;

  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  if (x->path != y->path)
    return x->path < y->path ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

typedef struct
{
  guint n;
  guint64 skew_ns[2];           /* added to each path's arrival */
  const guint8 *lost[2];        /* per index, or NULL */
  gboolean swap_pairs[2];       /* reorder: 2k+1 before 2k */
  guint dup_every[2];           /* a second copy of every Nth */
  guint window_ms;
  guint reach;                  /* st2022_seamless_set_reach() */
} Scenario;

/* Runs @sc; fills @sink's output and @st; returns the verdict counts */
static void
run (const Scenario * sc, Sink * sink, St2022SeamlessStats * st,
    guint verdicts[6])
{
  GArray *ev = g_array_new (FALSE, FALSE, sizeof (Ev));
  St2022Seamless *m;
  guint i, p;
  guint64 last = 0;

  for (p = 0; p < 2; p++)
    for (i = 0; i < sc->n; i++) {
      Ev e = { 0, p, 0, i };
      guint j = i;

      if (sc->lost[p] && sc->lost[p][i])
        continue;
      if (sc->swap_pairs[p])
        j = i ^ 1;
      if (j >= sc->n)
        j = i;
      e.t = (guint64) j * PERIOD_NS + sc->skew_ns[p] + 1000;
      g_array_append_val (ev, e);
      if (sc->dup_every[p] && i % sc->dup_every[p] == 3) {
        e.t += 3;
        g_array_append_val (ev, e);
      }
    }
  g_array_sort (ev, ev_cmp);

  sink->out = g_array_new (FALSE, FALSE, sizeof (guint32));
  sink->resyncs = 0;
  m = st2022_seamless_new (sc->window_ms, sc->window_ms * 270, &cbs, sink);
  fail_unless (m != NULL);
  st2022_seamless_set_reach (m, sc->reach);
  memset (verdicts, 0, 6 * sizeof (guint));
  for (i = 0; i < ev->len; i++) {
    const Ev *e = &g_array_index (ev, Ev, i);

    verdicts[push_ev (m, e)]++;
    last = e->t;
  }
  /* long after: everything accounted */
  st2022_seamless_advance (m, last + 2 * sc->window_ms * MS);
  st2022_seamless_get_stats (m, st);
  st2022_seamless_free (m);
  g_array_free (ev, TRUE);
}

/* With a reach: the output is exactly the indices not lost on both, each
 * once, none of them @reach or more ahead of the lowest not out yet */
static void
check_output_reach (const Scenario * sc, Sink * sink)
{
  guint8 *want = g_new0 (guint8, sc->n);
  guint i, k, low = 0, n = 0;

  for (i = 0; i < sc->n; i++) {
    want[i] = !(sc->lost[0] && sc->lost[0][i] && sc->lost[1]
            && sc->lost[1][i]);
    n += want[i];
  }
  fail_unless_equals_int (sink->out->len, n);
  for (k = 0; k < sink->out->len; k++) {
    guint32 v = g_array_index (sink->out, guint32, k);

    fail_unless (v < sc->n && want[v] == 1, "index %u out twice or never "
        "sent", v);
    while (low < sc->n && want[low] != 1)
      low++;
    fail_unless (v - low < sc->reach, "index %u out while %u is not", v, low);
    want[v] = 2;
  }
  g_free (want);
}

/* the output is exactly the indices not lost on both, in order */
static void
check_output (const Scenario * sc, Sink * sink)
{
  guint i, k = 0;

  if (sc->reach) {
    check_output_reach (sc, sink);
    return;
  }

  for (i = 0; i < sc->n; i++) {
    gboolean a = !(sc->lost[0] && sc->lost[0][i]);
    gboolean b = !(sc->lost[1] && sc->lost[1][i]);

    if (!a && !b)
      continue;
    fail_unless (k < sink->out->len, "output ends at %u, index %u due", k, i);
    fail_unless_equals_int (g_array_index (sink->out, guint32, k), i);
    k++;
  }
  fail_unless_equals_int (k, sink->out->len);
}

static guint
count (const guint8 * a, const guint8 * b, guint n, gboolean both)
{
  guint i, c = 0;

  for (i = 0; i < n; i++) {
    gboolean la = a && a[i], lb = b && b[i];

    if (both ? (la && lb) : (la != lb))
      c++;
  }
  return c;
}

static guint
count_one (const guint8 * a, guint n)
{
  guint i, c = 0;

  for (i = 0; a && i < n; i++)
    c += a[i] != 0;
  return c;
}

/* Random losses at @rate in [from, to), none in @keep_clear of @other */
static guint8 *
make_loss (guint n, guint seed, gdouble rate, const guint8 * other,
    gboolean disjoint)
{
  guint8 *l = g_new0 (guint8, n);
  GRand *r = g_rand_new_with_seed (seed);
  guint i;

  /* the first and last datagrams arrive on both: the stream's edges */
  for (i = 32; i + 32 < n; i++)
    if (g_rand_double (r) < rate && !(disjoint && other && other[i]))
      l[i] = 1;
  g_rand_free (r);
  return l;
}

static void
check_counts (const Scenario * sc, const St2022SeamlessStats * st)
{
  guint p;

  for (p = 0; p < 2; p++) {
    guint i, dups = 0;

    for (i = 0; sc->dup_every[p] && i < sc->n; i++)
      if (i % sc->dup_every[p] == 3 && !(sc->lost[p] && sc->lost[p][i]))
        dups++;
    fail_unless_equals_uint64 (st->packets[p], sc->n -
        count_one (sc->lost[p], sc->n) + dups);
    fail_unless_equals_uint64 (st->duplicate[p], dups);
    fail_unless_equals_uint64 (st->lost[p], count_one (sc->lost[p], sc->n));
    fail_unless_equals_uint64 (st->late[p], 0);
    fail_unless_equals_uint64 (st->mismatch[p], 0);
  }
  fail_unless_equals_uint64 (st->recovered,
      count (sc->lost[0], sc->lost[1], sc->n, FALSE));
  fail_unless_equals_uint64 (st->lost_both,
      count (sc->lost[0], sc->lost[1], sc->n, TRUE));
  fail_unless_equals_uint64 (st->emitted,
      sc->n - count (sc->lost[0], sc->lost[1], sc->n, TRUE));
  fail_unless_equals_uint64 (st->resyncs, 0);
}

/* Runs @sc with the losses @la and @lb (freed) and checks its output and
 * every counter */
static void
run_checked (Scenario * sc, guint8 * la, guint8 * lb,
    St2022SeamlessStats * st, guint v[6])
{
  Sink sink;

  sc->lost[0] = la;
  sc->lost[1] = lb;
  run (sc, &sink, st, v);
  check_output (sc, &sink);
  check_counts (sc, st);
  g_array_free (sink.out, TRUE);
  g_free (la);
  g_free (lb);
  sc->lost[0] = sc->lost[1] = NULL;
}

GST_START_TEST (test_clean)
{
  Scenario sc = { 20000, {0, 0}, {NULL, NULL}, {FALSE, FALSE}, {0, 0}, 20 };
  St2022SeamlessStats st;
  guint v[6];

  run_checked (&sc, NULL, NULL, &st, v);
  fail_unless_equals_int (v[ST2022_SEAMLESS_FIRST], sc.n);
  fail_unless_equals_int (v[ST2022_SEAMLESS_COPY], sc.n);
  fail_unless_equals_uint64 (st.differential_max_ns, 0);
  fail_unless_equals_uint64 (st.differential_count, sc.n);
}

GST_END_TEST;

/* 5 % disjoint losses on each path plus a burst of 400 on the primary:
 * nothing lost on both, thousands recovered */
static void
run_disjoint (Scenario * sc, St2022SeamlessStats * st, guint v[6])
{
  guint8 *la = make_loss (sc->n, 1, 0.05, NULL, FALSE), *lb;
  guint i;

  for (i = 10000; i < 10400; i++)
    la[i] = 1;
  lb = make_loss (sc->n, 2, 0.05, la, TRUE);
  run_checked (sc, la, lb, st, v);
  fail_unless_equals_uint64 (st->lost_both, 0);
  fail_unless (st->recovered > 4000);
}

/* disjoint losses (5 % each, plus a burst of 400 on one path), the
 * secondary 30 ms behind, across the 16-bit wrap */
GST_START_TEST (test_disjoint_skew)
{
  Scenario sc = { 40000, {0, 30 * MS}, {NULL, NULL}, {FALSE, FALSE}, {0, 0},
    50
  };
  St2022SeamlessStats st;
  guint8 *la, *lb;
  guint v[6], i;

  run_disjoint (&sc, &st, v);
  /* the secondary's copies came 30 ms after the primary's */
  fail_unless_equals_uint64 (st.differential_max_ns, 30 * MS);
  fail_unless_equals_uint64 (st.differential_sum_ns,
      st.differential_count * 30 * MS);
  /* and the leading path's datagrams waited for the secondary to fill
   * its gaps: held, never lost */
  fail_unless (st.held > 0);

  /* the same with the primary behind */
  sc.skew_ns[0] = 30 * MS;
  sc.skew_ns[1] = 0;
  la = make_loss (sc.n, 3, 0.05, NULL, FALSE);
  lb = make_loss (sc.n, 4, 0.05, la, TRUE);
  for (i = 20000; i < 20300; i++)
    lb[i] = !la[i];
  run_checked (&sc, la, lb, &st, v);
}

GST_END_TEST;

/* The same with a reach of a 1080i59.94 frame (4497 datagrams, more than
 * the 30 ms skew): the leading path's datagrams behind a gap leave at once
 * (nothing copied after the start), the gap's own when the lagging path
 * brings it; every counter as in order.  With a reach shorter than the
 * skew, what is beyond it is held as without one. */
GST_START_TEST (test_disjoint_skew_reach)
{
  Scenario sc = { 40000, {0, 30 * MS}, {NULL, NULL}, {FALSE, FALSE}, {0, 0},
    50, 4497
  };
  St2022SeamlessStats st;
  guint8 *la, *lb;
  guint v[6], i;

  run_disjoint (&sc, &st, v);
  /* held only while the merge waited for the lagging path to show up */
  fail_unless (st.held <= 30 * MS / PERIOD_NS + 1, "%" G_GUINT64_FORMAT
      " held", st.held);
  fail_unless (st.ahead > sc.n / 2);
  /* the primary's gaps filled by the secondary after later datagrams (and
   * what was held at the start, behind datagrams passed on ahead) */
  fail_unless (st.behind > 1500 && st.behind <= st.recovered + st.held);

  /* the primary behind, the secondary's gaps common ones too */
  sc.skew_ns[0] = 30 * MS;
  sc.skew_ns[1] = 0;
  la = make_loss (sc.n, 3, 0.05, NULL, FALSE);
  lb = make_loss (sc.n, 4, 0.05, NULL, FALSE);
  for (i = 20000; i < 20300; i++)
    lb[i] = 1;
  run_checked (&sc, la, lb, &st, v);
  fail_unless (st.lost_both > 0);
  fail_unless (st.ahead > sc.n / 2);

  /* a reach shorter than the skew */
  sc.reach = 256;
  la = make_loss (sc.n, 5, 0.05, NULL, FALSE);
  lb = make_loss (sc.n, 6, 0.05, la, TRUE);
  run_checked (&sc, la, lb, &st, v);
  fail_unless (st.held > sc.n / 2);
}

GST_END_TEST;

/* losses on both paths (common) besides disjoint ones */
GST_START_TEST (test_common_loss)
{
  Scenario sc = { 30000, {0, 5 * MS}, {NULL, NULL}, {FALSE, FALSE}, {0, 0},
    20
  };
  St2022SeamlessStats st;
  guint8 *la, *lb;
  guint v[6], i;

  la = make_loss (sc.n, 5, 0.03, NULL, FALSE);
  lb = make_loss (sc.n, 6, 0.03, NULL, FALSE);
  /* a common burst and common singles */
  for (i = 5000; i < 5100; i++)
    la[i] = lb[i] = 1;
  for (i = 7000; i < 29000; i += 997)
    la[i] = lb[i] = 1;
  run_checked (&sc, la, lb, &st, v);
  fail_unless (st.lost_both >= 100 + 22);
}

GST_END_TEST;

/* a path that reorders (pairs swapped) and duplicates: still every
 * datagram once, in order; the duplicates counted */
GST_START_TEST (test_reorder_duplicate)
{
  Scenario sc = { 20000, {0, 1 * MS}, {NULL, NULL}, {TRUE, FALSE}, {0, 10},
    20
  };
  St2022SeamlessStats st;
  guint8 *la, *lb;
  Sink sink;
  guint v[6];

  la = make_loss (sc.n, 7, 0.05, NULL, FALSE);
  lb = make_loss (sc.n, 8, 0.05, la, TRUE);
  sc.lost[0] = la;
  sc.lost[1] = lb;
  run (&sc, &sink, &st, v);
  check_output (&sc, &sink);
  fail_unless_equals_uint64 (st.duplicate[PA], 0);
  fail_unless_equals_uint64 (st.duplicate[PB],
      v[ST2022_SEAMLESS_DUPLICATE]);
  fail_unless (st.duplicate[PB] > 1500);
  fail_unless_equals_uint64 (st.lost[PA], count_one (la, sc.n));
  fail_unless_equals_uint64 (st.lost[PB], count_one (lb, sc.n));
  fail_unless_equals_uint64 (st.lost_both, 0);
  fail_unless_equals_uint64 (st.late[PA] + st.late[PB], 0);
  g_free (la);
  g_free (lb);
  g_array_free (sink.out, TRUE);

  /* one path alone (the other dead from the start), reordering: nothing
   * given up too early */
  {
    guint8 *dead = g_new (guint8, sc.n);

    memset (dead, 1, sc.n);
    sc.lost[0] = NULL;
    sc.lost[1] = dead;
    sc.dup_every[1] = 0;
    run (&sc, &sink, &st, v);
    check_output (&sc, &sink);
    fail_unless_equals_uint64 (st.lost[PA], 0);
    fail_unless_equals_uint64 (st.lost[PB], sc.n);
    fail_unless_equals_uint64 (st.recovered, sc.n);
    fail_unless_equals_uint64 (st.late[PA], 0);
    g_free (dead);
    g_array_free (sink.out, TRUE);
  }
}

GST_END_TEST;

/* a path dead for a while (longer than a 16-bit sequence cycle) and back:
 * nothing lost while it is gone, its copies recover losses again after */
GST_START_TEST (test_path_dead_and_back)
{
  Scenario sc = { 110000, {0, 2 * MS}, {NULL, NULL}, {FALSE, FALSE}, {0, 0},
    20
  };
  St2022SeamlessStats st;
  guint8 *la, *lb;
  guint v[6], i;

  lb = g_new0 (guint8, sc.n);
  /* more than a 16-bit sequence cycle */
  for (i = 30000; i < 100000; i++)
    lb[i] = 1;
  /* the primary loses only while the secondary is there: a loss on the
   * one path left is given up as soon as it has gone past it, so none in
   * the moments the secondary takes to come back */
  la = make_loss (sc.n, 9, 0.05, lb, TRUE);
  for (i = 100000; i < 101000; i++)
    la[i] = 0;
  run_checked (&sc, la, lb, &st, v);
  fail_unless_equals_uint64 (st.lost_both, 0);
}

GST_END_TEST;

/* the sender restarts (new SSRC and sequence): the leading path switches
 * first, its new datagrams are held back (mismatch) until the other path
 * switches too; the new stream is then complete from its first datagram */
GST_START_TEST (test_restart_new_stream)
{
  const guint n1 = 20000, n2 = 20000;
  const guint64 skew = 10 * MS;
  GArray *ev = g_array_new (FALSE, FALSE, sizeof (Ev));
  St2022SeamlessStats st;
  St2022Seamless *m;
  Sink sink = { g_array_new (FALSE, FALSE, sizeof (guint32)), 0, 0 };
  guint i, p, k = 0, mismatch_a = 0;
  guint64 first_b2 = 0, last = 0;

  for (p = 0; p < 2; p++) {
    for (i = 0; i < n1 + n2; i++) {
      Ev e = { (guint64) i * PERIOD_NS + (p ? skew : 0) + 1000, p,
        i >= n1, i >= n1 ? i - n1 : i
      };
      g_array_append_val (ev, e);
      if (p == 1 && i == n1)
        first_b2 = e.t;
    }
  }
  g_array_sort (ev, ev_cmp);
  m = st2022_seamless_new (20, 20 * 270, &cbs, &sink);
  for (i = 0; i < ev->len; i++) {
    const Ev *e = &g_array_index (ev, Ev, i);
    St2022SeamlessVerdict v = push_ev (m, e);

    if (e->path == PA && e->stream == 1 && e->t < first_b2) {
      fail_unless_equals_int (v, ST2022_SEAMLESS_MISMATCH);
      mismatch_a++;
    }
    last = e->t;
  }
  st2022_seamless_advance (m, last + 100 * MS);
  st2022_seamless_get_stats (m, &st);

  fail_unless_equals_int (sink.resyncs, 1);
  fail_unless_equals_uint64 (st.resyncs, 1);
  fail_unless_equals_uint64 (st.mismatch[PA], mismatch_a);
  fail_unless (mismatch_a > 1000);
  fail_unless_equals_uint64 (st.mismatch[PB], 0);
  /* both streams whole, in order */
  fail_unless_equals_int (sink.out->len, n1 + n2);
  for (i = 0; i < n1; i++, k++)
    fail_unless_equals_int (g_array_index (sink.out, guint32, k), i);
  for (i = 0; i < n2; i++, k++)
    fail_unless_equals_int (g_array_index (sink.out, guint32, k),
        1 << 24 | i);
  fail_unless_equals_uint64 (st.lost_both, 0);
  st2022_seamless_free (m);
  g_array_free (ev, TRUE);
  g_array_free (sink.out, TRUE);
}

GST_END_TEST;

/* a path carrying another stream from the start: the primary's stream is
 * the merged one; the foreign datagrams are counted, never passed on */
GST_START_TEST (test_foreign_path)
{
  GArray *ev = g_array_new (FALSE, FALSE, sizeof (Ev));
  St2022SeamlessStats st;
  St2022Seamless *m;
  Sink sink = { g_array_new (FALSE, FALSE, sizeof (guint32)), 0, 0 };
  guint i, p;
  const guint n = 10000;

  /* the foreign one even arrives first */
  for (p = 0; p < 2; p++)
    for (i = 0; i < n; i++) {
      Ev e = { (guint64) i * PERIOD_NS + (p ? 0 : 3 * MS) + 1000, p,
        p == 1, i
      };
      g_array_append_val (ev, e);
    }
  g_array_sort (ev, ev_cmp);
  m = st2022_seamless_new (20, 20 * 270, &cbs, &sink);
  for (i = 0; i < ev->len; i++)
    push_ev (m, &g_array_index (ev, Ev, i));
  st2022_seamless_advance (m, (guint64) n * PERIOD_NS + 100 * MS);
  st2022_seamless_get_stats (m, &st);

  fail_unless_equals_int (sink.out->len, n);
  for (i = 0; i < n; i++)
    fail_unless_equals_int (g_array_index (sink.out, guint32, i), i);
  fail_unless_equals_uint64 (st.mismatch[PB], n);
  fail_unless_equals_uint64 (st.packets[PB], 0);
  fail_unless_equals_uint64 (st.packets[PA], n);
  fail_unless_equals_uint64 (st.lost[PA], 0);
  fail_unless_equals_uint64 (st.lost_both, 0);
  st2022_seamless_free (m);
  g_array_free (ev, TRUE);
  g_array_free (sink.out, TRUE);
}

GST_END_TEST;

/* a path more than the window behind: its copies are late (counted), the
 * primary's losses then cannot be recovered and are lost */
GST_START_TEST (test_beyond_window)
{
  Scenario sc = { 20000, {0, 40 * MS}, {NULL, NULL}, {FALSE, FALSE}, {0, 0},
    20
  };
  St2022SeamlessStats st;
  guint8 *la;
  Sink sink;
  guint v[6];

  la = make_loss (sc.n, 10, 0.05, NULL, FALSE);
  sc.lost[0] = la;
  run (&sc, &sink, &st, v);
  fail_unless_equals_uint64 (st.emitted, sc.n - count_one (la, sc.n));
  fail_unless_equals_uint64 (st.packets[PB], sc.n);
  fail_unless (st.late[PB] > sc.n / 2);
  fail_unless_equals_uint64 (st.late[PA], 0);
  fail_unless_equals_uint64 (v[ST2022_SEAMLESS_LATE], st.late[PB]);
  g_free (la);
  g_array_free (sink.out, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_bad_args)
{
  fail_unless (st2022_seamless_new (0, 100, &cbs, NULL) == NULL);
  fail_unless (st2022_seamless_new (501, 100, &cbs, NULL) == NULL);
  fail_unless (st2022_seamless_new (20, 100, NULL, NULL) == NULL);
}

GST_END_TEST;

static Suite *
seamless_suite (void)
{
  Suite *s = suite_create ("st2022-seamless");
  TCase *tc = tcase_create ("merge");

  /* generous: the ASan tier runs it several times slower */
  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_clean);
  tcase_add_test (tc, test_disjoint_skew);
  tcase_add_test (tc, test_disjoint_skew_reach);
  tcase_add_test (tc, test_common_loss);
  tcase_add_test (tc, test_reorder_duplicate);
  tcase_add_test (tc, test_path_dead_and_back);
  tcase_add_test (tc, test_restart_new_stream);
  tcase_add_test (tc, test_foreign_path);
  tcase_add_test (tc, test_beyond_window);
  tcase_add_test (tc, test_bad_args);
  return s;
}

GST_CHECK_MAIN (seamless);
