/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The vmi10to8 element (from the built plugin) through GstHarness: caps
 * negotiation and refusal, bit-exact frames with padded strides, per-field
 * 4:2:0 chroma, the in-place path (taken, not taken, with pooled buffers),
 * the proposed allocation, threads, metadata, state changes. */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

#include "convert-test-util.h"

static GstVideoFormat
gst_format (VmiConvFormat f)
{
  switch (f) {
    case VMI_CONV_FORMAT_UYVP:
      return GST_VIDEO_FORMAT_UYVP;
    case VMI_CONV_FORMAT_V210:
      return GST_VIDEO_FORMAT_v210;
    case VMI_CONV_FORMAT_UYVY:
      return GST_VIDEO_FORMAT_UYVY;
    case VMI_CONV_FORMAT_Y42B:
      return GST_VIDEO_FORMAT_Y42B;
    case VMI_CONV_FORMAT_I420:
      return GST_VIDEO_FORMAT_I420;
    case VMI_CONV_FORMAT_NV12:
      return GST_VIDEO_FORMAT_NV12;
  }
  return GST_VIDEO_FORMAT_UNKNOWN;
}

/* A 10-bit frame: rows at @stride (0: GStreamer's default) after @offset
 * bytes of junk; a GstVideoMeta describes it when the layout is not the
 * default one (or when @meta asks for one anyway). */
static GstBuffer *
make_input (VmiConvFormat f, const Samples * s, gint stride, gsize offset,
    gboolean meta, GRand * rand)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;
  gsize size, i;
  unsigned r;

  gst_video_info_set_format (&info, gst_format (f), s->w, s->h);
  if (stride == 0)
    stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  size = offset + (gsize) stride * s->h;
  buf = gst_buffer_new_allocate (NULL, size, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < size; i++)
    map.data[i] = g_rand_int (rand);
  for (r = 0; r < s->h; r++)
    pack_row (f, s, r, map.data + offset + (gsize) r * stride, rand);
  gst_buffer_unmap (buf, &map);
  if (meta || offset != 0 || stride != GST_VIDEO_INFO_PLANE_STRIDE (&info, 0)) {
    gsize offs[GST_VIDEO_MAX_PLANES] = { offset, };
    gint strides[GST_VIDEO_MAX_PLANES] = { stride, };
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        gst_format (f), s->w, s->h, 1, offs, strides);
  }
  return buf;
}

/* Checks an output buffer against the samples, through its caps. */
static void
check_buffer (GstHarness * h, GstBuffer * out, const Samples * s,
    gboolean nearest, gboolean interlaced, const char *what)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstVideoInfo info;
  GstVideoFrame frame;
  VmiConvImage img = { 0, };
  guint p;

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  switch (GST_VIDEO_FRAME_FORMAT (&frame)) {
    case GST_VIDEO_FORMAT_UYVY:
      img.format = VMI_CONV_FORMAT_UYVY;
      break;
    case GST_VIDEO_FORMAT_Y42B:
      img.format = VMI_CONV_FORMAT_Y42B;
      break;
    case GST_VIDEO_FORMAT_I420:
      img.format = VMI_CONV_FORMAT_I420;
      break;
    case GST_VIDEO_FORMAT_NV12:
      img.format = VMI_CONV_FORMAT_NV12;
      break;
    default:
      fail ("unexpected output format");
  }
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    img.data[p] = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    img.stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
  }
  check_output (s, &img, nearest, interlaced, what);
  gst_video_frame_unmap (&frame);
}

static GstHarness *
new_harness_parse (const char *desc, const char *in_caps,
    const char *out_caps)
{
  GstHarness *h = gst_harness_new_parse (desc);
  gst_harness_set_src_caps_str (h, in_caps);
  gst_harness_set_sink_caps_str (h, out_caps);
  return h;
}

static GstHarness *
new_harness (const char *in_caps, const char *out_caps)
{
  GstHarness *h = gst_harness_new ("vmi10to8");
  gst_harness_set_src_caps_str (h, in_caps);
  gst_harness_set_sink_caps_str (h, out_caps);
  return h;
}

