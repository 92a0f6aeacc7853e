/* gst-vmi: unit tests of the packed-word CRC-18 / legality check and of the
 * raster writer that uses them
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Everything is compared with code written here from the definitions (the
 * bit-serial CRC of st2022-crc-ref.h, a word-by-word raster builder), never
 * with the core's own tables.
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022.h"
#include "st2022-crc.h"
#include "st2022-crc-ref.h"
#include "st2022-words-ref.h"
#include "st2022-private.h"

/* --- independent helpers ------------------------------------------------- */

/* packs @n words into a buffer of exactly n * 10 / 8 bytes, so that a read
 * past the end is caught by valgrind/ASan (set_word needs one spare byte,
 * hence the copy) */
static guint8 *
pack_exact (const guint16 * w, guint n)
{
  gsize bytes = (gsize) n * 10 / 8;
  guint8 *tmp = g_malloc0 (bytes + 2), *out;
  guint i;

  for (i = 0; i < n; i++)
    set_word (tmp, i, w[i]);
  out = g_malloc (bytes ? bytes : 1);
  memcpy (out, tmp, bytes);
  g_free (tmp);
  return out;
}

/* reference CRC of every other word starting at @first */
static guint32
channel_crc (const guint16 * w, guint n, guint first)
{
  guint16 *ch = g_new (guint16, n / 2 + 1);
  guint i, k = 0;
  guint32 crc;

  for (i = first; i < n; i += 2)
    ch[k++] = w[i];
  crc = reference_crc (ch, k);
  g_free (ch);
  return crc;
}

static gboolean
words_legal (const guint16 * w, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    if (w[i] < ST2022_SAMPLE_MIN || w[i] > ST2022_SAMPLE_MAX)
      return FALSE;
  return TRUE;
}

static guint
random_reserved (GRand * r)
{
  static const guint16 bad[8] = { 0, 1, 2, 3, 1020, 1021, 1022, 1023 };
  return bad[g_rand_int_range (r, 0, 8)];
}

/* n words: all random, all legal, or legal with a few reserved ones */
static void
random_words (GRand * r, guint16 * w, guint n, guint kind)
{
  guint i;

  for (i = 0; i < n; i++)
    w[i] = kind == 0 ? g_rand_int_range (r, 0, 1024) :
        g_rand_int_range (r, ST2022_SAMPLE_MIN, ST2022_SAMPLE_MAX + 1);
  if (kind == 2 && n > 0) {
    guint k, nbad = g_rand_int_range (r, 1, 4);
    for (k = 0; k < nbad; k++)
      w[g_rand_int_range (r, 0, n)] = random_reserved (r);
  }
}

/* --- the packed CRC and check ---------------------------------------------- */

/* every implementation of the one-pass CRC + check this CPU has gives the
 * reference's CRCs and legality (the vector ones are skipped, and say so,
 * where the CPU lacks them; the dispatched one always runs) */
static guint impls_run[4];

static void
check_crc_legal_impls (const guint8 * p, gsize bytes, guint32 rc, guint32 ry,
    gboolean legal)
{
  guint impl;
  guint32 c, y;

  /* the copy goes to an exact-size buffer between two guard bytes */
  guint8 *copy = g_malloc (bytes + 2);

  for (impl = 0; impl < 8; impl++) {
    gboolean copying = impl >= 4;
    gint got;

    c = y = 0xdeadbeef;
    memset (copy, 0xa5, bytes + 2);
    got = st2022_crc_legal_packed_impl (impl % 4, copying ? copy + 1 : NULL,
        p, bytes, &c, &y);
    if (got < 0)
      continue;
    impls_run[impl % 4]++;
    if (c != rc || y != ry || got != legal)
      fail ("impl %u%s, %" G_GSIZE_FORMAT " bytes: crc %05x/%05x legal %d, "
          "reference %05x/%05x legal %d", impl % 4, copying ? " copy" : "",
          bytes, c, y, got, rc, ry, legal);
    fail_unless_equals_int (copy[0], 0xa5);
    fail_unless_equals_int (copy[bytes + 1], 0xa5);
    if (copying)
      fail_unless (memcmp (copy + 1, p, bytes) == 0);
  }
  g_free (copy);
  c = y = 0xdeadbeef;
  fail_unless_equals_int (st2022_crc_legal_packed (p, bytes, &c, &y), legal);
  fail_unless_equals_int (c, rc);
  fail_unless_equals_int (y, ry);
  c = y = 0xdeadbeef;
  copy = g_malloc (bytes ? bytes : 1);
  fail_unless_equals_int (st2022_crc_legal_copy_packed (copy, p, bytes, &c,
          &y), legal);
  fail_unless_equals_int (c, rc);
  fail_unless_equals_int (y, ry);
  fail_unless (memcmp (copy, p, bytes) == 0);
  g_free (copy);
}

