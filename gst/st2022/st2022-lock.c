/* gst-vmi: ST 2022-6 stream lock (see st2022-lock.h)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Datagrams that are not the locked stream are followed side by side:
 *  - a seed is one lone datagram (a ring of LOCK_SEEDS, newest replacing
 *    oldest): most strays stay seeds for ever, and a flood of them only
 *    churns the ring;
 *  - a run starts when a datagram follows a seed of the same stream
 *    (sequence number 1..RUN_MAX_STEP ahead); LOCK_RUNS of them grow side by
 *    side, each only by its own next datagram, so a stray (or another run)
 *    never breaks one. A new run takes a free slot, else the one that grew
 *    least recently.
 * The first run to reach @confirm datagrams is the stream. A datagram of the
 * locked stream ends every seed and run at once (the epoch moves on): while
 * the locked stream lives, nothing else takes over.
 * With a depacketizer attached, datagrams of the locked stream beyond the
 * window that its frame mapping places (FRCount and marker where their
 * sequence numbers put them) are the stream's: a late one (behind) that
 * its frame misses is accepted, and after a jump ahead they form a
 * continuation run whose members may skip any number of sequence numbers.
 * A late one where a datagram was received already (a sender starting
 * over with the same numbers) needs a run, as any stray.  Under heavy loss the
 * stream arrives in pieces shorter than a run of consecutive datagrams,
 * which were otherwise all dropped (and counted lost) until one piece was
 * long enough.
 */

#include <string.h>

#include "st2022-lock.h"

/* Consecutive members of a run may skip a few sequence numbers (loss),
 * never go back. */
#define RUN_MAX_STEP 4

typedef struct
{
  guint32 ssrc;
  guint8 pt;
  const St2022Format *fmt;
} StreamId;

typedef struct
{
  guint64 epoch;                /* live while it equals the lock's */
  StreamId id;
  guint16 seq;
  gboolean oow;                 /* counted out-of-window (else foreign) */
  gboolean cont;                /* the locked stream after a loss */
  gsize size;
  guint8 *data;
} Seed;

typedef struct
{
  guint64 epoch;                /* live while it equals the lock's */
  StreamId id;
  guint16 first, last;
  guint len;
  guint foreign, oow;           /* how its members were counted */
  gboolean cont;                /* every member the locked stream's */
  guint64 grown;                /* the lock's datagram count at its last */
  guint8 *data;                 /* confirm * ST2022_DATAGRAM_SIZE */
  gsize *sizes;
} Run;

struct _St2022StreamLock
{
  guint confirm;
  gint pt_filter;
  gboolean filter_ssrc;
  guint32 ssrc_filter;
  St2022Depacketizer *depay;

  gboolean locked;
  StreamId cur;
  guint16 high;                 /* highest sequence number accepted */
  /* datagrams the transport said it dropped that no jump of the locked
   * stream has accounted for yet */
  guint64 dropped;

  /* seeds and runs of an older epoch are dead: no per-datagram clearing */
  guint64 epoch;
  /* the epoch in which a seed or run of the locked stream placed ahead
   * (a continuation) was last made or grown */
  guint64 cont_epoch;
  guint64 judged;               /* datagrams seen by candidates */
  Seed seeds[ST2022_LOCK_SEEDS];
  guint seed_next;
  guint8 *seed_data;
  Run runs[ST2022_LOCK_RUNS];
  guint8 *run_data;
  gsize *run_sizes;

  /* what the last RELOCK or st2022_stream_lock_release() hands back,
   * oldest first, until the next push: pointers into the seeds and runs */
  guint n_out;
  const guint8 **out;
  gsize *out_len;
  guint16 *out_seq;
  gboolean relock_new;

  /* most datagrams repeat the last one's header but for seq/ts/marker */
  St2022HeaderCache hcache;

  St2022LockStats stats;
};

