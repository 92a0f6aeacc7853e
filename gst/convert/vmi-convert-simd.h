/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The SIMD kernels, written once and compiled twice: by
 * vmi-convert-ssse3.c (-mssse3, 128-bit vectors) and vmi-convert-avx2.c
 * (-mavx2, 256-bit vectors). Every AVX2 instruction used works per 128-bit
 * lane, so an AVX2 vector is simply two SSSE3 steps side by side: lane 0
 * converts step k, lane 1 step k + 1, loaded and stored at their own
 * addresses.
 *
 * Method. A byte shuffle gathers, for each 10-bit sample, the 16-bit word
 * (two adjacent bytes) holding it; a multiply by a power of two then puts
 * the sample in bits 15..6 of its lane ("W form", bits 5..0 are junk). From
 * there, truncation is W >> 8 and round-half-up is avg (W >> 7, 0), the
 * 4:2:0 chroma sum is (Wa >> 6) + (Wb >> 6), and packus saturates at 255.
 *
 * In place (packed output): each step loads all its input before it stores,
 * and stores only what it converted, never past it; since a step's output
 * (4/5 or 12/16 of its input) ends before the next step's input begins, a
 * row can overwrite itself. Over-reads past the step's input stay inside the
 * row (the loops stop early and the scalar kernel finishes the row; UYVP ->
 * UYVY instead shifts its last unit's load back, see uyvp_unit).
 *
 * The includer defines VMI_SIMD_NAME (ssse3/avx2) and, for AVX2,
 * VMI_SIMD_AVX2 = 1, and includes <immintrin.h>.
 */

#include "vmi-convert-priv.h"

#define VMI_PASTE2(a, b) a##_##b
#define VMI_PASTE(a, b) VMI_PASTE2 (a, b)
#define FN(n) VMI_PASTE (n, VMI_SIMD_NAME)

#define INLINE static inline __attribute__ ((always_inline))

#if VMI_SIMD_AVX2
typedef __m256i V;
#define LANES 2
#define v_shuffle8 _mm256_shuffle_epi8
#define v_mullo16 _mm256_mullo_epi16
#define v_srli16 _mm256_srli_epi16
#define v_add16 _mm256_add_epi16
#define v_avg16 _mm256_avg_epu16
#define v_packus16 _mm256_packus_epi16
#define v_unpacklo64 _mm256_unpacklo_epi64
#define v_unpackhi64 _mm256_unpackhi_epi64
#define v_shuffle32 _mm256_shuffle_epi32
#define v_zero _mm256_setzero_si256
#define v_set16 _mm256_set1_epi16

INLINE V
v_const (const uint8_t c[16])
{
  return _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) c));
}

INLINE V
v_load (const uint8_t * p0, const uint8_t * p1)
{
  return _mm256_inserti128_si256 (_mm256_castsi128_si256 (_mm_loadu_si128
          ((const __m128i *) p0)), _mm_loadu_si128 ((const __m128i *) p1), 1);
}

/* 16 bytes per lane */
INLINE void
v_store (uint8_t * p0, uint8_t * p1, V v)
{
  if (p1 == p0 + 16) {
    _mm256_storeu_si256 ((__m256i *) p0, v);
  } else {
    _mm_storeu_si128 ((__m128i *) p0, _mm256_castsi256_si128 (v));
    _mm_storeu_si128 ((__m128i *) p1, _mm256_extracti128_si256 (v, 1));
  }
}

/* 32 bytes per lane: a's lane then b's lane */
INLINE void
v_store_pair (uint8_t * p0, uint8_t * p1, V a, V b)
{
  _mm256_storeu_si256 ((__m256i *) p0, _mm256_permute2x128_si256 (a, b, 0x20));
  _mm256_storeu_si256 ((__m256i *) p1, _mm256_permute2x128_si256 (a, b, 0x31));
}

