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

GST_START_TEST (test_rxgen_frames_bit_exact)
{
  const RefFormat *f = &ref_1080p25;
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pcap = g_build_filename (dir, "frame.pcap", NULL);
  gchar *eal = dpdk_test_eal_args ("--vdev net_ring0");
  guint8 **pics = net_make_pictures (f, 1, 11);
  GPtrArray *frames = dpdk_encode_stream (f, pics, 1, DST, 5004);
  gsize ustride = f->width * 5 / 2;
  NetReceiver r;
  GstStructure *stats;
  gchar *desc;
  guint k, i;

  dpdk_pcap_write (pcap, frames);
  dpdk_test_rxgen_load (pcap, NULL);

  desc = g_strdup_printf ("st2022src name=src transport=dpdk "
      "address=10.0.0.2 port=5004 num-buffers=%u stats-interval=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false", FRAMES, eal);
  net_receiver_start (&r, desc);
  stats = net_receiver_finish (&r, 60);

  /* twelve replays of the one frame, each whole and equal to the picture */
  fail_unless_equals_int (r.samples->len, FRAMES);
  for (k = 0; k < FRAMES; k++) {
    GstSample *s = r.samples->pdata[k];
    GstBuffer *b = gst_sample_get_buffer (s);
    guint8 *pic;

    fail_if (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_CORRUPTED),
        "frame %u corrupted", k);
    pic = net_buffer_to_uyvp (b, gst_sample_get_caps (s), f);
    for (i = 0; i < f->height; i++)
      fail_unless (memcmp (pic + i * ustride, pics[0] + i * ustride,
              ustride) == 0, "frame %u: row %u differs", k, i);
    g_free (pic);
  }
  /* a continuous stream: no datagram missing, no frame restarted */
  fail_unless_equals_uint64 (net_stat (stats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "frames-skipped"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "frames-aborted"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "stream-locks"), 1);
  fail_unless (net_stat (stats, "frames") >= FRAMES);
  fail_unless_equals_uint64 (net_stat (stats, "packets-invalid"), 0);

  net_receiver_clear (&r);
  gst_structure_free (stats);
  g_ptr_array_unref (frames);
  net_free_pictures (pics, 1);
  g_free (desc);
  g_free (eal);
  g_free (pcap);
  dpdk_test_rmdir (dir);
}

GST_END_TEST;

/* Paced (VMI_RXGEN_PACE) at a rate a loaded machine holds: the frames
 * come no faster than the pace (their time stamps, taken on arrival, at
 * least a frame period apart over the run), whole and bit-exact, and the
 * generator counts no datagram its queue could not take */
GST_START_TEST (test_rxgen_paced)
{
  const RefFormat *f = &ref_1080p25;
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pcap = g_build_filename (dir, "frame.pcap", NULL);
  gchar *stats_path = g_build_filename (dir, "gen.stats", NULL);
  gchar *eal = dpdk_test_eal_args ("--vdev net_ring0");
  guint8 **pics = net_make_pictures (f, 1, 13);
  GPtrArray *frames = dpdk_encode_stream (f, pics, 1, DST, 5004);
  gsize ustride = f->width * 5 / 2;
  GstClockTime t_first, t_last;
  NetReceiver r;
  GstStructure *stats;
  gchar *desc, *text = NULL, *lost;
  guint k, i;

  dpdk_pcap_write (pcap, frames);
  g_setenv ("VMI_RXGEN_STATS", stats_path, TRUE);
  dpdk_test_rxgen_load (pcap, "10");
  desc = g_strdup_printf ("st2022src name=src transport=dpdk "
      "address=10.0.0.2 port=5004 num-buffers=%u stats-interval=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false", FRAMES, eal);
  net_receiver_start (&r, desc);
  stats = net_receiver_finish (&r, 60);

  fail_unless_equals_int (r.samples->len, FRAMES);
  for (k = 0; k < FRAMES; k++) {
    GstSample *s = r.samples->pdata[k];
    GstBuffer *b = gst_sample_get_buffer (s);
    guint8 *pic;

    fail_if (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_CORRUPTED),
        "frame %u corrupted", k);
    pic = net_buffer_to_uyvp (b, gst_sample_get_caps (s), f);
    for (i = 0; i < f->height; i++)
      fail_unless (memcmp (pic + i * ustride, pics[0] + i * ustride,
              ustride) == 0, "frame %u: row %u differs", k, i);
    g_free (pic);
  }
  /* 10 frames a second: FRAMES - 1 periods between the first and the
   * last, less one for a first frame partly sent ahead (the ring's 1024
   * datagrams before the clock starts) */
  t_first = GST_BUFFER_PTS (gst_sample_get_buffer (r.samples->pdata[0]));
  t_last = GST_BUFFER_PTS (gst_sample_get_buffer (r.samples->pdata[FRAMES -
              1]));
  fail_unless (GST_CLOCK_TIME_IS_VALID (t_first)
      && GST_CLOCK_TIME_IS_VALID (t_last));
  fail_unless (t_last - t_first >= (FRAMES - 2) * GST_SECOND / 10,
      "%u frames in %" GST_TIME_FORMAT ": faster than paced", FRAMES,
      GST_TIME_ARGS (t_last - t_first));
  fail_unless_equals_uint64 (net_stat (stats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "frames-skipped"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "stream-locks"), 1);
  /* the generator wrote its counts when the port stopped */
  fail_unless (g_file_get_contents (stats_path, &text, NULL, NULL));
  lost = strstr (text, " lost=");
  fail_unless (lost != NULL, "%s", text);
  fail_unless_equals_uint64 (g_ascii_strtoull (lost + 6, NULL, 10), 0);

  g_free (text);
  net_receiver_clear (&r);
  gst_structure_free (stats);
  g_ptr_array_unref (frames);
  net_free_pictures (pics, 1);
  g_free (desc);
  g_free (eal);
  g_free (stats_path);
  g_free (pcap);
  dpdk_test_rmdir (dir);
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
