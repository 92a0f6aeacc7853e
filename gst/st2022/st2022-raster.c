/* gst-vmi: SDI raster writer, reader and checker
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include "st2022-private.h"
#include "st2022-crc.h"

/* Word positions within a line of the interleaved C/Y stream */
#define EAV_WORD  0
#define LN_WORD   8
#define CRC_WORD  12
#define CRC_BYTE  15            /* CRC_WORD * 10 / 8: 4 words = 5 bytes */
#define LN_BYTE   10            /* LN_WORD * 10 / 8 */
#define LN_CRC_BYTES 10         /* LN and CRC words: 8 words, whole bytes */

struct _St2022RasterWriter
{
  const St2022Format *fmt;
  /* A blank line's bytes differ between lines only in the EAV/SAV flags
   * (F, V) and in the LN and CRC words, so the writer keeps one blank line
   * per flag pair and each line's LN + CRC bytes, not a whole blank
   * raster: a few KiB that stay in cache instead of 6 MB (1080 lines)
   * read back every frame. */
  guint8 *blank_line[4];        /* [F | V << 1]: a blank line with those
                                 * flags (its LN/CRC bytes any line's) */
  guint8 *line_patch;           /* [total_lines + 1][LN_CRC_BYTES]: a line's
                                 * LN and CRC words, the CRC as after a
                                 * blank line */
  guint8 *line_kind;            /* [total_lines + 1]: F | V << 1 */
  gint *line_row;               /* [total_lines + 1]: picture row or -1 */
  guint16 *tail;                /* [total_lines + 1][6]: EAV+LN words of a
                                 * line, identical on both channels */
  guint16 *comps;               /* v210 unpack scratch: 2 * width words */
  guint8 *row_reserved;         /* [height]: the picture row held a
                                 * reserved value in the last frame */
  guint32 blank_crc_c, blank_crc_y;     /* CRC of a blanking line's active part */
  guint32 hist_c, hist_y;       /* CRC state after the last line's active
                                 * words of the previous frame */
  /* A line's CRC is the register after its EAV and LN words, and the CRC
   * is linear: that is the register before them run over 6 zero words
   * (two lookups of its 9-bit halves, adv6) xor the EAV and LN words run
   * from 0 (tail_crc, per line, the same on both channels): 2 independent
   * lookups per channel instead of a chain of 6 */
  guint32 adv6[2][512];
  guint32 *tail_crc;            /* [total_lines + 1] */
};

static void
line_tail_words (const St2022Format * fmt, guint line, guint16 tail[6])
{
  guint flags = st2022_format_line_flags (fmt, line);

  tail[0] = 0x3ff;
  tail[1] = 0;
  tail[2] = 0;
  tail[3] = st2022_xyz (flags & ST2022_LINE_F, (flags & ST2022_LINE_V) != 0, 1);
  st2022_ln_words (line, &tail[4], &tail[5]);
}

/* Words of one line of the blank template (active part blanking), without
 * CRC (left 0) */
static void
template_line_words (const St2022Format * fmt, guint line, guint16 * w)
{
  guint n = fmt->line_words;
  guint sav = fmt->line_words - fmt->width * 2 - 8;
  guint flags = st2022_format_line_flags (fmt, line);
  guint f = flags & ST2022_LINE_F, v = (flags & ST2022_LINE_V) != 0;
  guint16 tail[6];
  guint i;

  for (i = 0; i < n; i += 2) {
    w[i] = ST2022_BLANK_C;
    w[i + 1] = ST2022_BLANK_Y;
  }
  line_tail_words (fmt, line, tail);
  for (i = 0; i < 4; i++) {
    w[EAV_WORD + 2 * i] = w[EAV_WORD + 2 * i + 1] = tail[i];
    w[sav + 2 * i] = w[sav + 2 * i + 1] = tail[i];
  }
  w[sav + 6] = w[sav + 7] = st2022_xyz (f, v, 0);
  w[LN_WORD] = w[LN_WORD + 1] = tail[4];
  w[LN_WORD + 2] = w[LN_WORD + 3] = tail[5];
  w[CRC_WORD] = w[CRC_WORD + 1] = w[CRC_WORD + 2] = w[CRC_WORD + 3] = 0;
}

/* An SD line (ST 125 / BT.656): one multiplexed stream Cb Y Cr Y, EAV
 * 3FF 000 000 XYZ, blanking, SAV, active; no LN, no CRC */
static void
template_line_words_sd (const St2022Format * fmt, guint line, guint16 * w)
{
  guint n = fmt->samples_per_line * 2;
  guint sav = (fmt->samples_per_line - fmt->width) * 2 - 4;
  guint flags = st2022_format_line_flags (fmt, line);
  guint f = flags & ST2022_LINE_F, v = (flags & ST2022_LINE_V) != 0;
  guint i;

  for (i = 0; i < n; i += 2) {
    w[i] = ST2022_BLANK_C;
    w[i + 1] = ST2022_BLANK_Y;
  }
  w[0] = w[sav] = 0x3ff;
  w[1] = w[2] = w[sav + 1] = w[sav + 2] = 0;
  w[3] = st2022_xyz (f, v, 1);
  w[sav + 3] = st2022_xyz (f, v, 0);
}

/* the CRC words CR0 CR0 CR1 CR1 (C, Y) as packed bytes: st2022_crc_words()
 * and st2022_pack_words() inline, as the writer does it for every line */