static const char *in_names[] = { "UYVP", "v210" };
static const char *out_names[] = { "UYVY", "Y42B", "I420", "NV12" };

/* Every pair, both roundings, default and padded strides (the padded ones
 * described by GstVideoMeta), odd and interlaced heights. */
GST_START_TEST (test_frames_exact)
{
  static const struct
  {
    unsigned w, h;
    gint pad;
    gsize offset;
  } sizes[] = {
    {1918, 7, 0, 0}, {1280, 9, 132, 0}, {720, 6, 0, 64}, {6, 5, 3, 8},
    {2, 3, 0, 0}, {1922, 4, 16, 12}, {1920, 1080, 0, 0},
  };
  GRand *rand = g_rand_new_with_seed (17);
  guint si, ii, oi, nearest, il;

  for (si = 0; si < G_N_ELEMENTS (sizes); si++) {
    for (ii = 0; ii < 2; ii++) {
      VmiConvFormat in_fmt = ii ? VMI_CONV_FORMAT_V210 : VMI_CONV_FORMAT_UYVP;
      Samples s;
      GstVideoInfo info;
      GstBuffer *in;

      samples_init (&s, sizes[si].w, sizes[si].h, rand);
      gst_video_info_set_format (&info, gst_format (in_fmt), s.w, s.h);
      in = make_input (in_fmt, &s, sizes[si].pad ?
          GST_VIDEO_INFO_PLANE_STRIDE (&info, 0) + sizes[si].pad : 0,
          sizes[si].offset, FALSE, rand);
      for (oi = 0; oi < G_N_ELEMENTS (out_names); oi++) {
        for (il = 0; il < (oi >= 2 ? 2u : 1u); il++) {
          for (nearest = 0; nearest < 2; nearest++) {
            gchar *in_caps = g_strdup_printf ("video/x-raw,format=%s,"
                "width=%u,height=%u,framerate=25/1,interlace-mode=%s",
                in_names[ii], s.w, s.h, il ? "interleaved" : "progressive");
            gchar *out_caps = g_strdup_printf ("video/x-raw,format=%s",
                out_names[oi]);
            gchar *what = g_strdup_printf ("%s -> %s %s, stride pad %d",
                in_caps, out_names[oi], nearest ? "nearest" : "truncate",
                sizes[si].pad);
            GstHarness *h = new_harness (in_caps, out_caps);
            GstBuffer *out;

            gst_util_set_object_arg (G_OBJECT (h->element), "rounding",
                nearest ? "nearest" : "truncate");
            /* the harness keeps no reference: keep one so the input
             * survives for the next pair (and is never converted in place) */
            out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
            fail_unless (out != NULL, "%s: no output", what);
            fail_if (out == in);
            check_buffer (h, out, &s, nearest, il, what);
            gst_buffer_unref (out);
            gst_harness_teardown (h);
            g_free (in_caps);
            g_free (out_caps);
            g_free (what);
          }
        }
      }
      gst_buffer_unref (in);
      samples_clear (&s);
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* A third reference: GStreamer's own converter, which truncates too when
 * not dithering, gives the same bytes for the 4:2:2 outputs. */
GST_START_TEST (test_matches_videoconvert)
{
  static const char *outs[] = { "UYVY", "Y42B" };
  GRand *rand = g_rand_new_with_seed (31);
  const unsigned w = 1918, h = 9;
  guint ii, oi;

  for (ii = 0; ii < 2; ii++) {
    VmiConvFormat in_fmt = ii ? VMI_CONV_FORMAT_V210 : VMI_CONV_FORMAT_UYVP;
    Samples s;
    GstBuffer *in;

    samples_init (&s, w, h, rand);
    in = make_input (in_fmt, &s, 0, 0, FALSE, rand);
    for (oi = 0; oi < G_N_ELEMENTS (outs); oi++) {
      gchar *in_caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,"
          "height=%u,framerate=25/1", in_names[ii], w, h);
      gchar *out_caps = g_strdup_printf ("video/x-raw,format=%s", outs[oi]);
      GstHarness *hv = new_harness (in_caps, out_caps);
      GstHarness *hc = new_harness_parse ("videoconvert dither=none "
          "n-threads=1", in_caps, out_caps);
      GstBuffer *ov = gst_harness_push_and_pull (hv, gst_buffer_ref (in));
      GstBuffer *oc = gst_harness_push_and_pull (hc, gst_buffer_ref (in));
      GstVideoInfo oinfo;
      GstVideoFrame fv, fc;
      guint p, r;

      fail_unless (ov != NULL && oc != NULL);
      fail_unless_equals_int (gst_buffer_get_size (ov),
          gst_buffer_get_size (oc));
      /* the pixels only: neither element writes the row padding (Y42B
       * rows of 1918 pixels are padded to 1920), which holds whatever the
       * allocator left there */
      gst_video_info_set_format (&oinfo, gst_video_format_from_string
          (outs[oi]), w, h);
      fail_unless (gst_video_frame_map (&fv, &oinfo, ov, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fc, &oinfo, oc, GST_MAP_READ));
      for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fv); p++)
        for (r = 0; r < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&fv, p); r++)
          fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fv,
                      p) + r * GST_VIDEO_FRAME_PLANE_STRIDE (&fv, p),
                  (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fc, p) +
                  r * GST_VIDEO_FRAME_PLANE_STRIDE (&fc, p),
                  GST_VIDEO_FRAME_COMP_WIDTH (&fv, p) *
                  GST_VIDEO_FRAME_COMP_PSTRIDE (&fv, p)) == 0,
              "%s -> %s differs from videoconvert (plane %u row %u)",
              in_names[ii], outs[oi], p, r);
      gst_video_frame_unmap (&fv);
      gst_video_frame_unmap (&fc);
      gst_buffer_unref (ov);
      gst_buffer_unref (oc);
      gst_harness_teardown (hv);
      gst_harness_teardown (hc);
      g_free (in_caps);
      g_free (out_caps);
    }
    gst_buffer_unref (in);
    samples_clear (&s);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* Field 1 carries one chroma value, field 2 another: interlaced I420 keeps
 * them apart (chroma rows alternate between fields), progressive and
 * mixed-without-the-flag average across them. */
