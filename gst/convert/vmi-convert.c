/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frame driver of the convert core: CPU dispatch, frame geometry, the 4:2:0
 * line pairing, and the persistent worker pool. */

#include "vmi-convert-priv.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define VMI_X86 1
#else
#define VMI_X86 0
#endif

bool
vmi_conv_impl_supported (VmiConvImpl impl)
{
  switch (impl) {
    case VMI_CONV_IMPL_AUTO:
    case VMI_CONV_IMPL_SCALAR:
      return true;
    case VMI_CONV_IMPL_SSSE3:
#if defined(HAVE_VMI_SSSE3) && VMI_X86
      return __builtin_cpu_supports ("ssse3");
#else
      return false;
#endif
    case VMI_CONV_IMPL_AVX2:
#if defined(HAVE_VMI_AVX2) && VMI_X86
      /* also checks that the OS saves the YMM registers */
      return __builtin_cpu_supports ("avx2");
#else
      return false;
#endif
  }
  return false;
}

VmiConvImpl
vmi_conv_impl_best (void)
{
  if (vmi_conv_impl_supported (VMI_CONV_IMPL_AVX2))
    return VMI_CONV_IMPL_AVX2;
  if (vmi_conv_impl_supported (VMI_CONV_IMPL_SSSE3))
    return VMI_CONV_IMPL_SSSE3;
  return VMI_CONV_IMPL_SCALAR;
}

const char *
vmi_conv_impl_name (VmiConvImpl impl)
{
  switch (impl) {
    case VMI_CONV_IMPL_AUTO:
      return "auto";
    case VMI_CONV_IMPL_SCALAR:
      return "scalar";
    case VMI_CONV_IMPL_SSSE3:
      return "ssse3";
    case VMI_CONV_IMPL_AVX2:
      return "avx2";
  }
  return "?";
}

static const VmiConvKernels *
kernels_for (VmiConvImpl impl)
{
  switch (impl) {
#ifdef HAVE_VMI_SSSE3
    case VMI_CONV_IMPL_SSSE3:
      return &vmi_conv_kernels_ssse3;
#endif
#ifdef HAVE_VMI_AVX2
    case VMI_CONV_IMPL_AVX2:
      return &vmi_conv_kernels_avx2;
#endif
    default:
      return &vmi_conv_kernels_scalar;
  }
}

bool
vmi_conv_format_is_input (VmiConvFormat format)
{
  return format == VMI_CONV_FORMAT_UYVP || format == VMI_CONV_FORMAT_V210;
}

bool
vmi_conv_format_is_output (VmiConvFormat format)
{
  return format == VMI_CONV_FORMAT_UYVY || format == VMI_CONV_FORMAT_Y42B ||
      format == VMI_CONV_FORMAT_I420 || format == VMI_CONV_FORMAT_NV12;
}

static bool
is_420 (VmiConvFormat format)
{
  return format == VMI_CONV_FORMAT_I420 || format == VMI_CONV_FORMAT_NV12;
}

int
vmi_conv_job_prepare (VmiConvJob * job, VmiConvImpl impl)
{
  if (!vmi_conv_format_is_input (job->src.format) ||
      !vmi_conv_format_is_output (job->dst.format))
    return -1;
  /* 4:2:2 chroma is shared by a pixel pair: a lone last pixel has no
   * pair in UYVP's 5-byte groups */
  if (job->width == 0 || (job->width & 1) || job->height == 0)
    return -1;
  if (job->rounding != VMI_CONV_ROUND_TRUNCATE &&
      job->rounding != VMI_CONV_ROUND_NEAREST)
    return -1;
  if (impl == VMI_CONV_IMPL_AUTO)
    impl = vmi_conv_impl_best ();
  if (!vmi_conv_impl_supported (impl))
    return -1;
  job->impl = impl;
  job->kernels = kernels_for (impl);
  return 0;
}

unsigned
vmi_conv_job_n_units (const VmiConvJob * job)
{
  return is_420 (job->dst.format) ? (job->height + 1) / 2 : job->height;
}

/* The two source lines of 4:2:0 chroma line c. Progressive: 2c and 2c + 1.
 * Interlaced: the two lines of one field, so chroma lines alternate between
 * the fields like the luma lines do: chroma line 2m of field 1 from lines
 * 4m and 4m + 2, chroma line 2m + 1 of field 2 from 4m + 1 and 4m + 3. At
 * the bottom of a frame whose height is not a multiple of 4, the last
 * chroma line pairs the last two lines (so every luma line is written), or
 * stands for a single line alone. */
static void
chroma_lines (const VmiConvJob * job, unsigned c, unsigned *ra, unsigned *rb)
{
  const unsigned h = job->height;

  if (!job->interlaced) {
    *ra = 2 * c;
    *rb = 2 * c + 1 < h ? 2 * c + 1 : 2 * c;
  } else {
    unsigned base = (c / 2) * 4 + (c & 1);
    *ra = base;
    if (base + 2 < h)
      *rb = base + 2;
    else if (!(c & 1) && base + 1 < h)
      *rb = base + 1;
    else
      *rb = base;
  }
}

