/* gst-vmi: what the st2022 micro-benchmarks share: on-CPU time, medians
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __BENCH_TIME_H__
#define __BENCH_TIME_H__

#include <stdlib.h>
#include <time.h>
#include <glib.h>

static inline guint64
now_ns (void)
{
  struct timespec ts;
  /* on-CPU time: the machine may be shared, and a preempted run would
   * count another process's time */
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (guint64) ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline int
cmp_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static inline guint64
median (guint64 * v, guint n)
{
  qsort (v, n, sizeof (*v), cmp_u64);
  return v[n / 2];
}

#endif /* __BENCH_TIME_H__ */
