/* gst-vmi tests: the packet transport driven directly through the
 * transport interface on a veth pair: bursts of datagrams and gap frames
 * leave in exactly the submitted order and sizes, a full TX ring gives a
 * short count and loses nothing, and the receive side keeps exactly our
 * stream out of what arrives, with exact counters. */

#include "packet-common.h"

#include <gst/check/gstcheck.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "vmi-transport.h"
#include "vmi-transport-private.h"

/* vmi-transport.c (the registry) is the plugin's; this is its quark */
G_DEFINE_QUARK (vmi-transport-error-quark, vmi_transport_error);

#define GROUP "239.77.2.1"
#define PORT 6000

static VmiTransport *
open_tx (guint slots, VmiTransportGapKind gap, GError ** err)
{
  VmiTransportConfig cfg = { 0 };

  cfg.direction = VMI_TRANSPORT_DIR_SEND;
  cfg.address = GROUP;
  cfg.port = PORT;
  cfg.ttl_mc = 3;
  cfg.iface = PKT_IF_A;
  cfg.buffer_size = slots * 2048;
  cfg.gap_kind = gap;
  return vmi_transport_packet_class.open (&cfg, err);
}

/* entry @i of the test burst: every third a gap (sizes cycling through
 * the extremes), the others a datagram of three pieces of varying size */
static guint
entry_gap (guint i)
{
  static const guint sizes[] = { 84, 85, 1000, 1538, 1400, 86 };
  return i % 3 == 1 ? sizes[(i / 3) % G_N_ELEMENTS (sizes)] : 0;
}

static gsize
entry_payload_len (guint i)
{
  return 16 + (i * 37) % 1380;
}

static guint8 payload_mem[1500];

static void
fill_entries (VmiTxDatagram * d, struct iovec *iov, guint n)
{
  guint i, k;

  for (k = 0; k < sizeof (payload_mem); k++)
    payload_mem[k] = k * 7 + 3;
  for (i = 0; i < n; i++) {
    gsize len = entry_payload_len (i);
    static guint32 idx[4096];

    memset (&d[i], 0, sizeof (d[i]));
    d[i].gap_wire_bytes = entry_gap (i);
    if (d[i].gap_wire_bytes)
      continue;
    idx[i] = GUINT32_TO_BE (i);
    iov[3 * i].iov_base = &idx[i];
    iov[3 * i].iov_len = 4;
    iov[3 * i + 1].iov_base = payload_mem;
    iov[3 * i + 1].iov_len = len - 4 - 5;
    iov[3 * i + 2].iov_base = payload_mem + 100;
    iov[3 * i + 2].iov_len = 5;
    d[i].iov = &iov[3 * i];
    d[i].n_iov = 3;
  }
}

/* Checks that @frames are exactly entries 0..n-1 in order. */
static void
check_entries (GPtrArray * frames, guint n, guint16 opcode)
{
  static const guint8 gap_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };
  guint8 gmac[6];
  guint i;

  pkt_group_mac (GROUP, gmac);
  fail_unless_equals_int (frames->len, n);
  for (i = 0; i < n; i++) {
    gsize len, k;
    const guint8 *f = g_bytes_get_data (frames->pdata[i], &len);
    guint gap = entry_gap (i);

    if (gap) {
      fail_unless_equals_int (len, gap - 24);
      fail_unless (memcmp (f, gap_dst, 6) == 0);
      fail_unless (memcmp (f + 6, pkt_mac_a, 6) == 0);
      fail_unless (f[12] == 0x88 && f[13] == 0x08, "entry %u", i);
      fail_unless_equals_int (f[14] << 8 | f[15], opcode);
      for (k = 16; k < len; k++)
        fail_unless (f[k] == 0, "entry %u: gap byte %u", i, (guint) k);
    } else {
      gsize plen = entry_payload_len (i);
      guint8 exp[1600];

      fail_unless_equals_int (len, 42 + plen);
      memcpy (exp + 42, (guint8[]) { i >> 24, i >> 16, i >> 8, i }, 4);
      memcpy (exp + 46, payload_mem, plen - 9);
      memcpy (exp + 42 + plen - 5, payload_mem + 100, 5);
      pkt_build_udp (exp, gmac, pkt_mac_a, PKT_IP_A, GROUP, PORT, PORT, 3,
          exp + 42, plen);
      fail_unless (memcmp (f, exp, 42 + plen) == 0, "entry %u differs", i);
    }
  }
}

static void
sum_gaps (guint n, guint64 * frames, guint64 * bytes)
{
  guint i;

  *frames = *bytes = 0;
  for (i = 0; i < n; i++)
    if (entry_gap (i)) {
      (*frames)++;
      *bytes += entry_gap (i);
    }
}

