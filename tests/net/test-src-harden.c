/* gst-vmi tests: st2022src against a hostile or unreliable network, fed by
 * a datagram-level sender written from the reference (tests/net/st2022-ref):
 * stray datagrams, a flood of SSRCs, sender restarts and sequence jumps,
 * a slow consumer with kernel receive-queue overflow, and signal loss. The
 * sender waits for the receiver's frames (appsink) or statistics (bus), never
 * for a time. */

#include "net-common.h"

#include <string.h>
#include <unistd.h>

#include "../../gst/st2022-elements/gstst2022meta.h"

#define N_PICS 4
/* The sending thread of a loaded test machine can stall inside a frame;
 * the receiver gives a frame up after `timeout` of silence, so tests that
 * count corrupted frames give it long */
#define TOLERANT "timeout=10000000000"

typedef struct
{
  const RefFormat *f;
  guint8 **pics;                /* UYVP */
  guint8 *rasters[N_PICS];
  int fd;
  guint16 port;
  guint n;                      /* datagrams per frame */
  /* the stream */
  guint32 ssrc;
  guint16 seq;
  guint8 frcount;
  guint32 rtp_ts;
  guint64 sent;
  guint frames_sent;
} RawSender;

static void
raw_sender_init (RawSender * s, const RefFormat * f, guint16 port)
{
  guint i;

  s->f = f;
  s->pics = net_make_pictures (f, N_PICS, port);
  for (i = 0; i < N_PICS; i++) {
    s->rasters[i] = g_malloc (ref_frame_bytes (f));
    ref_build_raster (f, s->pics[i], f->width * 5 / 2, s->rasters[i]);
  }
  s->fd = ref_udp_sender ();
  s->port = port;
  s->n = ref_datagrams (f);
  s->ssrc = 0x5eed0001;
  s->seq = 1000;
  s->frcount = 0;
  s->rtp_ts = 0;
  s->sent = 0;
  s->frames_sent = 0;
}

static void
raw_sender_clear (RawSender * s)
{
  guint i;

  for (i = 0; i < N_PICS; i++)
    g_free (s->rasters[i]);
  net_free_pictures (s->pics, N_PICS);
  close (s->fd);
}

static void
raw_send (RawSender * s, const guint8 * dg)
{
  ref_udp_sendto (s->fd, "127.0.0.1", s->port, dg, REF_DATAGRAM);
}

/* The next frame: its numbers, whether or not this one was sent whole */
static void
raw_next_frame (RawSender * s)
{
  s->seq += s->n;
  s->frcount++;
  s->rtp_ts += ref_rtp_per_frame (s->f);
  s->frames_sent++;
}

/* Datagrams @from..@to-1 of the frame being sent (s->seq its first),
 * numbered as their place in it says */
static void
raw_send_part (RawSender * s, guint from, guint to)
{
  guint8 dg[REF_DATAGRAM];
  guint i;

  for (i = from; i < to; i++) {
    ref_pack_datagram (s->f, s->rasters[s->frcount % N_PICS], i,
        (guint16) (s->seq + i), s->rtp_ts, s->ssrc, s->frcount, 0, 98, dg);
    raw_send (s, dg);
    s->sent++;
  }
}

/* Called after datagram @i of each frame, e.g. to inject strays */
typedef void (*RawHook) (RawSender * s, guint i, gpointer user_data);

/* One frame: picture frcount % N_PICS, so the receiver can check it */
static void
raw_send_frame (RawSender * s, RawHook hook, gpointer user_data)
{
  guint8 dg[REF_DATAGRAM];
  guint i;

  for (i = 0; i < s->n; i++) {
    ref_pack_datagram (s->f, s->rasters[s->frcount % N_PICS], i, s->seq++,
        s->rtp_ts, s->ssrc, s->frcount, 0, 98, dg);
    raw_send (s, dg);
    s->sent++;
    if (hook)
      hook (s, i, user_data);
  }
  /* (s->seq has moved on datagram by datagram: the hooks read it) */
  s->seq -= s->n;
  raw_next_frame (s);
}

/* The receiving pipeline: frames checked as they come (not kept: hundreds
 * of HD frames), element messages collected from a sync handler. */
typedef struct
{
  GstElement *pipeline, *src;
  RawSender *s;
  GMutex lock;
  GCond cond;
  guint frames, corrupted, mismatched;
  gint last_frcount;            /* of the last frame out, -1: none */
  GstStructure *stats;          /* the last st2022-stats */
  guint n_stats;
  /* st2022-stats messages in a row whose packet count did not move: the
   * receive thread posts them, between receives, so two such mean it read
   * everything the kernel held */
  guint n_still;
  /* ... and whose frames + frames-dropped did not move */
  guint n_told_still;
  guint n_timeouts, n_timeouts_lost;
  guint stats_at_timeout;
  gchar *error;
} Rx;