GST_START_TEST (test_crc_packed_vs_reference)
{
  GRand *r = g_rand_new_with_seed (2022);
  guint16 *w0 = g_new (guint16, 4200), *w1 = g_new (guint16, 4200);
  guint iter, mismatches = 0, checked = 0;

  st2022_crc_packed_init ();
  /* every group count up to 64 (all tails of the 10-byte blocks), then
   * random lengths up to a 2048-pixel line */
  for (iter = 0; iter < 600; iter++) {
    guint groups = iter < 65 ? iter : (guint) g_rand_int_range (r, 65, 1025);
    guint n = groups * 4, kind = iter % 3;
    gsize bytes = (gsize) groups * 5;
    guint8 *p0, *p1;
    guint32 c, y, crc[4];
    guint32 rc0, ry0, rc1, ry1;

    random_words (r, w0, n, kind);
    random_words (r, w1, n, (kind + 1) % 3);
    p0 = pack_exact (w0, n);
    p1 = pack_exact (w1, n);
    rc0 = channel_crc (w0, n, 0);
    ry0 = channel_crc (w0, n, 1);
    rc1 = channel_crc (w1, n, 0);
    ry1 = channel_crc (w1, n, 1);

    st2022_crc_packed (p0, bytes, &c, &y);
    if (c != rc0 || y != ry0) {
      if (mismatches++ == 0)
        GST_ERROR ("groups %u: crc %05x/%05x, reference %05x/%05x", groups,
            c, y, rc0, ry0);
    }
    st2022_crc_packed2 (p0, p1, bytes, crc);
    if (crc[0] != rc0 || crc[1] != ry0 || crc[2] != rc1 || crc[3] != ry1) {
      if (mismatches++ == 0)
        GST_ERROR ("groups %u: crc2 %05x %05x %05x %05x", groups, crc[0],
            crc[1], crc[2], crc[3]);
    }
    check_crc_legal_impls (p0, bytes, rc0, ry0, words_legal (w0, n));
    check_crc_legal_impls (p1, bytes, rc1, ry1, words_legal (w1, n));
    fail_unless_equals_int (st2022_packed_legal (p0, bytes),
        words_legal (w0, n));
    fail_unless_equals_int (st2022_packed_legal_portable (p0, bytes),
        words_legal (w0, n));
    fail_unless_equals_int (st2022_packed_legal (p1, bytes),
        words_legal (w1, n));
    fail_unless_equals_int (st2022_packed_legal_portable (p1, bytes),
        words_legal (w1, n));
    checked++;
    g_free (p0);
    g_free (p1);
  }
  fail_unless_equals_int (checked, 600);
  fail_unless_equals_int (mismatches, 0);
  /* the scalar reference always runs; say which vector code did */
  fail_unless_equals_int (impls_run[0], 2400);
  GST_INFO ("one-pass CRC: dispatched %s; runs scalar %u sse4.1 %u avx2 %u "
      "avx512 %u", st2022_crc_impl_name (), impls_run[0], impls_run[1],
      impls_run[2], impls_run[3]);
  if (impls_run[2] == 0)
    g_printerr ("note: no AVX2+VPCLMULQDQ on this CPU, that code untested\n");
  if (impls_run[3] == 0)
    g_printerr ("note: no AVX-512 VBMI+GFNI+VPCLMULQDQ on this CPU, that "
        "code untested\n");
  g_free (w0);
  g_free (w1);
  g_rand_free (r);
}

GST_END_TEST;

/* every reserved value at every word position of a block (and the legal
 * neighbours 4 and 1019) is found by every implementation */
