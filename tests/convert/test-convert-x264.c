/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmi10to8 feeding the real x264enc, no converter in between:
 *
 * - a pipeline to MP4 in this process, read back with GstDiscoverer
 *   (profile, chroma format, size, frame rate) and decoded (frame count);
 * - a lossless encode (quantizer 0) decoded back must give exactly the
 *   frames vmi10to8 produced;
 * - pipelines/convert-x264.sh run as a user would. */

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/pbutils/pbutils.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static gboolean
have (const char *factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  if (f)
    gst_object_unref (f);
  return f != NULL;
}

/* Runs a pipeline to EOS; fails on error or after 60 s. */
static void
run_pipeline (const char *desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *msg;

  fail_unless (p != NULL, "%s: %s", desc, err ? err->message : "?");
  bus = gst_element_get_bus (p);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS within 60 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    fail ("%s: %s (%s)", desc, err->message, dbg);
  }
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

/* The MP4's one video stream: H.264 of the given size, profile and chroma
 * format, @frames frames long at 25 fps. */
static void
check_mp4 (const char *path, gint width, gint height, const char *profile,
    const char *chroma, guint frames)
{
  GError *err = NULL;
  gchar *uri = gst_filename_to_uri (path, NULL);
  GstDiscoverer *d = gst_discoverer_new (30 * GST_SECOND, &err);
  GstDiscovererInfo *info;
  GList *streams;
  GstDiscovererVideoInfo *v;
  GstCaps *caps;
  GstStructure *s;

  fail_unless (d != NULL);
  info = gst_discoverer_discover_uri (d, uri, &err);
  fail_unless (info != NULL, "%s: %s", uri, err ? err->message : "?");
  fail_unless_equals_int (gst_discoverer_info_get_result (info),
      GST_DISCOVERER_OK);
  streams = gst_discoverer_info_get_video_streams (info);
  fail_unless_equals_int (g_list_length (streams), 1);
  v = streams->data;
  fail_unless_equals_int (gst_discoverer_video_info_get_width (v), width);
  fail_unless_equals_int (gst_discoverer_video_info_get_height (v), height);
  caps = gst_discoverer_stream_info_get_caps (GST_DISCOVERER_STREAM_INFO (v));
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-h264"), "%"
      GST_PTR_FORMAT, caps);
  if (profile)
    fail_unless_equals_string (gst_structure_get_string (s, "profile"),
        profile);
  fail_unless_equals_string (gst_structure_get_string (s, "chroma-format"),
      chroma);
  fail_unless_equals_uint64 (gst_discoverer_info_get_duration (info),
      gst_util_uint64_scale (frames, GST_SECOND, 25));
  gst_caps_unref (caps);
  gst_discoverer_stream_info_list_free (streams);
  gst_discoverer_info_unref (info);
  g_object_unref (d);
  g_free (uri);
}

/* Collects every frame an appsink named "sink" gets. */
static GList *
pull_all (const char *desc, GstCaps ** caps)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstElement *sink;
  GstSample *sample;
  GList *bufs = NULL;

  fail_unless (p != NULL, "%s: %s", desc, err ? err->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    if (caps && !*caps)
      *caps = gst_caps_ref (gst_sample_get_caps (sample));
    bufs = g_list_append (bufs, gst_buffer_ref (gst_sample_get_buffer
            (sample)));
    gst_sample_unref (sample);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  return bufs;
}

/* Several build directories may run this test at the same time: the
 * process id keeps their files apart. */
static gchar *
tmp_path (const char *name)
{
  gchar *base = g_strdup_printf ("%d-%s", (int) getpid (), name);
  gchar *path = g_build_filename (g_get_tmp_dir (), base, NULL);

  g_free (base);
  return path;
}

GST_START_TEST (test_encode_to_mp4)
{
  static const struct
  {
    const char *in, *out, *profile, *chroma, *decoded;
  } runs[] = {
    {"UYVP", "Y42B", "high-4:2:2", "4:2:2", "Y42B"},
    {"v210", "I420", NULL, "4:2:0", "I420"},
    {"UYVP", "NV12", NULL, "4:2:0", "I420"},
  };
  guint i;

  if (!have ("x264enc") || !have ("mp4mux") || !have ("qtdemux")) {
    g_print ("SKIP test_encode_to_mp4: x264enc/mp4mux/qtdemux missing\n");
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (runs); i++) {
    gchar *path = tmp_path ("vmi-convert-x264-test.mp4");
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=10 "
        "pattern=smpte ! video/x-raw,format=%s,width=640,height=360,"
        "framerate=25/1 ! vmi10to8 ! video/x-raw,format=%s ! "
        "x264enc speed-preset=ultrafast ! mp4mux ! filesink location=%s",
        runs[i].in, runs[i].out, path);

    run_pipeline (desc);
    check_mp4 (path, 640, 360, runs[i].profile, runs[i].chroma, 10);
    if (have ("avdec_h264")) {
      gchar *dec = g_strdup_printf ("filesrc location=%s ! qtdemux ! "
          "h264parse ! avdec_h264 ! appsink name=sink sync=false", path);
      GstCaps *caps = NULL;
      GList *frames = pull_all (dec, &caps);
      fail_unless_equals_int (g_list_length (frames), 10);
      fail_unless_equals_string (gst_structure_get_string
          (gst_caps_get_structure (caps, 0), "format"), runs[i].decoded);
      g_list_free_full (frames, (GDestroyNotify) gst_buffer_unref);
      gst_caps_unref (caps);
      g_free (dec);
    } else {
      g_print ("SKIP decoding check of test_encode_to_mp4 (%s): avdec_h264 "
          "missing\n", runs[i].out);
    }
    g_unlink (path);
    g_free (desc);
    g_free (path);
  }
}

