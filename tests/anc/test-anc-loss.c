/* gst-vmi tests: embedded audio through st2022src when whole frames and
 * runs of datagrams across frame boundaries are lost
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * st2022sink (clock-source=tai) sends video with stereo audio whose sample
 * j of the stream carries the value j + 1 (the other channel -(j + 1));
 * a relay on loopback drops chosen datagrams before st2022src
 * (clock-source=tai): a whole frame; the end of one frame, the whole next
 * and the start of the one after (a burst, as a full socket buffer loses
 * them); the first three fifths of a frame whose predecessor came whole.
 * Required, exactly: the audio pad is one run of samples (offsets and PTS
 * continuous) in which every sample is silence or the sender's sample of
 * that place; every frame the relay left alone has all its samples under
 * it; a frame's audio starts at its video PTS (on the RTP/TAI timeline);
 * frames that lost datagrams have their surviving samples at their places.
 */

#include "net-common.h"

#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <gst/audio/audio.h>
#include "../../gst/st2022-elements/gstst2022meta.h"

#define N_FRAMES 40

typedef struct
{
  int in_fd;
  guint16 out_port;
  guint n;                      /* datagrams per frame */
  volatile gint stop;
  GThread *thread;
  guint dropped;
  gint first_frcount;           /* frame 0's */
} Relay;

/* Which datagram @idx (of @n) of the stream's frame @f the relay drops */
static gboolean
relay_drops (guint f, guint idx, guint n)
{
  switch (f) {
    case 10:
      return TRUE;
    case 20:
      return idx >= n / 2;
    case 21:
      return TRUE;
    case 22:
      return idx < 2 * n / 5;
    case 30:
      return idx < 3 * n / 5;
    default:
      return FALSE;
  }
}

static gboolean
frame_hit (guint f)
{
  return f == 10 || f == 20 || f == 21 || f == 22 || f == 30;
}

static gpointer
relay_thread (gpointer data)
{
  Relay *r = data;
  int out = ref_udp_sender ();
  guint8 buf[2048];
  gint frame = -1, last_frcount = -1;
  guint idx = 0;

  while (!g_atomic_int_get (&r->stop)) {
    struct pollfd pfd = { r->in_fd, POLLIN, 0 };
    gssize len;

    if (poll (&pfd, 1, 50) <= 0)
      continue;
    len = recv (r->in_fd, buf, sizeof (buf), 0);
    if (len < REF_HEADER)
      continue;
    /* the frame a datagram belongs to: its HBRMT FRCount (the byte after
     * the 12-byte RTP header's first HBRMT byte) */
    if (buf[13] != last_frcount) {
      if (last_frcount < 0)
        g_atomic_int_set (&r->first_frcount, buf[13]);
      last_frcount = buf[13];
      frame++;
      idx = 0;
    }
    if (relay_drops ((guint) frame, idx, r->n))
      r->dropped++;
    else
      ref_udp_sendto (out, "127.0.0.1", r->out_port, buf, len);
    idx++;
  }
  close (out);
  return NULL;
}

typedef struct
{
  GMutex lock;
  GCond cond;
  GArray *video_pts;            /* GstClockTime */
  GArray *video_corrupted;      /* gboolean: datagrams were lost */
  GArray *video_frcount;        /* guint: HBRMT FRCount */
  GArray *audio;                /* gint32, interleaved stereo */
  guint64 next_offset;
  GstClockTime audio_pts0;
  gchar *audio_error;           /* the first discontinuity seen */
  guint discont;
} Received;