static inline void
put_crc (guint8 * line, guint32 cc, guint32 cy)
{
  guint64 c0 = (((cc >> 8) & 1) ^ 1) << 9 | (cc & 0x1ff);
  guint64 y0 = (((cy >> 8) & 1) ^ 1) << 9 | (cy & 0x1ff);
  guint64 c1 = (((cc >> 17) & 1) ^ 1) << 9 | ((cc >> 9) & 0x1ff);
  guint64 y1 = (((cy >> 17) & 1) ^ 1) << 9 | ((cy >> 9) & 0x1ff);
  guint64 v = c0 << 30 | y0 << 20 | c1 << 10 | y1;
  guint8 *d = line + CRC_BYTE;

  d[0] = (guint8) (v >> 32);
  d[1] = (guint8) (v >> 24);
  d[2] = (guint8) (v >> 16);
  d[3] = (guint8) (v >> 8);
  d[4] = (guint8) v;
}

static inline guint32
crc_tail (guint32 crc, const guint16 * tail)
{
  crc = ST2022_CRC_2WORDS (crc, tail[0], tail[1]);
  crc = ST2022_CRC_2WORDS (crc, tail[2], tail[3]);
  return ST2022_CRC_2WORDS (crc, tail[4], tail[5]);
}

/* crc_tail() of @line from the register @crc, by the tables */
static inline guint32
line_crc (const St2022RasterWriter * w, guint32 crc, guint line)
{
  return w->adv6[0][crc & 0x1ff] ^ w->adv6[1][crc >> 9] ^ w->tail_crc[line];
}

St2022RasterWriter *
st2022_raster_writer_new (const St2022Format * fmt)
{
  St2022RasterWriter *w;
  guint16 *words;
  guint8 *lp;
  guint nw, line, act, i;

  if (fmt == NULL)
    return NULL;
  st2022_crc_init_tables ();
  st2022_crc_packed_init ();

  w = g_try_new0 (St2022RasterWriter, 1);
  if (w == NULL)
    return NULL;
  w->fmt = fmt;
  w->blank_line[0] = g_try_malloc0 ((gsize) 4 * fmt->line_bytes);
  for (line = 1; line < 4 && w->blank_line[0]; line++)
    w->blank_line[line] = w->blank_line[0] + (gsize) line * fmt->line_bytes;
  w->line_patch = g_try_malloc ((gsize) (fmt->total_lines + 1) *
      LN_CRC_BYTES);
  w->line_kind = g_try_new (guint8, fmt->total_lines + 1);
  lp = g_try_malloc (fmt->line_bytes);
  w->line_row = g_try_new (gint, fmt->total_lines + 1);
  w->tail = g_try_new (guint16, (fmt->total_lines + 1) * 6);
  w->comps = g_try_new (guint16, fmt->width * 2 + 16);
  w->row_reserved = g_try_new0 (guint8, fmt->height);
  w->tail_crc = g_try_new (guint32, fmt->total_lines + 1);
  nw = fmt->line_words;
  words = g_try_new (guint16, nw);
  if (!w->blank_line[0] || !w->line_patch || !w->line_kind || !lp ||
      !w->line_row || !w->tail || !w->comps || !w->row_reserved ||
      !w->tail_crc || !words) {
    g_free (words);
    g_free (lp);
    st2022_raster_writer_free (w);
    return NULL;
  }

  act = fmt->line_words - fmt->width * 2;
  w->blank_crc_c = w->blank_crc_y = 0;
  for (line = act; line < nw; line += 2) {
    w->blank_crc_c = ST2022_CRC_WORD (w->blank_crc_c, ST2022_BLANK_C);
    w->blank_crc_y = ST2022_CRC_WORD (w->blank_crc_y, ST2022_BLANK_Y);
  }
  /* The last line of every format in the table is vertical blanking and
   * the writer inserts no ancillary data, so for the very first frame the
   * "previous frame's last line" is taken as a blanking line: exactly what
   * every later frame sees too. */
  w->hist_c = w->blank_crc_c;
  w->hist_y = w->blank_crc_y;

  for (i = 0; i < 512; i++) {
    static const guint16 zero[6] = { 0 };

    w->adv6[0][i] = crc_tail (i, zero);
    w->adv6[1][i] = crc_tail (i << 9, zero);
  }

  w->line_row[0] = -1;
  w->tail_crc[0] = 0;
  for (line = 1; line <= fmt->total_lines; line++) {
    guint16 *tail = w->tail + line * 6;
    guint flags = st2022_format_line_flags (fmt, line);

    w->line_row[line] = st2022_format_line_to_row (fmt, line);
    w->line_kind[line] = (flags & ST2022_LINE_F ? 1 : 0) |
        (flags & ST2022_LINE_V ? 2 : 0);
    line_tail_words (fmt, line, tail);
    w->tail_crc[line] = crc_tail (0, tail);
    if (fmt->sd) {
      template_line_words_sd (fmt, line, words);
      st2022_pack_words (words, w->blank_line[w->line_kind[line]], nw);
      continue;
    }
    template_line_words (fmt, line, words);
    st2022_pack_words (words, lp, nw);
    /* CRC assuming the previous line is blank; lines after active lines
     * are recomputed per frame */
    put_crc (lp, crc_tail (w->blank_crc_c, tail), crc_tail (w->blank_crc_y,
            tail));
    memcpy (w->line_patch + (gsize) line * LN_CRC_BYTES, lp + LN_BYTE,
        LN_CRC_BYTES);
    memcpy (w->blank_line[w->line_kind[line]], lp, fmt->line_bytes);
  }
  g_free (words);
  g_free (lp);
  return w;
}

