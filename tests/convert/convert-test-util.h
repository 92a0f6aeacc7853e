/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The convert tests' own model of 10-bit 4:2:2 frames: random samples,
 * packers written from the bit layouts (independent of gst/convert), and
 * the expected 8-bit values. Shared by the core and the element tests. */

#ifndef __CONVERT_TEST_UTIL_H__
#define __CONVERT_TEST_UTIL_H__

#include <gst/check/gstcheck.h>

#include "vmi-convert.h"

/* ---- the test's own model of a 10-bit 4:2:2 frame ------------------------ */

typedef struct
{
  unsigned w, h;
  guint16 *cb, *y, *cr;         /* w/2, w, w/2 samples per row */
} Samples;

static inline void
samples_init (Samples * s, unsigned w, unsigned h, GRand * rand)
{
  unsigned i;

  s->w = w;
  s->h = h;
  s->y = g_new (guint16, w * h);
  s->cb = g_new (guint16, w / 2 * h);
  s->cr = g_new (guint16, w / 2 * h);
  for (i = 0; i < w * h; i++)
    s->y[i] = g_rand_int_range (rand, 0, 1024);
  for (i = 0; i < w / 2 * h; i++) {
    s->cb[i] = g_rand_int_range (rand, 0, 1024);
    s->cr[i] = g_rand_int_range (rand, 0, 1024);
  }
  /* the rounding edges: saturation at 1022/1023, halves, zero */
  if (w >= 8) {
    static const guint16 edge[] = { 1023, 1022, 1021, 1020, 0, 1, 2, 3 };
    for (i = 0; i < 8; i++)
      s->y[i] = edge[i];
    for (i = 0; i < 4; i++) {
      s->cb[i] = edge[i];
      s->cr[i] = edge[7 - i];
    }
  }
}

static inline void
samples_clear (Samples * s)
{
  g_free (s->y);
  g_free (s->cb);
  g_free (s->cr);
}

/* sample k (0..2w-1) of row r in UYVY order: Cb0 Y0 Cr0 Y1 Cb1 Y2 ... */
static inline guint
sample_at (const Samples * s, unsigned r, unsigned k)
{
  unsigned pair = k / 4;

  switch (k % 4) {
    case 0:
      return s->cb[r * (s->w / 2) + pair];
    case 2:
      return s->cr[r * (s->w / 2) + pair];
    case 1:
      return s->y[r * s->w + 2 * pair];
    default:
      return s->y[r * s->w + 2 * pair + 1];
  }
}

static inline gsize
row_bytes (VmiConvFormat f, unsigned w)
{
  return f == VMI_CONV_FORMAT_UYVP ? (gsize) w * 5 / 2 :
      (gsize) ((w + 5) / 6) * 16;
}

/* The tests put rows at odd addresses on purpose (the converter must cope):
 * store through memcpy, which is defined there, unlike GStreamer's
 * GST_WRITE_UINT32_LE (a cast store where the CPU allows it, which UBSan
 * reports). */
static inline void
write_le32 (guint8 * dst, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (dst, &v, 4);
}

/* Packs row r into dst: a bit writer for UYVP, words for v210. Unused
 * bits (v210's top two bits of each word, the rest of a partial block) are
 * filled with junk the converter must ignore. */
static inline void
pack_row (VmiConvFormat f, const Samples * s, unsigned r, guint8 * dst,
    GRand * rand)
{
  unsigned k, n = 2 * s->w;

  if (f == VMI_CONV_FORMAT_UYVP) {
    guint64 acc = 0;
    unsigned bits = 0;
    gsize o = 0;
    for (k = 0; k < n; k++) {
      acc = (acc << 10) | sample_at (s, r, k);
      bits += 10;
      while (bits >= 8) {
        dst[o++] = (acc >> (bits - 8)) & 0xff;
        bits -= 8;
      }
    }
    fail_unless_equals_int (bits, 0);
  } else {
    unsigned words = (n + 2) / 3, j;
    for (j = 0; j < words; j++) {
      guint32 word = g_rand_int (rand) & 0xc0000000u;
      for (k = 0; k < 3; k++) {
        guint v = 3 * j + k < n ? sample_at (s, r, 3 * j + k) :
            (guint) g_rand_int_range (rand, 0, 1024);
        word |= (guint32) v << (10 * k);
      }
      write_le32 (dst + 4 * j, word);
    }
    /* the rest of a partial block */
    for (j = words; j < (unsigned) row_bytes (f, s->w) / 4; j++)
      write_le32 (dst + 4 * j, g_rand_int (rand));
  }
}

/* check's assertions record a mark point (a write to a pipe) each: in
 * per-sample loops, test first and only fail through them */