static GstFlowReturn
rx_new_sample (GstAppSink * sink, gpointer user_data)
{
  Rx *rx = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GstSt2022Meta *m = net_get_meta (buf);
  gboolean corrupted = GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  gboolean bad = FALSE;

  if (!corrupted) {
    const RefFormat *f = rx->s->f;
    guint8 *got = net_buffer_to_uyvp (buf, gst_sample_get_caps (sample), f);

    bad = memcmp (got, rx->s->pics[m->frcount % N_PICS],
        f->width * 5 / 2 * f->height) != 0;
    g_free (got);
  }
  g_mutex_lock (&rx->lock);
  rx->frames++;
  rx->corrupted += corrupted;
  rx->mismatched += bad;
  rx->last_frcount = m->frcount;
  g_cond_broadcast (&rx->cond);
  g_mutex_unlock (&rx->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static GstBusSyncReply
rx_bus (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Rx *rx = user_data;

  g_mutex_lock (&rx->lock);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR && rx->error == NULL) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    rx->error = g_strdup (err->message);
    g_error_free (err);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_message_has_name (msg, "st2022-stats")) {
    const GstStructure *st = gst_message_get_structure (msg);

    if (rx->stats && net_stat (rx->stats, "packets") == net_stat (st,
            "packets"))
      rx->n_still++;
    else
      rx->n_still = 0;
    if (rx->stats && net_stat (rx->stats, "frames") + net_stat (rx->stats,
            "frames-dropped") == net_stat (st, "frames") + net_stat (st,
            "frames-dropped"))
      rx->n_told_still++;
    else
      rx->n_told_still = 0;
    if (rx->stats)
      gst_structure_free (rx->stats);
    rx->stats = gst_structure_copy (st);
    rx->n_stats++;
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_message_has_name (msg, "st2022-timeout")) {
    gboolean lost = FALSE;

    gst_structure_get_boolean (gst_message_get_structure (msg), "signal-lost",
        &lost);
    rx->n_timeouts++;
    rx->n_timeouts_lost += lost;
    rx->stats_at_timeout = rx->n_stats;
  }
  g_cond_broadcast (&rx->cond);
  g_mutex_unlock (&rx->lock);
  return GST_BUS_DROP;
}

static void
rx_start (Rx * rx, RawSender * s, const gchar * src_props,
    const gchar * between, GstState state)
{
  GstAppSinkCallbacks cb = { NULL, NULL, rx_new_sample };
  gchar *desc = g_strdup_printf ("st2022src name=src address=127.0.0.1 "
      "port=%u %s ! %s appsink name=sink sync=false", s->port, src_props,
      between);
  GstElement *sink;
  GstBus *bus;

  memset (rx, 0, sizeof (*rx));
  rx->s = s;
  rx->last_frcount = -1;
  g_mutex_init (&rx->lock);
  g_cond_init (&rx->cond);
  rx->pipeline = gst_parse_launch (desc, NULL);
  fail_unless (rx->pipeline != NULL, "cannot build '%s'", desc);
  g_free (desc);
  rx->src = gst_bin_get_by_name (GST_BIN (rx->pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (rx->pipeline), "sink");
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, rx, NULL);
  gst_object_unref (sink);
  bus = gst_element_get_bus (rx->pipeline);
  gst_bus_set_sync_handler (bus, rx_bus, rx, NULL);
  gst_object_unref (bus);
  /* live: the socket is bound when the state change returns */
  fail_unless (gst_element_set_state (rx->pipeline, state) !=
      GST_STATE_CHANGE_FAILURE);
}

static void
rx_stop (Rx * rx)
{
  gst_element_set_state (rx->pipeline, GST_STATE_NULL);
  gst_object_unref (rx->src);
  gst_object_unref (rx->pipeline);
  if (rx->stats)
    gst_structure_free (rx->stats);
  g_free (rx->error);
  g_mutex_clear (&rx->lock);
  g_cond_clear (&rx->cond);
}

/* Waits (for at most a minute, a hang) until @cond holds, under the lock */
#define RX_WAIT(R_, C_) G_STMT_START {                                  \
  gint64 _end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;            \
  g_mutex_lock (&(R_)->lock);                                             \
  while (!(C_)) {                                                       \
    fail_unless ((R_)->error == NULL, "error: %s", (R_)->error);          \
    fail_unless (g_cond_wait_until (&(R_)->cond, &(R_)->lock, _end),      \
        "timed out waiting for " #C_);                                  \
  }                                                                       \
  g_mutex_unlock (&(R_)->lock);                                           \
} G_STMT_END

/* The element's counters now (the property) */
static guint64
rx_stat (Rx * rx, const gchar * field)
{
  GstStructure *s;
  guint64 v;

  g_object_get (rx->src, "stats", &s, NULL);
  v = net_stat (s, field);
  gst_structure_free (s);
  return v;
}

/* The counter identities (docs/elements.md "Counters that add up") from
 * what the sender knows: @arrived datagrams reached the port (the stream's,
 * strays, spoofs, markers; minus what the kernel dropped), @sent of them
 * were the locked stream's, @frames frames it sent, @cut of them cut in
 * two by a renumbering (the part before ends incomplete, the part after
 * is an aborted guess). */
static void
check_identities (const GstStructure * st, guint64 arrived, guint64 sent,
    guint64 frames, guint64 cut)
{
  guint64 packets = net_stat (st, "packets");
  guint64 dup = net_stat (st, "packets-duplicate");
  guint64 discarded = net_stat (st, "packets-discarded");
  gchar *all = gst_structure_to_string (st);

  /* the stream's datagrams: each arrived once, or is lost */
  fail_unless (packets - dup + net_stat (st, "packets-lost") == sent,
      "packets - duplicate + lost != %" G_GUINT64_FORMAT " sent: %s", sent,
      all);
  /* every datagram that arrived is counted in exactly one counter */
  fail_unless ((packets - dup - discarded) + dup + discarded +
      net_stat (st, "packets-out-of-window") + net_stat (st,
          "packets-foreign") + net_stat (st, "packets-invalid") == arrived,
      "accepted + duplicate + discarded + out-of-window + foreign + invalid "
      "!= %" G_GUINT64_FORMAT " arrived: %s", arrived, all);
  /* every frame is pushed, dropped (skipped included) or aborted */
  fail_unless (net_stat (st, "frames") + net_stat (st, "frames-dropped") +
      net_stat (st, "frames-aborted") == frames + cut,
      "frames + dropped + aborted != %" G_GUINT64_FORMAT " sent + %"
      G_GUINT64_FORMAT " cut: %s", frames, cut, all);
  g_free (all);
}

