/* gst-vmi: unit tests of the ST 2022-6 packetizer and depacketizer
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022.h"
#include "st2022-copy.h"

#define N_BUFS 4

typedef struct
{
  guint8 data[ST2022_DATAGRAM_SIZE];
  gsize len;
} Dg;

typedef struct
{
  guint buf;
  gboolean aborted, complete, marker;
  guint32 rtp_ts;
  guint8 frcount;
  guint16 first_seq;
  guint received, missing;
  guint32 *missing_map;
  guint8 *v210_edges;           /* a copy, v210 targets only */
  const St2022Format *format;
  gboolean has_vts;
  guint32 vts;
} FrameRec;

typedef struct
{
  St2022TargetType type;
  guint8 *buf[N_BUFS];
  gsize size, stride;
  guint next_buf;
  gboolean decline_next;
  guint begins;
  GArray *frames;               /* FrameRec */
  GPtrArray *formats;           /* format_changed new formats */
  const St2022Format *fmt;      /* current allocation */
  guint8 *blank;                /* optional blanking buffer (frame_bytes) */
  guint32 *dirty;               /* optional St2022Target.blank_dirty */
} Ctx;

static gboolean
cb_begin (gpointer user, const St2022Format * fmt, const St2022Header * hdr,
    St2022Target * t)
{
  Ctx *c = user;
  guint b;

  c->begins++;
  if (c->decline_next) {
    c->decline_next = FALSE;
    return FALSE;
  }
  if (c->fmt != fmt) {
    /* (re)allocate for a new format, as an element would */
    for (b = 0; b < N_BUFS; b++)
      g_free (c->buf[b]);
    c->fmt = fmt;
    c->stride = (c->type == ST2022_TARGET_V210 ?
        st2022_picture_min_stride (fmt, ST2022_PIXEL_V210) :
        fmt->active_bytes) + 16;
    c->size = c->type == ST2022_TARGET_RASTER ? fmt->frame_bytes :
        c->stride * fmt->height;
    for (b = 0; b < N_BUFS; b++)
      c->buf[b] = g_malloc (c->size);
  }
  b = c->next_buf++ % N_BUFS;
  /* a pattern that shows every byte the depacketizer did not write */
  memset (c->buf[b], 0xee, c->size);
  t->type = c->type;
  t->data = c->buf[b];
  t->size = c->size;
  t->stride = c->stride;
  t->user_data = GUINT_TO_POINTER (b);
  if (c->blank) {
    t->blank = c->blank;
    t->blank_size = fmt->frame_bytes;
    t->blank_dirty = c->dirty;
  }
  return TRUE;
}

static void
cb_end (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  Ctx *c = user;
  FrameRec r;

  r.buf = GPOINTER_TO_UINT (t->user_data);
  r.aborted = info->aborted;
  r.complete = info->complete;
  r.marker = info->marker;
  r.rtp_ts = info->rtp_ts;
  r.frcount = info->frcount;
  r.first_seq = info->first_seq;
  r.received = info->received;
  r.missing = info->missing;
  r.format = info->format;
  r.has_vts = info->has_vts;
  r.vts = info->vts;
  r.missing_map = g_memdup2 (info->missing_map,
      (info->datagrams + 31) / 32 * 4);
  r.v210_edges = info->v210_edges ? g_memdup2 (info->v210_edges,
      (gsize) info->datagrams * 16) : NULL;
  /* (half_byte_lines: v210 is read from the whole frame, no edges) */
  fail_unless ((info->v210_edges != NULL) == (c->type == ST2022_TARGET_V210
          && !info->format->half_byte_lines));
  fail_unless_equals_int (info->received + info->missing, info->datagrams);
  fail_unless (info->complete == (info->missing == 0));
  g_array_append_val (c->frames, r);
}

static void
cb_format (gpointer user, const St2022Format * old, const St2022Format * nw)
{
  Ctx *c = user;
  g_ptr_array_add (c->formats, (gpointer) nw);
}

static const St2022DepacketizerCallbacks callbacks = {
  cb_begin, cb_end, cb_format
};

static void
ctx_init (Ctx * c, St2022TargetType type)
{
  memset (c, 0, sizeof (*c));
  c->type = type;
  c->frames = g_array_new (FALSE, TRUE, sizeof (FrameRec));
  c->formats = g_ptr_array_new ();
}

static void
ctx_clear (Ctx * c)
{
  guint i;
  for (i = 0; i < c->frames->len; i++) {
    g_free (g_array_index (c->frames, FrameRec, i).missing_map);
    g_free (g_array_index (c->frames, FrameRec, i).v210_edges);
  }
  g_array_free (c->frames, TRUE);
  g_ptr_array_free (c->formats, TRUE);
  for (i = 0; i < N_BUFS; i++)
    g_free (c->buf[i]);
  g_free (c->blank);
  g_free (c->dirty);
}

#define FRAME(c, i) (&g_array_index ((c)->frames, FrameRec, (i)))

static gboolean
map_bit (const guint32 * m, guint i)
{
  return (m[i / 32] >> (i % 32)) & 1;
}

/* exact missing map: exactly the listed indices */
static void
check_missing (const FrameRec * r, guint n, const guint * idx, guint n_idx)
{
  guint i, k, count = 0;

  for (i = 0; i < n; i++) {
    gboolean want = FALSE;
    for (k = 0; k < n_idx; k++)
      want |= idx[k] == i;
    fail_unless (map_bit (r->missing_map, i) == want, "datagram %u", i);
    count += want;
  }
  /* no stray bits past the last datagram */
  for (i = n; i < (n + 31) / 32 * 32; i++)
    fail_if (map_bit (r->missing_map, i));
  fail_unless_equals_int (r->missing, count);
}

/* random raster content (any bytes: the depacketizer is content-blind) */
static guint8 *
make_raster (const St2022Format * f, guint32 seed)
{
  guint8 *r = g_malloc (f->frame_bytes);
  GRand *g = g_rand_new_with_seed (seed);
  gsize i;
  for (i = 0; i + 4 <= f->frame_bytes; i += 4) {
    guint32 v = g_rand_int (g);
    memcpy (r + i, &v, 4);
  }
  for (; i < f->frame_bytes; i++)
    r[i] = g_rand_int (g);
  g_rand_free (g);
  return r;
}

/* Packetize @n frames; datagrams are copied out (a real sender would use
 * the iovecs directly) */
static Dg *
packetize (St2022Packetizer * p, const St2022Format * f, guint8 ** rasters,
    guint n, guint32 ts0)
{
  guint N = f->datagrams_per_frame, i;
  Dg *out = g_new (Dg, (gsize) n * N);
  St2022Datagram batch[64];

  for (i = 0; i < n; i++) {
    guint done = 0;
    int got;
    fail_unless_equals_int (st2022_packetizer_begin_frame (p, rasters[i],
            f->frame_bytes, ts0 + i * f->rtp_ts_increment), ST2022_OK);
    while ((got = st2022_packetizer_next (p, batch, 64)) > 0) {
      int k;
      for (k = 0; k < got; k++) {
        Dg *d = &out[(gsize) i * N + done + k];
        fail_unless_equals_int (batch[k].index, done + k);
        memcpy (d->data, batch[k].header, batch[k].header_len);
        memcpy (d->data + batch[k].header_len, batch[k].payload,
            batch[k].payload_len);
        d->len = batch[k].header_len + batch[k].payload_len;
      }
      done += got;
    }
    fail_unless_equals_int (got, 0);
    fail_unless_equals_int (done, N);
  }
  return out;
}

static void
push (St2022Depacketizer * d, const Dg * dg)
{
  fail_unless_equals_int (st2022_depacketizer_push (d, dg->data, dg->len, 0),
      ST2022_OK);
}

/* raster target content equals @src except in the missing datagrams,
 * which still hold the 0xee pattern */
static void
check_raster (const St2022Format * f, const guint8 * got, const guint8 * src,
    const guint32 * missing)
{
  guint i, N = f->datagrams_per_frame, bad = 0;

  for (i = 0; i < N; i++) {
    gsize off = (gsize) i * 1376;
    guint len = i == N - 1 ? f->last_payload_bytes : 1376, k;
    if (missing && map_bit (missing, i)) {
      for (k = 0; k < len; k++)
        bad += got[off + k] != 0xee;
    } else {
      bad += memcmp (got + off, src + off, len) != 0;
    }
  }
  fail_unless_equals_int (bad, 0);
}

