/* gst-vmi: GstVmiAllocator, GstVmiBufferPool and vmisink's ALLOCATION path
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pool/gstvmiallocator.h"
#include "pool/gstvmibufferpool.h"
#include "vmi-test-client.h"

#define UYVP_1080 "video/x-raw,format=UYVP,width=1920,height=1080,framerate=60/1"
#define UYVY_SMALL "video/x-raw,format=UYVY,width=320,height=240,framerate=30/1"

GST_START_TEST (test_allocator_sealed_memfd)
{
  GstAllocator *alloc = gst_vmi_allocator_get ();
  GstAllocationParams params;
  GstMemory *mem, *mem2, *sub;
  GstMapInfo map;
  struct stat st;
  int fd, seals;

  fail_unless (GST_IS_VMI_ALLOCATOR (alloc));
  fail_unless (gst_allocator_find (GST_VMI_ALLOCATOR_NAME) == alloc);
  gst_object_unref (alloc);     /* the find above */

  gst_allocation_params_init (&params);
  params.align = 63;
  params.prefix = 128;
  params.padding = 32;
  params.flags = GST_MEMORY_FLAG_ZERO_PREFIXED;
  mem = gst_allocator_alloc (alloc, 5184000, &params);
  fail_unless (mem != NULL);
  fail_unless (gst_is_vmi_memory (mem));
  fail_unless (gst_is_fd_memory (mem));
  fail_unless_equals_int (mem->size, 5184000);
  fail_unless (mem->offset >= 128);
  fail_unless (mem->maxsize >= mem->offset + mem->size + 32);

  fd = gst_fd_memory_get_fd (mem);
  fail_unless (fd >= 0);
  fail_unless (fstat (fd, &st) == 0);
  fail_unless (S_ISREG (st.st_mode));
  fail_unless_equals_uint64 ((guint64) st.st_size, mem->maxsize);
  seals = fcntl (fd, F_GET_SEALS);
  fail_unless_equals_int (seals & (F_SEAL_SHRINK | F_SEAL_GROW |
          F_SEAL_FUTURE_WRITE | F_SEAL_SEAL), F_SEAL_SHRINK | F_SEAL_GROW |
      F_SEAL_FUTURE_WRITE | F_SEAL_SEAL);
  /* the seals hold: the file can be neither shrunk nor grown */
  fail_unless (ftruncate (fd, 4096) < 0);
  fail_unless (ftruncate (fd, st.st_size * 2) < 0);
  /* whoever else gets the fd (a consumer) can neither map it writable nor
   * write to it; a read-only mapping works */
  {
    void *p = mmap (NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
        0);
    guint8 byte = 1;

    fail_unless (p == MAP_FAILED);
    fail_unless (pwrite (fd, &byte, 1, 0) < 0);
    p = mmap (NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    fail_unless (p != MAP_FAILED);
    munmap (p, st.st_size);
  }

  fail_unless (gst_memory_map (mem, &map, GST_MAP_READWRITE));
  fail_unless_equals_int (((guintptr) map.data) & 63, 0);
  fail_unless_equals_int (map.size, 5184000);
  memset (map.data, 0xab, map.size);
  gst_memory_unmap (mem, &map);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  fail_unless_equals_int (map.data[0], 0xab);
  fail_unless_equals_int (map.data[map.size - 1], 0xab);
  gst_memory_unmap (mem, &map);

  mem2 = gst_allocator_alloc (alloc, 100, NULL);
  fail_unless (gst_vmi_memory_get_id (mem) != 0);
  fail_unless (gst_vmi_memory_get_id (mem2) != 0);
  fail_unless (gst_vmi_memory_get_id (mem) != gst_vmi_memory_get_id (mem2));
  sub = gst_memory_share (mem, 1000, 2000);
  fail_unless (gst_is_vmi_memory (sub));
  fail_unless_equals_uint64 (gst_vmi_memory_get_id (sub),
      gst_vmi_memory_get_id (mem));
  GST_INFO ("hugetlb: %d", gst_vmi_memory_is_hugetlb (mem));

  gst_memory_unref (sub);
  gst_memory_unref (mem2);
  gst_memory_unref (mem);
}