void
st2022_raster_writer_free (St2022RasterWriter * w)
{
  if (w == NULL)
    return;
  g_free (w->blank_line[0]);
  g_free (w->line_patch);
  g_free (w->line_kind);
  g_free (w->line_row);
  g_free (w->tail);
  g_free (w->comps);
  g_free (w->row_reserved);
  g_free (w->tail_crc);
  g_free (w);
}

const St2022Format *
st2022_raster_writer_get_format (St2022RasterWriter * w)
{
  return w ? w->fmt : NULL;
}

#define WORD_BAD(x) ((((x) + 4) & 0x3ff) < 8)

static inline guint
clip_word (guint x)
{
  return x < ST2022_SAMPLE_MIN ? ST2022_SAMPLE_MIN :
      x > ST2022_SAMPLE_MAX ? ST2022_SAMPLE_MAX : x;
}

static inline guint64
load_be40 (const guint8 * p)
{
  /* 8-byte load of which the top 5 bytes are the group; the caller
   * guarantees 3 readable bytes past it */
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_BE (v) >> 24;
}

static inline void
store_be40 (guint8 * p, guint64 v)
{
  /* writes 3 bytes past the group, which the caller rewrites later */
  v = GUINT64_TO_BE (v << 24);
  memcpy (p, &v, 8);
}

/* Any of 8 words in 0..3 or 1020..1023?  SWAR over 16-bit lanes: (w + 4)
 * mod 1024 < 8 exactly for those, i.e. bits 3..9 of (w + 4) all clear;
 * adding 0x7ff8 to the masked lane sets bit 15 unless the lane is 0. */
static inline gboolean
groups_bad (guint64 w0, guint64 w1, guint64 w2, guint64 w3, guint64 w4,
    guint64 w5, guint64 w6, guint64 w7)
{
  const guint64 four = 0x0004000400040004ull, mask = 0x03f803f803f803f8ull;
  const guint64 bias = 0x7ff87ff87ff87ff8ull, top = 0x8000800080008000ull;
  guint64 a = w0 | w1 << 16 | w2 << 32 | w3 << 48;
  guint64 b = w4 | w5 << 16 | w6 << 32 | w7 << 48;

  a = (((a + four) & mask) + bias) & top;
  b = (((b + four) & mask) + bias) & top;
  return (a & b) != top;
}

static inline void
clip_group (guint8 * p, guint * w0, guint * w1, guint * w2, guint * w3)
{
  guint16 fixed[4];

  fixed[0] = *w0 = clip_word (*w0);
  fixed[1] = *w1 = clip_word (*w1);
  fixed[2] = *w2 = clip_word (*w2);
  fixed[3] = *w3 = clip_word (*w3);
  st2022_pack_words (fixed, p, 4);
}

/* Copy one UYVP row into the raster's active region, clipping reserved
 * values and computing both channels' CRC.  The copy is a memcpy; the
 * check runs over the destination (now in cache) two groups at a time and
 * only rewrites the rare group holding an illegal value (vector code, where
 * the CPU has it, clips most of the row first).  Reads up to 3 bytes past
 * the row: inside the raster, since the last line of every format is
 * blanking.  The slow path of active_from_uyvp2(), for rows holding a
 * reserved value.  Returns whether the row held one. */
static gboolean
active_from_uyvp_clip (guint8 * dst, const guint8 * src, guint bytes,
    guint32 * crc_c, guint32 * crc_y)
{
  guint32 cc = 0, cy = 0;
  gboolean clipped;
  /* vector code clips what it can, the loops below the rest */
  gsize done = st2022_packed_clip_crc (dst, src, bytes, &cc, &cy, &clipped);
  guint8 *p = dst + done, *end = dst + bytes;

  memcpy (p, src + done, bytes - done);
  for (; p + 10 <= end; p += 10) {
    guint64 a = load_be40 (p), b = load_be40 (p + 5);
    guint w0 = (a >> 30) & 0x3ff, w1 = (a >> 20) & 0x3ff;
    guint w2 = (a >> 10) & 0x3ff, w3 = a & 0x3ff;
    guint w4 = (b >> 30) & 0x3ff, w5 = (b >> 20) & 0x3ff;
    guint w6 = (b >> 10) & 0x3ff, w7 = b & 0x3ff;

    if (G_UNLIKELY (groups_bad (w0, w1, w2, w3, w4, w5, w6, w7))) {
      clip_group (p, &w0, &w1, &w2, &w3);
      clip_group (p + 5, &w4, &w5, &w6, &w7);
      clipped = TRUE;
    }
    cc = ST2022_CRC_4WORDS (cc, w0, w2, w4, w6);
    cy = ST2022_CRC_4WORDS (cy, w1, w3, w5, w7);
  }
  for (; p < end; p += 5) {
    guint w0 = p[0] << 2 | p[1] >> 6;
    guint w1 = (p[1] & 0x3f) << 4 | p[2] >> 4;
    guint w2 = (p[2] & 0x0f) << 6 | p[3] >> 2;
    guint w3 = (p[3] & 0x03) << 8 | p[4];

    if (G_UNLIKELY (WORD_BAD (w0) | WORD_BAD (w1) | WORD_BAD (w2) |
            WORD_BAD (w3))) {
      clip_group (p, &w0, &w1, &w2, &w3);
      clipped = TRUE;
    }
    cc = ST2022_CRC_2WORDS (cc, w0, w2);
    cy = ST2022_CRC_2WORDS (cy, w1, w3);
  }
  *crc_c = cc;
  *crc_y = cy;
  return clipped;
}