static void
stats_check (St2022Depacketizer * d, guint64 packets, guint64 lost,
    guint64 reordered, guint64 dup, guint64 invalid, guint64 discarded,
    guint64 frames, guint64 corrupted)
{
  St2022DepacketizerStats s;

  st2022_depacketizer_get_stats (d, &s);
  fail_unless_equals_uint64 (s.packets, packets);
  fail_unless_equals_uint64 (s.packets_lost, lost);
  fail_unless_equals_uint64 (s.packets_reordered, reordered);
  fail_unless_equals_uint64 (s.packets_duplicate, dup);
  fail_unless_equals_uint64 (s.packets_invalid, invalid);
  fail_unless_equals_uint64 (s.packets_discarded, discarded);
  fail_unless_equals_uint64 (s.frames, frames);
  fail_unless_equals_uint64 (s.frames_corrupted, corrupted);
  fail_unless_equals_uint64 (s.bytes, packets * 1376);
}

/* ------------------------------------------------------------------------ */

GST_START_TEST (test_packetizer_fields)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  guint N = f->datagrams_per_frame, i;
  St2022PacketizerConfig cfg;
  St2022Packetizer *p;
  guint8 *r[2] = { make_raster (f, 1), make_raster (f, 2) };
  St2022Datagram *dg = g_new (St2022Datagram, N + 1);
  guint32 vts0 = 0xfffffff0u;

  st2022_packetizer_config_init (&cfg);
  fail_unless_equals_int (cfg.payload_type, 98);
  fail_unless (cfg.video_timestamp);
  cfg.payload_type = 96;
  cfg.ssrc = 0xcafebabe;
  cfg.initial_seq = 65534;
  cfg.initial_frcount = 255;
  cfg.initial_vts = vts0;
  p = st2022_packetizer_new (f, &cfg);
  fail_unless_equals_int (st2022_packetizer_next (p, dg, 1), 0);
  fail_unless_equals_int (st2022_packetizer_get_seq (p), 65534);
  fail_unless_equals_int (st2022_packetizer_get_frcount (p), 255);
  fail_unless_equals_int (st2022_packetizer_get_vts (p), vts0);

  for (i = 0; i < 2; i++) {
    guint k;
    fail_unless_equals_int (st2022_packetizer_begin_frame (p, r[i],
            f->frame_bytes - 1, 0), ST2022_ERROR_BUFFER_TOO_SMALL);
    fail_unless_equals_int (st2022_packetizer_begin_frame (p, r[i],
            f->frame_bytes, 1000 + i * 900900), ST2022_OK);
    /* the getters announce the next frame's values */
    fail_unless_equals_int (st2022_packetizer_get_frcount (p),
        (guint8) (255 + i + 1));
    fail_unless_equals_int (st2022_packetizer_get_vts (p),
        (guint32) (vts0 + (i + 1) * 4950000u));
    fail_unless_equals_int (st2022_packetizer_get_seq (p),
        (guint16) (65534 + (i + 1) * N));
    fail_unless_equals_int (st2022_packetizer_remaining (p), N);
    fail_unless_equals_int (st2022_packetizer_next (p, dg, 100), 100);
    fail_unless_equals_int (st2022_packetizer_remaining (p), N - 100);
    fail_unless_equals_int (st2022_packetizer_next (p, dg + 100, N), N - 100);
    fail_unless_equals_int (st2022_packetizer_next (p, dg, N), 0);

    for (k = 0; k < N; k++) {
      St2022Header h;
      const guint8 *pl;
      guint8 buf[1400];

      fail_unless_equals_int (dg[k].header_len, 24);
      fail_unless_equals_int (dg[k].payload_len, 1376);
      memcpy (buf, dg[k].header, 24);
      memcpy (buf + 24, dg[k].payload, 1376);
      fail_unless_equals_int (st2022_header_parse (buf, 1400, &h, &pl),
          ST2022_OK);
      fail_unless (h.format == f);
      fail_unless_equals_int (h.payload_type, 96);
      fail_unless_equals_int (h.ssrc, 0xcafebabe);
      fail_unless_equals_int (h.seq, (guint16) (65534 + i * N + k));
      fail_unless_equals_int (h.marker, k == N - 1);
      fail_unless_equals_int (h.rtp_ts, 1000 + i * 900900);
      fail_unless_equals_int (h.frcount, (guint8) (255 + i));
      fail_unless_equals_int (h.cf, 3);
      fail_unless_equals_int (h.vts, (guint32) (vts0 + i * 4950000u +
              st2022_datagram_vts_offset (k)));
      if (k < N - 1) {
        /* zero copy: the payload is the raster itself */
        fail_unless (dg[k].payload == r[i] + (gsize) k * 1376);
      } else {
        guint z;
        fail_unless (dg[k].payload < r[i] || dg[k].payload >= r[i] +
            f->frame_bytes);
        fail_unless (memcmp (dg[k].payload, r[i] + (gsize) k * 1376,
                1004) == 0);
        for (z = 1004; z < 1376; z++)
          fail_unless_equals_int (dg[k].payload[z], 0);
      }
    }
  }
  /* the last datagram's video timestamp: 4496 datagrams = 6,186,496 B =
   * 4,949,196.8 words → first whole sample at word 4,949,198 */
  fail_unless_equals_int (st2022_datagram_vts_offset (N - 1), 4949198);
  st2022_packetizer_free (p);

  /* CF = 0: 20-byte headers */
  cfg.video_timestamp = FALSE;
  p = st2022_packetizer_new (f, &cfg);
  st2022_packetizer_begin_frame (p, r[0], f->frame_bytes, 0);
  fail_unless_equals_int (st2022_packetizer_next (p, dg, 1), 1);
  fail_unless_equals_int (dg[0].header_len, 20);
  {
    St2022Header h;
    guint8 buf[1396];
    memcpy (buf, dg[0].header, 20);
    memcpy (buf + 20, dg[0].payload, 1376);
    fail_unless_equals_int (st2022_header_parse (buf, 1396, &h, NULL),
        ST2022_OK);
    fail_unless_equals_int (h.cf, 0);
    fail_unless_equals_int (h.seq, 65534);
  }
  /* abandoning a frame skips its remaining sequence numbers */
  fail_unless_equals_int (st2022_packetizer_get_seq (p),
      (guint16) (65534 + N));
  st2022_packetizer_begin_frame (p, r[1], f->frame_bytes, 0);
  fail_unless_equals_int (st2022_packetizer_next (p, dg, 1), 1);
  fail_unless_equals_int (dg[0].header[2] << 8 | dg[0].header[3],
      (guint16) (65534 + N));
  st2022_packetizer_free (p);

  fail_unless (st2022_packetizer_new (NULL, &cfg) == NULL);
  fail_unless_equals_int (st2022_packetizer_begin_frame (NULL, r[0], 1, 0),
      ST2022_ERROR_INVALID_ARGUMENT);

  g_free (dg);
  g_free (r[0]);
  g_free (r[1]);
}

GST_END_TEST;

/* picture → raster → datagrams → raster / UYVP picture, every format, bit
 * exact; UYVP and v210 sources */
/* A v210 target picture against the v210 read from the sent @raster; the
 * 6-pixel blocks that touch a datagram marked in @missing (may be NULL)
 * must instead equal @prev's (same stride), or, with no @prev, be left
 * unwritten (0xee); the 16 bytes past each row are never written.
 * Returns the number of rows that differ. */
static guint
v210_rows_bad (const St2022Format * f, const guint8 * got, gsize stride,
    const guint8 * raster, const guint32 * missing, const guint8 * prev)
{
  gsize vs = st2022_picture_min_stride (f, ST2022_PIXEL_V210);
  guint8 *want = g_malloc (vs * f->height);
  guint row, j, bad = 0, blocks = (f->active_bytes + 14) / 15;

  st2022_raster_read (f, raster, f->frame_bytes, ST2022_PIXEL_V210, want,
      vs);
  for (row = 0; row < f->height; row++) {
    guint line = st2022_format_row_to_line (f, row);
    gsize a0 = (gsize) (line - 1) * f->line_bytes + f->active_offset;
    guint8 *w = want + row * vs;
    gboolean row_bad = FALSE;
    guint k;

    for (j = 0; missing && j < blocks; j++) {
      gsize b0 = a0 + 15 * j, b1 = a0 + MIN (15 * j + 15, f->active_bytes);
      guint d0 = b0 / ST2022_PAYLOAD_SIZE, d1 = (b1 - 1) / ST2022_PAYLOAD_SIZE;
      gsize to = j == blocks - 1 ? vs : 16 * (j + 1);

      if (!(missing[d0 / 32] & (1u << (d0 % 32))) &&
          !(missing[d1 / 32] & (1u << (d1 % 32))))
        continue;
      if (prev)
        memcpy (w + 16 * j, prev + row * stride + 16 * j, to - 16 * j);
      else
        memset (w + 16 * j, 0xee, to - 16 * j);
    }
    row_bad = memcmp (got + row * stride, w, vs) != 0;
    for (k = 0; k < 16; k++)
      row_bad |= got[row * stride + vs + k] != 0xee;
    bad += row_bad;
  }
  g_free (want);
  return bad;
}

