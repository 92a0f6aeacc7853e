/* gst-vmi: fault injection beyond plain loss, against the ST 2022-6
 * depacketizer, with exact counters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An in-process relay: senders build every datagram of their frames (valid
 * headers from st2022_header_pack(), one payload), the relay applies a fault
 * to that list (loss bursts at frame boundaries, reordering across frame
 * boundaries, a restarted sender with a new SSRC mid-frame, a format switch
 * every frame, duplicated markers) and feeds the result to the
 * depacketizer. Every expectation is derived from the semantics written in
 * docs/st2022-6.md section 3 (frame identity, stream identity, reorder
 * window, loss accounting); each case says which rule gives its numbers.
 * (The network path with the same faults, through st2022src, is covered for
 * loss/reorder/duplicates by tests/net; these cases need datagram-exact
 * control that a socket on a loaded machine cannot promise.)
 */

#include <gst/check/gstcheck.h>
#include <string.h>

#include "st2022.h"

#define DG_MAX (ST2022_DATAGRAM_SIZE + 16)

typedef struct
{
  guint8 data[DG_MAX];
  gsize len;
} Dgram;

typedef struct
{
  const St2022Format *f;
  guint32 ssrc;
  guint16 seq;
  guint8 frcount;
  guint32 rtp;
} Sender;

typedef struct
{
  guint8 frcount;
  guint32 ssrc;
  guint missing;
  gboolean aborted, marker;
  const St2022Format *format;
} Ended;

typedef struct
{
  St2022Depacketizer *d;
  GArray *ended;                /* Ended */
  guint8 *slot[2];
  gsize slot_size;
  guint busy;
  guint format_changed;         /* format_changed callbacks */
} Receiver;

static const St2022Format *
format_by_name (const gchar * name)
{
  guint i;

  for (i = 0; i < st2022_format_count (); i++)
    if (g_str_equal (st2022_format_get (i)->name, name))
      return st2022_format_get (i);
  g_error ("no format %s", name);
  return NULL;
}

static void
sender_init (Sender * s, const gchar * format, guint32 ssrc, guint16 seq,
    guint8 frcount)
{
  s->f = format_by_name (format);
  s->ssrc = ssrc;
  s->seq = seq;
  s->frcount = frcount;
  s->rtp = 1000;
}

/* appends every datagram of the next frame; returns the index of its
 * datagram 0 in @out */
static guint
sender_frame (Sender * s, GArray * out)
{
  static guint8 payload[ST2022_PAYLOAD_SIZE];
  guint n = s->f->datagrams_per_frame, i, first = out->len;

  g_array_set_size (out, out->len + n);
  for (i = 0; i < n; i++) {
    Dgram *g = &g_array_index (out, Dgram, first + i);
    St2022Header h = { 0, };
    guint hl;

    h.marker = i == n - 1;
    h.payload_type = 98;
    h.seq = s->seq++;
    h.rtp_ts = s->rtp;
    h.ssrc = s->ssrc;
    h.f = TRUE;
    h.frcount = s->frcount;
    h.frame = s->f->frame_code;
    h.frate = s->f->frate_code;
    h.sample = s->f->sample_code;
    fail_unless (st2022_header_pack (&h, g->data, sizeof (g->data)) ==
        ST2022_OK);
    hl = st2022_header_size (&h);
    memcpy (g->data + hl, payload, ST2022_PAYLOAD_SIZE);
    g->len = hl + ST2022_PAYLOAD_SIZE;
  }
  s->frcount++;
  s->rtp += s->f->rtp_ts_increment;
  return first;
}

/* appends @n frames; returns the index of frame 2's datagram 0 in @out */
static guint
sender_frames (Sender * s, GArray * out, guint n)
{
  guint k, f2 = 0;

  for (k = 0; k < n; k++) {
    guint first = sender_frame (s, out);
    if (k == 2)
      f2 = first;
  }
  return f2;
}

static gboolean
rx_begin (gpointer user, const St2022Format * fmt, const St2022Header * hdr,
    St2022Target * t)
{
  Receiver *r = user;
  guint slot = (r->busy & 1) ? 1 : 0;

  fail_if (r->busy == 3, "more than two frames in flight");
  if (r->slot_size < fmt->frame_bytes) {
    r->slot[0] = g_realloc (r->slot[0], fmt->frame_bytes);
    r->slot[1] = g_realloc (r->slot[1], fmt->frame_bytes);
    r->slot_size = fmt->frame_bytes;
  }
  r->busy |= 1u << slot;
  t->type = ST2022_TARGET_RASTER;
  t->data = r->slot[slot];
  t->size = fmt->frame_bytes;
  t->user_data = GUINT_TO_POINTER (slot);
  return TRUE;
}