/* Rows [begin, end) of a packed conversion can be converted as one row of
 * (end - begin) * width pixels when input and output rows lie back to back
 * (a v210 row ending on a whole block) and either the images do not
 * overlap or the output starts at or before the input: the long row's
 * write index then never passes its read index, as in place (the kernels'
 * guarantee), so the result is the same as row by row. */
static bool
packed_rows_merge (const VmiConvJob * job, unsigned begin, unsigned end)
{
  const unsigned w = job->width;
  const int v210 = job->src.format == VMI_CONV_FORMAT_V210;
  const size_t in_row = v210 ? (size_t) w / 6 * 16 : (size_t) w * 5 / 2;
  const uintptr_t s = (uintptr_t) job->src.data[0];
  const uintptr_t d = (uintptr_t) job->dst.data[0];
  const size_t n = end - begin;

  if (n < 2 || (v210 && w % 6) || (uint64_t) n * w > UINT32_MAX / 4)
    return false;
  if (job->src.stride[0] != (ptrdiff_t) in_row ||
      job->dst.stride[0] != (ptrdiff_t) w * 2)
    return false;
  return d <= s || d >= s + in_row * job->height;
}

void
vmi_conv_job_run_units (const VmiConvJob * job, unsigned begin, unsigned end)
{
  const VmiConvKernels *k = job->kernels;
  const int v210 = job->src.format == VMI_CONV_FORMAT_V210;
  const int r = job->rounding == VMI_CONV_ROUND_NEAREST;
  const uint8_t *s = job->src.data[0];
  const ptrdiff_t ss = job->src.stride[0];
  const VmiConvImage *d = &job->dst;
  const unsigned w = job->width;
  unsigned i;

  switch (d->format) {
    case VMI_CONV_FORMAT_UYVY:{
      VmiConvPackedRow row = k->uyvy[v210][r];
      if (packed_rows_merge (job, begin, end)) {
        /* one long row: no per-row call and row-end tail */
        row (s + (ptrdiff_t) begin * ss, d->data[0] + (ptrdiff_t) begin *
            d->stride[0], (end - begin) * w);
        break;
      }
      for (i = begin; i < end; i++)
        row (s + (ptrdiff_t) i * ss, d->data[0] + (ptrdiff_t) i * d->stride[0], w);
      break;
    }
    case VMI_CONV_FORMAT_Y42B:{
      VmiConvPlanarRow row = k->y42b[v210][r];
      for (i = begin; i < end; i++)
        row (s + (ptrdiff_t) i * ss, d->data[0] + (ptrdiff_t) i * d->stride[0],
            d->data[1] + (ptrdiff_t) i * d->stride[1],
            d->data[2] + (ptrdiff_t) i * d->stride[2], w);
      break;
    }
    case VMI_CONV_FORMAT_I420:
    case VMI_CONV_FORMAT_NV12:{
      const int nv12 = d->format == VMI_CONV_FORMAT_NV12;
      VmiConvPairRow row = nv12 ? k->nv12[v210][r] : k->i420[v210][r];
      for (i = begin; i < end; i++) {
        unsigned ra, rb;
        chroma_lines (job, i, &ra, &rb);
        row (s + (ptrdiff_t) ra * ss, s + (ptrdiff_t) rb * ss,
            d->data[0] + (ptrdiff_t) ra * d->stride[0],
            d->data[0] + (ptrdiff_t) rb * d->stride[0],
            d->data[1] + (ptrdiff_t) i * d->stride[1],
            nv12 ? NULL : d->data[2] + (ptrdiff_t) i * d->stride[2], w);
      }
      break;
    }
    default:
      break;
  }
}

void
vmi_conv_job_run (const VmiConvJob * job)
{
  vmi_conv_job_run_units (job, 0, vmi_conv_job_n_units (job));
}

bool
vmi_conv_in_place_possible (VmiConvFormat in, VmiConvFormat out)
{
  return vmi_conv_format_is_input (in) && out == VMI_CONV_FORMAT_UYVY;
}

static void
plane_extent (const VmiConvJob * job, const VmiConvImage * im, size_t row,
    uintptr_t * lo, uintptr_t * hi)
{
  uintptr_t first = (uintptr_t) im->data[0];
  uintptr_t last = first + (uintptr_t) ((ptrdiff_t) (job->height - 1) *
      im->stride[0]);

  *lo = first < last ? first : last;
  *hi = (first < last ? last : first) + row;
}