static int
parse_datagram (const St2022Datagram * d, St2022Header * h)
{
  guint8 buf[ST2022_DATAGRAM_SIZE];

  memcpy (buf, d->header, d->header_len);
  memcpy (buf + d->header_len, d->payload, d->payload_len);
  return st2022_header_parse (buf, d->header_len + d->payload_len, h, NULL);
}

/* ST 2059: a sender on the epoch sets each frame's video timestamp and
 * the HBRMT R bits; the header carries them, later frames advance from
 * the set value, and nothing else in the header moves */
GST_START_TEST (test_packetizer_epoch_fields)
{
  const St2022Format *f = st2022_format_from_name ("720p50");
  St2022PacketizerConfig cfg;
  St2022Packetizer *p;
  St2022Datagram dg[2];
  St2022Header h;
  guint8 *raster = g_malloc0 (f->frame_bytes);

  st2022_packetizer_config_init (&cfg);
  cfg.initial_vts = 1234;
  p = st2022_packetizer_new (f, &cfg);
  st2022_packetizer_set_vts (p, 0xfffffff0u);
  fail_unless_equals_int (st2022_packetizer_get_vts (p), 0xfffffff0u);
  st2022_packetizer_set_ref (p, 2);
  fail_unless_equals_int (st2022_packetizer_begin_frame (p, raster,
          f->frame_bytes, 540000), ST2022_OK);
  fail_unless_equals_int (st2022_packetizer_next (p, dg, 2), 2);
  fail_unless_equals_int (parse_datagram (&dg[1], &h), ST2022_OK);
  fail_unless_equals_int (h.ref, 2);
  fail_unless_equals_int (h.rtp_ts, 540000);
  fail_unless_equals_int (h.frame, ST2022_FRAME_720P);
  fail_unless_equals_int (h.cf, f->cf_code);
  fail_unless_equals_int (h.vts, (guint32) (0xfffffff0u +
          st2022_datagram_vts_offset (1)));
  /* the next frame advances from there, wrapping; R back to 0 */
  fail_unless_equals_int (st2022_packetizer_get_vts (p),
      (guint32) (0xfffffff0u + f->vts_increment));
  st2022_packetizer_set_ref (p, 0);
  fail_unless_equals_int (st2022_packetizer_begin_frame (p, raster,
          f->frame_bytes, 1080000), ST2022_OK);
  fail_unless_equals_int (st2022_packetizer_next (p, dg, 1), 1);
  fail_unless_equals_int (parse_datagram (&dg[0], &h), ST2022_OK);
  fail_unless_equals_int (h.ref, 0);
  fail_unless_equals_int (h.vts, (guint32) (0xfffffff0u + f->vts_increment));
  fail_unless_equals_int (h.frame, ST2022_FRAME_720P);
  st2022_packetizer_free (p);
  g_free (raster);
}

GST_END_TEST;

/* run once per payload copy (ordinary stores, and each streaming-store
 * kernel the CPU has: gst/st2022/st2022-copy.c) */
GST_START_TEST (test_roundtrip_all_formats)
{
  static const St2022CopyImpl impl[] = { ST2022_COPY_MEMCPY,
    ST2022_COPY_SSE2, ST2022_COPY_AVX2
  };
  guint fi;

  if (!st2022_copy_stream_select (impl[__i__])) {
    g_print ("roundtrip: copy implementation %d not run (not on this "
        "CPU)\n", __i__);
    return;
  }

  for (fi = 0; fi < st2022_format_count (); fi++) {
    const St2022Format *f = st2022_format_get (fi);
    guint N = f->datagrams_per_frame, i, row;
    St2022RasterWriter *w = st2022_raster_writer_new (f);
    St2022Packetizer *p = st2022_packetizer_new (f, NULL);
    gsize us = f->active_bytes, vs = st2022_picture_min_stride (f,
        ST2022_PIXEL_V210);
    guint8 *uyvp = make_raster (f, fi);        /* any bytes: clipped */
    /* one spare row: frame 1 is read from v210 + 1 row */
    guint8 *v210 = g_malloc0 (vs * (f->height + 1));
    guint8 *v210_back = g_malloc0 (vs * f->height);
    guint8 *r[2] = { g_malloc (f->frame_bytes), g_malloc (f->frame_bytes) };
    Dg *dgs;
    int t;

    /* frame 0 from UYVP, frame 1 from a v210 made from frame 0's raster
     * then shifted rows (so the frames differ) */
    fail_unless_equals_int (st2022_raster_writer_write (w, r[0],
            f->frame_bytes, ST2022_PIXEL_UYVP, uyvp, us), ST2022_OK);
    st2022_raster_read (f, r[0], f->frame_bytes, ST2022_PIXEL_V210, v210, vs);
    fail_unless_equals_int (st2022_raster_writer_write (w, r[1],
            f->frame_bytes, ST2022_PIXEL_V210, v210 + vs, vs), ST2022_OK);

    /* the wire layout (a copy: r[] stays what a receiver must rebuild) */
    {
      guint8 *rw[2] = { g_memdup2 (r[0], f->frame_bytes),
        g_memdup2 (r[1], f->frame_bytes)
      };

      st2022_raster_to_wire (f, rw[0]);
      st2022_raster_to_wire (f, rw[1]);
      if (!f->half_byte_lines)
        fail_unless (memcmp (rw[0], r[0], f->frame_bytes) == 0);
      dgs = packetize (p, f, rw, 2, 12345);
      g_free (rw[0]);
      g_free (rw[1]);
    }
    for (t = 0; t < 3; t++) {
      Ctx c;
      St2022Depacketizer *d;

      ctx_init (&c, t == 0 ? ST2022_TARGET_RASTER : t == 1 ?
          ST2022_TARGET_UYVP : ST2022_TARGET_V210);
      if (t == 2)
        c.blank = g_malloc0 (f->frame_bytes);
      d = st2022_depacketizer_new (&callbacks, &c);
      for (i = 0; i < 2 * N; i++)
        push (d, &dgs[i]);
      fail_unless_equals_int (c.frames->len, 2);
      stats_check (d, 2 * N, 0, 0, 0, 0, 0, 2, 0);
      fail_unless (FRAME (&c, 0)->complete && FRAME (&c, 1)->complete);
      fail_unless_equals_int (FRAME (&c, 1)->rtp_ts,
          12345 + f->rtp_ts_increment);
      if (t == 0) {
        fail_unless (memcmp (c.buf[FRAME (&c, 0)->buf], r[0],
                f->frame_bytes) == 0, "%s", f->name);
        fail_unless (memcmp (c.buf[FRAME (&c, 1)->buf], r[1],
                f->frame_bytes) == 0, "%s", f->name);
        /* v210 out of the received raster equals the v210 that went in */
        st2022_raster_read (f, c.buf[FRAME (&c, 1)->buf], f->frame_bytes,
            ST2022_PIXEL_V210, v210_back, vs);
        fail_unless (memcmp (v210_back, v210 + vs, vs * (f->height - 1)) ==
            0);
      } else if (t == 2) {
        guint line;

        /* v210 straight from the datagrams equals v210 read from the
         * raster, padding included */
        for (i = 0; i < 2; i++)
          fail_unless_equals_int (v210_rows_bad (f, c.buf[FRAME (&c,
                          i)->buf], c.stride, r[i], NULL, NULL), 0);
        /* the blanking buffer holds frame 1's non-picture bytes */
        for (line = 1; line <= f->total_lines; line++) {
          gsize o = (gsize) (line - 1) * f->line_bytes;
          gsize len = st2022_format_line_to_row (f, line) < 0 ?
              f->line_bytes : f->active_offset;
          fail_unless (memcmp (c.blank + o, r[1] + o, len) == 0, "%s line %u",
              f->name, line);
        }
      } else {
        guint bad = 0;
        for (i = 0; i < 2; i++) {
          const guint8 *got = c.buf[FRAME (&c, i)->buf];
          for (row = 0; row < f->height; row++) {
            guint line = st2022_format_row_to_line (f, row);
            bad += memcmp (got + row * c.stride, r[i] + (gsize) (line - 1) *
                f->line_bytes + f->active_offset, f->active_bytes) != 0;
            /* nothing written past the active bytes */
            bad += got[row * c.stride + f->active_bytes] != 0xee;
          }
        }
        fail_unless_equals_int (bad, 0);
      }
      st2022_depacketizer_free (d);
      ctx_clear (&c);
    }
    g_free (dgs);
    g_free (uyvp);
    g_free (v210);
    g_free (v210_back);
    g_free (r[0]);
    g_free (r[1]);
    st2022_packetizer_free (p);
    st2022_raster_writer_free (w);
  }
  st2022_copy_stream_select (ST2022_COPY_AUTO);
}