/* the low (hi = 0) or high (hi = 1) 8 bytes of each lane */
INLINE void
v_store8 (uint8_t * p0, uint8_t * p1, V v, const int hi)
{
  if (p1 == p0 + 8) {
    /* the immediate must be a constant expression for clang, even
     * where inlining makes hi one */
    V q = hi ? _mm256_permute4x64_epi64 (v, 0x0d) :
        _mm256_permute4x64_epi64 (v, 0x08);
    _mm_storeu_si128 ((__m128i *) p0, _mm256_castsi256_si128 (q));
  } else {
    __m128i l0 = _mm256_castsi256_si128 (v);
    __m128i l1 = _mm256_extracti128_si256 (v, 1);
    if (hi) {
      l0 = _mm_unpackhi_epi64 (l0, l0);
      l1 = _mm_unpackhi_epi64 (l1, l1);
    }
    _mm_storel_epi64 ((__m128i *) p0, l0);
    _mm_storel_epi64 ((__m128i *) p1, l1);
  }
}
#else
typedef __m128i V;
#define LANES 1
#define v_shuffle8 _mm_shuffle_epi8
#define v_mullo16 _mm_mullo_epi16
#define v_srli16 _mm_srli_epi16
#define v_add16 _mm_add_epi16
#define v_avg16 _mm_avg_epu16
#define v_packus16 _mm_packus_epi16
#define v_unpacklo64 _mm_unpacklo_epi64
#define v_unpackhi64 _mm_unpackhi_epi64
#define v_shuffle32 _mm_shuffle_epi32
#define v_zero _mm_setzero_si128
#define v_set16 _mm_set1_epi16

INLINE V
v_const (const uint8_t c[16])
{
  return _mm_loadu_si128 ((const __m128i *) c);
}

INLINE V
v_load (const uint8_t * p0, const uint8_t * p1)
{
  (void) p1;
  return _mm_loadu_si128 ((const __m128i *) p0);
}

INLINE void
v_store (uint8_t * p0, uint8_t * p1, V v)
{
  (void) p1;
  _mm_storeu_si128 ((__m128i *) p0, v);
}

INLINE void
v_store_pair (uint8_t * p0, uint8_t * p1, V a, V b)
{
  (void) p1;
  _mm_storeu_si128 ((__m128i *) p0, a);
  _mm_storeu_si128 ((__m128i *) (p0 + 16), b);
}

INLINE void
v_store8 (uint8_t * p0, uint8_t * p1, V v, const int hi)
{
  (void) p1;
  if (hi)
    v = _mm_unpackhi_epi64 (v, v);
  _mm_storel_epi64 ((__m128i *) p0, v);
}
#endif

/* Shuffles building, per 16-bit lane, the little-endian word that holds a
 * sample, and the multipliers moving that sample to bits 15..6. */

/* UYVP, 16 bytes from a pixel pair boundary: pairs 0 and 1 (10 bytes). The
 * word of sample k of a pair is bytes (k, k + 1) big-endian; the sample
 * starts 2k bits into it, so it sits 6 - 2k bits up: multiply by 4^k. */
static const uint8_t uyvp_shuf[16] __attribute__ ((aligned (16))) = {
  1, 0, 2, 1, 3, 2, 4, 3, 6, 5, 7, 6, 8, 7, 9, 8
};
static const uint16_t uyvp_mul[8] __attribute__ ((aligned (16))) = {
  1, 4, 16, 64, 1, 4, 16, 64
};

/* v210: sample i of a block is bits 10 * (i % 3) of word i / 3; its
 * little-endian 16-bit word starts at byte 4 * (i / 3) + i % 3, shifted by
 * 2 * (i % 3) bits: multiply by 64 >> (2 * (i % 3)). Three loads per two
 * blocks (at +0, +8, +16) give samples 0-7, 8-11 + 0-3, 4-11. */
static const uint8_t v210_shuf_a[16] __attribute__ ((aligned (16))) = {
  0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10
};
static const uint16_t v210_mul_a[8] __attribute__ ((aligned (16))) = {
  64, 16, 4, 64, 16, 4, 64, 16
};
static const uint8_t v210_shuf_b[16] __attribute__ ((aligned (16))) = {
  2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10, 10, 11, 12, 13
};
static const uint16_t v210_mul_b[8] __attribute__ ((aligned (16))) = {
  4, 64, 16, 4, 64, 16, 4, 64
};
static const uint8_t v210_shuf_c[16] __attribute__ ((aligned (16))) = {
  5, 6, 6, 7, 8, 9, 9, 10, 10, 11, 12, 13, 13, 14, 14, 15
};
static const uint16_t v210_mul_c[8] __attribute__ ((aligned (16))) = {
  16, 4, 64, 16, 4, 64, 16, 4
};

/* UYVY bytes of 8 pixels -> Y0..Y7 U0..U3 V0..V3 */
static const uint8_t planar_shuf[16] __attribute__ ((aligned (16))) = {
  1, 3, 5, 7, 9, 11, 13, 15, 0, 4, 8, 12, 2, 6, 10, 14
};

