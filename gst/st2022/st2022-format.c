/* gst-vmi: ST 2022-6 format table, SDI word helpers, CRC-18
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include "st2022-private.h"

/* Everything but the identity of a format is derived here, so the table
 * cannot disagree with itself (frame size, datagram count, clock steps). */
/* words per line in memory: whole 4-word (5-byte) groups */
#define LINE_WORDS(spl) (((spl) * 2 + 3) / 4 * 4)
/* SDI bytes of a frame on the wire */
#define WIRE_BYTES(lines, spl) ((gsize) (lines) * (spl) * 5 / 2)
#define FMT(nm, fr, rt, cf, g3, w, h, il, n, d, lines, spl, a1f, a1l, a2f, a2l, f2) \
  { nm, fr, rt, ST2022_SAMPLE_422_10, cf, g3, w, h, il,                     \
    (fr) == ST2022_FRAME_1080PSF || (fr) == ST2022_FRAME_2048_1080PSF,      \
    (fr) == ST2022_FRAME_525I || (fr) == ST2022_FRAME_625I,                 \
    (fr) == ST2022_FRAME_525I,                                              \
    n, d, lines, spl,                                                       \
    { a1f, a2f }, { a1l, a2l }, f2, (fr) == ST2022_FRAME_525I ? 4 : 1,      \
    LINE_WORDS (spl), LINE_WORDS (spl) * 5 / 4,                             \
    (LINE_WORDS (spl) - (w) * 2) * 5 / 4, (w) * 5 / 2,                      \
    (gsize) (lines) * (LINE_WORDS (spl) * 5 / 4),                           \
    (guint) ((WIRE_BYTES (lines, spl) + ST2022_PAYLOAD_SIZE - 1) / ST2022_PAYLOAD_SIZE), \
    (guint) (WIRE_BYTES (lines, spl) - ((WIRE_BYTES (lines, spl) + ST2022_PAYLOAD_SIZE - 1) / ST2022_PAYLOAD_SIZE - 1) * ST2022_PAYLOAD_SIZE), \
    (guint32) (lines) * (spl) * 2,                                          \
    (guint32) (27000000ull * (d) / (n)),                                    \
    WIRE_BYTES (lines, spl), ((spl) & 1) != 0 }

#define I1080(nm, rt, cf, spl, n, d) \
  FMT (nm, ST2022_FRAME_1080I, rt, cf, FALSE, 1920, 1080, TRUE, n, d, 1125, spl, 21, 560, 584, 1123, 564)
#define P1080(nm, rt, cf, g3, spl, n, d) \
  FMT (nm, ST2022_FRAME_1080P, rt, cf, g3, 1920, 1080, FALSE, n, d, 1125, spl, 42, 1121, 0, 0, 0)
#define P720(nm, rt, cf, spl, n, d) \
  FMT (nm, ST2022_FRAME_720P, rt, cf, FALSE, 1280, 720, FALSE, n, d, 750, spl, 26, 745, 0, 0, 0)
/* PsF (ST 274 / ST 2048-2): the interlaced raster, F and lines included,
 * its two segments the picture's even and odd rows */
#define PSF1080(nm, rt, cf, spl, n, d) \
  FMT (nm, ST2022_FRAME_1080PSF, rt, cf, FALSE, 1920, 1080, TRUE, n, d, 1125, spl, 21, 560, 584, 1123, 564)
#define P2048(nm, rt, cf, g3, spl, n, d) \
  FMT (nm, ST2022_FRAME_2048_1080P, rt, cf, g3, 2048, 1080, FALSE, n, d, 1125, spl, 42, 1121, 0, 0, 0)
#define PSF2048(nm, rt, cf, spl, n, d) \
  FMT (nm, ST2022_FRAME_2048_1080PSF, rt, cf, FALSE, 2048, 1080, TRUE, n, d, 1125, spl, 21, 560, 584, 1123, 564)

/* SD (ST 125 / BT.656, serial ST 259, 27 Mwords/s so CF 27 MHz): 525
 * lines of 858 samples, F=1 on 266-525 and 1-3, the 486-line picture on
 * 21-263 (field 1) and 283-525 (field 2), field 2's line 283 the top row;
 * 625 lines of 864 samples, F=1 from 313, the 576-line picture on 23-310
 * and 336-623, field 1 on top */