GST_END_TEST;

static GstBufferPool *
make_pool (const gchar * caps_str, guint min, guint max, gboolean meta,
    guint stride_align)
{
  GstBufferPool *pool = gst_vmi_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  /* a foreign allocator in the config is replaced by ours */
  {
    GstAllocator *sys = gst_allocator_find (GST_ALLOCATOR_SYSMEM);
    gst_buffer_pool_config_set_allocator (config, sys, NULL);
    gst_object_unref (sys);
  }
  if (meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (stride_align) {
    GstVideoAlignment align;
    guint i;

    gst_video_alignment_reset (&align);
    align.padding_bottom = 8;
    for (i = 0; i < GST_VIDEO_MAX_PLANES; i++)
      align.stride_align[i] = stride_align;
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
    gst_buffer_pool_config_set_video_alignment (config, &align);
  }
  fail_unless (gst_buffer_pool_set_config (pool, config));
  gst_caps_unref (caps);
  return pool;
}

GST_START_TEST (test_pool_video_meta_alignment)
{
  GstBufferPool *pool = make_pool (UYVP_1080, 2, 4, TRUE, 255);
  GstStructure *config;
  GstBuffer *buf;
  GstVideoMeta *meta;
  GstAllocator *alloc = NULL;
  guint size, min, max;
  GstCaps *caps;
  const gchar **opts;

  opts = gst_buffer_pool_get_options (pool);
  fail_unless (g_strv_contains (opts, GST_BUFFER_POOL_OPTION_VIDEO_META));
  fail_unless (g_strv_contains (opts, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT));

  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_params (config, &caps, &size, &min,
          &max));
  fail_unless_equals_int (min, 2);
  fail_unless_equals_int (max, 4);
  fail_unless (gst_buffer_pool_config_get_allocator (config, &alloc, NULL));
  fail_unless (GST_IS_VMI_ALLOCATOR (alloc));
  gst_structure_free (config);

  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_n_memory (buf), 1);
  fail_unless (gst_is_vmi_memory (gst_buffer_peek_memory (buf, 0)));
  meta = gst_buffer_get_video_meta (buf);
  fail_unless (meta != NULL);
  fail_unless_equals_int (meta->format, GST_VIDEO_FORMAT_UYVP);
  fail_unless_equals_int (meta->width, 1920);
  fail_unless_equals_int (meta->height, 1080);
  /* 1920 UYVP pixels are 4800 bytes; gst_video_info_align() pads the width
   * (to 2048 pixels) until the stride is a multiple of 256: 5120 */
  fail_unless_equals_int (meta->stride[0], 5120);
  fail_unless (gst_buffer_get_size (buf) >= 5120 * (1080 + 8));
  gst_buffer_unref (buf);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
}

GST_END_TEST;

GST_START_TEST (test_pool_is_bounded)
{
  GstBufferPool *pool = make_pool (UYVY_SMALL, 1, 0, FALSE, 0);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint size, min, max;

  fail_unless (gst_buffer_pool_config_get_params (config, NULL, &size, &min,
          &max));
  fail_unless_equals_int (min, 1);
  fail_unless_equals_int (max, GST_VMI_BUFFER_POOL_DEFAULT_MAX_BUFFERS);
  gst_structure_free (config);
  gst_object_unref (pool);
}

GST_END_TEST;

