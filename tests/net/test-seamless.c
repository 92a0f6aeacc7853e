/* gst-vmi tests: ST 2022-7 on real sockets.
 *
 * st2022sink sends on two paths; a relay in the test stands for the two
 * networks (losses chosen per datagram index, the secondary 30 ms behind,
 * a path cut for longer than `timeout` and restored); st2022src receives
 * both and merges them. Every frame must come out bit-exact where one copy
 * of each datagram arrived, and the counters must be exactly what the relay
 * did, datagram by datagram. */

#include "net-common.h"

#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#define SKEW_US 30000
/* the largest: on a loaded machine the receiver reads both sockets slower
 * than they fill, and the secondary's 30 ms (4,000 datagrams) behind then
 * take longer than that to read */
#define WINDOW_MS 500
#define N_FRAMES 60
/* distinct pictures, sent in turn */
#define N_PICS 12
/* the secondary's cut, in frames (a second), and the receiver's `timeout`:
 * well inside the cut even when a loaded sender catches up on late frames
 * (only one path silent is a path down: both silent is no false alarm) */
#define CUT_FIRST 10
#define CUT_END 40
#define TIMEOUT_MS 400

typedef enum
{
  SC_DISJOINT,                  /* 5 % on each path, never both, a burst of 400 */
  SC_COMMON,                    /* the same plus losses on both paths */
  SC_CUT,                       /* the secondary cut for ~1.2 s, then back */
} Scenario;

/* the secondary's datagrams waiting out the skew: a ring, no allocation
 * on the relay's path (30 ms of a path is about 4,000 datagrams) */
#define RING 16384
#define BATCH 64

typedef struct
{
  gint64 due;
  guint16 len;
  guint8 data[1400];
} Pending;

typedef struct
{
  Scenario sc;
  guint dpf;                    /* datagrams per frame */
  guint64 total;                /* datagrams per path */
  int in_fd[2];
  guint16 in_port[2], out_port[2];
  volatile gint stop;
  GThread *thread;
  /* relay thread, read after join */
  gboolean have_seq0;
  guint16 seq0;
  guint64 last_idx[2];
  gboolean have_idx[2];
  guint8 *fwd[2];               /* per index: forwarded on that path */
  guint64 received[2], forwarded[2], beyond[2], ring_full;
  Pending *ring;
  guint head, tail;
} Relay;

/* The planned fate of datagram @idx on @path: TRUE = dropped */
static gboolean
relay_drops (const Relay * r, guint path, guint64 idx)
{
  guint64 frame = idx / r->dpf, in_frame = idx % r->dpf;
  gboolean a = idx % 20 == 7 || (idx >= 3000 && idx < 3400);
  gboolean b = idx % 20 == 13 && !a;
  gboolean common = FALSE;

  if (r->sc == SC_COMMON)
    common = (frame == 5 || frame == 11) && in_frame >= 1000
        && in_frame < 1004;
  if (r->sc == SC_CUT) {
    guint64 cut0 = CUT_FIRST * (guint64) r->dpf;
    guint64 cut1 = CUT_END * (guint64) r->dpf;

    /* the primary loses nothing while the secondary is away, nor while
     * the secondary is getting back (its 30 ms behind) */
    if (idx >= cut0 && idx < cut1 + 5000)
      a = FALSE;
    if (idx >= cut0 && idx < cut1)
      b = TRUE;
  }
  return common || (path == 0 ? a : b);
}

/* TRUE when datagram @buf of path @p goes on */
static gboolean
relay_judge (Relay * r, guint p, const guint8 * buf)
{
  guint16 seq = GST_READ_UINT16_BE (buf + 2);
  guint64 idx;

  r->received[p]++;
  if (!r->have_seq0) {
    r->have_seq0 = TRUE;
    r->seq0 = seq;
  }
  if (!r->have_idx[p]) {
    idx = (guint16) (seq - r->seq0);
    r->have_idx[p] = TRUE;
  } else {
    idx = r->last_idx[p] + (gint16) (guint16) (seq - (guint16) (r->seq0 +
            r->last_idx[p]));
  }
  r->last_idx[p] = idx;
  if (idx >= r->total) {
    r->beyond[p]++;
    return FALSE;
  }
  if (relay_drops (r, p, idx))
    return FALSE;
  r->fwd[p][idx] = 1;
  r->forwarded[p]++;
  return TRUE;
}

static void
relay_send (int out, struct sockaddr_in *to, struct iovec *iov, guint n)
{
  struct mmsghdr m[BATCH];
  guint i, off = 0;

  memset (m, 0, sizeof (m[0]) * n);
  for (i = 0; i < n; i++) {
    m[i].msg_hdr.msg_name = to;
    m[i].msg_hdr.msg_namelen = sizeof (*to);
    m[i].msg_hdr.msg_iov = &iov[i];
    m[i].msg_hdr.msg_iovlen = 1;
  }
  while (off < n) {
    int rc = sendmmsg (out, m + off, n - off, 0);

    if (rc <= 0)
      break;
    off += rc;
  }
}

