/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Scalar kernels: the reference the SIMD kernels must match bit for bit,
 * the fallback on CPUs and architectures without them, and the finish of
 * every SIMD row (the pixels after the last whole SIMD step). */

#include "vmiconvert-priv.h"

/* The four 10-bit samples (Cb, Y0, Cr, Y1) of pixel pair p of a row. */
static inline void
get_pair (int v210, const uint8_t * row, unsigned p, unsigned s[4])
{
  if (!v210) {
    const uint8_t *b = row + (size_t) p * 5;
    /* 40 bits, MSB first */
    uint64_t g = ((uint64_t) b[0] << 32) | ((uint32_t) b[1] << 24) |
        ((uint32_t) b[2] << 16) | ((uint32_t) b[3] << 8) | b[4];
    s[0] = (g >> 30) & 0x3ff;
    s[1] = (g >> 20) & 0x3ff;
    s[2] = (g >> 10) & 0x3ff;
    s[3] = g & 0x3ff;
  } else {
    /* sample i of a block sits in word i / 3 at bit 10 * (i % 3) */
    const uint8_t *blk = row + (size_t) (p / 3) * 16;
    unsigned i0 = (p % 3) * 4, k;

    for (k = 0; k < 4; k++) {
      unsigned i = i0 + k;
      const uint8_t *w = blk + (i / 3) * 4;
      uint32_t word = (uint32_t) w[0] | ((uint32_t) w[1] << 8) |
          ((uint32_t) w[2] << 16) | ((uint32_t) w[3] << 24);
      s[k] = (word >> (10 * (i % 3))) & 0x3ff;
    }
  }
}

static inline uint8_t
to8 (unsigned v, int nearest)
{
  if (nearest) {
    v = (v + 2) >> 2;
    return v > 255 ? 255 : v;
  }
  return v >> 2;
}

/* a and b are 10-bit samples of two lines */
static inline uint8_t
avg8 (unsigned a, unsigned b, int nearest)
{
  unsigned v = nearest ? (a + b + 4) >> 3 : (a + b) >> 3;
  return v > 255 ? 255 : v;
}

void
vmi_conv_scalar_packed (int v210, int nearest, const uint8_t * src,
    uint8_t * dst, unsigned x0, unsigned x1)
{
  unsigned p, s[4];

  for (p = x0 / 2; p < x1 / 2; p++) {
    get_pair (v210, src, p, s);
    dst[4 * p + 0] = to8 (s[0], nearest);
    dst[4 * p + 1] = to8 (s[1], nearest);
    dst[4 * p + 2] = to8 (s[2], nearest);
    dst[4 * p + 3] = to8 (s[3], nearest);
  }
}

void
vmi_conv_scalar_planar (int v210, int nearest, const uint8_t * src,
    uint8_t * y, uint8_t * u, uint8_t * v, unsigned x0, unsigned x1)
{
  unsigned p, s[4];

  for (p = x0 / 2; p < x1 / 2; p++) {
    get_pair (v210, src, p, s);
    u[p] = to8 (s[0], nearest);
    y[2 * p] = to8 (s[1], nearest);
    v[p] = to8 (s[2], nearest);
    y[2 * p + 1] = to8 (s[3], nearest);
  }
}

void
vmi_conv_scalar_pair (int v210, int nearest, int nv12, const uint8_t * a,
    const uint8_t * b, uint8_t * ya, uint8_t * yb, uint8_t * u, uint8_t * v,
    unsigned x0, unsigned x1)
{
  unsigned p, sa[4], sb[4];

  for (p = x0 / 2; p < x1 / 2; p++) {
    get_pair (v210, a, p, sa);
    get_pair (v210, b, p, sb);
    ya[2 * p] = to8 (sa[1], nearest);
    ya[2 * p + 1] = to8 (sa[3], nearest);
    yb[2 * p] = to8 (sb[1], nearest);
    yb[2 * p + 1] = to8 (sb[3], nearest);
    if (nv12) {
      u[2 * p] = avg8 (sa[0], sb[0], nearest);
      u[2 * p + 1] = avg8 (sa[2], sb[2], nearest);
    } else {
      u[p] = avg8 (sa[0], sb[0], nearest);
      v[p] = avg8 (sa[2], sb[2], nearest);
    }
  }
}

#define PACKED(name, V210, NEAREST)                                     \
static void name (const uint8_t * src, uint8_t * dst, unsigned w)       \
{ vmi_conv_scalar_packed (V210, NEAREST, src, dst, 0, w); }
#define PLANAR(name, V210, NEAREST)                                     \
static void name (const uint8_t * src, uint8_t * y, uint8_t * u,        \
    uint8_t * v, unsigned w)                                            \
{ vmi_conv_scalar_planar (V210, NEAREST, src, y, u, v, 0, w); }
#define PAIR(name, V210, NEAREST, NV12)                                 \
static void name (const uint8_t * a, const uint8_t * b, uint8_t * ya,   \
    uint8_t * yb, uint8_t * u, uint8_t * v, unsigned w)                 \
{ vmi_conv_scalar_pair (V210, NEAREST, NV12, a, b, ya, yb, u, v, 0, w); }

PACKED (uyvp_uyvy_t, 0, 0)
PACKED (uyvp_uyvy_n, 0, 1)
PACKED (v210_uyvy_t, 1, 0)
PACKED (v210_uyvy_n, 1, 1)
PLANAR (uyvp_y42b_t, 0, 0)
PLANAR (uyvp_y42b_n, 0, 1)
PLANAR (v210_y42b_t, 1, 0)
PLANAR (v210_y42b_n, 1, 1)
PAIR (uyvp_i420_t, 0, 0, 0)
PAIR (uyvp_i420_n, 0, 1, 0)
PAIR (v210_i420_t, 1, 0, 0)
PAIR (v210_i420_n, 1, 1, 0)
PAIR (uyvp_nv12_t, 0, 0, 1)
PAIR (uyvp_nv12_n, 0, 1, 1)
PAIR (v210_nv12_t, 1, 0, 1)
PAIR (v210_nv12_n, 1, 1, 1)

const VmiConvKernels vmi_conv_kernels_scalar = {
  .uyvy = {{uyvp_uyvy_t, uyvp_uyvy_n}, {v210_uyvy_t, v210_uyvy_n}},
  .y42b = {{uyvp_y42b_t, uyvp_y42b_n}, {v210_y42b_t, v210_y42b_n}},
  .i420 = {{uyvp_i420_t, uyvp_i420_n}, {v210_i420_t, v210_i420_n}},
  .nv12 = {{uyvp_nv12_t, uyvp_nv12_n}, {v210_nv12_t, v210_nv12_n}},
};