GST_START_TEST (test_pool_nonblocking_counts_exhaustion)
{
  GstBufferPool *pool = make_pool (UYVY_SMALL, 0, 2, FALSE, 0);
  GstBuffer *a, *b, *c = NULL;

  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_if (gst_vmi_buffer_pool_get_nonblocking (pool));
  gst_vmi_buffer_pool_set_nonblocking (pool, TRUE);
  fail_unless (gst_vmi_buffer_pool_get_nonblocking (pool));

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &a, NULL),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &b, NULL),
      GST_FLOW_OK);
  /* would block forever on a blocking pool: here it returns at once */
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &c, NULL),
      GST_FLOW_EOS);
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &c, NULL),
      GST_FLOW_EOS);
  fail_unless_equals_uint64 (gst_vmi_buffer_pool_get_exhausted (pool), 2);

  gst_buffer_unref (a);
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &c, NULL),
      GST_FLOW_OK);
  fail_unless_equals_uint64 (gst_vmi_buffer_pool_get_exhausted (pool), 2);
  gst_buffer_unref (b);
  gst_buffer_unref (c);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
}

GST_END_TEST;

GST_START_TEST (test_acquire_live_any_pool)
{
  GstBufferPool *pool = gst_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstBuffer *a = NULL, *b = NULL;
  gboolean exhausted = TRUE;

  gst_buffer_pool_config_set_params (config, NULL, 1000, 0, 1);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));

  fail_unless_equals_int (gst_vmi_buffer_pool_acquire_live (pool, &a,
          &exhausted), GST_FLOW_OK);
  fail_unless (a != NULL);
  fail_if (exhausted);
  fail_unless_equals_int (gst_vmi_buffer_pool_acquire_live (pool, &b,
          &exhausted), GST_FLOW_OK);
  fail_unless (b == NULL);
  fail_unless (exhausted);

  gst_buffer_pool_set_flushing (pool, TRUE);
  fail_unless_equals_int (gst_vmi_buffer_pool_acquire_live (pool, &b,
          &exhausted), GST_FLOW_FLUSHING);
  fail_if (exhausted);
  gst_buffer_pool_set_flushing (pool, FALSE);

  gst_buffer_unref (a);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
}

GST_END_TEST;

static gchar *
tmp_socket_path (void)
{
  return g_strdup_printf ("%s/vmi-alloc-%d-%d.sock", g_get_tmp_dir (),
      getpid (), g_random_int_range (0, 1 << 30));
}

/* shm.c style: what vmisink proposes in the ALLOCATION query */
GST_START_TEST (test_vmisink_proposes_vmi_pool)
{
  GstElement *sink = gst_element_factory_make ("vmisink", NULL);
  GstPad *pad;
  GstCaps *caps = gst_caps_from_string (UYVP_1080);
  GstQuery *query;
  GstBufferPool *pool = NULL;
  GstAllocator *alloc = NULL;
  guint size, min, max, idx;

  fail_unless (sink != NULL);
  pad = gst_element_get_static_pad (sink, "sink");
  query = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_query (pad, query));

  fail_unless (gst_query_get_n_allocation_pools (query) >= 1);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  fail_unless (pool != NULL);
  fail_unless (gst_is_vmi_buffer_pool (pool));
  fail_unless_equals_int (size, 5184000);
  fail_unless_equals_int (min, 2);

  fail_unless (gst_query_get_n_allocation_params (query) >= 1);
  gst_query_parse_nth_allocation_param (query, 0, &alloc, NULL);
  fail_unless (alloc != NULL);
  fail_unless (GST_IS_VMI_ALLOCATOR (alloc));
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          &idx));

  gst_object_unref (alloc);
  gst_object_unref (pool);
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (sink);
}

GST_END_TEST;

