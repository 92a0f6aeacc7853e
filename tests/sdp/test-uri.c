/* gst-vmi tests: st2022:// URIs (GstURIHandler on st2022src and
 * st2022sink) and playbin receiving an st2022sink stream on loopback.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <string.h>

static GstElement *
from_uri (GstURIType type, const gchar * uri, const gchar * factory)
{
  GError *err = NULL;
  GstElement *e = gst_element_make_from_uri (type, uri, NULL, &err);

  fail_unless (e != NULL, "%s: %s", uri, err ? err->message : "");
  fail_unless_equals_string (GST_OBJECT_NAME (gst_element_get_factory (e)),
      factory);
  return e;
}

GST_START_TEST (test_src_uri)
{
  GstElement *e = from_uri (GST_URI_SRC, "st2022://@232.1.2.3:5006?"
      "source-address=10.0.0.1&payload-type=99&drop-corrupted=true",
      "st2022src");
  gchar *addr, *src, *uri;
  gint port;
  guint pt;
  gboolean drop;

  g_object_get (e, "address", &addr, "port", &port, "source-address", &src,
      "payload-type", &pt, "drop-corrupted", &drop, NULL);
  fail_unless_equals_string (addr, "232.1.2.3");
  fail_unless_equals_int (port, 5006);
  fail_unless_equals_string (src, "10.0.0.1");
  fail_unless_equals_int (pt, 99);
  fail_unless (drop);
  uri = gst_uri_handler_get_uri (GST_URI_HANDLER (e));
  fail_unless_equals_string (uri, "st2022://232.1.2.3:5006");
  g_free (uri);
  g_free (addr);
  g_free (src);

  /* VLC's form (a name before the '@'), IPv6, default port */
  fail_unless (gst_uri_handler_set_uri (GST_URI_HANDLER (e),
          "st2022://me@[ff15::7]", NULL));
  uri = gst_uri_handler_get_uri (GST_URI_HANDLER (e));
  fail_unless_equals_string (uri, "st2022://[ff15::7]:5004");
  g_free (uri);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_sink_uri)
{
  GstElement *e = from_uri (GST_URI_SINK, "st2022://127.0.0.1:7000?ttl-mc=9",
      "st2022sink");
  gchar *host, *uri;
  gint port, ttl;

  g_object_get (e, "host", &host, "port", &port, "ttl-mc", &ttl, NULL);
  fail_unless_equals_string (host, "127.0.0.1");
  fail_unless_equals_int (port, 7000);
  fail_unless_equals_int (ttl, 9);
  uri = gst_uri_handler_get_uri (GST_URI_HANDLER (e));
  fail_unless_equals_string (uri, "st2022://127.0.0.1:7000");
  g_free (uri);
  g_free (host);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_bad_uris)
{
  static const struct
  {
    const gchar *uri;
    const gchar *message;
  } bad[] = {
    {"st2022://@:5004", "'st2022://@:5004' has no host: write "
          "st2022://host:port, st2022://@group:port or st2022://[ipv6]:port"},
    {"st2022://10.0.0.1:99999", "'st2022://10.0.0.1:99999': the port is not "
          "a number 0-65535"},
    {"st2022://10.0.0.1:5004?no-such=1", "'st2022://10.0.0.1:5004?no-such=1'"
          ": GstSt2022Src has no writable property 'no-such'"},
    {"udp://10.0.0.1:5004", "URI scheme 'udp' not supported"},
    /* D7: values were ignored silently, %00 gave a GStreamer-CRITICAL */
    {"st2022://10.0.0.1:5004?port=70000", "'st2022://10.0.0.1:5004?"
          "port=70000': query parameter 'port': '70000' is not a number "
          "0-65535"},
    {"st2022://10.0.0.1?timeout=abc", "'st2022://10.0.0.1?timeout=abc': "
          "query parameter 'timeout': 'abc' is not a number "
          "0-18446744073709551615"},
    {"st2022://10.0.0.1?payload-type=128", "'st2022://10.0.0.1?"
          "payload-type=128': query parameter 'payload-type': '128' is not "
          "a number 0-127"},
    {"st2022://10.0.0.1?drop-corrupted=maybe", "'st2022://10.0.0.1?"
          "drop-corrupted=maybe': query parameter 'drop-corrupted': 'maybe' "
          "is not true or false"},
    {"st2022://10.0.0.1?ssrc=-1", "'st2022://10.0.0.1?ssrc=-1': query "
          "parameter 'ssrc': '-1' is not a number 0-4294967295"},
    {"st2022://10.0.0.1?name=%00", "'st2022://10.0.0.1?name=%00': query "
          "parameter 'name=%00': bad percent-encoding (a %xx that is not "
          "hex, or %00)"},
    {"st2022://10.0.0.1?%zz=1", "'st2022://10.0.0.1?%zz=1': query "
          "parameter '%zz=1': bad percent-encoding (a %xx that is not hex, "
          "or %00)"},
    {"st2022://10.0.0.1?=5", "'st2022://10.0.0.1?=5': query parameter "
          "'=5': no name: write ?name=value"},
    {"st2022://10.0.0.1?stats=x", "'st2022://10.0.0.1?stats=x': "
          "GstSt2022Src has no writable property 'stats'"},
  };
  GstElement *e = gst_element_factory_make ("st2022src", NULL);
  gchar *addr, *name;
  gint port;
  guint64 timeout;
  guint i, pt;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    fail_if (gst_uri_handler_set_uri (GST_URI_HANDLER (e), bad[i].uri,
            &err), "%s accepted", bad[i].uri);
    fail_unless_equals_string (err->message, bad[i].message);
    g_error_free (err);
  }
  /* nothing was changed by the bad ones */
  g_object_get (e, "address", &addr, "port", &port, "timeout", &timeout,
      NULL);
  fail_unless_equals_string (addr, "0.0.0.0");
  fail_unless_equals_int (port, 5004);
  fail_unless_equals_uint64 (timeout, GST_SECOND);
  g_free (addr);

  /* good values of each kind still pass, at their limits */
  fail_unless (gst_uri_handler_set_uri (GST_URI_HANDLER (e), "st2022://"
          "10.0.0.2?port=65535&timeout=0&payload-type=127&name=a%20b", NULL));
  g_object_get (e, "port", &port, "timeout", &timeout, "payload-type", &pt,
      "name", &name, NULL);
  fail_unless_equals_int (port, 65535);
  fail_unless_equals_uint64 (timeout, 0);
  fail_unless_equals_int (pt, 127);
  fail_unless_equals_string (name, "a b");
  g_free (name);
  gst_object_unref (e);
}