GST_START_TEST (test_legal_each_position)
{
  guint16 w[24];
  guint pos, v;

  st2022_crc_packed_init ();
  for (pos = 0; pos < 24; pos++) {
    for (v = 0; v < 1024; v++) {
      guint8 *p;
      gboolean want = v >= ST2022_SAMPLE_MIN && v <= ST2022_SAMPLE_MAX;
      guint i;

      for (i = 0; i < 24; i++)
        w[i] = 0x200 + i;
      w[pos] = v;
      p = pack_exact (w, 24);
      if (st2022_packed_legal (p, 30) != want ||
          st2022_packed_legal_portable (p, 30) != want)
        fail ("word %u = %u: legal should be %d", pos, v, want);
      /* and by every one-pass CRC + check */
      check_crc_legal_impls (p, 30, channel_crc (w, 24, 0),
          channel_crc (w, 24, 1), want);
      g_free (p);
    }
  }
}

GST_END_TEST;

/* CRC of one nonzero word at each position equals the reference: exercises
 * every table and the register feedback between blocks */
GST_START_TEST (test_crc_single_bits)
{
  guint16 w[40];
  guint pos, bit;

  st2022_crc_packed_init ();
  for (pos = 0; pos < 40; pos++) {
    for (bit = 0; bit < 10; bit++) {
      guint8 *p;
      guint32 c, y;

      memset (w, 0, sizeof (w));
      w[pos] = 1u << bit;
      p = pack_exact (w, 40);
      st2022_crc_packed (p, 50, &c, &y);
      fail_unless_equals_int (c, channel_crc (w, 40, 0));
      fail_unless_equals_int (y, channel_crc (w, 40, 1));
      check_crc_legal_impls (p, 50, c, y, FALSE);
      g_free (p);
    }
  }
}

GST_END_TEST;

static guint
clip (guint v)
{
  return v < ST2022_SAMPLE_MIN ? ST2022_SAMPLE_MIN :
      v > ST2022_SAMPLE_MAX ? ST2022_SAMPLE_MAX : v;
}

/* A vector clip path's output: @got holds the first @nw words of @w
 * clipped to 4..1019 and packed, @c/@y their channels' CRCs.  Returns
 * whether any of them needed the clip. */
static gboolean
check_clipped_prefix (const guint16 * w, guint nw, const guint8 * got,
    guint32 c, guint32 y)
{
  guint16 *clipped = g_new (guint16, nw + 1);
  guint8 *want;
  gboolean had = FALSE;
  guint i;

  for (i = 0; i < nw; i++) {
    clipped[i] = clip (w[i]);
    had |= clipped[i] != w[i];
  }
  want = pack_exact (clipped, nw);
  fail_unless (memcmp (got, want, (gsize) nw * 10 / 8) == 0,
      "%u words: packed bytes differ", nw);
  fail_unless_equals_int (c, channel_crc (clipped, nw, 0));
  fail_unless_equals_int (y, channel_crc (clipped, nw, 1));
  g_free (want);
  g_free (clipped);
  return had;
}

/* the v210 fast paths (each this CPU has, and the dispatched one): the
 * prefix each did equals the clipped, packed words, its CRCs the
 * reference's over that prefix, and it touches nothing outside the
 * exact-size source and the converted part of the destination */
