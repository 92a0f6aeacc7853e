/* gst-vmi: the schedule of a shared transmit thread (see vmi-tx-sched.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-tx-sched.h"

#include <string.h>

/* no deadline to keep; no previous frame to wait for */
#define NONE G_MININT64

static inline gboolean
before (const VmiTxSched * s, guint a, guint b)
{
  gint64 da = s->streams[a].key, db = s->streams[b].key;

  return da < db || (da == db && a < b);
}

static inline void
heap_set (VmiTxSched * s, guint i, guint id)
{
  s->heap[i] = id;
  s->pos[id] = (gint) i;
}

static void
sift_up (VmiTxSched * s, guint i)
{
  guint id = s->heap[i];

  while (i > 0) {
    guint parent = (i - 1) / 2;

    if (!before (s, id, s->heap[parent]))
      break;
    heap_set (s, i, s->heap[parent]);
    i = parent;
  }
  heap_set (s, i, id);
}

static void
sift_down (VmiTxSched * s, guint i)
{
  guint id = s->heap[i];

  for (;;) {
    guint c = 2 * i + 1;

    if (c >= s->n_heap)
      break;
    if (c + 1 < s->n_heap && before (s, s->heap[c + 1], s->heap[c]))
      c++;
    if (!before (s, s->heap[c], id))
      break;
    heap_set (s, i, s->heap[c]);
    i = c;
  }
  heap_set (s, i, id);
}

static void
heap_remove (VmiTxSched * s, guint id)
{
  gint i = s->pos[id];
  guint last;

  if (i < 0)
    return;
  s->pos[id] = -1;
  last = s->heap[--s->n_heap];
  if ((guint) i == s->n_heap)
    return;
  heap_set (s, i, last);
  sift_down (s, i);
  sift_up (s, s->pos[last]);
}

/* The deadline of the run starting at datagram st->next */
static inline gint64
run_due (const VmiTxSchedStream * st)
{
  if (!st->paced)
    return st->start;
  return st->start + (gint64) ((guint64) st->period * st->next / st->n);
}

void
vmi_tx_sched_init (VmiTxSched * s, guint64 batch_ns, guint unpaced_batch)
{
  guint i;

  memset (s, 0, sizeof (*s));
  s->batch_ns = MAX (batch_ns, 1);
  s->unpaced_batch = MAX (unpaced_batch, 1);
  for (i = 0; i < VMI_TX_SCHED_MAX_STREAMS; i++) {
    s->pos[i] = -1;
    s->streams[i].prev_done = NONE;
  }
}

gboolean
vmi_tx_sched_begin_frame (VmiTxSched * s, guint id, gint64 start,
    guint64 period, guint n, gboolean paced, gint64 ready)
{
  VmiTxSchedStream *st;

  if (id >= VMI_TX_SCHED_MAX_STREAMS || n == 0 || (paced && period == 0))
    return FALSE;
  st = &s->streams[id];
  heap_remove (s, id);
  /* an abandoned frame stops at once: nothing to wait for */
  if (st->active)
    st->prev_done = NONE;
  st->active = TRUE;
  st->paced = paced;
  st->frame_late = FALSE;
  st->start = start;
  st->period = period;
  st->n = n;
  st->next = 0;
  /* as a thread of the stream's own would cut it */
  st->batch = paced ? (guint) MAX (1, (guint64) n * s->batch_ns / period) :
      s->unpaced_batch;
  st->late_ns = (gint64) (period / VMI_TX_SCHED_LATE_DIV);
  st->waited = st->prev_done != NONE && ready <= st->prev_done;
  st->floor = MAX (ready, st->prev_done);
  st->run_kept = NONE;
  if (st->floor - start > st->late_ns)
    st->stats.frames_behind++;
  st->due = st->key = run_due (st);
  heap_set (s, s->n_heap++, id);
  sift_up (s, s->n_heap - 1);
  return TRUE;
}

void
vmi_tx_sched_cancel (VmiTxSched * s, guint id)
{
  if (id >= VMI_TX_SCHED_MAX_STREAMS || !s->streams[id].active)
    return;
  heap_remove (s, id);
  s->streams[id].active = FALSE;
  s->streams[id].prev_done = NONE;
}

