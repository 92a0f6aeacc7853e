/* gst-vmi tests: SDP out of st2022sink and into st2022src, port 0.
 *
 * The SDP st2022sink writes must be read by an independent parser
 * (GStreamer's libgstsdp) as ST 2022-6, have exactly the lines we expect,
 * and an st2022src configured from nothing but that file must receive the
 * stream bit-exactly.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "../net/net-common.h"

#include <gst/sdp/sdp.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

static void
port_notified (GObject * obj, GParamSpec * pspec, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
}

/* A port free on loopback right now: st2022src binds port 0 and says which
 * (the notify and the property must agree). */
static guint16
ephemeral_port (void)
{
  GstElement *p = gst_parse_launch ("st2022src name=src port=0 "
      "address=127.0.0.1 ! fakesink", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  gint notified = 0, port = -1;

  g_signal_connect (src, "notify::port", G_CALLBACK (port_notified),
      &notified);
  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (src, "port", &port, NULL);
  fail_unless_equals_int (g_atomic_int_get (&notified), 1);
  fail_unless (port > 0 && port <= 65535, "port %d", port);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (p);
  return port;
}

/* The first line with @prefix, or NULL. */
static gchar *
find_line (gchar ** lines, const gchar * prefix)
{
  for (; *lines; lines++)
    if (g_str_has_prefix (*lines, prefix))
      return *lines;
  return NULL;
}

GST_START_TEST (test_sdp_round_trip)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 3;
  guint16 port = ephemeral_port ();
  guint8 **pics = net_make_pictures (f, N, port);
  gchar *dir = g_dir_make_tmp ("vmi-sdp-XXXXXX", NULL);
  gchar *file = g_build_filename (dir, "stream.sdp", NULL);
  gchar *props = g_strdup_printf ("host=127.0.0.1 port=%u payload-type=111 "
      "sdp-file=%s", port, file);
  gchar *text = NULL, *prop_text = NULL, *desc, *addr = NULL, *srcaddr = NULL;
  gchar **lines, *o;
  GstSDPMessage *msg;
  const GstSDPMedia *media;
  const GstSDPConnection *conn;
  GstStructure *sstats, *rstats;
  NetReceiver r;
  NetSender s;
  gint rport = 0;
  guint pt = 0, k;

  /* the sink writes its SDP as it starts (READY -> PAUSED) */
  net_sender_start (&s, f, "UYVP", props, GST_STATE_PAUSED);
  fail_unless (g_file_get_contents (file, &text, NULL, NULL));
  g_object_get (s.sink, "sdp", &prop_text, NULL);
  fail_unless_equals_string (prop_text, text);

  /* an independent parser reads it as ST 2022-6 */
  fail_unless_equals_int (gst_sdp_message_new (&msg), GST_SDP_OK);
  fail_unless_equals_int (gst_sdp_message_parse_buffer ((guint8 *) text,
          strlen (text), msg), GST_SDP_OK);
  fail_unless_equals_string (gst_sdp_message_get_version (msg), "0");
  fail_unless_equals_string (gst_sdp_message_get_session_name (msg), "sink");
  fail_unless_equals_int (gst_sdp_message_medias_len (msg), 1);
  media = gst_sdp_message_get_media (msg, 0);
  fail_unless_equals_string (gst_sdp_media_get_media (media), "video");
  fail_unless_equals_int (gst_sdp_media_get_port (media), port);
  fail_unless_equals_int (gst_sdp_media_get_num_ports (media), 0);
  fail_unless_equals_string (gst_sdp_media_get_proto (media), "RTP/AVP");
  fail_unless_equals_int (gst_sdp_media_formats_len (media), 1);
  fail_unless_equals_string (gst_sdp_media_get_format (media, 0), "111");
  fail_unless_equals_string (gst_sdp_media_get_attribute_val (media,
          "rtpmap"), "111 SMPTE2022-6/27000000");
  fail_unless_equals_string (gst_sdp_media_get_attribute_val (media,
          "source-filter"), " incl IN IP4 127.0.0.1 127.0.0.1");
  /* software pacing (the default) claims the wide ST 2022-8 sender type */
  fail_unless_equals_string (gst_sdp_media_get_attribute_val (media,
          "fmtp"), "111 TP=2110TPW");
  fail_unless_equals_int (gst_sdp_media_connections_len (media), 1);
  conn = gst_sdp_media_get_connection (media, 0);
  fail_unless_equals_string (conn->nettype, "IN");
  fail_unless_equals_string (conn->addrtype, "IP4");
  fail_unless_equals_string (conn->address, "127.0.0.1");
  gst_sdp_message_free (msg);

  /* our own reading: every line, in order, CRLF-terminated */
  fail_unless (g_str_has_suffix (text, "\r\n"));
  lines = g_strsplit (text, "\r\n", -1);
  fail_unless_equals_int (g_strv_length (lines), 10);
  fail_unless_equals_string (lines[0], "v=0");
  o = lines[1];
  fail_unless (g_str_has_prefix (o, "o=- ") && g_str_has_suffix (o,
          " IN IP4 127.0.0.1"), "%s", o);
  fail_unless_equals_string (lines[2], "s=sink");
  fail_unless_equals_string (lines[3], "t=0 0");
  {
    gchar *m = g_strdup_printf ("m=video %u RTP/AVP 111", port);
    fail_unless_equals_string (lines[4], m);
    g_free (m);
  }
  fail_unless_equals_string (lines[5], "c=IN IP4 127.0.0.1");
  fail_unless_equals_string (lines[6],
      "a=source-filter: incl IN IP4 127.0.0.1 127.0.0.1");
  fail_unless_equals_string (lines[7], "a=rtpmap:111 SMPTE2022-6/27000000");
  fail_unless_equals_string (lines[8], "a=fmtp:111 TP=2110TPW");
  fail_unless_equals_string (lines[9], "");
  fail_unless (find_line (lines, "a=ts-refclk") == NULL);      /* lo has no MAC */
  g_strfreev (lines);

  /* a receiver configured from the file alone */
  desc = g_strdup_printf ("st2022src name=src num-buffers=%u stats-interval=0 "
      "sdp-file=%s ! video/x-raw,format=UYVP ! appsink name=sink sync=false",
      N, file);
  net_receiver_start (&r, desc);
  g_free (desc);
  g_object_get (r.src, "address", &addr, "port", &rport, "source-address",
      &srcaddr, "payload-type", &pt, NULL);
  fail_unless_equals_string (addr, "127.0.0.1");
  fail_unless_equals_int (rport, port);
  fail_unless_equals_string (srcaddr, "127.0.0.1");
  fail_unless_equals_int (pt, 111);

  fail_unless (gst_element_set_state (s.pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (k = 0; k < N; k++)
    net_sender_push (&s, k, pics[k]);
  sstats = net_sender_finish (&s);
  rstats = net_receiver_finish (&r, 60);

  net_check_frames (&r, f, pics, N, N);
  fail_unless_equals_uint64 (net_stat (rstats, "packets"),
      net_stat (sstats, "packets"));
  fail_unless_equals_uint64 (net_stat (rstats, "packets-invalid"), 0);
  fail_unless_equals_uint64 (net_stat (rstats, "packets-lost"), 0);

  gst_structure_free (sstats);
  gst_structure_free (rstats);
  net_receiver_clear (&r);
  net_free_pictures (pics, N);
  g_unlink (file);
  g_rmdir (dir);
  g_free (addr);
  g_free (srcaddr);
  g_free (text);
  g_free (prop_text);
  g_free (props);
  g_free (file);
  g_free (dir);
}

GST_END_TEST;

/* The state change fails; the error names the SDP line (or the file). */
static void
expect_start_error (const gchar * props, GQuark domain, gint code,
    const gchar * message)
{
  gchar *desc = g_strdup_printf ("st2022src name=src %s ! fakesink", props);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  GError *err = NULL;

  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, domain, code), "%s", err->message);
  fail_unless_equals_string (err->message, message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (desc);
}

GST_START_TEST (test_src_bad_sdp)
{
  expect_start_error ("sdp=\"v=0\no=- 1 1 IN IP4 10.0.0.1\ns=x\nt=0 0\n"
      "m=video 5004 RTP/AVP 98\nc=IN IP4 239.1.2.3/64\n"
      "a=rtpmap:98 SMPTE2022-6/90000\n\"", GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_SETTINGS,
      "Invalid SDP (sdp): line 7: 'a=rtpmap:98 SMPTE2022-6/90000': ST 2022-6 "
      "runs on a 27 MHz RTP clock: expected a=rtpmap:98 "
      "SMPTE2022-6/27000000");
  expect_start_error ("sdp=\"v=0\no=- 1 1 IN IP4 10.0.0.1\ns=x\nt=0 0\n"
      "m=audio 5004 RTP/AVP 97\na=rtpmap:97 L24/48000/2\n\"",
      GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "Invalid SDP (sdp): no ST 2022-6 stream in the SDP: expected m=video "
      "<port> RTP/AVP <payload type> with a=rtpmap:<payload type> "
      "SMPTE2022-6/27000000");
  expect_start_error ("sdp-file=/nonexistent/vmi.sdp", GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_OPEN_READ,
      "Cannot read sdp-file: /nonexistent/vmi.sdp: No such file or "
      "directory; point sdp-file at the sender's SDP");
  /* D6: /dev/zero was read until memory ran out, a FIFO without a writer
   * blocked the state change for ever */
  expect_start_error ("sdp-file=/dev/zero", GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_OPEN_READ,
      "Cannot read sdp-file: /dev/zero is not a regular file (a device, "
      "FIFO, socket or directory): save the SDP to a file; point sdp-file "
      "at the sender's SDP");
  {
    gchar *dir = g_dir_make_tmp ("sdp-fifo-XXXXXX", NULL);
    gchar *fifo = g_build_filename (dir, "s.sdp", NULL);
    gchar *props = g_strdup_printf ("sdp-file=%s", fifo);
    gchar *msg = g_strdup_printf ("Cannot read sdp-file: %s is not a "
        "regular file (a device, FIFO, socket or directory): save the SDP "
        "to a file; point sdp-file at the sender's SDP", fifo);

    fail_unless (mkfifo (fifo, 0600) == 0);
    expect_start_error (props, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_OPEN_READ, msg);
    g_unlink (fifo);
    g_rmdir (dir);
    g_free (msg);
    g_free (props);
    g_free (fifo);
    g_free (dir);
  }
  /* D1 through the sdp property: 200 formats crashed the element */
  {
    GString *sdp = g_string_new ("sdp=\"v=0\no=- 1 1 IN IP4 10.0.0.1\n"
        "s=x\nt=0 0\nm=video 5004 RTP/AVP 98");
    guint i;

    for (i = 0; i < 199; i++)
      g_string_append_printf (sdp, " %u", i % 100);
    g_string_append (sdp, "\nc=IN IP4 239.1.2.3/64\n"
        "a=rtpmap:98 SMPTE2022-6/27000000\n\"");
    expect_start_error (sdp->str, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_SETTINGS, "Invalid SDP (sdp): line 5: 'm=video "
        "5004 RTP/AVP 98 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 "
        "20 21 22 23 24 25 26 27 28...': 200 formats: at most 32 payload "
        "types per m= line");
    g_string_free (sdp, TRUE);
  }
}

GST_END_TEST;

/* A multicast SDP sets the group, port, SSM source and payload type; the
 * sink writes the group with its TTL and the PA sender type. */
GST_START_TEST (test_sdp_multicast_forms)
{
  GstElement *src = gst_element_factory_make ("st2022src", NULL);
  GstElement *p, *sink;
  gchar *addr = NULL, *srcaddr = NULL, *text = NULL;
  gint port = 0;
  guint pt = 0;

  /* configuring is done at start; the transport then may fail to join
   * (no route for the group here is fine: we read what was configured) */
  g_object_set (src, "sdp",
      "v=0\r\no=- 3745911798 3745911798 IN IP4 192.168.9.142\r\n"
      "s=Example\r\nt=0 0\r\nm=video 50020 RTP/AVP 98\r\n"
      "c=IN IP4 239.22.142.1/32\r\n"
      "a=source-filter: incl IN IP4 239.22.142.1 192.168.9.142\r\n"
      "a=rtpmap:98 SMPTE2022-6/27000000\r\na=fmtp:98 TP=2110TPNL\r\n", NULL);
  gst_element_set_state (src, GST_STATE_PAUSED);
  g_object_get (src, "address", &addr, "port", &port, "source-address",
      &srcaddr, "payload-type", &pt, NULL);
  fail_unless_equals_string (addr, "239.22.142.1");
  fail_unless_equals_int (port, 50020);
  fail_unless_equals_string (srcaddr, "192.168.9.142");
  fail_unless_equals_int (pt, 98);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  g_free (addr);
  g_free (srcaddr);

  p = gst_parse_launch ("videotestsrc ! st2022sink name=sink "
      "host=239.255.42.1 port=5004 ttl-mc=7 bind-address=127.0.0.1 "
      "pacing=none", NULL);
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  g_object_get (sink, "sdp", &text, NULL);
  fail_unless (text == NULL);   /* not before start */
  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (sink, "sdp", &text, NULL);
  fail_unless (text != NULL);
  fail_unless (strstr (text, "\r\nm=video 5004 RTP/AVP 98\r\n"
          "c=IN IP4 239.255.42.1/7\r\n"
          "a=source-filter: incl IN IP4 239.255.42.1 127.0.0.1\r\n"
          "a=rtpmap:98 SMPTE2022-6/27000000\r\n") != NULL, "%s", text);
  /* pacing=none makes no ST 2022-8 claim */
  fail_unless (strstr (text, "a=fmtp") == NULL, "%s", text);
  fail_unless (strstr (text, " IN IP4 127.0.0.1\r\n") != NULL, "%s", text);
  g_free (text);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
}

GST_END_TEST;

static Suite *
sdp_elements_suite (void)
{
  Suite *s = suite_create ("sdp-elements");
  TCase *tc = tcase_create ("elements");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_sdp_round_trip);
  tcase_add_test (tc, test_src_bad_sdp);
  tcase_add_test (tc, test_sdp_multicast_forms);
  return s;
}

GST_CHECK_MAIN (sdp_elements);