GST_START_TEST (test_v210_pack_crc)
{
  GRand *r = g_rand_new_with_seed (210);
  guint16 *w = g_new (guint16, 4800);
  guint iter, impl, converted[4] = { 0 };

  st2022_crc_packed_init ();
  for (iter = 0; iter < 300; iter++) {
    guint n = (guint) g_rand_int_range (r, 1, 2400) * 2, i;
    gsize src_bytes = (n + 2) / 3 * 4, out_bytes = (gsize) n * 10 / 8 + 8;
    guint8 *src = g_malloc0 (src_bytes), *dst = g_malloc (out_bytes + 2);

    random_words (r, w, n, iter % 3);
    for (i = 0; i < n; i++) {
      guint8 *wp = src + (i / 3) * 4;
      guint32 x = (guint32) wp[0] | (guint32) wp[1] << 8 |
          (guint32) wp[2] << 16 | (guint32) wp[3] << 24;
      x |= (guint32) w[i] << (10 * (i % 3));
      wp[0] = x;
      wp[1] = x >> 8;
      wp[2] = x >> 16;
      wp[3] = x >> 24;
    }
    /* 0: dispatched, 2: AVX2, 3: AVX-512 */
    for (impl = 0; impl < 4; impl++) {
      guint32 c = 0xdeadbeef, y = 0xdeadbeef;
      gint done;

      if (impl == 1)
        continue;
      memset (dst, 0xa5, out_bytes + 2);
      done = impl == 0 ? (gint) st2022_v210_pack_crc (dst + 1, src,
          src_bytes, n, &c, &y) : st2022_v210_pack_crc_impl (impl, dst + 1,
          src, src_bytes, n, &c, &y);
      if (done < 0)
        continue;
      fail_unless (done % 48 == 0 && (guint) done <= n, "impl %u: done %d "
          "of %u", impl, done, n);
      if (done > 0) {
        check_clipped_prefix (w, done, dst + 1, c, y);
        converted[impl]++;
      }
      fail_unless_equals_int (dst[0], 0xa5);
      for (i = done * 10 / 8 + 1; i < out_bytes + 2; i++)
        fail_unless_equals_int (dst[i], 0xa5);
    }
    g_free (src);
    g_free (dst);
  }
  if (converted[0] == 0)
    g_printerr ("note: no vector v210 path on this CPU, nothing converted\n");
  if (converted[3] == 0)
    g_printerr ("note: no AVX-512 VBMI v210 path on this CPU, untested\n");
  g_free (w);
  g_rand_free (r);
}

GST_END_TEST;

/* the packed clip paths (each this CPU has, and the dispatched one): the
 * prefix each did equals the clipped words packed, its CRCs the
 * reference's over that prefix, and it touches nothing outside the
 * exact-size source and the row's destination */
GST_START_TEST (test_packed_clip_crc)
{
  GRand *r = g_rand_new_with_seed (1019);
  guint16 *w = g_new (guint16, 4096);
  guint iter, impl, converted[4] = { 0 };

  st2022_crc_packed_init ();
  for (iter = 0; iter < 400; iter++) {
    /* every length up to 16 groups, then up to a 2048-pixel line */
    guint n = iter < 64 ? iter * 4 : (guint) g_rand_int_range (r, 1, 1025) * 4;
    gsize bytes = (gsize) n * 10 / 8;
    guint8 *src, *dst = g_malloc (bytes + 2);

    /* mostly reserved values: this is the path for rows that have them */
    random_words (r, w, n, iter % 2 ? 0 : 2);
    src = pack_exact (w, n);
    /* 0: dispatched, 2: AVX2, 3: AVX-512 */
    for (impl = 0; impl < 4; impl++) {
      guint32 c = 0xdeadbeef, y = 0xdeadbeef;
      gboolean clipped;
      gssize done;

      if (impl == 1)
        continue;
      memset (dst, 0xa5, bytes + 2);
      done = impl == 0 ? (gssize) st2022_packed_clip_crc (dst + 1, src, bytes,
          &c, &y, &clipped) : st2022_packed_clip_crc_impl (impl, dst + 1,
          src, bytes, &c, &y, &clipped);
      if (done < 0)
        continue;
      fail_unless (done % 10 == 0 && (gsize) done <= bytes, "impl %u: done %"
          G_GSSIZE_FORMAT " of %" G_GSIZE_FORMAT, impl, done, bytes);
      if (done > 0) {
        fail_unless_equals_int (clipped, check_clipped_prefix (w,
                (guint) (done * 8 / 10), dst + 1, c, y));
        converted[impl]++;
      }
      fail_unless_equals_int (dst[0], 0xa5);
      fail_unless_equals_int (dst[bytes + 1], 0xa5);
    }
    g_free (src);
    g_free (dst);
  }
  if (converted[0] == 0)
    g_printerr ("note: no vector clip path on this CPU, nothing converted\n");
  if (converted[3] == 0)
    g_printerr ("note: no AVX-512 VBMI clip path on this CPU, untested\n");
  g_free (w);
  g_rand_free (r);
}

GST_END_TEST;

/* One active line of @n words through every implementation of the legal
 * path and of the clip path this CPU has, each against the reference: the
 * bit-serial CRC of the words (clipped for the clip path), the legality,
 * the copied or clipped bytes, nothing written outside the row.  Returns
 * how many implementations ran. */