static GstFlowReturn
on_video (GstAppSink * sink, gpointer user_data)
{
  Received *r = user_data;
  GstSample *s = gst_app_sink_pull_sample (sink);
  GstClockTime pts = GST_BUFFER_PTS (gst_sample_get_buffer (s));
  gboolean corrupted = GST_BUFFER_FLAG_IS_SET (gst_sample_get_buffer (s),
      GST_BUFFER_FLAG_CORRUPTED);

  g_mutex_lock (&r->lock);
  g_array_append_val (r->video_pts, pts);
  g_array_append_val (r->video_corrupted, corrupted);
  {
    guint fc = net_get_meta (gst_sample_get_buffer (s))->frcount;

    g_array_append_val (r->video_frcount, fc);
  }
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  gst_sample_unref (s);
  return GST_FLOW_OK;
}

static GstFlowReturn
on_audio (GstAppSink * sink, gpointer user_data)
{
  Received *r = user_data;
  GstSample *s = gst_app_sink_pull_sample (sink);
  GstBuffer *b = gst_sample_get_buffer (s);
  GstMapInfo map;
  guint64 n;
  GstClockTime want;

  gst_buffer_map (b, &map, GST_MAP_READ);
  n = map.size / 8;
  g_mutex_lock (&r->lock);
  if (r->audio->len == 0)
    r->audio_pts0 = GST_BUFFER_PTS (b);
  if (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_DISCONT))
    r->discont++;
  want = r->audio_pts0 + gst_util_uint64_scale (r->next_offset, GST_SECOND,
      48000);
  if (r->audio_error == NULL && (GST_BUFFER_OFFSET (b) != r->next_offset
          || GST_BUFFER_OFFSET_END (b) != r->next_offset + n
          || GST_BUFFER_PTS (b) != want))
    r->audio_error = g_strdup_printf ("audio buffer at offset %"
        G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " samples, PTS %"
        GST_TIME_FORMAT ") does not continue at %" G_GUINT64_FORMAT
        " (PTS %" GST_TIME_FORMAT ")", GST_BUFFER_OFFSET (b), n,
        GST_TIME_ARGS (GST_BUFFER_PTS (b)), r->next_offset,
        GST_TIME_ARGS (want));
  r->next_offset += n;
  /* S32LE holds the 24-bit samples in its upper bits */
  {
    const gint32 *v = (const gint32 *) map.data;
    guint64 i;

    for (i = 0; i < 2 * n; i++) {
      gint32 x = (gint32) GINT32_FROM_LE (v[i]) >> 8;

      g_array_append_val (r->audio, x);
    }
  }
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  gst_buffer_unmap (b, &map);
  gst_sample_unref (s);
  return GST_FLOW_OK;
}

static void
connect_appsink (GstElement * pipeline, const gchar * name,
    GstFlowReturn (*cb) (GstAppSink *, gpointer), Received * r)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstAppSinkCallbacks cbs = { 0 };

  cbs.new_sample = cb;
  gst_app_sink_set_callbacks (GST_APP_SINK (e), &cbs, r, NULL);
  gst_object_unref (e);
}

