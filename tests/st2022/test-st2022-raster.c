/* gst-vmi: unit tests of the SDI raster writer, reader and checker
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022.h"
#include "st2022-crc-ref.h"
#include "st2022-words-ref.h"

/* --- independent helpers (not using the core's packers) ------------------ */

/* word @w of raster line @line (1-based) */
static guint
raster_word (const St2022Format * f, const guint8 * r, guint line, guint w)
{
  return get_word (r + (gsize) (line - 1) * f->line_bytes, w);
}

typedef struct
{
  const St2022Format *f;
  guint16 *comps;               /* height x 2*width legal components */
  guint8 *uyvp;
  gsize uyvp_stride;
  guint8 *v210;
  gsize v210_stride;
} Picture;

static void
picture_make (Picture * p, const St2022Format * f, guint32 seed,
    gboolean illegal)
{
  GRand *r = g_rand_new_with_seed (seed);
  guint n = f->width * 2, row, i;

  p->f = f;
  p->comps = g_new (guint16, (gsize) f->height * n);
  p->uyvp_stride = f->active_bytes + 3;        /* odd stride on purpose */
  p->v210_stride = (f->width + 47) / 48 * 128;
  p->uyvp = g_malloc0 (p->uyvp_stride * f->height);
  p->v210 = g_malloc0 (p->v210_stride * f->height);
  for (row = 0; row < f->height; row++) {
    guint16 *c = p->comps + (gsize) row * n;
    guint8 *u = p->uyvp + row * p->uyvp_stride;
    guint8 *v = p->v210 + row * p->v210_stride;
    for (i = 0; i < n; i++) {
      c[i] = g_rand_int_range (r, 4, 1020);
      set_word (u, i, c[i]);
    }
    /* v210: 3 components per little-endian 32-bit word */
    for (i = 0; i < n; i++) {
      guint32 *wp = (guint32 *) (v + (i / 3) * 4);
      *wp |= GUINT32_TO_LE ((guint32) c[i] << (10 * (i % 3)));
    }
  }
  if (illegal) {
    /* reserved values in row 1 (both formats), expected clipped */
    static const guint16 bad[8] = { 0, 3, 1020, 1023, 4, 1019, 2, 1021 };
    guint16 *c = p->comps + n;
    guint8 *u = p->uyvp + p->uyvp_stride;
    guint32 *v = (guint32 *) (p->v210 + p->v210_stride);
    for (i = 0; i < 8; i++) {
      guint idx = 100 + i;
      guint32 *wp = v + idx / 3;
      set_word (u, idx, bad[i]);
      *wp = GUINT32_FROM_LE (*wp);
      *wp &= ~(0x3ffu << (10 * (idx % 3)));
      *wp |= (guint32) bad[i] << (10 * (idx % 3));
      *wp = GUINT32_TO_LE (*wp);
      c[idx] = bad[i] < 4 ? 4 : bad[i] > 1019 ? 1019 : bad[i];
    }
  }
  g_rand_free (r);
}

static void
picture_clear (Picture * p)
{
  g_free (p->comps);
  g_free (p->uyvp);
  g_free (p->v210);
}

/* Verify a raster word by word against the standards, independently of
 * the core: TRS, LN, blanking, active samples, CRC via the reference */
/* check's per-assertion bookkeeping is far too slow for millions of words:
 * count mismatches and assert once, naming the first */