#define CHECK_EQ(got, want, ...) G_STMT_START {                           \
    guint g_ = (got), w_ = (want);                                        \
    if (G_UNLIKELY (g_ != w_))                                            \
      fail ("got %u, expected %u at " __VA_ARGS__);                       \
  } G_STMT_END

static inline guint
exp8 (guint v, gboolean nearest)
{
  return nearest ? MIN ((v + 2) >> 2, 255) : v >> 2;
}

static inline guint
exp_avg8 (guint a, guint b, gboolean nearest)
{
  return nearest ? MIN ((a + b + 4) >> 3, 255) : (a + b) >> 3;
}

/* 4:2:0 chroma row c's source lines, restated from the documented rule:
 * progressive 2c, 2c+1; interlaced the two lines of one field (c even:
 * field 1, lines 4m and 4m+2; c odd: field 2, 4m+1 and 4m+3); at the bottom
 * a missing partner is the next line (c even) or none. */
static inline void
exp_pair (unsigned h, gboolean interlaced, unsigned c, unsigned *a,
    unsigned *b)
{
  if (!interlaced) {
    *a = 2 * c;
    *b = MIN (2 * c + 1, h - 1);
    return;
  }
  *a = (c % 2) + 4 * (c / 2);
  if (*a + 2 <= h - 1)
    *b = *a + 2;
  else if (c % 2 == 0 && *a + 1 <= h - 1)
    *b = *a + 1;
  else
    *b = *a;
}

/* Compares the converted image with what the samples say. */
static inline void
check_output (const Samples * s, const VmiConvImage * im, gboolean nearest,
    gboolean interlaced, const char *what)
{
  unsigned r, x, c;

#define AT(p, row, col) (im->data[p][(gsize) (row) * im->stride[p] + (col)])
#define EXPECT(got, want, plane, row, col) G_STMT_START {                    \
    guint g_ = (got), w_ = (want);                                       \
    if (g_ != w_)                                                        \
      fail ("%s: plane %u row %u col %u: got %u, expected %u", what,     \
          (plane), (row), (col), g_, w_);                                \
  } G_STMT_END

  for (r = 0; r < s->h; r++) {
    for (x = 0; x < s->w; x++) {
      guint yv = exp8 (s->y[r * s->w + x], nearest);
      switch (im->format) {
        case VMI_CONV_FORMAT_UYVY:
          EXPECT (AT (0, r, 2 * x + 1), yv, 0, r, 2 * x + 1);
          if (x % 2 == 0) {
            EXPECT (AT (0, r, 2 * x), exp8 (s->cb[r * (s->w / 2) + x / 2],
                    nearest), 0, r, 2 * x);
            EXPECT (AT (0, r, 2 * x + 2), exp8 (s->cr[r * (s->w / 2) + x / 2],
                    nearest), 0, r, 2 * x + 2);
          }
          break;
        case VMI_CONV_FORMAT_Y42B:
          EXPECT (AT (0, r, x), yv, 0, r, x);
          if (x % 2 == 0) {
            EXPECT (AT (1, r, x / 2), exp8 (s->cb[r * (s->w / 2) + x / 2],
                    nearest), 1, r, x / 2);
            EXPECT (AT (2, r, x / 2), exp8 (s->cr[r * (s->w / 2) + x / 2],
                    nearest), 2, r, x / 2);
          }
          break;
        default:
          EXPECT (AT (0, r, x), yv, 0, r, x);
          break;
      }
    }
  }
  if (im->format == VMI_CONV_FORMAT_I420 || im->format == VMI_CONV_FORMAT_NV12) {
    for (c = 0; c < (s->h + 1) / 2; c++) {
      unsigned a, b;
      exp_pair (s->h, interlaced, c, &a, &b);
      for (x = 0; x < s->w / 2; x++) {
        guint u = exp_avg8 (s->cb[a * (s->w / 2) + x],
            s->cb[b * (s->w / 2) + x], nearest);
        guint v = exp_avg8 (s->cr[a * (s->w / 2) + x],
            s->cr[b * (s->w / 2) + x], nearest);
        if (im->format == VMI_CONV_FORMAT_I420) {
          EXPECT (AT (1, c, x), u, 1, c, x);
          EXPECT (AT (2, c, x), v, 2, c, x);
        } else {
          EXPECT (AT (1, c, 2 * x), u, 1, c, 2 * x);
          EXPECT (AT (1, c, 2 * x + 1), v, 1, c, 2 * x + 1);
        }
      }
    }
  }
#undef AT
#undef EXPECT
}

#endif /* __CONVERT_TEST_UTIL_H__ */
