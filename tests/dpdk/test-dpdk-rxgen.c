/* gst-vmi tests: the benchmarks' receive source (bench/dpdk/rx-gen.c), a
 * generator thread (loaded into this process) that replays one frame
 * on a net_ring port as a continuous stream (sequence numbers and FRCount
 * going on across the replays). st2022src must rebuild every frame
 * bit-exact from it with nothing lost: what the receive benchmark measures
 * is then real reassembly of a valid stream. */

#include "dpdk-common.h"

#include <string.h>

#define DST 0x0a000002          /* 10.0.0.2: unicast, so st2022src sends
                                 * nothing on net_ring's one-producer ring */
#define FRAMES 12

/* One run: the picture seeded @seed encoded as one frame, replayed by the
 * generator (paced at @pace frames a second, NULL for as fast as it goes;
 * its counts to @stats_path, may be NULL) into st2022src, which must give
 * FRAMES whole frames, each equal to the picture, with no datagram
 * missing and no relock */
typedef struct
{
  gchar *dir, *pcap, *eal;
  NetReceiver r;
  GstStructure *stats;
} RxgenRun;

static void
rxgen_run (RxgenRun * run, guint seed, const gchar * pace,
    const gchar * stats_name)
{
  const RefFormat *f = &ref_1080p25;
  guint8 **pics = net_make_pictures (f, 1, seed);
  GPtrArray *frames = dpdk_encode_stream (f, pics, 1, DST, 5004);
  gchar *desc;

  run->dir = dpdk_test_mkdtemp ();
  run->pcap = g_build_filename (run->dir, "frame.pcap", NULL);
  run->eal = dpdk_test_eal_args ("--vdev net_ring0");
  dpdk_pcap_write (run->pcap, frames);
  if (stats_name) {
    gchar *stats_path = g_build_filename (run->dir, stats_name, NULL);

    g_setenv ("VMI_RXGEN_STATS", stats_path, TRUE);
    g_free (stats_path);
  }
  dpdk_test_rxgen_load (run->pcap, pace);

  desc = g_strdup_printf ("st2022src name=src transport=dpdk "
      "address=10.0.0.2 port=5004 num-buffers=%u stats-interval=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false", FRAMES,
      run->eal);
  net_receiver_start (&run->r, desc);
  run->stats = net_receiver_finish (&run->r, 60);

  /* FRAMES replays of the one frame, each whole and equal to the picture */
  net_check_frames (&run->r, f, pics, 1, FRAMES);
  /* a continuous stream: no datagram missing, no frame restarted */
  fail_unless_equals_uint64 (net_stat (run->stats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (run->stats, "frames-skipped"), 0);
  fail_unless_equals_uint64 (net_stat (run->stats, "stream-locks"), 1);

  g_ptr_array_unref (frames);
  net_free_pictures (pics, 1);
  g_free (desc);
}

static void
rxgen_run_clear (RxgenRun * run)
{
  net_receiver_clear (&run->r);
  gst_structure_free (run->stats);
  g_free (run->eal);
  g_free (run->pcap);
  dpdk_test_rmdir (run->dir);
}

GST_START_TEST (test_rxgen_frames_bit_exact)
{
  RxgenRun run;

  rxgen_run (&run, 11, NULL, NULL);
  fail_unless_equals_uint64 (net_stat (run.stats, "frames-aborted"), 0);
  fail_unless (net_stat (run.stats, "frames") >= FRAMES);
  fail_unless_equals_uint64 (net_stat (run.stats, "packets-invalid"), 0);
  rxgen_run_clear (&run);
}

GST_END_TEST;

/* Paced (VMI_RXGEN_PACE) at a rate a loaded machine holds: the frames
 * come no faster than the pace (their time stamps, taken on arrival, at
 * least a frame period apart over the run), whole and bit-exact, and the
 * generator counts no datagram its queue could not take */
GST_START_TEST (test_rxgen_paced)
{
  RxgenRun run;
  GstClockTime t_first, t_last;
  gchar *stats_path, *text = NULL, *lost;

  rxgen_run (&run, 13, "10", "gen.stats");
  /* 10 frames a second: FRAMES - 1 periods between the first and the
   * last, less one for a first frame partly sent ahead (the ring's 1024
   * datagrams before the clock starts) */
  t_first = GST_BUFFER_PTS (gst_sample_get_buffer (run.r.samples->pdata[0]));
  t_last = GST_BUFFER_PTS (gst_sample_get_buffer (run.r.samples->pdata[FRAMES
              - 1]));
  fail_unless (GST_CLOCK_TIME_IS_VALID (t_first)
      && GST_CLOCK_TIME_IS_VALID (t_last));
  fail_unless (t_last - t_first >= (FRAMES - 2) * GST_SECOND / 10,
      "%u frames in %" GST_TIME_FORMAT ": faster than paced", FRAMES,
      GST_TIME_ARGS (t_last - t_first));
  /* the generator wrote its counts when the port stopped */
  stats_path = g_build_filename (run.dir, "gen.stats", NULL);
  fail_unless (g_file_get_contents (stats_path, &text, NULL, NULL));
  lost = strstr (text, " lost=");
  fail_unless (lost != NULL, "%s", text);
  fail_unless_equals_uint64 (g_ascii_strtoull (lost + 6, NULL, 10), 0);

  g_free (text);
  g_free (stats_path);
  rxgen_run_clear (&run);
}

GST_END_TEST;

static Suite *
dpdk_rxgen_suite (void)
{
  Suite *s = suite_create ("dpdk-rxgen");
  TCase *tc = tcase_create ("rxgen");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_rxgen_frames_bit_exact);
  tcase_add_test (tc, test_rxgen_paced);
  return s;
}

GST_CHECK_MAIN (dpdk_rxgen);
