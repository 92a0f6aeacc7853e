/* gst-vmi tests: st2022sink transport=packet pacing=pa-free-running on a
 * veth pair between network namespaces (tests/packet/packet-common.c),
 * captured on the peer with an AF_PACKET socket.
 *
 * Acceptance (issue 13): with sync=false, fed by appsrc with N frames, the
 * i-th media frame (i from 0) starts at wire byte ⌊i·τ⌋ of a virtual wire
 * on which each captured frame occupies its length + 24 bytes (preamble,
 * SFD, FCS, inter-frame gap), counted from the first frame on the wire
 * (which is the first media frame: B1 is frames held in memory, nothing is
 * sent before them); every gap frame is an 802.3 MAC-control frame to
 * 01:80:C2:00:00:01 of 84...1538 wire bytes; nothing else is on the wire
 * (IPv6 is off on the veths, the destination is multicast: no ARP); the
 * media decodes bit-exactly with the independent decoder
 * (tests/net/st2022-ref.c). */

#include "net-common.h"
#include "packet-common.h"
#include "vmipacer.h"

#include <string.h>

#define GROUP "239.77.0.13"
#define N 3

/* The frames the pacer puts on the wire for @n_media sends: every command
 * before the (n_media+1)-th SEND (the gaps after the last packet leave with
 * it). */
static guint
expected_frames (guint64 line_rate, guint n_media, const RefFormat * f,
    guint64 * num, guint64 * den)
{
  VmiPacer p;
  guint32 w;
  guint total = 0, sends = 0;

  fail_unless (vmi_pace_tau_for_rate (line_rate, ref_datagrams (f),
          f->fps_n, f->fps_d, num, den));
  fail_unless (vmi_pacer_init_free_running (&p, 84, 1538, 1466, *num,
          *den) == VMI_PACE_OK);
  for (;;) {
    VmiPaceCmd c = vmi_pacer_next (&p, &w);
    if (c == VMI_PACE_CMD_SEND && sends++ == n_media)
      break;
    total++;
  }
  return total;
}

