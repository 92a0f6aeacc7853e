/* gst-vmi: micro-benchmark of the ST 2022-6 codec core
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One 1080i59.94 frame (4497 datagrams).  Each figure is the median of
 * several repetitions, printed next to its baseline measured in the same
 * run: a plain memcpy of the same 1376-byte payloads.
 *
 * Usage: bench_st2022_codec [repetitions] (default 15)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "st2022.h"
#include "st2022-crc.h"
#include "st2022-lock.h"
#include "bench-time.h"

typedef struct
{
  guint8 *data;
  gsize size;
  gsize stride;
  St2022TargetType type;
  gboolean decline;
} Bench;

static gboolean
b_begin (gpointer user, const St2022Format * fmt, const St2022Header * hdr,
    St2022Target * t)
{
  Bench *b = user;
  if (b->decline)
    return FALSE;
  t->type = b->type;
  t->data = b->data;
  t->size = b->size;
  t->stride = b->stride;
  return TRUE;
}

static void
b_end (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  if (!info->complete && !info->aborted)
    fprintf (stderr, "unexpected incomplete frame\n");
}

/* ns for the depacketizer to take the second of two frames of datagrams
 * (the first one syncs it), with the targets @b hands out; @with_lock:
 * behind the stream lock, as in st2022src */
static guint64
time_depacketize (Bench * b, const St2022Format * f, const guint8 * dgs,
    gboolean with_lock)
{
  St2022DepacketizerCallbacks cb = { b_begin, b_end, NULL };
  St2022Depacketizer *d = st2022_depacketizer_new (&cb, b);
  /* st2022src's path: the stream lock judges (and parses) each datagram,
   * the depacketizer takes the parsed header */
  St2022StreamLock *l = with_lock ? st2022_stream_lock_new (2) : NULL;
  guint N = f->datagrams_per_frame, fr, i;
  guint64 t0 = 0, t;

  for (fr = 0; fr < 2; fr++) {
    const guint8 *base = dgs + (gsize) fr * N * ST2022_DATAGRAM_SIZE;
    if (fr == 1)
      t0 = now_ns ();
    for (i = 0; i < N; i++) {
      const guint8 *dg = base + (gsize) i * ST2022_DATAGRAM_SIZE;
      St2022Header h;

      if (l == NULL)
        st2022_depacketizer_push (d, dg, ST2022_DATAGRAM_SIZE, 0);
      else if (st2022_stream_lock_push (l, dg, ST2022_DATAGRAM_SIZE, &h) ==
          ST2022_LOCK_ACCEPT)
        st2022_depacketizer_push_parsed (d, dg, &h, 0);
    }
  }
  t = now_ns () - t0;
  st2022_depacketizer_free (d);
  if (l)
    st2022_stream_lock_free (l);
  return t;
}

/* keeps the compiler from dropping the baseline copies */
volatile guint8 sink_byte;

/* more than any last-level cache here (32 MB): reading it pushes the
 * picture and the raster out */
#define EVICT_BYTES (96u << 20)

static void
evict (guint8 * junk)
{
  gsize i;
  guint acc = 0;

  for (i = 0; i < EVICT_BYTES; i += 64)
    acc += junk[i]++;
  sink_byte = acc;
}

/* The writer against its two possible bounds, each cold (picture and
 * raster evicted first: a sink whose frames arrive from another core or a
 * capture card) and warm (both just touched: the same frame again):
 *  - a memcpy of the raster (6.2 MB read, 6.2 MB written): the traffic of
 *    any writer that builds the whole raster before it is sent;
 *  - a memcpy of the picture (5.2 MB read, 5.2 MB written): what is left
 *    when the raster never leaves the cache (a sliced writer a few lines
 *    ahead of the packetizer). */