/* One UYVP row with the vector CRC.  A row that held a reserved value in
 * the last frame (@reserved) most likely holds one again (a test pattern,
 * a graphic, 8-bit sources' 0 and 255), so it goes straight to the clip
 * path instead of first through the legal-row pass that would find it;
 * the clip path says whether it still did. */
static void
active_from_uyvp_vector (guint8 * dst, const guint8 * src, guint bytes,
    guint32 * crc_c, guint32 * crc_y, guint8 * reserved)
{
  if (*reserved) {
    *reserved = active_from_uyvp_clip (dst, src, bytes, crc_c, crc_y);
  } else if (!st2022_crc_legal_copy_packed (dst, src, bytes, crc_c, crc_y)) {
    active_from_uyvp_clip (dst, src, bytes, crc_c, crc_y);
    *reserved = TRUE;
  }
}

/* Copy two UYVP rows (@src1 may be NULL for one) into active regions and
 * compute their CRCs into crc[0..1] and crc[2..3]; @reserved: the rows'
 * entries of the writer's row_reserved.  Legal rows (the rule for real
 * video) take a memcpy, a vector check of the copy and the packed-byte
 * CRC, two rows interleaved to hide the table latency; a row with a
 * reserved value goes through active_from_uyvp_clip(). */
static void
active_from_uyvp2 (guint8 * dst0, const guint8 * src0, guint8 * dst1,
    const guint8 * src1, guint bytes, guint32 crc[4], guint8 * reserved[2])
{
  gboolean ok0, ok1 = FALSE;

  if (st2022_crc_legal_packed_is_vector ()) {
    /* one pass copies, computes both CRCs and finds reserved values; no
     * chain links the blocks, so no interleaving of rows */
    active_from_uyvp_vector (dst0, src0, bytes, &crc[0], &crc[1],
        reserved[0]);
    if (src1 != NULL)
      active_from_uyvp_vector (dst1, src1, bytes, &crc[2], &crc[3],
          reserved[1]);
    return;
  }
  memcpy (dst0, src0, bytes);
  ok0 = st2022_packed_legal (dst0, bytes);
  if (src1 != NULL) {
    memcpy (dst1, src1, bytes);
    ok1 = st2022_packed_legal (dst1, bytes);
  }
  if (ok0 && ok1) {
    st2022_crc_packed2 (dst0, dst1, bytes, crc);
    return;
  }
  if (ok0)
    st2022_crc_packed (dst0, bytes, &crc[0], &crc[1]);
  else
    active_from_uyvp_clip (dst0, src0, bytes, &crc[0], &crc[1]);
  if (src1 == NULL)
    return;
  if (ok1)
    st2022_crc_packed (dst1, bytes, &crc[2], &crc[3]);
  else
    active_from_uyvp_clip (dst1, src1, bytes, &crc[2], &crc[3]);
}

