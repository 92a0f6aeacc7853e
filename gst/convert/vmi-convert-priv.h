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

#endif /* __VMI_CONVERT_PRIV_H__ */
