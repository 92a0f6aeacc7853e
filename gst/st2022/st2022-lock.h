/* gst-vmi: ST 2022-6 stream lock (pure C, GLib only)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A receiver port is open to anyone on the network.  The stream lock sits in
 * front of the depacketizer and lets through only the stream it is locked on
 * (SSRC, payload type, format, sequence numbers near the highest seen, and,
 * with a depacketizer attached, the FRCount and marker the frame being built
 * expects), so a stray datagram never reaches (and never ends) the frame
 * being assembled.
 *
 * A stream is taken (the first one, or a genuine change: a sender restart
 * with a new SSRC or sequence, a format change, a burst loss beyond the
 * window that the transport did not report) after a run of @confirm
 * consecutive, mutually consistent datagrams that the locked stream does not
 * interrupt.  Candidate streams are followed side by side, so strays mixed
 * into a stream at any ratio never break its run, and a stray alone never
 * locks.  The lock then hands the run back (copies kept by the lock) so the
 * new stream loses nothing, not even its first frame.  See docs/st2022-6.md
 * "Stream lock".
 */

#ifndef __ST2022_LOCK_H__
#define __ST2022_LOCK_H__

#include "st2022.h"

G_BEGIN_DECLS

/* Datagrams of a new stream needed before the lock moves to it (default of
 * st2022src's `lock-datagrams`) */
#define ST2022_LOCK_DEFAULT_CONFIRM 16
#define ST2022_LOCK_MAX_CONFIRM 256
/* Sequence numbers accepted around the highest one of the locked stream:
 * reordering and duplicates behind it, a burst loss ahead of it.  A larger
 * gap is confirmed like a new stream (and then loses nothing either). */
#define ST2022_LOCK_WINDOW_BEHIND 64
#define ST2022_LOCK_WINDOW_AHEAD 64
/* Lone datagrams remembered as the possible start of a stream: a stream's
 * run begins as long as fewer than this many strays (each of another
 * stream, or the same stream elsewhere) arrive between its first two
 * datagrams. */
#define ST2022_LOCK_SEEDS 64
/* Runs (two or more consistent datagrams) followed side by side */
#define ST2022_LOCK_RUNS 4

typedef enum
{
  /* the locked stream: push it to the depacketizer */
  ST2022_LOCK_ACCEPT = 0,
  /* not a valid ST 2022-6 datagram (or filtered by payload type): push it to
   * the depacketizer anyway, which counts it as invalid */
  ST2022_LOCK_INVALID,
  /* another stream (SSRC, payload type or format): dropped, counted */
  ST2022_LOCK_FOREIGN,
  /* the locked stream's SSRC but an implausible sequence number: dropped,
   * counted */
  ST2022_LOCK_OUT_OF_WINDOW,
  /* the lock moved to a new stream, or the locked stream went past the
   * datagrams the lock held as its continuation (this one with them, not a
   * new stream): push the datagrams of st2022_stream_lock_replay() (this
   * one among them) */
  ST2022_LOCK_RELOCK,
} St2022LockVerdict;

typedef struct
{
  guint64 foreign;              /* datagrams of other streams dropped */
  guint64 out_of_window;        /* datagrams of the locked SSRC dropped */
  guint64 locks;                /* streams locked on (the first included) */
  /* datagrams of the locked stream missing in the gaps that drops the
   * transport reported account for (st2022_stream_lock_note_dropped()),
   * counted as the gaps close: in datagrams, whatever unit the transport
   * counts its drops in (a kernel's GRO batch is one drop event) */
  guint64 overflow;
} St2022LockStats;

typedef struct _St2022StreamLock St2022StreamLock;

/* @confirm: 1..ST2022_LOCK_MAX_CONFIRM; NULL otherwise */
St2022StreamLock *st2022_stream_lock_new (guint confirm);
void st2022_stream_lock_free (St2022StreamLock * l);

/* Only datagrams with this RTP payload type (-1: any) / SSRC (@filter_ssrc
 * FALSE: any) are ever locked on; others are INVALID / FOREIGN. */
void st2022_stream_lock_set_filter (St2022StreamLock * l, gint payload_type,
    gboolean filter_ssrc, guint32 ssrc);

/* With @d (the depacketizer the accepted datagrams go to; NULL: none), a
 * datagram of the locked stream inside the window is accepted only where
 * st2022_depacketizer_fits() puts it; otherwise it is OUT_OF_WINDOW. */
void st2022_stream_lock_set_depacketizer (St2022StreamLock * l,
    St2022Depacketizer * d);

/* Judges one datagram, filling @hdr when it parses.  Datagrams held as the
 * possible start of a stream are counted FOREIGN or OUT_OF_WINDOW until a
 * RELOCK takes them back out of those counters. */
St2022LockVerdict st2022_stream_lock_push (St2022StreamLock * l,
    const guint8 * data, gsize len, St2022Header * hdr);

/* The transport dropped @n more datagrams, or batches of them, before they
 * could be read (a full receive queue, SO_RXQ_OVFL, where one GRO batch of
 * many datagrams counts once; a NIC's missed count).  A jump ahead in the
 * locked stream beyond the window that those drops explain is the stream
 * going on, accepted at once rather than confirmed like a new stream: under
 * overload the drops come in bursts, and a second burst inside the
 * confirming run would cost the run's datagrams too.  With a depacketizer
 * attached, any reported drop explains a jump whose FRCount fits (so drop
 * events counting batches explain it too); without, the jump must be at
 * most @n.  The gap then counts in St2022LockStats.overflow. */