#define EXPECT(a, b) do { guint _a = (a), _b = (b); \
    if (G_UNLIKELY (_a != _b)) { \
      if (errors++ == 0) \
        first = g_strdup_printf ("line %u: %s = 0x%x, expected 0x%x", \
            line, #a, _a, _b); } } while (0)

static void
verify_raster (const St2022Format * f, const guint8 * r, const Picture * p)
{
  guint errors = 0;
  gchar *first = NULL;
  guint nw = f->samples_per_line * 2;
  guint act = (f->samples_per_line - f->width) * 2;
  guint line, i;
  guint16 *crcbuf = g_new (guint16, f->width + 6);

  for (line = 1; line <= f->total_lines; line++) {
    gboolean fld = f->interlaced && line >= 564;
    gboolean v = TRUE;
    gint row = -1;
    guint prev = line == 1 ? f->total_lines : line - 1;
    guint ch;

    if (line >= f->active_first[0] && line <= f->active_last[0]) {
      v = FALSE;
      row = f->interlaced ? 2 * (line - f->active_first[0]) :
          line - f->active_first[0];
    } else if (f->interlaced && line >= f->active_first[1]
        && line <= f->active_last[1]) {
      v = FALSE;
      row = 2 * (line - f->active_first[1]) + 1;
    }

    for (ch = 0; ch < 2; ch++) {
      /* EAV */
      EXPECT (raster_word (f, r, line, 0 + ch), 0x3ff);
      EXPECT (raster_word (f, r, line, 2 + ch), 0);
      EXPECT (raster_word (f, r, line, 4 + ch), 0);
      EXPECT (raster_word (f, r, line, 6 + ch),
          st2022_xyz (fld, v, 1));
      /* LN: L[6:0] with !b8, L[10:7] */
      EXPECT (raster_word (f, r, line, 8 + ch),
          ((line & 0x40) ? 0 : 0x200) | (line & 0x7f) << 2);
      EXPECT (raster_word (f, r, line, 10 + ch),
          0x200 | ((line >> 7) & 0xf) << 2);
      /* SAV */
      EXPECT (raster_word (f, r, line, act - 8 + ch), 0x3ff);
      EXPECT (raster_word (f, r, line, act - 6 + ch), 0);
      EXPECT (raster_word (f, r, line, act - 4 + ch), 0);
      EXPECT (raster_word (f, r, line, act - 2 + ch),
          st2022_xyz (fld, v, 0));

      /* CRC over the previous line's active words + this EAV and LN */
      for (i = 0; i < f->width; i++)
        crcbuf[i] = raster_word (f, r, prev, act + 2 * i + ch);
      for (i = 0; i < 6; i++)
        crcbuf[f->width + i] = raster_word (f, r, line, 2 * i + ch);
      {
        guint32 c = reference_crc (crcbuf, f->width + 6);
        EXPECT (raster_word (f, r, line, 12 + ch),
            ((c & 0x100) ? 0 : 0x200) | (c & 0x1ff));
        EXPECT (raster_word (f, r, line, 14 + ch),
            ((c & 0x20000) ? 0 : 0x200) | ((c >> 9) & 0x1ff));
      }
    }
    /* horizontal blanking */
    for (i = 16; i < act - 8; i += 2) {
      EXPECT (raster_word (f, r, line, i), 0x200);
      EXPECT (raster_word (f, r, line, i + 1), 0x040);
    }
    /* active */
    if (row < 0) {
      for (i = act; i < nw; i += 2) {
        EXPECT (raster_word (f, r, line, i), 0x200);
        EXPECT (raster_word (f, r, line, i + 1), 0x040);
      }
    } else if (p) {
      const guint16 *c = p->comps + (gsize) row * f->width * 2;
      for (i = 0; i < f->width * 2; i++)
        EXPECT (raster_word (f, r, line, act + i), c[i]);
    }
  }
  g_free (crcbuf);
  fail_unless (errors == 0, "%u wrong words, first: %s", errors, first);
  g_free (first);
}

/* --- tests --------------------------------------------------------------- */

GST_START_TEST (test_writer_words_1080i)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  St2022RasterWriter *w = st2022_raster_writer_new (f);
  guint8 *r = g_malloc (f->frame_bytes);
  Picture p;
  guint act = (f->samples_per_line - f->width) * 2;

  picture_make (&p, f, 1, TRUE);
  fail_unless_equals_int (st2022_raster_writer_write (w, r, f->frame_bytes,
          ST2022_PIXEL_UYVP, p.uyvp, p.uyvp_stride), ST2022_OK);

  /* the known XYZ words at the known places */
  fail_unless_equals_int (raster_word (f, r, 1, 6), 0x2D8);
  fail_unless_equals_int (raster_word (f, r, 1, act - 1), 0x2AC);
  fail_unless_equals_int (raster_word (f, r, 21, 6), 0x274);
  fail_unless_equals_int (raster_word (f, r, 21, act - 1), 0x200);
  fail_unless_equals_int (raster_word (f, r, 561, 7), 0x2D8);
  fail_unless_equals_int (raster_word (f, r, 564, 6), 0x3C4);
  fail_unless_equals_int (raster_word (f, r, 564, act - 2), 0x3B0);
  fail_unless_equals_int (raster_word (f, r, 584, 6), 0x368);
  fail_unless_equals_int (raster_word (f, r, 584, act - 2), 0x31C);
  fail_unless_equals_int (raster_word (f, r, 1125, 8), 0x194);
  fail_unless_equals_int (raster_word (f, r, 1125, 10), 0x220);
  /* row 0 → line 21, row 1 → line 584: woven; row 1 holds clipped values */
  fail_unless (memcmp (r + 20 * 5500 + 700, p.uyvp, 4800) == 0);
  fail_unless_equals_int (raster_word (f, r, 584, act + 100), 4);
  fail_unless_equals_int (raster_word (f, r, 584, act + 101), 4);
  fail_unless_equals_int (raster_word (f, r, 584, act + 102), 1019);
  fail_unless_equals_int (raster_word (f, r, 584, act + 103), 1019);
  fail_unless_equals_int (raster_word (f, r, 584, act + 104), 4);
  fail_unless_equals_int (raster_word (f, r, 584, act + 105), 1019);

  verify_raster (f, r, &p);

  picture_clear (&p);
  g_free (r);
  st2022_raster_writer_free (w);
}

GST_END_TEST;

/* every format, both input pixel formats: identical rasters that match the
 * standards; the reader gives the pictures back */
GST_START_TEST (test_writer_reader_all_formats)
{
  guint i;

  for (i = 0; i < st2022_format_count (); i++) {
    const St2022Format *f = st2022_format_get (i);
    St2022RasterWriter *w = st2022_raster_writer_new (f);
    guint8 *r1 = g_malloc (f->frame_bytes);
    guint8 *r2 = g_malloc (f->frame_bytes);
    Picture p;
    guint8 *back;
    guint row;
    St2022RasterCheck chk = { 0 };

    picture_make (&p, f, 100 + i, i % 3 == 0);
    fail_unless_equals_int (st2022_raster_writer_write (w, r1,
            f->frame_bytes, ST2022_PIXEL_UYVP, p.uyvp, p.uyvp_stride),
        ST2022_OK);
    fail_unless_equals_int (st2022_raster_writer_write (w, r2,
            f->frame_bytes, ST2022_PIXEL_V210, p.v210, p.v210_stride),
        ST2022_OK);
    fail_unless (memcmp (r1, r2, f->frame_bytes) == 0, "%s", f->name);
    if (i == 0 || i == 3 || i == 11)
      verify_raster (f, r1, &p);

    fail_unless_equals_int (st2022_raster_check (f, r1, f->frame_bytes, NULL,
            &chk), ST2022_OK);
    fail_unless_equals_int (chk.lines_checked, f->total_lines);
    fail_unless_equals_int (chk.trs_errors, 0);
    fail_unless_equals_int (chk.ln_errors, 0);
    fail_unless_equals_int (chk.crc_errors, 0);

    /* UYVP back: byte copy of the (clipped) active lines */
    back = g_malloc0 (p.uyvp_stride * f->height);
    fail_unless_equals_int (st2022_raster_read (f, r1, f->frame_bytes,
            ST2022_PIXEL_UYVP, back, p.uyvp_stride), ST2022_OK);
    {
      guint bad = 0;
      for (row = 0; row < f->height; row++) {
        guint k;
        for (k = 0; k < f->width * 2; k++)
          bad += get_word (back + row * p.uyvp_stride, k) !=
              p.comps[(gsize) row * f->width * 2 + k];
      }
      fail_unless_equals_int (bad, 0);
    }
    g_free (back);

    /* v210 back: bit exact incl. zeroed padding (input had no illegal
     * values, or its clipped copy is compared) */
    back = g_malloc (p.v210_stride * f->height);
    memset (back, 0xee, p.v210_stride * f->height);
    fail_unless_equals_int (st2022_raster_read (f, r1, f->frame_bytes,
            ST2022_PIXEL_V210, back, p.v210_stride), ST2022_OK);
    if (i % 3 != 0)
      fail_unless (memcmp (back, p.v210, p.v210_stride * f->height) == 0,
          "%s", f->name);
    g_free (back);

    picture_clear (&p);
    g_free (r1);
    g_free (r2);
    st2022_raster_writer_free (w);
  }
}

GST_END_TEST;

/* the CRC history crosses frames: line 1 of every frame covers the
 * previous frame's last line; frames differ only in their active video */
GST_START_TEST (test_writer_consecutive_frames)
{
  const St2022Format *f = st2022_format_from_name ("1080p25");
  St2022RasterWriter *w = st2022_raster_writer_new (f);
  guint8 *r1 = g_malloc (f->frame_bytes);
  guint8 *r2 = g_malloc (f->frame_bytes);
  Picture a, b;
  St2022RasterCheck chk = { 0 };

  picture_make (&a, f, 7, FALSE);
  picture_make (&b, f, 8, FALSE);
  st2022_raster_writer_write (w, r1, f->frame_bytes, ST2022_PIXEL_UYVP,
      a.uyvp, a.uyvp_stride);
  st2022_raster_writer_write (w, r2, f->frame_bytes, ST2022_PIXEL_UYVP,
      b.uyvp, b.uyvp_stride);
  /* first 41 lines are blanking and follow a blanking line: identical */
  fail_unless (memcmp (r1, r2, 41 * f->line_bytes) == 0);
  /* line 42 (first active) differs; line 43's CRC differs */
  fail_if (memcmp (r1 + 41 * f->line_bytes, r2 + 41 * f->line_bytes,
          f->line_bytes) == 0);
  st2022_raster_check (f, r2, f->frame_bytes, r1, &chk);
  fail_unless_equals_int (chk.crc_errors + chk.trs_errors + chk.ln_errors, 0);
  verify_raster (f, r2, &b);

  picture_clear (&a);
  picture_clear (&b);
  g_free (r1);
  g_free (r2);
  st2022_raster_writer_free (w);
}

GST_END_TEST;

/* a row with a reserved value goes straight to the clip path in the next
 * frame; when it no longer holds one, and when it holds one again, the
 * output stays the standard's */
GST_START_TEST (test_writer_reserved_rows_across_frames)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  St2022RasterWriter *w = st2022_raster_writer_new (f);
  guint8 *r = g_malloc (f->frame_bytes);
  Picture bad, good;
  guint i;

  picture_make (&bad, f, 7, TRUE);
  picture_make (&good, f, 8, FALSE);
  /* bad twice (the second through the clip path directly), good (through
   * it once more, which finds nothing), bad again, good */
  for (i = 0; i < 5; i++) {
    Picture *p = i == 2 || i == 4 ? &good : &bad;

    st2022_raster_writer_write (w, r, f->frame_bytes, ST2022_PIXEL_UYVP,
        p->uyvp, p->uyvp_stride);
    verify_raster (f, r, p);
  }
  picture_clear (&bad);
  picture_clear (&good);
  g_free (r);
  st2022_raster_writer_free (w);
}