static inline guint32
get_le32 (const guint8 * p)
{
  guint32 v;
  /* memcpy: one unaligned load, which byte-wise code did not become */
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline void
put_le32 (guint8 * p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

/* v210 row → component stream (Cb Y Cr Y ...), n = 2 * width components */
static void
v210_unpack_row (const guint8 * src, guint16 * c, guint n)
{
  guint i = 0;

  while (i < n) {
    guint32 v = get_le32 (src);
    guint k;
    src += 4;
    for (k = 0; k < 3 && i < n; k++, i++)
      c[i] = (v >> (10 * k)) & 0x3ff;
  }
}

static void
v210_pack_row (const guint16 * c, guint n, guint8 * dst, gsize row_bytes)
{
  guint i = 0;
  guint8 *p = dst;

  while (i < n) {
    guint32 v = 0;
    guint k;
    for (k = 0; k < 3 && i < n; k++, i++)
      v |= (guint32) c[i] << (10 * k);
    put_le32 (p, v);
    p += 4;
  }
  /* v210 pads each row to whole 6-pixel blocks: zero the rest */
  if ((gsize) (p - dst) < row_bytes)
    memset (p, 0, row_bytes - (p - dst));
}

static inline guint
clip_fast (guint x)
{
  /* branchless: compiles to two cmovs */
  x = x < ST2022_SAMPLE_MIN ? ST2022_SAMPLE_MIN : x;
  return x > ST2022_SAMPLE_MAX ? ST2022_SAMPLE_MAX : x;
}

/* One v210 row into the raster's active region: whole 6-pixel blocks (16
 * bytes → 12 words → 15 bytes) straight, the partial block through the
 * generic unpacker.  Writes up to 3 bytes past the row (see store_be40):
 * the next line's template copy comes after and restores them. */
static void
active_from_v210 (St2022RasterWriter * w, guint8 * dst, const guint8 * src,
    guint32 * crc_c, guint32 * crc_y)
{
  guint n = w->fmt->width * 2, i = 0;
  guint blocks = w->fmt->width / 6, bl;
  guint32 cc = 0, cy = 0;
  /* vector code takes what it can, the loop below the rest */
  guint done = st2022_v210_pack_crc (dst, src,
      st2022_picture_min_stride (w->fmt, ST2022_PIXEL_V210), n, &cc, &cy);

  bl = done / 12;
  src += (gsize) bl * 16;
  dst += (gsize) bl * 15;
  for (; bl < blocks; bl++, src += 16, dst += 15) {
    guint32 v0 = get_le32 (src), v1 = get_le32 (src + 4);
    guint32 v2 = get_le32 (src + 8), v3 = get_le32 (src + 12);
    guint c0 = clip_fast (v0 & 0x3ff), c1 = clip_fast ((v0 >> 10) & 0x3ff);
    guint c2 = clip_fast ((v0 >> 20) & 0x3ff), c3 = clip_fast (v1 & 0x3ff);
    guint c4 = clip_fast ((v1 >> 10) & 0x3ff);
    guint c5 = clip_fast ((v1 >> 20) & 0x3ff), c6 = clip_fast (v2 & 0x3ff);
    guint c7 = clip_fast ((v2 >> 10) & 0x3ff);
    guint c8 = clip_fast ((v2 >> 20) & 0x3ff), c9 = clip_fast (v3 & 0x3ff);
    guint c10 = clip_fast ((v3 >> 10) & 0x3ff);
    guint c11 = clip_fast ((v3 >> 20) & 0x3ff);

    store_be40 (dst, (guint64) c0 << 30 | (guint64) c1 << 20 | c2 << 10 | c3);
    store_be40 (dst + 5, (guint64) c4 << 30 | (guint64) c5 << 20 | c6 << 10 |
        c7);
    store_be40 (dst + 10, (guint64) c8 << 30 | (guint64) c9 << 20 |
        c10 << 10 | c11);
    cc = ST2022_CRC_4WORDS (cc, c0, c2, c4, c6);
    cc = ST2022_CRC_2WORDS (cc, c8, c10);
    cy = ST2022_CRC_4WORDS (cy, c1, c3, c5, c7);
    cy = ST2022_CRC_2WORDS (cy, c9, c11);
  }
  i = blocks * 12;
  if (i < n) {
    guint16 *c = w->comps;
    v210_unpack_row (src, c, n - i);
    for (bl = 0; bl < n - i; bl += 4, dst += 5) {
      guint w0 = clip_word (c[bl]), w1 = clip_word (c[bl + 1]);
      guint w2 = clip_word (c[bl + 2]), w3 = clip_word (c[bl + 3]);
      dst[0] = (guint8) (w0 >> 2);
      dst[1] = (guint8) ((w0 & 3) << 6 | w1 >> 4);
      dst[2] = (guint8) ((w1 & 0xf) << 4 | w2 >> 6);
      dst[3] = (guint8) ((w2 & 0x3f) << 2 | w3 >> 8);
      dst[4] = (guint8) (w3 & 0xff);
      cc = ST2022_CRC_2WORDS (cc, w0, w2);
      cy = ST2022_CRC_2WORDS (cy, w1, w3);
    }
  }
  *crc_c = cc;
  *crc_y = cy;
}

/* The first @bytes of @line's blank form: its flags' blank line, its own
 * LN and CRC words */
static inline void
blank_line_to (St2022RasterWriter * w, guint8 * lp, guint line, gsize bytes)
{
  memcpy (lp, w->blank_line[w->line_kind[line]], bytes);
  memcpy (lp + LN_BYTE, w->line_patch + (gsize) line * LN_CRC_BYTES,
      LN_CRC_BYTES);
}

/* SD: lines of the template, active rows copied and clipped word by word
 * (a small raster, and its last line is active: nothing may be read or
 * written past a row as the HD paths do) */
static void
write_sd (St2022RasterWriter * w, guint8 * raster, St2022PixelFormat pixfmt,
    const guint8 * picture, gsize stride)
{
  const St2022Format *fmt = w->fmt;
  guint line, n = fmt->width * 2, i;

  for (line = 1; line <= fmt->total_lines; line++) {
    guint8 *lp = raster + (gsize) (line - 1) * fmt->line_bytes;
    gint row = w->line_row[line];
    guint8 *dst = lp + fmt->active_offset;
    const guint8 *src;

    memcpy (lp, w->blank_line[w->line_kind[line]], row < 0 ?
        fmt->line_bytes : fmt->active_offset);
    if (row < 0)
      continue;
    src = picture + (gsize) row * stride;
    if (pixfmt == ST2022_PIXEL_UYVP) {
      memcpy (dst, src, fmt->active_bytes);
      for (i = 0; i < fmt->active_bytes; i += 5) {
        guint8 *p = dst + i;
        guint w0 = p[0] << 2 | p[1] >> 6;
        guint w1 = (p[1] & 0x3f) << 4 | p[2] >> 4;
        guint w2 = (p[2] & 0x0f) << 6 | p[3] >> 2;
        guint w3 = (p[3] & 0x03) << 8 | p[4];

        if (G_UNLIKELY (WORD_BAD (w0) | WORD_BAD (w1) | WORD_BAD (w2) |
                WORD_BAD (w3)))
          clip_group (p, &w0, &w1, &w2, &w3);
      }
    } else {
      v210_unpack_row (src, w->comps, n);
      for (i = 0; i < n; i++)
        w->comps[i] = clip_word (w->comps[i]);
      st2022_pack_words (w->comps, dst, n);
    }
  }
}

int
st2022_raster_writer_write (St2022RasterWriter * w, guint8 * raster,
    gsize raster_size, St2022PixelFormat pixfmt, const guint8 * picture,
    gsize stride)
{
  const St2022Format *fmt;
  St2022RasterCursor cur;
  int rc;

  if (w == NULL || raster == NULL || picture == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (pixfmt != ST2022_PIXEL_UYVP && pixfmt != ST2022_PIXEL_V210)
    return ST2022_ERROR_INVALID_ARGUMENT;
  fmt = w->fmt;
  if (raster_size < fmt->frame_bytes)
    return ST2022_ERROR_BUFFER_TOO_SMALL;
  if (stride < st2022_picture_min_stride (fmt, pixfmt))
    return ST2022_ERROR_INVALID_ARGUMENT;

  if (fmt->sd) {
    write_sd (w, raster, pixfmt, picture, stride);
    return ST2022_OK;
  }
  /* one call of the sliced writer over the whole frame */
  rc = st2022_raster_writer_begin (w, &cur, raster, 0, 0, pixfmt, picture,
      stride);
  if (rc != ST2022_OK)
    return rc;
  st2022_raster_writer_lines (w, &cur, fmt->total_lines);
  w->hist_c = cur.pc;
  w->hist_y = cur.py;
  return ST2022_OK;
}

int
st2022_raster_writer_begin (St2022RasterWriter * w, St2022RasterCursor * cur,
    guint8 * base, gsize ring_size, gsize origin, St2022PixelFormat pixfmt,
    const guint8 * picture, gsize stride)
{
  const St2022Format *fmt;

  if (w == NULL || cur == NULL || base == NULL || picture == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  fmt = w->fmt;
  if (fmt->sd || (pixfmt != ST2022_PIXEL_UYVP && pixfmt != ST2022_PIXEL_V210))
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (stride < st2022_picture_min_stride (fmt, pixfmt))
    return ST2022_ERROR_INVALID_ARGUMENT;
  cur->base = base;
  cur->ring_size = ring_size;
  cur->origin = ring_size ? origin % ring_size : origin;
  cur->pixfmt = pixfmt;
  cur->picture = picture;
  cur->stride = stride;
  cur->line = 1;
  /* the last line of every format in the table is blanking, so the
   * history a frame starts from is always the blanking line's: the cursor
   * never writes it back (the element's thread begins frame k + 1 while
   * the transmit thread still writes frame k) */
  cur->pc = w->hist_c;
  cur->py = w->hist_y;
  cur->prev_active = TRUE;
  return ST2022_OK;
}

static inline guint8 *
cursor_line (const St2022RasterCursor * cur, const St2022Format * fmt,
    guint line)
{
  gsize off = cur->origin + (gsize) (line - 1) * fmt->line_bytes;

  /* the transmit engine's ring is a power of two: no division per line */
  if (cur->ring_size)
    off = (cur->ring_size & (cur->ring_size - 1)) == 0 ?
        off & (cur->ring_size - 1) : off % cur->ring_size;
  return cur->base + off;
}

/* The loop of st2022_raster_writer_write() over lines cur->line..last, each
 * line at its cursor address (two lines written together are contiguous:
 * the ring repeats past its end). */
void
st2022_raster_writer_lines (St2022RasterWriter * w, St2022RasterCursor * cur,
    guint last_line)
{
  const St2022Format *fmt = w->fmt;
  guint line;
  guint32 pc = cur->pc, py = cur->py;
  gboolean prev_active = cur->prev_active;
  gsize stride = cur->stride;

  last_line = MIN (last_line, fmt->total_lines);
  for (line = cur->line; line <= last_line; line++) {
    guint8 *lp = cursor_line (cur, fmt, line);
    gint row = w->line_row[line];

    blank_line_to (w, lp, line, row < 0 ? fmt->line_bytes :
        fmt->active_offset);
    if (prev_active)
      put_crc (lp, line_crc (w, pc, line), line_crc (w, py, line));
    if (row < 0) {
      pc = w->blank_crc_c;
      py = w->blank_crc_y;
      prev_active = FALSE;
    } else if (cur->pixfmt == ST2022_PIXEL_UYVP) {
      const guint8 *src = cur->picture + (gsize) row * stride;
      guint8 *lp1 = lp + fmt->line_bytes;
      guint32 crc[4];
      guint8 *reserved[2] = { &w->row_reserved[row], NULL };

      if (line < last_line && w->line_row[line + 1] >= 0) {
        reserved[1] = &w->row_reserved[w->line_row[line + 1]];
        blank_line_to (w, lp1, line + 1, fmt->active_offset);
        active_from_uyvp2 (lp + fmt->active_offset, src,
            lp1 + fmt->active_offset,
            cur->picture + (gsize) w->line_row[line + 1] * stride,
            fmt->active_bytes, crc, reserved);
        line++;
        put_crc (lp1, line_crc (w, crc[0], line), line_crc (w, crc[1],
                line));
        pc = crc[2];
        py = crc[3];
      } else {
        active_from_uyvp2 (lp + fmt->active_offset, src, NULL, NULL,
            fmt->active_bytes, crc, reserved);
        pc = crc[0];
        py = crc[1];
      }
      prev_active = TRUE;
    } else {
      active_from_v210 (w, lp + fmt->active_offset,
          cur->picture + (gsize) row * stride, &pc, &py);
      prev_active = TRUE;
    }
  }
  cur->line = MAX (cur->line, last_line + 1);
  cur->pc = pc;
  cur->py = py;
  cur->prev_active = prev_active;
}

/* ---- packed 6-pixel blocks → v210 ---- */

/* whole blocks, 15 packed bytes → 16 v210 bytes; reads only
 * [src, src + 15 * nblocks) */
static void
v210_blocks_scalar (guint8 * dst, const guint8 * src, guint nblocks)
{
  guint bl;

  for (bl = 0; bl < nblocks; bl++, src += 15, dst += 16) {
    guint16 w[12];

    st2022_unpack_words (src, w, 12);
    put_le32 (dst, w[0] | (guint32) w[1] << 10 | (guint32) w[2] << 20);
    put_le32 (dst + 4, w[3] | (guint32) w[4] << 10 | (guint32) w[5] << 20);
    put_le32 (dst + 8, w[6] | (guint32) w[7] << 10 | (guint32) w[8] << 20);
    put_le32 (dst + 12, w[9] | (guint32) w[10] << 10 | (guint32) w[11] << 20);
  }
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_V210_AVX2 1
#include <immintrin.h>

/* Each v210 dword k holds words 3k..3k+2, i.e. packed bits 30k..30k+29,
 * which can span 5 bytes: the big-endian 64 bits from byte 30k / 8 (0, 3,
 * 7, 11; one block broadcast to both lanes, one qword per dword) shifted
 * left by 30k mod 8 (0, 6, 4, 2) and down by 34 hold them, first word
 * highest; v210 wants the first word lowest, so the outer two swap, and
 * the four low dwords make the 16 output bytes. */
#define V210_BE01 7, 6, 5, 4, 3, 2, 1, 0, 10, 9, 8, 7, 6, 5, 4, 3
#define V210_BE23 14, 13, 12, 11, 10, 9, 8, 7, -1, -1, -1, -1, 14, 13, 12, 11

__attribute__ ((target ("avx2"), always_inline))
static inline __m128i
v210_from_packed_256 (__m128i block)
{
  const __m256i be = _mm256_setr_epi8 (V210_BE01, V210_BE23);
  const __m256i sh = _mm256_setr_epi64x (0, 6, 4, 2);
  const __m256i m10 = _mm256_set1_epi64x (0x3ff);
  const __m256i mid = _mm256_set1_epi64x (0xffc00);
  const __m256i low = _mm256_setr_epi32 (0, 2, 4, 6, 0, 2, 4, 6);
  __m256i x = _mm256_srli_epi64 (_mm256_sllv_epi64 (_mm256_shuffle_epi8
          (_mm256_broadcastsi128_si256 (block), be), sh), 34);

  x = _mm256_or_si256 (_mm256_or_si256 (_mm256_and_si256 (x, mid),
          _mm256_and_si256 (_mm256_srli_epi64 (x, 20), m10)),
      _mm256_slli_epi64 (_mm256_and_si256 (x, m10), 20));
  return _mm256_castsi256_si128 (_mm256_permutevar8x32_epi32 (x, low));
}

__attribute__ ((target ("avx2")))
static void
v210_blocks_avx2 (guint8 * dst, const guint8 * src, guint nblocks)
{
  guint bl = 0;

  /* a block's 16-byte load ends one byte past it */
  for (; bl + 1 < nblocks; bl++, src += 15, dst += 16)
    _mm_storeu_si128 ((__m128i *) dst, v210_from_packed_256 (_mm_loadu_si128
            ((const __m128i *) src)));
  /* the last one through a buffer */
  if (bl < nblocks) {
    guint8 tmp[16] = { 0 };

    memcpy (tmp, src, 15);
    _mm_storeu_si128 ((__m128i *) dst, v210_from_packed_256 (_mm_loadu_si128
            ((const __m128i *) tmp)));
  }
}
#endif

static void (*v210_blocks_impl) (guint8 * dst, const guint8 * src,
    guint nblocks) = v210_blocks_scalar;

static void
v210_blocks_init (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
#ifdef HAVE_V210_AVX2
    __builtin_cpu_init ();
    if (__builtin_cpu_supports ("avx2"))
      v210_blocks_impl = v210_blocks_avx2;
#endif
    g_once_init_leave (&once, 1);
  }
}

void
st2022_v210_from_packed_blocks (guint8 * dst, const guint8 * src,
    guint nblocks, gboolean portable)
{
  v210_blocks_init ();
  if (portable)
    v210_blocks_scalar (dst, src, nblocks);
  else
    v210_blocks_impl (dst, src, nblocks);
}

void
st2022_v210_from_packed_partial (guint8 * dst, const guint8 * src,
    guint bytes, gsize dst_bytes)
{
  /* at most 15 bytes: 12 words */
  guint16 comps[12];
  guint n = bytes * 8 / 10;

  st2022_unpack_words (src, comps, n);
  v210_pack_row (comps, n, dst, dst_bytes);
}

void
st2022_v210_to_packed_block (guint8 * dst, const guint8 * src, guint bytes)
{
  guint16 comps[12];
  guint n = bytes * 8 / 10;

  v210_unpack_row (src, comps, n);
  st2022_pack_words (comps, dst, n);
}

/* One raster active line → v210 row: whole 6-pixel blocks (15 raster
 * bytes → 16 v210 bytes) in vector code where the CPU has it, the partial
 * block and the row's padding generically. */
static void
v210_from_active (const St2022Format * fmt, const guint8 * src, guint8 * dst,
    gsize row_bytes)
{
  guint blocks = fmt->width / 6;
  gsize done = (gsize) blocks * 16;

  v210_blocks_impl (dst, src, blocks);
  if (blocks * 15 < fmt->active_bytes)
    st2022_v210_from_packed_partial (dst + done, src + blocks * 15,
        fmt->active_bytes - blocks * 15, row_bytes - done);
  else if (done < row_bytes)
    memset (dst + done, 0, row_bytes - done);
}

int
st2022_raster_read (const St2022Format * fmt, const guint8 * raster,
    gsize raster_size, St2022PixelFormat pixfmt, guint8 * picture,
    gsize stride)
{
  guint row;
  gsize min_stride;

  if (fmt == NULL || raster == NULL || picture == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (pixfmt != ST2022_PIXEL_UYVP && pixfmt != ST2022_PIXEL_V210)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (raster_size < fmt->frame_bytes)
    return ST2022_ERROR_BUFFER_TOO_SMALL;
  min_stride = st2022_picture_min_stride (fmt, pixfmt);
  if (stride < min_stride)
    return ST2022_ERROR_INVALID_ARGUMENT;
  v210_blocks_init ();

  for (row = 0; row < fmt->height; row++) {
    guint line = st2022_format_row_to_line (fmt, row);
    const guint8 *src = raster + (gsize) (line - 1) * fmt->line_bytes +
        fmt->active_offset;
    guint8 *dst = picture + (gsize) row * stride;

    if (pixfmt == ST2022_PIXEL_UYVP)
      memcpy (dst, src, fmt->active_bytes);
    else
      v210_from_active (fmt, src, dst, min_stride);
  }
  return ST2022_OK;
}

int
st2022_raster_check (const St2022Format * fmt, const guint8 * raster,
    gsize raster_size, const guint8 * prev_raster,
    St2022RasterCheck * counters)
{
  guint nw, act, sav, line, i;
  guint16 *w, *pw;
  guint32 pc = 0, py = 0;

  if (fmt == NULL || raster == NULL || counters == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (raster_size < fmt->frame_bytes)
    return ST2022_ERROR_BUFFER_TOO_SMALL;
  st2022_crc_init_tables ();

  nw = fmt->line_words;
  act = fmt->line_words - fmt->width * 2;
  sav = act - 8;
  w = g_try_new (guint16, nw * 2);
  if (w == NULL)
    return ST2022_ERROR_NO_MEMORY;
  pw = w + nw;

  if (fmt->sd) {
    /* 4-word EAV and SAV; nothing else to check */
    sav = act - 4;
    for (line = 1; line <= fmt->total_lines; line++) {
      guint16 t[8];

      st2022_unpack_words (raster + (gsize) (line - 1) * fmt->line_bytes, w,
          nw);
      template_line_words_sd (fmt, line, pw);
      for (i = 0; i < 4; i++) {
        t[i] = w[i] ^ pw[i];
        t[4 + i] = w[sav + i] ^ pw[sav + i];
      }
      for (i = 0; i < 8; i++)
        if (t[i])
          counters->trs_errors++;
      counters->lines_checked++;
    }
    g_free (w);
    return ST2022_OK;
  }

  /* history for line 1: the previous frame's last line */
  st2022_unpack_words ((prev_raster ? prev_raster : raster) +
      (gsize) (fmt->total_lines - 1) * fmt->line_bytes, pw, nw);
  for (i = act; i < nw; i += 2) {
    pc = ST2022_CRC_WORD (pc, pw[i]);
    py = ST2022_CRC_WORD (py, pw[i + 1]);
  }

  for (line = 1; line <= fmt->total_lines; line++) {
    guint16 tail[6], cr[4];
    guint flags = st2022_format_line_flags (fmt, line);
    guint f = flags & ST2022_LINE_F, v = (flags & ST2022_LINE_V) != 0;
    static const guint16 trs[3] = { 0x3ff, 0, 0 };

    st2022_unpack_words (raster + (gsize) (line - 1) * fmt->line_bytes, w, nw);
    line_tail_words (fmt, line, tail);
    for (i = 0; i < 8; i++) {
      guint16 want = i < 6 ? trs[i / 2] : tail[3];
      guint16 want_sav = i < 6 ? trs[i / 2] : st2022_xyz (f, v, 0);
      if (w[EAV_WORD + i] != want)
        counters->trs_errors++;
      if (w[sav + i] != want_sav)
        counters->trs_errors++;
    }
    for (i = 0; i < 4; i++) {
      if (w[LN_WORD + i] != tail[4 + i / 2])
        counters->ln_errors++;
    }
    /* the CRC covers the words as received, not the expected ones */
    for (i = 0; i < 12; i += 2) {
      pc = ST2022_CRC_WORD (pc, w[i]);
      py = ST2022_CRC_WORD (py, w[i + 1]);
    }
    st2022_crc_words (pc, &cr[0], &cr[2]);
    st2022_crc_words (py, &cr[1], &cr[3]);
    if (w[CRC_WORD] != cr[0] || w[CRC_WORD + 2] != cr[2])
      counters->crc_errors++;
    if (w[CRC_WORD + 1] != cr[1] || w[CRC_WORD + 3] != cr[3])
      counters->crc_errors++;

    pc = py = 0;
    for (i = act; i < nw; i += 2) {
      pc = ST2022_CRC_WORD (pc, w[i]);
      py = ST2022_CRC_WORD (py, w[i + 1]);
    }
    counters->lines_checked++;
  }
  g_free (w);
  return ST2022_OK;
}
