/* gst-vmi: ST 2022-7 seamless protection merge (pure C, GLib only)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Two paths carry identical datagrams; the merge rebuilds one stream from
 * whichever copy arrives first.  It sits between the per-path stream locks
 * (which keep foreign senders out of each path) and the depacketizer, and
 * hands the depacketizer the datagrams each exactly once, in extended
 * sequence order (or, with st2022_seamless_set_reach(), those behind a gap
 * at once):
 *
 * - a datagram that is the next one due leaves at once, from the caller's
 *   memory (no copy, no added latency while nothing is missing);
 * - one that arrives while an earlier one is missing is copied and held
 *   until the gap is filled by the other path, or both paths have gone past
 *   it (missing on both: lost), or it has waited the window;
 * - the other path's copy of a datagram already taken is dropped.
 *
 * Every datagram of the merged range is accounted once, when it can no
 * longer change (both paths have gone past it, or it is older than the
 * window): missing on a path, recovered (missing on one path only) or lost
 * (missing on both).  See docs/seamless.md.
 */

#ifndef __ST2022_SEAMLESS_H__
#define __ST2022_SEAMLESS_H__

#include <glib.h>

G_BEGIN_DECLS

/* `seamless-window` of st2022src, milliseconds */
#define ST2022_SEAMLESS_DEFAULT_WINDOW_MS 20
#define ST2022_SEAMLESS_MAX_WINDOW_MS 500
/* The most datagrams the merge tracks (and holds): half the 16-bit
 * sequence space, beyond which a sequence number no longer says which
 * copy it is. */
#define ST2022_SEAMLESS_MAX_CAPACITY 32768
/* A datagram is taken as missing on a path once that path is this many
 * datagrams past it (a path may reorder a little). */
#define ST2022_SEAMLESS_REORDER 16
/* largest datagram held (an ST 2022-6 datagram with its video timestamp) */
#define ST2022_SEAMLESS_MAX_LEN 1400

typedef enum
{
  ST2022_SEAMLESS_PRIMARY = 0,
  ST2022_SEAMLESS_SECONDARY = 1,
  ST2022_SEAMLESS_N_PATHS = 2,
} St2022SeamlessPath;

typedef enum
{
  /* the first copy: passed on now or held until its turn */
  ST2022_SEAMLESS_FIRST = 0,
  /* the other path's copy of a datagram already taken: dropped */
  ST2022_SEAMLESS_COPY,
  /* a second copy on the same path: dropped, counted */
  ST2022_SEAMLESS_DUPLICATE,
  /* older than the window (or out of line with the merged stream while
   * the other path carries it): dropped, counted */
  ST2022_SEAMLESS_LATE,
  /* another stream than the one the other path carries: dropped, counted */
  ST2022_SEAMLESS_MISMATCH,
  /* longer than ST2022_SEAMLESS_MAX_LEN: not a datagram of ours */
  ST2022_SEAMLESS_INVALID,
} St2022SeamlessVerdict;

typedef struct
{
  /* A datagram of the merged stream, in order.  @data is valid during the
   * call only.  @tag is the push()'s own when the datagram leaves during
   * its push() (from the caller's memory: e.g. its parsed header), NULL
   * when it leaves from the merge's store. */
  void (*emit) (gpointer user_data, const guint8 * data, gsize len,
      guint64 arrival_ns, St2022SeamlessPath path, gconstpointer tag);
  /* The merged stream starts over (a new stream on the paths, or a jump no
   * window explains): what follows is not the continuation of what came
   * before. */
  void (*resync) (gpointer user_data);
} St2022SeamlessCallbacks;

typedef struct
{
  guint64 packets[ST2022_SEAMLESS_N_PATHS];     /* received per path (copies, duplicates and late ones included) */
  guint64 lost[ST2022_SEAMLESS_N_PATHS];        /* missing on that path */
  guint64 late[ST2022_SEAMLESS_N_PATHS];        /* dropped: out of window */
  guint64 duplicate[ST2022_SEAMLESS_N_PATHS];   /* dropped: same path twice */
  guint64 mismatch[ST2022_SEAMLESS_N_PATHS];    /* dropped: not the merged stream */
  guint64 recovered;            /* missing on one path, taken from the other */
  guint64 lost_both;            /* missing on both */
  guint64 emitted;              /* passed on */
  guint64 held;                 /* of them, copied and held first */
  guint64 ahead;                /* of them, passed on ahead of a gap */
  guint64 behind;               /* of them, passed on after a later one */
  guint64 resyncs;              /* the merged stream started over */
  /* arrival of the second copy minus the first, over every datagram both
   * paths delivered */
  guint64 differential_max_ns;
  guint64 differential_sum_ns;
  guint64 differential_count;
} St2022SeamlessStats;

typedef struct _St2022Seamless St2022Seamless;

/* @window_ms: 1..ST2022_SEAMLESS_MAX_WINDOW_MS; @capacity: datagrams
 * tracked (rounded up to a power of two, at most
 * ST2022_SEAMLESS_MAX_CAPACITY; the memory held is about 1.4 kB each):
 * the window's worth at the highest rate expected.  NULL on bad
 * arguments. */
St2022Seamless *st2022_seamless_new (guint window_ms, guint capacity,
    const St2022SeamlessCallbacks * callbacks, gpointer user_data);
void st2022_seamless_free (St2022Seamless * m);

/* The datagram @data of @path: @key names its stream (SSRC, payload type,
 * format: the caller's choice), @seq is its RTP sequence number, @arrival_ns
 * a monotonic time, @tag handed to emit() if it leaves at once.  May call
 * emit() (for this datagram and for held ones it releases) and resync(). */
St2022SeamlessVerdict st2022_seamless_push (St2022Seamless * m,
    St2022SeamlessPath path, guint64 key, guint16 seq, const guint8 * data,
    gsize len, guint64 arrival_ns, gconstpointer tag);

/* @reach 0 (the default): datagrams leave in sequence order, those behind
 * a gap held until it is filled or given up.  Otherwise a datagram behind
 * a gap leaves at once (no copy, nothing held) as long as the gap is fewer
 * than @reach datagrams behind it; the gap's own datagram then leaves when
 * it comes, after later ones.  For a receiver that places datagrams by
 * sequence number and keeps a frame open until its highest sequence number
 * is @reach past the frame's end (st2022_depacketizer_set_reorder_window()),
 * which then loses nothing. */
void st2022_seamless_set_reach (St2022Seamless * m, guint reach);

/* Time passes (@now_ns, the clock of push()): held datagrams whose gap has
 * waited the window are released, old datagrams are accounted.  Call it
 * when nothing arrives, too. */
void st2022_seamless_advance (St2022Seamless * m, guint64 now_ns);

/* Path @path starts over (its receiver lost and found its stream again): its
 * next datagram is placed afresh rather than after its last one. */
void st2022_seamless_path_restart (St2022Seamless * m,
    St2022SeamlessPath path);

/* Releases everything held (in order, gaps skipped) and accounts every
 * datagram tracked, as if both paths had ended; the next push starts a new
 * merged stream (no resync() for it). */
void st2022_seamless_flush (St2022Seamless * m);

/* TRUE when @path delivered a datagram of the merged stream in the last
 * window (before the last push/advance). */
gboolean st2022_seamless_path_live (St2022Seamless * m,
    St2022SeamlessPath path);

void st2022_seamless_get_stats (St2022Seamless * m,
    St2022SeamlessStats * stats);

G_END_DECLS

#endif /* __ST2022_SEAMLESS_H__ */