GST_END_TEST;

typedef struct
{
  const St2022Format *f;
  guint N;
  guint8 *r[4];
  Dg *dgs;
} Stream;

static void
stream_make (Stream * s, const char *name, guint n, guint16 seq,
    guint8 frcount)
{
  St2022PacketizerConfig cfg;
  St2022Packetizer *p;
  guint i;

  memset (s, 0, sizeof (*s));
  s->f = st2022_format_from_name (name);
  s->N = s->f->datagrams_per_frame;
  for (i = 0; i < n; i++)
    s->r[i] = make_raster (s->f, 77 + i);
  st2022_packetizer_config_init (&cfg);
  cfg.initial_seq = seq;
  cfg.initial_frcount = frcount;
  cfg.ssrc = 7;
  p = st2022_packetizer_new (s->f, &cfg);
  s->dgs = packetize (p, s->f, s->r, n, 0);
  st2022_packetizer_free (p);
}

static void
stream_clear (Stream * s)
{
  guint i;
  for (i = 0; i < 4; i++)
    g_free (s->r[i]);
  g_free (s->dgs);
}

#define DG(s, frame, idx) (&(s)->dgs[(gsize) (frame) * (s)->N + (idx)])



/* Loss: exact missing maps, a lost first datagram and a lost marker */
GST_START_TEST (test_loss)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N;
  static const guint drop1[] = { 0, 100, 101, 4496 };
  static const guint drop2[] = { 2000 };

  stream_make (&s, "1080i59.94", 4, 100, 0);
  N = s.N;
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);

  /* join mid-stream at frame 0's marker: frame 1 starts exactly after it */
  push (d, DG (&s, 0, N - 1));
  for (i = 0; i < N; i++) {
    if (i != 0 && i != 100 && i != 101 && i != N - 1)
      push (d, DG (&s, 1, i));
  }
  for (i = 0; i < N; i++) {
    if (i != 2000)
      push (d, DG (&s, 2, i));
    /* frame 1 (marker lost) ends once seq >= its last + 32 arrived */
    if (i == 30)
      fail_unless_equals_int (c.frames->len, 0);
    if (i == 31)
      fail_unless_equals_int (c.frames->len, 1);
  }
  for (i = 0; i < N; i++)
    push (d, DG (&s, 3, i));

  fail_unless_equals_int (c.frames->len, 3);
  check_missing (FRAME (&c, 0), N, drop1, 4);
  fail_unless (!FRAME (&c, 0)->marker);
  fail_unless_equals_int (FRAME (&c, 0)->frcount, 1);
  fail_unless_equals_int (FRAME (&c, 0)->first_seq, 100 + N);
  check_missing (FRAME (&c, 1), N, drop2, 1);
  fail_unless (FRAME (&c, 1)->marker);
  fail_unless (FRAME (&c, 2)->complete);
  check_raster (s.f, c.buf[FRAME (&c, 0)->buf], s.r[1],
      FRAME (&c, 0)->missing_map);
  check_raster (s.f, c.buf[FRAME (&c, 1)->buf], s.r[2],
      FRAME (&c, 1)->missing_map);
  /* frame-start video timestamps, although datagram 0 of frame 1 is lost */
  fail_unless (FRAME (&c, 0)->has_vts);
  fail_unless_equals_int (FRAME (&c, 0)->vts, 4950000);
  fail_unless_equals_int (FRAME (&c, 1)->vts, 2 * 4950000);
  fail_unless_equals_int (FRAME (&c, 2)->vts, 3 * 4950000);

  /* raster concealment: previous frame's bytes, then black */
  {
    guint8 *got = c.buf[FRAME (&c, 0)->buf];
    const guint32 *map = FRAME (&c, 0)->missing_map;
    guint16 w[4];

    fail_unless_equals_int (st2022_conceal_raster (s.f, map, got, s.r[0]),
        ST2022_OK);
    fail_unless (memcmp (got + 100 * 1376, s.r[0] + 100 * 1376, 2752) == 0);
    fail_unless (memcmp (got + 4496 * 1376, s.r[0] + 4496 * 1376, 1004)
        == 0);
    fail_unless (memcmp (got + 1376, s.r[1] + 1376, 1376) == 0);
    st2022_conceal_raster (s.f, map, got, NULL);
    st2022_unpack_words (got + 100 * 1376, w, 4);       /* 137600 = 5 x 27520 */
    fail_unless_equals_int (w[0], 0x200);
    fail_unless_equals_int (w[1], 0x040);
    fail_unless (memcmp (got + 1376, s.r[1] + 1376, 1376) == 0);
    fail_unless_equals_int (st2022_conceal_raster (s.f, NULL, got, NULL),
        ST2022_ERROR_INVALID_ARGUMENT);
  }
  /* 1 + (N-4) + (N-1) + N datagrams; the joining marker is discarded */
  stats_check (d, 3 * N - 4, 5, 0, 0, 0, 1, 3, 2);

  /* flush: nothing pending, nothing changes */
  st2022_depacketizer_flush (d);
  fail_unless_equals_int (c.frames->len, 3);

  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&s);
}

GST_END_TEST;

/* Reordering (also across the frame boundary) and duplicates */
GST_START_TEST (test_reorder_duplicate)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N;
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint));
  guint reordered = 0, dup = 0;
  int t;

  stream_make (&s, "720p59.94", 3, 60000, 10);
  N = s.N;
  for (i = 0; i < 3 * N; i++)
    g_array_append_val (order, i);
#define SWAP(a, b) do { guint _t = g_array_index (order, guint, a); \
    g_array_index (order, guint, a) = g_array_index (order, guint, b); \
    g_array_index (order, guint, b) = _t; } while (0)
  /* pairs swapped: 1 reordered each */
  SWAP (10, 11);
  SWAP (500, 501);
  SWAP (N + 7, N + 8);
  reordered += 3;
  /* datagram 1000 arrives 20 later */
  {
    guint v = g_array_index (order, guint, 1000);
    g_array_remove_index (order, 1000);
    g_array_insert_val (order, 1020, v);
    reordered += 1;
  }
  /* frame 1's first 2 datagrams before frame 0's last 5: 5 reordered */
  {
    guint a = g_array_index (order, guint, N), b = g_array_index (order,
        guint, N + 1);
    g_array_remove_range (order, N, 2);
    g_array_insert_val (order, N - 5, b);
    g_array_insert_val (order, N - 5, a);
    reordered += 5;
  }
  /* duplicates: one immediately, frame 0's marker again while frame 1
   * runs (frame 0 has ended by then), one of the reordered ones */
  g_array_insert_val (order, 301, g_array_index (order, guint, 300));
  {
    guint m = N - 1;
    g_array_insert_val (order, N + 200, m);
  }
  {
    guint x = N + 7;
    g_array_insert_val (order, N + 300, x);
  }
  dup = 3;

  /* into UYVP, then v210: reordered neighbours complete the 6-pixel
   * blocks that datagram boundaries cut in either order */
  for (t = 0; t < 2; t++) {
    ctx_init (&c, t == 0 ? ST2022_TARGET_UYVP : ST2022_TARGET_V210);
    d = st2022_depacketizer_new (&callbacks, &c);
    for (i = 0; i < order->len; i++)
      push (d, DG (&s, 0, g_array_index (order, guint, i)));
    fail_unless_equals_int (c.frames->len, 3);
    for (i = 0; i < 3; i++) {
      guint row, bad = 0;
      const guint8 *got = c.buf[FRAME (&c, i)->buf];
      fail_unless (FRAME (&c, i)->complete);
      fail_unless_equals_int (FRAME (&c, i)->frcount, 10 + i);
      fail_unless_equals_int (FRAME (&c, i)->first_seq,
          (guint16) (60000 + i * N));
      if (t == 1) {
        fail_unless_equals_int (v210_rows_bad (s.f, got, c.stride, s.r[i],
                NULL, NULL), 0);
        continue;
      }
      for (row = 0; row < s.f->height; row++)
        bad += memcmp (got + row * c.stride, s.r[i] + (gsize) (25 + row) *
            s.f->line_bytes + s.f->active_offset, s.f->active_bytes) != 0;
      fail_unless_equals_int (bad, 0);
    }
    stats_check (d, 3 * N + dup, 0, reordered, dup, 0, 0, 3, 0);

    st2022_depacketizer_free (d);
    ctx_clear (&c);
  }
  stream_clear (&s);
  g_array_free (order, TRUE);
}

GST_END_TEST;