St2022StreamLock *
st2022_stream_lock_new (guint confirm)
{
  St2022StreamLock *l;
  guint i;

  if (confirm < 1 || confirm > ST2022_LOCK_MAX_CONFIRM)
    return NULL;
  l = g_new0 (St2022StreamLock, 1);
  l->confirm = confirm;
  l->pt_filter = -1;
  /* epoch 0 is never current: zeroed seeds and runs start dead */
  l->epoch = 1;
  l->seed_data = g_malloc ((gsize) ST2022_LOCK_SEEDS * ST2022_DATAGRAM_SIZE);
  for (i = 0; i < ST2022_LOCK_SEEDS; i++)
    l->seeds[i].data = l->seed_data + (gsize) i * ST2022_DATAGRAM_SIZE;
  l->run_data = g_malloc ((gsize) ST2022_LOCK_RUNS * confirm *
      ST2022_DATAGRAM_SIZE);
  l->run_sizes = g_new0 (gsize, (gsize) ST2022_LOCK_RUNS * confirm);
  for (i = 0; i < ST2022_LOCK_RUNS; i++) {
    l->runs[i].data = l->run_data + (gsize) i * confirm * ST2022_DATAGRAM_SIZE;
    l->runs[i].sizes = l->run_sizes + (gsize) i * confirm;
  }
  /* every seed and every run member at once (a release) */
  i = ST2022_LOCK_SEEDS + ST2022_LOCK_RUNS * confirm;
  l->out = g_new (const guint8 *, i);
  l->out_len = g_new (gsize, i);
  l->out_seq = g_new (guint16, i);
  return l;
}

void
st2022_stream_lock_free (St2022StreamLock * l)
{
  if (l == NULL)
    return;
  g_free (l->seed_data);
  g_free (l->run_data);
  g_free (l->run_sizes);
  g_free (l->out);
  g_free (l->out_len);
  g_free (l->out_seq);
  g_free (l);
}

void
st2022_stream_lock_set_filter (St2022StreamLock * l, gint payload_type,
    gboolean filter_ssrc, guint32 ssrc)
{
  l->pt_filter = payload_type;
  l->filter_ssrc = filter_ssrc;
  l->ssrc_filter = ssrc;
}

void
st2022_stream_lock_set_depacketizer (St2022StreamLock * l,
    St2022Depacketizer * d)
{
  l->depay = d;
}

static gboolean
same_stream (const StreamId * a, const St2022Header * h)
{
  return a->ssrc == h->ssrc && a->pt == h->payload_type && a->fmt == h->format;
}

static void
set_id (StreamId * id, const St2022Header * h)
{
  id->ssrc = h->ssrc;
  id->pt = h->payload_type;
  id->fmt = h->format;
}

/* @seq follows @last as the next member of a run */
static gboolean
follows (guint16 last, guint16 seq)
{
  guint16 step = seq - last;

  return step >= 1 && step <= RUN_MAX_STEP;
}

/* @seq may join a seed or run whose highest member is @last (@cont: both
 * the locked stream's, placed by the depacketizer, which takes them in any
 * order: any other sequence number) */
static gboolean
joins (guint16 last, guint16 seq, gboolean cont)
{
  return follows (last, seq) || (cont && seq != last);
}

static void
run_append (Run * r, const guint8 * data, gsize len, gboolean oow,
    guint16 seq, guint64 now)
{
  /* a valid datagram is never longer (st2022_header_parse checks it) */
  len = MIN (len, ST2022_DATAGRAM_SIZE);
  memcpy (r->data + (gsize) r->len * ST2022_DATAGRAM_SIZE, data, len);
  r->sizes[r->len] = len;
  r->len++;
  /* (a continuation's members may come in any order) */
  if ((gint16) (seq - r->last) > 0 || r->len == 1)
    r->last = seq;
  r->grown = now;
  if (oow)
    r->oow++;
  else
    r->foreign++;
}

/* A run slot for a new run: a dead one, else the one that grew least
 * recently (a stalled run is the least likely to be a stream). */
static Run *
run_slot (St2022StreamLock * l)
{
  Run *victim = NULL;
  guint i;

  for (i = 0; i < ST2022_LOCK_RUNS; i++) {
    Run *r = &l->runs[i];

    if (r->epoch != l->epoch)
      return r;
    if (victim == NULL || r->grown < victim->grown)
      victim = r;
  }
  return victim;
}