#define I525 \
  FMT ("525i59.94", ST2022_FRAME_525I, ST2022_FRATE_29_97, ST2022_CF_27MHZ, FALSE, 720, 486, TRUE, 30000, 1001, 525, 858, 21, 263, 283, 525, 266)
#define I625 \
  FMT ("625i50", ST2022_FRAME_625I, ST2022_FRATE_25, ST2022_CF_27MHZ, FALSE, 720, 576, TRUE, 25, 1, 625, 864, 23, 310, 336, 623, 313)

static const St2022Format formats[] = {
  I1080 ("1080i59.94", ST2022_FRATE_29_97, ST2022_CF_148_5_1001MHZ, 2200, 30000, 1001),
  I1080 ("1080i60", ST2022_FRATE_30, ST2022_CF_148_5MHZ, 2200, 30, 1),
  I1080 ("1080i50", ST2022_FRATE_25, ST2022_CF_148_5MHZ, 2640, 25, 1),
  P1080 ("1080p23.98", ST2022_FRATE_23_98, ST2022_CF_148_5_1001MHZ, FALSE, 2750, 24000, 1001),
  P1080 ("1080p24", ST2022_FRATE_24, ST2022_CF_148_5MHZ, FALSE, 2750, 24, 1),
  P1080 ("1080p25", ST2022_FRATE_25, ST2022_CF_148_5MHZ, FALSE, 2640, 25, 1),
  P1080 ("1080p29.97", ST2022_FRATE_29_97, ST2022_CF_148_5_1001MHZ, FALSE, 2200, 30000, 1001),
  P1080 ("1080p30", ST2022_FRATE_30, ST2022_CF_148_5MHZ, FALSE, 2200, 30, 1),
  P1080 ("1080p50", ST2022_FRATE_50, ST2022_CF_297MHZ, TRUE, 2640, 50, 1),
  P1080 ("1080p59.94", ST2022_FRATE_59_94, ST2022_CF_297_1001MHZ, TRUE, 2200, 60000, 1001),
  P1080 ("1080p60", ST2022_FRATE_60, ST2022_CF_297MHZ, TRUE, 2200, 60, 1),
  P720 ("720p50", ST2022_FRATE_50, ST2022_CF_148_5MHZ, 1980, 50, 1),
  P720 ("720p59.94", ST2022_FRATE_59_94, ST2022_CF_148_5_1001MHZ, 1650, 60000, 1001),
  P720 ("720p60", ST2022_FRATE_60, ST2022_CF_148_5MHZ, 1650, 60, 1),
  /* ST 296 film and video rates */
  P720 ("720p25", ST2022_FRATE_25, ST2022_CF_148_5MHZ, 3960, 25, 1),
  P720 ("720p29.97", ST2022_FRATE_29_97, ST2022_CF_148_5_1001MHZ, 3300, 30000, 1001),
  P720 ("720p30", ST2022_FRATE_30, ST2022_CF_148_5MHZ, 3300, 30, 1),
  /* after the interlaced 1080 formats: st2022_format_from_video() finds
   * those first where both exist */
  PSF1080 ("1080PsF23.98", ST2022_FRATE_23_98, ST2022_CF_148_5_1001MHZ, 2750, 24000, 1001),
  PSF1080 ("1080PsF24", ST2022_FRATE_24, ST2022_CF_148_5MHZ, 2750, 24, 1),
  PSF1080 ("1080PsF25", ST2022_FRATE_25, ST2022_CF_148_5MHZ, 2640, 25, 1),
  PSF1080 ("1080PsF29.97", ST2022_FRATE_29_97, ST2022_CF_148_5_1001MHZ, 2200, 30000, 1001),
  PSF1080 ("1080PsF30", ST2022_FRATE_30, ST2022_CF_148_5MHZ, 2200, 30, 1),
  /* ST 2048-2: 2048 active samples in the 1125-line rasters */
  P2048 ("2048p23.98", ST2022_FRATE_23_98, ST2022_CF_148_5_1001MHZ, FALSE, 2750, 24000, 1001),
  P2048 ("2048p24", ST2022_FRATE_24, ST2022_CF_148_5MHZ, FALSE, 2750, 24, 1),
  P2048 ("2048p25", ST2022_FRATE_25, ST2022_CF_148_5MHZ, FALSE, 2640, 25, 1),
  P2048 ("2048p29.97", ST2022_FRATE_29_97, ST2022_CF_148_5_1001MHZ, FALSE, 2200, 30000, 1001),
  P2048 ("2048p30", ST2022_FRATE_30, ST2022_CF_148_5MHZ, FALSE, 2200, 30, 1),
  P2048 ("2048p47.95", ST2022_FRATE_47_95, ST2022_CF_297_1001MHZ, TRUE, 2750, 48000, 1001),
  P2048 ("2048p48", ST2022_FRATE_48, ST2022_CF_297MHZ, TRUE, 2750, 48, 1),
  PSF2048 ("2048PsF23.98", ST2022_FRATE_23_98, ST2022_CF_148_5_1001MHZ, 2750, 24000, 1001),
  PSF2048 ("2048PsF24", ST2022_FRATE_24, ST2022_CF_148_5MHZ, 2750, 24, 1),
  PSF2048 ("2048PsF25", ST2022_FRATE_25, ST2022_CF_148_5MHZ, 2640, 25, 1),
  PSF2048 ("2048PsF29.97", ST2022_FRATE_29_97, ST2022_CF_148_5_1001MHZ, 2200, 30000, 1001),
  PSF2048 ("2048PsF30", ST2022_FRATE_30, ST2022_CF_148_5MHZ, 2200, 30, 1),
  I525,
  I625,
  /* ST 296's 4125 samples: lines of 10,312.5 bytes (half_byte_lines);
   * last, so the indices above (fuzz seeds) stay */
  P720 ("720p23.98", ST2022_FRATE_23_98, ST2022_CF_148_5_1001MHZ, 4125, 24000, 1001),
  P720 ("720p24", ST2022_FRATE_24, ST2022_CF_148_5MHZ, 4125, 24, 1),
};

