/* gst-vmi: libFuzzer target for st2022_header_parse() (and its cached
 * form, checked against it) and st2022_depacketizer_push() into every
 * output format (raster, UYVP, v210; minimum and padded strides; with and
 * without a blanking buffer)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Random bytes almost never pass the header validation, so most datagrams
 * are built from a small op record (sequence number, FRCount, marker,
 * format, CF, length and a few raw header bytes) over a valid header: that
 * drives the depacketizer's sync, reorder, duplicate, expiry, format-change
 * and abort paths with hostile sequences.  Op 0 feeds raw bytes straight to
 * the parser.
 *
 * Build (clang): -fsanitize=fuzzer,address,undefined; see
 * tests/st2022/meson.build and docs/st2022-6.md "Fuzzing".
 */

#include <stdint.h>
#include <string.h>
#include "st2022.h"

typedef struct
{
  St2022TargetType type;
  gboolean blank;               /* UYVP/v210: a blanking buffer too */
  guint pad;                    /* 0/1: stride at the minimum / 64 more */
  guint in_flight;
  guint busy;                   /* slots in use, bit per slot */
  guint decline;
} FuzzCtx;

/* Targets of exactly the size the depacketizer demands, so ASan flags any
 * write past them; kept per format, type, stride and slot across runs (a
 * fresh 3-8 MB allocation per frame would cost most of the fuzzing time).
 * Every output format (raster, UYVP, v210), each at its minimum stride
 * and a padded one, with and without a blanking buffer. */
#define N_FORMATS_MAX 64
static guint8 *buffers[N_FORMATS_MAX][3][2][2];
static guint8 *blanks[N_FORMATS_MAX][2];

static guint
format_index (const St2022Format * fmt)
{
  guint i;

  for (i = 0; i < st2022_format_count (); i++)
    if (st2022_format_get (i) == fmt)
      return i;
  __builtin_trap ();
}

static gboolean
fz_begin (gpointer user, const St2022Format * fmt, const St2022Header * hdr,
    St2022Target * t)
{
  FuzzCtx *c = user;
  gsize min = c->type == ST2022_TARGET_V210 ?
      st2022_picture_min_stride (fmt, ST2022_PIXEL_V210) : fmt->active_bytes;
  gsize stride = min + 64 * c->pad;
  gsize size = c->type == ST2022_TARGET_RASTER ? fmt->frame_bytes :
      (gsize) (fmt->height - 1) * stride + min;
  guint fi = format_index (fmt), slot;

  if (c->decline && (hdr->seq % c->decline) == 0)
    return FALSE;
  /* at most two frames are in flight: the first free slot */
  for (slot = 0; slot < 2; slot++)
    if (!(c->busy & (1u << slot)))
      break;
  if (slot == 2 || fi >= N_FORMATS_MAX)
    __builtin_trap ();
  if (buffers[fi][c->type][c->pad][slot] == NULL)
    buffers[fi][c->type][c->pad][slot] = g_malloc (size);
  c->busy |= 1u << slot;
  t->type = c->type;
  t->data = buffers[fi][c->type][c->pad][slot];
  t->size = size;
  t->stride = stride;
  if (c->blank && c->type != ST2022_TARGET_RASTER) {
    if (blanks[fi][slot] == NULL)
      blanks[fi][slot] = g_malloc (fmt->frame_bytes);
    t->blank = blanks[fi][slot];
    t->blank_size = fmt->frame_bytes;
  }
  t->user_data = GUINT_TO_POINTER (slot);
  c->in_flight++;
  return TRUE;
}

static void
fz_end (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  FuzzCtx *c = user;
  guint i, missing = 0;

  /* the missing map must be readable over its whole length and agree with
   * the counters */
  for (i = 0; i < info->datagrams; i++)
    missing += (info->missing_map[i / 32] >> (i % 32)) & 1;
  if (missing != info->missing || info->received + info->missing !=
      info->datagrams)
    __builtin_trap ();
  if (c->in_flight == 0 || c->in_flight > 2)
    __builtin_trap ();
  c->in_flight--;
  c->busy &= ~(1u << GPOINTER_TO_UINT (t->user_data));
}

static const St2022DepacketizerCallbacks fz_callbacks = {
  fz_begin, fz_end, NULL
};

/* the cached parse, carried across the input's datagrams, must agree
 * with the plain one on every datagram */
