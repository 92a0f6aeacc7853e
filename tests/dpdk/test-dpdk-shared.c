/* gst-vmi tests: st2022src sources sharing one receive engine
 * (`shared-engine`, `rx-cpu`) on one DPDK port, fed one frame of each of
 * 8 interleaved 1080p59.94 streams (35,976 datagrams) over and over: by a
 * net_pcap infinite_rx replay (all of it held in the port's receive pool
 * from the start) and by the receive benchmarks' generator (rx-gen.c on
 * net_ring, each stream's sequence numbers and FRCount going on across
 * the rounds, as on a wire). Each source is in a pipeline of its own so
 * that one can stop and start again while the others play. Every frame is
 * compared with its picture. */

#include "dpdk-common.h"

#include <gst/app/gstappsink.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N_SRC 8
#define GROUP_BASE 0xef010201   /* 239.1.2.1 + i */
#define UNICAST 0x0a000002      /* 10.0.0.2, ports 5004 + 2 i */
/* frames each source must deliver in each phase of the test */
#define FRAMES_PER_PHASE 3

typedef struct
{
  guint index;
  GstElement *pipeline, *src;
  const guint8 *pic;
  /* under lock */
  guint good, bad, corrupted;
} Source;

static GMutex lock;
static GCond cond;
static Source sources[N_SRC];