/* the proposed allocator is the one used: harness (upstream) allocates */
GST_START_TEST (test_vmisink_allocator_used)
{
  GstHarness *h = gst_harness_new_empty ();
  gchar *path = tmp_socket_path ();
  gchar *desc = g_strdup_printf ("vmisink socket-path=%s sync=false "
      "wait-for-connection=false", path);
  GstAllocator *alloc = NULL;
  GstBuffer *buf;
  GstStructure *stats;
  guint64 frames;

  gst_harness_add_parse (h, desc);
  g_free (desc);
  gst_harness_set_src_caps_str (h, UYVY_SMALL);
  /* creating the first buffer runs the ALLOCATION query */
  buf = gst_harness_create_buffer (h, 320 * 240 * 2);
  gst_harness_get_allocator (h, &alloc, NULL);
  fail_unless (alloc != NULL);
  fail_unless (GST_IS_VMI_ALLOCATOR (alloc));
  fail_unless (gst_is_vmi_memory (gst_buffer_peek_memory (buf, 0)));
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);

  {
    GstElement *sink = gst_harness_find_element (h, "vmisink");
    g_object_get (sink, "stats", &stats, NULL);
    gst_object_unref (sink);
  }
  fail_unless (gst_structure_get_uint64 (stats, "frames", &frames));
  fail_unless_equals_uint64 (frames, 1);
  gst_structure_free (stats);

  gst_harness_teardown (h);   /* alloc is (transfer none) */
  fail_if (g_file_test (path, G_FILE_TEST_EXISTS));
  g_free (path);
}

GST_END_TEST;

static GstPadProbeReturn
assert_vmi_memory_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  guint *count = data;

  if (gst_buffer_n_memory (buf) == 1 &&
      gst_is_vmi_memory (gst_buffer_peek_memory (buf, 0)))
    g_atomic_int_inc (count);
  return GST_PAD_PROBE_OK;
}

/* a real producer (videotestsrc) renders straight into vMI memory */
GST_START_TEST (test_videotestsrc_renders_into_vmi_memory)
{
  gchar *path = tmp_socket_path ();
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=10 ! "
      UYVY_SMALL " ! vmisink name=s sync=false wait-for-connection=false "
      "socket-path=%s", path);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *s = gst_bin_get_by_name (GST_BIN (p), "s");
  GstPad *pad = gst_element_get_static_pad (s, "sink");
  GstMessage *msg;
  GstStructure *stats;
  guint64 frames, copies;
  guint vmi_bufs = 0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, assert_vmi_memory_probe,
      &vmi_bufs, NULL);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 10 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless_equals_int (vmi_bufs, 10);

  g_object_get (s, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "frames", &frames);
  gst_structure_get_uint64 (stats, "copies", &copies);
  fail_unless_equals_uint64 (frames, 10);
  fail_unless_equals_uint64 (copies, 0);
  gst_structure_free (stats);

  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (s);
  gst_object_unref (p);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* Upstream insists on its own memory: vmisink copies once per frame into
 * vMI memory, bit-exact, counts it and warns exactly once. */
GST_START_TEST (test_vmisink_copies_foreign_memory)
{
  gchar *path = tmp_socket_path ();
  gchar *desc = g_strdup_printf ("appsrc name=a format=time caps=\""
      UYVY_SMALL "\" ! vmisink name=s sync=false wait-for-connection=true "
      "socket-path=%s", path);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *a = gst_bin_get_by_name (GST_BIN (p), "a");
  GstElement *s = gst_bin_get_by_name (GST_BIN (p), "s");
  GstBus *bus = gst_element_get_bus (p);
  TestClient *c;
  GstStructure *stats;
  guint64 copies, sent;
  guint i, warnings = 0;
  GstMessage *msg;
  const gsize fsize = 320 * 240 * 2;

  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  c = test_client_connect (path);
  fail_unless (c != NULL);

  for (i = 0; i < 5; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, fsize, NULL);
    GstMapInfo map;
    VmiFrameInfo f;
    const guint8 *d;
    gsize j;

    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    for (j = 0; j < fsize; j++)
      map.data[j] = (guint8) (j * 7 + i);
    gst_buffer_unmap (buf, &map);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 30;
    GST_BUFFER_OFFSET (buf) = i;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (a), buf),
        GST_FLOW_OK);

    fail_unless (test_client_next_frame (c, &f, 5000));
    fail_unless_equals_int (f.n_mems, 1);
    fail_unless_equals_uint64 (f.offset, i);
    fail_unless_equals_uint64 (f.pts, i * GST_SECOND / 30);
    fail_unless_equals_uint64 (f.mems[0].size, fsize);
    d = test_client_frame_data (c, &f, 0);
    for (j = 0; j < fsize; j++)
      if (d[j] != (guint8) (j * 7 + i))
        fail ("frame %u differs at byte %" G_GSIZE_FORMAT, i, j);
    fail_unless (test_client_release (c, f.seq));
  }
  fail_unless (c->caps != NULL);
  fail_unless (g_str_has_prefix (c->caps, "video/x-raw"));

  g_object_get (s, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "copies", &copies);
  gst_structure_get_uint64 (stats, "frames-sent", &sent);
  fail_unless_equals_uint64 (copies, 5);
  fail_unless_equals_uint64 (sent, 5);
  gst_structure_free (stats);

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
    warnings++;
    gst_message_unref (msg);
  }
  fail_unless_equals_int (warnings, 1);

  test_client_free (c);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (a);
  gst_object_unref (s);
  gst_object_unref (p);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* Going to PAUSED with @path (NULL: unset) fails with an error message. */