static void out_add (St2022StreamLock * l, const guint8 * data, gsize len);

static St2022LockVerdict
relock (St2022StreamLock * l, Run * r, const St2022Header * h)
{
  guint i;

  /* the run was a stream after all: its members were not strays */
  l->stats.foreign -= r->foreign;
  l->stats.out_of_window -= r->oow;
  /* a continuation is the locked stream's wherever its first member lies
   * (one kept from before the stream moved past it is late, no more) */
  l->relock_new = !l->locked || !same_stream (&l->cur, h)
      || (!r->cont && (guint16) (r->first - l->high) >= 0x8000);
  l->locked = TRUE;
  set_id (&l->cur, h);
  l->high = r->last;
  l->stats.locks++;
  /* every other seed and run was strays; this one is replayed */
  l->epoch++;
  r->epoch = 0;
  /* in arrival order (a continuation's members may come in any) */
  l->n_out = 0;
  for (i = 0; i < r->len; i++)
    out_add (l, r->data + (gsize) i * ST2022_DATAGRAM_SIZE, r->sizes[i]);
  return ST2022_LOCK_RELOCK;
}

/* A datagram that is not the locked stream (@verdict says how it is
 * counted): it grows the run it follows, or pairs with a seed into a new
 * run, or becomes a seed. RELOCK once a run has @confirm members. */
static St2022LockVerdict
candidate (St2022StreamLock * l, const guint8 * data, gsize len,
    const St2022Header * h, St2022LockVerdict verdict, gboolean cont)
{
  gboolean oow = verdict == ST2022_LOCK_OUT_OF_WINDOW;
  Run *r = NULL;
  Seed *s;
  guint i;

  l->judged++;
  if (cont)
    l->cont_epoch = l->epoch;
  if (oow)
    l->stats.out_of_window++;
  else
    l->stats.foreign++;

  for (i = 0; i < ST2022_LOCK_RUNS; i++) {
    Run *c = &l->runs[i];

    if (c->epoch == l->epoch && same_stream (&c->id, h)
        && joins (c->last, h->seq, cont && c->cont)) {
      r = c;
      break;
    }
  }
  if (r == NULL && l->confirm > 1) {
    /* newest first: a stream's previous datagram is the likeliest */
    for (i = 0; i < ST2022_LOCK_SEEDS && r == NULL; i++) {
      s = &l->seeds[(l->seed_next + ST2022_LOCK_SEEDS - 1 - i) %
          ST2022_LOCK_SEEDS];
      if (s->epoch != l->epoch || !same_stream (&s->id, h)
          || !joins (s->seq, h->seq, cont && s->cont))
        continue;
      r = run_slot (l);
      r->epoch = l->epoch;
      r->id = s->id;
      r->first = s->seq;
      r->len = r->foreign = r->oow = 0;
      r->cont = cont && s->cont;
      run_append (r, s->data, s->size, s->oow, s->seq, l->judged);
      s->epoch = 0;
    }
    if (r == NULL) {
      s = &l->seeds[l->seed_next];
      l->seed_next = (l->seed_next + 1) % ST2022_LOCK_SEEDS;
      s->epoch = l->epoch;
      set_id (&s->id, h);
      s->seq = h->seq;
      s->oow = oow;
      s->cont = cont;
      s->size = MIN (len, ST2022_DATAGRAM_SIZE);
      memcpy (s->data, data, s->size);
      return verdict;
    }
  } else if (r == NULL) {
    /* @confirm 1: every datagram is a complete run */
    r = &l->runs[0];
    r->epoch = l->epoch;
    set_id (&r->id, h);
    r->first = h->seq;
    r->len = r->foreign = r->oow = 0;
    r->cont = cont;
  }
  run_append (r, data, len, oow, h->seq, l->judged);
  if (r->len < l->confirm)
    return verdict;
  return relock (l, r, h);
}

/* The epoch moved on: the seeds and runs of the locked stream placed
 * ahead of it live on (the stream they continue has not contradicted
 * them); only while there are some */
