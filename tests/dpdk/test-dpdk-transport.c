/* gst-vmi tests: the dpdk transport through the transport interface
 * (vmi-transport.h), on virtual devices: zero-copy TX (the peer reads the
 * frame's memory; frame references held exactly while mbufs point into
 * it), gap entries sent in order with their exact sizes, short counts on a
 * full queue, and the interface's error paths. One EAL per test process
 * (Check forks each test case). */

#include "dpdk-common.h"
#include "transport/vmi-transport.h"

#include <string.h>

#define GROUP_S "239.1.2.4"
#define N_DG 8

typedef struct
{
  VmiTxFrame frame;
  gint released;
} TestFrame;

static void
on_release (VmiTxFrame * f, gpointer user_data)
{
  ((TestFrame *) user_data)->released++;
}

static VmiTransport *
open_dir (VmiTransportDirection dir, const gchar * eal, gint port,
    VmiTransportGapKind gap)
{
  const VmiTransportClass *k = vmi_transport_lookup (VMI_TRANSPORT_KIND_DPDK);
  VmiTransportConfig cfg = { 0 };
  GError *err = NULL;
  VmiTransport *t;

  fail_unless (k != NULL, "no dpdk transport in this build");
  fail_unless (vmi_transport_class_has_caps (k,
          VMI_TRANSPORT_CAP_RAW_ETHERNET | VMI_TRANSPORT_CAP_GAP_FRAMES |
          VMI_TRANSPORT_CAP_ZEROCOPY_TX | VMI_TRANSPORT_CAP_BUSY_POLL));
  cfg.direction = dir;
  cfg.address = GROUP_S;
  cfg.port = 5020;
  cfg.ttl_mc = 4;
  cfg.dpdk_eal_args = eal;
  cfg.dpdk_port = port;
  cfg.gap_kind = gap;
  t = k->open (&cfg, &err);
  fail_unless (t != NULL, "open: %s", err ? err->message : "?");
  return t;
}

/* N_DG datagrams: a 24-byte header on the stack, the payload in the frame */
static void
fill_burst (VmiTxDatagram * d, struct iovec *iov, guint8 (*hdr)[24],
    TestFrame * tf, guint8 * raster)
{
  guint i;

  for (i = 0; i < N_DG; i++) {
    memset (hdr[i], 0x80 + i, 24);
    iov[2 * i].iov_base = hdr[i];
    iov[2 * i].iov_len = 24;
    iov[2 * i + 1].iov_base = raster + i * 1376;
    iov[2 * i + 1].iov_len = 1376;
    d[i].iov = &iov[2 * i];
    d[i].n_iov = 2;
    d[i].gap_wire_bytes = 0;
    d[i].frame = &tf->frame;
  }
}

/* net_ring loops TX back to RX: what the receiver reads is what the
 * attached mbufs point at when the peer reads them, so a change to the
 * frame after send_burst() shows up there; a copy would not. */
GST_START_TEST (test_zerocopy_ring)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_ring0");
  VmiTransport *tx = open_dir (VMI_TRANSPORT_DIR_SEND, eal, 0, 0);
  VmiTransport *rx = open_dir (VMI_TRANSPORT_DIR_RECEIVE, eal, 0, 0);
  guint8 *raster = g_malloc (N_DG * 1376), hdr[N_DG][24];
  guint8 tail[1376];
  struct iovec iov[2 * N_DG];
  VmiTxDatagram d[N_DG];
  VmiRxSlot slots[64];
  TestFrame tf = { {0} };
  GError *err = NULL;
  guint i, got = 0;
  gint n;

  memset (raster, 0x11, N_DG * 1376);
  memset (tail, 0x22, sizeof (tail));
  vmi_tx_frame_init (&tf.frame, raster, N_DG * 1376, on_release, &tf);
  fill_burst (d, iov, hdr, &tf, raster);
  /* the last payload lies outside the frame (like the zero-padded tail):
   * it must be copied at send time */
  iov[2 * (N_DG - 1) + 1].iov_base = tail;

  fail_unless_equals_int (vmi_transport_send_burst (tx, d, N_DG, &err), N_DG);
  /* one reference per datagram attached to frame memory, none for the
   * copied one */
  fail_unless_equals_int (g_atomic_int_get (&tf.frame.refs), N_DG);
  memset (raster + 3 * 1376, 0xab, 1376);
  memset (tail, 0xcd, sizeof (tail));
  vmi_tx_frame_unref (&tf.frame);       /* the element's own reference */
  fail_unless_equals_int (tf.released, 0);

  while (got < N_DG) {
    n = vmi_transport_recv_burst (rx, slots + got, 64 - got, 1000000, &err);
    fail_unless (n > 0, "received %u of %u", got, N_DG);
    got += n;
  }
  fail_unless_equals_int (got, N_DG);
  for (i = 0; i < N_DG; i++) {
    guint8 want = i == 3 ? 0xab : i == N_DG - 1 ? 0x22 : 0x11;
    fail_unless_equals_int (slots[i].len, 1400);
    fail_unless_equals_int (slots[i].data[0], 0x80 + i);
    fail_unless_equals_int (slots[i].data[24], want);
    fail_unless_equals_int (slots[i].data[1399], want);
  }
  /* the receiver still holds the mbufs (slots point into them) */
  fail_unless_equals_int (tf.released, 0);
  fail_unless_equals_int (vmi_transport_recv_burst (rx, slots, 64, 0, &err),
      0);
  /* ... and gave them back on the next call: the frame is free */
  fail_unless_equals_int (tf.released, 1);
  fail_unless_equals_int (g_atomic_int_get (&tf.frame.refs), 0);

  vmi_transport_close (rx);
  vmi_transport_close (tx);
  g_free (raster);
  g_free (eal);
}

