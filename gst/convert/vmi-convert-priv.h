/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Internal to the convert core: row kernel types and the scalar kernels the
 * SIMD ones finish their rows with. */

#ifndef __VMI_CONVERT_PRIV_H__
#define __VMI_CONVERT_PRIV_H__

#include "vmi-convert.h"

/* Index 0: UYVP input, 1: v210 input; second index: VmiConvRounding. */
typedef void (*VmiConvPackedRow) (const uint8_t * src, uint8_t * dst,
    unsigned width);
typedef void (*VmiConvPlanarRow) (const uint8_t * src, uint8_t * y,
    uint8_t * u, uint8_t * v, unsigned width);
/* Two source rows a and b (b may equal a): luma of each, one row of 4:2:0
 * chroma (I420: u and v; NV12: u is the interleaved UV row, v unused). */
typedef void (*VmiConvPairRow) (const uint8_t * a, const uint8_t * b,
    uint8_t * ya, uint8_t * yb, uint8_t * u, uint8_t * v, unsigned width);

struct _VmiConvKernels {
  VmiConvPackedRow uyvy[2][2];
  VmiConvPlanarRow y42b[2][2];
  VmiConvPairRow i420[2][2];
  VmiConvPairRow nv12[2][2];
};

extern const VmiConvKernels vmi_conv_kernels_scalar;
#ifdef HAVE_VMI_SSSE3
extern const VmiConvKernels vmi_conv_kernels_ssse3;
#endif
#ifdef HAVE_VMI_AVX2
extern const VmiConvKernels vmi_conv_kernels_avx2;
#endif

/* Scalar kernels on pixels [x0, x1) of a row (x0, x1 even; for v210 x0 a
 * multiple of 6). The pointers are the starts of the rows. Each pixel pair
 * is read entirely before it is written, so the packed ones work in place. */
void vmi_conv_scalar_packed (int v210, int nearest, const uint8_t * src,
    uint8_t * dst, unsigned x0, unsigned x1);
void vmi_conv_scalar_planar (int v210, int nearest, const uint8_t * src,
    uint8_t * y, uint8_t * u, uint8_t * v, unsigned x0, unsigned x1);
void vmi_conv_scalar_pair (int v210, int nearest, int nv12,
    const uint8_t * a, const uint8_t * b, uint8_t * ya, uint8_t * yb,
    uint8_t * u, uint8_t * v, unsigned x0, unsigned x1);

/* Defines the 16 kernels of a VmiConvKernels and the table @table from the
 * includer's row_packed/row_planar/row_pair (V210, NEAREST[, NV12], rows...,
 * width): constant arguments, so each kernel is its own specialisation. */
#define VMI_CONV_PACKED(name, V210, NEAREST)                            \
static void name (const uint8_t * src, uint8_t * dst, unsigned w)       \
{ row_packed (V210, NEAREST, src, dst, w); }
#define VMI_CONV_PLANAR(name, V210, NEAREST)                            \
static void name (const uint8_t * src, uint8_t * y, uint8_t * u,        \
    uint8_t * v, unsigned w)                                            \
{ row_planar (V210, NEAREST, src, y, u, v, w); }
#define VMI_CONV_PAIR(name, V210, NEAREST, NV12)                        \
static void name (const uint8_t * a, const uint8_t * b, uint8_t * ya,   \
    uint8_t * yb, uint8_t * u, uint8_t * v, unsigned w)                 \
{ row_pair (V210, NEAREST, NV12, a, b, ya, yb, u, v, w); }
#define VMI_CONV_KERNELS_DEFINE(table)                                  \
VMI_CONV_PACKED (uyvp_uyvy_t, 0, 0)                                     \
VMI_CONV_PACKED (uyvp_uyvy_n, 0, 1)                                     \
VMI_CONV_PACKED (v210_uyvy_t, 1, 0)                                     \
VMI_CONV_PACKED (v210_uyvy_n, 1, 1)                                     \
VMI_CONV_PLANAR (uyvp_y42b_t, 0, 0)                                     \
VMI_CONV_PLANAR (uyvp_y42b_n, 0, 1)                                     \
VMI_CONV_PLANAR (v210_y42b_t, 1, 0)                                     \
VMI_CONV_PLANAR (v210_y42b_n, 1, 1)                                     \
VMI_CONV_PAIR (uyvp_i420_t, 0, 0, 0)                                    \
VMI_CONV_PAIR (uyvp_i420_n, 0, 1, 0)                                    \
VMI_CONV_PAIR (v210_i420_t, 1, 0, 0)                                    \
VMI_CONV_PAIR (v210_i420_n, 1, 1, 0)                                    \
VMI_CONV_PAIR (uyvp_nv12_t, 0, 0, 1)                                    \
VMI_CONV_PAIR (uyvp_nv12_n, 0, 1, 1)                                    \
VMI_CONV_PAIR (v210_nv12_t, 1, 0, 1)                                    \
VMI_CONV_PAIR (v210_nv12_n, 1, 1, 1)                                    \
const VmiConvKernels table = {                                          \
  .uyvy = {{uyvp_uyvy_t, uyvp_uyvy_n}, {v210_uyvy_t, v210_uyvy_n}},     \
  .y42b = {{uyvp_y42b_t, uyvp_y42b_n}, {v210_y42b_t, v210_y42b_n}},     \
  .i420 = {{uyvp_i420_t, uyvp_i420_n}, {v210_i420_t, v210_i420_n}},     \
  .nv12 = {{uyvp_nv12_t, uyvp_nv12_n}, {v210_nv12_t, v210_nv12_n}},     \
};

#endif /* __VMI_CONVERT_PRIV_H__ */
