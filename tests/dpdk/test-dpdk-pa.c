/* gst-vmi tests: st2022sink transport=dpdk pacing=pa-free-running through
 * DPDK's net_pcap (tx_pcap: every frame the port sends, in order), checked
 * by tests/pa/pa-check.c — issue 13's acceptance on DPDK: media at ⌊i·τ⌋
 * wire bytes, gap frames only, bit-exact pictures with the independent
 * decoder. The sink's source is a finite appsrc and sync=false: the wire is
 * the only clock. Each test case runs in its own process (Check forks), so
 * each starts its own EAL with its own --file-prefix. */

#include "dpdk-common.h"
#include "pa-check.h"

#define GROUP_S "239.1.2.13"
#define N 3

static void
check_pa_pcap (const RefFormat * f, guint64 line_rate)
{
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pcap = g_build_filename (dir, "tx.pcap", NULL);
  gchar *vdev = g_strdup_printf ("--vdev net_pcap0,tx_pcap=%s", pcap);
  gchar *eal = dpdk_test_eal_args (vdev);
  guint16 port = net_test_port ();
  gchar *desc = g_strdup_printf ("st2022sink name=sink transport=dpdk "
      "host=" GROUP_S " port=%u pacing=pa-free-running line-rate=%"
      G_GUINT64_FORMAT " sync=false underrun=gap stats-interval=0 "
      "dpdk-eal-args=\"%s\"", port, line_rate, eal);
  guint8 **pics = net_make_pictures (f, N, 2022);
  GstStructure *stats = net_send_pictures (f, pics, N, desc);
  /* complete once the port is closed: at NULL, which net_send_pictures
   * reached */
  GPtrArray *wire = dpdk_pcap_read (pcap);

  pa_check_wire (f, line_rate, wire, pics, N, port, stats);

  g_ptr_array_unref (wire);
  gst_structure_free (stats);
  net_free_pictures (pics, N);
  g_free (desc);
  g_free (eal);
  g_free (vdev);
  g_free (pcap);
  dpdk_test_rmdir (dir);
}

GST_START_TEST (test_pa_dpdk_1080i5994_2g5)
{
  check_pa_pcap (&ref_1080i5994, G_GUINT64_CONSTANT (2500000000));
}

GST_END_TEST;

GST_START_TEST (test_pa_dpdk_720p50_10g)
{
  check_pa_pcap (&ref_720p50, G_GUINT64_CONSTANT (10000000000));
}

GST_END_TEST;

static Suite *
dpdk_pa_suite (void)
{
  Suite *s = suite_create ("dpdk-pa");
  TCase *tc = tcase_create ("wire");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_pa_dpdk_1080i5994_2g5);
  tcase_add_test (tc, test_pa_dpdk_720p50_10g);
  return s;
}

GST_CHECK_MAIN (dpdk_pa);