/* appsink streaming thread: the frame against its picture, row by row */
static GstFlowReturn
on_sample (GstAppSink * sink, gpointer user_data)
{
  Source *s = user_data;
  const RefFormat *f = &ref_1080p5994;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf = gst_sample_get_buffer (sample);
  gsize ustride = f->width * 5 / 2;
  GstVideoInfo info;
  GstVideoFrame frame;
  gboolean same = TRUE;
  guint r;

  fail_unless (gst_video_info_from_caps (&info,
          gst_sample_get_caps (sample)));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_FORMAT_UYVP);
  fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&info), 60000);
  fail_unless_equals_int (GST_VIDEO_INFO_FPS_D (&info), 1001);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  for (r = 0; r < f->height && same; r++)
    same = memcmp ((const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), s->pic + r * ustride,
        ustride) == 0;
  gst_video_frame_unmap (&frame);
  g_mutex_lock (&lock);
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED))
    s->corrupted++;
  else if (same)
    s->good++;
  else
    s->bad++;
  g_cond_broadcast (&cond);
  g_mutex_unlock (&lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* good frames source @i had (under lock) */
static guint
good_of (guint i)
{
  return sources[i].good;
}

static void
wait_frames (guint mask, const guint * base, guint want)
{
  dpdk_wait_counts (&lock, &cond, good_of, N_SRC, mask, base, want);
}

static void
snapshot (guint * counts)
{
  dpdk_snapshot_counts (&lock, good_of, N_SRC, counts);
}

/* The EAL's runtime files (--file-prefix vmitest-<pid>-<n>) of this
 * process (check runs each test in a child of its own) */
static void
remove_eal_files (void)
{
  gchar *cmd = g_strdup_printf ("rm -rf /var/run/dpdk/vmitest-%d-*",
      (int) getpid ());

  if (system (cmd) != 0)
    g_printerr ("could not run %s\n", cmd);
  g_free (cmd);
}

/* The pinned engine (CPU 0) runs at real-time priority where allowed, and
 * then the sources' streaming threads ("src:src") keep off its CPU */
static void
check_engine_cpu (const gchar * prefix)
{
  gint policy = -1;

  dpdk_count_threads_on (prefix, 0, NULL, &policy);
  if (policy != SCHED_FIFO) {
    /* refused: each source warned (not root, no CAP_SYS_NICE) */
    g_printerr ("engine at policy %d, not SCHED_FIFO: the streaming "
        "threads' CPUs are not checked\n", policy);
    fail_if (geteuid () == 0, "root, yet no SCHED_FIFO");
    return;
  }
  fail_unless_equals_int (dpdk_count_threads ("src:src", NULL), N_SRC);
  if (sysconf (_SC_NPROCESSORS_ONLN) > 1)
    fail_unless_equals_int (dpdk_count_threads_on ("src:src", 0, NULL, NULL), 0);
}

/* A replay file in a fresh directory, and the EAL arguments of a
 * net_pcap infinite_rx port on it */
typedef struct
{
  gchar *dir, *pcap, *eal;
} Replay;

static void
replay_init (Replay * r)
{
  gchar *vdev;

  r->dir = dpdk_test_mkdtemp ();
  r->pcap = g_build_filename (r->dir, "rx.pcap", NULL);
  vdev = g_strdup_printf ("--vdev net_pcap0,rx_pcap=%s,infinite_rx=1",
      r->pcap);
  r->eal = dpdk_test_eal_args (vdev);
  g_free (vdev);
}

static void
replay_clear (Replay * r)
{
  remove_eal_files ();
  g_free (r->eal);
  g_free (r->pcap);
  dpdk_test_rmdir (r->dir);
}

static guint64
stat_of (GstElement * src, const gchar * field)
{
  GstStructure *st = NULL;
  guint64 v;

  g_object_get (src, "stats", &st, NULL);
  fail_unless (st != NULL);
  v = net_stat (st, field);
  gst_structure_free (st);
  return v;
}

/* Where stream @i goes: a multicast group each (net_pcap), or one unicast
 * address and a port each (net_ring: a multicast receiver's IGMP reports
 * would go onto the generator's single-producer ring) */
static guint32
stream_addr (guint i, gboolean unicast)
{
  return unicast ? UNICAST : GROUP_BASE + i;
}

static guint16
stream_port (guint i, gboolean unicast)
{
  return unicast ? 5004 + 2 * i : 5004;
}

/* One frame of each of the N_SRC streams (@pics), datagram by datagram in
 * turn, as a switch merging eight senders would deliver them */
static void
write_replay (const gchar * pcap, guint8 ** pics, gboolean unicast)
{
  const RefFormat *f = &ref_1080p5994;
  GPtrArray *streams[N_SRC], *all = g_ptr_array_new ();
  guint i, k, n = ref_datagrams (f);

  for (i = 0; i < N_SRC; i++)
    streams[i] = dpdk_encode_stream (f, &pics[i], 1,
        stream_addr (i, unicast), stream_port (i, unicast));
  for (k = 0; k < n; k++)
    for (i = 0; i < N_SRC; i++)
      g_ptr_array_add (all, streams[i]->pdata[k]);
  fail_unless_equals_int (all->len, 35976);
  dpdk_pcap_write (pcap, all);
  g_ptr_array_unref (all);
  for (i = 0; i < N_SRC; i++)
    g_ptr_array_unref (streams[i]);
}

/* The 8 sources on one engine pinned to CPU 0, on @eal's port (its
 * streams as write_replay (@unicast) wrote them); source 3 stops and
 * starts again mid-run */
static void
run_8_streams (const gchar * eal, guint8 ** pics, gboolean unicast)
{
  const RefFormat *f = &ref_1080p5994;
  gchar *engine = g_strdup_printf ("t%d", (int) getpid ());
  gchar *prefix = g_strdup_printf ("vmi-rx-%.8s", engine);
  guint base[N_SRC], i, n = ref_datagrams (f), others;
  cpu_set_t cpus;

  for (i = 0; i < N_SRC; i++) {
    Source *s = &sources[i];
    GstElement *sink;
    GstAppSinkCallbacks cb = { NULL, NULL, on_sample };
    guint32 a = stream_addr (i, unicast);
    gchar *desc = g_strdup_printf ("st2022src name=src transport=dpdk "
        "address=%u.%u.%u.%u port=%u shared-engine=%s rx-cpu=0 "
        "stats-interval=0 timeout=0 dpdk-eal-args=\"%s\" ! "
        "appsink name=sink sync=false max-buffers=2 drop=false", a >> 24,
        (a >> 16) & 255, (a >> 8) & 255, a & 255, stream_port (i, unicast),
        engine, eal);

    memset (s, 0, sizeof (*s));
    s->index = i;
    s->pic = pics[i];
    s->pipeline = gst_parse_launch (desc, NULL);
    fail_unless (s->pipeline != NULL);
    s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
    sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
    gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, s, NULL);
    gst_object_unref (sink);
    g_free (desc);
  }
  for (i = 0; i < N_SRC; i++)
    dpdk_set_state (sources[i].pipeline, GST_STATE_PLAYING);

  /* all eight, from one thread pinned to CPU 0 */
  memset (base, 0, sizeof (base));
  wait_frames ((1u << N_SRC) - 1, base, FRAMES_PER_PHASE);
  fail_unless_equals_int (dpdk_count_threads (prefix, &cpus), 1);
  fail_unless_equals_int (CPU_COUNT (&cpus), 1);
  fail_unless (CPU_ISSET (0, &cpus));
  fail_unless_equals_int (dpdk_count_threads ("st2022src-rx", NULL), 0);
  check_engine_cpu (prefix);

  /* source 3 stops: the others play on ... */
  dpdk_set_state (sources[3].pipeline, GST_STATE_NULL);
  others = ((1u << N_SRC) - 1) & ~(1u << 3);
  snapshot (base);
  wait_frames (others, base, FRAMES_PER_PHASE);
  /* ... and it comes back among them */
  dpdk_set_state (sources[3].pipeline, GST_STATE_PLAYING);
  snapshot (base);
  wait_frames ((1u << N_SRC) - 1, base, FRAMES_PER_PHASE);
  /* the restarted source's new streaming thread too */
  check_engine_cpu (prefix);

  for (i = 0; i < N_SRC; i++) {
    Source *s = &sources[i];

    GST_INFO ("source %u: %u frames bit-exact, packets %" G_GUINT64_FORMAT,
        i, s->good, stat_of (s->src, "packets"));
    fail_unless_equals_int (s->bad, 0);
    fail_unless_equals_int (s->corrupted, 0);
    fail_unless_equals_uint64 (stat_of (s->src, "packets-lost"), 0);
    fail_unless_equals_uint64 (stat_of (s->src, "frames-corrupted"), 0);
    fail_unless (stat_of (s->src, "packets") >= FRAMES_PER_PHASE * n);
    if (unicast) {
      /* a continuous stream per source: locked once, nothing lost,
       * invalid, overflowing or given up on the way; its frames are the
       * ones the appsink had since the source (re)started, give or take
       * the two it may still queue and the one on its way */
      guint since, frames;

      /* the appsink's count first: the element counts a frame before it
       * pushes it */
      g_mutex_lock (&lock);
      since = s->good - (i == 3 ? base[3] : 0);
      g_mutex_unlock (&lock);
      frames = (guint) stat_of (s->src, "frames");

      fail_unless_equals_uint64 (stat_of (s->src, "stream-locks"), 1);
      fail_unless_equals_uint64 (stat_of (s->src, "frames-skipped"), 0);
      fail_unless_equals_uint64 (stat_of (s->src, "frames-aborted"), 0);
      fail_unless_equals_uint64 (stat_of (s->src, "packets-invalid"), 0);
      fail_unless_equals_uint64 (stat_of (s->src, "packets-overflow"), 0);
      fail_unless (frames >= since && frames <= since + 3,
          "source %u: %u frames, %u at the appsink", i, frames, since);
    }
  }
  for (i = 0; i < N_SRC; i++) {
    dpdk_set_state (sources[i].pipeline, GST_STATE_NULL);
    gst_object_unref (sources[i].src);
    gst_object_unref (sources[i].pipeline);
  }
  /* the last source gone, the engine's thread is too */
  fail_unless_equals_int (dpdk_count_threads (prefix, NULL), 0);
  g_free (prefix);
  g_free (engine);
}