GST_END_TEST;

typedef struct
{
  GMutex lock;
  GCond cond;
  guint frames;
  gint port;
  GstCaps *caps;
  GstElement *source;
} PlayState;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, PlayState * ps)
{
  g_mutex_lock (&ps->lock);
  ps->frames++;
  if (ps->caps == NULL)
    ps->caps = gst_pad_get_current_caps (pad);
  g_cond_broadcast (&ps->cond);
  g_mutex_unlock (&ps->lock);
}

static void
on_port (GObject * src, GParamSpec * pspec, PlayState * ps)
{
  g_mutex_lock (&ps->lock);
  g_object_get (src, "port", &ps->port, NULL);
  g_cond_broadcast (&ps->cond);
  g_mutex_unlock (&ps->lock);
}

static void
on_source_setup (GstElement * playbin, GstElement * source, PlayState * ps)
{
  g_mutex_lock (&ps->lock);
  gst_object_replace ((GstObject **) & ps->source, GST_OBJECT (source));
  g_mutex_unlock (&ps->lock);
  g_signal_connect (source, "notify::port", G_CALLBACK (on_port), ps);
}

/* frames the source dropped because playbin's streaming thread was slow
 * (a loaded machine, a sanitizer build): counted, not shown */
static guint64
source_frames_dropped (GstElement * source)
{
  GstStructure *st = NULL;
  guint64 v = 0;

  g_object_get (source, "stats", &st, NULL);
  if (st) {
    gst_structure_get_uint64 (st, "frames-dropped", &v);
    gst_structure_free (st);
  }
  return v;
}

/* playbin plays st2022://127.0.0.1:0 (port 0: the source binds an
 * ephemeral port and says which), fed by st2022sink over loopback. */
