/* gst-vmi: micro-benchmark of the raster writer's row kernels
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One 1080-line row of UYVP (1920 pixels, 4800 packed bytes) through
 * each implementation of the writer's kernels, warm (the row and its
 * destination stay in L1/L2), next to a memcpy of the same row measured
 * in the same run:
 *   - copy + CRC + legality check of a legal row
 *     (st2022_crc_legal_packed_impl(), every implementation this CPU has);
 *   - copy + clip + CRC of a row holding reserved values
 *     (st2022_packed_clip_crc_impl()): a row laid out as the quarter of
 *     pattern=smpte's rows that hold the reserved value 0 (160 chroma
 *     words 0 among words 1921..2239), and a row with a reserved value in
 *     every 100th word (every third 32-word step holds one).
 * Each figure is the median over rounds of ns per row (a round runs the
 * row many times), so a preempted round does not count.
 * Last, the whole writer as the transmit engine runs it: 1080p59.94 UYVP
 * frames written line by line into a 2 MiB ring (st2022_raster_writer_
 * begin() + _lines(), each frame starting where the last one ended), a
 * legal picture and one whose last 270 rows hold the smpte row's reserved
 * span; µs per frame, median and quietest round: what the per-line work
 * (blanking, LN, CRC words) adds to the row kernels.
 *
 * Usage: bench_st2022_crc [rounds] (default 31)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "st2022.h"
#include "st2022-crc.h"
#include "bench-time.h"

#define ROW_WORDS 3840
#define ROW_BYTES (ROW_WORDS * 10 / 8)
#define ITER 2000

static volatile guint32 sink_crc;

typedef enum
{
  K_MEMCPY,
  K_LEGAL,
  K_CLIP,
  K_LEGAL_NOCOPY,
} Kernel;

/* median ns per row of @kind with implementation @impl over @rounds
 * rounds, or -1 if this CPU or build lacks it */
static double
time_kernel (Kernel kind, guint impl, guint8 * dst, const guint8 * src,
    guint rounds)
{
  guint64 *t = g_new (guint64, rounds), m;
  guint r, i;
  guint32 c = 0, y = 0;
  gboolean clipped;

  for (r = 0; r < rounds; r++) {
    guint64 t0 = now_ns ();

    for (i = 0; i < ITER; i++) {
      switch (kind) {
        case K_MEMCPY:
          memcpy (dst, src, ROW_BYTES);
          c ^= dst[i % ROW_BYTES];
          break;
        case K_LEGAL:
          if (st2022_crc_legal_packed_impl (impl, dst, src, ROW_BYTES, &c,
                  &y) < 0) {
            g_free (t);
            return -1;
          }
          break;
        case K_LEGAL_NOCOPY:
          if (st2022_crc_legal_packed_impl (impl, NULL, src, ROW_BYTES, &c,
                  &y) < 0) {
            g_free (t);
            return -1;
          }
          break;
        case K_CLIP:
          if (st2022_packed_clip_crc_impl (impl, dst, src, ROW_BYTES, &c, &y,
                  &clipped) < 0) {
            g_free (t);
            return -1;
          }
          break;
      }
      sink_crc = c ^ y;
    }
    t[r] = now_ns () - t0;
  }
  m = median (t, rounds);
  g_free (t);
  return (double) m / ITER;
}

#define RING_BYTES (2u << 20)
#define WRITER_FRAMES 8

/* µs per frame of the writer into the ring: median and quietest of
 * @rounds rounds of WRITER_FRAMES frames */
static void
time_writer (const guint8 * pic, gsize stride, guint8 * ring, guint rounds,
    double *med, double *best)
{
  const St2022Format *f = st2022_format_from_name ("1080p59.94");
  St2022RasterWriter *w = st2022_raster_writer_new (f);
  guint64 *t = g_new (guint64, rounds);
  gsize origin = 0;
  guint r, i;

  for (r = 0; r < rounds; r++) {
    guint64 t0 = now_ns ();

    for (i = 0; i < WRITER_FRAMES; i++) {
      St2022RasterCursor cur;

      st2022_raster_writer_begin (w, &cur, ring, RING_BYTES, origin,
          ST2022_PIXEL_UYVP, pic, stride);
      st2022_raster_writer_lines (w, &cur, f->total_lines);
      origin = (origin + f->frame_bytes) % RING_BYTES;
    }
    t[r] = now_ns () - t0;
  }
  *best = (double) t[0];
  for (r = 1; r < rounds; r++)
    *best = MIN (*best, (double) t[r]);
  *best /= 1000.0 * WRITER_FRAMES;
  *med = (double) median (t, rounds) / (1000.0 * WRITER_FRAMES);
  g_free (t);
  st2022_raster_writer_free (w);
}

/* the writer on a legal 1080-row picture and on one whose last 270 rows
 * hold the smpte row's span of reserved words */