/* UYVY bytes of 8 pixels -> U0 V0 U1 V1 U2 V2 U3 V3 in the low half */
static const uint8_t nv12_shuf[16] __attribute__ ((aligned (16))) = {
  0, 2, 4, 6, 8, 10, 12, 14, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
};

/* 16 pixels of UYVP per lane (40 bytes, reads 46) -> 4 W vectors. The
 * unroll pragmas keep the W arrays in registers at -O2 (without them GCC 12
 * spills them: 0.26 instead of 0.19 ms per 1080 frame). */
INLINE void
dec_uyvp (const uint8_t * s0, const uint8_t * s1, V w[4])
{
  const V shuf = v_const (uyvp_shuf);
  const V mul = v_const ((const uint8_t *) uyvp_mul);
  int i;

  _Pragma ("GCC unroll 4")
  for (i = 0; i < 4; i++)
    w[i] = v_mullo16 (v_shuffle8 (v_load (s0 + 10 * i, s1 + 10 * i), shuf),
        mul);
}

/* 48 pixels of v210 per lane (8 blocks, 128 bytes) -> 12 W vectors */
INLINE void
dec_v210 (const uint8_t * s0, const uint8_t * s1, V w[12])
{
  const V sa = v_const (v210_shuf_a), ma = v_const ((const uint8_t *)
      v210_mul_a);
  const V sb = v_const (v210_shuf_b), mb = v_const ((const uint8_t *)
      v210_mul_b);
  const V sc = v_const (v210_shuf_c), mc = v_const ((const uint8_t *)
      v210_mul_c);
  int j;

  _Pragma ("GCC unroll 4")
  for (j = 0; j < 4; j++) {
    const uint8_t *p0 = s0 + 32 * j, *p1 = s1 + 32 * j;
    w[3 * j + 0] = v_mullo16 (v_shuffle8 (v_load (p0, p1), sa), ma);
    w[3 * j + 1] = v_mullo16 (v_shuffle8 (v_load (p0 + 8, p1 + 8), sb), mb);
    w[3 * j + 2] = v_mullo16 (v_shuffle8 (v_load (p0 + 16, p1 + 16), sc), mc);
  }
}

/* Two W vectors (8 pixels) -> 16 UYVY bytes */
INLINE V
to8 (V a, V b, const int nearest)
{
  if (nearest) {
    a = v_avg16 (v_srli16 (a, 7), v_zero ());
    b = v_avg16 (v_srli16 (b, 7), v_zero ());
  } else {
    a = v_srli16 (a, 8);
    b = v_srli16 (b, 8);
  }
  return v_packus16 (a, b);
}

/* 4:2:0 chroma of two lines' W vectors (8 pixels); luma bytes are junk */
INLINE V
avg8 (V a0, V a1, V b0, V b1, const int nearest)
{
  V s0 = v_add16 (v_srli16 (a0, 6), v_srli16 (b0, 6));
  V s1 = v_add16 (v_srli16 (a1, 6), v_srli16 (b1, 6));

  if (nearest) {
    s0 = v_add16 (s0, v_set16 (4));
    s1 = v_add16 (s1, v_set16 (4));
  }
  return v_packus16 (v_srli16 (s0, 3), v_srli16 (s1, 3));
}

/* 16 pixels per lane: 32 bytes of UYVY */
INLINE void
out_uyvy (uint8_t * d0, uint8_t * d1, const V w[4], const int nearest)
{
  v_store_pair (d0, d1, to8 (w[0], w[1], nearest), to8 (w[2], w[3],
          nearest));
}

/* 16 pixels per lane: 16 Y, 8 U, 8 V */
INLINE void
out_planar (uint8_t * y0, uint8_t * y1, uint8_t * u0, uint8_t * u1,
    uint8_t * v0, uint8_t * v1, const V w[4], const int nearest)
{
  const V shuf = v_const (planar_shuf);
  V a = v_shuffle8 (to8 (w[0], w[1], nearest), shuf);
  V b = v_shuffle8 (to8 (w[2], w[3], nearest), shuf);
  V uv = v_shuffle32 (v_unpackhi64 (a, b), 0xd8);

  v_store (y0, y1, v_unpacklo64 (a, b));
  v_store8 (u0, u1, uv, 0);
  v_store8 (v0, v1, uv, 1);
}

