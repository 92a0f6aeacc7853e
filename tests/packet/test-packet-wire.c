/* gst-vmi tests: st2022sink and st2022src with transport=packet on a real
 * veth pair between two network namespaces. What the sink puts on the
 * wire is captured on the peer and checked byte for byte: Ethernet, IPv4
 * (checksum, DF, TTL), UDP, and the ST 2022-6 stream decoded by the tests'
 * independent decoder; the source is fed frames of the independent
 * encoder, written onto the wire by the peer. */

#include "../net/net-common.h"
#include "packet-common.h"

#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "../../gst/st2022-elements/gstst2022meta.h"

#define GROUP "239.77.1.2"

/* The 42 header bytes every datagram of the stream must carry */
static void
expected_header (guint8 hdr[42], const guint8 dst_mac[6], const gchar * dst,
    guint16 port, guint8 ttl)
{
  static const guint8 zero[REF_DATAGRAM];
  guint8 frame[42 + REF_DATAGRAM];

  pkt_build_udp (frame, dst_mac, pkt_mac_a, PKT_IP_A, dst, port, port, ttl,
      zero, REF_DATAGRAM);
  memcpy (hdr, frame, 42);
}

/* Sends @n_frames random pictures of @f through st2022sink with @props on
 * PKT_IF_A; returns the pictures. */
static guint8 **
run_sink (const RefFormat * f, guint n_frames, const gchar * props)
{
  guint8 **pics = net_make_pictures (f, n_frames, g_random_int ());
  gchar *desc = g_strdup_printf ("st2022sink name=sink transport=packet "
      "iface=" PKT_IF_A " pacing=none stats-interval=0 %s", props);
  GstStructure *stats = net_send_pictures (f, pics, n_frames, desc);

  g_free (desc);
  fail_unless_equals_uint64 (net_stat (stats, "frames"), n_frames);
  fail_unless_equals_uint64 (net_stat (stats, "packets"),
      n_frames * ref_datagrams (f));
  gst_structure_free (stats);
  return pics;
}

/* Checks the captured @frames (starting at @start): every one carries the
 * header @hdr, a valid IPv4 checksum, and together they are @n_frames
 * frames of @f holding @pics, decoded by the reference decoder. */
static void
check_stream (GPtrArray * frames, guint start, const guint8 hdr[42],
    const RefFormat * f, guint8 ** pics, guint n_frames)
{
  guint n = ref_datagrams (f), i, k, r;
  gsize fb = ref_frame_bytes (f), ustride = f->width * 5 / 2;
  guint8 *raster = g_malloc (fb), *prev = g_malloc (fb);
  guint8 *pic = g_malloc (ustride * f->height);
  guint16 seq0 = 0;

  fail_unless_equals_int (frames->len - start, n_frames * n);
  for (k = 0; k < n_frames; k++) {
    gchar *err = NULL;
    guint errors;

    for (i = 0; i < n; i++) {
      gsize len;
      const guint8 *fr = g_bytes_get_data (frames->pdata[start + k * n + i],
          &len);
      const guint8 *d = fr + 42;
      guint16 seq = d[2] << 8 | d[3];
      gsize off = (gsize) i * REF_PAYLOAD;

      fail_unless_equals_int (len, 42 + REF_DATAGRAM);
      /* all but the IPv4 checksum is fixed; the checksum must verify */
      fail_unless (memcmp (fr, hdr, 24) == 0 && memcmp (fr + 26, hdr + 26,
              16) == 0, "frame %u datagram %u: header differs", k, i);
      fail_unless_equals_int (pkt_csum (fr + 14, 20), 0);
      if (k == 0 && i == 0)
        seq0 = seq;
      fail_unless_equals_int (seq, (guint16) (seq0 + k * n + i));
      fail_unless_equals_int (!!(d[1] & 0x80), i == n - 1);
      memcpy (raster + off, d + REF_HEADER, MIN (REF_PAYLOAD, fb - off));
    }
    errors = ref_check_raster (f, raster, k ? prev : NULL, pic, &err);
    fail_unless (errors == 0, "frame %u: %u raster errors, first: %s", k,
        errors, err);
    for (r = 0; r < f->height; r++)
      fail_unless (memcmp (pic + r * ustride, pics[k] + r * ustride,
              ustride) == 0, "%s frame %u: picture row %u differs", f->name,
          k, r);
    memcpy (prev, raster, fb);
  }
  g_free (raster);
  g_free (prev);
  g_free (pic);
}

