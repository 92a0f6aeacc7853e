/* gst-vmi: the schedule of a shared transmit thread (pure C, GLib types)
 *
 * Several streams, each paced on its own frame period, are sent by one
 * thread. Each stream's current frame is cut in runs of datagrams as a
 * stream of its own would be (software pacing: one run per `batch_ns` of
 * the frame period, run k due at start + period * first / n, so the
 * datagrams stay evenly spread over the period; no pacing: runs of
 * `unpaced_batch` datagrams, all due at the frame's start). The schedule
 * merges the streams' deadlines: vmi_tx_sched_peek() names the run due
 * first of all streams (earliest deadline first, the lower stream id on a
 * tie), the caller sends it when due and says with vmi_tx_sched_sent() how
 * many datagrams left and when. A run whose deadline has passed when its
 * stream's previous run left (a stream catching up a backlog, or late)
 * takes its place at that instant instead (its deadline stays for the
 * accounting below): the other streams' runs due by then go first, so
 * one stream's backlog delays the others by a run or two, not by its
 * whole length (a frame queued 10 ms late held every other stream
 * 1.08 ms at 400 ns a datagram, beyond the 834 us a run may be late).
 *
 * Lateness, the thread's own: a run that leaves more than a twentieth of
 * its stream's frame period after its deadline (5 %, the tolerance the
 * software-pacing tests hold a stream's packet interval to) is late, and
 * so is the frame it belongs to; without pacing only a frame's first run
 * has a deadline to keep.
 *
 * Behind, upstream's: a frame cannot start before its floor, the later of
 * the instant it was queued (ready) and the instant the stream's previous
 * frame was done, which is that frame's last run's deadline when it had
 * one to keep, else the instant its last datagram left (a backlog sent at
 * once, or an unpaced frame's runs after its first). A frame whose floor
 * lies more than 5 % after its start is behind (queued late, or launched
 * while its stream's previous frame was still due to be sending, as a
 * sink's frames re-anchored after a late one are). The runs due before
 * the floor leave at once to catch up, as a thread of the stream's own
 * sends them, and are not measured, with one exception: when the frame
 * was queued before its previous frame was done, the thread knew of it
 * and its first run is measured from that instant (the thread held off
 * there is the thread's lateness). The runs due after the floor are
 * measured from their deadlines. Frames that start on time (floor at or
 * before start) are measured exactly as before, and no deadline ever
 * moves: this is accounting, the datagrams leave as they did. The
 * counters are per stream.
 *
 * Batching (vmi_tx_sched_pass()): a thread serving many streams does not
 * wake for each run. Woken for the run due first, it sends in one pass
 * every run of every stream due within a window after that instant
 * (earliest deadline first), so runs of different streams due a few
 * microseconds apart cost one wake-up instead of one each; between passes
 * it sleeps until the next run is due, without spinning. A run thus
 * leaves at most the window early (and late by the thread's wake-up
 * latency), and the window is kept a small fraction of the 5 % tolerance
 * (VMI_TX_SCHED_WINDOW_NS: 20 us of the 834 us of a 59.94 Hz frame). A
 * run sent early is on time: lateness is counted as above, never hidden
 * by the window.
 *
 * Time is whatever the caller counts in (ns of CLOCK_MONOTONIC in the
 * engine, a simulated clock in the tests): nothing here reads a clock,
 * allocates or locks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_TX_SCHED_H__
#define __VMI_TX_SCHED_H__

#include <glib.h>

G_BEGIN_DECLS

/* streams one schedule serves (ids 0 .. MAX - 1) */
#define VMI_TX_SCHED_MAX_STREAMS 64
/* a run later than period / LATE_DIV is late */
#define VMI_TX_SCHED_LATE_DIV 20

/* a pass sends every run due within this of its first (above) */
#define VMI_TX_SCHED_WINDOW_NS 20000

typedef struct
{
  guint id;                     /* stream */
  guint first, count;           /* datagrams [first, first + count) */
  gint64 deadline;              /* when the run is due */
} VmiTxRun;

typedef struct
{
  guint64 frames;               /* frames whose last datagram left */
  guint64 frames_late;          /* of those, with a late run */
  guint64 frames_behind;        /* frames whose floor is after start + 5 % */
  guint64 runs, runs_late;      /* runs with a deadline to keep, late */
  gint64 late_max;              /* the latest run's lateness (0: none) */
  guint64 datagrams;
} VmiTxSchedStats;