GST_END_TEST;

/* Multicast without bind-address leaves from 0.0.0.0, which SSM receivers
 * drop: the transport's open warning says so and names the property. */
GST_START_TEST (test_multicast_without_bind_address_warns)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_ring0");
  VmiTransport *tx = open_dir (VMI_TRANSPORT_DIR_SEND, eal, 0, 0);
  const gchar *w = vmi_transport_get_warning (tx);

  fail_unless (w != NULL, "no warning");
  fail_unless (strstr (w, "no bind-address: the frames to " GROUP_S " leave "
          "DPDK port 0 from 0.0.0.0 (receivers that join the group for a "
          "given source, SSM, drop them); set bind-address") != NULL, "%s",
      w);
  vmi_transport_close (tx);
  g_free (eal);
}

GST_END_TEST;

/* A burst larger than the ring: a short count, and exactly the taken
 * datagrams keep their frame references (the rest were freed). */
GST_START_TEST (test_short_count)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_ring0");
  VmiTransport *tx = open_dir (VMI_TRANSPORT_DIR_SEND, eal, 0, 0);
  VmiTransport *rx;
  guint8 *raster = g_malloc0 (N_DG * 1376), hdr[N_DG][24];
  struct iovec iov[2 * N_DG];
  VmiTxDatagram d[N_DG];
  VmiRxSlot slots[64];
  TestFrame tf = { {0} };
  GError *err = NULL;
  guint sent = 0, got = 0;
  gint n;

  vmi_tx_frame_init (&tf.frame, raster, N_DG * 1376, on_release, &tf);
  fill_burst (d, iov, hdr, &tf, raster);
  for (;;) {
    n = vmi_transport_send_burst (tx, d, N_DG, &err);
    fail_unless (n >= 0);
    sent += n;
    if (n < N_DG)
      break;
  }
  fail_unless (sent > 0);
  fail_unless_equals_int (g_atomic_int_get (&tf.frame.refs), 1 + sent);

  rx = open_dir (VMI_TRANSPORT_DIR_RECEIVE, eal, 0, 0);
  while ((n = vmi_transport_recv_burst (rx, slots, 64, 0, &err)) > 0)
    got += n;
  fail_unless_equals_int (got, sent);
  fail_unless_equals_int (g_atomic_int_get (&tf.frame.refs), 1);
  vmi_tx_frame_unref (&tf.frame);
  fail_unless_equals_int (tf.released, 1);

  vmi_transport_close (rx);
  vmi_transport_close (tx);
  g_free (raster);
  g_free (eal);
}

GST_END_TEST;

static guint16
rd16 (const guint8 * p)
{
  return p[0] << 8 | p[1];
}

/* Datagrams and gap entries interleaved leave in the submitted order, each
 * gap frame wire_bytes - 24 bytes long (the NIC adds the FCS). */
