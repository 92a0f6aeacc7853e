/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* 10-bit 4:2:2 (UYVP, v210) to 8-bit (UYVY, Y42B, I420, NV12) conversion.
 *
 * Pure C, no GObject, no GStreamer: the vmi10to8 element, the unit tests and
 * the benchmark all drive this API. Layouts (as GStreamer defines them):
 *
 * - UYVP: Cb Y0 Cr Y1 as four 10-bit words packed MSB first, 5 bytes per
 *   2 pixels, no gaps.
 * - v210: little-endian 32-bit words holding three 10-bit samples in bits
 *   0-9, 10-19, 20-29; 4 words (16 bytes) carry 6 pixels, the samples in
 *   UYVY order (Cb0 Y0 Cr0 | Y1 Cb2 Y2 | Cr2 Y3 Cb4 | Y4 Cr4 Y5).
 *
 * Every 8-bit value is one 10-bit value v mapped to v >> 2 (truncate) or to
 * MIN ((v + 2) >> 2, 255) (nearest). 4:2:0 chroma is the 10-bit average of a
 * pair of lines, rounded once: (a + b) >> 3, or MIN ((a + b + 4) >> 3, 255).
 */

#ifndef __VMI_CONVERT_H__
#define __VMI_CONVERT_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  VMI_CONV_FORMAT_UYVP,
  VMI_CONV_FORMAT_V210,
  VMI_CONV_FORMAT_UYVY,
  VMI_CONV_FORMAT_Y42B,
  VMI_CONV_FORMAT_I420,
  VMI_CONV_FORMAT_NV12,
} VmiConvFormat;

typedef enum {
  VMI_CONV_ROUND_TRUNCATE,      /* v >> 2: drop the two LSBs */
  VMI_CONV_ROUND_NEAREST,       /* (v + 2) >> 2, saturated at 255 */
} VmiConvRounding;

typedef enum {
  VMI_CONV_IMPL_AUTO,           /* the best the CPU runs */
  VMI_CONV_IMPL_SCALAR,
  VMI_CONV_IMPL_SSSE3,
  VMI_CONV_IMPL_AVX2,
} VmiConvImpl;

/* One image: plane pointers and strides in bytes (Y, U, V; NV12: Y, UV). */
typedef struct {
  VmiConvFormat format;
  uint8_t *data[3];
  ptrdiff_t stride[3];
} VmiConvImage;

typedef struct _VmiConvKernels VmiConvKernels;

/* A conversion of one frame, split into independent units (rows for 4:2:2
 * outputs, chroma rows for 4:2:0 ones) that may run on any thread. */
typedef struct {
  unsigned width;
  unsigned height;
  VmiConvRounding rounding;
  /* 4:2:0 only: pair lines within each field (interlaced) or adjacent lines */
  bool interlaced;
  VmiConvImage src;
  VmiConvImage dst;
  /* private */
  const VmiConvKernels *kernels;
  VmiConvImpl impl;
} VmiConvJob;

/* Whether this build and this CPU can run @impl (AUTO and SCALAR always). */
bool vmi_conv_impl_supported (VmiConvImpl impl);
/* What AUTO resolves to on this CPU. */
VmiConvImpl vmi_conv_impl_best (void);
const char *vmi_conv_impl_name (VmiConvImpl impl);

bool vmi_conv_format_is_input (VmiConvFormat format);
bool vmi_conv_format_is_output (VmiConvFormat format);

/* Checks the geometry and picks the kernels. Returns 0, or -1 when the pair
 * of formats is not a conversion this core does, the width is odd or zero,
 * the height is zero, or @impl is not supported here. @job's width, height,
 * rounding, interlaced, src and dst must be filled in before. */
int vmi_conv_job_prepare (VmiConvJob * job, VmiConvImpl impl);

/* Number of independent units of a prepared job. */
unsigned vmi_conv_job_n_units (const VmiConvJob * job);

/* Converts units [begin, end). Units touch disjoint output and may run in
 * parallel, except in place with a smaller output stride (see
 * vmi_conv_in_place_parallel_ok). */
void vmi_conv_job_run_units (const VmiConvJob * job, unsigned begin,
    unsigned end);

/* Converts the whole frame on the calling thread, rows in order. */
void vmi_conv_job_run (const VmiConvJob * job);

/* UYVP/v210 -> UYVY may write over its input: in each row the write index
 * never passes the read index (4 bytes per 5 read for UYVP, 12 per 16 for
 * v210). When the output rows start exactly where the input rows do (same
 * address and stride) each row only overwrites itself and rows may run in
 * parallel (vmi_conv_in_place_parallel_ok() is true). Otherwise, with the
 * output starting at or before the input and a stride no larger, row r's
 * output may cover input rows above r: run the rows in order on one thread
 * (vmi_conv_job_run). vmi_conv_in_place_parallel_ok() is also true for
 * images that do not overlap at all. */
bool vmi_conv_in_place_possible (VmiConvFormat in, VmiConvFormat out);
bool vmi_conv_in_place_parallel_ok (const VmiConvJob * job);

/* A persistent pool of worker threads: created once, reused for every
 * frame, so converting allocates nothing and creates no thread per frame. */
typedef struct _VmiWorkers VmiWorkers;

/* @n_threads lanes in all, the calling thread being one of them (so
 * n_threads - 1 threads are started). 0 means one per online CPU. */
VmiWorkers *vmi_workers_new (unsigned n_threads);
unsigned vmi_workers_n_threads (const VmiWorkers * workers);
/* Calls func (data, i, n) for i in [0, n) with n = n_threads, i = 0 on the
 * calling thread, and returns when all calls have returned. Not reentrant:
 * one caller at a time. */
void vmi_workers_run (VmiWorkers * workers,
    void (*func) (void *data, unsigned index, unsigned count), void *data);
void vmi_workers_free (VmiWorkers * workers);

/* The job's units spread evenly over the workers (NULL: on this thread). */
void vmi_conv_job_run_parallel (const VmiConvJob * job, VmiWorkers * workers);

#ifdef __cplusplus
}
#endif

#endif /* __VMI_CONVERT_H__ */
