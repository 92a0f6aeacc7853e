/* gst-vmi benchmark: the floor of "the payload copied once, straight into
 * the frame" on this machine. One 1080p59.94 frame of datagrams (4497
 * payloads of 1376 bytes, each at its own 2 KiB mbuf-like slot, 9 MB) is
 * copied frame after frame into output frames taken in turn from a pool
 * of <frames> (1: the same frame every time, cache-warm; 4: st2022src's
 * pool minimum, which a FIFO pool goes round), with nothing else done;
 * then the way st2022src splits it (side=1): each SDI line's active 4800
 * bytes into the 1920x1080 UYVP picture, its 700 bytes of horizontal
 * blanking and the vertical-blanking lines into a raster-sized side
 * buffer (two, used in turn) that the ancillary-data reader parses.
 * Each case runs with the picture written by ordinary stores (copy=memcpy)
 * and right after by the depacketizer's streaming-store copy
 * (copy=stream: st2022_copy_stream(), gst/st2022/st2022-copy.c, and a
 * fence per frame), so the two see the same minute of this machine; the
 * side buffer is always written with memcpy, as in the depacketizer.
 *
 *   bench-rx-copy [seconds per case, default 2] [rounds, default 1]
 *
 * Prints, per round, layout, pool size and copy, the CPU time of the
 * copying thread (getrusage RUSAGE_THREAD) per datagram and the datagrams
 * per CPU-second that the copy alone would allow. Not a test: a shared
 * machine's figures vary. */

#include "bench-cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st2022-copy.h"

#define DGRAMS 4497
#define PAYLOAD 1376
#define SLOT 2048
/* 1080-line HD raster: 5500-byte lines, 700 bytes of EAV/LN/CRC/HANC
 * then 4800 active, picture lines 42-1121 */
#define LINE 5500
#define HBLANK 700
#define ACTIVE 4800
#define FIRST 41
#define LINES 1080

/* datagram @j of the frame at @s, split as st2022src does */
/* the picture copy under test */
static void (*copy_pic) (unsigned char *dst, const unsigned char *src,
    size_t len);

static void
copy_plain (unsigned char *dst, const unsigned char *src, size_t len)
{
  memcpy (dst, src, len);
}

static void
copy_split (unsigned char *pic, unsigned char *side, const unsigned char *s,
    unsigned j)
{
  size_t b0 = (size_t) j * PAYLOAD, b1 = b0 + PAYLOAD, pos = b0;
  size_t line = b0 / LINE, ls = line * LINE;

  while (pos < b1) {
    size_t end = ls + LINE < b1 ? ls + LINE : b1, off = pos - ls;
    size_t eoff = end - ls;

    if (line < FIRST || line >= FIRST + LINES) {
      memcpy (side + pos, s + (pos - b0), end - pos);
    } else {
      if (off < HBLANK) {
        size_t e = eoff < HBLANK ? eoff : HBLANK;
        memcpy (side + pos, s + (pos - b0), e - off);
        off = e;
      }
      if (off < eoff)
        copy_pic (pic + (line - FIRST) * ACTIVE + (off - HBLANK),
            s + (ls + off - b0), eoff - off);
    }
    pos = end;
    line++;
    ls += LINE;
  }
}

int
main (int argc, char **argv)
{
  double secs = argc > 1 ? atof (argv[1]) : 2.0;
  unsigned rounds = argc > 2 ? (unsigned) atoi (argv[2]) : 1, round, stream;
  static const unsigned pools[] = { 1, 2, 4, 8 };
  unsigned char *src = aligned_alloc (64, (size_t) DGRAMS * SLOT);
  unsigned char *dst[8], *side[2];
  unsigned p, i, split;

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
  for (i = 0; i < 2; i++) {
    side[i] = aligned_alloc (64, (size_t) DGRAMS * PAYLOAD);
    if (side[i] == NULL)
      return 1;
    memset (side[i], 0, (size_t) DGRAMS * PAYLOAD);
  }
  for (round = 0; round < rounds; round++)
    for (split = 0; split < 2; split++)
      for (p = 0; p < sizeof (pools) / sizeof (pools[0]); p++)
        for (stream = 0; stream < 2; stream++) {
          double c0, c1;
          unsigned long long n = 0;
          unsigned f = 0, sum = 0;

          copy_pic = stream ? st2022_copy_stream : copy_plain;
          c0 = bench_cpu_seconds (RUSAGE_THREAD);
          do {
            unsigned char *d = dst[f % pools[p]], *sb = side[f % 2];
            unsigned j, k;

            /* 16 frames between clock reads */
            for (k = 0; k < 16; k++, f++) {
              d = dst[f % pools[p]];
              sb = side[f % 2];
              for (j = 0; j < DGRAMS; j++) {
                const unsigned char *s = src + (size_t) j * SLOT + 128 + 66;

                if (split)
                  copy_split (d, sb, s, j);
                else
                  copy_pic (d + (size_t) j * PAYLOAD, s, PAYLOAD);
              }
              /* as the depacketizer does before handing a frame on */
              if (stream)
                st2022_copy_stream_fence ();
            }
            n += 16 * DGRAMS;
            sum += d[f % DGRAMS] + sb[f % DGRAMS];
            c1 = bench_cpu_seconds (RUSAGE_THREAD);
          } while (c1 - c0 < secs);
          printf ("rx-copy round=%u side=%u frames=%u copy=%s "
              "ns_per_datagram=%.1f mdgps_per_cpu_s=%.2f (check %u)\n",
              round + 1, split, pools[p],
              stream ? st2022_copy_stream_name () : "memcpy",
              (c1 - c0) / n * 1e9, n / (c1 - c0) / 1e6, sum & 1);
          fflush (stdout);
        }
  return 0;
}