static void
rx_end (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  Receiver *r = user;
  Ended e = { info->frcount, info->ssrc, info->missing, info->aborted,
    info->marker, info->format
  };

  r->busy &= ~(1u << GPOINTER_TO_UINT (t->user_data));
  g_array_append_val (r->ended, e);
}

static void
rx_format (gpointer user, const St2022Format * old_fmt,
    const St2022Format * new_fmt)
{
  ((Receiver *) user)->format_changed++;
}

static const St2022DepacketizerCallbacks rx_cb = { rx_begin, rx_end,
  rx_format
};

/* the relay's output, in order, into a new depacketizer; then flush */
static void
receive (Receiver * r, GArray * wire, St2022DepacketizerStats * st)
{
  guint i;

  memset (r, 0, sizeof (*r));
  r->ended = g_array_new (FALSE, FALSE, sizeof (Ended));
  r->d = st2022_depacketizer_new (&rx_cb, r);
  for (i = 0; i < wire->len; i++) {
    Dgram *g = &g_array_index (wire, Dgram, i);
    fail_unless (st2022_depacketizer_push (r->d, g->data, g->len, i) ==
        ST2022_OK);
  }
  st2022_depacketizer_flush (r->d);
  st2022_depacketizer_get_stats (r->d, st);
  fail_unless_equals_int (r->busy, 0);
}

static void
receiver_clear (Receiver * r)
{
  st2022_depacketizer_free (r->d);
  g_array_free (r->ended, TRUE);
  g_free (r->slot[0]);
  g_free (r->slot[1]);
}

/* relay faults */
static void
drop (GArray * w, guint from, guint n)
{
  g_array_remove_range (w, from, n);
}

static void
move (GArray * w, guint from, guint to)
{
  Dgram g = g_array_index (w, Dgram, from);

  g_array_remove_index (w, from);
  g_array_insert_val (w, to > from ? to - 1 : to, g);
}

static void
duplicate (GArray * w, guint index, guint to)
{
  Dgram g = g_array_index (w, Dgram, index);

  g_array_insert_val (w, to, g);
}

#define N720 (format_by_name ("720p59.94")->datagrams_per_frame)

static void
check_counters (const St2022DepacketizerStats * st, guint64 packets,
    guint64 lost, guint64 reordered, guint64 duplicate, guint64 discarded,
    guint64 frames, guint64 corrupted, guint64 skipped, guint64 aborted,
    guint64 format_changes)
{
  fail_unless_equals_uint64 (st->packets, packets);
  fail_unless_equals_uint64 (st->packets_lost, lost);
  fail_unless_equals_uint64 (st->packets_reordered, reordered);
  fail_unless_equals_uint64 (st->packets_duplicate, duplicate);
  fail_unless_equals_uint64 (st->packets_discarded, discarded);
  fail_unless_equals_uint64 (st->packets_invalid, 0);
  fail_unless_equals_uint64 (st->frames, frames);
  fail_unless_equals_uint64 (st->frames_corrupted, corrupted);
  fail_unless_equals_uint64 (st->frames_skipped, skipped);
  fail_unless_equals_uint64 (st->frames_aborted, aborted);
  fail_unless_equals_uint64 (st->frames_dropped, 0);
  fail_unless_equals_uint64 (st->format_changes, format_changes);
}

/* A burst of 10 + 10 datagrams around the boundary of frames 1 and 2 (the
 * marker of frame 1 among them). Loss accounting: each frame ends with its
 * own missing datagrams (frame 1 given up by the reorder window, frame 2
 * when frame 3 passes its window), so lost = 20, two frames corrupted,
 * none skipped. */
GST_START_TEST (test_burst_loss_at_frame_boundary)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  const guint N = N720;
  St2022DepacketizerStats st;
  Receiver r;
  Sender s;
  guint k, f2 = 0;

  sender_init (&s, "720p59.94", 7, 65000, 250);  /* seq and FRCount wrap */
  f2 = sender_frames (&s, w, 5);
  drop (w, f2 - 10, 20);
  receive (&r, w, &st);

  check_counters (&st, 5 * N - 20, 20, 0, 0, 0, 5, 2, 0, 0, 0);
  fail_unless_equals_int (r.ended->len, 5);
  for (k = 0; k < 5; k++) {
    Ended *e = &g_array_index (r.ended, Ended, k);
    fail_unless_equals_int (e->frcount, (guint8) (250 + k));
    fail_unless_equals_int (e->missing, k == 1 || k == 2 ? 10 : 0);
    fail_unless_equals_int (e->marker, k != 1);
    fail_if (e->aborted);
  }
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

/* A burst that swallows the end of frame 1, all of frame 2 and the start
 * of frame 3: frame 2 is "wholly skipped between two received frames"
 * (frames_skipped 1, N datagrams lost) and frames 1 and 3 end corrupted. */
