/* gst-vmi: micro-benchmark of st2022src's receive path with two paths
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What a receiving core does per frame after the transport (a DPDK port
 * hands over datagrams in place, so this is all of it there; sockets add
 * the kernel's copy of each datagram): one path is the stream lock and the
 * depacketizer, as in st2022src; two paths are a stream lock per path, the
 * ST 2022-7 merge and the depacketizer, fed both copies of every datagram,
 * the secondary 30 ms (4047 datagrams) behind, without loss and with 5 %
 * disjoint losses on each path (the leading path's datagrams behind a gap
 * held in order until the lagging path fills it, or passed on at once as
 * st2022src does).  1080i59.94 frames of random legal video;
 * on-CPU time from the third frame on, the median of several repetitions.
 *
 * Usage: bench_seamless [repetitions [case]] (default 9; case 0 to 3 runs
 * that row alone, for a profiler)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "st2022.h"
#include "st2022-lock.h"
#include "st2022-seamless.h"
#include "bench-time.h"

#define FRAMES 20
#define PERIOD_NS 7418
#define SKEW 4047
/* datagrams a path hands over per receive, as st2022src's LEGS_BURST */
#define BURST 64
/* rows */
#define NV 4

typedef struct
{
  guint8 *target;
  gsize size, stride;
  guint frames, incomplete;
} Out;

static gboolean
o_begin (gpointer user, const St2022Format * fmt, const St2022Header * hdr,
    St2022Target * t)
{
  Out *o = user;

  t->type = ST2022_TARGET_UYVP;
  t->data = o->target;
  t->size = o->size;
  t->stride = o->stride;
  return TRUE;
}

static void
o_end (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  Out *o = user;

  o->frames++;
  o->incomplete += !info->complete;
}

static void
m_emit (gpointer user, const guint8 * data, gsize len, guint64 arrival,
    St2022SeamlessPath path, gconstpointer tag)
{
  /* as st2022src: a datagram leaving at once comes with its parsed header */
  if (tag)
    st2022_depacketizer_push_parsed (user, data, tag, arrival);
  else
    st2022_depacketizer_push (user, data, len, arrival);
}

static void
lock_then (St2022StreamLock * l, St2022Seamless * m, St2022Depacketizer * d,
    guint path, const guint8 * dg, guint64 t)
{
  St2022Header h;
  St2022LockVerdict v = st2022_stream_lock_push (l, dg, ST2022_DATAGRAM_SIZE,
      &h);
  guint k, nr = 1;

  if (v == ST2022_LOCK_RELOCK)
    nr = st2022_stream_lock_replay_count (l);
  else if (v != ST2022_LOCK_ACCEPT)
    return;
  for (k = 0; k < nr; k++) {
    gsize len = ST2022_DATAGRAM_SIZE;

    /* the run that locked the stream, then the datagrams one by one */
    if (v == ST2022_LOCK_RELOCK) {
      dg = st2022_stream_lock_replay (l, k, &len);
      st2022_header_parse (dg, len, &h, NULL);
    }
    if (m == NULL)
      st2022_depacketizer_push_parsed (d, dg, &h, t);
    else
      st2022_seamless_push (m, path, h.ssrc, h.seq, dg, len, t, &h);
  }
}

/* ns per datagram of the stream; @paths 1 or 2; @loss: 5 % disjoint;
 * @reach: as st2022src, the merge passes datagrams behind a gap on at once
 * and the depacketizer keeps a frame open for them (else: in order, held) */
static guint64
run (const St2022Format * f, const guint8 * dgs, guint n, guint paths,
    gboolean loss, gboolean reach, Out * o)
{
  St2022DepacketizerCallbacks cb = { o_begin, o_end, NULL };
  St2022Depacketizer *d = st2022_depacketizer_new (&cb, o);
  St2022SeamlessCallbacks mcb = { m_emit, NULL };
  St2022Seamless *m = paths == 2 ?
      st2022_seamless_new (50, 50 * 270, &mcb, d) : NULL;
  St2022StreamLock *la = st2022_stream_lock_new (2);
  St2022StreamLock *lb = st2022_stream_lock_new (2);
  guint64 t0;
  guint i;

  st2022_stream_lock_set_depacketizer (la, d);
  st2022_stream_lock_set_depacketizer (lb, d);
  if (m && reach) {
    st2022_seamless_set_reach (m, f->datagrams_per_frame - 1);
    st2022_depacketizer_set_reorder_window (d, f->datagrams_per_frame - 1);
  }
  o->frames = o->incomplete = 0;
  t0 = 0;
  for (i = 0; i < n + (paths == 2 ? SKEW : 0); i += BURST) {
    guint64 t = (guint64) i * PERIOD_NS;
    guint j;

    /* timed from the third frame on: the start (the merge holding the
     * leading path until the lagging one shows up, its store's pages
     * touched the first time) is a one-off */
    if (t0 == 0 && i >= 2 * f->datagrams_per_frame + (paths == 2 ? SKEW : 0))
      t0 = now_ns ();

    /* as st2022src: a burst of each path in turn */
    for (j = i; j < i + BURST && j < n; j++) {
      if (!(loss && j % 20 == 7))
        lock_then (la, m, d, 0, dgs + (gsize) j * ST2022_DATAGRAM_SIZE, t);
    }
    for (j = i; paths == 2 && j < i + BURST; j++) {
      if (j >= SKEW && j - SKEW < n && !(loss && (j - SKEW) % 20 == 13))
        lock_then (lb, m, d, 1, dgs + (gsize) (j - SKEW) *
            ST2022_DATAGRAM_SIZE, t);
    }
  }
  if (m)
    st2022_seamless_flush (m);
  t0 = now_ns () - t0;
  st2022_seamless_free (m);
  n -= 2 * f->datagrams_per_frame;
  st2022_stream_lock_free (la);
  st2022_stream_lock_free (lb);
  st2022_depacketizer_free (d);
  return t0 / n;
}