/* Sequence number and FRCount wrap; a whole frame lost in between */
GST_START_TEST (test_wrap_and_skip)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N;
  St2022DepacketizerStats st;

  /* 720p50: 2699 datagrams; seq wraps inside frame 0, FRCount 254→1 */
  stream_make (&s, "720p50", 4, 65000, 254);
  N = s.N;
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  for (i = 0; i < N; i++)
    push (d, DG (&s, 0, i));
  /* frame 1 never arrives */
  for (i = 0; i < 2 * N; i++)
    push (d, DG (&s, 2, i));
  fail_unless_equals_int (c.frames->len, 3);
  fail_unless_equals_int (FRAME (&c, 0)->frcount, 254);
  fail_unless_equals_int (FRAME (&c, 0)->first_seq, 65000);
  fail_unless_equals_int (FRAME (&c, 1)->frcount, 0);
  fail_unless_equals_int (FRAME (&c, 1)->first_seq, (guint16) (65000 + 2 * N));
  fail_unless_equals_int (FRAME (&c, 2)->frcount, 1);
  for (i = 0; i < 3; i++) {
    fail_unless (FRAME (&c, i)->complete);
    check_raster (s.f, c.buf[FRAME (&c, i)->buf], s.r[i ? i + 1 : 0], NULL);
  }
  st2022_depacketizer_get_stats (d, &st);
  fail_unless_equals_uint64 (st.frames_skipped, 1);
  stats_check (d, 3 * N, N, 0, 0, 0, 0, 3, 0);

  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&s);
}

GST_END_TEST;

/* Joining mid-frame with no history: the guessed start is aborted, the
 * next frame is exact */
GST_START_TEST (test_mid_stream_start)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N;
  St2022DepacketizerStats st;

  stream_make (&s, "1080p30", 3, 5, 0);
  N = s.N;
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  for (i = 1234; i < 3 * N; i++)
    push (d, DG (&s, 0, i));
  fail_unless_equals_int (c.frames->len, 3);
  fail_unless (FRAME (&c, 0)->aborted);
  fail_unless (!FRAME (&c, 1)->aborted && FRAME (&c, 1)->complete);
  fail_unless (!FRAME (&c, 2)->aborted && FRAME (&c, 2)->complete);
  check_raster (s.f, c.buf[FRAME (&c, 1)->buf], s.r[1], NULL);
  check_raster (s.f, c.buf[FRAME (&c, 2)->buf], s.r[2], NULL);
  st2022_depacketizer_get_stats (d, &st);
  fail_unless_equals_uint64 (st.frames_aborted, 1);
  stats_check (d, 3 * N - 1234, 0, 0, 0, 0, N - 1234, 2, 0);

  /* after a flush the next datagram is again taken as a frame start: a
   * sender restarting at datagram 0 is received from its first frame */
  st2022_depacketizer_flush (d);
  for (i = 0; i < N; i++)
    push (d, DG (&s, 0, i));
  fail_unless_equals_int (c.frames->len, 4);
  fail_unless (FRAME (&c, 3)->complete && !FRAME (&c, 3)->aborted);
  check_raster (s.f, c.buf[FRAME (&c, 3)->buf], s.r[0], NULL);

  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&s);
}

GST_END_TEST;

/* Joining mid-frame when that frame's marker is lost: only the FRCount
 * change at the next frame shows the guessed start wrong.  The guess must
 * be aborted there (not delivered as a frame of misplaced data); the frame
 * that follows cannot be placed (its first datagram does not follow the
 * previous one) and is discarded until its marker; the one after is exact. */
GST_START_TEST (test_mid_stream_start_lost_marker)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N;
  St2022DepacketizerStats st;

  stream_make (&s, "720p60", 3, 300, 10);
  N = s.N;
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  for (i = 100; i < 3 * N; i++) {
    if (i == N - 1)
      continue;                 /* frame 0's marker */
    push (d, DG (&s, 0, i));
  }
  fail_unless_equals_int (c.frames->len, 2);
  fail_unless (FRAME (&c, 0)->aborted);
  fail_unless_equals_int (FRAME (&c, 0)->frcount, 10);
  fail_unless (!FRAME (&c, 1)->aborted && FRAME (&c, 1)->complete);
  fail_unless_equals_int (FRAME (&c, 1)->frcount, 12);
  fail_unless_equals_int (FRAME (&c, 1)->first_seq, 300 + 2 * N);
  check_raster (s.f, c.buf[FRAME (&c, 1)->buf], s.r[2], NULL);
  st2022_depacketizer_get_stats (d, &st);
  fail_unless_equals_uint64 (st.frames_aborted, 1);
  /* aborted guess: its N - 101 datagrams; frame 1: all N while hunting */
  stats_check (d, 3 * N - 101, 0, 0, 0, 0, 2 * N - 101, 1, 0);

  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&s);
}

GST_END_TEST;

/* A format change mid-stream is reported; frames of both formats arrive */
GST_START_TEST (test_format_change)
{
  Stream a, b;
  Ctx c;
  St2022Depacketizer *d;
  guint i;
  St2022DepacketizerStats st;

  stream_make (&a, "720p50", 2, 1000, 0);
  stream_make (&b, "1080i50", 2, 1000 + 2 * a.N, 2);
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  for (i = 0; i < 2 * a.N; i++)
    push (d, &a.dgs[i]);
  fail_unless (st2022_depacketizer_get_format (d) == a.f);
  for (i = 0; i < 2 * b.N; i++)
    push (d, &b.dgs[i]);
  fail_unless (st2022_depacketizer_get_format (d) == b.f);

  fail_unless_equals_int (c.formats->len, 2);
  fail_unless (g_ptr_array_index (c.formats, 0) == a.f);
  fail_unless (g_ptr_array_index (c.formats, 1) == b.f);
  fail_unless_equals_int (c.frames->len, 4);
  for (i = 0; i < 4; i++) {
    fail_unless (FRAME (&c, i)->complete);
    fail_unless (FRAME (&c, i)->format == (i < 2 ? a.f : b.f));
  }
  check_raster (b.f, c.buf[FRAME (&c, 3)->buf], b.r[1], NULL);
  st2022_depacketizer_get_stats (d, &st);
  fail_unless_equals_uint64 (st.format_changes, 1);
  stats_check (d, 2 * a.N + 2 * b.N, 0, 0, 0, 0, 0, 4, 0);

  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&a);
  stream_clear (&b);
}

GST_END_TEST;

/* Garbage is counted and dropped, never disturbs the frames */
GST_START_TEST (test_garbage)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N, invalid = 0;
  GRand *g = g_rand_new_with_seed (9);
  guint8 junk[1500];

  stream_make (&s, "720p60", 2, 0, 0);
  N = s.N;
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  for (i = 0; i < 2 * N; i++) {
    if (i % 97 == 5) {
      guint len = g_rand_int_range (g, 0, sizeof (junk)), k;
      int r;
      for (k = 0; k < len; k++)
        junk[k] = g_rand_int (g);
      junk[0] &= 0x3f;          /* version 0: always invalid */
      r = st2022_depacketizer_push (d, junk, len, 0);
      fail_unless (r < 0);
      invalid++;
    }
    if (i == 50) {
      /* a valid header with a bad length, and a truncated one */
      fail_unless_equals_int (st2022_depacketizer_push (d, DG (&s, 0,
                  50)->data, 1399, 0), ST2022_ERROR_LENGTH);
      fail_unless_equals_int (st2022_depacketizer_push (d, DG (&s, 0,
                  50)->data, 12, 0), ST2022_ERROR_SHORT);
      invalid += 2;
    }
    push (d, DG (&s, 0, i));
  }
  fail_unless_equals_int (st2022_depacketizer_push (d, NULL, 0, 0),
      ST2022_ERROR_INVALID_ARGUMENT);
  invalid++;
  fail_unless_equals_int (c.frames->len, 2);
  check_raster (s.f, c.buf[FRAME (&c, 1)->buf], s.r[1], NULL);
  stats_check (d, 2 * N, 0, 0, 0, invalid, 0, 2, 0);

  g_rand_free (g);
  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&s);
}

GST_END_TEST;

/* A configured payload type filters out another RTP session sharing the
 * port (here: the same datagrams re-stamped PT 99) without disturbing the
 * stream; -1 accepts any again. */
