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

#include "vmi-convert-priv.h"

#define INLINE static inline __attribute__ ((always_inline))

/* The four 10-bit samples (Cb, Y0, Cr, Y1) of UYVP pixel pair p: 40 bits,
 * MSB first. */
INLINE void
get_uyvp_pair (const uint8_t * row, unsigned p, unsigned s[4])
{
  const uint8_t *b = row + (size_t) p * 5;

  s[0] = ((unsigned) b[0] << 2) | (b[1] >> 6);
  s[1] = ((unsigned) (b[1] & 0x3f) << 4) | (b[2] >> 4);
  s[2] = ((unsigned) (b[2] & 0x0f) << 6) | (b[3] >> 2);
  s[3] = ((unsigned) (b[3] & 0x03) << 8) | b[4];
}

/* The twelve samples of v210 block b, in UYVY order: sample i sits in
 * little-endian word i / 3 at bit 10 * (i % 3). */
INLINE void
get_v210_block (const uint8_t * row, unsigned b, unsigned s[12])
{
  const uint8_t *w = row + (size_t) b * 16;
  unsigned j;

  for (j = 0; j < 4; j++) {
    uint32_t word = (uint32_t) w[4 * j] | ((uint32_t) w[4 * j + 1] << 8) |
        ((uint32_t) w[4 * j + 2] << 16) | ((uint32_t) w[4 * j + 3] << 24);
    s[3 * j] = word & 0x3ff;
    s[3 * j + 1] = (word >> 10) & 0x3ff;
    s[3 * j + 2] = (word >> 20) & 0x3ff;
  }
}

INLINE uint8_t
to8 (unsigned v, const int nearest)
{
  if (nearest) {
    v = (v + 2) >> 2;
    return v > 255 ? 255 : v;
  }
  return v >> 2;
}

/* a and b are 10-bit samples of two lines */
INLINE uint8_t
avg8 (unsigned a, unsigned b, const int nearest)
{
  unsigned v = nearest ? (a + b + 4) >> 3 : (a + b) >> 3;
  return v > 255 ? 255 : v;
}

/* Calls EMIT (p, s) for every pixel pair p in [x0 / 2, x1 / 2) of a row,
 * s pointing at its 4 samples. All samples of a pair (v210: of a block) are
 * read before the pair is written, which keeps in-place conversion safe. */
#define FOR_EACH_PAIR(v210, row, x0, x1, EMIT) do {             \
    unsigned p_ = (x0) / 2, end_ = (x1) / 2;                              \
    if (!(v210)) {                                                        \
      unsigned s_[4];                                                     \
      for (; p_ < end_; p_++) {                                           \
        get_uyvp_pair ((row), p_, s_);                                    \
        EMIT (p_, s_);                                                    \
      }                                                                   \
    } else {                                                              \
      unsigned s_[12], q_;                                                \
      while (p_ < end_) {                                                 \
        get_v210_block ((row), p_ / 3, s_);                               \
        for (q_ = p_ % 3; q_ < 3 && p_ < end_; q_++, p_++)                \
          EMIT (p_, s_ + 4 * q_);                                         \
      }                                                                   \
    }                                                                     \
  } while (0)

INLINE void
packed_impl (const int v210, const int nearest, const uint8_t * src,
    uint8_t * dst, unsigned x0, unsigned x1)
{
#define EMIT_PACKED(p, s) do {                                          \
    dst[4 * (p) + 0] = to8 ((s)[0], nearest);                           \
    dst[4 * (p) + 1] = to8 ((s)[1], nearest);                           \
    dst[4 * (p) + 2] = to8 ((s)[2], nearest);                           \
    dst[4 * (p) + 3] = to8 ((s)[3], nearest);                           \
  } while (0)
  FOR_EACH_PAIR (v210, src, x0, x1, EMIT_PACKED);
#undef EMIT_PACKED
}

INLINE void
planar_impl (const int v210, const int nearest, const uint8_t * src,
    uint8_t * y, uint8_t * u, uint8_t * v, unsigned x0, unsigned x1)
{
#define EMIT_PLANAR(p, s) do {                                          \
    u[(p)] = to8 ((s)[0], nearest);                                     \
    y[2 * (p)] = to8 ((s)[1], nearest);                                 \
    v[(p)] = to8 ((s)[2], nearest);                                     \
    y[2 * (p) + 1] = to8 ((s)[3], nearest);                             \
  } while (0)
  FOR_EACH_PAIR (v210, src, x0, x1, EMIT_PLANAR);