static void
keep_continuations (St2022StreamLock * l)
{
  guint i;

  for (i = 0; i < ST2022_LOCK_SEEDS; i++)
    if (l->seeds[i].epoch == l->epoch - 1 && l->seeds[i].cont)
      l->seeds[i].epoch = l->epoch;
  for (i = 0; i < ST2022_LOCK_RUNS; i++)
    if (l->runs[i].epoch == l->epoch - 1 && l->runs[i].cont)
      l->runs[i].epoch = l->epoch;
  l->cont_epoch = l->epoch;
}

/* a seed or run of the continuation has a member at or behind the
 * highest accepted: the stream went past it */
static gboolean
cont_passed (St2022StreamLock * l)
{
  guint i, j;

  for (i = 0; i < ST2022_LOCK_SEEDS; i++) {
    Seed *s = &l->seeds[i];

    if (s->epoch == l->epoch && s->cont && (gint16) (s->seq - l->high) <= 0)
      return TRUE;
  }
  for (i = 0; i < ST2022_LOCK_RUNS; i++) {
    Run *r = &l->runs[i];

    if (r->epoch != l->epoch || !r->cont)
      continue;
    for (j = 0; j < r->len; j++) {
      const guint8 *m = r->data + (gsize) j * ST2022_DATAGRAM_SIZE;

      if ((gint16) ((guint16) (m[2] << 8 | m[3]) - l->high) <= 0)
        return TRUE;
    }
  }
  return FALSE;
}

static void out_take (St2022StreamLock * l, gboolean (*take) (St2022StreamLock
        * l, guint64 epoch, gboolean cont, const guint8 * data, gsize len,
        gpointer user), gpointer user);
static gboolean take_continuation (St2022StreamLock * l, guint64 epoch,
    gboolean cont, const guint8 * data, gsize len, gpointer user);

/* The locked stream went on (@data, accepted after the highest was
 * @from) past datagrams the lock held as its continuation (placed ahead
 * after a loss whose drops were reported only later, or not at all): they
 * are the stream's and go to the depacketizer now, with @data, in
 * sequence order, as a RELOCK that is not a new stream.  Held on, they
 * would come back only at the idle tick, behind frames long ended:
 * discarded there, yet counted lost when those frames ended. */
static St2022LockVerdict
hand_back (St2022StreamLock * l, const guint8 * data, gsize len,
    guint16 from, gboolean gap)
{
  guint i;

  l->n_out = 0;
  out_add (l, data, MIN (len, ST2022_DATAGRAM_SIZE));
  out_take (l, take_continuation, NULL);
  /* the gap counted as overflow held these: they arrived */
  for (i = 0; gap && i < l->n_out; i++) {
    gint16 at = (gint16) (l->out_seq[i] - from);

    if (at > 0 && (gint16) (l->out_seq[i] - l->high) < 0
        && l->stats.overflow > 0)
      l->stats.overflow--;
  }
  /* no seed or run lives on; the stream went as far as the last of them */
  l->epoch++;
  if ((gint16) (l->out_seq[l->n_out - 1] - l->high) > 0)
    l->high = l->out_seq[l->n_out - 1];
  l->relock_new = FALSE;
  return ST2022_LOCK_RELOCK;
}

