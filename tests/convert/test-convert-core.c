/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Unit tests of the convert core (gst/convert/vmi-convert.h), bit-exact
 * against two references that share no code with it:
 *
 * 1. the 10-bit samples themselves: the test draws random samples, packs
 *    them into UYVP/v210 with its own packers (written from the layouts:
 *    UYVP = Cb Y0 Cr Y1 10-bit MSB first, 5 bytes per 2 pixels; v210 =
 *    little-endian words of three 10-bit samples, 16 bytes per 6 pixels),
 *    and computes every expected 8-bit value from the samples;
 * 2. GStreamer's own unpack (GstVideoFormatInfo.unpack to AYUV64) of the
 *    same rows, which must give back the same samples.
 *
 * Every implementation this CPU runs (scalar, SSSE3, AVX2) is forced in turn
 * through vmi_conv_job_prepare()'s impl argument. */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmi-convert.h"
#include "convert-test-util.h"

static const VmiConvImpl impls[] = {
  VMI_CONV_IMPL_SCALAR, VMI_CONV_IMPL_SSSE3, VMI_CONV_IMPL_AVX2
};

static const VmiConvFormat out_formats[] = {
  VMI_CONV_FORMAT_UYVY, VMI_CONV_FORMAT_Y42B, VMI_CONV_FORMAT_I420,
  VMI_CONV_FORMAT_NV12
};

/* widths the formats allow (even), chosen to hit every SIMD step and tail:
 * 1 pixel pair, less than a v210 block, the step sizes and their
 * neighbours, SD, HD, HD +- a pair */
static const unsigned widths[] = {
  2, 4, 6, 8, 14, 16, 30, 32, 34, 46, 48, 50, 62, 64, 66, 94, 96, 98, 142,
  720, 1280, 1918, 1920, 1922
};

#define GUARD 0xa5
#define PAD 37                  /* bytes of padding after every row */

/* padding used by image_alloc(): PAD, or 0 for rows packed back to back
 * (the core then runs a whole plane as one long row: another code path) */
static unsigned image_pad = PAD;

/* ---- images with padded rows and guard bytes ----------------------------- */

typedef struct
{
  VmiConvImage img;
  guint8 *mem[3];
  gsize size[3];
  gsize used[3];                /* bytes per row that are image */
  unsigned rows[3];
} TestImage;

static void
image_alloc (TestImage * t, VmiConvFormat f, unsigned w, unsigned h)
{
  unsigned p, n = 1;
  gsize rb[3] = { 0, };
  unsigned rows[3] = { h, h, h };

  memset (t, 0, sizeof (*t));
  t->img.format = f;
  switch (f) {
    case VMI_CONV_FORMAT_UYVP:
    case VMI_CONV_FORMAT_V210:
      rb[0] = row_bytes (f, w);
      break;
    case VMI_CONV_FORMAT_UYVY:
      rb[0] = 2 * w;
      break;
    case VMI_CONV_FORMAT_Y42B:
      n = 3;
      rb[0] = w;
      rb[1] = rb[2] = w / 2;
      break;
    case VMI_CONV_FORMAT_I420:
      n = 3;
      rb[0] = w;
      rb[1] = rb[2] = w / 2;
      rows[1] = rows[2] = (h + 1) / 2;
      break;
    case VMI_CONV_FORMAT_NV12:
      n = 2;
      rb[0] = w;
      rb[1] = w;
      rows[1] = (h + 1) / 2;
      break;
  }
  for (p = 0; p < n; p++) {
    t->img.stride[p] = rb[p] + (image_pad ? image_pad + p : 0);
    t->used[p] = rb[p];
    t->rows[p] = rows[p];
    t->size[p] = t->img.stride[p] * rows[p];
    t->mem[p] = g_malloc (t->size[p]);
    memset (t->mem[p], GUARD, t->size[p]);
    t->img.data[p] = t->mem[p];
  }
}

static void
image_free (TestImage * t)
{
  unsigned p;
  for (p = 0; p < 3; p++)
    g_free (t->mem[p]);
}

/* the padding after every row is still the guard pattern */
static void
check_guards (const TestImage * t, const char *what)
{
  unsigned p, r;
  gsize i;

  for (p = 0; p < 3 && t->mem[p]; p++)
    for (r = 0; r < t->rows[p]; r++)
      for (i = t->used[p]; i < (gsize) t->img.stride[p]; i++)
        if (t->mem[p][r * t->img.stride[p] + i] != GUARD)
          fail ("%s: plane %u row %u byte %" G_GSIZE_FORMAT
              " past the row was written", what, p, r, i);
}