const char *
st2022_result_to_string (int result)
{
  switch (result) {
    case ST2022_OK:
      return "ok";
    case ST2022_ERROR_INVALID_ARGUMENT:
      return "invalid argument";
    case ST2022_ERROR_SHORT:
      return "datagram too short";
    case ST2022_ERROR_RTP_VERSION:
      return "RTP version is not 2";
    case ST2022_ERROR_RTP_PADDING:
      return "RTP padding present";
    case ST2022_ERROR_RTP_EXTENSION:
      return "RTP extension present";
    case ST2022_ERROR_RTP_CSRC:
      return "RTP CSRC present";
    case ST2022_ERROR_HBRMT_EXTENSION:
      return "HBRMT extension present";
    case ST2022_ERROR_HBRMT_NO_FORMAT:
      return "HBRMT format fields not valid (F=0)";
    case ST2022_ERROR_BAD_FRAME:
      return "unknown HBRMT FRAME code";
    case ST2022_ERROR_BAD_FRATE:
      return "unknown HBRMT FRATE code";
    case ST2022_ERROR_BAD_SAMPLE:
      return "unknown HBRMT SAMPLE code";
    case ST2022_ERROR_BAD_CF:
      return "unknown HBRMT CF code";
    case ST2022_ERROR_UNSUPPORTED_MAP:
      return "unsupported HBRMT MAP (only direct mapping)";
    case ST2022_ERROR_UNSUPPORTED_FORMAT:
      return "unsupported video format";
    case ST2022_ERROR_LENGTH:
      return "wrong payload length";
    case ST2022_ERROR_BUFFER_TOO_SMALL:
      return "buffer too small";
    case ST2022_ERROR_NO_MEMORY:
      return "out of memory";
    case ST2022_ERROR_BAD_PAYLOAD_TYPE:
      return "unexpected payload type";
    default:
      return "unknown error";
  }
}

guint
st2022_format_count (void)
{
  return G_N_ELEMENTS (formats);
}

const St2022Format *
st2022_format_get (guint index)
{
  if (index >= G_N_ELEMENTS (formats))
    return NULL;
  return &formats[index];
}

const St2022Format *
st2022_format_from_codes (guint8 frame, guint8 frate, guint8 sample)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    if (formats[i].frame_code == frame && formats[i].frate_code == frate
        && formats[i].sample_code == sample)
      return &formats[i];
  }
  return NULL;
}

