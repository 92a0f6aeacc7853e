/* gst-vmi: unit tests of the ST 2022-6 stream lock
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022.h"
#include "st2022-lock.h"

typedef struct
{
  guint8 data[ST2022_DATAGRAM_SIZE];
  gsize len;
} Dg;

/* A valid datagram of format @f */
static void
make (Dg * d, const St2022Format * f, guint32 ssrc, guint8 pt, guint16 seq,
    guint8 frcount, gboolean marker)
{
  St2022Header h;

  memset (&h, 0, sizeof (h));
  h.marker = marker;
  h.payload_type = pt;
  h.seq = seq;
  h.rtp_ts = 1000;
  h.ssrc = ssrc;
  h.f = TRUE;
  h.frcount = frcount;
  h.cf = f->cf_code;
  h.frame = f->frame_code;
  h.frate = f->frate_code;
  h.sample = f->sample_code;
  memset (d->data, 0x11, sizeof (d->data));
  fail_unless_equals_int (st2022_header_pack (&h, d->data, sizeof (d->data)),
      ST2022_OK);
  d->len = st2022_header_size (&h) + ST2022_PAYLOAD_SIZE;
}

static St2022LockVerdict
push (St2022StreamLock * l, const St2022Format * f, guint32 ssrc, guint8 pt,
    guint16 seq)
{
  Dg d;
  St2022Header h;

  make (&d, f, ssrc, pt, seq, 0, FALSE);
  return st2022_stream_lock_push (l, d.data, d.len, &h);
}

static void
check_stats (St2022StreamLock * l, guint64 foreign, guint64 oow,
    guint64 locks)
{
  St2022LockStats s;

  st2022_stream_lock_get_stats (l, &s);
  fail_unless_equals_uint64 (s.foreign, foreign);
  fail_unless_equals_uint64 (s.out_of_window, oow);
  fail_unless_equals_uint64 (s.locks, locks);
}

/* The replay of the last RELOCK is exactly @n datagrams of @ssrc, the
 * last one @last_seq, consecutive */
static void
check_replay (St2022StreamLock * l, guint n, guint32 ssrc, guint16 last_seq)
{
  guint i;

  fail_unless_equals_int (st2022_stream_lock_replay_count (l), n);
  for (i = 0; i < n; i++) {
    gsize len;
    const guint8 *d = st2022_stream_lock_replay (l, i, &len);
    St2022Header h;

    fail_unless (d != NULL);
    fail_unless_equals_int (st2022_header_parse (d, len, &h, NULL),
        ST2022_OK);
    fail_unless_equals_int (h.ssrc, ssrc);
    fail_unless_equals_int (h.seq, (guint16) (last_seq - (n - 1) + i));
  }
  fail_unless (st2022_stream_lock_replay (l, n, NULL) == NULL);
}

/* A stream of @confirm datagrams ending at @last takes the lock */
static void
lock_stream (St2022StreamLock * l, const St2022Format * f, guint32 ssrc,
    guint16 last, guint confirm)
{
  guint i;

  for (i = 0; i + 1 < confirm; i++)
    fail_unless_equals_int (push (l, f, ssrc, 98, last - confirm + 1 + i),
        ST2022_LOCK_FOREIGN);
  fail_unless_equals_int (push (l, f, ssrc, 98, last), ST2022_LOCK_RELOCK);
  check_replay (l, confirm, ssrc, last);
  fail_unless (st2022_stream_lock_is_locked (l));
}

