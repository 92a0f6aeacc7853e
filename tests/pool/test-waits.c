/* gst-vmi tests: the pool elements' waits say so on the bus: vmisrc with
 * no producer at its socket path warns (and keeps retrying, then connects
 * when one appears); vmisink with wait-for-connection says what it waits
 * for, then runs once a consumer connects. */

#include <gst/check/gstcheck.h>
#include <unistd.h>

static gchar *
socket_path (const gchar * what)
{
  return g_strdup_printf ("%s/vmi-wait-%s-%d.sock", g_get_tmp_dir (), what,
      getpid ());
}

/* The next message of @types from an element named @name (NULL: any;
 * fails on an error, or when nothing comes for a minute: a hang) */
static GstMessage *
wait_message (GstElement * pipeline, GstMessageType types, const gchar * name)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  for (;;) {
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        types | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "no message from %s", name);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      fail ("error from %s: %s", GST_OBJECT_NAME (msg->src), err->message);
    }
    if (name == NULL || g_str_equal (GST_OBJECT_NAME (msg->src), name))
      break;
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return msg;
}

static gchar *
message_text (GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL, *text;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
    gst_message_parse_warning (msg, &err, &dbg);
  else
    gst_message_parse_info (msg, &err, &dbg);
  text = g_strdup_printf ("%s | %s", err->message, dbg ? dbg : "");
  g_error_free (err);
  g_free (dbg);
  return text;
}

GST_START_TEST (test_vmisrc_warns_without_producer)
{
  gchar *path = socket_path ("src");
  gchar *desc = g_strdup_printf ("vmisrc name=src socket-path=%s ! "
      "fakesink async=false", path);
  gchar *pdesc = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,format=UYVY,width=64,height=32,framerate=30/1 ! "
      "vmisink name=sink socket-path=%s", path);
  GstElement *pipeline, *producer;
  GstMessage *msg;
  gchar *text;
  gint64 t0;

  unlink (path);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  t0 = g_get_monotonic_time ();
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = wait_message (pipeline, GST_MESSAGE_WARNING, "src");
  GST_INFO ("warning after %" G_GINT64_FORMAT " us",
      g_get_monotonic_time () - t0);
  text = message_text (msg);
  /* says where it looked, why it failed, and what it does about it */
  fail_unless (strstr (text, path) != NULL, "%s", text);
  fail_unless (strstr (text, "retrying") != NULL, "%s", text);
  fail_unless (strstr (text, "vmisink socket-path=") != NULL, "%s", text);
  g_free (text);
  gst_message_unref (msg);

  /* ... and it did keep retrying: a producer appears, it connects */
  producer = gst_parse_launch (pdesc, NULL);
  fail_unless (producer != NULL);
  fail_unless (gst_element_set_state (producer, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (;;) {
    const gchar *event;

    msg = wait_message (pipeline, GST_MESSAGE_ELEMENT, "src");
    event = gst_message_has_name (msg, "vmisrc-connection") ?
        gst_structure_get_string (gst_message_get_structure (msg), "event") :
        NULL;
    if (g_strcmp0 (event, "connected") == 0) {
      gst_message_unref (msg);
      break;
    }
    gst_message_unref (msg);
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_element_set_state (producer, GST_STATE_NULL);
  gst_object_unref (pipeline);
  gst_object_unref (producer);
  g_free (desc);
  g_free (pdesc);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_vmisink_says_it_waits)
{
  gchar *path = socket_path ("sink");
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,format=UYVY,width=64,height=32,framerate=30/1 ! "
      "vmisink name=sink wait-for-connection=true socket-path=%s", path);
  gchar *cdesc = g_strdup_printf ("vmisrc name=src socket-path=%s "
      "num-buffers=3 ! fakesink", path);
  GstElement *pipeline, *consumer;
  GstMessage *msg;
  gchar *text;
  gint64 t0;

  unlink (path);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  t0 = g_get_monotonic_time ();
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = wait_message (pipeline, GST_MESSAGE_INFO, "sink");
  GST_INFO ("info after %" G_GINT64_FORMAT " us",
      g_get_monotonic_time () - t0);
  text = message_text (msg);
  fail_unless (strstr (text, "Waiting for the first consumer") != NULL,
      "%s", text);
  fail_unless (strstr (text, path) != NULL, "%s", text);
  fail_unless (strstr (text, "wait-for-connection") != NULL, "%s", text);
  g_free (text);
  gst_message_unref (msg);

  /* a consumer ends the wait: it gets its frames */
  consumer = gst_parse_launch (cdesc, NULL);
  fail_unless (consumer != NULL);
  fail_unless (gst_element_set_state (consumer, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = wait_message (consumer, GST_MESSAGE_EOS, NULL);
  gst_message_unref (msg);

  gst_element_set_state (consumer, GST_STATE_NULL);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (consumer);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (cdesc);
  g_free (path);
}

GST_END_TEST;

static Suite *
pool_waits_suite (void)
{
  Suite *s = suite_create ("pool-waits");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_vmisrc_warns_without_producer);
  tcase_add_test (tc, test_vmisink_says_it_waits);
  return s;
}

GST_CHECK_MAIN (pool_waits);