GST_START_TEST (test_tx_order_and_sizes)
{
  const guint n = 1000;
  VmiTxDatagram *d = g_new (VmiTxDatagram, n);
  struct iovec *iov = g_new (struct iovec, 3 * n);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  VmiTransportStats st;
  GError *err = NULL;
  VmiTransport *t;
  guint done = 0;
  guint64 gf, gb;
  int cap = pkt_capture_open ();

  t = open_tx (64, VMI_TRANSPORT_GAP_MAC_CONTROL, &err);
  fail_unless (t != NULL, "%s", err ? err->message : "");
  fail_unless (vmi_transport_has_caps (t, VMI_TRANSPORT_CAP_RAW_ETHERNET |
          VMI_TRANSPORT_CAP_GAP_FRAMES));
  fail_if (vmi_transport_has_caps (t, VMI_TRANSPORT_CAP_ZEROCOPY_TX));
  fail_unless (vmi_transport_get_warning (t) == NULL);
  fill_entries (d, iov, n);
  /* one burst of many rings' worth: the caller retries the rest */
  while (done < n) {
    gint rc = vmi_transport_send_burst (t, d + done, n - done, &err);
    fail_unless (rc >= 0, "%s", err ? err->message : "");
    done += rc;
  }
  pkt_capture_read (cap, frames, n, 20);
  check_entries (frames, n, 0x0000);
  vmi_transport_get_stats (t, &st);
  sum_gaps (n, &gf, &gb);
  fail_unless_equals_uint64 (st.tx_gap_frames, gf);
  fail_unless_equals_uint64 (st.tx_gap_bytes, gb);
  fail_unless_equals_uint64 (st.rx_dropped, 0);

  vmi_transport_close (t);
  g_ptr_array_unref (frames);
  g_free (d);
  g_free (iov);
  close (cap);
}

GST_END_TEST;

/* Waits until the operational state of @ifname (which the kernel's
 * link watch updates a little after the carrier) says @up. */
static void
wait_carrier (const gchar * ifname, gboolean up)
{
  struct ifreq ifr = { 0 };
  int fd = socket (AF_INET, SOCK_DGRAM, 0);
  guint i;

  g_strlcpy (ifr.ifr_name, ifname, sizeof (ifr.ifr_name));
  for (i = 0; i < 1000; i++) {
    fail_unless (ioctl (fd, SIOCGIFFLAGS, &ifr) == 0);
    if (!!(ifr.ifr_flags & IFF_RUNNING) == !!up)
      break;
    g_usleep (10000);
  }
  close (fd);
  fail_unless (i < 1000, "%s: carrier still %s", ifname, up ? "off" : "on");
}

/* With the peer down the driver takes nothing: the ring fills, send_burst
 * returns a short count (then 0) instead of blocking, and once the link is
 * back every frame leaves, in order, none lost. */
GST_START_TEST (test_tx_full_ring)
{
  const guint n = 100;
  VmiTxDatagram *d = g_new (VmiTxDatagram, n);
  struct iovec *iov = g_new (struct iovec, 3 * n);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  GError *err = NULL;
  VmiTransport *t;
  guint done;
  int cap;

  t = open_tx (64, VMI_TRANSPORT_GAP_PAUSE, &err);
  fail_unless (t != NULL, "%s", err ? err->message : "");
  fill_entries (d, iov, n);
  pkt_run ("ip -n @PEER@ link set " PKT_IF_B " down");
  wait_carrier (PKT_IF_A, FALSE);

  fail_unless_equals_int (vmi_transport_send_burst (t, d, n, &err), 64);
  fail_unless_equals_int (vmi_transport_send_burst (t, d + 64, n - 64, &err),
      0);
  fail_unless_equals_int (vmi_transport_send_burst (t, d + 64, n - 64, &err),
      0);

  /* the frames stay in the ring until the next send_burst() kicks them */
  pkt_run ("ip -n @PEER@ link set " PKT_IF_B " up");
  wait_carrier (PKT_IF_A, TRUE);
  cap = pkt_capture_open ();
  for (done = 64; done < n;) {
    gint rc = vmi_transport_send_burst (t, d + done, n - done, &err);
    fail_unless (rc >= 0, "%s", err ? err->message : "");
    done += rc;
  }
  pkt_capture_read (cap, frames, n, 20);
  check_entries (frames, n, 0x0001);

  vmi_transport_close (t);
  g_ptr_array_unref (frames);
  g_free (d);
  g_free (iov);
  close (cap);
}

GST_END_TEST;