static guint
check_line_all_impls (const guint16 * w, guint n)
{
  gsize bytes = (gsize) n * 10 / 8;
  guint8 *src = pack_exact (w, n), *dst = g_malloc (bytes + 2);
  guint32 rc = channel_crc (w, n, 0), ry = channel_crc (w, n, 1);
  guint impl, ran = 0;

  check_crc_legal_impls (src, bytes, rc, ry, words_legal (w, n));
  for (impl = 2; impl < 4; impl++) {
    guint32 c = 0xdeadbeef, y = 0xdeadbeef;
    gboolean clipped;
    gssize done;

    memset (dst, 0xa5, bytes + 2);
    done = st2022_packed_clip_crc_impl (impl, dst + 1, src, bytes, &c, &y,
        &clipped);
    if (done < 0)
      continue;
    ran++;
    fail_unless (done > 0 && done % 10 == 0 && (gsize) done <= bytes);
    fail_unless_equals_int (clipped, check_clipped_prefix (w,
            (guint) (done * 8 / 10), dst + 1, c, y));
    fail_unless_equals_int (dst[0], 0xa5);
    fail_unless_equals_int (dst[bytes + 1], 0xa5);
  }
  g_free (src);
  g_free (dst);
  return ran;
}

/* Random lines of every format's active length (each implementation
 * against the scalar reference): legal lines, lines with one span of
 * reserved chroma as smpte bars converted from 8 bits have (the clip
 * path's steps with and without a reserved word side by side), and a
 * short line with one reserved word at each position of a vector step. */
GST_START_TEST (test_every_format_lines)
{
  GRand *r = g_rand_new_with_seed (2022);
  guint fi, i, rep, clip_runs = 0;

  st2022_crc_packed_init ();
  for (fi = 0; fi < st2022_format_count (); fi++) {
    const St2022Format *f = st2022_format_get (fi);
    guint n = f->width * 2;
    guint16 *w = g_new (guint16, n);

    for (rep = 0; rep < 4; rep++) {
      guint start = g_rand_int_range (r, 0, n), len = g_rand_int_range (r, 1,
          n - start + 1);

      random_words (r, w, n, 1);
      clip_runs += check_line_all_impls (w, n);
      /* a span of reserved chroma (every other word) */
      for (i = start | 1; i < start + len; i += 2)
        w[i] = rep % 2 ? 0 : 1023;
      clip_runs += check_line_all_impls (w, n);
    }
    g_free (w);
  }
  {
    /* 3 steps of 32 words and a masked rest: each position, both kinds */
    guint16 w[100];

    for (i = 0; i < 2 * G_N_ELEMENTS (w); i++) {
      random_words (r, w, G_N_ELEMENTS (w), 1);
      w[i / 2] = i % 2 ? random_reserved (r) % 4 : 1020 +
          random_reserved (r) % 4;
      clip_runs += check_line_all_impls (w, G_N_ELEMENTS (w));
    }
  }
  if (clip_runs == 0)
    g_printerr ("note: no vector clip path on this CPU, only the legal "
        "paths were compared\n");
  g_rand_free (r);
}

GST_END_TEST;

/* packed → v210 blocks: the vector code equals the portable code and
 * reads nothing past an exact-size source */
GST_START_TEST (test_v210_from_packed_blocks)
{
  GRand *r = g_rand_new_with_seed (16);
  guint iter;

  for (iter = 0; iter < 200; iter++) {
    guint nb = iter < 8 ? iter : (guint) g_rand_int_range (r, 8, 330), i;
    guint8 *src = g_malloc (nb * 15 + (nb == 0)), *a = g_malloc (nb * 16 + 1);
    guint8 *b = g_malloc (nb * 16 + 1);

    for (i = 0; i < nb * 15; i++)
      src[i] = (guint8) g_rand_int (r);
    memset (a, 0x11, nb * 16 + 1);
    memset (b, 0x22, nb * 16 + 1);
    st2022_v210_from_packed_blocks (a, src, nb, TRUE);
    st2022_v210_from_packed_blocks (b, src, nb, FALSE);
    fail_unless (memcmp (a, b, nb * 16) == 0, "%u blocks differ", nb);
    fail_unless_equals_int (a[nb * 16], 0x11);
    fail_unless_equals_int (b[nb * 16], 0x22);
    g_free (src);
    g_free (a);
    g_free (b);
  }
  g_rand_free (r);
}