static gpointer
relay_thread (gpointer data)
{
  Relay *r = data;
  int out = ref_udp_sender ();
  static guint8 bufs[BATCH][2048];
  struct iovec iov[BATCH], fw[BATCH];
  struct mmsghdr m[BATCH];
  struct sockaddr_in to[2];
  guint i, p;

  for (p = 0; p < 2; p++) {
    memset (&to[p], 0, sizeof (to[p]));
    to[p].sin_family = AF_INET;
    to[p].sin_port = htons (r->out_port[p]);
    to[p].sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  }
  for (;;) {
    struct pollfd pfd[2] = { {r->in_fd[0], POLLIN, 0}, {r->in_fd[1], POLLIN,
        0}
    };
    gint64 now = g_get_monotonic_time ();
    gboolean got = FALSE;
    int ms = 5;

    if (r->head != r->tail) {
      gint64 due = r->ring[r->tail % RING].due;
      ms = due > now ? (int) ((due - now + 999) / 1000) : 0;
    }
    poll (pfd, 2, ms);
    /* a batch from each path in turn: neither starves the other */
    for (p = 0; p < 2; p++) {
      int n;
      guint nf = 0;

      memset (m, 0, sizeof (m));
      for (i = 0; i < BATCH; i++) {
        iov[i].iov_base = bufs[i];
        iov[i].iov_len = sizeof (bufs[i]);
        m[i].msg_hdr.msg_iov = &iov[i];
        m[i].msg_hdr.msg_iovlen = 1;
      }
      n = recvmmsg (r->in_fd[p], m, BATCH, MSG_DONTWAIT, NULL);
      for (i = 0; n > 0 && i < (guint) n; i++) {
        guint len = m[i].msg_len;

        got = TRUE;
        if (len <= 12 || !relay_judge (r, p, bufs[i]))
          continue;
        if (p == 0) {
          fw[nf].iov_base = bufs[i];
          fw[nf].iov_len = len;
          nf++;
        } else if (r->head - r->tail < RING) {
          Pending *pd = &r->ring[r->head++ % RING];

          pd->due = g_get_monotonic_time () + SKEW_US;
          pd->len = len;
          memcpy (pd->data, bufs[i], len);
        } else {
          r->ring_full++;
        }
      }
      if (nf)
        relay_send (out, &to[0], fw, nf);
    }
    /* the secondary's copies whose skew is over */
    now = g_get_monotonic_time ();
    for (;;) {
      guint nf = 0;

      while (nf < BATCH && r->head != r->tail
          && r->ring[r->tail % RING].due <= now) {
        Pending *pd = &r->ring[r->tail++ % RING];

        fw[nf].iov_base = pd->data;
        fw[nf].iov_len = pd->len;
        nf++;
      }
      if (nf == 0)
        break;
      relay_send (out, &to[1], fw, nf);
    }
    /* stopped once everything sent to it has gone on */
    if (g_atomic_int_get (&r->stop) && !got && r->head == r->tail)
      break;
  }
  close (out);
  return NULL;
}

static void
relay_init (Relay * r, Scenario sc, const RefFormat * f, guint frames)
{
  guint p;

  memset (r, 0, sizeof (*r));
  r->sc = sc;
  r->dpf = ref_datagrams (f);
  r->total = (guint64) r->dpf * frames;
  for (p = 0; p < 2; p++) {
    struct sockaddr_in sa;
    socklen_t sl = sizeof (sa);

    r->in_fd[p] = ref_udp_bind ("127.0.0.1", 0);
    fail_unless (getsockname (r->in_fd[p], (struct sockaddr *) &sa,
            &sl) == 0);
    r->in_port[p] = ntohs (sa.sin_port);
    r->fwd[p] = g_new0 (guint8, r->total);
  }
  r->ring = g_new (Pending, RING);
}

static void
relay_clear (Relay * r)
{
  guint p;

  for (p = 0; p < 2; p++) {
    close (r->in_fd[p]);
    g_free (r->fwd[p]);
  }
  g_free (r->ring);
}

/* st2022-path messages of the receiver, in order: "primary:down", ... */
static GstBusSyncReply
path_messages (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  GPtrArray *log = user_data;
  const GstStructure *s = gst_message_get_structure (msg);

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_structure_has_name (s, "st2022-path")) {
    G_LOCK_DEFINE_STATIC (log_lock);

    G_LOCK (log_lock);
    g_ptr_array_add (log, g_strdup_printf ("%s:%s",
            gst_structure_get_string (s, "path"),
            gst_structure_get_string (s, "state")));
    G_UNLOCK (log_lock);
  }
  return GST_BUS_PASS;
}

/* The receiver's frames: the streaming thread only copies each one out (the
 * source's pool is bounded, and a consumer as slow as a conversion under a
 * sanitizer would cost frames-dropped); they are judged after the run. */