/* 16 pixels per lane of two lines: 16 Y each, then 8 U + 8 V (I420) or
 * 16 bytes of UV (NV12, u = the UV row) */
INLINE void
out_pair (uint8_t * ya0, uint8_t * ya1, uint8_t * yb0, uint8_t * yb1,
    uint8_t * u0, uint8_t * u1, uint8_t * v0, uint8_t * v1, const V wa[4],
    const V wb[4], const int nearest, const int nv12)
{
  const V shuf = v_const (planar_shuf);
  V a0 = v_shuffle8 (to8 (wa[0], wa[1], nearest), shuf);
  V a1 = v_shuffle8 (to8 (wa[2], wa[3], nearest), shuf);
  V b0 = v_shuffle8 (to8 (wb[0], wb[1], nearest), shuf);
  V b1 = v_shuffle8 (to8 (wb[2], wb[3], nearest), shuf);
  V c0 = avg8 (wa[0], wa[1], wb[0], wb[1], nearest);
  V c1 = avg8 (wa[2], wa[3], wb[2], wb[3], nearest);

  v_store (ya0, ya1, v_unpacklo64 (a0, a1));
  v_store (yb0, yb1, v_unpacklo64 (b0, b1));
  if (nv12) {
    const V nshuf = v_const (nv12_shuf);
    v_store (u0, u1, v_unpacklo64 (v_shuffle8 (c0, nshuf),
            v_shuffle8 (c1, nshuf)));
  } else {
    V uv = v_shuffle32 (v_unpackhi64 (v_shuffle8 (c0, shuf),
            v_shuffle8 (c1, shuf)), 0xd8);
    v_store8 (u0, u1, uv, 0);
    v_store8 (v0, v1, uv, 1);
  }
}

/* UYVP steps of the planar and 4:2:0 outputs: 16 pixels per lane, four
 * 16-byte loads per lane (at +0, +10, +20, +30, each using 10 bytes);
 * AVX2's second lane takes the next 16 pixels (+40). (UYVP -> UYVY has its
 * own layout below: one 32-byte load per W vector.) */
#define UYVP_STEP (16 * LANES)
#define UYVP_READ (40 * (LANES - 1) + 46)

INLINE void
uyvp_dec (const uint8_t * s, V w[4])
{
  dec_uyvp (s, s + 40, w);
}

INLINE void
uyvp_out_planar (uint8_t * y, uint8_t * u, uint8_t * v, const V w[4],
    const int nearest)
{
  out_planar (y, y + 16, u, u + 8, v, v + 8, w, nearest);
}

INLINE void
uyvp_out_pair (uint8_t * ya, uint8_t * yb, uint8_t * u, uint8_t * v,
    const V wa[4], const V wb[4], const int nearest, const int nv12)
{
  out_pair (ya, ya + 16, yb, yb + 16, u, u + 8 * (nv12 ? 2 : 1), v,
      v ? v + 8 : NULL, wa, wb, nearest, nv12);
}

/* UYVP -> UYVY. The unit is 16 output bytes per lane: packus of two W
 * vectors, A from the pixels at +0 and B from those at +10 (4 each). On
 * AVX2, lane 1 of A and B takes the 8 pixels after lane 0's (+20, +30), so
 * packus, which works per lane, leaves 32 bytes of UYVY in order: one
 * store, no cross-lane permute. AVX2 fills each W vector with one 32-byte
 * load (bytes +0..+9 for lane 0, +20..+29 for lane 1: lane 1's shuffle
 * indices are 4 higher), not two 16-byte loads and an insert: four loads
 * and four shuffle-port uops fewer per 64 output bytes. This loop runs as
 * fast as a bare pass that only loads 80 and stores 64 bytes per step
 * (0.13 ms per 1080 frame here): memory bound, so prefetching and a 2x
 * unroll measured no different from this 4x unroll.
 *
 * A W load reads UYVP_OVER bytes past the 10 it uses per lane (2 on AVX2,
 * 6 on SSSE3). Only the last unit of a row could read past the row's end:
 * that one loads B UYVP_OVER bytes early and shuffles with indices that
 * much higher, so it reads exactly its input. */