typedef struct
{
  /* the frame being sent (active) */
  gboolean active, paced, frame_late;
  gint64 start;
  gint64 floor;                 /* it cannot start earlier (above) */
  gboolean waited;              /* queued before the previous was done */
  gint64 run_kept;              /* the current run's deadline, G_MININT64:
                                 * none to keep */
  /* the previous frame was done then (G_MININT64: none, or abandoned) */
  gint64 prev_done;
  guint64 period;
  guint n, next, batch;
  gint64 due;                   /* deadline of datagram next's run */
  gint64 key;                   /* its place in the schedule: due, or
                                 * when already due the previous run's
                                 * send */
  gint64 late_ns;
  VmiTxSchedStats stats;
} VmiTxSchedStream;

/* Caller-allocated; fields are private. */
typedef struct
{
  guint64 batch_ns;
  guint unpaced_batch;
  VmiTxSchedStream streams[VMI_TX_SCHED_MAX_STREAMS];
  /* min-heap of the active streams by (due, id) */
  guint heap[VMI_TX_SCHED_MAX_STREAMS];
  gint pos[VMI_TX_SCHED_MAX_STREAMS];   /* index in heap, -1: not there */
  guint n_heap;
} VmiTxSched;

/* @batch_ns: wire time per paced run (> 0); @unpaced_batch: datagrams per
 * run without pacing (> 0) */
void vmi_tx_sched_init (VmiTxSched * s, guint64 batch_ns,
    guint unpaced_batch);

/* Stream @id starts a frame of @n datagrams at @start, spread over
 * @period (> 0) when @paced; the frame was ready (queued for sending) at
 * @ready. Its floor (above) after @start + 5 %: it is behind. A frame
 * still being sent is abandoned (not counted, and the next frame does not
 * wait for it). FALSE (nothing changed) on a bad argument. */
gboolean vmi_tx_sched_begin_frame (VmiTxSched * s, guint id, gint64 start,
    guint64 period, guint n, gboolean paced, gint64 ready);

/* Stream @id's frame, if it has one, is abandoned (a flush, the stream
 * leaving): its counters stay, its next frame does not wait for it. On an
 * idle stream nothing changes. */
void vmi_tx_sched_cancel (VmiTxSched * s, guint id);

/* Is stream @id sending a frame? */
static inline gboolean
vmi_tx_sched_busy (const VmiTxSched * s, guint id)
{
  return id < VMI_TX_SCHED_MAX_STREAMS && s->streams[id].active;
}

/* The run due first, FALSE when no stream has a frame. */
gboolean vmi_tx_sched_peek (const VmiTxSched * s, VmiTxRun * run);

/* @sent datagrams (<= the run's count) of stream @id's run from
 * vmi_tx_sched_peek() left at @now. The rest of the run stays due (a full
 * queue). TRUE when that was the frame's last datagram: the stream is idle
 * until its next begin_frame. */
gboolean vmi_tx_sched_sent (VmiTxSched * s, guint id, guint sent,
    gint64 now);

/* What a pass needs from its caller (the shared thread, or a test's
 * simulated sender) */
typedef struct
{
  /* the time now, in the schedule's unit */
  gint64 (*now) (gpointer user);
  /* sends (some of) @run's datagrams; returns how many left (0: the
   * queue is full), or -1: the stream's frame failed (the pass cancels
   * it) */
  gint (*send) (gpointer user, const VmiTxRun * run);
  /* stream @id's frame is over: its last datagram left (@complete), or
   * it failed; the callback may begin the stream's next frame */
  void (*done) (gpointer user, guint id, gboolean complete);
} VmiTxSchedOps;

/* One pass (batching, above), from @now: sends every run due by @now +
 * @window, earliest first, at most @max_runs of them (a bound on the
 * pass, so the caller serves its requests in time). Each run's datagrams
 * are counted as leaving when ops->now() says before its send. Returns
 * the runs sent; *@full: the pass stopped on a full queue. */
guint vmi_tx_sched_pass (VmiTxSched * s, gint64 now, gint64 window,
    guint max_runs, const VmiTxSchedOps * ops, gpointer user,
    gboolean * full);

/* Stream @id's counters; reset_stats clears them and forgets its previous
 * frame (a stream joining anew) */
void vmi_tx_sched_get_stats (const VmiTxSched * s, guint id,
    VmiTxSchedStats * stats);
void vmi_tx_sched_reset_stats (VmiTxSched * s, guint id);

G_END_DECLS

#endif /* __VMI_TX_SCHED_H__ */