GST_END_TEST;

GST_START_TEST (test_checker_counts)
{
  const St2022Format *f = st2022_format_from_name ("720p60");
  St2022RasterWriter *w = st2022_raster_writer_new (f);
  guint8 *r = g_malloc (f->frame_bytes);
  Picture p;
  St2022RasterCheck chk = { 0 };
  guint act = (f->samples_per_line - f->width) * 2;
  guint8 *lp;

  picture_make (&p, f, 3, FALSE);
  st2022_raster_writer_write (w, r, f->frame_bytes, ST2022_PIXEL_UYVP,
      p.uyvp, p.uyvp_stride);

  /* 1: SAV XYZ (Y) of line 10: TRS only (SAV is not under the CRC) */
  lp = r + 9 * f->line_bytes;
  set_word (lp, act - 1, 0x200);
  /* 2: EAV 0x000 word (C) of line 30: TRS + CRC(C) of line 30 */
  lp = r + 29 * f->line_bytes;
  set_word (lp, 2, 0x001);
  /* 3: LN1 (Y) of line 200: LN + CRC(Y) of line 200 */
  lp = r + 199 * f->line_bytes;
  set_word (lp, 11, 0x208);
  /* 4: an active C word of line 300: CRC(C) of line 301 */
  lp = r + 299 * f->line_bytes;
  set_word (lp, act + 10, get_word (lp, act + 10) ^ 1);
  /* 5: the Y CRC word CR1 of line 400: CRC(Y) of line 400 */
  lp = r + 399 * f->line_bytes;
  set_word (lp, 15, get_word (lp, 15) ^ 0x10);
  /* 6: an active Y word of the last line: CRC(Y) of line 1 (history taken
   * from this raster's own last line since prev_raster is NULL) */
  lp = r + 749 * f->line_bytes;
  set_word (lp, act + 1, 0x123);

  st2022_raster_check (f, r, f->frame_bytes, NULL, &chk);
  fail_unless_equals_int (chk.lines_checked, 750);
  fail_unless_equals_int (chk.trs_errors, 2);
  fail_unless_equals_int (chk.ln_errors, 1);
  fail_unless_equals_int (chk.crc_errors, 5);

  /* counters accumulate */
  st2022_raster_check (f, r, f->frame_bytes, NULL, &chk);
  fail_unless_equals_int (chk.lines_checked, 1500);
  fail_unless_equals_int (chk.crc_errors, 10);

  /* N corrupted active words in N different lines/channels: exactly N
   * CRC errors and nothing else */
  {
    guint n, k;
    St2022RasterCheck c2 = { 0 };

    st2022_raster_writer_write (w, r, f->frame_bytes, ST2022_PIXEL_UYVP,
        p.uyvp, p.uyvp_stride);
    st2022_raster_check (f, r, f->frame_bytes, NULL, &c2);
    fail_unless_equals_int (c2.trs_errors + c2.ln_errors + c2.crc_errors, 0);
    for (n = 1; n <= 17; n += 8) {
      st2022_raster_writer_write (w, r, f->frame_bytes, ST2022_PIXEL_UYVP,
          p.uyvp, p.uyvp_stride);
      for (k = 0; k < n; k++) {
        /* line 100+k, channel k%2, word 37+k of the active part */
        lp = r + (99 + k) * f->line_bytes;
        set_word (lp, act + 2 * (37 + k) + (k % 2),
            get_word (lp, act + 2 * (37 + k) + (k % 2)) ^ 0x20);
      }
      memset (&c2, 0, sizeof (c2));
      st2022_raster_check (f, r, f->frame_bytes, NULL, &c2);
      fail_unless_equals_int (c2.crc_errors, n);
      fail_unless_equals_int (c2.trs_errors + c2.ln_errors, 0);
    }
  }

  fail_unless_equals_int (st2022_raster_check (f, r, f->frame_bytes - 1,
          NULL, &chk), ST2022_ERROR_BUFFER_TOO_SMALL);
  fail_unless_equals_int (st2022_raster_check (NULL, r, f->frame_bytes,
          NULL, &chk), ST2022_ERROR_INVALID_ARGUMENT);

  picture_clear (&p);
  g_free (r);
  st2022_raster_writer_free (w);
}