static void
check_loss (const RefFormat * f, const guint * spf_seq, guint seq_len)
{
  guint16 rport = net_test_port ();
  GstElement *rx, *tx, *asrc;
  Received r = { 0 };
  Relay relay = { 0 };
  struct sockaddr_in sa;
  socklen_t sa_len = sizeof (sa);
  GstCaps *vcaps = net_format_caps (f, "UYVP", FALSE);
  gchar *vcaps_str = gst_caps_to_string (vcaps), *desc;
  guint64 total = 0, base, i, *start;
  GstClockTime dur = gst_util_uint64_scale_int (GST_SECOND, f->fps_d,
      f->fps_n), p0;
  gint64 end;
  GstBus *bus;
  GstMessage *msg;
  guint k, f0, got_frames;
  gboolean corrupted;
  guint64 late;
  GstStructure *rstats;
  gint32 *aud;
  GstBuffer *abuf;
  GstMapInfo map;
  GstVideoInfo vinfo;
  GstBuffer *vbuf;
  guint8 **pics;
  GString *got = g_string_new (NULL);

  /* sender frame k carries samples [start[k], start[k + 1]) */
  start = g_new0 (guint64, N_FRAMES + 1);
  for (k = 0; k < N_FRAMES; k++)
    start[k + 1] = start[k] + spf_seq[k % seq_len];
  total = start[N_FRAMES];

  g_mutex_init (&r.lock);
  g_cond_init (&r.cond);
  r.video_pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  r.video_corrupted = g_array_new (FALSE, FALSE, sizeof (gboolean));
  r.video_frcount = g_array_new (FALSE, FALSE, sizeof (guint));
  r.audio = g_array_new (FALSE, FALSE, sizeof (gint32));

  desc = g_strdup_printf ("st2022src name=src address=127.0.0.1 port=%u "
      "clock-source=tai stats-interval=0 ! appsink name=v sync=false "
      "src.audio ! queue ! appsink name=a sync=false", rport);
  rx = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (rx != NULL);
  connect_appsink (rx, "v", on_video, &r);
  connect_appsink (rx, "a", on_audio, &r);
  fail_unless (gst_element_set_state (rx, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  /* the relay's socket is bound (an ephemeral port, read back) before
   * anything is sent to it */
  relay.in_fd = ref_udp_bind ("127.0.0.1", 0);
  fail_unless (getsockname (relay.in_fd, (struct sockaddr *) &sa,
          &sa_len) == 0);
  relay.out_port = rport;
  relay.n = ref_datagrams (f);
  relay.thread = g_thread_new ("relay", relay_thread, &relay);

  /* both from running time 0: sender frame k carries samples
   * [start[k], start[k + 1]) */
  desc = g_strdup_printf ("appsrc name=vsrc is-live=true format=time "
      "max-bytes=0 caps=\"%s\" ! st2022sink name=sink clock-source=tai "
      "host=127.0.0.1 port=%u stats-interval=0 "
      "appsrc name=asrc is-live=true format=time max-bytes=0 "
      "caps=audio/x-raw,format=S32LE,rate=48000,channels=2,"
      "layout=interleaved,channel-mask=(bitmask)0x3 ! queue ! sink.audio",
      vcaps_str, ntohs (sa.sin_port));
  tx = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (tx != NULL);
  /* the whole stream's audio, one buffer: sample j is j + 1 */
  abuf = gst_buffer_new_allocate (NULL, (total + 48000) * 8, NULL);
  gst_buffer_map (abuf, &map, GST_MAP_WRITE);
  aud = (gint32 *) map.data;
  for (i = 0; i < total + 48000; i++) {
    aud[2 * i] = GINT32_TO_LE ((gint32) (i + 1) << 8);
    aud[2 * i + 1] = GINT32_TO_LE (-(gint32) ((i + 1) << 8));
  }
  gst_buffer_unmap (abuf, &map);
  GST_BUFFER_PTS (abuf) = 0;
  GST_BUFFER_DURATION (abuf) = gst_util_uint64_scale (total + 48000,
      GST_SECOND, 48000);
  asrc = gst_bin_get_by_name (GST_BIN (tx), "asrc");
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (asrc), abuf),
      GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (asrc));
  gst_object_unref (asrc);
  /* every frame the same picture (one memory, shared) */
  gst_video_info_from_caps (&vinfo, vcaps);
  pics = net_make_pictures (f, 1, 7);
  vbuf = net_make_buffer (&vinfo, f, pics[0]);
  net_free_pictures (pics, 1);
  asrc = gst_bin_get_by_name (GST_BIN (tx), "vsrc");
  for (k = 0; k < N_FRAMES; k++) {
    GstBuffer *b = gst_buffer_copy (vbuf);

    GST_BUFFER_PTS (b) = k * dur;
    GST_BUFFER_DURATION (b) = dur;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (asrc), b),
        GST_FLOW_OK);
  }
  gst_buffer_unref (vbuf);
  gst_app_src_end_of_stream (GST_APP_SRC (asrc));
  gst_object_unref (asrc);
  fail_unless (gst_element_set_state (tx, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  bus = gst_element_get_bus (tx);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "the sender did not finish in 60 s");
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "sender error");
  gst_message_unref (msg);
  gst_object_unref (bus);

  /* the last frame is on loopback: wait for the receiver to hand it on
   * (bounded by 3 s without a frame: the checks below say what came) */
  g_mutex_lock (&r.lock);
  for (;;) {
    guint had = r.video_frcount->len;

    if (had > 0 && ((g_array_index (r.video_frcount, guint, had - 1) -
                (guint) g_atomic_int_get (&relay.first_frcount)) & 0xff) >=
        N_FRAMES - 1)
      break;
    /* a sender that fell behind sends on after its EOS: wait while
     * frames come */
    end = g_get_monotonic_time () + 3 * G_TIME_SPAN_SECOND;
    while (r.video_frcount->len == had &&
        g_cond_wait_until (&r.cond, &r.lock, end));
    if (r.video_frcount->len == had)
      break;
  }
  g_mutex_unlock (&r.lock);
  {
    GstElement *sink = gst_bin_get_by_name (GST_BIN (tx), "sink");
    GstStructure *st;

    g_object_get (sink, "stats", &st, NULL);
    late = net_stat (st, "frames-late");
    gst_structure_free (st);
    gst_object_unref (sink);
  }
  {
    GstElement *src = gst_bin_get_by_name (GST_BIN (rx), "src");

    g_object_get (src, "stats", &rstats, NULL);
    gst_object_unref (src);
  }
  gst_element_set_state (tx, GST_STATE_NULL);
  gst_element_set_state (rx, GST_STATE_NULL);
  g_atomic_int_set (&relay.stop, 1);
  g_thread_join (relay.thread);
  close (relay.in_fd);
  gst_object_unref (tx);
  gst_object_unref (rx);

  fail_unless (r.audio_error == NULL, "%s", r.audio_error);
  fail_unless_equals_int (r.discont, 1);
  fail_unless (r.video_pts->len > 0 && r.audio->len > 0);

  /* where the output starts in the sender's samples: its first sample
   * that is not silence */
  for (i = 0; i < r.audio->len / 2; i++)
    if (g_array_index (r.audio, gint32, 2 * i) != 0)
      break;
  fail_unless (i < r.audio->len / 2, "all the audio is silence");
  base = (guint64) g_array_index (r.audio, gint32, 2 * i) - 1 - i;
  /* every sample is silence or the sender's of its place */
  for (i = 0; i < r.audio->len / 2; i++) {
    gint32 l = g_array_index (r.audio, gint32, 2 * i);
    gint32 rr = g_array_index (r.audio, gint32, 2 * i + 1);

    if (l == 0 && rr == 0)
      continue;
    if (l != (gint32) (base + i + 1) || rr != -(gint32) (base + i + 1))
      fail ("audio sample %" G_GUINT64_FORMAT " is %d/%d: the sender's "
          "sample %d (%" G_GUINT64_FORMAT " of the output from sender "
          "sample %" G_GUINT64_FORMAT ") was expected there or silence", i,
          l, rr, (gint32) (base + i + 1), i, base);
  }
  for (f0 = 0; f0 < N_FRAMES && start[f0] != base; f0++);
  fail_unless (f0 < N_FRAMES, "the audio starts at sender sample %"
      G_GUINT64_FORMAT ", no frame's start", base);
  fail_unless (f0 < 10, "the receiver locked on only at frame %u", f0);

  /* each frame (its number from its FRCount) under its own audio, which
   * starts at its PTS on the RTP/TAI timeline */
  p0 = g_array_index (r.video_pts, GstClockTime, 0);
  fail_unless_equals_uint64 (p0, r.audio_pts0);
  if (late)
    g_printerr ("note: the sender sent %" G_GUINT64_FORMAT " frames late "
        "(the machine is starved): their RTP times are not their places, "
        "the audio's sync with them is not checked\n", late);
  got_frames = 0;
  for (k = 0; k < r.video_pts->len; k++) {
    GstClockTime p = g_array_index (r.video_pts, GstClockTime, k);
    guint fr = (g_array_index (r.video_frcount, guint, k) -
        (guint) relay.first_frcount) & 0xff;
    gint64 at = (gint64) gst_util_uint64_scale_round (p - r.audio_pts0,
        48000, GST_SECOND), want = (gint64) (start[fr] - base);
    guint64 n = start[fr + 1] - start[fr], have = 0;

    fail_unless (fr < N_FRAMES);
    if (k == 0)
      fail_unless_equals_int (fr, f0);
    fail_unless (!frame_hit (fr) || fr == 20 || fr == 22 || fr == 30,
        "frame %u came out though the relay dropped all of it", fr);
    /* 1000/1001 rates: a frame's PTS lies between two samples */
    fail_unless (late || ABS (at - want) <= (f->fps_d == 1001 ? 1 : 0),
        "frame %u's audio starts at output sample %" G_GINT64_FORMAT
        ", its PTS says %" G_GINT64_FORMAT, fr, want, at);
    fail_unless (start[fr + 1] - base <= r.audio->len / 2 || fr == N_FRAMES
        - 1, "frame %u's samples are not all out", fr);
    for (i = start[fr] - base; i < start[fr + 1] - base &&
        i < r.audio->len / 2; i++)
      have += g_array_index (r.audio, gint32, 2 * i) != 0;
    corrupted = g_array_index (r.video_corrupted, gboolean, k);
    fail_unless (corrupted || !frame_hit (fr), "frame %u lost datagrams "
        "and is not flagged CORRUPTED", fr);
    /* (a loaded machine may lose datagrams of other frames too: they are
     * flagged, and the check above still holds their samples to their
     * places) */
    if (!corrupted && fr != N_FRAMES - 1) {
      fail_unless_equals_uint64 (have, n);
    } else if (frame_hit (fr)) {
      /* the relay took some of its audio packets, not all */
      fail_unless (have > 0 && have < n, "frame %u: %" G_GUINT64_FORMAT
          " of %" G_GUINT64_FORMAT " samples", fr, have, n);
    }
    got_frames++;
    g_string_append_printf (got, " %u", fr);
  }
  /* all but the relay's two and, on a busy machine, a few for a slow
   * consumer (counted by st2022src) */
  {
    gchar *rs = gst_structure_to_string (rstats);

    fail_unless (got_frames >= N_FRAMES - f0 - 6, "%u frames received:%s; "
        "receiver %s", got_frames, got->str, rs);
    g_free (rs);
  }
  gst_structure_free (rstats);
  g_string_free (got, TRUE);

  g_array_unref (r.video_pts);
  g_array_unref (r.video_corrupted);
  g_array_unref (r.video_frcount);
  g_array_unref (r.audio);
  g_free (r.audio_error);
  g_mutex_clear (&r.lock);
  g_cond_clear (&r.cond);
  gst_caps_unref (vcaps);
  g_free (vcaps_str);
  g_free (start);
}

GST_START_TEST (test_frames_lost_720p50)
{
  const guint spf[1] = { 960 };

  check_loss (&ref_720p50, spf, 1);
}

GST_END_TEST;

GST_START_TEST (test_frames_lost_720p5994)
{
  const guint spf[5] = { 801, 801, 801, 801, 800 };

  check_loss (&ref_720p5994, spf, 5);
}

GST_END_TEST;

static Suite *
anc_loss_suite (void)
{
  Suite *s = suite_create ("anc-loss");
  TCase *tc = tcase_create ("loss");

  suite_add_tcase (s, tc);
  /* the sender and the receiver's waits are bounded with messages of
   * their own */
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_frames_lost_720p50);
  tcase_add_test (tc, test_frames_lost_720p5994);
  return s;
}

GST_CHECK_MAIN (anc_loss);