static void
sink_multicast (const RefFormat * f)
{
  guint16 port = net_test_port ();
  guint i;
  int cap = pkt_capture_open ();
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  guint8 hdr[42], gmac[6], **pics;
  gchar *props;

  pkt_group_mac (GROUP, gmac);
  /* TTL from ttl-mc; nothing but the stream reaches the peer */
  props = g_strdup_printf ("host=" GROUP " port=%u ttl-mc=5", port);
  pics = run_sink (f, 2, props);
  /* an earlier source test's IGMP reports (IGMPv3 sends each more than
   * once) and the kernel's own IPv6 traffic on a fresh link (MLD reports,
   * router and neighbour solicitations: one such frame made a run count
   * 11243 for 11242) may cross the link: not the sink's, not counted,
   * whichever read they come in. Every IPv4 UDP frame is kept and
   * checked. */
  do {
    pkt_capture_read (cap, frames, 2 * ref_datagrams (f), 20);
    for (i = frames->len; i-- > 0;) {
      gsize l;
      const guint8 *b = g_bytes_get_data (frames->pdata[i], &l);

      if (l <= 23 || b[12] != 0x08 || b[13] != 0x00 || b[23] != 17)
        g_ptr_array_remove_index (frames, i);
    }
  } while (frames->len < 2 * ref_datagrams (f));
  expected_header (hdr, gmac, GROUP, port, 5);
  check_stream (frames, 0, hdr, f, pics, 2);

  net_free_pictures (pics, 2);
  g_free (props);
  g_ptr_array_unref (frames);
  close (cap);
}

GST_START_TEST (test_sink_multicast_1080i)
{
  sink_multicast (&ref_1080i5994);
}

GST_END_TEST;

/* SD (4-word EAV/SAV, no LN/CRC) and PsF on the raw transport too */
GST_START_TEST (test_sink_multicast_525i)
{
  sink_multicast (&ref_525i);
}

GST_END_TEST;

GST_START_TEST (test_sink_multicast_1080psf2398)
{
  sink_multicast (&ref_1080psf2398);
}

GST_END_TEST;

GST_START_TEST (test_sink_unicast_destination_mac)
{
  const RefFormat *f = &ref_720p5994;
  const guint8 dmac[6] = { 0x02, 0x5e, 0x00, 0xab, 0xcd, 0xef };
  guint16 port = net_test_port ();
  int cap = pkt_capture_open ();
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  guint8 hdr[42], **pics;
  gchar *props;

  /* a MAC nobody has: no ARP, the frames go to it as given; bind-address
   * sets the source IPv4 */
  props = g_strdup_printf ("host=" PKT_IP_B " port=%u "
      "destination-mac=02:5E:00:ab:cd:ef bind-address=10.77.0.9", port);
  pics = run_sink (f, 1, props);
  pkt_capture_read (cap, frames, ref_datagrams (f), 20);
  expected_header (hdr, dmac, PKT_IP_B, port, 64);
  memcpy (hdr + 26, (guint8[]) { 10, 77, 0, 9 }, 4);
  check_stream (frames, 0, hdr, f, pics, 1);

  net_free_pictures (pics, 1);
  g_free (props);
  g_ptr_array_unref (frames);
  close (cap);
}

GST_END_TEST;