GST_END_TEST;

/* --- the writer against a raster built word by word -------------------- */

/* The expected raster of a picture given as height x 2*width components
 * (unclipped), written from the line layout of docs/st2022-6.md. */
static guint8 *
expected_raster (const St2022Format * f, const guint16 * comps)
{
  guint nw = f->samples_per_line * 2, n = f->width * 2;
  guint act = (f->samples_per_line - f->width) * 2, sav = act - 8;
  guint8 *out = g_malloc0 (f->frame_bytes + 2);
  guint16 *w = g_new (guint16, nw), *prev = g_new (guint16, nw);
  guint16 *ch = g_new (guint16, f->width + 6);
  guint line, i, c;

  /* line 1 follows a blanking line (the last line of every format) */
  for (i = 0; i < nw; i += 2) {
    prev[i] = ST2022_BLANK_C;
    prev[i + 1] = ST2022_BLANK_Y;
  }
  for (line = 1; line <= f->total_lines; line++) {
    guint flags = st2022_format_line_flags (f, line);
    guint fl = (flags & ST2022_LINE_F) != 0, v = (flags & ST2022_LINE_V) != 0;
    gint row = st2022_format_line_to_row (f, line);
    guint16 ln0, ln1;
    guint8 *lp = out + (gsize) (line - 1) * f->line_bytes;

    for (i = 0; i < nw; i += 2) {
      w[i] = ST2022_BLANK_C;
      w[i + 1] = ST2022_BLANK_Y;
    }
    for (i = 0; i < 8; i++) {
      guint16 t = i < 2 ? 0x3ff : 0;
      w[i] = i < 6 ? t : st2022_xyz (fl, v, 1);
      w[sav + i] = i < 6 ? t : st2022_xyz (fl, v, 0);
    }
    st2022_ln_words (line, &ln0, &ln1);
    w[8] = w[9] = ln0;
    w[10] = w[11] = ln1;
    if (row >= 0) {
      for (i = 0; i < n; i++)
        w[act + i] = clip (comps[(gsize) row * n + i]);
    }
    for (c = 0; c < 2; c++) {
      guint k = 0;
      guint32 crc;

      for (i = act + c; i < nw; i += 2)
        ch[k++] = prev[i];
      for (i = c; i < 12; i += 2)
        ch[k++] = w[i];
      crc = reference_crc (ch, k);
      w[12 + c] = (((crc >> 8) & 1) ^ 1) << 9 | (crc & 0x1ff);
      w[14 + c] = (((crc >> 17) & 1) ^ 1) << 9 | ((crc >> 9) & 0x1ff);
    }
    for (i = 0; i < nw; i++)
      set_word (lp, i, w[i]);
    memcpy (prev, w, nw * sizeof (guint16));
  }
  g_free (w);
  g_free (prev);
  g_free (ch);
  return out;
}

/* Random components; rows chosen so that, of two consecutive active lines
 * (which the writer takes together), neither, the first, the second or
 * both hold reserved values, at random places including a row's first and
 * last word. */
static guint16 *
random_picture (const St2022Format * f, GRand * r)
{
  guint n = f->width * 2, row, i;
  guint16 *comps = g_new (guint16, (gsize) f->height * n);

  for (row = 0; row < f->height; row++) {
    guint16 *c = comps + (gsize) row * n;
    guint pattern = g_rand_int_range (r, 0, 4);

    for (i = 0; i < n; i++)
      c[i] = g_rand_int_range (r, ST2022_SAMPLE_MIN, ST2022_SAMPLE_MAX + 1);
    if (pattern == 1)
      c[g_rand_int_range (r, 0, n)] = random_reserved (r);
    else if (pattern == 2) {
      c[0] = random_reserved (r);
      c[n - 1] = random_reserved (r);
      c[g_rand_int_range (r, 0, n)] = random_reserved (r);
    }
  }
  return comps;
}

static void
picture_to_uyvp (const St2022Format * f, const guint16 * comps, guint8 * u,
    gsize stride)
{
  guint n = f->width * 2, row, i;
  guint8 *tmp = g_malloc0 (f->active_bytes + 2);

  for (row = 0; row < f->height; row++) {
    for (i = 0; i < n; i++)
      set_word (tmp, i, comps[(gsize) row * n + i]);
    memcpy (u + row * stride, tmp, f->active_bytes);
  }
  g_free (tmp);
}