GST_START_TEST (test_interlaced_chroma_per_field)
{
  const unsigned w = 64, h = 8;
  static const char *modes[] = { "interleaved", "progressive", "mixed" };
  GRand *rand = g_rand_new_with_seed (2);
  Samples s;
  guint m, r, x;

  samples_init (&s, w, h, rand);
  for (r = 0; r < h; r++)
    for (x = 0; x < w / 2; x++) {
      s.cb[r * (w / 2) + x] = r % 2 ? 900 : 100;
      s.cr[r * (w / 2) + x] = r % 2 ? 40 : 1020;
    }
  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    gchar *in_caps = g_strdup_printf ("video/x-raw,format=UYVP,width=%u,"
        "height=%u,framerate=25/1,interlace-mode=%s", w, h, modes[m]);
    GstHarness *h8 = new_harness (in_caps, "video/x-raw,format=I420");
    GstBuffer *in = make_input (VMI_CONV_FORMAT_UYVP, &s, 0, 0, FALSE, rand);
    GstBuffer *out;
    GstVideoFrame frame;
    GstVideoInfo info;
    gboolean fields = m == 0;

    out = gst_harness_push_and_pull (h8, in);
    gst_video_info_set_interlaced_format (&info, GST_VIDEO_FORMAT_I420,
        m == 0 ? GST_VIDEO_INTERLACE_MODE_INTERLEAVED :
        m == 1 ? GST_VIDEO_INTERLACE_MODE_PROGRESSIVE :
        GST_VIDEO_INTERLACE_MODE_MIXED, w, h);
    fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
    for (r = 0; r < h / 2; r++) {
      const guint8 *u = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 1) +
          r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 1);
      const guint8 *v = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 2) +
          r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 2);
      /* (a + b) >> 3 */
      guint eu = fields ? (r % 2 ? 225 : 25) : 125;
      guint ev = fields ? (r % 2 ? 10 : 255) : 132;
      for (x = 0; x < w / 2; x++) {
        fail_unless_equals_int (u[x], eu);
        fail_unless_equals_int (v[x], ev);
      }
    }
    gst_video_frame_unmap (&frame);
    gst_buffer_unref (out);
    gst_harness_teardown (h8);
    g_free (in_caps);
  }
  samples_clear (&s);
  g_rand_free (rand);
}

