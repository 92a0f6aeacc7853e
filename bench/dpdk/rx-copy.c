/* gst-vmi benchmark: the floor of "the payload copied once, straight into
 * the frame" on this machine. One 1080p59.94 frame of datagrams (4497
 * payloads of 1376 bytes, each at its own 2 KiB mbuf-like slot, 9 MB) is
 * copied frame after frame into output frames taken in turn from a pool
 * of <frames> (1: the same frame every time, cache-warm; 4: st2022src's
 * pool minimum, which a FIFO pool goes round), with nothing else done.
 *
 *   bench-rx-copy [seconds per pool size, default 2]
 *
 * Prints, per pool size, the CPU time of the copying thread (getrusage
 * RUSAGE_THREAD) per datagram and the datagrams per CPU-second that the
 * copy alone would allow. Not a test: a shared machine's figures vary. */

#include "bench-cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DGRAMS 4497
#define PAYLOAD 1376
#define SLOT 2048

int
main (int argc, char **argv)
{
  double secs = argc > 1 ? atof (argv[1]) : 2.0;
  static const unsigned pools[] = { 1, 2, 4, 8 };
  unsigned char *src = aligned_alloc (64, (size_t) DGRAMS * SLOT);
  unsigned char *dst[8];
  unsigned p, i;

  if (src == NULL)
    return 1;
  for (i = 0; i < (size_t) DGRAMS * SLOT; i++)
    src[i] = (unsigned char) (i * 7);
  for (i = 0; i < 8; i++) {
    dst[i] = aligned_alloc (64, (size_t) DGRAMS * PAYLOAD);
    if (dst[i] == NULL)
      return 1;
    memset (dst[i], 0, (size_t) DGRAMS * PAYLOAD);
  }
  for (p = 0; p < sizeof (pools) / sizeof (pools[0]); p++) {
    double c0 = bench_cpu_seconds (RUSAGE_THREAD), c1;
    unsigned long long n = 0;
    unsigned f = 0, sum = 0;

    do {
      unsigned char *d = dst[f++ % pools[p]];
      unsigned j, k;

      /* 64 frames between clock reads */
      for (k = 0; k < 64; k++)
        for (j = 0; j < DGRAMS; j++)
          memcpy (d + (size_t) j * PAYLOAD, src + (size_t) j * SLOT + 128 +
              66, PAYLOAD);
      n += 64 * DGRAMS;
      sum += d[f % DGRAMS];
      c1 = bench_cpu_seconds (RUSAGE_THREAD);
    } while (c1 - c0 < secs);
    printf ("rx-copy frames=%u ns_per_datagram=%.1f mdgps_per_cpu_s=%.2f "
        "(check %u)\n", pools[p], (c1 - c0) / n * 1e9, n / (c1 - c0) / 1e6,
        sum & 1);
  }
  return 0;
}