GST_END_TEST;

/* bit-serial helpers, independent of the core's word packing */
static guint
get_bits10 (const guint8 * buf, guint64 bit)
{
  guint v = 0, k;

  for (k = 0; k < 10; k++, bit++)
    v = v << 1 | ((buf[bit / 8] >> (7 - bit % 8)) & 1);
  return v;
}

static void
put_bits10 (guint8 * buf, guint64 bit, guint v)
{
  guint k;

  for (k = 0; k < 10; k++, bit++) {
    guint8 m = (guint8) (0x80 >> (bit % 8));
    if ((v >> (9 - k)) & 1)
      buf[bit / 8] |= m;
    else
      buf[bit / 8] &= ~m;
  }
}

/* 720p23.98/24: the wire layout is the standard's 8250 words a line back
 * to back (built here word by word from the memory layout, whose extra
 * pair before SAV must be blank), and from_wire() gives the memory layout
 * back; the spans of every datagram are the picture bytes any of whose
 * bits it carries; concealment replaces exactly those bytes */
GST_START_TEST (test_half_byte_lines)
{
  const char *names[] = { "720p24", "720p23.98" };
  guint fi;

  for (fi = 0; fi < G_N_ELEMENTS (names); fi++) {
    const St2022Format *f = st2022_format_from_name (names[fi]);
    St2022RasterWriter *w = st2022_raster_writer_new (f);
    gsize us = f->active_bytes, i, lo, hi;
    guint8 *pic = g_malloc (us * f->height);
    guint8 *mem = g_malloc (f->frame_bytes), *wire, *want;
    guint8 *black = g_malloc (f->frame_bytes), *prev;
    guint nw = f->samples_per_line * 2, pad = f->line_words - f->width * 2 -
        10, line, j, d;
    GRand *rand = g_rand_new_with_seed (fi + 7);
    St2022RasterCheck chk = { 0 };
    guint32 *map = g_new0 (guint32, (f->datagrams_per_frame + 31) / 32);

    fail_unless (f != NULL && f->half_byte_lines);
    for (i = 0; i < us * f->height; i++)
      pic[i] = (guint8) g_rand_int (rand);
    fail_unless_equals_int (st2022_raster_writer_write (w, mem,
            f->frame_bytes, ST2022_PIXEL_UYVP, pic, us), ST2022_OK);
    st2022_raster_check (f, mem, f->frame_bytes, NULL, &chk);
    fail_unless_equals_int (chk.trs_errors + chk.ln_errors + chk.crc_errors,
        0);
    want = g_malloc0 (f->wire_bytes);
    for (line = 0; line < f->total_lines; line++) {
      guint64 mb = (guint64) line * f->line_bytes * 8;
      fail_unless_equals_int (get_bits10 (mem, mb + pad * 10), 0x200);
      fail_unless_equals_int (get_bits10 (mem, mb + (pad + 1) * 10), 0x040);
      for (j = 0; j < nw; j++)
        put_bits10 (want, (guint64) line * nw * 10 + j * 10,
            get_bits10 (mem, mb + (j < pad ? j : j + 2) * 10));
    }
    wire = g_memdup2 (mem, f->frame_bytes);
    st2022_raster_to_wire (f, wire);
    fail_unless (memcmp (wire, want, f->wire_bytes) == 0, "%s", f->name);
    st2022_raster_from_wire (f, wire);
    fail_unless (memcmp (wire, mem, f->frame_bytes) == 0, "%s", f->name);
    /* a memory byte's wire place */
    fail_unless_equals_uint64 (st2022_raster_wire_offset (f, 0), 0);
    fail_unless_equals_uint64 (st2022_raster_wire_offset (f,
            f->line_bytes + f->active_offset), (f->samples_per_line * 20 +
            (f->samples_per_line - f->width) * 20) / 8);

    /* spans against the bits: picture byte b of row r is wire bits
     * [line start + (samples - width) * 20 + 8b, + 8) */
    for (d = 0; d < f->datagrams_per_frame; d++) {
      St2022Span sp[2];
      int n = st2022_datagram_spans (f, d, sp), k;
      guint64 d0 = (guint64) d * 1376 * 8, d1 = d0 + 1376 * 8;
      guint first_row = G_MAXUINT, count = 0;

      fail_unless (n >= 0);
      for (k = 0; k < n; k++) {
        guint64 a0 = (guint64) (st2022_format_row_to_line (f,
                sp[k].row) - 1) * nw * 10 + (guint64) (nw - f->width * 2) *
            10;
        /* the first and last bytes touch the datagram, the ones just
         * outside do not */
        fail_unless (a0 + 8 * (sp[k].offset + 1) > d0);
        fail_unless (a0 + 8 * (guint64) sp[k].offset < d1);
        fail_unless (sp[k].offset == 0 || a0 + 8 * (guint64) sp[k].offset <=
            d0);
        fail_unless (sp[k].offset + sp[k].length == us ||
            a0 + 8 * (guint64) (sp[k].offset + sp[k].length) >= d1);
        if (first_row == G_MAXUINT)
          first_row = sp[k].row;
        count += sp[k].length;
      }
      (void) count;
    }

    /* conceal datagram 3000 (inside row 373's line, an even line: its
     * picture starts half way through a byte) with black */
    memset (map, 0, (f->datagrams_per_frame + 31) / 32 * 4);
    map[3000 / 32] |= 1u << (3000 % 32);
    memcpy (black, mem, f->frame_bytes);
    fail_unless_equals_int (st2022_conceal_raster (f, map, black, NULL),
        ST2022_OK);
    prev = g_malloc0 (f->frame_bytes);
    fail_unless_equals_int (st2022_conceal_raster (f, map, mem, prev),
        ST2022_OK);
    /* a memory byte lies at most 2.5 bytes a line after its wire byte:
     * outside this window nothing changed */
    lo = (gsize) 3000 * 1376 - 8;
    hi = (gsize) 3001 * 1376 + f->total_lines * 3;
    fail_unless (memcmp (mem, black, lo) == 0);
    fail_unless (memcmp (mem + hi, black + hi, f->frame_bytes - hi) == 0);
    for (i = lo; i < hi; i++) {
      /* the wire bits of memory byte i */
      gsize line_i = i / f->line_bytes, nib = (i % f->line_bytes) * 2;
      guint64 wb;
      gboolean in;

      if (nib >= (gsize) pad * 5 / 2 + 5)
        nib -= 5;
      else if (nib >= (gsize) pad * 5 / 2)
        continue;               /* the pad: either way blank */
      wb = (guint64) line_i * nw * 10 + nib * 4;
      in = (wb / 11008 == 3000) || ((wb + 7) / 11008 == 3000);
      if (in) {
        fail_unless (mem[i] == 0, "byte %" G_GSIZE_FORMAT, i);
      } else {
        fail_unless (mem[i] == black[i], "byte %" G_GSIZE_FORMAT, i);
      }
    }

    g_free (map);
    g_free (prev);
    g_free (black);
    g_free (want);
    g_free (wire);
    g_free (mem);
    g_free (pic);
    g_rand_free (rand);
    st2022_raster_writer_free (w);
  }
}