GST_START_TEST (test_payload_type_filter)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N, foreign = 0;
  Dg other;

  stream_make (&s, "720p60", 2, 0, 0);
  N = s.N;
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  fail_unless_equals_int (st2022_depacketizer_set_payload_type (d, 128),
      ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_depacketizer_set_payload_type (d, -2),
      ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_depacketizer_set_payload_type (d,
          ST2022_DEFAULT_PAYLOAD_TYPE), ST2022_OK);
  for (i = 0; i < 2 * N; i++) {
    if (i % 101 == 7) {
      other = *DG (&s, 0, (i + 500) % N);
      other.data[1] = (other.data[1] & 0x80) | 99;
      fail_unless_equals_int (st2022_depacketizer_push (d, other.data,
              other.len, 0), ST2022_ERROR_BAD_PAYLOAD_TYPE);
      foreign++;
    }
    push (d, DG (&s, 0, i));
  }
  fail_unless (foreign > 20);
  fail_unless_equals_int (c.frames->len, 2);
  check_raster (s.f, c.buf[FRAME (&c, 0)->buf], s.r[0], NULL);
  check_raster (s.f, c.buf[FRAME (&c, 1)->buf], s.r[1], NULL);
  stats_check (d, 2 * N, 0, 0, 0, foreign, 0, 2, 0);

  /* -1: any payload type is taken again */
  fail_unless_equals_int (st2022_depacketizer_set_payload_type (d, -1),
      ST2022_OK);
  other = *DG (&s, 0, 0);
  other.data[1] = (other.data[1] & 0x80) | 99;
  fail_unless_equals_int (st2022_depacketizer_push (d, other.data, other.len,
          0), ST2022_OK);

  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&s);
}

GST_END_TEST;

/* Declined frames and flush of an incomplete frame */
GST_START_TEST (test_decline_and_flush)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  guint i, N;
  St2022DepacketizerStats st;

  stream_make (&s, "720p60", 3, 0, 0);
  N = s.N;
  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  for (i = 0; i < N; i++)
    push (d, DG (&s, 0, i));
  c.decline_next = TRUE;
  for (i = 0; i < N; i++)
    push (d, DG (&s, 1, i));
  for (i = 0; i < 1000; i++)
    push (d, DG (&s, 2, i));
  fail_unless_equals_int (c.frames->len, 1);
  st2022_depacketizer_flush (d);
  fail_unless_equals_int (c.frames->len, 2);
  fail_unless_equals_int (FRAME (&c, 1)->received, 1000);
  fail_unless_equals_int (FRAME (&c, 1)->missing, N - 1000);
  fail_unless (!FRAME (&c, 1)->aborted);
  check_raster (s.f, c.buf[FRAME (&c, 1)->buf], s.r[2],
      FRAME (&c, 1)->missing_map);
  st2022_depacketizer_get_stats (d, &st);
  fail_unless_equals_uint64 (st.frames_dropped, 1);
  stats_check (d, 2 * N + 1000, N - 1000, 0, 0, 0, N, 2, 1);

  fail_unless_equals_int (st2022_depacketizer_set_reorder_window (d, 0),
      ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_depacketizer_set_reorder_window (d,
          ST2022_MAX_REORDER_WINDOW + 1), ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_depacketizer_set_reorder_window (d, 8),
      ST2022_OK);
  {
    St2022DepacketizerCallbacks none = { NULL, NULL, NULL };
    fail_unless (st2022_depacketizer_new (&none, NULL) == NULL);
  }

  st2022_depacketizer_free (d);
  ctx_clear (&c);
  stream_clear (&s);
}

GST_END_TEST;

/* Spans and concealment in a UYVP picture */
GST_START_TEST (test_spans_conceal)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  St2022Span sp[2];
  guint i, N = f->datagrams_per_frame;
  guint64 total = 0;
  gboolean two_rows = FALSE;

  /* datagram 20 lies in vertical blanking */
  fail_unless_equals_int (st2022_datagram_spans (f, 20, sp), 0);
  /* datagram 80: bytes 110080..111455, line 21 starts at 110000, its
   * active part at 110700 → row 0, offset 0, 756 bytes */
  fail_unless_equals_int (st2022_datagram_spans (f, 80, sp), 1);
  fail_unless_equals_int (sp[0].row, 0);
  fail_unless_equals_int (sp[0].offset, 0);
  fail_unless_equals_int (sp[0].length, 756);
  /* datagram 83: 114208..115583 → row 0 from 3508 to the end (1292 B) */
  fail_unless_equals_int (st2022_datagram_spans (f, 83, sp), 1);
  fail_unless_equals_int (sp[0].row, 0);
  fail_unless_equals_int (sp[0].offset, 3508);
  fail_unless_equals_int (sp[0].length, 1292);
  fail_unless_equals_int (st2022_datagram_spans (f, N, sp),
      ST2022_ERROR_INVALID_ARGUMENT);

  /* the spans of all datagrams tile the picture exactly once */
  for (i = 0; i < N; i++) {
    int n = st2022_datagram_spans (f, i, sp), k;
    for (k = 0; k < n; k++)
      total += sp[k].length;
    if (n == 2) {
      two_rows = TRUE;
      fail_unless_equals_int (sp[0].offset + sp[0].length, 4800);
      fail_unless_equals_int (sp[1].offset, 0);
      fail_unless_equals_int (sp[0].length + sp[1].length, 1376 - 700);
    }
  }
  fail_unless_equals_uint64 (total, 4800ull * 1080);
  fail_unless (two_rows);

  /* depacketize into UYVP with losses, then conceal from a previous
   * picture and with black */
  {
    Stream s;
    Ctx c;
    St2022Depacketizer *d;
    guint8 *prev, *pic;
    gsize stride;
    guint row, bad = 0;
    guint32 *map;

    stream_make (&s, "1080i59.94", 1, 0, 0);
    ctx_init (&c, ST2022_TARGET_UYVP);
    d = st2022_depacketizer_new (&callbacks, &c);
    for (i = 0; i < N; i++)
      if (i != 83 && i != 2500)
        push (d, DG (&s, 0, i));
    st2022_depacketizer_flush (d);
    fail_unless_equals_int (c.frames->len, 1);
    map = FRAME (&c, 0)->missing_map;
    pic = c.buf[FRAME (&c, 0)->buf];
    stride = c.stride;
    prev = g_malloc (stride * 1080);
    memset (prev, 0x11, stride * 1080);

    fail_unless_equals_int (st2022_conceal_uyvp (f, map, pic, stride, prev,
            stride), ST2022_OK);
    for (row = 0; row < 1080; row++) {
      guint line = st2022_format_row_to_line (f, row), k;
      const guint8 *src = s.r[0] + (gsize) (line - 1) * 5500 + 700;
      for (k = 0; k < 4800; k++) {
        gsize rb = (gsize) (line - 1) * 5500 + 700 + k;
        guint dg = rb / 1376;
        guint8 want = (dg == 83 || dg == 2500) ? 0x11 : src[k];
        bad += pic[row * stride + k] != want;
      }
    }
    fail_unless_equals_int (bad, 0);

    /* black: C=0x200, Y=0x040 words with the byte phase of the row */
    st2022_conceal_uyvp (f, map, pic, stride, NULL, 0);
    st2022_datagram_spans (f, 83, sp);
    {
      guint16 w[4];
      const guint8 *b = pic + sp[0].row * stride + 3510;  /* multiple of 5 */
      st2022_unpack_words (b, w, 4);
      fail_unless_equals_int (w[0], 0x200);
      fail_unless_equals_int (w[1], 0x040);
      fail_unless_equals_int (w[2], 0x200);
      fail_unless_equals_int (w[3], 0x040);
    }
    fail_unless_equals_int (st2022_conceal_uyvp (f, map, pic, 10, NULL, 0),
        ST2022_ERROR_INVALID_ARGUMENT);

    g_free (prev);
    st2022_depacketizer_free (d);
    ctx_clear (&c);
    stream_clear (&s);
  }

  /* the same into v210 (720p: rows end in a partial 6-pixel block), with
   * neighbours lost (both sides of cut blocks), then concealed */
  {
    Stream s;
    Ctx c;
    St2022Depacketizer *d;
    const St2022Format *f7 = st2022_format_from_name ("720p59.94");
    guint8 *prev, *pic, *want_r;
    guint32 *map;
    guint lost[] = { 40, 41, 43, 77, 700, 1500 };
    gsize vs = st2022_picture_min_stride (f7, ST2022_PIXEL_V210);

    stream_make (&s, "720p59.94", 2, 0, 0);
    ctx_init (&c, ST2022_TARGET_V210);
    d = st2022_depacketizer_new (&callbacks, &c);
    for (i = 0; i < s.N; i++) {
      guint k;
      gboolean drop = FALSE;
      for (k = 0; k < G_N_ELEMENTS (lost); k++)
        drop |= lost[k] == i;
      if (!drop)
        push (d, DG (&s, 0, i));
    }
    st2022_depacketizer_flush (d);
    fail_unless_equals_int (c.frames->len, 1);
    fail_unless_equals_int (FRAME (&c, 0)->missing, G_N_ELEMENTS (lost));
    map = FRAME (&c, 0)->missing_map;
    pic = c.buf[FRAME (&c, 0)->buf];
    /* blocks touching a lost datagram are left alone */
    fail_unless_equals_int (v210_rows_bad (f7, pic, c.stride, s.r[0], map,
            NULL), 0);
    /* concealed from a previous v210 picture (frame 1's): the same as
     * concealing the raster from the previous raster and reading v210,
     * the cut blocks' received words kept */
    prev = g_malloc0 (c.stride * f7->height);
    st2022_raster_read (f7, s.r[1], f7->frame_bytes, ST2022_PIXEL_V210, prev,
        c.stride);
    want_r = g_memdup2 (s.r[0], f7->frame_bytes);
    st2022_conceal_raster (f7, map, want_r, s.r[1]);
    fail_unless_equals_int (st2022_conceal_v210 (f7, map,
            FRAME (&c, 0)->v210_edges, pic, c.stride, prev, c.stride),
        ST2022_OK);
    fail_unless_equals_int (v210_rows_bad (f7, pic, c.stride, want_r, NULL,
            NULL), 0);
    /* the same with black */
    memcpy (want_r, s.r[0], f7->frame_bytes);
    st2022_conceal_raster (f7, map, want_r, NULL);
    fail_unless_equals_int (st2022_conceal_v210 (f7, map,
            FRAME (&c, 0)->v210_edges, pic, c.stride, NULL, 0), ST2022_OK);
    fail_unless_equals_int (v210_rows_bad (f7, pic, c.stride, want_r, NULL,
            NULL), 0);
    g_free (want_r);
    /* without the cut blocks' received parts, blocks are concealed whole */
    /* black: Cb Y Cr / Y Cb Y / Cr Y Cb / Y Cr Y of 0x200 and 0x040 */
    fail_unless_equals_int (st2022_conceal_v210 (f7, map, NULL, pic,
            c.stride, NULL, 0), ST2022_OK);
    st2022_datagram_spans (f7, 700, sp);
    {
      const guint8 *b = pic + sp[0].row * c.stride +
          (sp[0].offset / 15 + 1) * 16;
      guint32 w0 = b[0] | b[1] << 8 | b[2] << 16 | (guint32) b[3] << 24;
      guint32 w1 = b[4] | b[5] << 8 | b[6] << 16 | (guint32) b[7] << 24;
      fail_unless_equals_int (w0, 0x200 | 0x040 << 10 | 0x200 << 20);
      fail_unless_equals_int (w1, 0x040 | 0x200 << 10 | 0x040 << 20);
    }
    /* datagram 77 holds row 0's end (line 26 ends at byte 107250): its
     * padding zeroed again */
    fail_unless_equals_int (st2022_datagram_spans (f7, 77, sp), 1);
    fail_unless_equals_int (sp[0].row, 0);
    fail_unless_equals_int (sp[0].offset + sp[0].length, 3200);
    fail_unless_equals_int (pic[vs - 1], 0);
    fail_unless_equals_int (pic[vs], 0xee);
    fail_unless_equals_int (st2022_conceal_v210 (f7, map, NULL, pic, 100,
            NULL, 0), ST2022_ERROR_INVALID_ARGUMENT);

    g_free (prev);
    st2022_depacketizer_free (d);
    ctx_clear (&c);
    stream_clear (&s);
  }
}