GST_START_TEST (test_sink_unicast_arp)
{
  const RefFormat *f = &ref_720p5994;
  const guint8 bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
  guint16 port = net_test_port ();
  int cap = pkt_capture_open ();
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  guint8 hdr[42], **pics, arp[42];
  guint n_arp = 0, i;
  gchar *props;

  /* the peer's kernel answers our ARP request: its MAC is the
   * destination */
  props = g_strdup_printf ("host=" PKT_IP_B " port=%u", port);
  pics = run_sink (f, 1, props);
  pkt_capture_read (cap, frames, ref_datagrams (f) + 1, 20);

  /* who-has 10.77.0.2 tell 10.77.0.1 (RFC 826), once or retried */
  memcpy (arp, bcast, 6);
  memcpy (arp + 6, pkt_mac_a, 6);
  memcpy (arp + 12, (guint8[]) {
      0x08, 0x06, 0, 1, 0x08, 0x00, 6, 4, 0, 1}, 10);
  memcpy (arp + 22, pkt_mac_a, 6);
  memcpy (arp + 28, (guint8[]) {
      10, 77, 0, 1, 0, 0, 0, 0, 0, 0, 10, 77, 0, 2}, 14);
  for (i = 0; i < frames->len; i++) {
    gsize len;
    const guint8 *fr = g_bytes_get_data (frames->pdata[i], &len);

    if (fr[12] != 0x08 || fr[13] != 0x06)
      break;
    fail_unless_equals_int (len, 60);
    fail_unless (memcmp (fr, arp, 42) == 0, "ARP request %u differs", i);
    n_arp++;
  }
  fail_unless (n_arp >= 1 && n_arp <= 3, "%u ARP requests", n_arp);
  expected_header (hdr, pkt_mac_b, PKT_IP_B, port, 64);
  check_stream (frames, n_arp, hdr, f, pics, 1);

  net_free_pictures (pics, 1);
  g_free (props);
  g_ptr_array_unref (frames);
  close (cap);
}

GST_END_TEST;

/* The sink's start fails with an error message containing @what. */
static void
check_sink_error (const gchar * props, const gchar * what)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=60000/1001 ! "
      "st2022sink transport=packet %s", props);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *err = NULL;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, what) != NULL, "'%s' lacks '%s'",
      err->message, what);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_START_TEST (test_errors)
{
  check_sink_error ("iface=nosuch0 host=" GROUP,
      "no network interface named 'nosuch0'");
  check_sink_error ("host=" GROUP, "set iface=<name>");
  pkt_run ("ip link add vpkdown type veth peer name vpkdown2");
  check_sink_error ("iface=vpkdown host=" GROUP,
      "network interface 'vpkdown' is down");
  pkt_run ("ip link del vpkdown");
  check_sink_error ("iface=" PKT_IF_A " host=" PKT_IP_B
      " destination-mac=02:00:00:00:00", "is not a MAC address");
  /* off the interface's subnet: ARP cannot find the next hop */
  check_sink_error ("iface=" PKT_IF_A " host=192.0.2.1",
      "set destination-mac");
  /* nobody answers ARP for .3 */
  check_sink_error ("iface=" PKT_IF_A " host=10.77.0.3",
      "no ARP answer from 10.77.0.3");
}

GST_END_TEST;

/* The peer writes the reference encoder's datagrams onto the wire, with
 * frames that are not the stream in between (another port, another
 * group, a bad IPv4 checksum, a fragment): st2022src rebuilds every frame
 * bit-exactly, caps and meta from the stream. */