GST_END_TEST;

GST_START_TEST (test_bad_arguments)
{
  const St2022Format *f = st2022_format_from_name ("720p50");
  St2022RasterWriter *w = st2022_raster_writer_new (f);
  guint8 *r = g_malloc (f->frame_bytes);
  guint8 *pic = g_malloc0 (5120 * 720);

  fail_unless (st2022_raster_writer_new (NULL) == NULL);
  fail_unless (st2022_raster_writer_get_format (w) == f);
  fail_unless_equals_int (st2022_raster_writer_write (w, r, f->frame_bytes -
          1, ST2022_PIXEL_UYVP, pic, 3200), ST2022_ERROR_BUFFER_TOO_SMALL);
  fail_unless_equals_int (st2022_raster_writer_write (w, r, f->frame_bytes,
          ST2022_PIXEL_UYVP, pic, 3199), ST2022_ERROR_INVALID_ARGUMENT);
  /* v210 rows of 1280 pixels need 3456 bytes (27 x 128) */
  fail_unless_equals_int (st2022_picture_min_stride (f, ST2022_PIXEL_V210),
      3456);
  fail_unless_equals_int (st2022_raster_writer_write (w, r, f->frame_bytes,
          ST2022_PIXEL_V210, pic, 3455), ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_raster_writer_write (w, r, f->frame_bytes,
          (St2022PixelFormat) 7, pic, 5120), ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_raster_writer_write (w, NULL, f->frame_bytes,
          ST2022_PIXEL_UYVP, pic, 5120), ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_raster_writer_write (NULL, r, f->frame_bytes,
          ST2022_PIXEL_UYVP, pic, 5120), ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_raster_read (f, r, f->frame_bytes,
          ST2022_PIXEL_UYVP, pic, 10), ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (st2022_raster_read (f, r, 10, ST2022_PIXEL_UYVP,
          pic, 3200), ST2022_ERROR_BUFFER_TOO_SMALL);
  st2022_raster_writer_free (NULL);

  g_free (pic);
  g_free (r);
  st2022_raster_writer_free (w);
}

GST_END_TEST;

static Suite *
st2022_raster_suite (void)
{
  Suite *s = suite_create ("st2022-raster");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_writer_words_1080i);
  tcase_add_test (tc, test_writer_reader_all_formats);
  tcase_add_test (tc, test_writer_consecutive_frames);
  tcase_add_test (tc, test_writer_reserved_rows_across_frames);
  tcase_add_test (tc, test_checker_counts);
  tcase_add_test (tc, test_half_byte_lines);
  tcase_add_test (tc, test_bad_arguments);
  return s;
}

GST_CHECK_MAIN (st2022_raster);