static void
picture_to_v210 (const St2022Format * f, const guint16 * comps, guint8 * v,
    gsize stride)
{
  guint n = f->width * 2, row, i;

  memset (v, 0, stride * f->height);
  for (row = 0; row < f->height; row++) {
    guint8 *line = v + row * stride;
    for (i = 0; i < n; i++) {
      guint8 *wp = line + (i / 3) * 4;
      guint32 x = (guint32) wp[0] | (guint32) wp[1] << 8 |
          (guint32) wp[2] << 16 | (guint32) wp[3] << 24;
      x |= (guint32) comps[(gsize) row * n + i] << (10 * (i % 3));
      wp[0] = x;
      wp[1] = x >> 8;
      wp[2] = x >> 16;
      wp[3] = x >> 24;
    }
  }
}

static void
check_writer_format (const gchar * name, guint32 seed)
{
  const St2022Format *f = st2022_format_from_name (name);
  GRand *r = g_rand_new_with_seed (seed);
  St2022RasterWriter *wu, *wv;
  gsize ustride, vstride;
  guint8 *uyvp, *v210, *raster;
  guint frame;

  fail_unless (f != NULL, "no format %s", name);
  wu = st2022_raster_writer_new (f);
  wv = st2022_raster_writer_new (f);
  fail_unless (wu != NULL && wv != NULL);
  ustride = f->active_bytes + 3;        /* odd stride on purpose */
  vstride = st2022_picture_min_stride (f, ST2022_PIXEL_V210);
  uyvp = g_malloc (ustride * f->height);
  v210 = g_malloc (vstride * f->height);
  raster = g_malloc (f->frame_bytes);

  /* two frames: the second one's line 1 CRC comes from the carried state */
  for (frame = 0; frame < 2; frame++) {
    guint16 *comps = random_picture (f, r);
    guint8 *want = expected_raster (f, comps);

    picture_to_uyvp (f, comps, uyvp, ustride);
    picture_to_v210 (f, comps, v210, vstride);

    memset (raster, 0x5a, f->frame_bytes);
    fail_unless_equals_int (st2022_raster_writer_write (wu, raster,
            f->frame_bytes, ST2022_PIXEL_UYVP, uyvp, ustride), ST2022_OK);
    fail_unless (memcmp (raster, want, f->frame_bytes) == 0,
        "%s frame %u: UYVP raster differs from the reference", name, frame);

    memset (raster, 0xa5, f->frame_bytes);
    fail_unless_equals_int (st2022_raster_writer_write (wv, raster,
            f->frame_bytes, ST2022_PIXEL_V210, v210, vstride), ST2022_OK);
    fail_unless (memcmp (raster, want, f->frame_bytes) == 0,
        "%s frame %u: v210 raster differs from the reference", name, frame);

    g_free (want);
    g_free (comps);
  }
  g_free (uyvp);
  g_free (v210);
  g_free (raster);
  st2022_raster_writer_free (wu);
  st2022_raster_writer_free (wv);
  g_rand_free (r);
}

GST_START_TEST (test_writer_1080i_reserved)
{
  check_writer_format ("1080i59.94", 1);
}

GST_END_TEST;

GST_START_TEST (test_writer_1080p_reserved)
{
  check_writer_format ("1080p25", 2);
}

GST_END_TEST;

GST_START_TEST (test_writer_720p_reserved)
{
  check_writer_format ("720p59.94", 3);
}

GST_END_TEST;

static Suite *
st2022_crc_suite (void)
{
  Suite *s = suite_create ("st2022-crc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_crc_packed_vs_reference);
  tcase_add_test (tc, test_legal_each_position);
  tcase_add_test (tc, test_crc_single_bits);
  tcase_add_test (tc, test_v210_pack_crc);
  tcase_add_test (tc, test_packed_clip_crc);
  tcase_add_test (tc, test_every_format_lines);
  tcase_add_test (tc, test_v210_from_packed_blocks);
  tcase_add_test (tc, test_writer_1080i_reserved);
  tcase_add_test (tc, test_writer_1080p_reserved);
  tcase_add_test (tc, test_writer_720p_reserved);
  return s;
}

GST_CHECK_MAIN (st2022_crc);