GST_END_TEST;

static void
compare_frames (GList * a, GstCaps * caps_a, GList * b, GstCaps * caps_b)
{
  GstVideoInfo ia, ib;

  fail_unless (gst_video_info_from_caps (&ia, caps_a));
  fail_unless (gst_video_info_from_caps (&ib, caps_b));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&ia),
      GST_VIDEO_INFO_FORMAT (&ib));
  fail_unless_equals_int (g_list_length (a), g_list_length (b));
  for (; a; a = a->next, b = b->next) {
    GstVideoFrame fa, fb;
    guint p, r;
    fail_unless (gst_video_frame_map (&fa, &ia, a->data, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fb, &ib, b->data, GST_MAP_READ));
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++)
      for (r = 0; r < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&fa, p); r++)
        fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
                r * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p),
                (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
                r * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p),
                GST_VIDEO_FRAME_COMP_WIDTH (&fa, p) *
                GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, p)) == 0,
            "plane %u row %u differs after a lossless round trip", p, r);
    gst_video_frame_unmap (&fa);
    gst_video_frame_unmap (&fb);
  }
}

/* Lossless H.264 of vmi10to8's output decodes to vmi10to8's output. */
GST_START_TEST (test_lossless_round_trip)
{
  static const char *formats[] = { "I420", "Y42B" };
  guint i;

  if (!have ("x264enc") || !have ("avdec_h264") || !have ("mp4mux")) {
    g_print ("SKIP test_lossless_round_trip: x264enc/avdec_h264/mp4mux "
        "missing\n");
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    const char *src = "videotestsrc num-buffers=4 pattern=ball "
        "! video/x-raw,format=UYVP,width=320,height=240,framerate=25/1,"
        "interlace-mode=progressive ! vmi10to8 rounding=nearest";
    gchar *path = tmp_path ("vmi-convert-x264-lossless.mp4");
    gchar *enc = g_strdup_printf ("%s ! video/x-raw,format=%s ! x264enc "
        "pass=quant quantizer=0 speed-preset=ultrafast ! mp4mux ! "
        "filesink location=%s", src, formats[i], path);
    gchar *direct = g_strdup_printf ("%s ! video/x-raw,format=%s ! "
        "appsink name=sink sync=false", src, formats[i]);
    gchar *dec = g_strdup_printf ("filesrc location=%s ! qtdemux ! "
        "h264parse ! avdec_h264 ! appsink name=sink sync=false", path);
    GstCaps *caps_a = NULL, *caps_b = NULL;
    GList *a, *b;

    run_pipeline (enc);
    a = pull_all (direct, &caps_a);
    b = pull_all (dec, &caps_b);
    fail_unless_equals_int (g_list_length (a), 4);
    compare_frames (a, caps_a, b, caps_b);
    g_list_free_full (a, (GDestroyNotify) gst_buffer_unref);
    g_list_free_full (b, (GDestroyNotify) gst_buffer_unref);
    gst_caps_unref (caps_a);
    gst_caps_unref (caps_b);
    g_unlink (path);
    g_free (enc);
    g_free (direct);
    g_free (dec);
    g_free (path);
  }
}

GST_END_TEST;

/* pipelines/convert-x264.sh, as a user runs it. */
GST_START_TEST (test_script)
{
  const gchar *root = g_getenv ("VMI_SOURCE_ROOT");
  const gchar *build = g_getenv ("VMI_BUILD_ROOT");
  gchar *script, *path, *out = NULL, *errout = NULL;
  gchar *argv[3];
  gchar **envp;
  gint status = -1;
  GError *err = NULL;

  if (!root || !build || !have ("x264enc")) {
    g_print ("SKIP test_script: VMI_SOURCE_ROOT/VMI_BUILD_ROOT unset or "
        "x264enc missing\n");
    return;
  }
  script = g_build_filename (root, "pipelines", "convert-x264.sh", NULL);
  path = tmp_path ("vmi-convert-x264-script.mp4");
  argv[0] = script;
  argv[1] = path;
  argv[2] = NULL;
  envp = g_get_environ ();
  envp = g_environ_setenv (envp, "VMI_BUILD", build, TRUE);
  envp = g_environ_setenv (envp, "NUM_BUFFERS", "10", TRUE);
  envp = g_environ_setenv (envp, "WIDTH", "320", TRUE);
  envp = g_environ_setenv (envp, "HEIGHT", "240", TRUE);
  envp = g_environ_setenv (envp, "FRAMERATE", "25/1", TRUE);
  envp = g_environ_setenv (envp, "FORMAT", "Y42B", TRUE);
  envp = g_environ_setenv (envp, "PRESET", "ultrafast", TRUE);
  fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &errout, &status, &err), "%s", err ? err->message : "?");
  fail_unless (g_spawn_check_wait_status (status, NULL),
      "script failed:\n%s\n%s", out, errout);
  check_mp4 (path, 320, 240, "high-4:2:2", "4:2:2", 10);
  g_unlink (path);
  g_strfreev (envp);
  g_free (out);
  g_free (errout);
  g_free (path);
  g_free (script);
}

GST_END_TEST;

static Suite *
convert_x264_suite (void)
{
  Suite *s = suite_create ("convert-x264");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_encode_to_mp4);
  tcase_add_test (tc, test_lossless_round_trip);
  tcase_add_test (tc, test_script);
  return s;
}

GST_CHECK_MAIN (convert_x264);