typedef struct
{
  const RefFormat *f;
  guint8 **pics;
  gint frames;                  /* atomic; under @lock too, for @cond */
  GMutex lock;
  GCond cond;
  GPtrArray *got;               /* GstSample of a copy of each frame */
  guint differ;                 /* not bit-exact (and not flagged) */
  guint corrupted;              /* flagged CORRUPTED */
  guint64 corrupted_mask;       /* which frames */
} Judge;

static GstFlowReturn
judge_sample (GstAppSink * sink, gpointer user_data)
{
  Judge *j = user_data;
  GstSample *s = gst_app_sink_pull_sample (sink);
  GstBuffer *copy = gst_buffer_copy_deep (gst_sample_get_buffer (s));
  GstSample *kept = gst_sample_new (copy, gst_sample_get_caps (s), NULL,
      NULL);

  gst_buffer_unref (copy);
  gst_sample_unref (s);
  g_mutex_lock (&j->lock);
  g_ptr_array_add (j->got, kept);
  g_atomic_int_add (&j->frames, 1);
  g_cond_broadcast (&j->cond);
  g_mutex_unlock (&j->lock);
  return GST_FLOW_OK;
}

static void
judge_frames (Judge * j)
{
  guint k;

  for (k = 0; k < j->got->len; k++) {
    GstSample *s = j->got->pdata[k];
    GstBuffer *b = gst_sample_get_buffer (s);

    if (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_CORRUPTED)) {
      j->corrupted++;
      if (k < 64)
        j->corrupted_mask |= G_GUINT64_CONSTANT (1) << k;
    } else {
      guint8 *got = net_buffer_to_uyvp (b, gst_sample_get_caps (s), j->f);

      if (k >= N_FRAMES || memcmp (got, j->pics[k % N_PICS],
              j->f->width * 5 / 2 * j->f->height) != 0) {
        GST_ERROR ("frame %u differs", k);
        j->differ++;
      }
      g_free (got);
    }
  }
}

/* Waits until the receiver has output @frames frames, and has posted an
 * st2022-stats (every stats-interval) counting at least @want[p] datagrams
 * on each path, or until @deadline (monotonic µs): the judgement after
 * it says what was missing */
static void
wait_receiver (GstBus * bus, Judge * j, gint frames, const guint64 want[2],
    gint64 deadline)
{
  g_mutex_lock (&j->lock);
  while (g_atomic_int_get (&j->frames) < frames
      && g_cond_wait_until (&j->cond, &j->lock, deadline));
  g_mutex_unlock (&j->lock);
  for (;;) {
    gint64 left = deadline - g_get_monotonic_time ();
    GstMessage *msg = left > 0 ? gst_bus_timed_pop_filtered (bus,
        left * 1000, GST_MESSAGE_ELEMENT) : NULL;
    const GstStructure *s;
    guint64 got[2] = { 0, 0 };

    if (msg == NULL)
      return;
    s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "st2022-stats")
        && gst_structure_get_uint64 (s, "packets-primary", &got[0])
        && gst_structure_get_uint64 (s, "packets-secondary", &got[1])
        && got[0] >= want[0] && got[1] >= want[1]) {
      gst_message_unref (msg);
      return;
    }
    gst_message_unref (msg);
  }
}

static guint64
src_stat (GstElement * src, const gchar * field)
{
  GstStructure *s = NULL;
  guint64 v;

  g_object_get (src, "stats", &s, NULL);
  v = net_stat (s, field);
  gst_structure_free (s);
  return v;
}

/* "appsrc ! st2022sink name=sink stats-interval=0 @sink_props" playing,
 * with @n frames of @pics (in turn, N_PICS of them) queued and EOS after
 * them: frames two periods apart (half the real-time load on this shared
 * machine), each paced over one period */