static void
src_multicast (const RefFormat * f)
{
  const guint N = 3;
  guint16 port = net_test_port ();
  guint8 **pics = net_make_pictures (f, N, port);
  guint n = ref_datagrams (f), i, k;
  int tx = pkt_capture_open ();
  guint8 gmac[6], omac[6], *raster = g_malloc (ref_frame_bytes (f));
  guint8 dgram[REF_DATAGRAM], frame[2048];
  NetReceiver r;
  GstStructure *stats;
  gchar *desc;
  gsize len;

  pkt_group_mac (GROUP, gmac);
  pkt_group_mac ("239.77.1.3", omac);
  desc = g_strdup_printf ("st2022src name=src transport=packet iface="
      PKT_IF_A " address=" GROUP " port=%u num-buffers=%u stats-interval=0 "
      "! video/x-raw,format=UYVP ! appsink name=sink sync=false", port, N);
  net_receiver_start (&r, desc);
  g_free (desc);

  for (k = 0; k < N; k++) {
    ref_build_raster (f, pics[k], f->width * 5 / 2, raster);
    for (i = 0; i < n; i++) {
      ref_pack_datagram (f, raster, i, 100 + k * n + i, 0x1000 + k,
          0x55aa55aa, k, k * f->lines * f->samples * 2, 98, dgram);
      len = pkt_build_udp (frame, gmac, pkt_mac_b, PKT_IP_B, GROUP, 4000,
          port, 8, dgram, REF_DATAGRAM);
      fail_unless (send (tx, frame, len, 0) == (ssize_t) len);
      if (i % 500 == 7) {
        /* not ours: other port, other group, corrupt, fragment */
        len = pkt_build_udp (frame, gmac, pkt_mac_b, PKT_IP_B, GROUP, 4000,
            port + 1, 8, dgram, 100);
        send (tx, frame, len, 0);
        len = pkt_build_udp (frame, omac, pkt_mac_b, PKT_IP_B, "239.77.1.3",
            4000, port, 8, dgram, 100);
        send (tx, frame, len, 0);
        len = pkt_build_udp (frame, gmac, pkt_mac_b, PKT_IP_B, GROUP, 4000,
            port, 8, dgram, 100);
        frame[14 + 8] ^= 1;
        send (tx, frame, len, 0);
        frame[14 + 8] ^= 1;
        frame[14 + 6] = 0x20;   /* MF */
        frame[14 + 10] = frame[14 + 11] = 0;
        frame[14 + 10] = pkt_csum (frame + 14, 20) >> 8;
        frame[14 + 11] = pkt_csum (frame + 14, 20) & 0xff;
        send (tx, frame, len, 0);
      }
      /* a little breathing room so a loaded machine keeps up */
      if (i % 256 == 255)
        g_usleep (1000);
    }
  }
  stats = net_receiver_finish (&r, 60);

  fail_unless_equals_int (r.samples->len, N);
  for (k = 0; k < N; k++) {
    GstSample *s = r.samples->pdata[k];
    GstBuffer *buf = gst_sample_get_buffer (s);
    GstSt2022Meta *m = net_get_meta (buf);
    GstStructure *cs = gst_caps_get_structure (gst_sample_get_caps (s), 0);
    guint8 *got = net_buffer_to_uyvp (buf, gst_sample_get_caps (s), f);
    gint w = 0, h = 0;

    fail_unless (gst_structure_get_int (cs, "width", &w));
    fail_unless (gst_structure_get_int (cs, "height", &h));
    fail_unless (w == (gint) f->width && h == (gint) f->height);
    fail_unless (m != NULL);
    fail_unless_equals_int (m->frcount, k);
    fail_unless_equals_uint64 (m->ssrc, 0x55aa55aa);
    fail_unless_equals_int (m->first_seq, 100 + k * n);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    fail_unless (memcmp (got, pics[k], f->width * 5 / 2 * f->height) == 0,
        "frame %u differs", k);
    g_free (got);
  }
  fail_unless_equals_uint64 (net_stat (stats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "packets-invalid"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "frames-corrupted"), 0);

  gst_structure_free (stats);
  net_receiver_clear (&r);
  net_free_pictures (pics, N);
  g_free (raster);
  close (tx);
}

GST_START_TEST (test_src_multicast_1080i)
{
  src_multicast (&ref_1080i5994);
}

GST_END_TEST;

GST_START_TEST (test_src_multicast_625i)
{
  src_multicast (&ref_625i);
}

GST_END_TEST;

GST_START_TEST (test_src_multicast_1080psf2997)
{
  src_multicast (&ref_1080psf2997);
}

GST_END_TEST;

static Suite *
packet_wire_suite (void)
{
  Suite *s = suite_create ("packet-wire");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_sink_multicast_1080i);
  tcase_add_test (tc, test_sink_unicast_destination_mac);
  tcase_add_test (tc, test_sink_unicast_arp);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_src_multicast_1080i);
  tcase_add_test (tc, test_sink_multicast_525i);
  tcase_add_test (tc, test_sink_multicast_1080psf2398);
  tcase_add_test (tc, test_src_multicast_625i);
  tcase_add_test (tc, test_src_multicast_1080psf2997);
  return s;
}

int
main (int argc, char **argv)
{
  return pkt_test_main (argc, argv, packet_wire_suite, "packet-wire",
      __FILE__);
}
