/* gst-vmi tests: ST 2022-7 in SDP (RFC 7104 a=group:DUP): the core writes
 * and reads it (checked also with GStreamer's own SDP parser), st2022sink
 * writes it for two paths, st2022src takes both paths from it and receives
 * on both. */

#include "../net/net-common.h"

#include <string.h>
#include <gst/sdp/sdp.h>

#include "st2022-sdp.h"

static const gchar dup_sdp[] =
    "v=0\r\n"
    "o=- 1 1 IN IP4 10.0.0.1\r\n"
    "s=two paths\r\n"
    "t=0 0\r\n"
    "a=group:DUP %s %s\r\n"
    "m=video 5004 RTP/AVP 98\r\n"
    "c=IN IP4 239.1.1.1/16\r\n"
    "a=source-filter: incl IN IP4 239.1.1.1 10.0.0.1\r\n"
    "a=rtpmap:98 SMPTE2022-6/27000000\r\n"
    "a=mid:%s\r\n"
    "m=video 5006 RTP/AVP 98\r\n"
    "c=IN IP4 239.2.2.2/16\r\n"
    "a=source-filter: incl IN IP4 239.2.2.2 10.0.1.1\r\n"
    "a=rtpmap:98 SMPTE2022-6/27000000\r\n" "a=mid:%s\r\n";

static gchar *
make_dup (const gchar * g1, const gchar * g2, const gchar * m1,
    const gchar * m2)
{
  return g_strdup_printf (dup_sdp, g1, g2, m1, m2);
}