static void
check_pa_wire (const RefFormat * f, guint64 line_rate)
{
  GstCaps *caps = net_format_caps (f, "UYVP", FALSE);
  guint8 **pics = net_make_pictures (f, N, 1313);
  guint n = ref_datagrams (f), want, i, m = 0, gaps = 0, k, r;
  guint16 port = net_test_port (), seq0 = 0;
  guint64 num, den, pos = 0, gap_bytes = 0;
  gsize fb = ref_frame_bytes (f), ustride = f->width * 5 / 2;
  guint8 *raster = g_malloc (fb), *prev = g_malloc (fb);
  guint8 *pic = g_malloc (ustride * f->height);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  int cap = pkt_capture_open ();
  GstElement *pipeline, *src;
  GstStructure *stats;
  GstVideoInfo info;
  guint32 rtp0 = 0;
  gchar *desc;

  want = expected_frames (line_rate, N * n, f, &num, &den);
  fail_unless (gst_video_info_from_caps (&info, caps));
  desc = g_strdup_printf ("appsrc name=src format=time ! st2022sink "
      "name=sink transport=packet iface=" PKT_IF_A " host=" GROUP
      " port=%u pacing=pa-free-running line-rate=%" G_GUINT64_FORMAT
      " sync=false underrun=gap stats-interval=0", port, line_rate);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (pipeline != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_set (src, "caps", caps, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (k = 0; k < N; k++) {
    GstBuffer *buf = net_make_buffer (&info, f, pics[k]);
    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND * f->fps_d,
        f->fps_n);
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (src), buf) ==
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  stats = net_run_until_eos (pipeline, "sink", 120);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  pkt_capture_read (cap, frames, want, 20);

  fail_unless_equals_uint64 (net_stat (stats, "frames"), N);
  fail_unless_equals_uint64 (net_stat (stats, "packets"), N * n);
  /* exactly the pacer's frames: nothing else on the wire. A loaded machine
   * may deliver EOS later than the last frame's end: the wire then carries
   * gap frames in the next frame's slots (underrun=gap) until it does */
  fail_unless (frames->len >= want, "%u frames, want %u", frames->len, want);
  if (net_stat (stats, "underruns") == 0)
    fail_unless_equals_int (frames->len, want);

  for (i = 0; i < frames->len; i++) {
    gsize len;
    const guint8 *fr = g_bytes_get_data (frames->pdata[i], &len);
    guint et = fr[12] << 8 | fr[13];

    if (et == 0x0800) {
      const guint8 *d = fr + 42;
      guint idx = m % n;
      gsize off = (gsize) idx * REF_PAYLOAD;
      guint64 want_pos = (guint64) ((unsigned __int128) m * num / den);

      fail_unless (i < want, "media frame after the pacer's last");
      fail_unless (pos == want_pos, "media frame %u at wire byte %"
          G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT, m, pos, want_pos);
      fail_unless_equals_int (len, 42 + REF_DATAGRAM);
      fail_unless_equals_int (fr[23], 17);
      fail_unless_equals_int (fr[36] << 8 | fr[37], port);
      if (m == 0) {
        seq0 = d[2] << 8 | d[3];
        rtp0 = (guint32) d[4] << 24 | d[5] << 16 | d[6] << 8 | d[7];
      }
      fail_unless_equals_int ((guint16) (d[2] << 8 | d[3]),
          (guint16) (seq0 + m));
      fail_unless_equals_int ((guint32) d[4] << 24 | d[5] << 16 | d[6] << 8
          | d[7], rtp0 + (m / n) * ref_rtp_per_frame (f));
      fail_unless_equals_int (!!(d[1] & 0x80), idx == n - 1);
      memcpy (raster + off, d + REF_HEADER, MIN (REF_PAYLOAD, fb - off));
      if (idx == n - 1) {
        gchar *err = NULL;
        guint errors = ref_check_raster (f, raster, m >= n ? prev : NULL,
            pic, &err);

        k = m / n;
        fail_unless (errors == 0, "frame %u: %u raster errors, first: %s", k,
            errors, err);
        for (r = 0; r < f->height; r++)
          fail_unless (memcmp (pic + r * ustride, pics[k] + r * ustride,
                  ustride) == 0, "frame %u: picture row %u differs", k, r);
        memcpy (prev, raster, fb);
      }
      m++;
    } else {
      static const guint8 dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

      fail_unless (i > 0, "the wire starts with a gap frame");
      fail_unless_equals_int (et, 0x8808);
      fail_unless (memcmp (fr, dst, 6) == 0);
      fail_unless (len + 24 >= 84 && len + 24 <= 1538,
          "gap frame of %u wire bytes", (guint) len + 24);
      gaps++;
      gap_bytes += len + 24;
    }
    pos += len + 24;
  }
  fail_unless_equals_int (m, N * n);
  fail_unless_equals_uint64 (net_stat (stats, "gap-frames"), gaps);
  fail_unless_equals_uint64 (net_stat (stats, "gap-bytes"), gap_bytes);

  gst_structure_free (stats);
  gst_caps_unref (caps);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_ptr_array_unref (frames);
  net_free_pictures (pics, N);
  g_free (raster);
  g_free (prev);
  g_free (pic);
  close (cap);
}

GST_START_TEST (test_pa_1080i5994_2g5)
{
  check_pa_wire (&ref_1080i5994, G_GUINT64_CONSTANT (2500000000));
}

GST_END_TEST;

GST_START_TEST (test_pa_720p50_10g)
{
  check_pa_wire (&ref_720p50, G_GUINT64_CONSTANT (10000000000));
}

GST_END_TEST;

/* a line rate the format does not fit fails at caps, naming both */
GST_START_TEST (test_pa_line_rate_too_low)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=UYVP,width=1920,height=1080,framerate=30000/1001,"
      "interlace-mode=interleaved ! st2022sink transport=packet iface="
      PKT_IF_A " host=" GROUP " pacing=pa-free-running line-rate=1000000000 "
      "sync=false", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "line-rate=1000000000") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "1080i59.94") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
pa_packet_suite (void)
{
  Suite *s = suite_create ("pa-packet");
  TCase *tc = tcase_create ("wire");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 180);
  tcase_add_test (tc, test_pa_1080i5994_2g5);
  tcase_add_test (tc, test_pa_720p50_10g);
  tcase_add_test (tc, test_pa_line_rate_too_low);
  return s;
}

int
main (int argc, char **argv)
{
  return pkt_test_main (argc, argv, pa_packet_suite, "pa-packet", __FILE__);
}