GST_START_TEST (test_playbin)
{
  const guint N = 5;
  GstElement *play = gst_element_factory_make ("playbin", NULL);
  GstElement *vsink = gst_element_factory_make ("fakesink", NULL);
  GstElement *tx;
  GstStructure *s;
  PlayState ps = { 0 };
  gchar *desc;
  gint w = 0, h = 0;

  fail_unless (play != NULL && vsink != NULL);
  g_mutex_init (&ps.lock);
  g_cond_init (&ps.cond);
  g_object_set (vsink, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (vsink, "handoff", G_CALLBACK (on_handoff), &ps);
  g_signal_connect (play, "source-setup", G_CALLBACK (on_source_setup), &ps);
  g_object_set (play, "uri", "st2022://127.0.0.1:0", "video-sink", vsink,
      "audio-sink", gst_element_factory_make ("fakesink", NULL), NULL);
  fail_unless (gst_element_set_state (play, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  g_mutex_lock (&ps.lock);
  while (ps.port == 0)
    g_cond_wait (&ps.cond, &ps.lock);
  g_mutex_unlock (&ps.lock);

  desc = g_strdup_printf ("videotestsrc num-buffers=%u ! video/x-raw,"
      "format=UYVP,width=1280,height=720,framerate=60000/1001 ! "
      "st2022sink host=127.0.0.1 port=%d", N, ps.port);
  tx = gst_parse_launch (desc, NULL);
  fail_unless (tx != NULL);
  fail_unless (gst_element_set_state (tx, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  gst_message_unref (gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (tx),
          GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR));

  /* every frame sent reaches playbin's video sink, or is counted by the
   * source as dropped for a slow streaming thread (st2022src's bounded
   * queue); the counter is read again at each frame or every 100 ms */
  g_mutex_lock (&ps.lock);
  while (ps.frames == 0 || ps.frames + source_frames_dropped (ps.source) < N)
    g_cond_wait_until (&ps.cond, &ps.lock, g_get_monotonic_time () +
        100 * G_TIME_SPAN_MILLISECOND);
  g_mutex_unlock (&ps.lock);
  fail_unless_equals_int (ps.frames + source_frames_dropped (ps.source), N);
  s = gst_caps_get_structure (ps.caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless (gst_structure_get_int (s, "width", &w)
      && gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, 1280);
  fail_unless_equals_int (h, 720);

  gst_element_set_state (tx, GST_STATE_NULL);
  gst_element_set_state (play, GST_STATE_NULL);
  gst_object_unref (tx);
  gst_object_unref (play);
  gst_caps_unref (ps.caps);
  gst_object_unref (ps.source);
  g_free (desc);
  g_mutex_clear (&ps.lock);
  g_cond_clear (&ps.cond);
}

GST_END_TEST;

/* gst-inspect-1.0 shows each element's example launch line (the long
 * description is what it prints), and the line is a pipeline that parses. */
GST_START_TEST (test_inspect_examples)
{
  static const gchar *names[] = { "st2022sink", "st2022src", "vmi10to8",
    "vmisink", "vmisrc"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GstElementFactory *f = gst_element_factory_find (names[i]);
    const gchar *desc, *ex;
    gchar *argv[] = { (gchar *) "gst-inspect-1.0", (gchar *) names[i], NULL };
    gchar *out = NULL, *line;
    GstElement *p;
    GError *err = NULL;
    gint status = -1;

    fail_unless (f != NULL, "%s", names[i]);
    desc = gst_element_factory_get_metadata (f,
        GST_ELEMENT_METADATA_DESCRIPTION);
    ex = strstr (desc, "Example: gst-launch-1.0 ");
    fail_unless (ex != NULL, "%s: %s", names[i], desc);
    ex += strlen ("Example: gst-launch-1.0 ");
    p = gst_parse_launch (ex, &err);
    fail_unless (p != NULL && err == NULL, "%s: '%s': %s", names[i], ex,
        err ? err->message : "");
    gst_object_unref (p);

    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
            NULL));
    fail_unless_equals_int (status, 0);
    line = g_strdup_printf ("Description              %s\n", desc);
    fail_unless (strstr (out, line) != NULL, "gst-inspect-1.0 %s:\n%s",
        names[i], out);
    g_free (line);
    g_free (out);
    gst_object_unref (f);
  }
}

GST_END_TEST;

static Suite *
uri_suite (void)
{
  Suite *s = suite_create ("uri");
  TCase *tc = tcase_create ("uri");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_src_uri);
  tcase_add_test (tc, test_sink_uri);
  tcase_add_test (tc, test_bad_uris);
  tcase_add_test (tc, test_playbin);
  tcase_add_test (tc, test_inspect_examples);
  return s;
}

GST_CHECK_MAIN (uri);