#if VMI_SIMD_AVX2
#define UYVP_OVER 2
static const uint8_t uyvp_shuf2[2][32] __attribute__ ((aligned (32))) = {
  {1, 0, 2, 1, 3, 2, 4, 3, 6, 5, 7, 6, 8, 7, 9, 8,
   5, 4, 6, 5, 7, 6, 8, 7, 10, 9, 11, 10, 12, 11, 13, 12},
  {3, 2, 4, 3, 5, 4, 6, 5, 8, 7, 9, 8, 10, 9, 11, 10,
   7, 6, 8, 7, 9, 8, 10, 9, 12, 11, 13, 12, 14, 13, 15, 14},
};

/* shifted: the vector was loaded UYVP_OVER bytes early */
INLINE V
uyvp_shuf_const (const int shifted)
{
  return _mm256_load_si256 ((const __m256i *) uyvp_shuf2[shifted]);
}

INLINE V
uyvp_load_w (const uint8_t * p)
{
  return _mm256_loadu_si256 ((const __m256i *) p);
}
#else
#define UYVP_OVER 6
static const uint8_t uyvp_shuf6[16] __attribute__ ((aligned (16))) = {
  7, 6, 8, 7, 9, 8, 10, 9, 12, 11, 13, 12, 14, 13, 15, 14
};

INLINE V
uyvp_shuf_const (const int shifted)
{
  return v_const (shifted ? uyvp_shuf6 : uyvp_shuf);
}

INLINE V
uyvp_load_w (const uint8_t * p)
{
  return _mm_loadu_si128 ((const __m128i *) p);
}
#endif

#define UYVP_UNIT_PX (8 * LANES)
#define UYVP_UNIT_IN (20 * LANES)
/* bytes a unit reads from its start, B loaded at +10 */
#define UYVP_UNIT_READ (UYVP_UNIT_IN + UYVP_OVER)
#define UYVP_UNROLL 4

INLINE V
uyvp_unit (const uint8_t * s, const int last, const int nearest)
{
  const V mul = v_const ((const uint8_t *) uyvp_mul);
  V a = v_shuffle8 (uyvp_load_w (s), uyvp_shuf_const (0));
  V b = last ? v_shuffle8 (uyvp_load_w (s + 10 - UYVP_OVER),
      uyvp_shuf_const (1)) : v_shuffle8 (uyvp_load_w (s + 10),
      uyvp_shuf_const (0));

  return to8 (v_mullo16 (a, mul), v_mullo16 (b, mul), nearest);
}

INLINE void
uyvp_store (uint8_t * d, V v)
{
#if VMI_SIMD_AVX2
  _mm256_storeu_si256 ((__m256i *) d, v);
#else
  _mm_storeu_si128 ((__m128i *) d, v);
#endif
}

/* In place, unit k's store ends 4/5 of the way to its input's start plus
 * 16 * LANES, i.e. where unit k + 1's input begins: no unit clobbers input
 * not yet loaded, in any order. A step still loads all its units before it
 * stores, so the compiler need not keep loads behind possibly aliasing
 * stores. */
INLINE unsigned
uyvp_row_uyvy (const int nearest, const uint8_t * src, uint8_t * dst,
    unsigned width)
{
  const size_t row_bytes = (size_t) width * 5 / 2;
  const size_t units = width / UYVP_UNIT_PX;
  size_t u = 0;

  /* whole steps whose last unit reads inside the row */
  for (; u + UYVP_UNROLL <= units && (u + UYVP_UNROLL - 1) * UYVP_UNIT_IN +
      UYVP_UNIT_READ <= row_bytes; u += UYVP_UNROLL) {
    const uint8_t *s = src + u * UYVP_UNIT_IN;
    uint8_t *d = dst + u * 16 * LANES;
    V o[UYVP_UNROLL];
    int k;
    _Pragma ("GCC unroll 4")
    for (k = 0; k < UYVP_UNROLL; k++)
      o[k] = uyvp_unit (s + k * UYVP_UNIT_IN, 0, nearest);
    _Pragma ("GCC unroll 4")
    for (k = 0; k < UYVP_UNROLL; k++)
      uyvp_store (d + k * 16 * LANES, o[k]);
  }
  for (; u < units; u++) {
    const uint8_t *s = src + u * UYVP_UNIT_IN;
    V o;
    if (u * UYVP_UNIT_IN + UYVP_UNIT_READ <= row_bytes)
      o = uyvp_unit (s, 0, nearest);
    else
      o = uyvp_unit (s, 1, nearest);
    uyvp_store (dst + u * 16 * LANES, o);
  }
  return (unsigned) (units * UYVP_UNIT_PX);
}

