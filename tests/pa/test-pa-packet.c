/* gst-vmi tests: st2022sink transport=packet pacing=pa-free-running on a
 * veth pair between network namespaces (tests/packet/packet-common.c),
 * captured on the peer with an AF_PACKET socket, checked by pa-check.c
 * (issue 13's acceptance: media at ⌊i·τ⌋ wire bytes, gap frames only,
 * bit-exact pictures). Nothing else is on the wire: IPv6 is off on the
 * veths and the destination is multicast (no ARP); B1 is frames held in
 * memory, so the first frame on the wire is media. */

#include "net-common.h"
#include "packet-common.h"
#include "pa-check.h"

#include <string.h>

#define GROUP "239.77.0.13"
#define N 3

static void
check_pa_wire (const RefFormat * f, guint64 line_rate)
{
  guint8 **pics = net_make_pictures (f, N, 1313);
  guint16 port = net_test_port ();
  guint want = pa_expected_wire_frames (f, line_rate, N);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  int cap = pkt_capture_open ();
  GstStructure *stats;
  gchar *desc;

  desc = g_strdup_printf ("st2022sink name=sink transport=packet iface="
      PKT_IF_A " host=" GROUP " port=%u pacing=pa-free-running line-rate=%"
      G_GUINT64_FORMAT " sync=false underrun=gap stats-interval=0", port,
      line_rate);
  stats = net_send_pictures (f, pics, N, desc);
  g_free (desc);
  pkt_capture_read (cap, frames, want, 20);
  pa_check_wire (f, line_rate, frames, pics, N, port, stats);

  gst_structure_free (stats);
  g_ptr_array_unref (frames);
  net_free_pictures (pics, N);
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