GST_END_TEST;

static void
check_same_fields_but_format (GstCaps * in, GstCaps * out, const char *fmt)
{
  GstStructure *a = gst_structure_copy (gst_caps_get_structure (in, 0));
  GstStructure *b = gst_structure_copy (gst_caps_get_structure (out, 0));

  fail_unless_equals_string (gst_structure_get_string (b, "format"), fmt);
  gst_structure_remove_field (a, "format");
  gst_structure_remove_field (b, "format");
  fail_unless (gst_structure_is_equal (a, b), "%" GST_PTR_FORMAT " vs %"
      GST_PTR_FORMAT, a, b);
  gst_structure_free (a);
  gst_structure_free (b);
}

GST_START_TEST (test_caps_pass_through)
{
  static const char *in_caps_str =
      "video/x-raw,format=v210,width=1920,height=1080,"
      "framerate=30000/1001,interlace-mode=interleaved,"
      "field-order=top-field-first,colorimetry=bt709,"
      "pixel-aspect-ratio=1/1";
  guint oi;

  for (oi = 0; oi < G_N_ELEMENTS (out_names); oi++) {
    gchar *out_caps_str = g_strdup_printf ("video/x-raw,format=%s",
        out_names[oi]);
    GstHarness *h = new_harness (in_caps_str, out_caps_str);
    GstCaps *in_caps = gst_caps_from_string (in_caps_str), *out_caps;
    GstBuffer *out;

    out = gst_harness_push_and_pull (h, gst_buffer_new_allocate (NULL,
            5120 * 1080, NULL));
    fail_unless (out != NULL);
    gst_buffer_unref (out);
    out_caps = gst_pad_get_current_caps (h->sinkpad);
    check_same_fields_but_format (in_caps, out_caps, out_names[oi]);
    gst_caps_unref (out_caps);
    gst_caps_unref (in_caps);
    gst_harness_teardown (h);
    g_free (out_caps_str);
  }
}

GST_END_TEST;

/* What the element asks upstream for, given what downstream takes. */
GST_START_TEST (test_caps_query)
{
  GstHarness *h = gst_harness_new ("vmi10to8");
  GstCaps *caps, *expected;
  GstPad *sinkpad;

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=I420,width=720,"
      "height=576,framerate=25/1,colorimetry=bt601,interlace-mode=interleaved");
  sinkpad = gst_element_get_static_pad (h->element, "sink");
  caps = gst_pad_query_caps (sinkpad, NULL);
  expected = gst_caps_from_string ("video/x-raw,format={UYVP,v210},width=720,"
      "height=576,framerate=25/1,colorimetry=bt601,"
      "interlace-mode=interleaved");
  fail_unless (gst_caps_is_equal (caps, expected), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_caps_unref (expected);

  /* accepted and refused input */
  caps = gst_caps_from_string ("video/x-raw,format=UYVP,width=720,"
      "height=576,framerate=25/1,colorimetry=bt601,"
      "interlace-mode=interleaved");
  fail_unless (gst_pad_query_accept_caps (sinkpad, caps));
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-raw,format=I420,width=720,"
      "height=576,framerate=25/1");
  fail_if (gst_pad_query_accept_caps (sinkpad, caps));
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-raw,format=UYVY,width=720,"
      "height=576,framerate=25/1");
  fail_if (gst_pad_query_accept_caps (sinkpad, caps));
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-raw(memory:GLMemory),format=UYVP,"
      "width=720,height=576,framerate=25/1,colorimetry=bt601,"
      "interlace-mode=interleaved");
  fail_if (gst_pad_query_accept_caps (sinkpad, caps));
  gst_caps_unref (caps);
  gst_object_unref (sinkpad);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstMessage *
pop_error (GstBus * bus)
{
  return gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
}

GST_START_TEST (test_refuses)
{
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;

  /* downstream takes no output format of ours */
  h = new_harness ("video/x-raw,format=UYVP,width=64,height=4,"
      "framerate=25/1", "video/x-raw,format=RGB");
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 160 * 4, NULL)),
      GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);

  /* an odd width: refused with an error saying why */
  h = new_harness ("video/x-raw,format=UYVP,width=63,height=4,"
      "framerate=25/1", "video/x-raw,format=UYVY");
  bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 160 * 4, NULL)),
      GST_FLOW_NOT_NEGOTIATED);
  msg = pop_error (bus);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION));
  fail_unless (strstr (err->message, "even width") != NULL, "%s",
      err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static gpointer
memory_data (GstBuffer * buf)
{
  GstMapInfo map;
  gpointer p;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  p = map.data;
  gst_buffer_unmap (buf, &map);
  return p;
}

/* UYVP/v210 -> UYVY: the output is the input buffer when the element holds
 * the only reference; the layout follows downstream's GstVideoMeta support. */
GST_START_TEST (test_in_place)
{
  GRand *rand = g_rand_new_with_seed (8);
  const unsigned w = 1918, h = 11;
  guint ii, meta_down, nearest;

  for (ii = 0; ii < 2; ii++) {
    VmiConvFormat in_fmt = ii ? VMI_CONV_FORMAT_V210 : VMI_CONV_FORMAT_UYVP;
    for (meta_down = 0; meta_down < 2; meta_down++) {
      for (nearest = 0; nearest < 2; nearest++) {
        gchar *in_caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,"
            "height=%u,framerate=25/1", in_names[ii], w, h);
        GstHarness *hs = new_harness (in_caps, "video/x-raw,format=UYVY");
        GstVideoInfo in_info;
        Samples s;
        GstBuffer *in, *out;
        GstVideoMeta *vmeta;
        gpointer data;
        gsize in_size;

        g_object_set (hs->element, "rounding", nearest, NULL);
        if (meta_down)
          gst_harness_add_propose_allocation_meta (hs,
              GST_VIDEO_META_API_TYPE, NULL);
        samples_init (&s, w, h, rand);
        gst_video_info_set_format (&in_info, gst_format (in_fmt), w, h);
        /* padded rows at an offset, described by a meta */
        in = make_input (in_fmt, &s,
            GST_VIDEO_INFO_PLANE_STRIDE (&in_info, 0) + 20, 40, TRUE, rand);
        data = memory_data (in);
        in_size = gst_buffer_get_size (in);
        GST_BUFFER_PTS (in) = 42 * GST_SECOND;

        /* taken: the harness hands over the only reference */
        out = gst_harness_push_and_pull (hs, in);
        fail_unless (out == in, "not converted in place");
        fail_unless (memory_data (out) == data);
        fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 42 * GST_SECOND);
        vmeta = gst_buffer_get_video_meta (out);
        if (meta_down) {
          /* the input's rows, rows in parallel */
          fail_unless (vmeta != NULL);
          fail_unless_equals_int (vmeta->format, GST_VIDEO_FORMAT_UYVY);
          fail_unless_equals_int (vmeta->stride[0],
              GST_VIDEO_INFO_PLANE_STRIDE (&in_info, 0) + 20);
          fail_unless_equals_int (vmeta->offset[0], 40);
          fail_unless_equals_int (gst_buffer_get_size (out), in_size);
        } else {
          /* packed like any UYVY buffer, no meta needed */
          fail_unless (vmeta == NULL);
          fail_unless_equals_int (gst_buffer_get_size (out), 2 * w * h);
        }
        check_buffer (hs, out, &s, nearest, FALSE, "in place");
        gst_buffer_unref (out);

        /* not taken: someone else holds the input */
        in = make_input (in_fmt, &s, 0, 0, FALSE, rand);
        {
          GstBuffer *copy = gst_buffer_copy_deep (in);
          GstMapInfo a, b;
          out = gst_harness_push_and_pull (hs, gst_buffer_ref (in));
          fail_if (out == in);
          fail_if (memory_data (out) == memory_data (in));
          check_buffer (hs, out, &s, nearest, FALSE, "copy");
          /* and the input is untouched */
          fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
          fail_unless (gst_buffer_map (copy, &b, GST_MAP_READ));
          fail_unless (a.size == b.size && memcmp (a.data, b.data,
                  a.size) == 0);
          gst_buffer_unmap (in, &a);
          gst_buffer_unmap (copy, &b);
          gst_buffer_unref (copy);
          gst_buffer_unref (out);
          gst_buffer_unref (in);
        }

        /* not taken: read-only memory (e.g. mapped from another process) */
        in = make_input (in_fmt, &s, 0, 0, FALSE, rand);
        GST_MINI_OBJECT_FLAG_SET (gst_buffer_peek_memory (in, 0),
            GST_MEMORY_FLAG_READONLY);
        data = memory_data (in);
        out = gst_harness_push_and_pull (hs, in);
        fail_if (memory_data (out) == data);
        check_buffer (hs, out, &s, nearest, FALSE, "read-only input");
        gst_buffer_unref (out);

        samples_clear (&s);
        gst_harness_teardown (hs);
        g_free (in_caps);
      }
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* A buffer from a GstVideoBufferPool (pooled, locked GstVideoMeta) is
 * converted in place and comes back to its pool as the pool made it. */
GST_START_TEST (test_in_place_pooled)
{
  GRand *rand = g_rand_new_with_seed (9);
  const unsigned w = 720, h = 6;
  GstHarness *hs = new_harness ("video/x-raw,format=UYVP,width=720,"
      "height=6,framerate=25/1", "video/x-raw,format=UYVY");
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=UYVP,width=720,"
      "height=6,framerate=25/1");
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoInfo info;
  GstBuffer *in, *out, *again;
  GstVideoMeta *vmeta;
  GstVideoFrame frame;
  Samples s;
  unsigned r;

  gst_video_info_from_caps (&info, caps);
  gst_buffer_pool_config_set_params (config, caps, info.size, 1, 1);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));

  samples_init (&s, w, h, rand);
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &in, NULL),
      GST_FLOW_OK);
  fail_unless (gst_buffer_get_video_meta (in) != NULL);
  fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_WRITE));
  for (r = 0; r < h; r++)
    pack_row (VMI_CONV_FORMAT_UYVP, &s, r, (guint8 *)
        GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), rand);
  gst_video_frame_unmap (&frame);

  out = gst_harness_push_and_pull (hs, in);
  fail_unless (out == in);
  vmeta = gst_buffer_get_video_meta (out);
  fail_unless (vmeta != NULL);
  fail_unless_equals_int (vmeta->format, GST_VIDEO_FORMAT_UYVY);
  fail_unless_equals_int (gst_buffer_get_size (out), 2 * w * h);
  check_buffer (hs, out, &s, FALSE, FALSE, "pooled in place");
  gst_buffer_unref (out);

  /* the pool's only buffer, as the pool made it */
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &again,
          NULL), GST_FLOW_OK);
  fail_unless (again == in);
  vmeta = gst_buffer_get_video_meta (again);
  fail_unless (vmeta != NULL);
  fail_unless_equals_int (vmeta->format, GST_VIDEO_FORMAT_UYVP);
  fail_unless_equals_int (vmeta->stride[0],
      GST_VIDEO_INFO_PLANE_STRIDE (&info, 0));
  fail_unless_equals_int (gst_buffer_get_size (again), info.size);
  fail_unless (gst_video_frame_map (&frame, &info, again, GST_MAP_WRITE));
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (again);

  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  gst_caps_unref (caps);
  samples_clear (&s);
  gst_harness_teardown (hs);
  g_rand_free (rand);
}