#undef EMIT_PLANAR
}

/* luma of both lines, then the chroma of the pair of lines, in chunks of
 * 64 pixel pairs whose 11-bit chroma sums wait on the stack */
INLINE void
pair_impl (const int v210, const int nearest, const int nv12,
    const uint8_t * a, const uint8_t * b, uint8_t * ya, uint8_t * yb,
    uint8_t * u, uint8_t * v, unsigned x0, unsigned x1)
{
  unsigned csum[128];
  unsigned c0;

  for (c0 = x0; c0 < x1; c0 += 128) {
    const unsigned c1 = x1 - c0 > 128 ? c0 + 128 : x1, base = c0 / 2;
    unsigned k;

#define EMIT_A(p, s) do {                                               \
    ya[2 * (p)] = to8 ((s)[1], nearest);                                \
    ya[2 * (p) + 1] = to8 ((s)[3], nearest);                            \
    csum[2 * ((p) - base)] = (s)[0];                                    \
    csum[2 * ((p) - base) + 1] = (s)[2];                                \
  } while (0)
#define EMIT_B(p, s) do {                                               \
    yb[2 * (p)] = to8 ((s)[1], nearest);                                \
    yb[2 * (p) + 1] = to8 ((s)[3], nearest);                            \
    csum[2 * ((p) - base)] += (s)[0];                                   \
    csum[2 * ((p) - base) + 1] += (s)[2];                               \
  } while (0)
    FOR_EACH_PAIR (v210, a, c0, c1, EMIT_A);
    FOR_EACH_PAIR (v210, b, c0, c1, EMIT_B);
#undef EMIT_A
#undef EMIT_B
    for (k = 0; k < (c1 - c0) / 2; k++) {
      const unsigned p = base + k;
      if (nv12) {
        u[2 * p] = avg8 (csum[2 * k], 0, nearest);
        u[2 * p + 1] = avg8 (csum[2 * k + 1], 0, nearest);
      } else {
        u[p] = avg8 (csum[2 * k], 0, nearest);
        v[p] = avg8 (csum[2 * k + 1], 0, nearest);
      }
    }
  }
}

/* The entry points for the SIMD kernels' row ends: runtime flags to
 * constant ones, so each combination compiles to its own straight loop. */
#define DISPATCH2(v210, nearest, CALL) do {                             \
    if (v210) {                                                         \
      if (nearest) CALL (1, 1); else CALL (1, 0);                       \
    } else {                                                            \
      if (nearest) CALL (0, 1); else CALL (0, 0);                       \
    }                                                                   \
  } while (0)

void
vmi_conv_scalar_packed (int v210, int nearest, const uint8_t * src,
    uint8_t * dst, unsigned x0, unsigned x1)
{
#define CALL(V, N) packed_impl (V, N, src, dst, x0, x1)
  DISPATCH2 (v210, nearest, CALL);
#undef CALL
}

void
vmi_conv_scalar_planar (int v210, int nearest, const uint8_t * src,
    uint8_t * y, uint8_t * u, uint8_t * v, unsigned x0, unsigned x1)
{
#define CALL(V, N) planar_impl (V, N, src, y, u, v, x0, x1)
  DISPATCH2 (v210, nearest, CALL);
#undef CALL
}

void
vmi_conv_scalar_pair (int v210, int nearest, int nv12, const uint8_t * a,
    const uint8_t * b, uint8_t * ya, uint8_t * yb, uint8_t * u, uint8_t * v,
    unsigned x0, unsigned x1)
{
#define CALL(V, N) do {                                                 \
    if (nv12) pair_impl (V, N, 1, a, b, ya, yb, u, v, x0, x1);          \
    else pair_impl (V, N, 0, a, b, ya, yb, u, v, x0, x1);               \
  } while (0)
  DISPATCH2 (v210, nearest, CALL);
#undef CALL
}

/* the kernels: whole rows */
#define row_packed(V210, NEAREST, src, dst, w) \
  packed_impl (V210, NEAREST, src, dst, 0, w)
#define row_planar(V210, NEAREST, src, y, u, v, w) \
  planar_impl (V210, NEAREST, src, y, u, v, 0, w)
#define row_pair(V210, NEAREST, NV12, a, b, ya, yb, u, v, w) \
  pair_impl (V210, NEAREST, NV12, a, b, ya, yb, u, v, 0, w)
VMI_CONV_KERNELS_DEFINE (vmi_conv_kernels_scalar)
