/* gst-vmi example: embedding st2022sink and st2022src in an application.
 *
 * Builds a receiver (st2022src ! fakesink) and, several times over, a
 * sender (videotestsrc ! capsfilter ! st2022sink) with the GStreamer API,
 * no gst_parse_launch. It reads the elements' `stats`, prints the
 * `st2022-stats` messages, handles errors, and recovers when the stream
 * stops: st2022src posts `st2022-timeout` after `timeout` of silence, the
 * application restarts the receiver on the same port and the next stream
 * is received from its first frame.
 *
 *   st2022-app [--frames N] [--bursts B] [--address A] [--timeout S]
 *
 * Exit status: 0 when every burst's frames all arrived, 1 on an error
 * message, 2 on bad arguments, 3 when --timeout seconds passed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <stdlib.h>

typedef struct
{
  GMainLoop *loop;
  GstElement *rx, *rx_src, *tx;
  gint port;
  guint frames, bursts, burst;
  gchar *address;
  guint received;               /* frames of this burst (streaming thread) */
  guint stats_messages;
  gboolean rx_silent;           /* the stream was seen, then went silent */
  int status;
} App;

static void start_burst (App * app);
static void finish_burst (App * app);

static GstPadProbeReturn
count_frame (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  App *app = user_data;

  g_atomic_int_inc (&app->received);
  return GST_PAD_PROBE_OK;
}

static guint64
stat (GstElement * e, const gchar * field)
{
  GstStructure *s = NULL;
  guint64 v = 0;

  g_object_get (e, "stats", &s, NULL);
  if (s) {
    gst_structure_get_uint64 (s, field, &v);
    gst_structure_free (s);
  }
  return v;
}

static void
fail (App * app, GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL;

  gst_message_parse_error (msg, &err, &dbg);
  g_printerr ("error from %s: %s\n", GST_OBJECT_NAME (msg->src),
      err->message);
  if (dbg)
    g_printerr ("  (%s)\n", dbg);
  g_clear_error (&err);
  g_free (dbg);
  app->status = 1;
  g_main_loop_quit (app->loop);
}

static gboolean
on_tx_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    fail (app, msg);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    GstElement *sink = gst_bin_get_by_name (GST_BIN (app->tx), "tx-sink");

    g_print ("burst %u/%u: sender done: frames=%" G_GUINT64_FORMAT
        " packets=%" G_GUINT64_FORMAT "\n", app->burst, app->bursts,
        stat (sink, "frames"), stat (sink, "packets"));
    gst_object_unref (sink);
    /* from here on the wire is silent: the receiver will say so */
    gst_element_set_state (app->tx, GST_STATE_NULL);
    gst_clear_object (&app->tx);
    finish_burst (app);
  }
  return G_SOURCE_CONTINUE;
}

/* The sender is done and the receiver saw the stream stop: count, then
 * recover for the next burst. */
static void
finish_burst (App * app)
{
  guint got = g_atomic_int_get (&app->received);

  if (app->tx != NULL || !app->rx_silent)
    return;
  g_print ("burst %u/%u: stream stopped: received %u of %u frames "
      "(packets=%" G_GUINT64_FORMAT " lost=%" G_GUINT64_FORMAT ")\n",
      app->burst, app->bursts, got, app->frames, stat (app->rx_src,
          "packets"), stat (app->rx_src, "packets-lost"));
  if (got != app->frames)
    app->status = 1;
  if (app->burst == app->bursts || app->status != 0) {
    g_main_loop_quit (app->loop);
    return;
  }
  /* recover: a fresh receiver on the same port for the next stream */
  g_print ("reconnecting the receiver on port %d\n", app->port);
  gst_element_set_state (app->rx, GST_STATE_NULL);
  g_atomic_int_set (&app->received, 0);
  app->rx_silent = FALSE;
  if (gst_element_set_state (app->rx, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("cannot restart the receiver\n");
    app->status = 1;
    g_main_loop_quit (app->loop);
    return;
  }
  start_burst (app);
}

static gboolean
on_rx_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;
  const GstStructure *s = gst_message_get_structure (msg);

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    fail (app, msg);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_structure_has_name (s, "st2022-stats")) {
    app->stats_messages++;
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_structure_has_name (s, "st2022-timeout")) {
    gboolean lost = FALSE;

    /* signal-lost is FALSE while no stream was ever seen (a receiver
     * waiting for its first sender) */
    gst_structure_get_boolean (s, "signal-lost", &lost);
    if (lost) {
      app->rx_silent = TRUE;
      finish_burst (app);
    }
  }
  return G_SOURCE_CONTINUE;
}