bool
vmi_conv_in_place_parallel_ok (const VmiConvJob * job)
{
  uintptr_t slo, shi, dlo, dhi;
  size_t in_row = job->src.format == VMI_CONV_FORMAT_UYVP ?
      (size_t) job->width * 5 / 2 : (size_t) (job->width + 5) / 6 * 16;

  if (job->src.data[0] == job->dst.data[0] &&
      job->src.stride[0] == job->dst.stride[0])
    return true;
  /* rows moving within one buffer: row r may land on rows above it */
  plane_extent (job, &job->src, in_row, &slo, &shi);
  plane_extent (job, &job->dst, (size_t) job->width * 2, &dlo, &dhi);
  return dhi <= slo || shi <= dlo;
}

/* ---- worker pool ------------------------------------------------------ */

struct _VmiWorkers
{
  unsigned n;                   /* lanes, the caller included */
  pthread_t *threads;           /* n - 1 */
  pthread_mutex_t lock;
  pthread_cond_t start;
  pthread_cond_t done;
  uint64_t generation;          /* +1 per run: wakes the workers */
  unsigned pending;             /* workers still running this generation */
  bool quit;
  void (*func) (void *data, unsigned index, unsigned count);
  void *data;
};

typedef struct
{
  VmiWorkers *w;
  unsigned index;
} WorkerArg;

static void *
worker_main (void *p)
{
  WorkerArg *arg = p;
  VmiWorkers *w = arg->w;
  const unsigned index = arg->index;
  uint64_t seen = 0;

  free (arg);
  pthread_mutex_lock (&w->lock);
  for (;;) {
    while (w->generation == seen && !w->quit)
      pthread_cond_wait (&w->start, &w->lock);
    if (w->quit)
      break;
    seen = w->generation;
    pthread_mutex_unlock (&w->lock);

    w->func (w->data, index, w->n);

    pthread_mutex_lock (&w->lock);
    if (--w->pending == 0)
      pthread_cond_signal (&w->done);
  }
  pthread_mutex_unlock (&w->lock);
  return NULL;
}

VmiWorkers *
vmi_workers_new (unsigned n_threads)
{
  VmiWorkers *w;
  unsigned i;

  if (n_threads == 0) {
    long n = sysconf (_SC_NPROCESSORS_ONLN);
    n_threads = n > 0 ? (unsigned) n : 1;
  }
  w = calloc (1, sizeof (*w));
  if (!w)
    return NULL;
  w->n = 1;
  pthread_mutex_init (&w->lock, NULL);
  pthread_cond_init (&w->start, NULL);
  pthread_cond_init (&w->done, NULL);
  if (n_threads > 1) {
    w->threads = calloc (n_threads - 1, sizeof (pthread_t));
    if (!w->threads)
      goto fail;
    for (i = 1; i < n_threads; i++) {
      WorkerArg *arg = malloc (sizeof (*arg));
      if (!arg)
        goto fail;
      arg->w = w;
      arg->index = i;
      if (pthread_create (&w->threads[i - 1], NULL, worker_main, arg) != 0) {
        free (arg);
        goto fail;
      }
      /* counts the threads running, for the join in free */
      w->n = i + 1;
    }
  }
  return w;

fail:
  vmi_workers_free (w);
  return NULL;
}

unsigned
vmi_workers_n_threads (const VmiWorkers * workers)
{
  return workers ? workers->n : 1;
}

void
vmi_workers_run (VmiWorkers * w, void (*func) (void *, unsigned, unsigned),
    void *data)
{
  if (w->n == 1) {
    func (data, 0, 1);
    return;
  }
  pthread_mutex_lock (&w->lock);
  w->func = func;
  w->data = data;
  w->pending = w->n - 1;
  w->generation++;
  pthread_cond_broadcast (&w->start);
  pthread_mutex_unlock (&w->lock);

  func (data, 0, w->n);

  pthread_mutex_lock (&w->lock);
  while (w->pending > 0)
    pthread_cond_wait (&w->done, &w->lock);
  pthread_mutex_unlock (&w->lock);
}

void
vmi_workers_free (VmiWorkers * w)
{
  unsigned i;

  if (!w)
    return;
  pthread_mutex_lock (&w->lock);
  w->quit = true;
  pthread_cond_broadcast (&w->start);
  pthread_mutex_unlock (&w->lock);
  for (i = 1; i < w->n; i++)
    pthread_join (w->threads[i - 1], NULL);
  free (w->threads);
  pthread_cond_destroy (&w->done);
  pthread_cond_destroy (&w->start);
  pthread_mutex_destroy (&w->lock);
  free (w);
}

static void
run_slice (void *data, unsigned index, unsigned count)
{
  const VmiConvJob *job = data;
  const unsigned n = vmi_conv_job_n_units (job);

  vmi_conv_job_run_units (job, (unsigned) ((uint64_t) n * index / count),
      (unsigned) ((uint64_t) n * (index + 1) / count));
}

void
vmi_conv_job_run_parallel (const VmiConvJob * job, VmiWorkers * workers)
{
  if (!workers || workers->n == 1)
    vmi_conv_job_run (job);
  else
    vmi_workers_run (workers, run_slice, (void *) job);
}