static void
assert_start_fails (GstElement * e, const gchar * path)
{
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;

  gst_element_set_bus (e, bus);
  g_object_set (e, "socket-path", path, NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message from %s", GST_OBJECT_NAME (e));
  gst_message_unref (msg);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
}

GST_START_TEST (test_bad_settings)
{
  GstElement *sink = gst_element_factory_make ("vmisink", NULL);
  GstElement *src = gst_element_factory_make ("vmisrc", NULL);
  gchar *too_long = g_strnfill (200, 'x');

  assert_start_fails (sink, NULL);
  /* a path in a directory that does not exist */
  assert_start_fails (sink, "/nonexistent-dir/vmi.sock");
  assert_start_fails (src, NULL);
  /* a path no unix socket can have: an error at start, not a silent wait
   * for a producer that can never be reached */
  assert_start_fails (src, too_long);

  gst_object_unref (sink);
  gst_object_unref (src);
  g_free (too_long);
}

GST_END_TEST;

GST_START_TEST (test_states)
{
  const gchar *names[] = { "vmisink", "vmisrc" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GstElement *e = gst_element_factory_make (names[i], NULL);
    gchar *path = tmp_socket_path ();

    fail_unless (e != NULL, "%s missing", names[i]);
    g_object_set (e, "socket-path", path, NULL);
    fail_unless (gst_element_set_state (e, GST_STATE_READY) ==
        GST_STATE_CHANGE_SUCCESS);
    /* vmisrc is live: PAUSED is NO_PREROLL; vmisink waits for preroll */
    fail_if (gst_element_set_state (e, GST_STATE_PAUSED) ==
        GST_STATE_CHANGE_FAILURE);
    fail_if (gst_element_set_state (e, GST_STATE_READY) ==
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_set_state (e, GST_STATE_NULL) ==
        GST_STATE_CHANGE_SUCCESS);
    gst_object_unref (e);
    g_free (path);
  }
}

GST_END_TEST;

static Suite *
vmi_allocation_suite (void)
{
  Suite *s = suite_create ("vmi-allocation");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_allocator_sealed_memfd);
  tcase_add_test (tc, test_pool_video_meta_alignment);
  tcase_add_test (tc, test_pool_is_bounded);
  tcase_add_test (tc, test_pool_nonblocking_counts_exhaustion);
  tcase_add_test (tc, test_acquire_live_any_pool);
  tcase_add_test (tc, test_vmisink_proposes_vmi_pool);
  tcase_add_test (tc, test_vmisink_allocator_used);
  tcase_add_test (tc, test_videotestsrc_renders_into_vmi_memory);
  tcase_add_test (tc, test_vmisink_copies_foreign_memory);
  tcase_add_test (tc, test_bad_settings);
  tcase_add_test (tc, test_states);
  return s;
}

GST_CHECK_MAIN (vmi_allocation);