GST_START_TEST (test_burst_loss_whole_frame)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  const guint N = N720;
  St2022DepacketizerStats st;
  Receiver r;
  Sender s;
  guint f2;

  sender_init (&s, "720p59.94", 7, 100, 0);
  f2 = sender_frames (&s, w, 5);
  drop (w, f2 - 5, 5 + N + 7);
  receive (&r, w, &st);

  check_counters (&st, 5 * N - (N + 12), N + 12, 0, 0, 0, 4, 2, 1, 0, 0);
  fail_unless_equals_int (r.ended->len, 4);
  fail_unless_equals_int (g_array_index (r.ended, Ended, 1).missing, 5);
  fail_unless_equals_int (g_array_index (r.ended, Ended, 2).frcount, 3);
  fail_unless_equals_int (g_array_index (r.ended, Ended, 2).missing, 7);
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

/* Reordering across the boundary of frames 1 and 2, within the window:
 * frame 1's marker arrives after frame 2's datagram 0, and frame 1's
 * datagram N-5 after frame 2's datagram 3. Frame identity comes from the
 * sequence number, so both land in frame 1: nothing lost, 2 reordered,
 * every frame complete. */
GST_START_TEST (test_reorder_across_frame_boundary)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  const guint N = N720;
  St2022DepacketizerStats st;
  Receiver r;
  Sender s;
  guint k, f2 = 0;

  sender_init (&s, "720p59.94", 7, 100, 0);
  f2 = sender_frames (&s, w, 4);
  /* wire: ... N-6, N-4, N-3, N-2, [2:0], [1:N-1], [2:1..3], [1:N-5], ... */
  move (w, f2 - 1, f2 + 1);     /* marker after frame 2's datagram 0 */
  move (w, f2 - 5, f2 + 4);     /* N-5 after frame 2's datagram 3 */
  receive (&r, w, &st);

  check_counters (&st, 4 * N, 0, 2, 0, 0, 4, 0, 0, 0, 0);
  for (k = 0; k < 4; k++) {
    fail_unless_equals_int (g_array_index (r.ended, Ended, k).missing, 0);
    fail_unless_equals_int (g_array_index (r.ended, Ended, k).frcount, k);
  }
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

/* Reordering beyond the window: frame 1's datagram N-5 arrives after
 * frame 2's datagram 40 (more than 32 sequence numbers past frame 1's
 * last). Frame 1 was given up with it missing (corrupted 1); when it comes
 * it is "too late for its frame": discarded and reordered, and no longer
 * lost (it arrived: issue 23, D4, packets + packets-lost = sent). A second
 * copy of it is a duplicate. */
GST_START_TEST (test_reorder_beyond_window)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  const guint N = N720;
  St2022DepacketizerStats st;
  Receiver r;
  Sender s;
  guint f2;

  sender_init (&s, "720p59.94", 7, 100, 0);
  f2 = sender_frames (&s, w, 4);
  move (w, f2 - 5, f2 + 41);
  duplicate (w, f2 + 40, f2 + 43);
  receive (&r, w, &st);

  check_counters (&st, 4 * N + 1, 0, 1, 1, 1, 4, 1, 0, 0, 0);
  fail_unless_equals_int (g_array_index (r.ended, Ended, 1).missing, 1);
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

/* The sender restarts mid-frame with a new SSRC, sequence number and
 * FRCount, and starts again at a frame start. Stream identity: the first
 * datagram with the new SSRC ends the pending frame (frame 2 of the old
 * sender, 1000 of N datagrams: lost N - 1000, corrupted) and counts one
 * format change, and the hunt for a frame start restarts. The new sender's
 * datagram 0 does not follow a consecutive sequence number (rule 2) and
 * the depacketizer has seen a stream before (no guess, rule 3), so its
 * first frame is discarded (N datagrams) until its marker anchors the
 * next (rule 1): 2 of its 3 frames come out, complete. The sequence gap
 * across the restart is not loss. */
GST_START_TEST (test_sender_restart_new_ssrc)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  const guint N = N720;
  St2022DepacketizerStats st;
  Receiver r;
  Sender a, b;
  guint k;

  sender_init (&a, "720p59.94", 1111, 100, 0);
  for (k = 0; k < 3; k++)
    sender_frame (&a, w);
  g_array_set_size (w, 2 * N + 1000);
  sender_init (&b, "720p59.94", 2222, 40000, 77);
  for (k = 0; k < 3; k++)
    sender_frame (&b, w);
  receive (&r, w, &st);

  check_counters (&st, 5 * N + 1000, N - 1000, 0, 0, N, 5, 1, 0, 0, 1);
  fail_unless_equals_int (r.ended->len, 5);
  for (k = 0; k < 5; k++) {
    Ended *e = &g_array_index (r.ended, Ended, k);
    fail_unless_equals_int (e->ssrc, k < 3 ? 1111 : 2222);
    fail_unless_equals_int (e->frcount, k < 3 ? k : 78 + k - 3);
    fail_unless_equals_int (e->missing, k == 2 ? N - 1000 : 0);
  }
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