int
main (int argc, char **argv)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  guint reps = argc > 1 ? (guint) atoi (argv[1]) : 9;
  gint only = argc > 2 ? atoi (argv[2]) : -1;
  guint N = f->datagrams_per_frame, n = N * FRAMES, r, i, v;
  gsize ustride = f->active_bytes;
  guint8 *uyvp, *raster, *dgs;
  St2022RasterWriter *w;
  St2022Packetizer *p;
  St2022Datagram batch[64];
  guint64 *t[NV];
  const char *names[NV] = { "one path (lock + depacketizer)",
    "two paths, no loss (2 locks + merge + depacketizer)",
    "two paths, 5 % disjoint loss each, held in order",
    "two paths, 5 % disjoint loss each, passed on at once",
  };
  Out o;
  GRand *g = g_rand_new_with_seed (3);

  if (reps < 1)
    reps = 1;
  uyvp = g_malloc (ustride * f->height);
  raster = g_malloc (f->frame_bytes);
  dgs = g_malloc ((gsize) n * ST2022_DATAGRAM_SIZE);
  o.stride = ustride;
  o.size = ustride * f->height;
  o.target = g_malloc (o.size);
  for (i = 0; i < f->height; i++) {
    guint16 words[3840];
    guint k;

    for (k = 0; k < f->width * 2; k++)
      words[k] = g_rand_int_range (g, 4, 1020);
    st2022_pack_words (words, uyvp + i * ustride, f->width * 2);
  }
  g_rand_free (g);
  w = st2022_raster_writer_new (f);
  st2022_raster_writer_write (w, raster, f->frame_bytes, ST2022_PIXEL_UYVP,
      uyvp, ustride);
  p = st2022_packetizer_new (f, NULL);
  for (r = 0, i = 0; r < FRAMES; r++) {
    int got;

    st2022_packetizer_begin_frame (p, raster, f->frame_bytes,
        r * f->rtp_ts_increment);
    while ((got = st2022_packetizer_next (p, batch, 64)) > 0) {
      int k;

      for (k = 0; k < got; k++, i++) {
        guint8 *d = dgs + (gsize) i * ST2022_DATAGRAM_SIZE;

        memcpy (d, batch[k].header, batch[k].header_len);
        memcpy (d + batch[k].header_len, batch[k].payload, 1376);
      }
    }
  }

  for (v = 0; v < NV; v++)
    t[v] = g_new (guint64, reps);
  for (r = 0; r < reps; r++)
    for (v = 0; v < NV; v++) {
      if (only >= 0 && (gint) v != only) {
        t[v][r] = 1;
        continue;
      }
      t[v][r] = run (f, dgs, n, v ? 2 : 1, v >= 2, v != 2, &o);
      /* every frame whole: the merge lost nothing */
      if (o.incomplete != 0 || o.frames < FRAMES - 1) {
        fprintf (stderr, "%s: %u frames, %u incomplete\n", names[v],
            o.frames, o.incomplete);
        return 1;
      }
    }
  printf ("bench_seamless: %u frames of %s, %u repetitions, median ns per "
      "datagram of the stream (%.1f us a frame at 1 ns)\n", FRAMES, f->name,
      reps, N / 1000.0);
  for (v = 0; v < NV; v++) {
    if (only >= 0 && (gint) v != only)
      continue;
    median (t[v], reps);
    printf ("  %-52s %4" G_GUINT64_FORMAT " ns/datagram  %6.2f ms/frame  "
        "%.2fx\n", names[v], t[v][reps / 2],
        t[v][reps / 2] * (double) N / 1e6,
        only < 0 ? (double) t[v][reps / 2] / t[0][reps / 2] : 1.0);
  }
  st2022_raster_writer_free (w);
  st2022_packetizer_free (p);
  g_free (uyvp);
  g_free (raster);
  g_free (dgs);
  g_free (o.target);
  for (v = 0; v < NV; v++)
    g_free (t[v]);
  return 0;
}