static void
check_cached (St2022HeaderCache * cache, const guint8 * dg, gsize len)
{
  St2022Header a, b;
  int ra, rb;

  memset (&a, 0, sizeof (a));
  memset (&b, 0, sizeof (b));
  ra = st2022_header_parse (dg, len, &a, NULL);
  rb = st2022_header_parse_cached (cache, dg, len, &b);
  if (ra != rb)
    __builtin_trap ();
  if (ra == ST2022_OK && (a.marker != b.marker || a.payload_type !=
          b.payload_type || a.seq != b.seq || a.rtp_ts != b.rtp_ts
          || a.ssrc != b.ssrc || a.frcount != b.frcount || a.vsid != b.vsid
          || a.ref != b.ref || a.scramble != b.scramble || a.fec != b.fec
          || a.cf != b.cf || a.vts != b.vts || a.format != b.format
          || a.header_len != b.header_len))
    __builtin_trap ();
}

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  static guint8 payload[ST2022_PAYLOAD_SIZE];
  guint8 dg[ST2022_DATAGRAM_SIZE + 16];
  FuzzCtx c;
  St2022Depacketizer *d;
  St2022DepacketizerStats st;
  St2022Header parsed;
  const guint8 *pl;
  St2022HeaderCache cache = { 0 };
  guint64 pushes = 0, invalid = 0;
  gsize pos = 3;

  if (size < 3)
    return 0;

  /* the raw input as one datagram: the parser alone */
  if (st2022_header_parse (data, size, &parsed, &pl) == ST2022_OK) {
    if (pl != data + parsed.header_len || size - parsed.header_len !=
        ST2022_PAYLOAD_SIZE)
      __builtin_trap ();
  }

  if (payload[1] == 0) {
    guint i;
    /* picture-like bytes (not all zero), so every conversion path sees
     * varied samples */
    for (i = 0; i < sizeof (payload); i++)
      payload[i] = (guint8) (i * 37 + 11);
  }
  memset (&c, 0, sizeof (c));
  /* data[0]: bit 0 UYVP, else bit 4 v210, else raster; bits 1-3 decline
   * every Nth frame; bit 5 a blanking buffer; bit 6 a padded stride */
  c.type = data[0] & 1 ? ST2022_TARGET_UYVP : (data[0] >> 4) & 1 ?
      ST2022_TARGET_V210 : ST2022_TARGET_RASTER;
  c.decline = (data[0] >> 1) & 7;
  c.blank = (data[0] >> 5) & 1;
  c.pad = (data[0] >> 6) & 1;
  d = st2022_depacketizer_new (&fz_callbacks, &c);
  st2022_depacketizer_set_reorder_window (d, 1 + data[1]);

  while (pos < size) {
    guint op = data[pos++];
    gsize len;

    if ((op & 7) == 0) {
      /* raw: next byte is a length (scaled), then that many bytes */
      if (pos >= size)
        break;
      len = (gsize) data[pos++] * 6;
      if (len > size - pos)
        len = size - pos;
      check_cached (&cache, data + pos, len);
      invalid += st2022_depacketizer_push (d, data + pos, len, pushes) < 0;
      pos += len;
    } else {
      /* structured: 8 bytes */
      St2022Header h;
      const St2022Format *f;
      const guint8 *r;

      if (size - pos < 8)
        break;
      r = data + pos;
      pos += 8;
      f = st2022_format_get (r[0] % (st2022_format_count () + 1));
      memset (&h, 0, sizeof (h));
      h.payload_type = 98;
      h.marker = (op >> 3) & 1;
      h.seq = (guint16) (r[1] << 8 | r[2]);
      h.frcount = r[3];
      h.ssrc = (op >> 4) & 1;
      h.rtp_ts = r[4];
      h.f = TRUE;
      h.cf = (op >> 5) & 1 ? 0 : (f ? f->cf_code : 1);
      h.vts = (guint32) r[5] << 16 | r[6];
      if (f) {
        h.frame = f->frame_code;
        h.frate = f->frate_code;
        h.sample = f->sample_code;
      } else {
        /* a valid-looking code pair that is not in the table */
        h.frame = ST2022_FRAME_525I;
        h.frate = ST2022_FRATE_29_97;
        h.sample = ST2022_SAMPLE_422_10;
      }
      st2022_header_pack (&h, dg, sizeof (dg));
      len = st2022_header_size (&h);
      memcpy (dg + len, payload, ST2022_PAYLOAD_SIZE);
      len += ST2022_PAYLOAD_SIZE;
      /* op bits 6-7: 0-2 as built, 3 flip one header bit and bend the
       * length */
      if ((op >> 6) == 3) {
        dg[r[7] % 24] ^= 1u << (r[7] >> 5);
        len = len - 8 + (r[7] & 15);
      }
      check_cached (&cache, dg, len);
      invalid += st2022_depacketizer_push (d, dg, len, pushes) < 0;
    }
    pushes++;
    if ((op & 7) == 7 && (pushes & 15) == 0)
      st2022_depacketizer_flush (d);
  }
  st2022_depacketizer_flush (d);
  st2022_depacketizer_get_stats (d, &st);
  /* every push is either valid or invalid; every accepted frame ended */
  if (st.packets + st.packets_invalid != pushes || st.packets_invalid != invalid
      || c.in_flight != 0)
    __builtin_trap ();
  st2022_depacketizer_free (d);
  return 0;
}