static void
writer_bounds (const St2022Format * f, St2022RasterWriter * w,
    const guint8 * uyvp, gsize ustride, guint8 * raster, guint8 * target,
    guint reps)
{
  guint8 *junk = g_malloc0 (EVICT_BYTES);
  guint64 *t[6];
  gsize pic = ustride * f->height;
  guint r, k;
  const gchar *names[6] = { "writer UYVP", "memcpy raster 6.2 MB",
    "memcpy picture 5.2 MB", "writer UYVP", "memcpy raster 6.2 MB",
    "memcpy picture 5.2 MB"
  };

  for (k = 0; k < 6; k++)
    t[k] = g_new (guint64, reps);
  for (r = 0; r < reps; r++) {
    for (k = 0; k < 6; k++) {
      gboolean cold = k < 3;
      guint64 t0;

      guint pass;

      if (cold)
        evict (junk);
      /* warm: the same work once untimed first */
      for (pass = cold ? 1 : 0; pass < 2; pass++) {
        t0 = now_ns ();
        if (k % 3 == 0)
          st2022_raster_writer_write (w, raster, f->frame_bytes,
              ST2022_PIXEL_UYVP, uyvp, ustride);
        else if (k % 3 == 1)
          memcpy (target, raster, f->frame_bytes);
        else
          memcpy (target, uyvp, pic);
        t[k][r] = now_ns () - t0;
      }
      sink_byte = target[r];
    }
  }
  printf ("  writer bounds (median of %u; cold = caches flushed with %u MB "
      "first, warm = same work just done):\n", reps, EVICT_BYTES >> 20);
  for (k = 0; k < 6; k++) {
    guint64 m = median (t[k], reps);
    guint64 wr = median (t[k < 3 ? 0 : 3], reps);

    printf ("    %-4s %-22s %8.3f ms/frame%s", k < 3 ? "cold" : "warm",
        names[k], m / 1e6, k % 3 ? "" : "\n");
    if (k % 3)
      printf ("  writer %.2fx\n", (double) wr / m);
  }
  for (k = 0; k < 6; k++)
    g_free (t[k]);
  g_free (junk);
}