static void
rx_check_identities (Rx * rx, guint64 arrived, guint64 sent, guint64 frames,
    guint64 cut)
{
  GstStructure *st;

  g_object_get (rx->src, "stats", &st, NULL);
  check_identities (st, arrived, sent, frames, cut);
  gst_structure_free (st);
}

/* Sends @n frames, each once the receiver has output all but two of the
 * frames before it (it keeps up, the kernel drops nothing) */
static void
send_frames_paced (Rx * rx, RawSender * s, guint n, guint already_out,
    RawHook hook, gpointer user_data)
{
  guint k;

  for (k = 0; k < n; k++) {
    guint want = already_out + (k >= 2 ? k - 2 : 0);

    RX_WAIT (rx, rx->frames >= want);
    raw_send_frame (s, hook, user_data);
  }
}

/* --- strays ------------------------------------------------------------ */

typedef struct
{
  GRand *rand;
  guint left, foreign, random_seq;
} Strays;

/* Every 8th frame, one stray: alternately another sender's datagram (its
 * own SSRC and sequence) and one with our SSRC and a random sequence
 * number and FRCount, at a varying place in the frame. */
static void
stray_hook (RawSender * s, guint i, gpointer user_data)
{
  Strays *st = user_data;
  guint8 dg[REF_DATAGRAM];

  if (st->left == 0 || s->frames_sent % 8 != 3
      || i != (s->frames_sent * 131) % s->n)
    return;
  if (st->left % 2) {
    ref_pack_datagram (s->f, s->rasters[0], g_rand_int_range (st->rand, 0,
            s->n), g_rand_int (st->rand), g_rand_int (st->rand),
        0xbad00000 + st->left, s->frcount, 0, 98, dg);
    st->foreign++;
  } else {
    ref_pack_datagram (s->f, s->rasters[1], i, g_rand_int (st->rand),
        s->rtp_ts, s->ssrc, g_rand_int (st->rand), 0, 98, dg);
    st->random_seq++;
  }
  raw_send (s, dg);
  st->left--;
}

GST_START_TEST (test_strays_corrupt_nothing)
{
  const guint FRAMES = 250;
  RawSender s;
  Rx rx;
  Strays st = { g_rand_new_with_seed (15), 30, 0, 0 };

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=0 " TOLERANT, "", GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, FRAMES, 0, stray_hook, &st);
  RX_WAIT (&rx, rx.frames >= FRAMES);

  {
    GstStructure *stats;

    g_object_get (rx.src, "stats", &stats, NULL);
    GST_INFO ("%" GST_PTR_FORMAT, stats);
    gst_structure_free (stats);
  }
  fail_unless_equals_int (st.left, 0);
  fail_unless_equals_int (rx.frames, FRAMES);
  fail_unless_equals_int (rx.corrupted, 0);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames"), FRAMES);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-corrupted"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-dropped"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "format-changes"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-foreign"), st.foreign);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-out-of-window"),
      st.random_seq);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets"), s.sent);
  rx_check_identities (&rx, s.sent + 30, s.sent, FRAMES, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
  g_rand_free (st.rand);
}

GST_END_TEST;

/* After every datagram of the stream, one with a new SSRC */
typedef struct
{
  guint left, sent;
} Flip;

static void
flip_hook (RawSender * s, guint i, gpointer user_data)
{
  Flip *fl = user_data;
  guint8 dg[REF_DATAGRAM];

  if (fl->left == 0)
    return;
  ref_pack_datagram (s->f, s->rasters[2], i, (guint16) (s->seq + 7919 * i),
      s->rtp_ts, 0x10000000 + fl->left, s->frcount, 0, 98, dg);
  raw_send (s, dg);
  fl->left--;
  fl->sent++;
}