void st2022_stream_lock_note_dropped (St2022StreamLock * l, guint64 n);

/* After RELOCK: the run that confirmed the new stream, oldest first, or
 * the continuation handed back with the datagram that passed it, in
 * sequence order (@i < the returned count); valid until the next push. */
guint st2022_stream_lock_replay_count (St2022StreamLock * l);
const guint8 *st2022_stream_lock_replay (St2022StreamLock * l, guint i,
    gsize * len);

/* After RELOCK: hands the run to @d as st2022src does.  @d starts over
 * (st2022_depacketizer_flush_abandoned(): the rest of its frames was
 * never sent under the old numbering) unless the run continues its
 * stream: after a loss within half the sequence space
 * (st2022_depacketizer_continues()) or a longer one the RTP timestamp
 * spans (st2022_depacketizer_bridge(); the pieces of the stream after
 * such a gap that the run did not take then go in too, where @d places
 * them); then every datagram of the run goes in, in sequence order
 * (@arrival_ns: their arrival).  TRUE when @d started over. */
gboolean st2022_stream_lock_replay_to (St2022StreamLock * l,
    St2022Depacketizer * d, guint64 arrival_ns);

/* The stream went silent (st2022src's idle tick): the datagrams of the
 * locked stream the lock holds as a continuation not yet confirmed (it
 * placed them ahead, after a loss) are handed back, in sequence order,
 * through st2022_stream_lock_replay() (valid until the next push), for
 * the depacketizer to take as it takes any datagram of the stream (into
 * the frame open, or counted late); they no longer count out-of-window.
 * Returns how many (0: none held). */
guint st2022_stream_lock_release (St2022StreamLock * l);
/* st2022_stream_lock_release(), the datagrams handed back going into @d
 * as the live path pushes them (@arrival_ns: their arrival); returns how
 * many */
guint st2022_stream_lock_release_to (St2022StreamLock * l,
    St2022Depacketizer * d, guint64 arrival_ns);

/* TRUE when the RELOCK moved to another SSRC, payload type or format, or
 * back in sequence (the depacketizer must start over); FALSE for a jump
 * ahead in the same stream, which may be a burst loss. */
gboolean st2022_stream_lock_relock_is_new_stream (St2022StreamLock * l);

/* Forget the locked stream (e.g. after a signal loss): the next stream to
 * complete a run is locked on (a stray never is). */
void st2022_stream_lock_reset (St2022StreamLock * l);
gboolean st2022_stream_lock_is_locked (St2022StreamLock * l);
void st2022_stream_lock_get_stats (St2022StreamLock * l,
    St2022LockStats * stats);

/* The lock's companion in the depacketizer: TRUE when @hdr (a datagram
 * ahead of everything received, or late: up to half the sequence space
 * either way) continues the stream @d is synced on, i.e. the datagrams in
 * between were lost, not renumbered (its FRCount is the one its sequence
 * number implies).  Decides how a RELOCK that is not a new
 * stream is replayed: as is (the loss is counted) or after a flush. */
gboolean st2022_depacketizer_continues (St2022Depacketizer * d,
    const St2022Header * hdr);

/* TRUE when @hdr (of the stream @d is synced on, further ahead than
 * half the sequence space: _continues() cannot place it) continues that
 * stream past a long gap: its RTP timestamp has advanced by the frames
 * that FRCount names (to within a frame, by the format's
 * rtp_ts_increment; the difference wraps after 2^32 ticks, 159 s) and
 * its sequence number falls inside that frame.  @d then moves past the
 * gap: the frames begun end (their missing datagrams lost), the frames
 * in between count skipped and lost whole, and @hdr's frame maps from its
 * sequence number.  FALSE (nothing changed) when any of that disagrees:
 * a sender restart, which the caller handles as a new stream. */
gboolean st2022_depacketizer_bridge (St2022Depacketizer * d,
    const St2022Header * hdr);

/* TRUE unless @hdr (a datagram of the stream @d is synced on) contradicts
 * where @d's frame mapping puts it: another FRCount than its sequence
 * number implies, or a marker that is not on a frame's last datagram,
 * either of which would end the frames being built.  TRUE when @d is not
 * synced, or only guessing (a provisional frame start). */
gboolean st2022_depacketizer_fits (St2022Depacketizer * d,
    const St2022Header * hdr);

/* TRUE only when @d is synced on a confirmed frame start and its mapping
 * puts @hdr where its FRCount and marker agree (as _fits(), but FALSE
 * where _fits() cannot tell): the lock takes such a datagram beyond its
 * window as the locked stream's, late (behind) or after a loss (ahead). */
gboolean st2022_depacketizer_places (St2022Depacketizer * d,
    const St2022Header * hdr);

/* TRUE when _places() puts @hdr (a late datagram) where a frame still
 * being built, or the last one ended, misses it: the lock takes it as the
 * locked stream's however far behind its window.  A datagram of a sender
 * that starts over with the same numbers lands where one was received
 * already, and is a stray until a run takes the stream up again. */
gboolean st2022_depacketizer_fills (St2022Depacketizer * d,
    const St2022Header * hdr);

G_END_DECLS

#endif /* __ST2022_LOCK_H__ */