GST_START_TEST (test_tx_bad_entries)
{
  GError *err = NULL;
  VmiTransport *t = open_tx (64, VMI_TRANSPORT_GAP_MAC_CONTROL, &err);
  VmiTxDatagram d = { 0 };
  static guint8 big[1500];
  struct iovec iov = { big, 1473 };
  VmiTransportStats st;

  fail_unless (t != NULL);
  d.gap_wire_bytes = 83;
  fail_unless_equals_int (vmi_transport_send_burst (t, &d, 1, &err), -1);
  fail_unless (g_error_matches (err, VMI_TRANSPORT_ERROR,
          VMI_TRANSPORT_ERROR_IO));
  fail_unless (strstr (err->message, "84..1538") != NULL, "%s", err->message);
  g_clear_error (&err);
  d.gap_wire_bytes = 1539;
  fail_unless_equals_int (vmi_transport_send_burst (t, &d, 1, &err), -1);
  g_clear_error (&err);
  /* 1473 + 28 > MTU 1500: no fragmentation */
  d.gap_wire_bytes = 0;
  d.iov = &iov;
  d.n_iov = 1;
  fail_unless_equals_int (vmi_transport_send_burst (t, &d, 1, &err), -1);
  fail_unless (strstr (err->message, "does not fragment") != NULL);
  g_clear_error (&err);
  iov.iov_len = 1472;
  fail_unless_equals_int (vmi_transport_send_burst (t, &d, 1, &err), 1);
  vmi_transport_get_stats (t, &st);
  fail_unless_equals_uint64 (st.tx_gap_frames, 0);
  vmi_transport_close (t);
}

GST_END_TEST;

static VmiTransport *
open_rx (const gchar * addr, const gchar * source, GError ** err)
{
  VmiTransportConfig cfg = { 0 };

  cfg.direction = VMI_TRANSPORT_DIR_RECEIVE;
  cfg.address = addr;
  cfg.port = PORT;
  cfg.source_address = source;
  cfg.iface = PKT_IF_A;
  return vmi_transport_packet_class.open (&cfg, err);
}

static void
peer_send (int fd, const guint8 * frame, gsize len)
{
  fail_unless (send (fd, frame, len, 0) == (ssize_t) len, "send: %s",
      g_strerror (errno));
}

/* Of what the peer sends, exactly our (source-specific) stream comes out,
 * in order; everything else is counted in rx_filtered. */