const St2022Format *
st2022_format_from_video (guint width, guint height, gboolean interlaced,
    gint fps_n, gint fps_d)
{
  guint i;

  if (fps_n <= 0 || fps_d <= 0)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    const St2022Format *f = &formats[i];
    if (f->width == width && f->height == height
        && !f->interlaced == !interlaced
        && (gint64) f->fps_n * fps_d == (gint64) fps_n * f->fps_d)
      return f;
  }
  return NULL;
}

const St2022Format *
st2022_format_psf_of (const St2022Format * fmt)
{
  guint i;

  if (fmt == NULL || fmt->sd)
    return NULL;
  if (fmt->psf)
    return fmt;
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    const St2022Format *f = &formats[i];
    if (f->psf && f->width == fmt->width && f->height == fmt->height
        && f->frate_code == fmt->frate_code)
      return f;
  }
  return NULL;
}

const St2022Format *
st2022_format_from_name (const char *name)
{
  guint i;

  if (name == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    if (g_ascii_strcasecmp (formats[i].name, name) == 0)
      return &formats[i];
  }
  return NULL;
}

guint
st2022_format_line_flags (const St2022Format * fmt, guint line)
{
  guint flags = 0;

  if (fmt == NULL || line < 1 || line > fmt->total_lines)
    return 0;
  if (fmt->interlaced && (line >= fmt->field2_first_line ||
          line < fmt->field1_first_line))
    flags |= ST2022_LINE_F;
  if (st2022_format_line_to_row (fmt, line) < 0)
    flags |= ST2022_LINE_V;
  return flags;
}

gint
st2022_format_line_to_row (const St2022Format * fmt, guint line)
{
  if (fmt == NULL)
    return -1;
  if (line >= fmt->active_first[0] && line <= fmt->active_last[0])
    return fmt->interlaced ? (gint) (line - fmt->active_first[0]) * 2 +
        (fmt->bottom_field_first ? 1 : 0) :
        (gint) (line - fmt->active_first[0]);
  if (fmt->interlaced && line >= fmt->active_first[1]
      && line <= fmt->active_last[1])
    return (gint) (line - fmt->active_first[1]) * 2 +
        (fmt->bottom_field_first ? 0 : 1);
  return -1;
}

void
st2022_format_anc_space (const St2022Format * fmt, gboolean vanc,
    guint * first, guint * end)
{
  guint act = fmt->line_words - fmt->width * 2;

  if (fmt->sd) {
    *first = vanc ? act : 4;
    *end = vanc ? fmt->samples_per_line * 2 : act - 4;
  } else if (!vanc) {
    /* after EAV (8), LN (4), CRC (4); before SAV, and before the blank
     * pair a line of an odd number of samples has only in memory
     * (st2022_raster_to_wire() drops it) */
    *first = 16;
    *end = act - 8 - (fmt->line_words - fmt->samples_per_line * 2);
  } else {
    *first = act;
    *end = fmt->line_words;
  }
}

guint
st2022_format_row_to_line (const St2022Format * fmt, guint row)
{
  if (fmt == NULL || row >= fmt->height)
    return 0;
  if (!fmt->interlaced)
    return fmt->active_first[0] + row;
  /* the top row is field 1's first active line, or field 2's */
  return ((row & 1) != 0) != fmt->bottom_field_first ?
      fmt->active_first[1] + row / 2 : fmt->active_first[0] + row / 2;
}

guint16
st2022_xyz (guint f, guint v, guint h)
{
  f = !!f;
  v = !!v;
  h = !!h;
  return 0x200 | f << 8 | v << 7 | h << 6 | (v ^ h) << 5 | (f ^ h) << 4 |
      (f ^ v) << 3 | (f ^ v ^ h) << 2;
}

void
st2022_ln_words (guint line, guint16 * ln0, guint16 * ln1)
{
  guint l6_0 = line & 0x7f;
  guint l10_7 = (line >> 7) & 0xf;

  /* bit 9 is the complement of bit 8 so the word is never a TRS value */
  if (ln0)
    *ln0 = (guint16) ((((l6_0 << 2) >> 8 & 1) ^ 1) << 9 | l6_0 << 2);
  if (ln1)
    *ln1 = (guint16) ((((l10_7 << 2) >> 8 & 1) ^ 1) << 9 | l10_7 << 2);
}