GST_END_TEST;

/* The ALLOCATION query upstream gets a vmi pool and GstVideoMeta. */
GST_START_TEST (test_propose_allocation)
{
  GstHarness *h = new_harness ("video/x-raw,format=UYVP,width=1920,"
      "height=1080,framerate=25/1", "video/x-raw,format=UYVY");
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=UYVP,"
      "width=1920,height=1080,framerate=25/1");
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  GstStructure *config;
  GstBuffer *buf;

  /* negotiate first: the element answers once it knows its output */
  gst_buffer_unref (gst_harness_push_and_pull (h,
          gst_buffer_new_allocate (NULL, 4800 * 1080, NULL)));
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_get_n_allocation_pools (query) >= 1);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  fail_unless (pool != NULL);
  fail_unless_equals_string (G_OBJECT_TYPE_NAME (pool), "GstVmiBufferPool");
  fail_unless_equals_int (size, 4800 * 1080);
  fail_unless (gst_query_find_allocation_meta (query,
          GST_VIDEO_META_API_TYPE, NULL));

  /* the pool works as offered */
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META));
  gst_structure_free (config);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  fail_unless (gst_buffer_get_size (buf) >= 4800 * 1080);
  gst_buffer_unref (buf);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* n-threads 1 and 2 give the same bytes. */