GST_START_TEST (test_rx_filter)
{
  const guint n = 40;
  GError *err = NULL;
  int tx = pkt_capture_open ();
  VmiTransport *t = open_rx (GROUP, PKT_IP_B, &err);
  guint8 gmac[6], omac[6], frame[2048], payload[1400];
  VmiRxSlot slots[8];
  VmiTransportStats st;
  guint i, got = 0, noise = 0;
  gsize len;
  GPtrArray *igmp = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);

  fail_unless (t != NULL, "%s", err ? err->message : "");
  /* the join reaches the wire: an IGMPv3 report (RFC 3376) to 224.0.0.22
   * allowing source PKT_IP_B of the group, so a snooping switch forwards
   * the stream */
  pkt_capture_read (tx, igmp, 1, 10);
  {
    const guint8 rep_hdr[] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x16 };
    const guint8 *f = g_bytes_get_data (igmp->pdata[0], &len);
    const guint8 *ig = f + 14 + (f[14] & 0xf) * 4;

    fail_unless (len >= 14 + 24 + 20);
    fail_unless (memcmp (f, rep_hdr, 6) == 0 && memcmp (f + 6, pkt_mac_a,
            6) == 0);
    fail_unless (f[23] == 2 && memcmp (f + 30, (guint8[]) {
            224, 0, 0, 22}, 4) == 0);
    fail_unless_equals_int (ig[0], 0x22);
    fail_unless_equals_int (ig[7], 1);  /* one record */
    fail_unless_equals_int (ig[8], 5);  /* ALLOW_NEW_SOURCES */
    fail_unless_equals_int (ig[11], 1);
    fail_unless (memcmp (ig + 12, (guint8[]) {
            239, 77, 2, 1, 10, 77, 0, 2}, 8) == 0);
  }
  g_ptr_array_unref (igmp);
  pkt_group_mac (GROUP, gmac);
  pkt_group_mac ("239.77.2.2", omac);
  for (i = 0; i < n; i++) {
    memset (payload, i, sizeof (payload));
    len = pkt_build_udp (frame, gmac, pkt_mac_b, PKT_IP_B, GROUP, 1234, PORT,
        4, payload, 100 + i);
    peer_send (tx, frame, len);
    switch (i % 8) {
      case 1:                  /* another port */
        len = pkt_build_udp (frame, gmac, pkt_mac_b, PKT_IP_B, GROUP, 1234,
            PORT + 1, 4, payload, 100);
        break;
      case 2:                  /* another group */
        len = pkt_build_udp (frame, omac, pkt_mac_b, PKT_IP_B, "239.77.2.2",
            1234, PORT, 4, payload, 100);
        break;
      case 3:                  /* not the SSM source */
        len = pkt_build_udp (frame, gmac, pkt_mac_b, "10.77.0.7", GROUP, 1234,
            PORT, 4, payload, 100);
        break;
      case 4:                  /* bad IPv4 header checksum */
        len = pkt_build_udp (frame, gmac, pkt_mac_b, PKT_IP_B, GROUP, 1234,
            PORT, 4, payload, 100);
        frame[24] ^= 0x40;
        break;
      case 5:                  /* truncated: UDP length beyond the datagram */
        len = pkt_build_udp (frame, gmac, pkt_mac_b, PKT_IP_B, GROUP, 1234,
            PORT, 4, payload, 100);
        frame[38] = 0x7f;
        break;
      default:
        continue;
    }
    peer_send (tx, frame, len);
    noise++;
  }
  while (got < n) {
    gint rc = vmi_transport_recv_burst (t, slots, G_N_ELEMENTS (slots),
        5 * G_USEC_PER_SEC, &err);
    gint k;

    fail_unless (rc > 0, "received %u of %u (%s)", got, n,
        err ? err->message : "timeout");
    for (k = 0; k < rc; k++, got++) {
      fail_unless_equals_int (slots[k].len, 100 + got);
      fail_unless_equals_int (slots[k].data[0], got);
      fail_unless_equals_int (slots[k].data[slots[k].len - 1], got);
      fail_unless_equals_int (slots[k].src_ipv4, inet_addr (PKT_IP_B));
    }
  }
  /* nothing else for us */
  fail_unless_equals_int (vmi_transport_recv_burst (t, slots, 8, 100000,
          &err), 0);
  vmi_transport_get_stats (t, &st);
  fail_unless_equals_uint64 (st.rx_filtered, noise);
  fail_unless_equals_uint64 (st.rx_dropped, 0);
  fail_unless_equals_uint64 (st.tx_gap_frames, 0);

  /* asking for nothing returns at once */
  fail_unless_equals_int (vmi_transport_recv_burst (t, slots, 0, -1, &err),
      0);
  /* a pending wakeup ends the next wait at once */
  vmi_transport_wakeup (t);
  fail_unless_equals_int (vmi_transport_recv_burst (t, slots, 8, -1, &err),
      0);
  vmi_transport_close (t);
  close (tx);
}

GST_END_TEST;

GST_START_TEST (test_open_errors)
{
  GError *err = NULL;
  VmiTransport *t, *t2;
  pid_t pid;
  int status;

  /* a unicast port is ours alone */
  t = open_rx (PKT_IP_A, NULL, &err);
  fail_unless (t != NULL, "%s", err ? err->message : "");
  t2 = open_rx (PKT_IP_A, NULL, &err);
  fail_unless (t2 == NULL);
  fail_unless (g_error_matches (err, VMI_TRANSPORT_ERROR,
          VMI_TRANSPORT_ERROR_BUSY), "%s", err->message);
  g_clear_error (&err);
  vmi_transport_close (t);
  /* IPv6 */
  t = open_rx ("ff3e::1234", NULL, &err);
  fail_unless (t == NULL);
  fail_unless (strstr (err->message, "IPv4 only") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  /* without CAP_NET_RAW: the error says what to do */
  pid = fork ();
  if (pid == 0) {
    int code = 1;

    if (setresgid (65534, 65534, 65534) == 0
        && setresuid (65534, 65534, 65534) == 0) {
      t = open_tx (64, VMI_TRANSPORT_GAP_MAC_CONTROL, &err);
      code = t == NULL && g_error_matches (err, VMI_TRANSPORT_ERROR,
          VMI_TRANSPORT_ERROR_PERMISSION)
          && strstr (err->message, "setcap cap_net_raw+ep") != NULL ? 0 : 2;
    }
    _exit (code);
  }
  fail_unless (waitpid (pid, &status, 0) == pid);
  fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 0,
      "unprivileged open: status %d", status);
}

GST_END_TEST;

static Suite *
packet_transport_suite (void)
{
  Suite *s = suite_create ("packet-transport");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_tx_order_and_sizes);
  tcase_add_test (tc, test_tx_full_ring);
  tcase_add_test (tc, test_tx_bad_entries);
  tcase_add_test (tc, test_rx_filter);
  tcase_add_test (tc, test_open_errors);
  return s;
}

int
main (int argc, char **argv)
{
  return pkt_test_main (argc, argv, packet_transport_suite, "packet-transport",
      __FILE__);
}
