/* gst-vmi tests: a sender that cannot keep real time says so: a QoS message
 * per late frame and a rate-limited warning saying by how much. */

#include "net-common.h"

#include <string.h>

/* ts-offset -1 s: every frame's launch time passed a second ago */
GST_START_TEST (test_late_sender_posts_qos_and_warning)
{
  guint16 port = net_test_port ();
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=12 ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=60000/1001 ! "
      "st2022sink name=sink host=127.0.0.1 port=%u ts-offset=-1000000000 "
      "stats-interval=0", port);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint n_qos = 0, n_warn = 0;
  guint64 late = 0;

  fail_unless (pipeline != NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_QOS |
              GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    fail_if (type == GST_MESSAGE_ERROR);
    if (type == GST_MESSAGE_QOS
        && g_str_equal (GST_OBJECT_NAME (msg->src), "sink")) {
      gint64 jitter;
      gboolean live;

      gst_message_parse_qos (msg, &live, NULL, NULL, NULL, NULL);
      gst_message_parse_qos_values (msg, &jitter, NULL, NULL);
      fail_unless (live);
      /* late means by more than a frame period */
      fail_unless (jitter > 1001 * GST_SECOND / 60000, "jitter %"
          G_GINT64_FORMAT, jitter);
      n_qos++;
    } else if (type == GST_MESSAGE_WARNING
        && g_str_equal (GST_OBJECT_NAME (msg->src), "sink")) {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      fail_unless (strstr (err->message, "cannot keep real time") != NULL,
          "%s", err->message);
      fail_unless (strstr (err->message, " ms ") != NULL, "%s", err->message);
      g_error_free (err);
      n_warn++;
    } else if (type == GST_MESSAGE_ELEMENT
        && gst_message_has_name (msg, "st2022-stats")) {
      late = net_stat (gst_message_get_structure (msg), "frames-late");
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS)
      break;
  }
  fail_unless (msg != NULL, "no EOS");
  fail_unless (late > 0);
  /* one QoS per late frame, one warning for all of them (rate limited) */
  fail_unless_equals_uint64 (n_qos, late);
  fail_unless_equals_int (n_warn, 1);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

static Suite *
sink_late_suite (void)
{
  Suite *s = suite_create ("sink-late");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_late_sender_posts_qos_and_warning);
  return s;
}

GST_CHECK_MAIN (sink_late);
