/* gst-vmi tests: ST 2022-7 on DPDK, two net_pcap ports in one EAL.
 *
 * st2022sink with transport=dpdk and a secondary port captures two streams
 * that must be identical datagram for datagram (only the addresses differ);
 * st2022src with two ports replaying captures with disjoint losses rebuilds
 * every frame bit-exact with exact counters. */

#include "dpdk-common.h"

#include <string.h>

#define GROUP1 0xef010203       /* 239.1.2.3 */
#define GROUP1_S "239.1.2.3"
#define GROUP2 0xef020203       /* 239.2.2.3 */
#define GROUP2_S "239.2.2.3"

static guint32
be32 (const guint8 * p)
{
  return (guint32) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

GST_START_TEST (test_tx_two_ports_identical)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 3;
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pa = g_build_filename (dir, "a.pcap", NULL);
  gchar *pb = g_build_filename (dir, "b.pcap", NULL);
  gchar *vdev = g_strdup_printf ("--vdev net_pcap0,tx_pcap=%s "
      "--vdev net_pcap1,tx_pcap=%s", pa, pb);
  gchar *eal = dpdk_test_eal_args (vdev);
  gchar *desc = g_strdup_printf ("st2022sink name=sink transport=dpdk "
      "stats-interval=0 host=" GROUP1_S " port=5006 secondary-host=" GROUP2_S
      " secondary-port=5008 dpdk-eal-args=\"%s\"", eal);
  guint8 **pics = net_make_pictures (f, N, 5);
  GstStructure *stats = net_send_pictures (f, pics, N, desc);
  GPtrArray *a, *b;
  guint i, n = N * ref_datagrams (f);
  guint16 seq0 = 0;

  fail_unless_equals_uint64 (net_stat (stats, "packets-primary"), n);
  fail_unless_equals_uint64 (net_stat (stats, "packets-secondary"), n);
  fail_unless_equals_uint64 (net_stat (stats, "packets-failed-primary"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "packets-failed-secondary"), 0);
  /* the captures are complete once the ports are closed: at NULL */
  a = dpdk_pcap_read (pa);
  b = dpdk_pcap_read (pb);
  fail_unless_equals_int (a->len, n);
  fail_unless_equals_int (b->len, n);
  for (i = 0; i < n; i++) {
    gsize la, lb;
    const guint8 *x = g_bytes_get_data (a->pdata[i], &la);
    const guint8 *y = g_bytes_get_data (b->pdata[i], &lb);

    fail_unless_equals_int (la, REF_NET_HEADER + REF_DATAGRAM);
    fail_unless_equals_int (lb, la);
    /* each to its own group and port */
    fail_unless_equals_int (be32 (x + 30), GROUP1);
    fail_unless_equals_int (be32 (y + 30), GROUP2);
    fail_unless_equals_int (GST_READ_UINT16_BE (x + 36), 5006);
    fail_unless_equals_int (GST_READ_UINT16_BE (y + 36), 5008);
    /* and the same datagram: RTP, HBRMT, video timestamp, payload */
    fail_unless (memcmp (x + REF_NET_HEADER, y + REF_NET_HEADER,
            REF_DATAGRAM) == 0, "datagram %u differs between the paths", i);
    if (i == 0)
      seq0 = GST_READ_UINT16_BE (x + REF_NET_HEADER + 2);
    fail_unless_equals_int (GST_READ_UINT16_BE (x + REF_NET_HEADER + 2),
        (guint16) (seq0 + i));
  }

  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
  gst_structure_free (stats);
  net_free_pictures (pics, N);
  g_free (desc);
  g_free (eal);
  g_free (vdev);
  g_free (pa);
  g_free (pb);
  dpdk_test_rmdir (dir);
}

GST_END_TEST;

/* The stream for one path with every datagram whose index @drop says */
static GPtrArray *
path_stream (GPtrArray * all, guint m)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  guint i;

  for (i = 0; i < all->len; i++)
    if (i < 64 || i + 64 >= all->len || i % 20 != m)
      g_ptr_array_add (out, g_bytes_ref (all->pdata[i]));
  return out;
}

GST_START_TEST (test_rx_two_ports_disjoint_loss)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 3;
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pa = g_build_filename (dir, "a.pcap", NULL);
  gchar *pb = g_build_filename (dir, "b.pcap", NULL);
  gchar *vdev = g_strdup_printf ("--vdev net_pcap0,rx_pcap=%s,tx_pcap=%s/ta"
      ".pcap --vdev net_pcap1,rx_pcap=%s,tx_pcap=%s/tb.pcap", pa, dir, pb,
      dir);
  gchar *eal = dpdk_test_eal_args (vdev);
  guint8 **pics = net_make_pictures (f, N, 9);
  GPtrArray *s1 = dpdk_encode_stream (f, pics, N, GROUP1, 5004);
  GPtrArray *s2 = dpdk_encode_stream (f, pics, N, GROUP2, 5006);
  GPtrArray *a = path_stream (s1, 7), *b = path_stream (s2, 13);
  guint total = s1->len, la = total - a->len, lb = total - b->len;
  GstStructure *st;
  NetReceiver r;
  gchar *desc;

  dpdk_pcap_write (pa, a);
  dpdk_pcap_write (pb, b);
  /* each port replays its file as fast as it is read, from when it
   * starts: the second port starts a little later than the first, and the
   * whole stream takes a few ms, so the window must cover that start */
  desc = g_strdup_printf ("st2022src name=src transport=dpdk address="
      GROUP1_S " port=5004 secondary-address=" GROUP2_S " secondary-port=5006 "
      "seamless-window=300 num-buffers=%u stats-interval=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false", N, eal);
  net_receiver_start (&r, desc);
  st = net_run_until_eos (r.pipeline, NULL, 60);
  gst_element_set_state (r.pipeline, GST_STATE_NULL);
  g_object_get (r.src, "stats", &st, NULL);

  net_check_frames (&r, f, pics, N, N);
  fail_unless_equals_uint64 (net_stat (st, "packets"), total);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (st, "packets-primary"), a->len);
  fail_unless_equals_uint64 (net_stat (st, "packets-secondary"), b->len);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost-primary"), la);
  fail_unless_equals_uint64 (net_stat (st, "packets-lost-secondary"), lb);
  fail_unless_equals_uint64 (net_stat (st, "packets-recovered"), la + lb);
  fail_unless_equals_uint64 (net_stat (st, "packets-late-primary"), 0);
  fail_unless_equals_uint64 (net_stat (st, "packets-late-secondary"), 0);
  fail_unless (la > 200 && lb > 200);

  gst_structure_free (st);
  net_receiver_clear (&r);
  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
  g_ptr_array_unref (s1);
  g_ptr_array_unref (s2);
  net_free_pictures (pics, N);
  g_free (desc);
  g_free (eal);
  g_free (vdev);
  g_free (pa);
  g_free (pb);
  dpdk_test_rmdir (dir);
}

GST_END_TEST;

static Suite *
dpdk_seamless_suite (void)
{
  Suite *s = suite_create ("dpdk-seamless");
  TCase *tc = tcase_create ("two-ports");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_tx_two_ports_identical);
  tcase_add_test (tc, test_rx_two_ports_disjoint_loss);
  return s;
}

GST_CHECK_MAIN (dpdk_seamless);