int
main (int argc, char **argv)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  guint reps = argc > 1 ? (guint) atoi (argv[1]) : 15;
  guint N = f->datagrams_per_frame, r, i;
  gsize ustride = f->active_bytes, vstride;
  guint8 *uyvp, *v210, *raster, *raster2, *dgs, *target;
  St2022RasterWriter *w, *w_res;
  St2022Packetizer *p;
  St2022Datagram batch[64];
  guint64 *t_wu, *t_wv, *t_pk, *t_mc, *t_dr, *t_du, *t_rd, *t_dn, *t_rv;
  guint64 *t_mp, *t_dv, *t_wx, *t_rx;
  guint8 *uyvp_res;
  guint64 sum = 0;
  GRand *g;

  if (reps < 1)
    reps = 1;
  vstride = st2022_picture_min_stride (f, ST2022_PIXEL_V210);
  uyvp = g_malloc (ustride * f->height);
  v210 = g_malloc (vstride * f->height);
  raster = g_malloc (f->frame_bytes);
  raster2 = g_malloc (f->frame_bytes);
  target = g_malloc (f->frame_bytes);
  dgs = g_malloc ((gsize) N * 2 * ST2022_DATAGRAM_SIZE);
  t_wu = g_new (guint64, reps);
  t_wv = g_new (guint64, reps);
  t_wx = g_new (guint64, reps);
  t_pk = g_new (guint64, reps);
  t_mc = g_new (guint64, reps);
  t_dr = g_new (guint64, reps);
  t_du = g_new (guint64, reps);
  t_rd = g_new (guint64, reps);
  t_dn = g_new (guint64, reps);
  t_rv = g_new (guint64, reps);
  t_mp = g_new (guint64, reps);
  t_dv = g_new (guint64, reps);
  t_rx = g_new (guint64, reps);

  /* legal random samples (4..1019), like real video: illegal values are
   * rare and take the slow clip path */
  g = g_rand_new_with_seed (1);
  for (i = 0; i < f->height; i++) {
    guint16 words[3840];
    guint k;
    for (k = 0; k < f->width * 2; k++)
      words[k] = g_rand_int_range (g, 4, 1020);
    st2022_pack_words (words, uyvp + i * ustride, f->width * 2);
  }
  /* the same with a reserved value (0 or 1023, as 8-bit 0 and 255 become)
   * in every 100th word: every row takes the clip path, as smpte bars
   * converted from 8 bits do */
  uyvp_res = g_malloc (ustride * f->height);
  for (i = 0; i < f->height; i++) {
    guint16 words[3840];
    guint k;
    for (k = 0; k < f->width * 2; k++)
      words[k] = k % 100 == 7 ? (k % 200 == 7 ? 0 : 1023) :
          g_rand_int_range (g, 4, 1020);
    st2022_pack_words (words, uyvp_res + i * ustride, f->width * 2);
  }
  g_rand_free (g);

  w = st2022_raster_writer_new (f);
  w_res = st2022_raster_writer_new (f);
  st2022_raster_writer_write (w, raster, f->frame_bytes, ST2022_PIXEL_UYVP,
      uyvp, ustride);
  st2022_raster_read (f, raster, f->frame_bytes, ST2022_PIXEL_V210, v210,
      vstride);

  /* two frames of datagrams for the depacketizer runs */
  p = st2022_packetizer_new (f, NULL);
  for (r = 0; r < 2; r++) {
    guint n = 0;
    int got;
    st2022_packetizer_begin_frame (p, raster, f->frame_bytes,
        r * f->rtp_ts_increment);
    while ((got = st2022_packetizer_next (p, batch, 64)) > 0) {
      int k;
      for (k = 0; k < got; k++, n++) {
        guint8 *d = dgs + ((gsize) r * N + n) * ST2022_DATAGRAM_SIZE;
        memcpy (d, batch[k].header, batch[k].header_len);
        memcpy (d + batch[k].header_len, batch[k].payload, 1376);
      }
    }
  }

  for (r = 0; r < reps; r++) {
    guint64 t0;
    Bench b;

    /* raster build */
    t0 = now_ns ();
    st2022_raster_writer_write (w, raster2, f->frame_bytes,
        ST2022_PIXEL_UYVP, uyvp, ustride);
    t_wu[r] = now_ns () - t0;
    t0 = now_ns ();
    st2022_raster_writer_write (w, raster2, f->frame_bytes,
        ST2022_PIXEL_V210, v210, vstride);
    t_wv[r] = now_ns () - t0;
    /* its own writer: a writer remembers which rows held reserved values,
     * and a stream does not switch between two pictures every frame */
    t0 = now_ns ();
    st2022_raster_writer_write (w_res, raster2, f->frame_bytes,
        ST2022_PIXEL_UYVP, uyvp_res, ustride);
    t_wx[r] = now_ns () - t0;
    /* the writer's baseline: a plain memcpy of the UYVP picture */
    t0 = now_ns ();
    memcpy (target, uyvp, ustride * f->height);
    t_mp[r] = now_ns () - t0;
    sink_byte = target[ustride * r];

    /* packetize: headers + iovec pointers for the whole frame */
    t0 = now_ns ();
    st2022_packetizer_begin_frame (p, raster, f->frame_bytes, r);
    while (st2022_packetizer_next (p, batch, 64) > 0)
      sum += batch[0].header[3];
    t_pk[r] = now_ns () - t0;

    /* baseline: memcpy each datagram's 1376 payload bytes into a frame */
    t0 = now_ns ();
    for (i = 0; i < N; i++)
      memcpy (target + (gsize) i * 1376, dgs + (gsize) i *
          ST2022_DATAGRAM_SIZE + 24, i == N - 1 ? f->last_payload_bytes :
          1376);
    t_mc[r] = now_ns () - t0;
    sink_byte = target[r];

    /* depacketize into a raster */
    b.decline = FALSE;
    b.type = ST2022_TARGET_RASTER;
    b.data = target;
    b.size = f->frame_bytes;
    b.stride = 0;
    t_dr[r] = time_depacketize (&b, f, dgs, FALSE);

    /* depacketize into a UYVP picture */
    b.type = ST2022_TARGET_UYVP;
    b.size = ustride * f->height;
    b.stride = ustride;
    /* both with the picture warm (one untimed pass first), so that the
     * second does not gain from the first having brought it in */
    time_depacketize (&b, f, dgs, FALSE);
    t_du[r] = time_depacketize (&b, f, dgs, FALSE);
    /* the same behind the stream lock: st2022src's receive path */
    t_rx[r] = time_depacketize (&b, f, dgs, TRUE);

    /* depacketize into a v210 picture (no raster pass) */
    b.type = ST2022_TARGET_V210;
    b.size = vstride * f->height;
    b.stride = vstride;
    t_dv[r] = time_depacketize (&b, f, dgs, FALSE);

    /* the depacketizer's own cost: every frame declined, nothing copied */
    b.decline = TRUE;
    t_dn[r] = time_depacketize (&b, f, dgs, FALSE);

    /* raster → UYVP picture (reader) */
    t0 = now_ns ();
    st2022_raster_read (f, raster, f->frame_bytes, ST2022_PIXEL_UYVP, target,
        ustride);
    t_rd[r] = now_ns () - t0;
    t0 = now_ns ();
    st2022_raster_read (f, raster, f->frame_bytes, ST2022_PIXEL_V210, v210,
        vstride);
    t_rv[r] = now_ns () - t0;
  }

  {
    double mc = (double) median (t_mc, reps) / N;
    double pk = (double) median (t_pk, reps) / N;
    double dr = (double) median (t_dr, reps) / N;
    double du = (double) median (t_du, reps) / N;

    printf ("st2022-codec: 1080i59.94, %u datagrams/frame, median of %u "
        "runs, writer CRC: %s\n", N, reps, st2022_crc_impl_name ());
    printf ("  raster build (writer) UYVP    %8.3f ms/frame  (%.1f%% of a "
        "33.37 ms frame period)\n", median (t_wu, reps) / 1e6,
        median (t_wu, reps) / 1e6 / 33.3667 * 100);
    printf ("  raster build (writer) v210    %8.3f ms/frame\n",
        median (t_wv, reps) / 1e6);
    printf ("  writer UYVP, reserved values  %8.3f ms/frame  (every row "
        "clipped)\n", median (t_wx, reps) / 1e6);
    printf ("  baseline memcpy UYVP picture  %8.3f ms/frame  (writer UYVP "
        "%.1fx, v210 %.1fx)\n", median (t_mp, reps) / 1e6,
        (double) median (t_wu, reps) / median (t_mp, reps),
        (double) median (t_wv, reps) / median (t_mp, reps));
    printf ("  raster read UYVP              %8.3f ms/frame\n",
        median (t_rd, reps) / 1e6);
    printf ("  raster read v210              %8.3f ms/frame\n",
        median (t_rv, reps) / 1e6);
    printf ("  baseline memcpy 1376 B        %8.1f ns/datagram\n", mc);
    printf ("  packetize (hdr+iovec)         %8.1f ns/datagram  %5.2fx "
        "memcpy\n", pk, pk / mc);
    printf ("  depacketize -> raster         %8.1f ns/datagram  %5.2fx "
        "memcpy\n", dr, dr / mc);
    printf ("  depacketize -> UYVP picture   %8.1f ns/datagram  %5.2fx "
        "memcpy\n", du, du / mc);
    printf ("  receive path: stream lock +   %8.1f ns/datagram  %5.2fx "
        "memcpy\n    depacketize -> UYVP (st2022src's per-datagram work)\n",
        (double) median (t_rx, reps) / N,
        (double) median (t_rx, reps) / N / mc);
    printf ("  depacketize -> v210 picture   %8.1f ns/datagram  %5.2fx "
        "memcpy\n", (double) median (t_dv, reps) / N,
        (double) median (t_dv, reps) / N / mc);
    printf ("  depacketize, no copy (parse,  %8.1f ns/datagram  %5.2fx "
        "memcpy\n    map, loss/reorder bookkeeping)\n",
        (double) median (t_dn, reps) / N,
        (double) median (t_dn, reps) / N / mc);
  }
  if (sum == 42)
    printf (" \n");

  writer_bounds (f, w, uyvp, ustride, raster2, target, reps);

  st2022_packetizer_free (p);
  st2022_raster_writer_free (w);
  st2022_raster_writer_free (w_res);
  g_free (uyvp);
  g_free (uyvp_res);
  g_free (t_wx);
  g_free (v210);
  g_free (raster);
  g_free (raster2);
  g_free (target);
  g_free (dgs);
  g_free (t_wu);
  g_free (t_wv);
  g_free (t_pk);
  g_free (t_mc);
  g_free (t_dr);
  g_free (t_du);
  g_free (t_rd);
  g_free (t_dn);
  g_free (t_rv);
  g_free (t_mp);
  g_free (t_dv);
  g_free (t_rx);
  return 0;
}