GST_START_TEST (test_write_read)
{
  St2022SdpDescription d = { 0 };
  GstSDPMessage *msg;
  St2022Sdp sdp;
  gchar *text;
  guint i;

  d.session_id = 7;
  d.origin_address = "10.0.0.1";
  d.address = "239.1.1.1";
  d.ttl = 16;
  d.port = 5004;
  d.payload_type = 98;
  d.source_filter = TRUE;
  d.secondary_address = "239.2.2.2";
  d.secondary_port = 5006;
  d.secondary_origin_address = "10.0.1.1";
  text = st2022_sdp_write (&d, NULL);
  fail_unless (text != NULL);
  fail_unless (strstr (text, "t=0 0\r\na=group:DUP primary secondary\r\n"
          "m=video 5004 RTP/AVP 98\r\n") != NULL, "%s", text);

  /* an independent reader: two media, each with its mid */
  fail_unless_equals_int (gst_sdp_message_new (&msg), GST_SDP_OK);
  fail_unless_equals_int (gst_sdp_message_parse_buffer ((guint8 *) text,
          strlen (text), msg), GST_SDP_OK);
  fail_unless_equals_string (gst_sdp_message_get_attribute_val (msg, "group"),
      "DUP primary secondary");
  fail_unless_equals_int (gst_sdp_message_medias_len (msg), 2);
  for (i = 0; i < 2; i++) {
    const GstSDPMedia *m = gst_sdp_message_get_media (msg, i);
    const GstSDPConnection *c = gst_sdp_media_get_connection (m, 0);

    fail_unless_equals_string (gst_sdp_media_get_attribute_val (m, "mid"),
        i ? "secondary" : "primary");
    fail_unless_equals_int (gst_sdp_media_get_port (m), i ? 5006 : 5004);
    fail_unless_equals_string (c->address, i ? "239.2.2.2" : "239.1.1.1");
    fail_unless_equals_string (gst_sdp_media_get_attribute_val (m,
            "source-filter"), i ? " incl IN IP4 239.2.2.2 10.0.1.1" :
        " incl IN IP4 239.1.1.1 10.0.0.1");
    fail_unless_equals_string (gst_sdp_media_get_attribute_val (m,
            "rtpmap"), "98 SMPTE2022-6/27000000");
  }
  gst_sdp_message_free (msg);

  /* and ours reads both paths back */
  fail_unless (st2022_sdp_parse (text, -1, &sdp, NULL));
  fail_unless (sdp.has_secondary);
  fail_unless_equals_string (sdp.address, "239.1.1.1");
  fail_unless_equals_int (sdp.port, 5004);
  fail_unless_equals_string (sdp.source_address, "10.0.0.1");
  fail_unless_equals_string (sdp.secondary_address, "239.2.2.2");
  fail_unless_equals_int (sdp.secondary_port, 5006);
  fail_unless_equals_string (sdp.secondary_source_address, "10.0.1.1");
  fail_unless (sdp.secondary_multicast);
  st2022_sdp_clear (&sdp);
  g_free (text);

  /* one path: no group, no mid (as before) */
  d.secondary_address = NULL;
  text = st2022_sdp_write (&d, NULL);
  fail_unless (strstr (text, "group") == NULL && strstr (text, "mid") == NULL);
  fail_unless (st2022_sdp_parse (text, -1, &sdp, NULL));
  fail_unless (!sdp.has_secondary);
  st2022_sdp_clear (&sdp);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_read_forms)
{
  St2022Sdp sdp;
  GError *err = NULL;
  gchar *text;

  /* the group's order says which path is which, not the m= order */
  text = make_dup ("b", "a", "a", "b");
  fail_unless (st2022_sdp_parse (text, -1, &sdp, NULL));
  fail_unless_equals_string (sdp.address, "239.2.2.2");
  fail_unless_equals_int (sdp.port, 5006);
  fail_unless_equals_string (sdp.source_address, "10.0.1.1");
  fail_unless_equals_string (sdp.secondary_address, "239.1.1.1");
  fail_unless_equals_int (sdp.secondary_port, 5004);
  st2022_sdp_clear (&sdp);
  g_free (text);

  /* a group naming a stream that is not there */
  text = make_dup ("a", "c", "a", "b");
  fail_if (st2022_sdp_parse (text, -1, &sdp, &err));
  fail_unless (strstr (err->message, "a=mid:c") != NULL, "%s", err->message);
  g_clear_error (&err);
  g_free (text);

  /* a group of one, and a group of the same mid twice */
  text = g_strdup ("v=0\r\no=- 1 1 IN IP4 10.0.0.1\r\ns=x\r\nt=0 0\r\n"
      "a=group:DUP a\r\nm=video 5004 RTP/AVP 98\r\nc=IN IP4 10.0.0.2\r\n"
      "a=rtpmap:98 SMPTE2022-6/27000000\r\na=mid:a\r\n");
  fail_if (st2022_sdp_parse (text, -1, &sdp, &err));
  fail_unless (strstr (err->message, "two paths") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  g_free (text);
  text = make_dup ("a", "a", "a", "b");
  fail_if (st2022_sdp_parse (text, -1, &sdp, &err));
  g_clear_error (&err);
  g_free (text);

  /* mids without a group: one path, the first stream (as before) */
  text = g_strdup_printf (dup_sdp, "x", "y", "a", "b");
  {
    gchar *g = strstr (text, "a=group:DUP x y\r\n");

    memmove (g, g + strlen ("a=group:DUP x y\r\n"),
        strlen (g + strlen ("a=group:DUP x y\r\n")) + 1);
  }
  fail_unless (st2022_sdp_parse (text, -1, &sdp, NULL));
  fail_unless (!sdp.has_secondary);
  fail_unless_equals_string (sdp.address, "239.1.1.1");
  st2022_sdp_clear (&sdp);
  g_free (text);
}

GST_END_TEST;

/* st2022sink with two paths writes the group; st2022src configured by that
 * SDP alone receives both paths */
GST_START_TEST (test_elements)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 4;
  guint8 **pics = net_make_pictures (f, N, 77);
  GstCaps *caps = net_format_caps (f, "UYVP", FALSE);
  guint16 p1 = net_test_port (), p2 = net_test_port ();
  GstElement *sender, *appsrc, *sink, *rpipe, *rsrc;
  GstStructure *st;
  GstVideoInfo info;
  gchar *desc, *text = NULL, *addr2 = NULL;
  gint port2 = 0;
  guint k;

  fail_unless (gst_video_info_from_caps (&info, caps));
  desc = g_strdup_printf ("appsrc name=src format=time ! st2022sink "
      "name=sink stats-interval=0 host=127.0.0.1 port=%u "
      "secondary-host=127.0.0.1 secondary-port=%u", p1, p2);
  sender = gst_parse_launch (desc, NULL);
  g_free (desc);
  appsrc = gst_bin_get_by_name (GST_BIN (sender), "src");
  sink = gst_bin_get_by_name (GST_BIN (sender), "sink");
  g_object_set (appsrc, "caps", caps, NULL);
  fail_unless (gst_element_set_state (sender, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (sink, "sdp", &text, NULL);
  fail_unless (text && strstr (text, "a=group:DUP primary secondary\r\n"),
      "%s", GST_STR_NULL (text));
  fail_unless (strstr (text, "a=mid:primary\r\n")
      && strstr (text, "a=mid:secondary\r\n"));

  /* the receiver from the SDP only */
  rpipe = gst_parse_launch ("st2022src name=src stats-interval=0 ! "
      "fakesink sync=false", NULL);
  rsrc = gst_bin_get_by_name (GST_BIN (rpipe), "src");
  g_object_set (rsrc, "sdp", text, NULL);
  fail_unless (gst_element_set_state (rpipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (rsrc, "secondary-address", &addr2, "secondary-port", &port2,
      NULL);
  fail_unless_equals_string (addr2, "127.0.0.1");
  fail_unless_equals_int (port2, p2);

  fail_unless (gst_element_set_state (sender, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (k = 0; k < N; k++) {
    GstBuffer *buf = net_make_buffer (&info, f, pics[k]);

    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND * f->fps_d,
        f->fps_n);
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (appsrc), buf) ==
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
  st = net_run_until_eos (sender, "sink", 60);
  gst_structure_free (st);
  gst_element_set_state (sender, GST_STATE_NULL);

  /* both paths delivered the stream (the receiver's counts settle once
   * the last datagrams are read) */
  {
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
    guint64 a = 0, b = 0;

    do {
      g_object_get (rsrc, "stats", &st, NULL);
      a = net_stat (st, "packets-primary");
      b = net_stat (st, "packets-secondary");
      gst_structure_free (st);
      if (a == (guint64) N * ref_datagrams (f) && a == b)
        break;
      g_usleep (10000);
    } while (g_get_monotonic_time () < deadline);
    fail_unless_equals_uint64 (a, (guint64) N * ref_datagrams (f));
    fail_unless_equals_uint64 (b, a);
  }
  gst_element_set_state (rpipe, GST_STATE_NULL);

  g_free (text);
  g_free (addr2);
  gst_object_unref (rsrc);
  gst_object_unref (rpipe);
  gst_object_unref (appsrc);
  gst_object_unref (sink);
  gst_object_unref (sender);
  gst_caps_unref (caps);
  net_free_pictures (pics, N);
}

GST_END_TEST;

static Suite *
sdp_dup_suite (void)
{
  Suite *s = suite_create ("sdp-dup");
  TCase *tc = tcase_create ("dup");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_write_read);
  tcase_add_test (tc, test_read_forms);
  tcase_add_test (tc, test_elements);
  return s;
}

GST_CHECK_MAIN (sdp_dup);