GST_START_TEST (test_shared_engine_8_streams)
{
  Replay rp;
  guint8 **pics = net_make_pictures (&ref_1080p5994, N_SRC, 29);

  replay_init (&rp);
  write_replay (rp.pcap, pics, FALSE);
  run_8_streams (rp.eal, pics, FALSE);
  net_free_pictures (pics, N_SRC);
  replay_clear (&rp);
}

GST_END_TEST;

/* The same from the generator of the receive benchmarks, unpaced (as fast
 * as the engine takes them: real-time figures are the benchmark's) */
GST_START_TEST (test_shared_engine_8_streams_rxgen)
{
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pcap = g_build_filename (dir, "frame.pcap", NULL);
  gchar *eal = dpdk_test_eal_args ("--vdev net_ring0");
  guint8 **pics = net_make_pictures (&ref_1080p5994, N_SRC, 37);

  write_replay (pcap, pics, TRUE);
  dpdk_test_rxgen_load (pcap, NULL);
  run_8_streams (eal, pics, TRUE);
  net_free_pictures (pics, N_SRC);
  remove_eal_files ();
  g_free (eal);
  g_free (pcap);
  dpdk_test_rmdir (dir);
}

GST_END_TEST;

/* rx-cpu without a shared engine pins the element's own receive thread */
GST_START_TEST (test_rx_cpu_own_thread)
{
  const RefFormat *f = &ref_1080p5994;
  Replay rp;
  guint8 **pics = net_make_pictures (f, 1, 31);
  GPtrArray *frames = dpdk_encode_stream (f, pics, 1, GROUP_BASE, 5004);
  GstAppSinkCallbacks cb = { NULL, NULL, on_sample };
  Source *s = &sources[0];
  GstElement *sink;
  guint base[N_SRC] = { 0 };
  cpu_set_t cpus;
  gchar *desc;

  replay_init (&rp);
  dpdk_pcap_write (rp.pcap, frames);
  desc = g_strdup_printf ("st2022src name=src transport=dpdk "
      "address=239.1.2.1 port=5004 rx-cpu=0 stats-interval=0 timeout=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false max-buffers=2 "
      "drop=false", rp.eal);
  memset (s, 0, sizeof (*s));
  s->pic = pics[0];
  s->pipeline = gst_parse_launch (desc, NULL);
  fail_unless (s->pipeline != NULL);
  sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, s, NULL);
  gst_object_unref (sink);
  dpdk_set_state (s->pipeline, GST_STATE_PLAYING);
  wait_frames (1, base, FRAMES_PER_PHASE);
  fail_unless_equals_int (dpdk_count_threads ("st2022src-rx", &cpus), 1);
  fail_unless_equals_int (CPU_COUNT (&cpus), 1);
  fail_unless (CPU_ISSET (0, &cpus));
  fail_unless_equals_int (s->bad, 0);
  fail_unless_equals_int (s->corrupted, 0);
  dpdk_set_state (s->pipeline, GST_STATE_NULL);
  gst_object_unref (s->pipeline);

  g_ptr_array_unref (frames);
  net_free_pictures (pics, 1);
  g_free (desc);
  replay_clear (&rp);
}