static void
start_burst (App * app)
{
  GstElement *src, *filter, *sink;
  GstCaps *caps;
  GstBus *bus;

  app->burst++;
  app->tx = gst_pipeline_new ("sender");
  src = gst_element_factory_make ("videotestsrc", NULL);
  filter = gst_element_factory_make ("capsfilter", NULL);
  sink = gst_element_factory_make ("st2022sink", "tx-sink");
  caps = gst_caps_from_string ("video/x-raw,format=UYVP,width=1280,"
      "height=720,framerate=60000/1001");
  g_object_set (src, "num-buffers", app->frames, "pattern", 18, NULL);
  g_object_set (filter, "caps", caps, NULL);
  g_object_set (sink, "host", app->address, "port", app->port, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (GST_BIN (app->tx), src, filter, sink, NULL);
  gst_element_link_many (src, filter, sink, NULL);
  bus = gst_element_get_bus (app->tx);
  gst_bus_add_watch (bus, on_tx_message, app);
  gst_object_unref (bus);
  g_print ("burst %u/%u: sending %u frames to %s:%d\n", app->burst,
      app->bursts, app->frames, app->address, app->port);
  gst_element_set_state (app->tx, GST_STATE_PLAYING);
}

static gboolean
on_watchdog (gpointer user_data)
{
  App *app = user_data;

  g_printerr ("timed out\n");
  app->status = 3;
  g_main_loop_quit (app->loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  App app = { 0 };
  gint frames = 5, bursts = 3, timeout = 60;
  gchar *address = NULL;
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT, &frames, "Frames per burst", "N"},
    {"bursts", 'b', 0, G_OPTION_ARG_INT, &bursts,
        "Times the stream stops and starts", "B"},
    {"address", 'a', 0, G_OPTION_ARG_STRING, &address,
        "Address to receive on (default 127.0.0.1)", "A"},
    {"timeout", 't', 0, G_OPTION_ARG_INT, &timeout,
        "Give up after this many seconds", "S"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- st2022sink/st2022src "
      "embedded in an application");
  GError *err = NULL;
  GstElement *sink;
  GstPad *pad;
  GstBus *bus;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || frames < 1
      || bursts < 1) {
    g_printerr ("%s\n", err ? err->message : "--frames and --bursts are "
        "at least 1");
    return 2;
  }
  g_option_context_free (ctx);
  app.frames = frames;
  app.bursts = bursts;
  app.address = address ? address : g_strdup ("127.0.0.1");
  app.loop = g_main_loop_new (NULL, FALSE);

  /* the receiver: an ephemeral port, read back once it is bound */
  app.rx = gst_pipeline_new ("receiver");
  app.rx_src = gst_element_factory_make ("st2022src", "rx-src");
  sink = gst_element_factory_make ("fakesink", NULL);
  if (app.rx_src == NULL || sink == NULL) {
    g_printerr ("st2022src or fakesink missing: is GST_PLUGIN_PATH set to "
        "the build's gst/ directory?\n");
    return 1;
  }
  g_object_set (app.rx_src, "address", app.address, "port", 0,
      "timeout", (guint64) 200 * GST_MSECOND, "stats-interval", 100, NULL);
  g_object_set (sink, "sync", FALSE, NULL);
  gst_bin_add_many (GST_BIN (app.rx), app.rx_src, sink, NULL);
  gst_element_link (app.rx_src, sink);
  pad = gst_element_get_static_pad (app.rx_src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, &app, NULL);
  gst_object_unref (pad);
  bus = gst_element_get_bus (app.rx);
  gst_bus_add_watch (bus, on_rx_message, &app);
  gst_object_unref (bus);

  if (gst_element_set_state (app.rx, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    GstMessage *msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (app.rx),
        GST_MESSAGE_ERROR);
    if (msg) {
      fail (&app, msg);
      gst_message_unref (msg);
    }
    gst_element_set_state (app.rx, GST_STATE_NULL);
    return 1;
  }
  g_object_get (app.rx_src, "port", &app.port, NULL);
  g_print ("receiving on %s port %d\n", app.address, app.port);

  start_burst (&app);
  g_timeout_add_seconds (timeout, on_watchdog, &app);
  g_main_loop_run (app.loop);

  g_print ("st2022-stats messages: %s\n", app.stats_messages ? "yes" : "none");
  if (app.tx)
    gst_element_set_state (app.tx, GST_STATE_NULL);
  gst_clear_object (&app.tx);
  gst_element_set_state (app.rx, GST_STATE_NULL);
  gst_object_unref (app.rx);
  g_main_loop_unref (app.loop);
  g_print ("%s\n", app.status == 0 ? "ok" : "FAILED");
  g_free (app.address);
  return app.status;
}
