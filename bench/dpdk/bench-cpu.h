/* gst-vmi benchmarks: CPU seconds (user + system) from getrusage, of the
 * calling thread (RUSAGE_THREAD) or the whole process (RUSAGE_SELF): time a
 * shared core gave other processes is not counted. */

#ifndef __BENCH_CPU_H__
#define __BENCH_CPU_H__

#include <sys/resource.h>

static inline double
bench_cpu_seconds (int who)
{
  struct rusage ru;

  getrusage (who, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

#endif