static void
bench_writer (guint rounds)
{
  gsize stride = ROW_BYTES;
  guint8 *pic = g_malloc (stride * 1080);
  guint8 *bars = g_malloc (stride * 1080);
  /* the ring and the slack a line pair written past its end needs (the
   * engine maps the ring twice instead) */
  guint8 *ring = g_malloc (RING_BYTES + (1u << 20));
  guint16 *words = g_new (guint16, ROW_WORDS);
  GRand *g = g_rand_new_with_seed (11);
  double m, b;
  guint y, k;

  for (y = 0; y < 1080; y++) {
    for (k = 0; k < ROW_WORDS; k++)
      words[k] = g_rand_int_range (g, 4, 1020);
    st2022_pack_words (words, pic + y * stride, ROW_WORDS);
    if (y >= 810)
      for (k = 1921; k < 2241; k += 2)
        words[k] = 0;
    st2022_pack_words (words, bars + y * stride, ROW_WORDS);
  }
  time_writer (pic, stride, ring, rounds, &m, &b);
  printf ("  writer, 1080p59.94 frame into a 2 MiB ring, legal   %7.1f us "
      "(quietest round %.1f)\n", m, b);
  time_writer (bars, stride, ring, rounds, &m, &b);
  printf ("  writer, 1080p59.94 frame, 270 smpte-like rows       %7.1f us "
      "(quietest round %.1f)\n", m, b);
  g_rand_free (g);
  g_free (words);
  g_free (ring);
  g_free (bars);
  g_free (pic);
}

int
main (int argc, char **argv)
{
  static const char *names[4] = { "scalar", "sse4.1+pclmul",
    "avx2+vpclmulqdq", "avx512vbmi+gfni+vpclmulqdq"
  };
  guint rounds = argc > 1 ? (guint) atoi (argv[1]) : 31;
  guint16 words[ROW_WORDS];
  guint8 *legal = g_malloc (ROW_BYTES + 64), *res = g_malloc (ROW_BYTES + 64);
  guint8 *bars = g_malloc (ROW_BYTES + 64);
  guint8 *dst = g_malloc (ROW_BYTES + 64);
  GRand *g = g_rand_new_with_seed (7);
  double mc;
  guint k, impl;

  if (rounds < 1)
    rounds = 1;
  st2022_crc_packed_init ();
  for (k = 0; k < ROW_WORDS; k++)
    words[k] = g_rand_int_range (g, 4, 1020);
  st2022_pack_words (words, legal, ROW_WORDS);
  for (k = 1921; k < 2241; k += 2)
    words[k] = 0;
  st2022_pack_words (words, bars, ROW_WORDS);
  for (k = 0; k < ROW_WORDS; k++)
    words[k] = g_rand_int_range (g, 4, 1020);
  /* 8-bit black and white (0 and 1023 after the shift) in every 100th
   * word, as in smpte bars converted from 8 bits */
  for (k = 7; k < ROW_WORDS; k += 100)
    words[k] = k % 200 == 7 ? 0 : 1023;
  st2022_pack_words (words, res, ROW_WORDS);
  g_rand_free (g);

  mc = time_kernel (K_MEMCPY, 0, dst, legal, rounds);
  printf ("st2022-crc: one 1920-pixel row (%u bytes), warm, median of %u "
      "rounds, ns per row; picked: %s\n", ROW_BYTES, rounds,
      st2022_crc_impl_name ());
  printf ("  memcpy of the row                       %8.1f\n", mc);
  for (impl = 0; impl < 4; impl++) {
    double ns = time_kernel (K_LEGAL, impl, dst, legal, rounds);

    if (ns >= 0)
      printf ("  copy+CRC+check, legal, %-16s %8.1f  (%.2fx memcpy)\n",
          names[impl], ns, ns / mc);
  }
  for (impl = 2; impl < 4; impl++) {
    double ns = time_kernel (K_LEGAL_NOCOPY, impl, dst, legal, rounds);

    if (ns >= 0)
      printf ("  CRC+check, no copy, legal, %-12s %8.1f  (%.2fx memcpy)\n",
          names[impl], ns, ns / mc);
  }
  for (impl = 2; impl < 4; impl++) {
    double ns = time_kernel (K_CLIP, impl, dst, bars, rounds);

    if (ns >= 0)
      printf ("  copy+clip+CRC, smpte row, %-13s %8.1f  (%.2fx memcpy)\n",
          names[impl], ns, ns / mc);
  }
  for (impl = 2; impl < 4; impl++) {
    double ns = time_kernel (K_CLIP, impl, dst, res, rounds);

    if (ns >= 0)
      printf ("  copy+clip+CRC, 1 in 100, %-14s %8.1f  (%.2fx memcpy)\n",
          names[impl], ns, ns / mc);
  }
  bench_writer (rounds);
  g_free (legal);
  g_free (res);
  g_free (bars);
  g_free (dst);
  return 0;
}