static const char *
fmt_name (VmiConvFormat f)
{
  static const char *names[] = { "UYVP", "v210", "UYVY", "Y42B", "I420",
    "NV12"
  };
  return names[f];
}

static void
fill_source (TestImage * in, const Samples * s, GRand * rand)
{
  unsigned r;
  for (r = 0; r < s->h; r++)
    pack_row (in->img.format, s, r, in->img.data[0] + r * in->img.stride[0],
        rand);
}

static int
run (TestImage * in, TestImage * out, unsigned w, unsigned h,
    gboolean nearest, gboolean interlaced, VmiConvImpl impl,
    VmiWorkers * workers)
{
  VmiConvJob job = { 0, };

  job.width = w;
  job.height = h;
  job.rounding = nearest ? VMI_CONV_ROUND_NEAREST : VMI_CONV_ROUND_TRUNCATE;
  job.interlaced = interlaced;
  job.src = in->img;
  job.dst = out->img;
  if (vmi_conv_job_prepare (&job, impl) != 0)
    return -1;
  vmi_conv_job_run_parallel (&job, workers);
  return 0;
}

/* ---- tests --------------------------------------------------------------- */

GST_START_TEST (test_gst_unpack_agrees)
{
  /* the test's packers and GStreamer read the same samples back: the
   * layouts of reference 1 are GStreamer's */
  static const VmiConvFormat ins[] = { VMI_CONV_FORMAT_UYVP,
    VMI_CONV_FORMAT_V210
  };
  GRand *rand = g_rand_new_with_seed (1);
  guint i, wi;

  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    const GstVideoFormatInfo *finfo = gst_video_format_get_info (ins[i] ==
        VMI_CONV_FORMAT_UYVP ? GST_VIDEO_FORMAT_UYVP : GST_VIDEO_FORMAT_v210);
    for (wi = 0; wi < G_N_ELEMENTS (widths); wi++) {
      unsigned w = widths[wi], h = 3, r, x;
      Samples s;
      TestImage in;
      guint16 *ayuv = g_new (guint16, 4 * (w + 6));

      samples_init (&s, w, h, rand);
      image_alloc (&in, ins[i], w, h);
      fill_source (&in, &s, rand);
      for (r = 0; r < h; r++) {
        gpointer data[GST_VIDEO_MAX_PLANES] = { in.img.data[0], };
        gint stride[GST_VIDEO_MAX_PLANES] = { (gint) in.img.stride[0], };
        finfo->unpack_func (finfo, GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE, ayuv,
            (const gpointer *) data, stride, 0, r, w);
        for (x = 0; x < w; x++) {
          CHECK_EQ (ayuv[4 * x + 1] >> 6, s.y[r * w + x], "Y %u,%u", g_, w_, x, r);
          CHECK_EQ (ayuv[4 * x + 2] >> 6, s.cb[r * (w / 2) + x / 2],
              "Cb %u,%u", g_, w_, x, r);
          CHECK_EQ (ayuv[4 * x + 3] >> 6, s.cr[r * (w / 2) + x / 2],
              "Cr %u,%u", g_, w_, x, r);
        }
      }
      g_free (ayuv);
      image_free (&in);
      samples_clear (&s);
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* Every input/output pair, both roundings, every implementation, padded
 * strides, odd heights; interlaced and progressive 4:2:0. */
static void
check_all (VmiConvFormat in_fmt, const unsigned *heights, guint n_heights)
{
  GRand *rand = g_rand_new_with_seed (in_fmt + 7);
  guint wi, hi, oi, ii, nearest, il;

  for (wi = 0; wi < G_N_ELEMENTS (widths); wi++) {
    for (hi = 0; hi < n_heights; hi++) {
      unsigned w = widths[wi], h = heights[hi];
      Samples s;
      TestImage in;

      /* a 1080-line frame only at a few widths, to keep the test short */
      if (h > 100 && w != 1920 && w != 1918)
        continue;
      samples_init (&s, w, h, rand);
      image_alloc (&in, in_fmt, w, h);
      fill_source (&in, &s, rand);
      for (oi = 0; oi < G_N_ELEMENTS (out_formats); oi++) {
        gboolean is420 = out_formats[oi] == VMI_CONV_FORMAT_I420 ||
            out_formats[oi] == VMI_CONV_FORMAT_NV12;
        for (il = 0; il <= (guint) is420; il++) {
          for (nearest = 0; nearest < 2; nearest++) {
            for (ii = 0; ii < G_N_ELEMENTS (impls); ii++) {
              TestImage out;
              gchar *what;

              if (!vmi_conv_impl_supported (impls[ii]))
                continue;
              image_alloc (&out, out_formats[oi], w, h);
              what = g_strdup_printf ("%s->%s %ux%u %s %s %s",
                  fmt_name (in_fmt), fmt_name (out_formats[oi]), w, h,
                  nearest ? "nearest" : "truncate",
                  il ? "interlaced" : "progressive",
                  vmi_conv_impl_name (impls[ii]));
              fail_unless (run (&in, &out, w, h, nearest, il, impls[ii],
                      NULL) == 0, "%s: refused", what);
              check_output (&s, &out.img, nearest, il, what);
              check_guards (&out, what);
              g_free (what);
              image_free (&out);
            }
          }
        }
      }
      image_free (&in);
      samples_clear (&s);
    }
  }
  g_rand_free (rand);
}

static const unsigned heights[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1080 };

GST_START_TEST (test_uyvp_exact)
{
  check_all (VMI_CONV_FORMAT_UYVP, heights, G_N_ELEMENTS (heights));
}

GST_END_TEST;

GST_START_TEST (test_v210_exact)
{
  check_all (VMI_CONV_FORMAT_V210, heights, G_N_ELEMENTS (heights));
}

GST_END_TEST;

/* Rows back to back in both images (stride = row bytes, as GStreamer lays
 * out UYVY): the core merges the rows of a plane into one long row, so the
 * row-end handling of the SIMD kernels is exercised at plane ends only. */
GST_START_TEST (test_contiguous_rows_exact)
{
  static const unsigned hs[] = { 1, 2, 7, 1080 };

  image_pad = 0;
  check_all (VMI_CONV_FORMAT_UYVP, hs, G_N_ELEMENTS (hs));
  check_all (VMI_CONV_FORMAT_V210, hs, G_N_ELEMENTS (hs));
  image_pad = PAD;
}

GST_END_TEST;

/* The expected values of reference 2: the 8-bit output computed from
 * GStreamer's unpack of the rows, for the formats GStreamer also holds the
 * 4:2:2 layout of (UYVY, Y42B), at 1080 lines. */
GST_START_TEST (test_against_gst_unpack)
{
  static const VmiConvFormat ins[] = { VMI_CONV_FORMAT_UYVP,
    VMI_CONV_FORMAT_V210
  };
  GRand *rand = g_rand_new_with_seed (99);
  guint i, ii, nearest;
  const unsigned w = 1918, h = 1080;

  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    const GstVideoFormatInfo *finfo = gst_video_format_get_info (ins[i] ==
        VMI_CONV_FORMAT_UYVP ? GST_VIDEO_FORMAT_UYVP : GST_VIDEO_FORMAT_v210);
    Samples s;
    TestImage in;
    guint16 *ayuv = g_new (guint16, 4 * (w + 6));

    samples_init (&s, w, h, rand);
    image_alloc (&in, ins[i], w, h);
    fill_source (&in, &s, rand);
    for (nearest = 0; nearest < 2; nearest++) {
      for (ii = 0; ii < G_N_ELEMENTS (impls); ii++) {
        TestImage out;
        unsigned r, x;

        if (!vmi_conv_impl_supported (impls[ii]))
          continue;
        image_alloc (&out, VMI_CONV_FORMAT_UYVY, w, h);
        fail_unless (run (&in, &out, w, h, nearest, FALSE, impls[ii],
                NULL) == 0);
        for (r = 0; r < h; r++) {
          gpointer data[GST_VIDEO_MAX_PLANES] = { in.img.data[0], };
          gint stride[GST_VIDEO_MAX_PLANES] = { (gint) in.img.stride[0], };
          const guint8 *o = out.img.data[0] + r * out.img.stride[0];
          finfo->unpack_func (finfo, 0, ayuv, (const gpointer *) data, stride, 0,
              r, w);
          for (x = 0; x < w; x += 2) {
            /* AYUV64 holds v << 6 | v >> 4: v is its top 10 bits */
            CHECK_EQ (o[2 * x], exp8 (ayuv[4 * x + 2] >> 6, nearest),
                "Cb %u,%u", g_, w_, x, r);
            CHECK_EQ (o[2 * x + 1], exp8 (ayuv[4 * x + 1] >> 6, nearest),
                "Y0 %u,%u", g_, w_, x, r);
            CHECK_EQ (o[2 * x + 2], exp8 (ayuv[4 * x + 3] >> 6, nearest),
                "Cr %u,%u", g_, w_, x, r);
            CHECK_EQ (o[2 * x + 3], exp8 (ayuv[4 * (x + 1) + 1] >> 6,
                    nearest), "Y1 %u,%u", g_, w_, x, r);
          }
        }
        image_free (&out);
      }
    }
    g_free (ayuv);
    image_free (&in);
    samples_clear (&s);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* SIMD against scalar on random bytes (any bit pattern, v210's unused bits
 * included), every output, both roundings, interlaced and not. */
GST_START_TEST (test_simd_matches_scalar)
{
  static const VmiConvFormat ins[] = { VMI_CONV_FORMAT_UYVP,
    VMI_CONV_FORMAT_V210
  };
  static const unsigned ws[] = { 1920, 1918, 1922, 1280, 720, 98 };
  GRand *rand = g_rand_new_with_seed (5);
  guint i, wi, oi, ii, nearest, il, p;
  gboolean any = FALSE;
  const unsigned h = 9;

  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    for (wi = 0; wi < G_N_ELEMENTS (ws); wi++) {
      unsigned w = ws[wi];
      TestImage in;
      gsize k;

      image_alloc (&in, ins[i], w, h);
      for (k = 0; k < in.size[0]; k++)
        in.mem[0][k] = g_rand_int (rand);
      for (oi = 0; oi < G_N_ELEMENTS (out_formats); oi++) {
        for (il = 0; il < 2; il++) {
          for (nearest = 0; nearest < 2; nearest++) {
            TestImage ref;
            image_alloc (&ref, out_formats[oi], w, h);
            fail_unless (run (&in, &ref, w, h, nearest, il,
                    VMI_CONV_IMPL_SCALAR, NULL) == 0);
            for (ii = 1; ii < G_N_ELEMENTS (impls); ii++) {
              TestImage out;
              if (!vmi_conv_impl_supported (impls[ii]))
                continue;
              any = TRUE;
              image_alloc (&out, out_formats[oi], w, h);
              fail_unless (run (&in, &out, w, h, nearest, il, impls[ii],
                      NULL) == 0);
              for (p = 0; p < 3; p++)
                if (out.mem[p] && memcmp (out.mem[p], ref.mem[p],
                        out.size[p]) != 0)
                  fail ("%s %s->%s w=%u %s %s: plane %u differs from scalar",
                      vmi_conv_impl_name (impls[ii]), fmt_name (ins[i]),
                      fmt_name (out_formats[oi]), w, nearest ? "nearest" :
                      "truncate", il ? "interlaced" : "progressive", p);
              image_free (&out);
            }
            image_free (&ref);
          }
        }
      }
      image_free (&in);
    }
  }
  if (!any)
    GST_INFO ("no SIMD implementation on this CPU/build: scalar only");
  g_rand_free (rand);
}

GST_END_TEST;

/* Rows packed back to back, the frame's last byte the last before a page
 * that faults: no kernel may read past a row's data. */
GST_START_TEST (test_no_over_read)
{
  static const VmiConvFormat ins[] = { VMI_CONV_FORMAT_UYVP,
    VMI_CONV_FORMAT_V210
  };
  static const unsigned ws[] = { 2, 6, 14, 30, 46, 62, 94, 98, 142, 1918 };
  const long page = sysconf (_SC_PAGESIZE);
  GRand *rand = g_rand_new_with_seed (11);
  guint i, wi, oi, ii;
  const unsigned h = 3;

  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    for (wi = 0; wi < G_N_ELEMENTS (ws); wi++) {
      unsigned w = ws[wi];
      gsize rb = row_bytes (ins[i], w), len = rb * h;
      gsize map_len = (len + page - 1) / page * page + page;
      guint8 *map = mmap (NULL, map_len, PROT_READ | PROT_WRITE,
          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      guint8 *guard_page, *src;
      VmiConvImage img = { ins[i], {NULL,}, {0,} };
      gsize k;

      fail_unless (map != MAP_FAILED);
      guard_page = map + map_len - page;
      fail_unless (mprotect (guard_page, page, PROT_NONE) == 0);
      src = guard_page - len;
      for (k = 0; k < len; k++)
        src[k] = g_rand_int (rand);
      img.data[0] = src;
      img.stride[0] = rb;
      for (oi = 0; oi < G_N_ELEMENTS (out_formats); oi++) {
        for (ii = 0; ii < G_N_ELEMENTS (impls); ii++) {
          TestImage in = { img, }, out;
          if (!vmi_conv_impl_supported (impls[ii]))
            continue;
          image_alloc (&out, out_formats[oi], w, h);
          fail_unless (run (&in, &out, w, h, TRUE, TRUE, impls[ii],
                  NULL) == 0);
          image_free (&out);
        }
      }
      munmap (map, map_len);
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* UYVP/v210 -> UYVY written over the input: with the input's stride (rows
 * in parallel) and with the packed UYVY stride (rows in order). */
GST_START_TEST (test_in_place)
{
  static const VmiConvFormat ins[] = { VMI_CONV_FORMAT_UYVP,
    VMI_CONV_FORMAT_V210
  };
  GRand *rand = g_rand_new_with_seed (3);
  VmiWorkers *workers = vmi_workers_new (2);
  guint i, wi, ii, nearest, compact;
  const unsigned h = 7;

  fail_unless (vmi_conv_in_place_possible (VMI_CONV_FORMAT_UYVP,
          VMI_CONV_FORMAT_UYVY));
  fail_unless (vmi_conv_in_place_possible (VMI_CONV_FORMAT_V210,
          VMI_CONV_FORMAT_UYVY));
  fail_if (vmi_conv_in_place_possible (VMI_CONV_FORMAT_UYVP,
          VMI_CONV_FORMAT_Y42B));
  fail_if (vmi_conv_in_place_possible (VMI_CONV_FORMAT_V210,
          VMI_CONV_FORMAT_I420));

  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    for (wi = 0; wi < G_N_ELEMENTS (widths); wi++) {
      unsigned w = widths[wi];
      Samples s;
      samples_init (&s, w, h, rand);
      /* 0: same rows; 1: packed rows from the same start; 2: packed rows
       * from 64 bytes before the input (a GstVideoMeta offset) */
      for (compact = 0; compact < 3; compact++) {
        for (nearest = 0; nearest < 2; nearest++) {
          for (ii = 0; ii < G_N_ELEMENTS (impls); ii++) {
            TestImage in, out;
            VmiConvJob job = { 0, };
            gchar *what;

            if (!vmi_conv_impl_supported (impls[ii]))
              continue;
            image_alloc (&in, ins[i], w, h);
            if (compact == 2) {
              guint8 *mem = g_malloc (in.size[0] + 64);
              g_free (in.mem[0]);
              in.mem[0] = mem;
              in.img.data[0] = mem + 64;
            }
            fill_source (&in, &s, rand);
            /* the output image is the input's memory */
            memset (&out, 0, sizeof (out));
            out.img.format = VMI_CONV_FORMAT_UYVY;
            out.img.data[0] = in.mem[0];
            out.img.stride[0] = compact ? 2 * w : in.img.stride[0];
            out.rows[0] = h;
            job.width = w;
            job.height = h;
            job.rounding = nearest;
            job.src = in.img;
            job.dst = out.img;
            fail_unless (vmi_conv_job_prepare (&job, impls[ii]) == 0);
            /* (moved rows of a tiny frame may not overlap at all) */
            if (compact < 2)
              fail_unless_equals_int (vmi_conv_in_place_parallel_ok (&job),
                  !compact);
            vmi_conv_job_run_parallel (&job,
                vmi_conv_in_place_parallel_ok (&job) ? workers : NULL);
            what = g_strdup_printf ("in place %s->UYVY %u %s %s %s",
                fmt_name (ins[i]), w, compact == 2 ? "packed, moved" :
                compact ? "packed" : "same stride",
                nearest ? "nearest" : "truncate",
                vmi_conv_impl_name (impls[ii]));
            check_output (&s, &out.img, nearest, FALSE, what);
            g_free (what);
            image_free (&in);
          }
        }
      }
      samples_clear (&s);
    }
  }
  vmi_workers_free (workers);
  g_rand_free (rand);
}

GST_END_TEST;

/* 1, 2 and 3 threads give the same frame, and the pool is reused. */
GST_START_TEST (test_threads_identical)
{
  GRand *rand = g_rand_new_with_seed (21);
  VmiWorkers *w1 = vmi_workers_new (1), *w2 = vmi_workers_new (2),
      *w3 = vmi_workers_new (3), *wauto = vmi_workers_new (0);
  guint oi, il, rep, p;
  const unsigned w = 1920, h = 1080;
  TestImage in;
  gsize k;

  fail_unless_equals_int (vmi_workers_n_threads (w1), 1);
  fail_unless_equals_int (vmi_workers_n_threads (w2), 2);
  fail_unless_equals_int (vmi_workers_n_threads (w3), 3);
  fail_unless_equals_int (vmi_workers_n_threads (wauto),
      sysconf (_SC_NPROCESSORS_ONLN));

  image_alloc (&in, VMI_CONV_FORMAT_UYVP, w, h);
  for (k = 0; k < in.size[0]; k++)
    in.mem[0][k] = g_rand_int (rand);
  for (oi = 0; oi < G_N_ELEMENTS (out_formats); oi++) {
    for (il = 0; il < 2; il++) {
      TestImage a, b, c;
      image_alloc (&a, out_formats[oi], w, h);
      image_alloc (&b, out_formats[oi], w, h);
      image_alloc (&c, out_formats[oi], w, h);
      fail_unless (run (&in, &a, w, h, FALSE, il, VMI_CONV_IMPL_AUTO,
              w1) == 0);
      for (rep = 0; rep < 3; rep++) {
        fail_unless (run (&in, &b, w, h, FALSE, il, VMI_CONV_IMPL_AUTO,
                w2) == 0);
        fail_unless (run (&in, &c, w, h, FALSE, il, VMI_CONV_IMPL_AUTO,
                w3) == 0);
        for (p = 0; p < 3; p++) {
          if (!a.mem[p])
            continue;
          fail_unless (memcmp (a.mem[p], b.mem[p], a.size[p]) == 0);
          fail_unless (memcmp (a.mem[p], c.mem[p], a.size[p]) == 0);
        }
      }
      image_free (&a);
      image_free (&b);
      image_free (&c);
    }
  }
  image_free (&in);
  vmi_workers_free (w1);
  vmi_workers_free (w2);
  vmi_workers_free (w3);
  vmi_workers_free (wauto);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_prepare_refuses)
{
  guint8 buf[64] = { 0, };
  VmiConvJob job = { 0, };

  job.width = 4;
  job.height = 2;
  job.src.format = VMI_CONV_FORMAT_UYVP;
  job.src.data[0] = buf;
  job.src.stride[0] = 16;
  job.dst.format = VMI_CONV_FORMAT_UYVY;
  job.dst.data[0] = buf;
  job.dst.stride[0] = 16;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO), 0);
  fail_unless_equals_int (job.impl, vmi_conv_impl_best ());

  job.width = 3;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO), -1);
  job.width = 0;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO), -1);
  job.width = 4;
  job.height = 0;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO), -1);
  job.height = 2;
  job.dst.format = VMI_CONV_FORMAT_V210;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO), -1);
  job.dst.format = VMI_CONV_FORMAT_UYVY;
  job.src.format = VMI_CONV_FORMAT_I420;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO), -1);
  job.src.format = VMI_CONV_FORMAT_V210;
  job.rounding = 7;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO), -1);
  job.rounding = VMI_CONV_ROUND_NEAREST;
  fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_SCALAR),
      0);
  /* an implementation the CPU lacks is refused, not run */
  if (!vmi_conv_impl_supported (VMI_CONV_IMPL_AVX2))
    fail_unless_equals_int (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AVX2),
        -1);
  /* the per-implementation loops skip what this CPU lacks: say so */
  {
    static const VmiConvImpl all[] = { VMI_CONV_IMPL_SCALAR,
      VMI_CONV_IMPL_SSSE3, VMI_CONV_IMPL_AVX2
    };
    guint i;
    for (i = 0; i < G_N_ELEMENTS (all); i++)
      if (!vmi_conv_impl_supported (all[i]))
        g_print ("SKIP %s kernels: not supported by this CPU or build\n",
            vmi_conv_impl_name (all[i]));
    g_print ("convert-core: best implementation here: %s\n",
        vmi_conv_impl_name (vmi_conv_impl_best ()));
  }
}

GST_END_TEST;

static Suite *
convert_core_suite (void)
{
  Suite *s = suite_create ("convert-core");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_gst_unpack_agrees);
  tcase_add_test (tc, test_uyvp_exact);
  tcase_add_test (tc, test_v210_exact);
  tcase_add_test (tc, test_contiguous_rows_exact);
  tcase_add_test (tc, test_against_gst_unpack);
  tcase_add_test (tc, test_simd_matches_scalar);
  tcase_add_test (tc, test_no_over_read);
  tcase_add_test (tc, test_in_place);
  tcase_add_test (tc, test_threads_identical);
  tcase_add_test (tc, test_prepare_refuses);
  return s;
}

GST_CHECK_MAIN (convert_core);