/* CRC-18 tables.  The register is kept reflected (bit 0 is the next bit
 * out), so one 10-bit word is x ^= w then 10 right shifts with feedback
 * 0x23000 (x^18+x^5+x^4+1 reflected over 18 bits).  crc_t0[i] is that for
 * one word, crc_t1[i] for one word followed by a second all-zero word: two
 * words of a channel then cost two independent lookups (slicing by 2). */
guint32 st2022_crc_t0[1024];
guint32 st2022_crc_t1[1024];
guint32 st2022_crc_t2[1024];
guint32 st2022_crc_t3[1024];

static guint32
crc_step_bits (guint32 crc, guint nbits)
{
  guint i;

  for (i = 0; i < nbits; i++)
    crc = (crc & 1) ? (crc >> 1) ^ 0x23000 : crc >> 1;
  return crc;
}

void
st2022_crc_init_tables (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    guint i;
    for (i = 0; i < 1024; i++) {
      st2022_crc_t0[i] = crc_step_bits (i, 10);
      st2022_crc_t1[i] = crc_step_bits (i, 20);
      st2022_crc_t2[i] = crc_step_bits (i, 30);
      st2022_crc_t3[i] = crc_step_bits (i, 40);
    }
    g_once_init_leave (&once, 1);
  }
}

guint32
st2022_crc18_update (guint32 crc, const guint16 * words, gsize n)
{
  gsize i;

  st2022_crc_init_tables ();
  if (words == NULL)
    return crc;
  crc &= 0x3ffff;
  for (i = 0; i < n; i++)
    crc = ST2022_CRC_WORD (crc, words[i] & 0x3ff);
  return crc;
}

void
st2022_crc_words (guint32 crc, guint16 * cr0, guint16 * cr1)
{
  if (cr0)
    *cr0 = (guint16) ((((crc >> 8) & 1) ^ 1) << 9 | (crc & 0x1ff));
  if (cr1)
    *cr1 = (guint16) ((((crc >> 17) & 1) ^ 1) << 9 | ((crc >> 9) & 0x1ff));
}

void
st2022_unpack_words (const guint8 * src, guint16 * words, gsize n_words)
{
  gsize i;

  if (src == NULL || words == NULL)
    return;
  for (i = 0; i + 4 <= n_words; i += 4, src += 5) {
    words[i] = (guint16) (src[0] << 2 | src[1] >> 6);
    words[i + 1] = (guint16) ((src[1] & 0x3f) << 4 | src[2] >> 4);
    words[i + 2] = (guint16) ((src[2] & 0x0f) << 6 | src[3] >> 2);
    words[i + 3] = (guint16) ((src[3] & 0x03) << 8 | src[4]);
  }
}

void
st2022_pack_words (const guint16 * words, guint8 * dst, gsize n_words)
{
  gsize i;

  if (dst == NULL || words == NULL)
    return;
  for (i = 0; i + 4 <= n_words; i += 4, dst += 5) {
    guint w0 = words[i] & 0x3ff, w1 = words[i + 1] & 0x3ff;
    guint w2 = words[i + 2] & 0x3ff, w3 = words[i + 3] & 0x3ff;
    dst[0] = (guint8) (w0 >> 2);
    dst[1] = (guint8) ((w0 & 3) << 6 | w1 >> 4);
    dst[2] = (guint8) ((w1 & 0xf) << 4 | w2 >> 6);
    dst[3] = (guint8) ((w2 & 0x3f) << 2 | w3 >> 8);
    dst[4] = (guint8) (w3 & 0xff);
  }
}

guint32
st2022_datagram_vts_offset (guint index)
{
  /* datagram i starts at bit 8*1376*i; samples (2 words, 20 bits) start
   * every 20 bits; the first whole one is ceil (8*1376*i / 20) */
  guint64 bits = (guint64) index * ST2022_PAYLOAD_SIZE * 8;
  return (guint32) (((bits + 19) / 20) * 2);
}

gsize
st2022_picture_min_stride (const St2022Format * fmt, St2022PixelFormat pixfmt)
{
  if (fmt == NULL)
    return 0;
  if (pixfmt == ST2022_PIXEL_V210)
    return ((gsize) fmt->width + 47) / 48 * 128;
  return fmt->active_bytes;
}