St2022LockVerdict
st2022_stream_lock_push (St2022StreamLock * l, const guint8 * data, gsize len,
    St2022Header * hdr)
{
  gint16 d;

  /* the previous RELOCK's replay is consumed */
  l->n_out = 0;

  if (st2022_header_parse_cached (&l->hcache, data, len, hdr) != ST2022_OK
      || (l->pt_filter >= 0 && hdr->payload_type != l->pt_filter))
    return ST2022_LOCK_INVALID;
  if (l->filter_ssrc && hdr->ssrc != l->ssrc_filter) {
    l->stats.foreign++;
    return ST2022_LOCK_FOREIGN;
  }
  if (G_UNLIKELY (!l->locked) || !same_stream (&l->cur, hdr))
    return candidate (l, data, len, hdr, ST2022_LOCK_FOREIGN, FALSE);

  d = (gint16) (hdr->seq - l->high);
  if (d < -ST2022_LOCK_WINDOW_BEHIND || (d > ST2022_LOCK_WINDOW_AHEAD
          && (l->dropped == 0 || (l->depay == NULL
                  && (guint64) (d - 1) > l->dropped)))) {
    /* placed ahead: the stream after a loss, confirmed by a run however
     * the loss cuts it; behind, where its frame misses it: late, the
     * depacketizer's to count (discarded, or into a frame still open).
     * Behind where a datagram was received already, it is a candidate as
     * any stray: a sender that starts over with the same numbers (a
     * replay of a loop) is behind the lock with every datagram, and only
     * a run takes it up again */
    if (d > 0 || !l->depay || !st2022_depacketizer_fills (l->depay, hdr))
      return candidate (l, data, len, hdr, ST2022_LOCK_OUT_OF_WINDOW,
          d > 0 && l->depay && st2022_depacketizer_places (l->depay, hdr));
  } else if (l->depay && !st2022_depacketizer_fits (l->depay, hdr)) {
    /* in the window, but not where the frame being built puts it
     * (another FRCount, a marker inside a frame): a spoof or a renumbered
     * stream, which a run tells apart; it never reaches the frame */
    return candidate (l, data, len, hdr, ST2022_LOCK_OUT_OF_WINDOW, FALSE);
  }

  /* the locked stream goes on (past a gap the transport's drops explain,
   * if any): whatever seeds and runs were building were strays.  A late
   * datagram is no sign of that: the run after a jump may be the stream
   * itself, reordered across the jump. */
  if (d > 0) {
    guint16 from = l->high;
    gboolean gap = d > 1 && l->dropped > 0;

    l->epoch++;
    l->high = hdr->seq;
    if (gap) {
      /* the gap is what the reported drops cost the stream */
      l->stats.overflow += d - 1;
      l->dropped -= MIN (l->dropped, (guint64) (d - 1));
    }
    if (G_UNLIKELY (l->cont_epoch == l->epoch - 1)) {
      keep_continuations (l);
      if (cont_passed (l))
        return hand_back (l, data, len, from, gap);
    }
  }
  return ST2022_LOCK_ACCEPT;
}

void
st2022_stream_lock_note_dropped (St2022StreamLock * l, guint64 n)
{
  l->dropped += n;
}

guint
st2022_stream_lock_replay_count (St2022StreamLock * l)
{
  return l->n_out;
}

const guint8 *
st2022_stream_lock_replay (St2022StreamLock * l, guint i, gsize * len)
{
  if (i >= l->n_out)
    return NULL;
  *len = l->out_len[i];
  return l->out[i];
}

/* A datagram the lock holds (parsed before, so its sequence number is
 * where RTP has it) goes out */
static void
out_add (St2022StreamLock * l, const guint8 * data, gsize len)
{
  l->out[l->n_out] = data;
  l->out_len[l->n_out] = len;
  l->out_seq[l->n_out] = (guint16) (data[2] << 8 | data[3]);
  l->n_out++;
}

/* in sequence order around the highest accepted: a few dozen at most,
 * once per silence or long gap */
static void
out_sort (St2022StreamLock * l)
{
  guint i, j;

  for (i = 1; i < l->n_out; i++) {
    const guint8 *data = l->out[i];
    gsize len = l->out_len[i];
    guint16 seq = l->out_seq[i];

    for (j = i; j > 0 && (gint16) (l->out_seq[j - 1] - l->high) >
        (gint16) (seq - l->high); j--) {
      l->out[j] = l->out[j - 1];
      l->out_len[j] = l->out_len[j - 1];
      l->out_seq[j] = l->out_seq[j - 1];
    }
    l->out[j] = data;
    l->out_len[j] = len;
    l->out_seq[j] = seq;
  }
}

/* Seeds and runs of the locked stream that @take picks go out, no longer
 * counted as dropped; each goes once */