GST_START_TEST (test_lock_strays)
{
  const St2022Format *f = st2022_format_get (0);
  St2022StreamLock *l = st2022_stream_lock_new (4);
  guint16 seq;
  Dg junk;
  St2022Header h;

  fail_unless (st2022_stream_lock_new (0) == NULL);
  fail_unless (st2022_stream_lock_new (ST2022_LOCK_MAX_CONFIRM + 1) == NULL);
  fail_unless (!st2022_stream_lock_is_locked (l));
  /* the first stream to complete a run is locked on, its run handed back */
  lock_stream (l, f, 7, 100, 4);
  fail_unless (st2022_stream_lock_relock_is_new_stream (l));
  for (seq = 101; seq < 200; seq++) {
    fail_unless_equals_int (push (l, f, 7, 98, seq), ST2022_LOCK_ACCEPT);
    /* strays between every datagram: never a run */
    fail_unless_equals_int (push (l, f, 1000 + seq, 98, seq),
        ST2022_LOCK_FOREIGN);
    fail_unless_equals_int (push (l, f, 7, 98, seq + 30000),
        ST2022_LOCK_OUT_OF_WINDOW);
  }
  /* another payload type or format is another stream */
  fail_unless_equals_int (push (l, f, 7, 99, 200), ST2022_LOCK_FOREIGN);
  fail_unless_equals_int (push (l, st2022_format_get (1), 7, 98, 200),
      ST2022_LOCK_FOREIGN);
  /* the window: reordering behind, a burst loss ahead */
  fail_unless_equals_int (push (l, f, 7, 98, 199 - ST2022_LOCK_WINDOW_BEHIND),
      ST2022_LOCK_ACCEPT);
  fail_unless_equals_int (push (l, f, 7, 98,
          198 - ST2022_LOCK_WINDOW_BEHIND), ST2022_LOCK_OUT_OF_WINDOW);
  fail_unless_equals_int (push (l, f, 7, 98, 199 + ST2022_LOCK_WINDOW_AHEAD),
      ST2022_LOCK_ACCEPT);
  fail_unless_equals_int (push (l, f, 7, 98,
          200 + 2 * ST2022_LOCK_WINDOW_AHEAD), ST2022_LOCK_OUT_OF_WINDOW);
  /* not ST 2022-6 at all: the depacketizer counts it */
  memset (junk.data, 0x5a, sizeof (junk.data));
  fail_unless_equals_int (st2022_stream_lock_push (l, junk.data, 100, &h),
      ST2022_LOCK_INVALID);
  check_stats (l, 99 + 2, 99 + 2, 1);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

/* A restarted sender (new SSRC, new sequence) takes over after @confirm
 * datagrams, all of which are handed back; a burst of another SSRC that
 * the locked stream interrupts never does. */
GST_START_TEST (test_lock_relock)
{
  const St2022Format *f = st2022_format_get (0);
  St2022StreamLock *l = st2022_stream_lock_new (4);
  guint i;

  lock_stream (l, f, 7, 100, 4);
  /* three of another stream, then ours: no switch */
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (push (l, f, 8, 98, 5000 + i),
        ST2022_LOCK_FOREIGN);
  fail_unless_equals_int (push (l, f, 7, 98, 101), ST2022_LOCK_ACCEPT);
  fail_unless_equals_int (push (l, f, 8, 98, 5003), ST2022_LOCK_FOREIGN);
  check_stats (l, 4, 0, 1);
  /* the old sender stops; four in a row (one lost between) of the new */
  fail_unless_equals_int (push (l, f, 9, 98, 60000), ST2022_LOCK_FOREIGN);
  fail_unless_equals_int (push (l, f, 9, 98, 60001), ST2022_LOCK_FOREIGN);
  fail_unless_equals_int (push (l, f, 9, 98, 60003), ST2022_LOCK_FOREIGN);
  fail_unless_equals_int (push (l, f, 9, 98, 60004), ST2022_LOCK_RELOCK);
  fail_unless (st2022_stream_lock_relock_is_new_stream (l));
  fail_unless_equals_int (st2022_stream_lock_replay_count (l), 4);
  for (i = 0; i < 4; i++) {
    gsize len;
    const guint8 *d = st2022_stream_lock_replay (l, i, &len);
    St2022Header h;

    fail_unless (d != NULL);
    fail_unless_equals_int (st2022_header_parse (d, len, &h, NULL),
        ST2022_OK);
    fail_unless_equals_int (h.ssrc, 9);
    fail_unless_equals_int (h.seq, i < 2 ? 60000 + i : 60001 + i);
  }
  fail_unless (st2022_stream_lock_replay (l, 4, NULL) == NULL);
  /* the run's members were the new stream, not strays */
  check_stats (l, 4, 0, 2);
  fail_unless_equals_int (push (l, f, 9, 98, 60005), ST2022_LOCK_ACCEPT);
  fail_unless_equals_int (st2022_stream_lock_replay_count (l), 0);
  fail_unless_equals_int (push (l, f, 7, 98, 102), ST2022_LOCK_FOREIGN);

  /* the same SSRC far ahead: a jump (or a long loss), same stream */
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (push (l, f, 9, 98, 62000 + i),
        ST2022_LOCK_OUT_OF_WINDOW);
  fail_unless_equals_int (push (l, f, 9, 98, 62003), ST2022_LOCK_RELOCK);
  fail_unless (!st2022_stream_lock_relock_is_new_stream (l));
  /* ... and behind: the sender restarted its numbering */
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (push (l, f, 9, 98, 30000 + i),
        ST2022_LOCK_OUT_OF_WINDOW);
  fail_unless_equals_int (push (l, f, 9, 98, 30003), ST2022_LOCK_RELOCK);
  fail_unless (st2022_stream_lock_relock_is_new_stream (l));
  check_stats (l, 5, 0, 4);

  /* after a reset the next stream to complete a run is locked on */
  st2022_stream_lock_reset (l);
  fail_unless (!st2022_stream_lock_is_locked (l));
  lock_stream (l, f, 11, 4, 4);
  check_stats (l, 5, 0, 5);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

/* Drops the transport reported explain a jump of the locked stream, which
 * is then taken at once, up to as many as were dropped; what they do not
 * explain still needs a confirming run. */
GST_START_TEST (test_lock_reported_drops)
{
  const St2022Format *f = st2022_format_get (0);
  St2022StreamLock *l = st2022_stream_lock_new (4);
  guint i;

  lock_stream (l, f, 7, 1000, 4);
  /* 499 dropped: the jump to 1500 is exactly them */
  st2022_stream_lock_note_dropped (l, 499);
  fail_unless_equals_int (push (l, f, 7, 98, 1500), ST2022_LOCK_ACCEPT);
  fail_unless_equals_int (push (l, f, 7, 98, 1501), ST2022_LOCK_ACCEPT);
  /* all used up: the next jump is out of the window again */
  fail_unless_equals_int (push (l, f, 7, 98, 1700),
      ST2022_LOCK_OUT_OF_WINDOW);
  check_stats (l, 0, 1, 1);
  /* the locked stream goes on: that one was a stray */
  fail_unless_equals_int (push (l, f, 7, 98, 1502), ST2022_LOCK_ACCEPT);
  /* 100 dropped do not explain a jump of 300 ... */
  st2022_stream_lock_note_dropped (l, 100);
  fail_unless_equals_int (push (l, f, 7, 98, 1802),
      ST2022_LOCK_OUT_OF_WINDOW);
  /* ... small gaps in the window use them up too (20 + 30 here: 50
   * left), so 248 more do not explain a jump of 300 (299 missing) ... */
  fail_unless_equals_int (push (l, f, 7, 98, 1523), ST2022_LOCK_ACCEPT);
  fail_unless_equals_int (push (l, f, 7, 98, 1554), ST2022_LOCK_ACCEPT);
  st2022_stream_lock_note_dropped (l, 248);
  fail_unless_equals_int (push (l, f, 7, 98, 1854),
      ST2022_LOCK_OUT_OF_WINDOW);
  /* ... and one more does */
  st2022_stream_lock_note_dropped (l, 1);
  fail_unless_equals_int (push (l, f, 7, 98, 1854), ST2022_LOCK_ACCEPT);
  fail_unless_equals_int (push (l, f, 7, 98, 1855), ST2022_LOCK_ACCEPT);
  check_stats (l, 0, 3, 1);
  /* another SSRC is never explained by drops */
  st2022_stream_lock_note_dropped (l, 10000);
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (push (l, f, 8, 98, 4000 + i),
        ST2022_LOCK_FOREIGN);
  /* a reset forgets them */
  st2022_stream_lock_reset (l);
  lock_stream (l, f, 7, 5000, 4);
  fail_unless_equals_int (push (l, f, 7, 98, 5100),
      ST2022_LOCK_OUT_OF_WINDOW);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

GST_START_TEST (test_lock_filters)
{
  const St2022Format *f = st2022_format_get (0);
  St2022StreamLock *l = st2022_stream_lock_new (1);
  guint i;

  st2022_stream_lock_set_filter (l, 96, TRUE, 42);
  fail_unless_equals_int (push (l, f, 42, 98, 1), ST2022_LOCK_INVALID);
  /* a filtered SSRC never locks, however many come */
  for (i = 0; i < 10; i++)
    fail_unless_equals_int (push (l, f, 41, 96, i), ST2022_LOCK_FOREIGN);
  fail_unless (!st2022_stream_lock_is_locked (l));
  /* lock-datagrams 1: one datagram is a run */
  fail_unless_equals_int (push (l, f, 42, 96, 100), ST2022_LOCK_RELOCK);
  check_replay (l, 1, 42, 100);
  fail_unless_equals_int (push (l, f, 42, 96, 101), ST2022_LOCK_ACCEPT);
  check_stats (l, 10, 0, 1);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

/* D2: a stray before the stream never locks, and strays mixed into the
 * stream's first datagrams (one of a new SSRC and one of the stream's SSRC
 * elsewhere after each) never delay its run. */
GST_START_TEST (test_lock_stray_first)
{
  const St2022Format *f = st2022_format_get (0);
  const guint C = ST2022_LOCK_DEFAULT_CONFIRM;
  St2022StreamLock *l = st2022_stream_lock_new (C);
  guint i;

  fail_unless_equals_int (push (l, f, 0xbad, 98, 500), ST2022_LOCK_FOREIGN);
  fail_unless (!st2022_stream_lock_is_locked (l));
  for (i = 0; i < C; i++) {
    fail_unless_equals_int (push (l, f, 7, 98, 1000 + i), i + 1 < C ?
        ST2022_LOCK_FOREIGN : ST2022_LOCK_RELOCK);
    if (i + 1 == C)
      break;
    fail_unless_equals_int (push (l, f, 0x1000 + i, 98, 7 * i),
        ST2022_LOCK_FOREIGN);
    fail_unless_equals_int (push (l, f, 7, 98, 30000 + 977 * i),
        ST2022_LOCK_FOREIGN);
  }
  check_replay (l, C, 7, 1000 + C - 1);
  /* counted as what they were: 1 + 2 * (C - 1) strays, the run not */
  check_stats (l, 1 + 2 * (C - 1), 0, 1);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

/* A flood at up to ST2022_LOCK_SEEDS - 1 strays (each its own SSRC)
 * between two datagrams of the stream still lets it lock; once a run has
 * begun, no number of lone strays ends it. */
GST_START_TEST (test_lock_flood_ratio)
{
  const St2022Format *f = st2022_format_get (0);
  const guint C = ST2022_LOCK_DEFAULT_CONFIRM;
  St2022StreamLock *l = st2022_stream_lock_new (C);
  guint i, j, strays = 0, ssrc = 0x10000;

  for (i = 0; i < C; i++) {
    /* after the run has begun: 1000 strays between */
    guint between = i == 0 ? ST2022_LOCK_SEEDS - 1 : 1000;

    fail_unless_equals_int (push (l, f, 7, 98, 1000 + i), i + 1 < C ?
        ST2022_LOCK_FOREIGN : ST2022_LOCK_RELOCK);
    if (i + 1 == C)
      break;
    for (j = 0; j < between; j++, strays++)
      fail_unless_equals_int (push (l, f, ssrc++, 98, j),
          ST2022_LOCK_FOREIGN);
  }
  check_replay (l, C, 7, 1000 + C - 1);
  check_stats (l, strays, 0, 1);

  /* one stray more than the seeds between the first two: the first is
   * forgotten, the run starts at the second (the first is counted foreign) */
  st2022_stream_lock_reset (l);
  fail_unless_equals_int (push (l, f, 9, 98, 1), ST2022_LOCK_FOREIGN);
  for (j = 0; j < ST2022_LOCK_SEEDS; j++)
    push (l, f, ssrc++, 98, j);
  for (i = 2; i < C + 2; i++)
    fail_unless_equals_int (push (l, f, 9, 98, i), i < C + 1 ?
        ST2022_LOCK_FOREIGN : ST2022_LOCK_RELOCK);
  check_replay (l, C, 9, C + 1);
  check_stats (l, strays + 1 + ST2022_LOCK_SEEDS, 0, 2);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

/* Candidates side by side: the one that completes its run first wins, the
 * others' datagrams never break it; the locked stream ends every run while
 * it lives, so another stream takes over only once it is gone. */
GST_START_TEST (test_lock_candidates_side_by_side)
{
  const St2022Format *f = st2022_format_get (0);
  St2022StreamLock *l = st2022_stream_lock_new (8);
  guint i;

  /* B begins first (3 ahead), then A and B alternate: B completes first */
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (push (l, f, 0xb, 98, 200 + i),
        ST2022_LOCK_FOREIGN);
  for (i = 0; i < 5; i++) {
    fail_unless_equals_int (push (l, f, 0xa, 98, 100 + i),
        ST2022_LOCK_FOREIGN);
    fail_unless_equals_int (push (l, f, 0xb, 98, 203 + i), i < 4 ?
        ST2022_LOCK_FOREIGN : ST2022_LOCK_RELOCK);
  }
  check_replay (l, 8, 0xb, 207);
  check_stats (l, 5, 0, 1);
  /* B lives on: A, however long, never takes over */
  for (i = 0; i < 100; i++) {
    fail_unless_equals_int (push (l, f, 0xa, 98, 105 + i),
        ST2022_LOCK_FOREIGN);
    fail_unless_equals_int (push (l, f, 0xb, 98, 208 + i),
        ST2022_LOCK_ACCEPT);
  }
  /* B stops: A's next 8 take the lock */
  for (i = 0; i < 8; i++)
    fail_unless_equals_int (push (l, f, 0xa, 98, 205 + i), i < 7 ?
        ST2022_LOCK_FOREIGN : ST2022_LOCK_RELOCK);
  check_replay (l, 8, 0xa, 212);
  fail_unless (st2022_stream_lock_relock_is_new_stream (l));
  check_stats (l, 105, 0, 2);

  /* two renumbered runs of the locked SSRC side by side (a restart and a
   * spoofer): the spoofer's datagrams do not break the restart's run */
  for (i = 0; i < 8; i++) {
    fail_unless_equals_int (push (l, f, 0xa, 98, 40000 + 5 * i),
        ST2022_LOCK_OUT_OF_WINDOW);
    fail_unless_equals_int (push (l, f, 0xa, 98, 10000 + i), i < 7 ?
        ST2022_LOCK_OUT_OF_WINDOW : ST2022_LOCK_RELOCK);
    if (i == 7)
      break;
  }
  check_replay (l, 8, 0xa, 10007);
  check_stats (l, 105, 8, 3);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

/* D2: after a signal loss (reset), strays at any pace never lock: no
 * "signal restored" without the stream */
GST_START_TEST (test_lock_strays_after_loss)
{
  const St2022Format *f = st2022_format_get (0);
  St2022StreamLock *l = st2022_stream_lock_new (ST2022_LOCK_DEFAULT_CONFIRM);
  guint i;

  lock_stream (l, f, 7, 100, ST2022_LOCK_DEFAULT_CONFIRM);
  st2022_stream_lock_reset (l);
  for (i = 0; i < 1000; i++) {
    /* new SSRCs, the old SSRC at random places, repeats of one stray */
    fail_unless_equals_int (push (l, f, 0x100 + i, 98, i),
        ST2022_LOCK_FOREIGN);
    fail_unless_equals_int (push (l, f, 7, 98, (guint16) (i * 7919)),
        ST2022_LOCK_FOREIGN);
    fail_unless_equals_int (push (l, f, 0x99, 98, 5), ST2022_LOCK_FOREIGN);
    fail_unless (!st2022_stream_lock_is_locked (l));
  }
  check_stats (l, 3000, 0, 1);
  st2022_stream_lock_free (l);
}

GST_END_TEST;

/* A depacketizer assembling raster frames (the lock's customer) */
typedef struct
{
  guint8 *frame;
  gsize size;
  guint frames, complete;
} Sink;

static gboolean
sink_begin (gpointer u, const St2022Format * f, const St2022Header * h,
    St2022Target * t)
{
  Sink *s = u;

  t->type = ST2022_TARGET_RASTER;
  t->data = s->frame;
  t->size = s->size;
  return TRUE;
}

static void
sink_end (gpointer u, St2022Target * t, const St2022FrameInfo * i)
{
  Sink *s = u;

  s->frames++;
  s->complete += i->complete;
}

static const St2022DepacketizerCallbacks sink_callbacks = {
  sink_begin, sink_end, NULL
};

/* A lock (lock-datagrams 16) with a depacketizer behind it assembling
 * format @f into @sink */
static St2022StreamLock *
lock_with_sink (const St2022Format * f, Sink * sink, St2022Depacketizer ** d)
{
  St2022StreamLock *l = st2022_stream_lock_new (16);

  memset (sink, 0, sizeof (*sink));
  sink->size = f->frame_bytes;
  sink->frame = g_malloc0 (sink->size);
  *d = st2022_depacketizer_new (&sink_callbacks, sink);
  st2022_stream_lock_set_depacketizer (l, *d);
  return l;
}

/* Datagrams @from..@to-1 of frame @fr (FRCount @fr, seq base + fr * n + i)
 * through the lock into @d, as st2022src does (replay on RELOCK) */
static void
feed (St2022StreamLock * l, St2022Depacketizer * d, const St2022Format * f,
    guint fr, guint from, guint to)
{
  guint n = f->datagrams_per_frame, i, k;

  for (i = from; i < to; i++) {
    gboolean locked = st2022_stream_lock_is_locked (l);
    Dg dg;
    St2022Header h;

    make (&dg, f, 7, 98, (guint16) (5000 + fr * n + i), fr, i == n - 1);
    switch (st2022_stream_lock_push (l, dg.data, dg.len, &h)) {
      case ST2022_LOCK_FOREIGN:
        /* held for the confirming run */
        fail_if (locked, "datagram %u of frame %u refused", i, fr);
        break;
      case ST2022_LOCK_ACCEPT:
        st2022_depacketizer_push_parsed (d, dg.data, &h, 0);
        break;
      case ST2022_LOCK_RELOCK:
        for (k = 0; k < st2022_stream_lock_replay_count (l); k++) {
          gsize len;
          const guint8 *p = st2022_stream_lock_replay (l, k, &len);
          st2022_depacketizer_push (d, p, len, 0);
        }
        break;
      default:
        fail ("datagram %u of frame %u refused", i, fr);
    }
  }
}

/* D3: one spoofed datagram with the locked SSRC, in the window but with
 * another FRCount (after a marker, mid-frame) or a marker inside a frame,
 * is out-of-window: it neither ends nor discards the frame being built. */
GST_START_TEST (test_lock_spoof_in_window)
{
  const St2022Format *f = st2022_format_get (0);
  guint n = f->datagrams_per_frame;
  Sink sink;
  St2022Depacketizer *d;
  St2022StreamLock *l = lock_with_sink (f, &sink, &d);
  St2022DepacketizerStats ds;
  St2022Header h;
  Dg dg;

  feed (l, d, f, 0, 0, n);
  /* after frame 0's marker: 5 ahead, FRCount 77 (frame 1 has 1) */
  make (&dg, f, 7, 98, (guint16) (5000 + n + 4), 77, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_OUT_OF_WINDOW);
  feed (l, d, f, 1, 0, n / 2);
  /* mid-frame: 5 ahead with the next frame's FRCount */
  make (&dg, f, 7, 98, (guint16) (5000 + n + n / 2 + 4), 2, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_OUT_OF_WINDOW);
  /* a marker inside the frame, right FRCount */
  make (&dg, f, 7, 98, (guint16) (5000 + n + n / 2 + 2), 1, TRUE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_OUT_OF_WINDOW);
  feed (l, d, f, 1, n / 2, n);
  feed (l, d, f, 2, 0, n);

  st2022_depacketizer_get_stats (d, &ds);
  fail_unless_equals_int (sink.frames, 3);
  fail_unless_equals_int (sink.complete, 3);
  fail_unless_equals_uint64 (ds.packets, 3 * n);
  fail_unless_equals_uint64 (ds.packets_lost, 0);
  fail_unless_equals_uint64 (ds.packets_discarded, 0);
  fail_unless_equals_uint64 (ds.frames_corrupted, 0);
  fail_unless_equals_uint64 (ds.frames_aborted, 0);
  check_stats (l, 0, 3, 1);

  /* where the mapping holds, an in-window datagram is the stream's */
  make (&dg, f, 7, 98, (guint16) (5000 + 3 * n + 4), 3, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_ACCEPT);
  st2022_stream_lock_free (l);
  st2022_depacketizer_free (d);
  g_free (sink.frame);
}

GST_END_TEST;

/* D5: drops the transport reports in its own unit (one event for a whole
 * GRO batch) explain a jump whose FRCount fits; the gap counts in
 * overflow, in datagrams */
GST_START_TEST (test_lock_overflow_datagrams)
{
  const St2022Format *f = st2022_format_get (0);
  guint n = f->datagrams_per_frame;
  Sink sink;
  St2022Depacketizer *d;
  St2022StreamLock *l = lock_with_sink (f, &sink, &d);
  St2022LockStats ls;
  St2022Header h;
  Dg dg;
  feed (l, d, f, 0, 0, n);
  feed (l, d, f, 1, 0, 10);
  /* 300 missing, no drop reported: out of the window */
  make (&dg, f, 7, 98, (guint16) (5000 + n + 310), 1, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_OUT_OF_WINDOW);
  /* one drop event (a GRO batch): the same jump is the stream; it goes
   * past the copy held as its continuation, which comes back with it (a
   * duplicate for the depacketizer to count) rather than at the idle tick */
  st2022_stream_lock_note_dropped (l, 1);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_RELOCK);
  fail_unless_equals_int (st2022_stream_lock_replay_count (l), 2);
  fail_if (st2022_stream_lock_relock_is_new_stream (l));
  /* ... but not with another FRCount */
  st2022_stream_lock_note_dropped (l, 1);
  make (&dg, f, 7, 98, (guint16) (5000 + n + 500), 9, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_OUT_OF_WINDOW);
  /* a gap inside the window with a drop pending counts too */
  make (&dg, f, 7, 98, (guint16) (5000 + n + 320), 1, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_ACCEPT);
  /* and without one it does not */
  make (&dg, f, 7, 98, (guint16) (5000 + n + 330), 1, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_ACCEPT);
  st2022_stream_lock_get_stats (l, &ls);
  fail_unless_equals_uint64 (ls.overflow, 300 + 9);
  fail_unless_equals_uint64 (ls.out_of_window, 1);
  fail_unless_equals_uint64 (ls.locks, 1);
  st2022_stream_lock_free (l);
  st2022_depacketizer_free (d);
  g_free (sink.frame);
}

GST_END_TEST;

/* The stream stops while the lock holds its continuation after a loss
 * (placed ahead, fewer than a run): release() hands exactly those back,
 * in sequence order, no longer out-of-window, and moves the lock past
 * them; a stray it holds stays a stray */
GST_START_TEST (test_lock_release)
{
  const St2022Format *f = st2022_format_get (0);
  guint n = f->datagrams_per_frame;
  static const guint ahead[] = { 200, 203, 201, 205 };
  static const guint in_order[] = { 200, 201, 203, 205 };
  Sink sink;
  St2022Depacketizer *d;
  St2022StreamLock *l = lock_with_sink (f, &sink, &d);
  St2022DepacketizerStats ds;
  St2022Header h;
  Dg dg;
  guint i;

  feed (l, d, f, 0, 0, n);
  feed (l, d, f, 1, 0, 10);
  fail_unless_equals_int (st2022_stream_lock_release (l), 0);
  for (i = 0; i < G_N_ELEMENTS (ahead); i++) {
    make (&dg, f, 7, 98, (guint16) (5000 + n + ahead[i]), 1, FALSE);
    fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len,
            &h), ST2022_LOCK_OUT_OF_WINDOW);
  }
  fail_unless_equals_int (push (l, f, 0xbad, 98, 9), ST2022_LOCK_FOREIGN);
  check_stats (l, 1, 4, 1);

  fail_unless_equals_int (st2022_stream_lock_release (l), 4);
  check_stats (l, 1, 0, 1);
  for (i = 0; i < 4; i++) {
    gsize len;
    const guint8 *p = st2022_stream_lock_replay (l, i, &len);

    fail_unless_equals_int (st2022_header_parse (p, len, &h, NULL),
        ST2022_OK);
    fail_unless_equals_int (h.seq, (guint16) (5000 + n + in_order[i]));
    st2022_depacketizer_push (d, p, len, 0);
  }
  /* handed back once */
  fail_unless_equals_int (st2022_stream_lock_release (l), 0);
  /* the lock went past them: the next one is the stream's */
  make (&dg, f, 7, 98, (guint16) (5000 + n + 206), 1, FALSE);
  fail_unless_equals_int (st2022_stream_lock_push (l, dg.data, dg.len, &h),
      ST2022_LOCK_ACCEPT);
  st2022_depacketizer_push_parsed (d, dg.data, &h, 0);
  st2022_depacketizer_flush (d);
  st2022_depacketizer_get_stats (d, &ds);
  fail_unless_equals_uint64 (ds.packets, n + 15);
  fail_unless_equals_uint64 (ds.packets_lost, n - 15);
  fail_unless_equals_int (sink.frames, 2);
  st2022_stream_lock_free (l);
  st2022_depacketizer_free (d);
  g_free (sink.frame);
}

GST_END_TEST;

/* st2022_depacketizer_continues(): a datagram after a loss, or one of a
 * renumbered stream */
static gboolean
begin_decline (gpointer u, const St2022Format * f, const St2022Header * h,
    St2022Target * t)
{
  return FALSE;
}

static void
end_nothing (gpointer u, St2022Target * t, const St2022FrameInfo * i)
{
}

GST_START_TEST (test_depacketizer_continues)
{
  const St2022Format *f = st2022_format_get (0);
  St2022DepacketizerCallbacks cb = { begin_decline, end_nothing, NULL };
  St2022Depacketizer *d = st2022_depacketizer_new (&cb, NULL);
  guint n = f->datagrams_per_frame, i;
  St2022Header h;
  Dg dg;

  make (&dg, f, 5, 98, 0, 3, FALSE);
  st2022_header_parse (dg.data, dg.len, &h, NULL);
  fail_unless (!st2022_depacketizer_continues (d, &h));
  /* frame 3 from its start (the first datagram is taken as one) */
  for (i = 0; i < 10; i++) {
    make (&dg, f, 5, 98, i, 3, FALSE);
    st2022_depacketizer_push (d, dg.data, dg.len, 0);
  }
  /* two frames later, FRCount 5: the stream goes on after a loss */
  make (&dg, f, 5, 98, 2 * n + 7, 5, FALSE);
  st2022_header_parse (dg.data, dg.len, &h, NULL);
  fail_unless (st2022_depacketizer_continues (d, &h));
  /* the same place with another FRCount: renumbered */
  make (&dg, f, 5, 98, 2 * n + 7, 9, FALSE);
  st2022_header_parse (dg.data, dg.len, &h, NULL);
  fail_unless (!st2022_depacketizer_continues (d, &h));
  /* another SSRC */
  make (&dg, f, 6, 98, 2 * n + 7, 5, FALSE);
  st2022_header_parse (dg.data, dg.len, &h, NULL);
  fail_unless (!st2022_depacketizer_continues (d, &h));
  st2022_depacketizer_free (d);
}

GST_END_TEST;

static Suite *
st2022_lock_suite (void)
{
  Suite *s = suite_create ("st2022-lock");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_lock_strays);
  tcase_add_test (tc, test_lock_relock);
  tcase_add_test (tc, test_lock_reported_drops);
  tcase_add_test (tc, test_lock_filters);
  tcase_add_test (tc, test_lock_stray_first);
  tcase_add_test (tc, test_lock_flood_ratio);
  tcase_add_test (tc, test_lock_candidates_side_by_side);
  tcase_add_test (tc, test_lock_strays_after_loss);
  tcase_add_test (tc, test_lock_spoof_in_window);
  tcase_add_test (tc, test_lock_overflow_datagrams);
  tcase_add_test (tc, test_lock_release);
  tcase_add_test (tc, test_depacketizer_continues);
  return s;
}

GST_CHECK_MAIN (st2022_lock);