GST_START_TEST (test_ssrc_flood_costs_nothing)
{
  RawSender s;
  Rx rx;
  Flip fl = { 45000, 0 };
  guint frames;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  frames = (45000 + s.n - 1) / s.n;
  rx_start (&rx, &s, "stats-interval=0 " TOLERANT, "", GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, frames, 0, flip_hook, &fl);
  RX_WAIT (&rx, rx.frames >= frames);

  fail_unless_equals_int (fl.sent, 45000);
  fail_unless_equals_int (rx.frames, frames);
  fail_unless_equals_int (rx.corrupted, 0);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-corrupted"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-foreign"), 45000);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets"), s.sent);
  fail_unless_equals_uint64 (rx_stat (&rx, "stream-locks"), 1);
  rx_check_identities (&rx, s.sent + 45000, s.sent, frames, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* --- the lock: strays first, after a loss, spoofs in the window -------- */

/* A foreign datagram (a new SSRC each) after every 10th of the stream */
static void
tenth_hook (RawSender * s, guint i, gpointer user_data)
{
  Flip *fl = user_data;
  guint8 dg[REF_DATAGRAM];

  if (i % 10 != 9)
    return;
  ref_pack_datagram (s->f, s->rasters[3], i, (guint16) (s->seq * 31),
      s->rtp_ts, 0x20000000 + fl->sent, s->frcount, 0, 98, dg);
  raw_send (s, dg);
  fl->sent++;
}

/* D2: a stray arriving before the stream took the lock, and the real
 * stream, with a foreign datagram per 10 of its own, never completed its
 * confirming run: up to 13 of 30 frames were lost, in no loss counter. */
GST_START_TEST (test_stray_first_costs_nothing)
{
  const guint FRAMES = 30;
  RawSender s;
  Rx rx;
  Flip fl = { 0, 0 };
  guint8 dg[REF_DATAGRAM];

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=0 " TOLERANT, "", GST_STATE_PLAYING);
  ref_pack_datagram (s.f, s.rasters[3], 5, 40000, 0, 0xbad0bad0, 9, 0, 98,
      dg);
  raw_send (&s, dg);
  fl.sent++;
  send_frames_paced (&rx, &s, FRAMES, 0, tenth_hook, &fl);
  RX_WAIT (&rx, rx.frames >= FRAMES);

  fail_unless_equals_int (rx.frames, FRAMES);
  fail_unless_equals_int (rx.corrupted, 0);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames"), FRAMES);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-dropped"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets"), s.sent);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-discarded"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-foreign"), fl.sent);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-out-of-window"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "stream-locks"), 1);
  rx_check_identities (&rx, s.sent + fl.sent, s.sent, FRAMES, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* D2: strays arriving after the sender stopped made the signal state flap
 * once per timeout (each took the lock, "restoring" the signal). */
GST_START_TEST (test_strays_after_loss_restore_nothing)
{
  RawSender s;
  Rx rx;
  guint k, timeouts;
  guint64 lost, restored, locks;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=20 timeout=300000000", "",
      GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, 3, 0, NULL, NULL);
  RX_WAIT (&rx, rx.frames >= 3);
  /* the silence after the last frame (a loaded machine may have stalled
   * the sender mid-stream for longer than the timeout too: the counts
   * after the stream are the baseline) */
  g_mutex_lock (&rx.lock);
  timeouts = rx.n_timeouts;
  g_mutex_unlock (&rx.lock);
  RX_WAIT (&rx, rx.n_timeouts > timeouts && rx.stats != NULL &&
      net_stat (rx.stats, "signal-lost") == rx.n_timeouts_lost);
  g_mutex_lock (&rx.lock);
  timeouts = rx.n_timeouts;
  lost = net_stat (rx.stats, "signal-lost");
  restored = net_stat (rx.stats, "signal-restored");
  locks = net_stat (rx.stats, "stream-locks");
  g_mutex_unlock (&rx.lock);
  for (k = 0; k < 3; k++) {
    guint8 dg[REF_DATAGRAM];
    guint mark;

    ref_pack_datagram (s.f, s.rasters[3], 7, (guint16) (777 * k), 0,
        0xbad00000 + k, 3, 0, 98, dg);
    raw_send (&s, dg);
    RX_WAIT (&rx, rx.stats != NULL && net_stat (rx.stats,
            "packets-foreign") == k + 1);
    /* longer than the timeout, timed by the receiver's stats (20 ms) */
    g_mutex_lock (&rx.lock);
    mark = rx.n_stats;
    g_mutex_unlock (&rx.lock);
    RX_WAIT (&rx, rx.n_stats >= mark + 30);
  }
  g_mutex_lock (&rx.lock);
  /* the strays changed nothing: no lock, no return, no new silence */
  fail_unless_equals_int (rx.n_timeouts, timeouts);
  fail_unless_equals_uint64 (net_stat (rx.stats, "signal-lost"), lost);
  fail_unless_equals_uint64 (net_stat (rx.stats, "signal-restored"),
      restored);
  fail_unless_equals_uint64 (net_stat (rx.stats, "stream-locks"), locks);
  fail_unless_equals_uint64 (net_stat (rx.stats, "packets"), s.sent);
  check_identities (rx.stats, s.sent + 3, s.sent, 3, 0);
  g_mutex_unlock (&rx.lock);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* Spoofs of the locked SSRC inside the sequence window: after frame 3's
 * marker (4 ahead, another FRCount), in the middle of frame 6 (4 ahead,
 * the next frame's FRCount) and a marker in the middle of frame 8 */
static void
spoof_hook (RawSender * s, guint i, gpointer user_data)
{
  guint *spoofs = user_data;
  guint8 dg[REF_DATAGRAM];

  if (s->frames_sent == 3 && i == s->n - 1)
    ref_pack_datagram (s->f, s->rasters[3], 3, s->seq + 4, s->rtp_ts,
        s->ssrc, s->frcount + 51, 0, 98, dg);
  else if (s->frames_sent == 6 && i == s->n / 2)
    ref_pack_datagram (s->f, s->rasters[3], i + 5, s->seq + 4, s->rtp_ts,
        s->ssrc, s->frcount + 1, 0, 98, dg);
  else if (s->frames_sent == 8 && i == s->n / 3)
    ref_pack_datagram (s->f, s->rasters[3], s->n - 1, s->seq + 2,
        s->rtp_ts, s->ssrc, s->frcount, 0, 98, dg);
  else
    return;
  raw_send (s, dg);
  (*spoofs)++;
}

/* D3: one spoofed datagram with the locked SSRC, a little ahead and with
 * another FRCount, after a marker discarded the whole next frame (only
 * packets-discarded rose); mid-frame it added a frame's worth to
 * packets-lost with nothing lost. */
GST_START_TEST (test_spoof_in_window_costs_nothing)
{
  const guint FRAMES = 10;
  RawSender s;
  Rx rx;
  guint spoofs = 0;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=0 " TOLERANT, "", GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, FRAMES, 0, spoof_hook, &spoofs);
  RX_WAIT (&rx, rx.frames >= FRAMES);

  fail_unless_equals_int (spoofs, 3);
  fail_unless_equals_int (rx.frames, FRAMES);
  fail_unless_equals_int (rx.corrupted, 0);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-dropped"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-corrupted"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets"), s.sent);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-discarded"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-out-of-window"), 3);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-foreign"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "stream-locks"), 1);
  rx_check_identities (&rx, s.sent + 3, s.sent, FRAMES, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* --- restarts and jumps ------------------------------------------------ */

GST_START_TEST (test_sender_restart_loses_nothing)
{
  RawSender s;
  Rx rx;

  raw_sender_init (&s, &ref_1080i50, net_test_port ());
  rx_start (&rx, &s, "stats-interval=0 " TOLERANT, "", GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, 6, 0, NULL, NULL);
  /* a restart: new SSRC, sequence and FRCount, from a frame start */
  s.ssrc = 0x5eed0002;
  s.seq = 50000;
  s.frcount = 0;
  send_frames_paced (&rx, &s, 6, 4, NULL, NULL);
  /* the same SSRC, its numbering restarted 30000 back */
  s.seq -= 30000;
  send_frames_paced (&rx, &s, 6, 8, NULL, NULL);
  RX_WAIT (&rx, rx.frames >= 18);

  fail_unless_equals_int (rx.frames, 18);
  fail_unless_equals_int (rx.corrupted, 0);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-dropped"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets"), s.sent);
  fail_unless_equals_uint64 (rx_stat (&rx, "stream-locks"), 3);
  rx_check_identities (&rx, s.sent, s.sent, 18, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* The numbering jumps by @jump in the middle of a frame */
static void
jump_hook (RawSender * s, guint i, gpointer user_data)
{
  gint *jump = user_data;

  if (s->frames_sent == 5 && i == s->n / 3)
    s->seq += *jump;
}

static void
check_jump (gint jump)
{
  RawSender s;
  Rx rx;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=0 " TOLERANT, "", GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, 10, 0, jump_hook, &jump);
  /* frames leave in order: the last one out means all are */
  RX_WAIT (&rx, rx.last_frcount == 9);

  GST_INFO ("jump %d: %u frames, %u corrupted, stats %" GST_PTR_FORMAT,
      jump, rx.frames, rx.corrupted, rx.stats);
  /* the frame it lands in at most: 9 or 10 frames, the others exact */
  fail_unless (rx.frames >= 9, "%u frames", rx.frames);
  fail_unless (rx.frames - rx.corrupted >= 9);
  fail_unless_equals_int (rx.mismatched, 0);
  /* the rest of the frame the jump cuts was sent under the new numbering:
   * not lost (issue 23, D4), only discarded until the next frame start */
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-skipped"), 0);
  fail_unless (rx_stat (&rx, "frames-aborted") <= 1);
  rx_check_identities (&rx, s.sent, s.sent, 10, rx_stat (&rx,
          "frames-aborted"));

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_START_TEST (test_sequence_jump_costs_one_frame)
{
  check_jump (30000);
  check_jump (-30000);
}

GST_END_TEST;

/* A gap longer than half the sequence space: the rest of frame 4 and 20
 * frames (about 46,000 datagrams of 720p59.94) never arrive. The RTP
 * timestamp, FRCount and sequence number after it agree that the stream
 * went on, so every datagram of the gap counts lost (none did) */
GST_START_TEST (test_long_gap_counted)
{
  RawSender s;
  Rx rx;
  guint64 gap;
  guint k;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=0 " TOLERANT, "", GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, 4, 0, NULL, NULL);
  RX_WAIT (&rx, rx.frames >= 2);
  raw_send_part (&s, 0, s.n / 2);
  gap = s.n - s.n / 2 + 20 * s.n;
  fail_unless (gap > 0x8000);
  for (k = 0; k < 21; k++)
    raw_next_frame (&s);
  send_frames_paced (&rx, &s, 4, 4, NULL, NULL);
  /* frames leave in order: the last one out means all are */
  RX_WAIT (&rx, rx.last_frcount == 28);

  fail_unless_equals_int (rx.frames, 9);
  fail_unless_equals_int (rx.corrupted, 1);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), gap);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-skipped"), 20);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets"), s.sent);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-out-of-window"), 0);
  rx_check_identities (&rx, s.sent, s.sent + gap, 29, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* --- slow consumer, kernel overflow ----------------------------------- */

static gboolean
all_accounted (Rx * rx, guint frames)
{
  return rx->stats && net_stat (rx->stats, "frames") + net_stat (rx->stats,
      "frames-dropped") >= frames;
}

/* Frames the receiver has told of: pushed, or dropped (for a slow
 * consumer, or skipped: the kernel dropped every datagram of it, told by
 * the next frame that arrives; frames-dropped counts both) */
static guint64
told_frames (Rx * rx)
{
  return net_stat (rx->stats, "frames") + net_stat (rx->stats,
      "frames-dropped");
}

static gboolean
all_received (Rx * rx, guint64 datagrams)
{
  return rx->stats && net_stat (rx->stats, "packets") >= datagrams;
}

static GstPadProbeReturn
hold_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  return GST_PAD_PROBE_OK;
}