static void
check_gaps (VmiTransportGapKind kind, guint16 opcode)
{
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pcap = g_build_filename (dir, "tx.pcap", NULL);
  gchar *vdev = g_strdup_printf ("--vdev net_pcap0,tx_pcap=%s", pcap);
  gchar *eal = dpdk_test_eal_args (vdev);
  VmiTransport *tx = open_dir (VMI_TRANSPORT_DIR_SEND, eal, 0, kind);
  guint8 *raster = g_malloc0 (N_DG * 1376), hdr[N_DG][24];
  struct iovec iov[2 * N_DG];
  VmiTxDatagram d[N_DG], burst[7];
  static const guint gaps[] = { 84, 1538, 500, 85 };
  TestFrame tf = { {0} };
  VmiTransportStats st;
  GPtrArray *frames;
  GError *err = NULL;
  guint i, di = 0, gi = 0;

  vmi_tx_frame_init (&tf.frame, raster, N_DG * 1376, on_release, &tf);
  fill_burst (d, iov, hdr, &tf, raster);
  /* G D G D G D G */
  for (i = 0; i < 7; i++) {
    if (i % 2 == 0) {
      memset (&burst[i], 0, sizeof (burst[i]));
      burst[i].gap_wire_bytes = gaps[i / 2];
    } else {
      burst[i] = d[i / 2];
    }
  }
  fail_unless_equals_int (vmi_transport_send_burst (tx, burst, 7, &err), 7);
  vmi_transport_get_stats (tx, &st);
  fail_unless_equals_uint64 (st.tx_gap_frames, 4);
  fail_unless_equals_uint64 (st.tx_gap_bytes, 84 + 1538 + 500 + 85);

  /* a gap no frame can fill: an error, nothing sent */
  burst[0].gap_wire_bytes = 83;
  fail_unless_equals_int (vmi_transport_send_burst (tx, burst, 1, &err), -1);
  fail_unless (err && strstr (err->message, "84...1538"));
  g_clear_error (&err);
  vmi_transport_close (tx);

  frames = dpdk_pcap_read (pcap);
  fail_unless_equals_int (frames->len, 7);
  for (i = 0; i < 7; i++) {
    gsize len;
    const guint8 *f = g_bytes_get_data (frames->pdata[i], &len);
    static const guint8 gap_mac[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x01 };

    if (i % 2 == 0) {
      gsize j;
      fail_unless_equals_int (len, gaps[gi++] - 24);
      fail_unless (memcmp (f, gap_mac, 6) == 0);
      fail_unless_equals_int (rd16 (f + 12), 0x8808);
      fail_unless_equals_int (rd16 (f + 14), opcode);
      for (j = 16; j < len; j++)
        fail_unless_equals_int (f[j], 0);
    } else {
      gsize plen;
      gchar *e = NULL;
      const guint8 *p = ref_parse_udp_frame (f, len, NULL, &plen, &e);
      fail_unless (p != NULL, "%s", e);
      fail_unless_equals_int (plen, 1400);
      fail_unless_equals_int (p[0], 0x80 + di++);
    }
  }
  g_ptr_array_unref (frames);
  vmi_tx_frame_unref (&tf.frame);
  fail_unless_equals_int (tf.released, 1);
  g_free (raster);
  g_free (eal);
  g_free (vdev);
  g_free (pcap);
  dpdk_test_rmdir (dir);
}

GST_START_TEST (test_gaps_in_order_mac_control)
{
  check_gaps (VMI_TRANSPORT_GAP_MAC_CONTROL, 0x0000);
}

GST_END_TEST;

GST_START_TEST (test_gaps_in_order_pause)
{
  check_gaps (VMI_TRANSPORT_GAP_PAUSE, 0x0001);
}

GST_END_TEST;

/* wakeup() from another thread ends a recv_burst() waiting forever. The
 * 50 ms dwell (not a synchronisation) makes it likely that the receiver is
 * already asleep when the wake-up comes; one that comes first is kept by
 * the transport and ends the wait as well, so the test holds either way. */
static gpointer
wake_later (gpointer t)
{
  g_usleep (50000);
  vmi_transport_wakeup (t);
  return NULL;
}

GST_START_TEST (test_wakeup)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  VmiTransport *rx = open_dir (VMI_TRANSPORT_DIR_RECEIVE, eal, 0, 0);
  VmiRxSlot slots[8];
  GError *err = NULL;
  GThread *th = g_thread_new ("wake", wake_later, rx);
  VmiTransportStats st;

  fail_unless_equals_int (vmi_transport_recv_burst (rx, slots, 8, -1, &err),
      0);
  g_thread_join (th);
  /* one wakeup, one return: the next call times out by itself */
  fail_unless_equals_int (vmi_transport_recv_burst (rx, slots, 8, 1000,
          &err), 0);
  vmi_transport_get_stats (rx, &st);
  fail_unless_equals_uint64 (st.rx_dropped, 0);
  vmi_transport_close (rx);
  g_free (eal);
}

GST_END_TEST;

static Suite *
dpdk_transport_suite (void)
{
  Suite *s = suite_create ("dpdk-transport");
  TCase *tc = tcase_create ("transport");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_zerocopy_ring);
  tcase_add_test (tc, test_short_count);
  tcase_add_test (tc, test_multicast_without_bind_address_warns);
  tcase_add_test (tc, test_gaps_in_order_mac_control);
  tcase_add_test (tc, test_gaps_in_order_pause);
  tcase_add_test (tc, test_wakeup);
  return s;
}

GST_CHECK_MAIN (dpdk_transport);