/* The restarted sender starts mid-frame (its first datagram is datagram
 * 500 of its frame). As above, nothing anchors the new stream before its
 * first marker (rule 1): the N - 500 datagrams before it are discarded
 * (not loss, no frame, nothing aborted since nothing was guessed), and its
 * next two frames are complete. */
GST_START_TEST (test_sender_restart_mid_frame)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  const guint N = N720;
  St2022DepacketizerStats st;
  Receiver r;
  Sender a, b;
  guint k, b0;

  sender_init (&a, "720p59.94", 1111, 100, 0);
  for (k = 0; k < 2; k++)
    sender_frame (&a, w);
  sender_init (&b, "720p59.94", 2222, 40000, 77);
  b0 = w->len;
  for (k = 0; k < 3; k++)
    sender_frame (&b, w);
  drop (w, b0, 500);
  receive (&r, w, &st);

  check_counters (&st, 2 * N + 3 * N - 500, 0, 0, 0, N - 500, 4, 0, 0, 0, 1);
  fail_unless_equals_int (r.ended->len, 4);
  for (k = 0; k < 4; k++) {
    Ended *e = &g_array_index (r.ended, Ended, k);
    fail_unless_equals_int (e->frcount, k < 2 ? k : 78 + k - 2);
    fail_unless_equals_int (e->missing, 0);
    fail_if (e->aborted);
  }
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

/* The format switches every frame (720p59.94 / 1080i59.94, one sender,
 * continuous sequence numbers). Stream identity: each switch ends the
 * pending frames (none: the previous frame was complete) and counts a
 * format change; the new format's first datagram follows a datagram of
 * another format, so it starts a frame. Every frame complete. */
GST_START_TEST (test_format_switch_every_frame)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  St2022DepacketizerStats st;
  Receiver r;
  Sender s;
  guint k, total = 0;
  const gchar *names[] = { "720p59.94", "1080i59.94" };

  sender_init (&s, names[0], 9, 60000, 0);
  for (k = 0; k < 6; k++) {
    s.f = format_by_name (names[k % 2]);
    sender_frame (&s, w);
    total += s.f->datagrams_per_frame;
  }
  receive (&r, w, &st);

  check_counters (&st, total, 0, 0, 0, 0, 6, 0, 0, 0, 5);
  fail_unless_equals_int (r.format_changed, 6);  /* the first: from NULL */
  for (k = 0; k < 6; k++) {
    Ended *e = &g_array_index (r.ended, Ended, k);
    fail_unless (e->format == format_by_name (names[k % 2]));
    fail_unless_equals_int (e->missing, 0);
  }
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

/* Duplicated markers: every frame's marker is sent twice back to back, and
 * frame 1's once more after frame 2's datagram 0. A duplicate is "a
 * sequence number already received for a pending frame or for the most
 * recently ended one": 4 + 1 duplicates, counted in packets, nothing else
 * changes (no extra frame ends, nothing lost). */
GST_START_TEST (test_duplicated_markers)
{
  GArray *w = g_array_new (FALSE, FALSE, sizeof (Dgram));
  const guint N = N720;
  St2022DepacketizerStats st;
  Receiver r;
  Sender s;
  guint k, at[4];

  sender_init (&s, "720p59.94", 7, 100, 0);
  for (k = 0; k < 4; k++)
    at[k] = sender_frame (&s, w);
  /* from the back, so earlier indices stay valid */
  for (k = 4; k-- > 0;)
    duplicate (w, at[k] + N - 1, at[k] + N);
  /* frame 1's marker, now at at[1] + N - 1 + 1 (one dup before it),
   * once more after frame 2's datagram 0 */
  duplicate (w, at[1] + 1 + N - 1, at[2] + 2 + 1);
  receive (&r, w, &st);

  check_counters (&st, 4 * N + 5, 0, 0, 5, 0, 4, 0, 0, 0, 0);
  fail_unless_equals_int (r.ended->len, 4);
  receiver_clear (&r);
  g_array_free (w, TRUE);
}

GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("faults");
  TCase *tc = tcase_create ("depacketizer");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_burst_loss_at_frame_boundary);
  tcase_add_test (tc, test_burst_loss_whole_frame);
  tcase_add_test (tc, test_reorder_across_frame_boundary);
  tcase_add_test (tc, test_reorder_beyond_window);
  tcase_add_test (tc, test_sender_restart_new_ssrc);
  tcase_add_test (tc, test_sender_restart_mid_frame);
  tcase_add_test (tc, test_format_switch_every_frame);
  tcase_add_test (tc, test_duplicated_markers);
  return s;
}

GST_CHECK_MAIN (faults);