GST_END_TEST;

/* Random drops, duplicates and short-range reordering: exact missing maps
 * and content; then header corruption on top: no crash, every accepted
 * frame ended exactly once, counters add up */
GST_START_TEST (test_chaos)
{
  Stream s;
  guint run;

  stream_make (&s, "720p60", 4, 30000, 100);
  for (run = 0; run < 2; run++) {
    GRand *g = g_rand_new_with_seed (1234 + run);
    guint total = 4 * s.N, i, pushes = 0, invalid = 0, dups = 0;
    guint *order = g_new (guint, total);
    gboolean *dropped = g_new0 (gboolean, total);
    Ctx c;
    St2022Depacketizer *d;
    St2022DepacketizerStats st;
    guint8 buf[ST2022_DATAGRAM_SIZE];

    for (i = 0; i < total; i++)
      order[i] = i;
    /* swaps within 10 positions, never touching the very first datagram
     * (it anchors the stream) */
    for (i = 1; i + 10 < total; i++) {
      if (g_rand_int_range (g, 0, 100) < 2) {
        guint j = i + g_rand_int_range (g, 1, 10), t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }
    ctx_init (&c, ST2022_TARGET_RASTER);
    d = st2022_depacketizer_new (&callbacks, &c);
    for (i = 0; i < total; i++) {
      const Dg *dg = &s.dgs[order[i]];
      if (i > 0 && g_rand_int_range (g, 0, 100) < 2) {
        dropped[order[i]] = TRUE;
        continue;
      }
      memcpy (buf, dg->data, dg->len);
      if (run == 1 && g_rand_int_range (g, 0, 200) == 0)
        buf[g_rand_int_range (g, 0, 24)] = g_rand_int (g);
      invalid += st2022_depacketizer_push (d, buf, dg->len, i) < 0;
      pushes++;
      if (g_rand_int_range (g, 0, 100) < 1) {
        invalid += st2022_depacketizer_push (d, buf, dg->len, i) < 0;
        pushes++;
        dups++;
      }
    }
    st2022_depacketizer_flush (d);
    st2022_depacketizer_get_stats (d, &st);

    fail_unless_equals_uint64 (st.packets + st.packets_invalid, pushes);
    fail_unless_equals_uint64 (st.packets_invalid, invalid);
    fail_unless_equals_int (c.frames->len, c.begins - st.frames_dropped);
    fail_unless_equals_uint64 (st.frames + st.frames_aborted, c.frames->len);
    if (run == 0) {
      guint f, bad = 0;
      fail_unless_equals_int (c.frames->len, 4);
      fail_unless_equals_uint64 (st.packets_duplicate, dups);
      for (f = 0; f < 4; f++) {
        const FrameRec *r = FRAME (&c, f);
        guint lost = 0;
        for (i = 0; i < s.N; i++) {
          gboolean m = map_bit (r->missing_map, i);
          bad += m != dropped[f * s.N + i];
          lost += m;
        }
        fail_unless_equals_int (r->missing, lost);
        fail_unless_equals_int (r->frcount, 100 + f);
        check_raster (s.f, c.buf[r->buf], s.r[f], r->missing_map);
      }
      fail_unless_equals_int (bad, 0);
    }
    st2022_depacketizer_free (d);
    ctx_clear (&c);
    g_free (order);
    g_free (dropped);
    g_rand_free (g);
  }
  stream_clear (&s);
}

GST_END_TEST;

/* Mutation fuzzing: valid datagrams with random header bytes, random
 * lengths and random order; nothing may crash or leak, every accepted frame
 * ends exactly once, and the counters add up */
GST_START_TEST (test_fuzz_mutations)
{
  Stream s;
  Ctx c;
  St2022Depacketizer *d;
  GRand *g = g_rand_new_with_seed (2026);
  St2022DepacketizerStats st;
  guint8 buf[ST2022_DATAGRAM_SIZE + 8];
  guint i, pushes = 0, t;

  stream_make (&s, "720p60", 2, 65000, 250);
  for (t = 0; t < 2; t++) {
    ctx_init (&c, t == 0 ? ST2022_TARGET_UYVP : ST2022_TARGET_RASTER);
    d = st2022_depacketizer_new (&callbacks, &c);
    pushes = 0;
    for (i = 0; i < 60000; i++) {
      /* mostly in order with jitter, sometimes anywhere */
      guint idx = g_rand_int_range (g, 0, 100) < 90 ?
          (i + g_rand_int_range (g, 0, 40)) % (2 * s.N) :
          (guint) g_rand_int_range (g, 0, 2 * s.N);
      const Dg *dg = &s.dgs[idx];
      gsize len = dg->len;
      guint m, n_mut = g_rand_int_range (g, 0, 4);

      memcpy (buf, dg->data, dg->len);
      for (m = 0; m < n_mut; m++)
        buf[g_rand_int_range (g, 0, 24)] ^= 1 << g_rand_int_range (g, 0, 8);
      if (g_rand_int_range (g, 0, 50) == 0)
        len = g_rand_int_range (g, 0, sizeof (buf));
      st2022_depacketizer_push (d, buf, len, i);
      pushes++;
    }
    st2022_depacketizer_flush (d);
    st2022_depacketizer_get_stats (d, &st);
    fail_unless_equals_uint64 (st.packets + st.packets_invalid, pushes);
    fail_unless_equals_int (c.frames->len, c.begins - st.frames_dropped);
    fail_unless_equals_uint64 (st.frames + st.frames_aborted, c.frames->len);
    fail_unless (st.packets_invalid > 0 && st.frames > 0);
    st2022_depacketizer_free (d);
    ctx_clear (&c);
  }
  g_rand_free (g);
  stream_clear (&s);
}

GST_END_TEST;

static gboolean
cb_begin_bad_target (gpointer user, const St2022Format * fmt,
    const St2022Header * hdr, St2022Target * t)
{
  static guint8 small[16];
  Ctx *c = user;

  c->begins++;
  /* a UYVP stride below a row: the depacketizer must refuse it */
  t->type = ST2022_TARGET_UYVP;
  t->data = small;
  t->size = sizeof (small);
  t->stride = 4;
  return TRUE;
}

/* CF = 0 streams (no video timestamp), and unusable targets */
GST_START_TEST (test_no_vts_and_bad_target)
{
  const St2022Format *f = st2022_format_from_name ("720p60");
  St2022PacketizerConfig cfg;
  St2022Packetizer *p;
  guint8 *r[2] = { make_raster (f, 5), make_raster (f, 6) };
  Dg *dgs;
  Ctx c;
  St2022Depacketizer *d;
  St2022DepacketizerCallbacks bad = { cb_begin_bad_target, cb_end, NULL };
  St2022DepacketizerStats st;
  guint i, N = f->datagrams_per_frame;

  st2022_packetizer_config_init (&cfg);
  cfg.video_timestamp = FALSE;
  p = st2022_packetizer_new (f, &cfg);
  dgs = packetize (p, f, r, 2, 0);
  fail_unless_equals_int (dgs[0].len, 1396);

  ctx_init (&c, ST2022_TARGET_RASTER);
  d = st2022_depacketizer_new (&callbacks, &c);
  for (i = 0; i < 2 * N; i++)
    push (d, &dgs[i]);
  fail_unless_equals_int (c.frames->len, 2);
  fail_unless (FRAME (&c, 1)->complete);
  fail_unless (!FRAME (&c, 1)->has_vts);
  check_raster (f, c.buf[FRAME (&c, 1)->buf], r[1], NULL);
  st2022_depacketizer_free (d);
  ctx_clear (&c);

  ctx_init (&c, ST2022_TARGET_UYVP);
  d = st2022_depacketizer_new (&bad, &c);
  for (i = 0; i < 2 * N; i++)
    push (d, &dgs[i]);
  st2022_depacketizer_get_stats (d, &st);
  fail_unless_equals_int (c.begins, 2);
  fail_unless_equals_int (c.frames->len, 0);
  fail_unless_equals_uint64 (st.frames_dropped, 2);
  fail_unless_equals_uint64 (st.packets_discarded, 2 * N);
  fail_unless_equals_uint64 (st.packets_lost, 0);
  st2022_depacketizer_free (d);
  ctx_clear (&c);

  st2022_packetizer_free (p);
  g_free (dgs);
  g_free (r[0]);
  g_free (r[1]);
}

GST_END_TEST;

/* bytes of @a and @b that differ in the ancillary data spaces (whole
 * bytes of their words) of every line */
static guint
spaces_differ (const St2022Format * f, const guint8 * a, const guint8 * b)
{
  guint line, v, bad = 0;

  for (line = 1; line <= f->total_lines; line++) {
    gsize ls = (gsize) (line - 1) * f->line_bytes;

    for (v = 0; v < 2; v++) {
      guint first, end;
      gsize x;

      if (v && st2022_format_line_to_row (f, line) >= 0)
        continue;
      st2022_format_anc_space (f, v, &first, &end);
      for (x = ls + first / 4 * 5; x < ls + end * 10 / 8; x++)
        bad += a[x] != b[x];
    }
  }
  return bad;
}

/* A blanking buffer with a blank_dirty map: after every frame its
 * ancillary data spaces hold the frame's, whether the frame carries data
 * there or blank fill after one that did; a datagram with blank fill in
 * its spaces, over spaces that hold blank fill already, is not copied at
 * all (the TRS words poisoned in the buffer stay) */
GST_START_TEST (test_blank_dirty)
{
  guint fi;

  for (fi = 0; fi < st2022_format_count (); fi++) {
    const St2022Format *f = st2022_format_get (fi);
    guint N = f->datagrams_per_frame, i, k, line, sp0, sp1;
    guint mark_line = f->active_first[0] + 5;
    St2022RasterWriter *w;
    St2022Packetizer *p;
    guint8 *uyvp, *r[2];
    /* A (data in three spaces), B (blank fill), B, A, B */
    static const guint order[] = { 0, 1, 1, 0, 1 };
    guint8 *seq[G_N_ELEMENTS (order)];
    gsize ls;
    Dg *dgs;
    Ctx c;
    St2022Depacketizer *d;

    if (f->half_byte_lines)
      continue;                 /* assembled whole in the buffer instead */
    w = st2022_raster_writer_new (f);
    p = st2022_packetizer_new (f, NULL);
    uyvp = make_raster (f, 77 + fi);
    r[1] = g_malloc (f->frame_bytes);
    fail_unless_equals_int (st2022_raster_writer_write (w, r[1],
            f->frame_bytes, ST2022_PIXEL_UYVP, uyvp, f->active_bytes),
        ST2022_OK);
    r[0] = g_memdup2 (r[1], f->frame_bytes);
    /* a HANC's first and last byte, a vertical blanking line's VANC */
    ls = (gsize) (mark_line - 1) * f->line_bytes;
    st2022_format_anc_space (f, FALSE, &sp0, &sp1);
    r[0][ls + sp0 / 4 * 5] ^= 0x12;
    r[0][ls + sp1 * 10 / 8 - 1] ^= 0x34;
    fail_unless (st2022_format_line_to_row (f, 2) < 0, "%s", f->name);
    st2022_format_anc_space (f, TRUE, &sp0, &sp1);
    r[0][f->line_bytes + sp0 / 4 * 5 + 100] ^= 0x56;
    for (i = 0; i < G_N_ELEMENTS (order); i++)
      seq[i] = r[order[i]];
    fail_unless (spaces_differ (f, r[0], r[1]) == 3, "%s", f->name);

    ctx_init (&c, ST2022_TARGET_UYVP);
    c.blank = g_malloc0 (f->frame_bytes);
    c.dirty = g_malloc ((N + 31) / 32 * 4);
    memset (c.dirty, 0xff, (N + 31) / 32 * 4);
    d = st2022_depacketizer_new (&callbacks, &c);
    dgs = packetize (p, f, seq, G_N_ELEMENTS (order), 1000);
    for (i = 0; i < G_N_ELEMENTS (order); i++) {
      if (i == 2) {
        /* every datagram's spaces now hold blank fill in the buffer */
        for (line = 1; line <= f->total_lines; line++)
          memset (c.blank + (gsize) (line - 1) * f->line_bytes, 0x55, 5);
      }
      for (k = 0; k < N; k++)
        push (d, &dgs[(gsize) i * N + k]);
      fail_unless_equals_int (c.frames->len, i + 1);
      fail_unless (spaces_differ (f, c.blank, seq[i]) == 0,
          "%s frame %u", f->name, i);
      if (i == 2) {
        guint copied = 0;

        for (line = 1; line <= f->total_lines; line++)
          copied += c.blank[(gsize) (line - 1) * f->line_bytes] != 0x55;
        fail_unless (copied == 0, "%s: %u lines copied", f->name, copied);
      }
    }
    /* the map tells which datagrams carry data in their spaces */
    for (k = 0; k < N; k++)
      fail_if (map_bit (c.dirty, k), "%s datagram %u", f->name, k);

    st2022_depacketizer_free (d);
    ctx_clear (&c);
    g_free (dgs);
    g_free (uyvp);
    g_free (r[0]);
    g_free (r[1]);
    st2022_packetizer_free (p);
    st2022_raster_writer_free (w);
  }
}

GST_END_TEST;

static Suite *
st2022_packet_suite (void)
{
  Suite *s = suite_create ("st2022-packet");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_packetizer_fields);
  tcase_add_test (tc, test_packetizer_epoch_fields);
  tcase_add_loop_test (tc, test_roundtrip_all_formats, 0, 3);
  tcase_add_test (tc, test_loss);
  tcase_add_test (tc, test_reorder_duplicate);
  tcase_add_test (tc, test_wrap_and_skip);
  tcase_add_test (tc, test_mid_stream_start);
  tcase_add_test (tc, test_mid_stream_start_lost_marker);
  tcase_add_test (tc, test_format_change);
  tcase_add_test (tc, test_garbage);
  tcase_add_test (tc, test_payload_type_filter);
  tcase_add_test (tc, test_decline_and_flush);
  tcase_add_test (tc, test_spans_conceal);
  tcase_add_test (tc, test_chaos);
  tcase_add_test (tc, test_no_vts_and_bad_target);
  tcase_add_test (tc, test_fuzz_mutations);
  tcase_add_test (tc, test_blank_dirty);
  return s;
}

GST_CHECK_MAIN (st2022_packet);