/* A consumer at 100 ms a frame, held still until the whole stream has
 * arrived, and a sender at the pace of the receive thread: the frames
 * downstream cannot take are dropped (oldest first) and counted, the
 * kernel drops nothing, every frame is told: one pushed and held, three
 * waiting, the others dropped. */
GST_START_TEST (test_slow_consumer_drops_counted)
{
  const guint FRAMES = 24;
  RawSender s;
  Rx rx;
  guint k;
  GstElement *id;
  GstPad *pad;
  gulong probe;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=10", "identity name=slow "
      "sleep-time=100000 !", GST_STATE_PAUSED);
  id = gst_bin_get_by_name (GST_BIN (rx.pipeline), "slow");
  pad = gst_element_get_static_pad (id, "sink");
  probe = gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BLOCK |
      GST_PAD_PROBE_TYPE_BUFFER, hold_probe, NULL, NULL);
  fail_unless (gst_element_set_state (rx.pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (k = 0; k < FRAMES; k++) {
    RX_WAIT (&rx, k == 0 || all_received (&rx, s.sent));
    raw_send_frame (&s, NULL, NULL);
  }
  RX_WAIT (&rx, all_received (&rx, s.sent));
  gst_pad_remove_probe (pad, probe);
  gst_object_unref (pad);
  gst_object_unref (id);
  RX_WAIT (&rx, all_accounted (&rx, FRAMES) && rx.frames ==
      net_stat (rx.stats, "frames"));

  g_mutex_lock (&rx.lock);
  GST_INFO ("%" GST_PTR_FORMAT, rx.stats);
  fail_unless_equals_uint64 (net_stat (rx.stats, "frames"), 4);
  fail_unless_equals_uint64 (net_stat (rx.stats, "frames-dropped"),
      FRAMES - 4);
  fail_unless_equals_uint64 (net_stat (rx.stats, "packets"), s.sent);
  fail_unless_equals_uint64 (net_stat (rx.stats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (rx.stats, "packets-overflow"), 0);
  fail_unless_equals_uint64 (net_stat (rx.stats, "frames-corrupted"), 0);
  fail_unless_equals_int (rx.frames, 4);
  fail_unless_equals_int (rx.mismatched, 0);
  check_identities (rx.stats, s.sent, s.sent, FRAMES, 0);
  g_mutex_unlock (&rx.lock);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* A consumer at 100 ms a frame, and a receive thread stalled (before
 * PLAYING the first frame waits for its caps) while ten frames arrive at a
 * small socket buffer: the slow consumer costs counted frames, the
 * overflow counted datagrams, and everything the sender sent is told. */
GST_START_TEST (test_slow_consumer_and_overflow_counted)
{
  const guint FAST = 10, TAIL = 30;
  RawSender s;
  Rx rx;
  guint k;
  guint64 lost, overflow, packets, told, markers = 0;
  /* what each tail frame left: said if the test fails */
  GString *history = g_string_new (NULL);
  gchar *stats;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=20 buffer-size=1000000",
      "identity sleep-time=100000 !", GST_STATE_PAUSED);
  for (k = 0; k < FAST; k++)
    raw_send_frame (&s, NULL, NULL);
  fail_unless (gst_element_set_state (rx.pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  /* the tail shows where the stream went on, so every gap is seen: its
   * first frame arrives while the stalled backlog is read (and may lose
   * datagrams too), the others once all before them is told (a later
   * datagram carries the kernel's drop count, and a frame the kernel
   * dropped whole is told, as skipped, by the next one that arrives). On a
   * loaded machine a tail frame may overflow the small buffer again, even
   * whole: after each, wait until the receiver has read all there is and
   * the slow consumer has taken or dropped every frame (or nothing has
   * been told for 40 stats periods: what is left untold was dropped whole,
   * and the next frame tells it), and send until a frame leaves nothing
   * untold (usually the second). The kernel's drop count comes with each
   * datagram it delivers (SO_RXQ_OVFL), so drops among a frame's last
   * datagrams are known only from a later one: after each frame, with
   * the queue read empty, a marker (an invalid 12-byte datagram, counted
   * in packets-invalid and nowhere else) brings it. */
  for (k = 0; k < TAIL; k++) {
    static const guint8 marker[12] = { 0 };
    guint mark;

    raw_send_frame (&s, NULL, NULL);
    g_mutex_lock (&rx.lock);
    mark = rx.n_stats;
    g_mutex_unlock (&rx.lock);
    RX_WAIT (&rx, rx.n_stats >= mark + 3 && rx.n_still >= 2 &&
        (told_frames (&rx) == s.frames_sent || rx.n_told_still >= 40));
    ref_udp_sendto (s.fd, "127.0.0.1", s.port, marker, sizeof (marker));
    markers++;
    RX_WAIT (&rx, net_stat (rx.stats, "packets-invalid") >= markers);
    g_mutex_lock (&rx.lock);
    lost = net_stat (rx.stats, "packets-lost");
    overflow = net_stat (rx.stats, "packets-overflow");
    told = told_frames (&rx);
    g_mutex_unlock (&rx.lock);
    g_string_append_printf (history, " [%u] lost %" G_GUINT64_FORMAT
        " overflow %" G_GUINT64_FORMAT " told %" G_GUINT64_FORMAT "/%u", k,
        lost, overflow, told, s.frames_sent);
    if (k > 0 && lost == overflow && told == s.frames_sent)
      break;
  }
  fail_unless (gst_element_set_state (rx.pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);

  g_mutex_lock (&rx.lock);
  lost = net_stat (rx.stats, "packets-lost");
  overflow = net_stat (rx.stats, "packets-overflow");
  packets = net_stat (rx.stats, "packets");
  GST_INFO ("%" GST_PTR_FORMAT, rx.stats);
  fail_unless (overflow > 0);
  fail_unless (net_stat (rx.stats, "frames-dropped") > 0);
  fail_unless_equals_uint64 (told_frames (&rx), s.frames_sent);
  stats = gst_structure_to_string (rx.stats);
  fail_unless (lost == overflow && packets + lost == s.sent, "lost %"
      G_GUINT64_FORMAT ", overflow %" G_GUINT64_FORMAT ", packets %"
      G_GUINT64_FORMAT ", sent %" G_GUINT64_FORMAT "; after each tail "
      "frame:%s; stats %s", lost, overflow, packets, (guint64) s.sent,
      history->str, stats);
  g_free (stats);
  g_string_free (history, TRUE);
  fail_unless_equals_uint64 (net_stat (rx.stats, "packets-foreign") +
      net_stat (rx.stats, "packets-out-of-window"), 0);
  fail_unless_equals_uint64 (net_stat (rx.stats, "packets-invalid"), markers);
  fail_unless_equals_int (rx.mismatched, 0);
  /* what arrived: all that was sent but what the kernel dropped, which
   * were the stream's (lost) */
  check_identities (rx.stats, s.sent + markers - lost, s.sent,
      s.frames_sent, 0);
  /* the kernel's own count, here one datagram per event (no GRO) */
  fail_unless_equals_uint64 (net_stat (rx.stats, "overflow-events"), lost);
  g_mutex_unlock (&rx.lock);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* --- a stream that stops ---------------------------------------------- */

/* The last frame loses 100 datagrams (more than the lock's window) 10
 * before its end, and the sender stops: the 10 after the hole are the
 * stream going on, which the lock holds until a confirming run that never
 * comes.  The idle tick hands them to the depacketizer: exactly the 100
 * count lost (110 did, the 10 out-of-window, before). */
GST_START_TEST (test_stop_mid_continuation_counts_exactly)
{
  RawSender s;
  Rx rx;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=0 timeout=2000000000", "",
      GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, 4, 0, NULL, NULL);
  RX_WAIT (&rx, rx.frames >= 2);
  raw_send_part (&s, 0, s.n - 110);
  raw_send_part (&s, s.n - 10, s.n);
  raw_next_frame (&s);
  /* the frame with the hole comes out when the silence ends it */
  RX_WAIT (&rx, rx.frames >= 5);

  fail_unless_equals_int (rx.frames, 5);
  fail_unless_equals_int (rx.corrupted, 1);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 100);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-out-of-window"), 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets"), s.sent);
  fail_unless_equals_uint64 (rx_stat (&rx, "frames-corrupted"), 1);
  rx_check_identities (&rx, s.sent, s.sent + 100, 5, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* --- signal loss ------------------------------------------------------- */

GST_START_TEST (test_timeout_and_stats_during_silence)
{
  RawSender s;
  Rx rx;
  guint n_stats;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  rx_start (&rx, &s, "stats-interval=30 timeout=500000000", "",
      GST_STATE_PLAYING);
  send_frames_paced (&rx, &s, 4, 0, NULL, NULL);
  RX_WAIT (&rx, rx.frames >= 4);
  /* the sender dies */
  RX_WAIT (&rx, rx.n_timeouts_lost == 1);
  g_mutex_lock (&rx.lock);
  n_stats = rx.stats_at_timeout;
  g_mutex_unlock (&rx.lock);
  /* statistics keep coming */
  RX_WAIT (&rx, rx.n_stats >= n_stats + 3);
  g_mutex_lock (&rx.lock);
  fail_unless_equals_uint64 (net_stat (rx.stats, "signal-lost"), 1);
  fail_unless_equals_uint64 (net_stat (rx.stats, "signal-restored"), 0);
  g_mutex_unlock (&rx.lock);
  fail_unless_equals_int (rx.n_timeouts_lost, 1);

  /* another sender: locked at once, its first frame kept */
  s.ssrc = 0x5eed0003;
  s.seq = 7;
  s.frcount = 0;
  send_frames_paced (&rx, &s, 4, 2, NULL, NULL);
  RX_WAIT (&rx, rx.frames >= 8);
  fail_unless_equals_uint64 (rx_stat (&rx, "signal-restored"), 1);
  fail_unless_equals_int (rx.frames, 8);
  fail_unless_equals_int (rx.corrupted, 0);
  fail_unless_equals_int (rx.mismatched, 0);
  fail_unless_equals_uint64 (rx_stat (&rx, "packets-lost"), 0);
  rx_check_identities (&rx, s.sent, s.sent, 8, 0);

  rx_stop (&rx);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* A receiver that never hears anything says so with a warning (what
 * gst-launch and gst-play show without -m), once, naming address and port. */
GST_START_TEST (test_silence_warned_once)
{
  guint16 port = net_test_port ();
  gchar *desc = g_strdup_printf ("st2022src address=127.0.0.1 port=%u "
      "timeout=200000000 ! fakesink", port);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL, *want;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no warning");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
  gst_message_parse_warning (msg, &err, &dbg);
  want = g_strdup_printf ("no ST 2022-6 datagram on 127.0.0.1:%u for 0.2 s; "
      "check that a sender sends to this address and port, and the "
      "firewall", port);
  fail_unless_equals_string (err->message, want);
  g_free (want);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  /* once per silence, not once per timeout period */
  msg = gst_bus_timed_pop_filtered (bus, GST_SECOND, GST_MESSAGE_WARNING);
  fail_unless (msg == NULL, "warned twice");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* --- caps ---------------------------------------------------------------- */

/* A downstream that takes neither packing: the error names it and says
 * what to put in between; the pad template lists the exact formats. */
GST_START_TEST (test_downstream_refuses_both_packings)
{
  RawSender s;
  GstElement *pipeline, *src, *sink;
  GstCaps *caps;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL, *port;
  GstBus *bus;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  pipeline = gst_pipeline_new (NULL);
  src = gst_element_factory_make ("st2022src", NULL);
  sink = gst_element_factory_make ("appsink", "i420sink");
  port = g_strdup_printf ("%u", s.port);
  gst_util_set_object_arg (G_OBJECT (src), "port", port);
  g_free (port);
  g_object_set (src, "address", "127.0.0.1", NULL);
  gst_bin_add_many (GST_BIN (pipeline), src, sink, NULL);
  fail_unless (gst_element_link (src, sink));
  /* linked first: the refusal comes when the stream says what it is */
  caps = gst_caps_from_string ("video/x-raw,format=I420");
  g_object_set (sink, "caps", caps, NULL);
  gst_caps_unref (caps);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  raw_send_frame (&s, NULL, NULL);
  raw_send_frame (&s, NULL, NULL);

  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  fail_unless (strstr (err->message, "i420sink") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "720p59.94") != NULL, "%s",
      err->message);
  fail_unless (strstr (dbg, "videoconvert") != NULL, "%s", dbg);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_object_unref (bus);

  caps = gst_pad_template_get_caps (gst_element_get_pad_template (src,
          "src"));
  fail_unless (gst_structure_has_field_typed (gst_caps_get_structure (caps,
              0), "width", G_TYPE_INT));
  gst_caps_unref (caps);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  raw_sender_clear (&s);
}

GST_END_TEST;

/* The element after st2022src takes UYVP, but a capsfilter further down
 * narrows to a format the sink after it lacks (a display sink without
 * I420): the error names that sink, what it accepts and where videoconvert
 * goes, not the converter right after st2022src. */
GST_START_TEST (test_refusal_named_where_it_is)
{
  RawSender s;
  GstElement *pipeline, *sink;
  GstCaps *caps;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL, *desc;
  GstBus *bus;

  raw_sender_init (&s, &ref_720p5994, net_test_port ());
  desc = g_strdup_printf ("st2022src address=127.0.0.1 port=%u ! vmi10to8 ! "
      "capsfilter name=cf caps=video/x-raw,format=I420 ! appsink name=bgr",
      s.port);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (pipeline != NULL);
  /* set after linking, as a display sink only says what it takes once it
   * has opened the display */
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "bgr");
  caps = gst_caps_from_string ("video/x-raw,format=BGRx");
  g_object_set (sink, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_object_unref (sink);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  raw_send_frame (&s, NULL, NULL);
  raw_send_frame (&s, NULL, NULL);

  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  fail_unless (strstr (err->message, "bgr accepts only video/x-raw, "
          "format=(string)BGRx, and cf before it gives video/x-raw, "
          "format=(string)I420: put videoconvert between cf and bgr") !=
      NULL, "%s", err->message);
  fail_unless (strstr (err->message, "vmi10to8") == NULL, "%s",
      err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  raw_sender_clear (&s);
}

GST_END_TEST;

static Suite *
src_harden_suite (void)
{
  Suite *s = suite_create ("src-harden");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 180);
  tcase_add_test (tc, test_strays_corrupt_nothing);
  tcase_add_test (tc, test_ssrc_flood_costs_nothing);
  tcase_add_test (tc, test_stray_first_costs_nothing);
  tcase_add_test (tc, test_strays_after_loss_restore_nothing);
  tcase_add_test (tc, test_spoof_in_window_costs_nothing);
  tcase_add_test (tc, test_sender_restart_loses_nothing);
  tcase_add_test (tc, test_sequence_jump_costs_one_frame);
  tcase_add_test (tc, test_long_gap_counted);
  tcase_add_test (tc, test_slow_consumer_drops_counted);
  tcase_add_test (tc, test_slow_consumer_and_overflow_counted);
  tcase_add_test (tc, test_timeout_and_stats_during_silence);
  tcase_add_test (tc, test_stop_mid_continuation_counts_exactly);
  tcase_add_test (tc, test_downstream_refuses_both_packings);
  tcase_add_test (tc, test_refusal_named_where_it_is);
  tcase_add_test (tc, test_silence_warned_once);
  return s;
}

GST_CHECK_MAIN (src_harden);