GST_START_TEST (test_threads_identical)
{
  GRand *rand = g_rand_new_with_seed (12);
  const unsigned w = 1920, h = 1080;
  Samples s;
  GstBuffer *in;
  guint oi;

  samples_init (&s, w, h, rand);
  in = make_input (VMI_CONV_FORMAT_V210, &s, 0, 0, FALSE, rand);
  for (oi = 0; oi < G_N_ELEMENTS (out_names); oi++) {
    gchar *out_caps = g_strdup_printf ("video/x-raw,format=%s",
        out_names[oi]);
    const char *in_caps = "video/x-raw,format=v210,width=1920,height=1080,"
        "framerate=25/1,interlace-mode=interleaved";
    /* n-threads applies from READY: set before the harness starts it */
    GstHarness *h1 = new_harness_parse ("vmi10to8 n-threads=1", in_caps,
        out_caps);
    GstHarness *h2 = new_harness_parse ("vmi10to8 n-threads=2", in_caps,
        out_caps);
    GstBuffer *o1, *o2;
    GstMapInfo m1, m2;
    guint n;

    {
      GstElement *e = gst_harness_find_element (h2, "vmi10to8");
      g_object_get (e, "n-threads", &n, NULL);
      fail_unless_equals_int (n, 2);
      gst_object_unref (e);
    }
    o1 = gst_harness_push_and_pull (h1, gst_buffer_copy_deep (in));
    o2 = gst_harness_push_and_pull (h2, gst_buffer_copy_deep (in));
    fail_unless (gst_buffer_map (o1, &m1, GST_MAP_READ));
    fail_unless (gst_buffer_map (o2, &m2, GST_MAP_READ));
    fail_unless_equals_int (m1.size, m2.size);
    fail_unless (memcmp (m1.data, m2.data, m1.size) == 0);
    gst_buffer_unmap (o1, &m1);
    gst_buffer_unmap (o2, &m2);
    check_buffer (h2, o2, &s, FALSE, TRUE, "2 threads");
    gst_buffer_unref (o1);
    gst_buffer_unref (o2);
    gst_harness_teardown (h1);
    gst_harness_teardown (h2);
    g_free (out_caps);
  }
  gst_buffer_unref (in);
  samples_clear (&s);
  g_rand_free (rand);
}

GST_END_TEST;

