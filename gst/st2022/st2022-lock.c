/* gst-vmi: ST 2022-6 stream lock (see st2022-lock.h)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "st2022-lock.h"

/* Consecutive members of a confirming run may skip a few sequence numbers
 * (loss), never go back. */
#define RUN_MAX_STEP 4

typedef struct
{
  guint32 ssrc;
  guint8 pt;
  const St2022Format *fmt;
} StreamId;

struct _St2022StreamLock
{
  guint confirm;
  gint pt_filter;
  gboolean filter_ssrc;
  guint32 ssrc_filter;

  gboolean locked;
  StreamId cur;
  guint16 high;                 /* highest sequence number accepted */
  /* datagrams the transport said it dropped that no jump of the locked
   * stream has accounted for yet */
  guint64 dropped;

  /* the run of datagrams that may be a new stream */
  StreamId run;
  guint run_len;
  guint16 run_first, run_last;
  guint run_foreign, run_oow;   /* how the run's members were counted */
  guint8 *run_data;             /* confirm * ST2022_DATAGRAM_SIZE */
  gsize *run_sizes;
  gboolean relock_new;

  /* most datagrams repeat the last one's header but for seq/ts/marker */
  St2022HeaderCache hcache;

  St2022LockStats stats;
};

St2022StreamLock *
st2022_stream_lock_new (guint confirm)
{
  St2022StreamLock *l;

  if (confirm < 1 || confirm > ST2022_LOCK_MAX_CONFIRM)
    return NULL;
  l = g_new0 (St2022StreamLock, 1);
  l->confirm = confirm;
  l->pt_filter = -1;
  l->run_data = g_malloc ((gsize) confirm * ST2022_DATAGRAM_SIZE);
  l->run_sizes = g_new0 (gsize, confirm);
  return l;
}

void
st2022_stream_lock_free (St2022StreamLock * l)
{
  if (l == NULL)
    return;
  g_free (l->run_data);
  g_free (l->run_sizes);
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

static gboolean
same_stream (const StreamId * a, const St2022Header * h)
{
  return a->ssrc == h->ssrc && a->pt == h->payload_type && a->fmt == h->format;
}

static void
lock_on (St2022StreamLock * l, const St2022Header * h)
{
  l->locked = TRUE;
  l->cur.ssrc = h->ssrc;
  l->cur.pt = h->payload_type;
  l->cur.fmt = h->format;
  l->high = h->seq;
  l->run_len = 0;
  l->stats.locks++;
}

/* A datagram that is not the locked stream: it extends the run of a
 * possible new stream, or starts one.  RELOCK once the run is long enough. */
static St2022LockVerdict
candidate (St2022StreamLock * l, const guint8 * data, gsize len,
    const St2022Header * h, St2022LockVerdict verdict)
{
  if (l->run_len > 0 && same_stream (&l->run, h)
      && (guint16) (h->seq - l->run_last) >= 1
      && (guint16) (h->seq - l->run_last) <= RUN_MAX_STEP) {
    l->run_last = h->seq;
  } else {
    l->run_len = 0;
    l->run_foreign = l->run_oow = 0;
    l->run.ssrc = h->ssrc;
    l->run.pt = h->payload_type;
    l->run.fmt = h->format;
    l->run_first = l->run_last = h->seq;
  }
  /* a valid datagram is never longer (st2022_header_parse checks it) */
  memcpy (l->run_data + (gsize) l->run_len * ST2022_DATAGRAM_SIZE, data,
      MIN (len, ST2022_DATAGRAM_SIZE));
  l->run_sizes[l->run_len] = MIN (len, ST2022_DATAGRAM_SIZE);
  l->run_len++;

  if (l->run_len < l->confirm) {
    if (verdict == ST2022_LOCK_FOREIGN) {
      l->stats.foreign++;
      l->run_foreign++;
    } else {
      l->stats.out_of_window++;
      l->run_oow++;
    }
    return verdict;
  }

  /* the run was a stream after all: its members were not strays */
  l->stats.foreign -= l->run_foreign;
  l->stats.out_of_window -= l->run_oow;
  l->relock_new = !same_stream (&l->cur, h)
      || (guint16) (l->run_first - l->high) >= 0x8000;
  {
    guint n = l->run_len;

    lock_on (l, h);
    /* lock_on() empties the run; the replay still needs its length */
    l->run_len = n;
  }
  return ST2022_LOCK_RELOCK;
}

St2022LockVerdict
st2022_stream_lock_push (St2022StreamLock * l, const guint8 * data, gsize len,
    St2022Header * hdr)
{
  gint16 d;

  /* the previous RELOCK's replay is consumed */
  if (G_UNLIKELY (l->run_len >= l->confirm))
    l->run_len = 0;

  if (st2022_header_parse_cached (&l->hcache, data, len, hdr) != ST2022_OK
      || (l->pt_filter >= 0 && hdr->payload_type != l->pt_filter))
    return ST2022_LOCK_INVALID;
  if (l->filter_ssrc && hdr->ssrc != l->ssrc_filter) {
    l->stats.foreign++;
    return ST2022_LOCK_FOREIGN;
  }
  if (G_UNLIKELY (!l->locked)) {
    lock_on (l, hdr);
    return ST2022_LOCK_ACCEPT;
  }
  if (!same_stream (&l->cur, hdr))
    return candidate (l, data, len, hdr, ST2022_LOCK_FOREIGN);

  d = (gint16) (hdr->seq - l->high);
  if (d < -ST2022_LOCK_WINDOW_BEHIND || (d > ST2022_LOCK_WINDOW_AHEAD
          && (guint64) (d - 1) > l->dropped))
    return candidate (l, data, len, hdr, ST2022_LOCK_OUT_OF_WINDOW);

  /* the locked stream goes on (past a gap the transport's drops explain,
   * if any): whatever run was building was strays */
  l->run_len = 0;
  if (d > 0) {
    l->high = hdr->seq;
    l->dropped -= MIN (l->dropped, (guint64) (d - 1));
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
  return l->run_len >= l->confirm ? l->run_len : 0;
}

const guint8 *
st2022_stream_lock_replay (St2022StreamLock * l, guint i, gsize * len)
{
  if (i >= st2022_stream_lock_replay_count (l))
    return NULL;
  *len = l->run_sizes[i];
  return l->run_data + (gsize) i * ST2022_DATAGRAM_SIZE;
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
  l->run_len = 0;
  l->dropped = 0;
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