/* v210: a step is 48 pixels (8 whole blocks) per lane and reads exactly
 * its blocks. */
#define V210_STEP (48 * LANES)

INLINE void
row_packed (const int v210, const int nearest, const uint8_t * src,
    uint8_t * dst, unsigned width)
{
  unsigned x = 0;

  if (!v210) {
    x = uyvp_row_uyvy (nearest, src, dst, width);
  } else {
    for (; x + V210_STEP <= width; x += V210_STEP) {
      const uint8_t *s = src + (size_t) x / 6 * 16;
      uint8_t *d = dst + 2 * (size_t) x;
      V w[12];
      int u;
      dec_v210 (s, s + 128, w);
      _Pragma ("GCC unroll 3")
      for (u = 0; u < 3; u++)
        out_uyvy (d + 32 * u, d + 96 + 32 * u, w + 4 * u, nearest);
    }
  }
  vmi_conv_scalar_packed (v210, nearest, src, dst, x, width);
}

INLINE void
row_planar (const int v210, const int nearest, const uint8_t * src,
    uint8_t * y, uint8_t * u, uint8_t * v, unsigned width)
{
  unsigned x = 0;

  if (!v210) {
    const size_t row_bytes = (size_t) width * 5 / 2;
    for (; x + UYVP_STEP <= width && (size_t) x * 5 / 2 + UYVP_READ <=
        row_bytes; x += UYVP_STEP) {
      V w[4];
      uyvp_dec (src + (size_t) x * 5 / 2, w);
      uyvp_out_planar (y + x, u + x / 2, v + x / 2, w, nearest);
    }
  } else {
    for (; x + V210_STEP <= width; x += V210_STEP) {
      const uint8_t *s = src + (size_t) x / 6 * 16;
      V w[12];
      unsigned k;
      dec_v210 (s, s + 128, w);
      _Pragma ("GCC unroll 3")
      for (k = 0; k < 3; k++) {
        unsigned x0 = x + 16 * k, x1 = x0 + 48;
        out_planar (y + x0, y + x1, u + x0 / 2, u + x1 / 2, v + x0 / 2,
            v + x1 / 2, w + 4 * k, nearest);
      }
    }
  }
  vmi_conv_scalar_planar (v210, nearest, src, y, u, v, x, width);
}

INLINE void
row_pair (const int v210, const int nearest, const int nv12,
    const uint8_t * a, const uint8_t * b, uint8_t * ya, uint8_t * yb,
    uint8_t * u, uint8_t * v, unsigned width)
{
  unsigned x = 0;
  /* NV12 chroma: 2 bytes per pixel pair at u; I420: 1 at u, 1 at v */
  const unsigned cmul = nv12 ? 2 : 1;

  if (!v210) {
    const size_t row_bytes = (size_t) width * 5 / 2;
    for (; x + UYVP_STEP <= width && (size_t) x * 5 / 2 + UYVP_READ <=
        row_bytes; x += UYVP_STEP) {
      const size_t off = (size_t) x * 5 / 2;
      const unsigned c = x / 2 * cmul;
      V wa[4], wb[4];
      uyvp_dec (a + off, wa);
      uyvp_dec (b + off, wb);
      uyvp_out_pair (ya + x, yb + x, u + c, nv12 ? NULL : v + c, wa, wb,
          nearest, nv12);
    }
  } else {
    for (; x + V210_STEP <= width; x += V210_STEP) {
      const size_t off = (size_t) x / 6 * 16;
      V wa[12], wb[12];
      unsigned k;
      dec_v210 (a + off, a + off + 128, wa);
      dec_v210 (b + off, b + off + 128, wb);
      _Pragma ("GCC unroll 3")
      for (k = 0; k < 3; k++) {
        unsigned x0 = x + 16 * k, x1 = x0 + 48;
        unsigned c0 = x0 / 2 * cmul, c1 = x1 / 2 * cmul;
        out_pair (ya + x0, ya + x1, yb + x0, yb + x1, u + c0, u + c1,
            nv12 ? NULL : v + c0, nv12 ? NULL : v + c1, wa + 4 * k,
            wb + 4 * k, nearest, nv12);
      }
    }
  }
  vmi_conv_scalar_pair (v210, nearest, nv12, a, b, ya, yb, u, v, x, width);
}

VMI_CONV_KERNELS_DEFINE (FN (vmi_conv_kernels))
