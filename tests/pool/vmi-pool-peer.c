/* gst-vmi: the second process of the pool-ipc tests.
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 *   vmi-pool-peer consume SOCKET-PATH N DELAY-MS
 *
 * runs `vmisrc ! fakesink` and prints, per frame, after sleeping DELAY-MS
 * (a slow consumer: the hash is taken after the sleep so that a frame the
 * producer rewrote while we held it shows up as a mismatch):
 *   frame <offset> <md5 of the frame bytes>
 * plus `event <connected|disconnected>`, `eos`, `error <text>` lines.
 * Exits 0 after N frames (N = 0: at EOS), 2 on an error.
 */

#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>

static GMainLoop *loop;
static guint target, delay_ms, count;
static int exit_code = 0;

static GstPadProbeReturn
frame_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;
  gchar *sum;

  /* N frames reported: later ones may still arrive before the main loop
   * stops the pipeline, and must not be counted */
  if (target && count >= target)
    return GST_PAD_PROBE_DROP;
  if (delay_ms)
    g_usleep (delay_ms * 1000);
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    printf ("error cannot map buffer\n");
    fflush (stdout);
    return GST_PAD_PROBE_OK;
  }
  sum = g_compute_checksum_for_data (G_CHECKSUM_MD5, map.data, map.size);
  gst_buffer_unmap (buf, &map);
  printf ("frame %" G_GUINT64_FORMAT " %s\n", GST_BUFFER_OFFSET (buf), sum);
  fflush (stdout);
  g_free (sum);
  if (target && ++count == target)
    gst_element_post_message (GST_ELEMENT (data),
        gst_message_new_application (GST_OBJECT (data),
            gst_structure_new_empty ("done")));
  return GST_PAD_PROBE_OK;
}

static gboolean
bus_cb (GstBus * bus, GstMessage * msg, gpointer data)
{
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);
      if (gst_structure_has_name (s, "vmisrc-connection")) {
        printf ("event %s\n", gst_structure_get_string (s, "event"));
        fflush (stdout);
      }
      break;
    }
    case GST_MESSAGE_EOS:
      printf ("eos\n");
      fflush (stdout);
      g_main_loop_quit (loop);
      break;
    case GST_MESSAGE_APPLICATION:
      g_main_loop_quit (loop);
      break;
    case GST_MESSAGE_ERROR:{
      GError *err;
      gchar *dbg;
      gst_message_parse_error (msg, &err, &dbg);
      printf ("error %s (%s)\n", err->message, dbg ? dbg : "");
      fflush (stdout);
      g_error_free (err);
      g_free (dbg);
      exit_code = 2;
      g_main_loop_quit (loop);
      break;
    }
    default:
      break;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  GstElement *pipeline, *sink;
  GstPad *pad;
  gchar *desc;

  gst_init (&argc, &argv);
  if (argc != 5 || g_strcmp0 (argv[1], "consume") != 0) {
    fprintf (stderr, "usage: %s consume SOCKET-PATH N DELAY-MS\n", argv[0]);
    return 1;
  }
  target = atoi (argv[3]);
  delay_ms = atoi (argv[4]);

  desc = g_strdup_printf ("vmisrc name=src socket-path=%s ! "
      "fakesink name=sink sync=false", argv[2]);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  if (!pipeline)
    return 1;
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, frame_probe, pipeline,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);

  loop = g_main_loop_new (NULL, FALSE);
  gst_bus_add_watch (GST_ELEMENT_BUS (pipeline), bus_cb, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  g_main_loop_run (loop);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_main_loop_unref (loop);
  return exit_code;
}