static GstElement *
start_sender (const RefFormat * f, guint8 ** pics, guint n,
    const gchar * sink_props)
{
  GstCaps *caps = net_format_caps (f, "UYVP", FALSE);
  GstElement *sender, *appsrc;
  GstVideoInfo info;
  gchar *desc;
  guint k;

  fail_unless (gst_video_info_from_caps (&info, caps));
  desc = g_strdup_printf ("appsrc name=src format=time ! st2022sink "
      "name=sink stats-interval=0 %s", sink_props);
  sender = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (sender != NULL);
  appsrc = gst_bin_get_by_name (GST_BIN (sender), "src");
  g_object_set (appsrc, "caps", caps, NULL);
  fail_unless (gst_element_set_state (sender, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (k = 0; k < n; k++) {
    GstBuffer *buf = net_make_buffer (&info, f, pics[k % N_PICS]);

    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (2 * k,
        GST_SECOND * f->fps_d, f->fps_n);
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (appsrc), buf) ==
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
  gst_object_unref (appsrc);
  gst_caps_unref (caps);
  return sender;
}

typedef enum
{
  RUN_UNJUDGED,                 /* the machine itself lost what we cannot see */
  RUN_JUDGED,                   /* exact, but the machine added losses */
  RUN_CLEAN,                    /* exact, with only the planned losses */
} RunResult;

/* Runs one transfer through the relay and judges it against what the relay
 * did, datagram by datagram */
static RunResult
run (Scenario sc)
{
  const RefFormat *f = &ref_720p5994;
  guint8 **pics = net_make_pictures (f, N_PICS, 24 + sc);
  GstAppSinkCallbacks cb = { NULL, NULL, judge_sample };
  Judge judge = { f, pics };
  GstElement *rpipe, *rsrc, *rsink;
  GstElement *sender;
  GstStructure *st;
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  GstBus *bus;
  Relay relay;
  gchar *desc;
  guint64 lost[2], recovered = 0, both = 0, i;
  guint p, src_port[2];
  guint64 lo = G_MAXUINT64, hi = 0, want_mask = 0;
  RunResult result = RUN_UNJUDGED;

  relay_init (&relay, sc, f, N_FRAMES);

  /* the receiver on two ephemeral ports, read back */
  desc = g_strdup_printf ("st2022src name=src port=0 secondary-address="
      "127.0.0.1 secondary-port=0 seamless-window=%u timeout=%" G_GUINT64_FORMAT
      " stats-interval=20 ! video/x-raw,format=UYVP ! appsink name=sink "
      "sync=false", WINDOW_MS, (guint64) TIMEOUT_MS * GST_MSECOND);
  rpipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (rpipe != NULL);
  rsrc = gst_bin_get_by_name (GST_BIN (rpipe), "src");
  rsink = gst_bin_get_by_name (GST_BIN (rpipe), "sink");
  g_mutex_init (&judge.lock);
  g_cond_init (&judge.cond);
  judge.got = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  gst_app_sink_set_callbacks (GST_APP_SINK (rsink), &cb, &judge, NULL);
  bus = gst_element_get_bus (rpipe);
  gst_bus_set_sync_handler (bus, path_messages, log, NULL);
  fail_unless (gst_element_set_state (rpipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (rsrc, "port", &src_port[0], "secondary-port", &src_port[1],
      NULL);
  fail_unless (src_port[0] != 0 && src_port[1] != 0);
  relay.out_port[0] = src_port[0];
  relay.out_port[1] = src_port[1];
  relay.thread = g_thread_new ("relay", relay_thread, &relay);

  /* the sender */
  desc = g_strdup_printf ("host=127.0.0.1 port=%u secondary-host=127.0.0.1 "
      "secondary-port=%u", relay.in_port[0], relay.in_port[1]);
  sender = start_sender (f, pics, N_FRAMES, desc);
  g_free (desc);
  st = net_run_until_eos (sender, "sink", 60);
  fail_unless_equals_uint64 (net_stat (st, "packets-primary"), relay.total);
  fail_unless_equals_uint64 (net_stat (st, "packets-secondary"),
      relay.total);
  fail_unless_equals_uint64 (net_stat (st, "packets-failed-secondary"), 0);
  gst_structure_free (st);
  gst_element_set_state (sender, GST_STATE_NULL);
  gst_object_unref (sender);

  /* the receiver's frames, then everything the relay passed counted */
  /* everything sent is in the relay's sockets: it passes it all on */
  g_atomic_int_set (&relay.stop, 1);
  g_thread_join (relay.thread);
  wait_receiver (bus, &judge, N_FRAMES, relay.forwarded,
      g_get_monotonic_time () + 10 * G_USEC_PER_SEC);
  gst_element_set_state (rpipe, GST_STATE_NULL);
  g_object_get (rsrc, "stats", &st, NULL);
  GST_INFO ("receiver: %" GST_PTR_FORMAT, st);
  {
    gchar *txt = gst_structure_to_string (st);

    g_printerr ("scenario %d: relay forwarded %" G_GUINT64_FORMAT "/%"
        G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT "; receiver %s\n", sc,
        relay.forwarded[0], relay.forwarded[1], relay.total, txt);
    g_free (txt);
  }

  /* the relay stands for two networks; what this machine (shared, two
   * cores) loses before the relay is a loss of both networks, which the
   * counts below take in, but a loss after it (the receiver's socket) or a
   * path held back beyond the window by a stalled thread says nothing
   * about the element */
  if (relay.ring_full || net_stat (st, "packets-overflow")
      || net_stat (st, "path-differential-max-us") >= WINDOW_MS * 1000
      /* a copy later than the window behind its first (not in the
       * differential, which only counts copies in time) */
      || net_stat (st, "packets-late-primary")
      || net_stat (st, "packets-late-secondary")
      || net_stat (st, "packets-primary") != relay.forwarded[0]
      || net_stat (st, "packets-secondary") != relay.forwarded[1]) {
    g_printerr ("scenario %d: the machine dropped or held back datagrams "
        "itself (receiver overflow %" G_GUINT64_FORMAT ", differential %"
        G_GUINT64_FORMAT " us, late %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
        "): run again\n", sc,
        net_stat (st, "packets-overflow"),
        net_stat (st, "path-differential-max-us"),
        net_stat (st, "packets-late-primary"),
        net_stat (st, "packets-late-secondary"));
    goto done;
  }

  /* what the relay did, datagram by datagram */
  lost[0] = lost[1] = 0;
  for (i = 0; i < relay.total; i++)
    if (relay.fwd[0][i] || relay.fwd[1][i]) {
      lo = MIN (lo, i);
      hi = i;
    }
  for (i = lo; i <= hi; i++) {
    guint have = relay.fwd[0][i] + relay.fwd[1][i];

    for (p = 0; p < 2; p++)
      lost[p] += !relay.fwd[p][i];
    recovered += have == 1;
    both += have == 0;
    if (have == 0)
      want_mask |= G_GUINT64_CONSTANT (1) << (i / relay.dpf);
  }
  /* whole frames gone on both (a long stall before the relay) cannot be
   * told apart in the output */
  if (lo >= relay.dpf || hi < relay.total - 1 || both > relay.dpf / 2) {
    g_printerr ("scenario %d: the machine lost the stream's ends or whole "
        "frames before the relay: run again\n", sc);
    goto done;
  }
  /* no datagram on either path for `timeout`: the machine held the relay
   * or the receiver longer than that (ci18, load 11: both paths posted
   * down, the frame in reception abandoned); no scenario cuts both */
  if (net_stat (st, "signal-lost")) {
    g_printerr ("scenario %d: the machine stalled the stream on both paths "
        "beyond `timeout` (signal lost %" G_GUINT64_FORMAT "): run again\n",
        sc, net_stat (st, "signal-lost"));
    goto done;
  }
  fail_unless_equals_uint64 (net_stat (st, "packets-primary"),
      relay.forwarded[0]);
  fail_unless_equals_uint64 (net_stat (st, "packets-secondary"),
      relay.forwarded[1]);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost-primary"), lost[0]);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost-secondary"),
      lost[1]);
  fail_unless_equals_uint64 (net_stat (st, "packets-recovered"), recovered);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost"), both);
  fail_unless_equals_uint64 (net_stat (st, "packets"), hi - lo + 1 - both);
  fail_unless (net_stat (st, "path-differential-max-us") >= SKEW_US);
  fail_unless (net_stat (st, "path-differential-max-us") < WINDOW_MS * 1000);
  fail_unless (recovered > relay.total / 10);

  /* every frame bit-exact, except the two with losses on both paths */
  judge_frames (&judge);
  fail_unless_equals_int (judge.frames, N_FRAMES);
  fail_unless_equals_int (judge.differ, 0);
  fail_unless_equals_uint64 (judge.corrupted_mask, want_mask);
  fail_unless_equals_uint64 (net_stat (st, "frames-corrupted"),
      judge.corrupted);

  /* a path cut longer than `timeout` is told, and its return too */
  if (sc == SC_CUT) {
    fail_unless_equals_int (log->len, 2);
    fail_unless_equals_string (log->pdata[0], "secondary:down");
    fail_unless_equals_string (log->pdata[1], "secondary:up");
  } else {
    fail_unless_equals_int (log->len, 0);
  }

  /* only the planned losses: nothing lost where a copy arrived */
  result = RUN_JUDGED;
  if (relay.received[0] == relay.total && relay.received[1] == relay.total) {
    fail_unless_equals_uint64 (both, sc == SC_COMMON ? 8 : 0);
    fail_unless_equals_uint64 (want_mask, sc == SC_COMMON ?
        (G_GUINT64_CONSTANT (1) << 5 | G_GUINT64_CONSTANT (1) << 11) : 0);
    result = RUN_CLEAN;
  } else {
    g_printerr ("scenario %d: exact, but the machine lost %" G_GUINT64_FORMAT
        "/%" G_GUINT64_FORMAT " datagrams before the relay: run again\n", sc,
        relay.total - relay.received[0], relay.total - relay.received[1]);
  }

done:
  g_ptr_array_unref (judge.got);
  g_mutex_clear (&judge.lock);
  g_cond_clear (&judge.cond);
  gst_structure_free (st);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (rsrc);
  gst_object_unref (rsink);
  gst_object_unref (rpipe);
  relay_clear (&relay);
  net_free_pictures (pics, N_PICS);
  g_ptr_array_unref (log);
  return result;
}

static void
run_scenario (Scenario sc)
{
  guint attempt, judged = 0;

  for (attempt = 0; attempt < 5; attempt++) {
    RunResult r = run (sc);

    if (r == RUN_CLEAN)
      return;
    judged += r == RUN_JUDGED;
  }
  fail ("five runs in a row lost datagrams on the machine itself (%u of "
      "them judged exact all the same)", judged);
}

GST_START_TEST (test_disjoint_loss)
{
  run_scenario (SC_DISJOINT);
}

GST_END_TEST;

GST_START_TEST (test_common_loss)
{
  run_scenario (SC_COMMON);
}

GST_END_TEST;

GST_START_TEST (test_path_cut_and_back)
{
  run_scenario (SC_CUT);
}

GST_END_TEST;

/* --- a path carrying another format ----------------------------------- */

#define FMT_N 45
#define FMT_M 10
/* the receiver's `timeout` and `seamless-window`: a sender stalled by the
 * shared machine must not look like a stream gone */
#define FMT_TIMEOUT_MS 500
#define FMT_SSRC 0x20227

typedef struct
{
  GMutex lock;
  GCond cond;
  guint frames;
  GPtrArray *got;               /* GstSample of a copy of each frame */
} FmtFrames;

static GstFlowReturn
fmt_sample (GstAppSink * sink, gpointer user_data)
{
  FmtFrames *r = user_data;
  GstSample *s = gst_app_sink_pull_sample (sink);
  GstBuffer *copy = gst_buffer_copy_deep (gst_sample_get_buffer (s));
  GstSample *kept = gst_sample_new (copy, gst_sample_get_caps (s), NULL,
      NULL);

  gst_buffer_unref (copy);
  gst_sample_unref (s);
  g_mutex_lock (&r->lock);
  g_ptr_array_add (r->got, kept);
  r->frames++;
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  return GST_FLOW_OK;
}

/* Waits (@secs at most) until the receiver has pushed @n frames */
static gboolean
fmt_wait_frames (FmtFrames * r, guint n, guint secs)
{
  gint64 deadline = g_get_monotonic_time () + secs * G_USEC_PER_SEC;
  gboolean ok = TRUE;

  g_mutex_lock (&r->lock);
  while (r->frames < n && ok)
    ok = g_cond_wait_until (&r->cond, &r->lock, deadline);
  g_mutex_unlock (&r->lock);
  return ok;
}

/* One run: the primary carries 720p59.94, the secondary (from the time the
 * receiver has output frames) a 720p50 stream of the same SSRC and payload
 * type, so that only the format (the merge's key is SSRC, payload type and
 * format) tells it apart.  FALSE when the machine itself lost datagrams on
 * loopback (run again). */
static gboolean
run_other_format (void)
{
  const RefFormat *f = &ref_720p5994, *g = &ref_720p50;
  guint8 **pics = net_make_pictures (f, N_PICS, 71);
  guint8 **other = net_make_pictures (g, FMT_M, 72);
  GstAppSinkCallbacks cb = { NULL, NULL, fmt_sample };
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  guint64 total = (guint64) FMT_N * ref_datagrams (f), foreign, stalled;
  GstElement *rpipe, *rsrc, *rsink, *sender;
  GstStructure *st, *fst;
  FmtFrames frames;
  GstBus *bus;
  gchar *desc;
  guint port[2], k, next;
  gboolean clean = FALSE;

  desc = g_strdup_printf ("st2022src name=src port=0 secondary-address="
      "127.0.0.1 secondary-port=0 seamless-window=%u timeout=%"
      G_GUINT64_FORMAT " stats-interval=0 ! video/x-raw,format=UYVP ! "
      "appsink name=sink sync=false", FMT_TIMEOUT_MS,
      FMT_TIMEOUT_MS * GST_MSECOND);
  rpipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (rpipe != NULL);
  rsrc = gst_bin_get_by_name (GST_BIN (rpipe), "src");
  rsink = gst_bin_get_by_name (GST_BIN (rpipe), "sink");
  g_mutex_init (&frames.lock);
  g_cond_init (&frames.cond);
  frames.frames = 0;
  frames.got = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  gst_app_sink_set_callbacks (GST_APP_SINK (rsink), &cb, &frames, NULL);
  bus = gst_element_get_bus (rpipe);
  gst_bus_set_sync_handler (bus, path_messages, log, NULL);
  fail_unless (gst_element_set_state (rpipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (rsrc, "port", &port[0], "secondary-port", &port[1], NULL);
  fail_unless (port[0] != 0 && port[1] != 0);

  /* the good stream on the primary only */
  desc = g_strdup_printf ("host=127.0.0.1 port=%u ssrc=%u", port[0],
      FMT_SSRC);
  sender = start_sender (f, pics, FMT_N, desc);
  g_free (desc);

  /* the merged stream is the primary's: now the other format on the
   * secondary, while the primary goes on */
  fail_unless (fmt_wait_frames (&frames, 2, 60));
  desc = g_strdup_printf ("st2022sink name=sink stats-interval=0 "
      "host=127.0.0.1 port=%u ssrc=%u", port[1], FMT_SSRC);
  fst = net_send_pictures (g, other, FMT_M, desc);
  g_free (desc);
  foreign = net_stat (fst, "packets");
  fail_unless_equals_uint64 (foreign, (guint64) FMT_M * ref_datagrams (g));
  gst_structure_free (fst);

  st = net_run_until_eos (sender, "sink", 60);
  fail_unless_equals_uint64 (net_stat (st, "packets"), total);
  gst_structure_free (st);
  /* a silence while the stream was sent (later, it is over) */
  stalled = src_stat (rsrc, "signal-lost");
  gst_element_set_state (sender, GST_STATE_NULL);
  gst_object_unref (sender);

  /* every frame out or dropped (a consumer the shared machine stalls costs
   * frames-dropped, which the judging below takes in) */
  {
    gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    while (!fmt_wait_frames (&frames, FMT_N - src_stat (rsrc,
                "frames-dropped"), 0) && g_get_monotonic_time () < deadline)
      fmt_wait_frames (&frames, FMT_N, 1);
  }
  /* the last foreign datagram may still be on its way through the
   * receiver's socket: counted once the receiver stops */
  gst_element_set_state (rpipe, GST_STATE_NULL);
  g_object_get (rsrc, "stats", &st, NULL);
  {
    gchar *txt = gst_structure_to_string (st);

    g_printerr ("other format: sent %" G_GUINT64_FORMAT " + %"
        G_GUINT64_FORMAT " foreign; receiver %s\n", total, foreign, txt);
    g_free (txt);
  }

  if (net_stat (st, "packets-overflow") || net_stat (st, "overflow-events")
      || net_stat (st, "packets-primary") != total
      || net_stat (st, "packets-foreign") != foreign
      || stalled) {
    g_printerr ("other format: the machine dropped datagrams on loopback "
        "(overflow %" G_GUINT64_FORMAT ") or stalled the sender beyond "
        "`timeout` (signal lost %" G_GUINT64_FORMAT "): run again\n",
        net_stat (st, "overflow-events"), stalled);
    goto done;
  }
  clean = TRUE;
  /* every datagram of the other format counted foreign, none reached the
   * depacketizer; the primary's stream whole */
  fail_unless_equals_uint64 (net_stat (st, "packets-foreign"), foreign);
  fail_unless_equals_uint64 (net_stat (st, "packets-secondary"), 0);
  fail_unless_equals_uint64 (net_stat (st, "packets-primary"), total);
  fail_unless_equals_uint64 (net_stat (st, "packets"), total);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost-primary"), 0);
  /* the secondary missed every datagram of the merged stream */
  fail_unless_equals_uint64 (net_stat (st, "packets-lost-secondary"), total);
  fail_unless_equals_uint64 (net_stat (st, "packets-recovered"), total);
  fail_unless_equals_uint64 (net_stat (st, "packets-invalid"), 0);
  fail_unless_equals_uint64 (net_stat (st, "format-changes"), 0);
  fail_unless_equals_uint64 (net_stat (st, "frames"), frames.got->len);
  fail_unless_equals_uint64 (net_stat (st, "frames-corrupted"), 0);
  /* each frame out is the next picture sent, bit-exact, but for those a
   * stalled consumer cost (frames-dropped: fewer than N_PICS in a row) */
  for (k = 0, next = 0; k < frames.got->len; k++) {
    GstSample *s = frames.got->pdata[k];
    guint8 *got = net_buffer_to_uyvp (gst_sample_get_buffer (s),
        gst_sample_get_caps (s), f);
    guint pic;

    for (pic = 0; pic < N_PICS; pic++)
      if (memcmp (got, pics[pic], f->width * 5 / 2 * f->height) == 0)
        break;
    fail_unless (pic < N_PICS, "frame %u differs from every picture", k);
    next += (pic + N_PICS - next % N_PICS) % N_PICS + 1;
    g_free (got);
  }
  fail_unless (next <= FMT_N);
  fail_unless_equals_uint64 (frames.got->len + net_stat (st,
          "frames-dropped"), FMT_N);
  fail_unless_equals_uint64 (next - frames.got->len, net_stat (st,
          "frames-dropped") - (FMT_N - next));
  /* a path carrying another stream does not carry the merged one: down,
   * and the other format never brings it up */
  for (k = 0; k < log->len; k++)
    g_printerr ("other format: %s\n", (gchar *) log->pdata[k]);
  fail_unless_equals_int (log->len, 1);
  fail_unless_equals_string (log->pdata[0], "secondary:down");

done:
  gst_structure_free (st);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (rsrc);
  gst_object_unref (rsink);
  gst_object_unref (rpipe);
  g_ptr_array_unref (frames.got);
  g_mutex_clear (&frames.lock);
  g_cond_clear (&frames.cond);
  g_ptr_array_unref (log);
  net_free_pictures (pics, N_PICS);
  net_free_pictures (other, FMT_M);
  return clean;
}

GST_START_TEST (test_secondary_other_format)
{
  guint attempt;

  for (attempt = 0; attempt < 5; attempt++)
    if (run_other_format ())
      return;
  fail ("five runs in a row lost datagrams on the machine itself");
}

GST_END_TEST;

/* --- the sink: a path whose sends fail ------------------------------------ */

/* Waits for st2022-path @path:@state from the sender (bus, 20 s) */
static void
wait_path (GstBus * bus, const gchar * path, const gchar * state)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  for (;;) {
    gint64 left = deadline - g_get_monotonic_time ();
    GstMessage *msg;
    const GstStructure *st;

    fail_unless (left > 0, "no st2022-path %s %s", path, state);
    msg = gst_bus_timed_pop (bus, left * 1000);
    fail_unless (msg != NULL, "no st2022-path %s %s", path, state);
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
        "the sender failed");
    st = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
        && gst_structure_has_name (st, "st2022-path")) {
      gboolean match = !g_strcmp0 (gst_structure_get_string (st, "path"),
          path) && !g_strcmp0 (gst_structure_get_string (st, "state"),
          state);

      fail_unless (match, "st2022-path %s %s first", gst_structure_get_string
          (st, "path"), gst_structure_get_string (st, "state"));
      gst_message_unref (msg);
      return;
    }
    gst_message_unref (msg);
  }
}

/* In a network namespace of the test's own with only loopback, the
 * secondary's destination has no route (every send fails: ENETUNREACH)
 * until the test gives it one: the primary path sends every datagram all
 * along, the secondary's failures are counted and told, and its return */
GST_START_TEST (test_sink_secondary_fails_and_returns)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 12;
  guint8 **pics = net_make_pictures (f, 2, 3);
  GstCaps *caps = net_format_caps (f, "UYVP", FALSE);
  gchar ns[32], *path;
  GstElement *sender, *appsrc;
  GstStructure *st;
  GstVideoInfo info;
  GstBus *bus;
  int fd, orig;
  guint k;
  guint64 total = (guint64) N * ref_datagrams (f);

  if (getuid () != 0 || !net_sh ("ip -V")) {
    g_printerr ("SKIP: a network namespace needs root and iproute2\n");
    goto out;
  }
  g_snprintf (ns, sizeof (ns), "vmi7s%d", (int) getpid ());
  net_sh ("ip netns del %s", ns);
  fail_unless (net_sh ("ip netns add %s", ns));
  fail_unless (net_sh ("ip -n %s link set lo up", ns));

  /* the sender's sockets are made by this thread, in the namespace */
  orig = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  path = g_strdup_printf ("/var/run/netns/%s", ns);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  g_free (path);
  fail_unless (fd >= 0 && setns (fd, CLONE_NEWNET) == 0);
  close (fd);
  fail_unless (gst_video_info_from_caps (&info, caps));
  sender = gst_parse_launch ("appsrc name=src format=time ! st2022sink "
      "name=sink stats-interval=0 host=127.0.0.1 port=5004 "
      "secondary-host=10.88.0.2 secondary-port=5006", NULL);
  fail_unless (sender != NULL);
  appsrc = gst_bin_get_by_name (GST_BIN (sender), "src");
  g_object_set (appsrc, "caps", caps, NULL);
  bus = gst_element_get_bus (sender);
  fail_unless (gst_element_set_state (sender, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (setns (orig, CLONE_NEWNET) == 0);
  close (orig);

  for (k = 0; k < N; k++) {
    GstBuffer *buf = net_make_buffer (&info, f, pics[k % 2]);

    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND * f->fps_d,
        f->fps_n);
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (appsrc), buf) ==
        GST_FLOW_OK);
    if (k == N / 2) {
      /* told as the frames after the first failed one are rendered */
      wait_path (bus, "secondary", "down");
      /* a route for the secondary: its sends work again (told as the
       * frames after go out) */
      fail_unless (net_sh ("ip -n %s addr add 10.88.0.1/24 dev lo", ns));
    }
  }
  wait_path (bus, "secondary", "up");
  gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
  st = net_run_until_eos (sender, "sink", 60);
  GST_INFO ("sender: %" GST_PTR_FORMAT, st);

  /* the primary sent everything, the secondary everything it could; what
   * it could not is counted, once down and back */
  fail_unless_equals_uint64 (net_stat (st, "packets"), total);
  fail_unless_equals_uint64 (net_stat (st, "packets-primary"), total);
  fail_unless_equals_uint64 (net_stat (st, "packets-failed-primary"), 0);
  fail_unless_equals_uint64 (net_stat (st, "packets-secondary") +
      net_stat (st, "packets-failed-secondary"), total);
  fail_unless (net_stat (st, "packets-failed-secondary") > 0);
  fail_unless (net_stat (st, "packets-secondary") > 0);
  fail_unless_equals_uint64 (net_stat (st, "path-failures-secondary"), 1);
  fail_unless_equals_uint64 (net_stat (st, "path-failures-primary"), 0);
  fail_unless_equals_uint64 (net_stat (st, "frames"), N);

  gst_structure_free (st);
  gst_element_set_state (sender, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (appsrc);
  gst_object_unref (sender);
  net_sh ("ip netns del %s", ns);
out:
  gst_caps_unref (caps);
  net_free_pictures (pics, 2);
}

GST_END_TEST;

static Suite *
seamless_suite (void)
{
  Suite *s = suite_create ("st2022-seamless-net");
  TCase *tc = tcase_create ("relay");

  tcase_set_timeout (tc, 180);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_disjoint_loss);
  tcase_add_test (tc, test_common_loss);
  tcase_add_test (tc, test_path_cut_and_back);
  tcase_add_test (tc, test_secondary_other_format);
  tcase_add_test (tc, test_sink_secondary_fails_and_returns);
  return s;
}

GST_CHECK_MAIN (seamless);