/* Timestamps, offsets, flags and metas pass through, in place and not. */
GST_START_TEST (test_metadata_pass_through)
{
  GRand *rand = g_rand_new_with_seed (4);
  GstCaps *ref_caps = gst_caps_new_empty_simple ("timestamp/x-test");
  guint oi;
  Samples s;

  samples_init (&s, 64, 4, rand);
  for (oi = 0; oi < G_N_ELEMENTS (out_names); oi++) {
    gchar *out_caps = g_strdup_printf ("video/x-raw,format=%s",
        out_names[oi]);
    GstHarness *h = new_harness ("video/x-raw,format=UYVP,width=64,"
        "height=4,framerate=25/1,interlace-mode=mixed", out_caps);
    GstBuffer *in = make_input (VMI_CONV_FORMAT_UYVP, &s, 0, 0, FALSE, rand);
    GstBuffer *out;
    GstReferenceTimestampMeta *ref;

    GST_BUFFER_PTS (in) = 3 * GST_SECOND;
    GST_BUFFER_DTS (in) = 2 * GST_SECOND;
    GST_BUFFER_DURATION (in) = GST_SECOND / 25;
    GST_BUFFER_OFFSET (in) = 75;
    GST_BUFFER_OFFSET_END (in) = 76;
    GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT |
        GST_VIDEO_BUFFER_FLAG_INTERLACED | GST_VIDEO_BUFFER_FLAG_TFF);
    gst_buffer_add_reference_timestamp_meta (in, ref_caps, 1234, 5);

    out = gst_harness_push_and_pull (h, in);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 3 * GST_SECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (out), 2 * GST_SECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), GST_SECOND / 25);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), 75);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (out), 76);
    fail_unless (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_DISCONT));
    fail_unless (GST_BUFFER_FLAG_IS_SET (out,
            GST_VIDEO_BUFFER_FLAG_INTERLACED));
    fail_unless (GST_BUFFER_FLAG_IS_SET (out, GST_VIDEO_BUFFER_FLAG_TFF));
    ref = gst_buffer_get_reference_timestamp_meta (out, ref_caps);
    fail_unless (ref != NULL);
    fail_unless_equals_uint64 (ref->timestamp, 1234);
    /* a flagged interlaced frame of a mixed stream: per-field chroma */
    check_buffer (h, out, &s, FALSE, TRUE, "mixed, flagged interlaced");
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (out_caps);
  }
  gst_caps_unref (ref_caps);
  samples_clear (&s);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_rounding_property)
{
  GstElement *e = gst_element_factory_make ("vmi10to8", NULL);
  gint rounding;
  guint n;

  fail_unless (e != NULL);
  g_object_get (e, "rounding", &rounding, "n-threads", &n, NULL);
  fail_unless_equals_int (rounding, 0);
  fail_unless_equals_int (n, 0);
  gst_util_set_object_arg (G_OBJECT (e), "rounding", "nearest");
  g_object_get (e, "rounding", &rounding, NULL);
  fail_unless_equals_int (rounding, 1);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_state_cycles)
{
  GstElement *e = gst_element_factory_make ("vmi10to8", NULL);
  guint i;

  g_object_set (e, "n-threads", 3, NULL);
  for (i = 0; i < 3; i++) {
    fail_unless (gst_element_set_state (e, GST_STATE_READY) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_set_state (e, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_set_state (e, GST_STATE_READY) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_set_state (e, GST_STATE_NULL) !=
        GST_STATE_CHANGE_FAILURE);
  }
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
vmi10to8_suite (void)
{
  Suite *s = suite_create ("vmi10to8");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_frames_exact);
  tcase_add_test (tc, test_matches_videoconvert);
  tcase_add_test (tc, test_interlaced_chroma_per_field);
  tcase_add_test (tc, test_caps_pass_through);
  tcase_add_test (tc, test_caps_query);
  tcase_add_test (tc, test_refuses);
  tcase_add_test (tc, test_in_place);
  tcase_add_test (tc, test_in_place_pooled);
  tcase_add_test (tc, test_propose_allocation);
  tcase_add_test (tc, test_threads_identical);
  tcase_add_test (tc, test_metadata_pass_through);
  tcase_add_test (tc, test_rounding_property);
  tcase_add_test (tc, test_state_cycles);
  return s;
}

GST_CHECK_MAIN (vmi10to8);