GST_END_TEST;

/* A shared engine on a transport that cannot demultiplex, with a second
 * path, or with a receive pool smaller than its replay fails the state
 * change and says what to do */
static void
expect_error (const gchar * desc, const gchar * says)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GError *err;

  fail_unless (pipeline != NULL);
  err = dpdk_expect_error (pipeline, 30, NULL);
  fail_unless (err != NULL, "%s: no error", desc);
  fail_unless (strstr (err->message, says) != NULL, "%s", err->message);
  g_error_free (err);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_shared_engine_errors)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  gchar *desc;

  expect_error ("st2022src transport=socket address=127.0.0.1 port=0 "
      "shared-engine=x ! fakesink", "shared-engine needs transport=dpdk");
  desc = g_strdup_printf ("st2022src transport=dpdk address=239.1.2.1 "
      "secondary-address=239.1.3.1 shared-engine=x dpdk-eal-args=\"%s\" ! "
      "fakesink", eal);
  expect_error (desc, "clear secondary-address");
  g_free (desc);
  g_free (eal);
  /* an engine has one port */
  eal = dpdk_test_eal_args ("--vdev net_null0 --vdev net_null1");
  desc = g_strdup_printf ("st2022src transport=dpdk address=239.1.2.1 "
      "shared-engine=y dpdk-port=0 dpdk-eal-args=\"%s\" ! fakesink "
      "st2022src transport=dpdk address=239.1.2.2 shared-engine=y "
      "dpdk-port=1 dpdk-eal-args=\"%s\" ! fakesink", eal, eal);
  expect_error (desc, "an engine has one port");
  g_free (desc);
  g_free (eal);
  remove_eal_files ();
}

GST_END_TEST;

/* dpdk-rx-mbufs sets the pool: the default of a shared engine takes the
 * 8-stream replay (test above), 8191 mbufs do not */
GST_START_TEST (test_rx_mbufs_too_few)
{
  Replay rp;
  guint8 **pics = net_make_pictures (&ref_1080p5994, N_SRC, 3);
  gchar *desc;

  replay_init (&rp);
  write_replay (rp.pcap, pics, FALSE);
  desc = g_strdup_printf ("st2022src transport=dpdk address=239.1.2.1 "
      "shared-engine=x dpdk-rx-mbufs=8191 dpdk-eal-args=\"%s\" ! fakesink",
      rp.eal);
  expect_error (desc, "Its pool has 8191 mbufs; a net_pcap infinite_rx "
      "replay needs one per frame of its file: raise st2022src's "
      "dpdk-rx-mbufs");
  net_free_pictures (pics, N_SRC);
  g_free (desc);
  replay_clear (&rp);
}

GST_END_TEST;

static Suite *
dpdk_shared_suite (void)
{
  Suite *s = suite_create ("dpdk-shared");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_shared_engine_errors);
  tcase_add_test (tc, test_rx_cpu_own_thread);
  tcase_add_test (tc, test_rx_mbufs_too_few);
  tcase_add_test (tc, test_shared_engine_8_streams);
  tcase_add_test (tc, test_shared_engine_8_streams_rxgen);
  return s;
}

GST_CHECK_MAIN (dpdk_shared);