gboolean
vmi_tx_sched_peek (const VmiTxSched * s, VmiTxRun * run)
{
  const VmiTxSchedStream *st;

  if (s->n_heap == 0)
    return FALSE;
  run->id = s->heap[0];
  st = &s->streams[run->id];
  run->first = st->next;
  /* runs start on batch boundaries, a short send's rest included */
  run->count = MIN (st->batch - st->next % st->batch, st->n - st->next);
  run->deadline = st->due;
  return TRUE;
}

gboolean
vmi_tx_sched_sent (VmiTxSched * s, guint id, guint sent, gint64 now)
{
  VmiTxSchedStream *st;

  if (id >= VMI_TX_SCHED_MAX_STREAMS || !s->streams[id].active)
    return FALSE;
  st = &s->streams[id];
  if (sent == 0)
    return FALSE;
  /* a deadline is kept by a run's first datagram; the rest of a short
   * run is due at once and was accounted with it */
  if (st->next % st->batch == 0) {
    st->run_kept = NONE;
    if (!st->paced && st->next > 0) {
      /* the rest of an unpaced frame: at once */
    } else if (st->due >= st->floor) {
      st->run_kept = st->due;
    } else if (st->next == 0 && st->waited) {
      /* the thread had it when the previous frame was done */
      st->run_kept = st->floor;
    }
    /* else: due before its frame could start, catching up (header) */
    if (st->run_kept != NONE) {
      gint64 late = now - st->run_kept;

      st->stats.runs++;
      if (late > st->late_ns) {
        st->stats.runs_late++;
        st->frame_late = TRUE;
      }
      if (late > st->stats.late_max)
        st->stats.late_max = late;
    }
  }
  sent = MIN (sent, st->n - st->next);
  st->next += sent;
  st->stats.datagrams += sent;
  if (st->next == st->n) {
    /* when the next frame could start at the earliest */
    st->prev_done = st->run_kept != NONE ? st->run_kept : now;
    st->stats.frames++;
    if (st->frame_late)
      st->stats.frames_late++;
    heap_remove (s, id);
    st->active = FALSE;
    return TRUE;
  }
  /* the rest of a short run keeps its deadline; a new run its own, and
   * one already due (a stream catching up or late) goes after the runs
   * of the others due by the time this one left: a stream's backlog must
   * not hold every other stream for its whole length */
  if (st->next % st->batch == 0) {
    st->due = run_due (st);
    st->key = MAX (st->due, now);
  }
  sift_down (s, (guint) s->pos[id]);
  return FALSE;
}

guint
vmi_tx_sched_pass (VmiTxSched * s, gint64 now, gint64 window,
    guint max_runs, const VmiTxSchedOps * ops, gpointer user,
    gboolean * full)
{
  gint64 horizon = now + MAX (window, 0);
  guint runs = 0;
  VmiTxRun run;

  *full = FALSE;
  while (runs < max_runs && vmi_tx_sched_peek (s, &run)
      && run.deadline <= horizon) {
    gint64 at = ops->now (user);
    gint rc = ops->send (user, &run);

    runs++;
    if (rc == 0) {
      /* the rest of the run stays due */
      *full = TRUE;
      break;
    }
    if (rc < 0) {
      vmi_tx_sched_cancel (s, run.id);
      ops->done (user, run.id, FALSE);
    } else if (vmi_tx_sched_sent (s, run.id, (guint) rc, at)) {
      ops->done (user, run.id, TRUE);
    }
  }
  return runs;
}

void
vmi_tx_sched_get_stats (const VmiTxSched * s, guint id,
    VmiTxSchedStats * stats)
{
  if (id < VMI_TX_SCHED_MAX_STREAMS)
    *stats = s->streams[id].stats;
  else
    memset (stats, 0, sizeof (*stats));
}

void
vmi_tx_sched_reset_stats (VmiTxSched * s, guint id)
{
  if (id < VMI_TX_SCHED_MAX_STREAMS) {
    memset (&s->streams[id].stats, 0, sizeof (s->streams[id].stats));
    s->streams[id].prev_done = NONE;
  }
}