static void
out_take (St2022StreamLock * l, gboolean (*take) (St2022StreamLock * l,
        guint64 epoch, gboolean cont, const guint8 * data, gsize len,
        gpointer user), gpointer user)
{
  guint i, j;

  for (i = 0; i < ST2022_LOCK_SEEDS; i++) {
    Seed *s = &l->seeds[i];

    if (s->epoch == 0 || !take (l, s->epoch, s->cont, s->data, s->size,
            user))
      continue;
    out_add (l, s->data, s->size);
    if (s->oow)
      l->stats.out_of_window--;
    else
      l->stats.foreign--;
    s->epoch = 0;
  }
  for (i = 0; i < ST2022_LOCK_RUNS; i++) {
    Run *r = &l->runs[i];

    if (r->epoch == 0 || !take (l, r->epoch, r->cont, r->data,
            r->sizes[0], user))
      continue;
    for (j = 0; j < r->len; j++)
      out_add (l, r->data + (gsize) j * ST2022_DATAGRAM_SIZE, r->sizes[j]);
    l->stats.out_of_window -= r->oow;
    l->stats.foreign -= r->foreign;
    r->epoch = 0;
  }
  out_sort (l);
}

/* Pieces of the stream after a long gap that the run confirming it did
 * not take (a lost burst cut them off) and that a datagram reordered
 * across the gap's start ended (it moved the epoch on): recent, and
 * where the mapping across the gap puts them */
static gboolean
take_bridged (St2022StreamLock * l, guint64 epoch, gboolean cont,
    const guint8 * data, gsize len, gpointer depay)
{
  St2022Header h;

  return epoch + 2 >= l->epoch && epoch < l->epoch
      && st2022_header_parse (data, len, &h, NULL) == ST2022_OK
      && same_stream (&l->cur, &h)
      && st2022_depacketizer_places (depay, &h);
}

/* what the lock hands back, in sequence order, into @d */
static void
push_out (St2022StreamLock * l, St2022Depacketizer * d, guint64 arrival_ns)
{
  guint i;

  for (i = 0; i < l->n_out; i++)
    st2022_depacketizer_push (d, l->out[i], l->out_len[i], arrival_ns);
}

gboolean
st2022_stream_lock_replay_to (St2022StreamLock * l, St2022Depacketizer * d,
    guint64 arrival_ns)
{
  St2022Header h;
  gboolean over;

  if (l->n_out == 0)
    return FALSE;
  over = st2022_header_parse (l->out[0], l->out_len[0], &h, NULL) != ST2022_OK;
  if (!over && (l->relock_new || !st2022_depacketizer_continues (d, &h))) {
    over = !st2022_depacketizer_bridge (d, &h);
    if (!over)
      out_take (l, take_bridged, d);
  }
  /* the sender left the old numbering: its frames' rest is not lost */
  if (over)
    st2022_depacketizer_flush_abandoned (d);
  push_out (l, d, arrival_ns);
  return over;
}

/* the continuation: seeds and runs of the locked stream placed ahead */
static gboolean
take_continuation (St2022StreamLock * l, guint64 epoch, gboolean cont,
    const guint8 * data, gsize len, gpointer user)
{
  return epoch == l->epoch && cont;
}

guint
st2022_stream_lock_release (St2022StreamLock * l)
{
  l->n_out = 0;
  if (!l->locked || l->cont_epoch != l->epoch)
    return 0;
  out_take (l, take_continuation, NULL);
  /* handed back: no seed or run lives on, and the stream went as far as
   * the last of them */
  l->epoch++;
  if (l->n_out > 0 && (gint16) (l->out_seq[l->n_out - 1] - l->high) > 0)
    l->high = l->out_seq[l->n_out - 1];
  return l->n_out;
}

guint
st2022_stream_lock_release_to (St2022StreamLock * l, St2022Depacketizer * d,
    guint64 arrival_ns)
{
  guint n = st2022_stream_lock_release (l);

  push_out (l, d, arrival_ns);
  return n;
}

gboolean
st2022_stream_lock_relock_is_new_stream (St2022StreamLock * l)
{
  return l->relock_new;
}

void
st2022_stream_lock_reset (St2022StreamLock * l)
{
  l->locked = FALSE;
  l->n_out = 0;
  l->dropped = 0;
  l->epoch++;
}

gboolean
st2022_stream_lock_is_locked (St2022StreamLock * l)
{
  return l->locked;
}

void
st2022_stream_lock_get_stats (St2022StreamLock * l, St2022LockStats * stats)
{
  *stats = l->stats;
}
