/* gst-vmi: ST 291-1 packets, ST 352, ST 12-2 ATC, ST 334 CDP, ST 299-1
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include "vmi-anc.h"

const char *
vmi_anc_result_to_string (int result)
{
  switch (result) {
    case VMI_ANC_OK:
      return "ok";
    case VMI_ANC_ERROR_INVALID_ARGUMENT:
      return "invalid argument";
    case VMI_ANC_ERROR_NO_ADF:
      return "no ancillary data flag";
    case VMI_ANC_ERROR_SHORT:
      return "packet truncated";
    case VMI_ANC_ERROR_PARITY:
      return "header parity wrong";
    case VMI_ANC_ERROR_CHECKSUM:
      return "checksum wrong";
    case VMI_ANC_ERROR_NO_SPACE:
      return "ancillary space full";
    case VMI_ANC_ERROR_WRONG_TYPE:
      return "not a packet of that type";
    case VMI_ANC_ERROR_ECC:
      return "audio ECC wrong";
    default:
      return "unknown error";
  }
}

guint16
vmi_anc_word (guint8 value)
{
  guint p = __builtin_parity (value);

  return value | p << 8 | (p ^ 1) << 9;
}

static gboolean
word_parity_ok (guint16 w)
{
  return w == vmi_anc_word (w & 0xff);
}

void
vmi_anc_packet_init (VmiAncPacket * p, guint8 did, guint8 sdid)
{
  memset (p, 0, sizeof (*p));
  p->did = did;
  p->sdid = sdid;
}

int
vmi_anc_packet_set_data (VmiAncPacket * p, const guint8 * data, guint n)
{
  guint i;

  if (p == NULL || n > VMI_ANC_MAX_UDW || (n > 0 && data == NULL))
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  for (i = 0; i < n; i++)
    p->udw[i] = vmi_anc_word (data[i]);
  p->dc = n;
  return VMI_ANC_OK;
}

guint16
vmi_anc_packet_checksum (const VmiAncPacket * p)
{
  guint sum, i;

  sum = (vmi_anc_word (p->did) + vmi_anc_word (p->sdid) +
      vmi_anc_word (p->dc)) & 0x1ff;
  for (i = 0; i < p->dc; i++)
    sum = (sum + (p->udw[i] & 0x1ff)) & 0x1ff;
  return sum | ((~sum & 0x100) << 1);
}

int
vmi_anc_packet_to_words (const VmiAncPacket * p, guint16 * words, gsize max)
{
  guint i;

  if (p == NULL || words == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (max < (gsize) VMI_ANC_PACKET_WORDS (p->dc))
    return VMI_ANC_ERROR_SHORT;
  words[0] = 0x000;
  words[1] = words[2] = 0x3ff;
  words[3] = vmi_anc_word (p->did);
  words[4] = vmi_anc_word (p->sdid);
  words[5] = vmi_anc_word (p->dc);
  for (i = 0; i < p->dc; i++)
    words[6 + i] = p->udw[i] & 0x3ff;
  words[6 + p->dc] = vmi_anc_packet_checksum (p);
  return VMI_ANC_PACKET_WORDS (p->dc);
}

int
vmi_anc_packet_parse (const guint16 * w, gsize n, VmiAncPacket * p)
{
  guint dc, i, sum;

  if (w == NULL || p == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (n < 3 || w[0] != 0x000 || w[1] != 0x3ff || w[2] != 0x3ff)
    return VMI_ANC_ERROR_NO_ADF;
  if (n < 7)
    return VMI_ANC_ERROR_SHORT;
  /* a wrong DC parity means the length itself cannot be trusted */
  if (!word_parity_ok (w[3]) || !word_parity_ok (w[4])
      || !word_parity_ok (w[5]))
    return VMI_ANC_ERROR_PARITY;
  dc = w[5] & 0xff;
  if (n < (gsize) VMI_ANC_PACKET_WORDS (dc))
    return VMI_ANC_ERROR_SHORT;
  sum = 0;
  for (i = 3; i < 6 + dc; i++)
    sum = (sum + (w[i] & 0x1ff)) & 0x1ff;
  if (w[6 + dc] != (sum | ((~sum & 0x100) << 1)))
    return VMI_ANC_ERROR_CHECKSUM;
  p->did = w[3] & 0xff;
  p->sdid = w[4] & 0xff;
  p->dc = dc;
  for (i = 0; i < dc; i++)
    p->udw[i] = w[6 + i];
  return VMI_ANC_PACKET_WORDS (dc);
}

/* ---------------------------------------------------------------- */
/* ST 352                                                           */
/* ---------------------------------------------------------------- */

/* ST 352 picture-rate code of a frame rate; 0 if undefined */
static guint8
st352_rate (gint n, gint d)
{
  static const struct
  {
    gint n, d;
    guint8 code;
  } rates[] = {
    {24000, 1001, 0x2}, {24, 1, 0x3}, {48000, 1001, 0x4}, {25, 1, 0x5},
    {30000, 1001, 0x6}, {30, 1, 0x7}, {48, 1, 0x8}, {50, 1, 0x9},
    {60000, 1001, 0xA}, {60, 1, 0xB},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (rates); i++)
    if ((gint64) rates[i].n * d == (gint64) n * rates[i].d)
      return rates[i].code;
  return 0;
}

int
vmi_anc_st352_bytes (const St2022Format * fmt, guint8 b[4])
{
  if (fmt == NULL || b == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  /* byte 1: payload and interface (483/576 lines on 270 Mb/s, 720 / 1080
   * on 1.5G, 1080 on 3G A) */
  if (fmt->sd)
    b[0] = 0x81;
  else if (fmt->height == 720)
    b[0] = 0x84;
  else if (fmt->level_a_3g)
    b[0] = 0x89;
  else
    b[0] = 0x85;
  /* byte 2: b7 transport progressive, b6 picture progressive, b3-0 rate
   * (of frames: 1080i59.94 is 30000/1001) */
  b[1] = (fmt->psf ? 0x40 : fmt->interlaced ? 0x00 : 0xC0) |
      st352_rate (fmt->fps_n, fmt->fps_d);
  /* byte 3: b6 2048 samples, b5-4 colorimetry Rec.709 (0), b3-0 4:2:2
   * Y'CbCr (0) */
  b[2] = fmt->width == 2048 ? 0x40 : 0x00;
  /* byte 4: b1-0 bit depth 10-bit */
  b[3] = 0x01;
  return VMI_ANC_OK;
}

void
vmi_anc_st352_build (const St2022Format * fmt, VmiAncPacket * p)
{
  guint8 b[4];

  vmi_anc_st352_bytes (fmt, b);
  vmi_anc_packet_init (p, VMI_ANC_DID_PAYLOAD_ID, VMI_ANC_SDID_PAYLOAD_ID);
  vmi_anc_packet_set_data (p, b, 4);
}

guint
vmi_anc_st352_lines (const St2022Format * fmt, guint lines[2])
{
  /* SD: line 13 and 276 (525), 9 and 322 (625) */
  if (fmt->sd) {
    lines[0] = fmt->total_lines == 525 ? 13 : 9;
    lines[1] = fmt->total_lines == 525 ? 276 : 322;
    return 2;
  }
  lines[0] = 10;
  if (fmt->interlaced && fmt->total_lines == 1125) {
    lines[1] = 572;
    return 2;
  }
  return 1;
}

/* ---------------------------------------------------------------- */
/* ST 12-2 ATC                                                      */
/* ---------------------------------------------------------------- */

void
vmi_anc_atc_build (const VmiAncTimecode * tc, VmiAncPacket * p)
{
  guint8 nib[16], udw[16];
  guint i;

  /* ST 12-1 time address nibbles (odd UDWs) and binary groups (even) */
  nib[0] = tc->frames % 10;
  nib[2] = (tc->frames / 10) & 0x3;
  nib[2] |= (tc->drop_frame ? 0x4 : 0) | (tc->color_frame ? 0x8 : 0);
  nib[4] = tc->seconds % 10;
  nib[6] = (tc->seconds / 10) & 0x7;
  nib[8] = tc->minutes % 10;
  nib[10] = (tc->minutes / 10) & 0x7;
  nib[12] = tc->hours % 10;
  nib[14] = (tc->hours / 10) & 0x3;
  for (i = 0; i < 8; i++)
    nib[2 * i + 1] = tc->binary_groups[i] & 0xf;
  /* each UDW: nibble in b7-b4, one bit of DBB1 (UDW 1-8) or DBB2 (9-16)
   * in b3 */
  for (i = 0; i < 16; i++) {
    guint8 dbb = i < 8 ? tc->dbb1 : tc->dbb2;
    udw[i] = nib[i] << 4 | ((dbb >> (i % 8)) & 1) << 3;
  }
  vmi_anc_packet_init (p, VMI_ANC_DID_ATC, VMI_ANC_SDID_ATC);
  vmi_anc_packet_set_data (p, udw, 16);
}

int
vmi_anc_atc_parse (const VmiAncPacket * p, VmiAncTimecode * tc)
{
  guint8 nib[16];
  guint i;

  if (p == NULL || tc == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (p->did != VMI_ANC_DID_ATC || p->sdid != VMI_ANC_SDID_ATC || p->dc != 16)
    return VMI_ANC_ERROR_WRONG_TYPE;
  memset (tc, 0, sizeof (*tc));
  for (i = 0; i < 16; i++) {
    nib[i] = (p->udw[i] >> 4) & 0xf;
    if (i < 8)
      tc->dbb1 |= ((p->udw[i] >> 3) & 1) << i;
    else
      tc->dbb2 |= ((p->udw[i] >> 3) & 1) << (i - 8);
  }
  tc->frames = nib[0] + 10 * (nib[2] & 0x3);
  tc->drop_frame = (nib[2] & 0x4) != 0;
  tc->color_frame = (nib[2] & 0x8) != 0;
  tc->seconds = nib[4] + 10 * (nib[6] & 0x7);
  tc->minutes = nib[8] + 10 * (nib[10] & 0x7);
  tc->hours = nib[12] + 10 * (nib[14] & 0x3);
  for (i = 0; i < 8; i++)
    tc->binary_groups[i] = nib[2 * i + 1];
  return VMI_ANC_OK;
}

guint
vmi_anc_atc_line (const St2022Format * fmt, guint8 dbb1)
{
  /* ST 12-2 for HD: the second line after the switching point (7 and
   * 569), i.e. 9 and 571.  SD by the same rule, from RP 168's switching
   * lines (10/273 on 525, 6/319 on 625): 12/275 and 8/321, both vertical
   * blanking lines outside the ST 352 lines */
  if (fmt->sd) {
    if (fmt->total_lines == 525)
      return dbb1 == VMI_ANC_ATC_VITC2 ? 275 : 12;
    return dbb1 == VMI_ANC_ATC_VITC2 ? 321 : 8;
  }
  if (dbb1 == VMI_ANC_ATC_VITC2 && fmt->interlaced)
    return 571;
  return 9;
}

/* ---------------------------------------------------------------- */
/* ST 334 CDP                                                       */
/* ---------------------------------------------------------------- */

guint
vmi_anc_caption_line (const St2022Format * fmt)
{
  /* ST 334-1 leaves the line to the facility (any VANC line but the
   * switching line and the one after it); on SD the first free one after
   * ATC's, clear of the ST 352 lines' HANC use too */
  if (fmt->sd)
    return fmt->total_lines == 525 ? 13 : 9;
  return 11;
}

int
vmi_anc_cdp_build (const guint8 * cdp, guint len, VmiAncPacket * p)
{
  if (cdp == NULL || p == NULL || len > VMI_ANC_MAX_UDW)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  vmi_anc_packet_init (p, VMI_ANC_DID_CAPTION, VMI_ANC_SDID_CDP);
  return vmi_anc_packet_set_data (p, cdp, len);
}

int
vmi_anc_cdp_from_cc_data (const guint8 * cc_data, guint len, gint fps_n,
    gint fps_d, guint16 seq, guint8 * out, guint max)
{
  /* CEA-708 cdp_frame_rate codes and the cc_count each rate carries */
  static const struct
  {
    gint n, d;
    guint8 code, cc_count;
  } rates[] = {
    {24000, 1001, 1, 25}, {24, 1, 2, 25}, {25, 1, 3, 24},
    {30000, 1001, 4, 20}, {30, 1, 5, 20}, {50, 1, 6, 12},
    {60000, 1001, 7, 10}, {60, 1, 8, 10},
  };
  guint i, k = 0, n = len / 3, total;
  guint8 code = 0, count = 0, sum = 0;

  if ((cc_data == NULL && len > 0) || out == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  for (i = 0; i < G_N_ELEMENTS (rates); i++) {
    if ((gint64) rates[i].n * fps_d == (gint64) fps_n * rates[i].d) {
      code = rates[i].code;
      count = rates[i].cc_count;
    }
  }
  if (code == 0 || n > count)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  total = 7 + 2 + 3 * count + 4;
  if (max < total)
    return VMI_ANC_ERROR_SHORT;

  out[k++] = 0x96;
  out[k++] = 0x69;
  out[k++] = total;
  out[k++] = code << 4 | 0x0f;
  /* ccdata_present, caption_service_active, reserved */
  out[k++] = 0x43;
  out[k++] = seq >> 8;
  out[k++] = seq & 0xff;
  out[k++] = 0x72;
  out[k++] = 0xe0 | count;
  memcpy (out + k, cc_data, n * 3);
  k += n * 3;
  for (i = n; i < count; i++) {
    out[k++] = 0xfa;
    out[k++] = 0x00;
    out[k++] = 0x00;
  }
  out[k++] = 0x74;
  out[k++] = seq >> 8;
  out[k++] = seq & 0xff;
  for (i = 0; i < k; i++)
    sum += out[i];
  out[k++] = (guint8) (256 - sum);
  return k;
}

/* ---------------------------------------------------------------- */
/* ST 299-1 audio                                                   */
/* ---------------------------------------------------------------- */

guint
vmi_anc_audio_sequence_length (const St2022Format * fmt)
{
  if (fmt->fps_d == 1001 && (fmt->fps_n == 30000 || fmt->fps_n == 60000))
    return 5;
  return 1;
}

guint
vmi_anc_audio_frame_samples (const St2022Format * fmt, guint64 frame_index)
{
  static const guint s2997[5] = { 1602, 1601, 1602, 1601, 1602 };
  static const guint s5994[5] = { 801, 801, 801, 801, 800 };

  if (fmt->fps_d == 1001 && fmt->fps_n == 30000)
    return s2997[frame_index % 5];
  if (fmt->fps_d == 1001 && fmt->fps_n == 60000)
    return s5994[frame_index % 5];
  return (guint) ((gint64) VMI_ANC_AUDIO_RATE * fmt->fps_d / fmt->fps_n);
}

/* The continuous 48 kHz grid over one sequence of frames: sample j of the
 * sequence (0 = the first sample of its first frame) falls
 * (j * nf + a) * F / ns video clocks after the sequence's first frame
 * starts, F = clocks per frame, ns = samples per sequence, nf = frames per
 * sequence.  The offset a (in 1/nf of a sample period) is the smallest for
 * which every frame carries exactly the samples whose instants fall within
 * it, given the standard's counts: 2 at 30000/1001 (1602 1601 1602 1601
 * 1602), 0 at every other rate. */
typedef struct
{
  guint64 frame_clocks;
  guint nf, ns, a, before;      /* before: samples of the sequence's
                                 * earlier frames */
} AudioGrid;

static void
audio_grid (const St2022Format * fmt, guint64 frame_index, AudioGrid * g)
{
  guint cum[6], f, a;

  g->frame_clocks = (guint64) fmt->total_lines * fmt->samples_per_line;
  g->nf = vmi_anc_audio_sequence_length (fmt);
  cum[0] = 0;
  for (f = 0; f < g->nf; f++)
    cum[f + 1] = cum[f] + vmi_anc_audio_frame_samples (fmt, f);
  g->ns = cum[g->nf];
  g->before = cum[frame_index % g->nf];
  g->a = 0;
  for (a = 0; a < g->nf; a++) {
    gboolean fits = TRUE;

    /* samples before frame f: ceil ((f * ns - a) / nf) */
    for (f = 1; f < g->nf && fits; f++)
      fits = (f * g->ns - a + g->nf - 1) / g->nf == cum[f];
    if (fits) {
      g->a = a;
      break;
    }
  }
}

static void
grid_phase (const St2022Format * fmt, const AudioGrid * g,
    guint64 frame_index, guint k, guint * line, guint * clk)
{
  guint64 f = frame_index % g->nf;
  guint64 num = ((guint64) (g->before + k) * g->nf + g->a) * g->frame_clocks
      - f * g->frame_clocks * g->ns;
  guint64 t = num / g->ns;

  *line = (guint) (t / fmt->samples_per_line) + 1;
  *clk = (guint) (t % fmt->samples_per_line);
}

int
vmi_anc_audio_sample_phase (const St2022Format * fmt, guint64 frame_index,
    guint k, guint * line, guint * clk)
{
  AudioGrid g;

  if (fmt == NULL || line == NULL || clk == NULL ||
      k >= vmi_anc_audio_frame_samples (fmt, frame_index))
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  audio_grid (fmt, frame_index, &g);
  grid_phase (fmt, &g, frame_index, k, line, clk);
  return VMI_ANC_OK;
}

int
vmi_anc_audio_sample_at (const St2022Format * fmt, guint64 frame_index,
    guint line, guint clk, gboolean mpf)
{
  AudioGrid g;
  guint n, lo, hi, mid, l, c, i;
  guint64 t;

  if (fmt == NULL || line < 1 || line > fmt->total_lines
      || clk >= fmt->samples_per_line)
    return -1;
  n = vmi_anc_audio_frame_samples (fmt, frame_index);
  audio_grid (fmt, frame_index, &g);
  t = (guint64) (line - 1) * fmt->samples_per_line + (mpf ? 0 : clk);
  /* the first sample whose instant is not before t */
  lo = 0;
  hi = n;
  while (lo < hi) {
    mid = lo + (hi - lo) / 2;
    grid_phase (fmt, &g, frame_index, mid, &l, &c);
    if ((guint64) (l - 1) * fmt->samples_per_line + c < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!mpf) {
    if (lo >= n)
      return -1;
    grid_phase (fmt, &g, frame_index, lo, &l, &c);
    return l == line && c == clk ? (int) lo : -1;
  }
  /* MPF: carried on a later line than its instant's; a line holds fewer
   * than 2 samples at every HD rate, so the clock word names it among the
   * few before */
  for (i = 0; i < 8 && lo > 0; i++) {
    lo--;
    grid_phase (fmt, &g, frame_index, lo, &l, &c);
    if (c == clk)
      return (int) lo;
  }
  return -1;
}

/* BCH(31,25) over each bit position of the bytes, generator
 * x^6 + x^5 + x^3 + x^2 + x + 1: a byte-wide Galois shift register */
static void
ecc_bytes (const guint8 * bytes, guint n, guint8 ecc[6])
{
  guint8 r[6] = { 0 };
  guint i;

  for (i = 0; i < n; i++) {
    guint8 f = r[0] ^ bytes[i];
    r[0] = r[1] ^ f;
    r[1] = r[2];
    r[2] = r[3] ^ f;
    r[3] = r[4] ^ f;
    r[4] = r[5] ^ f;
    r[5] = f;
  }
  memcpy (ecc, r, 6);
}

void
vmi_anc_audio_ecc (guint8 did, guint8 dbn, const guint8 udw[18],
    guint8 ecc[6])
{
  guint8 b[24];

  b[0] = 0x00;
  b[1] = b[2] = 0xff;
  b[3] = did;
  b[4] = dbn;
  b[5] = VMI_ANC_AUDIO_DATA_DC;
  memcpy (b + 6, udw, 18);
  ecc_bytes (b, 24, ecc);
}

void
vmi_anc_audio_data_build (const VmiAncAudioData * a, VmiAncPacket * p)
{
  guint8 d[24];
  guint ch;

  d[0] = a->clk & 0xff;
  d[1] = ((a->clk >> 8) & 0xf) | (a->mpf ? 0x10 : 0) |
      ((a->clk >> 12) & 1) << 5;
  for (ch = 0; ch < 4; ch++) {
    guint32 s = (guint32) a->samples[ch] & 0xffffff;
    guint8 *w = d + 2 + 4 * ch;
    /* AES3 Z only on the first subframe of each channel pair */
    guint z = (ch % 2 == 0) ? (a->z & 1) : 0;

    w[0] = (s & 0xf) << 4 | z << 3;
    w[1] = (s >> 4) & 0xff;
    w[2] = (s >> 12) & 0xff;
    w[3] = (s >> 20) & 0xf;
    w[3] |= (a->v & 1) << 4 | (a->u & 1) << 5 | (a->c & 1) << 6;
    /* AES3 P: even parity over subframe bits 4-30 */
    w[3] |= __builtin_parity ((w[0] & 0xf0) | w[1] << 8 | w[2] << 16 |
        (guint32) (w[3] & 0x7f) << 24) << 7;
  }
  vmi_anc_audio_ecc (VMI_ANC_DID_AUDIO_G1 - a->group, a->dbn, d, d + 18);
  vmi_anc_packet_init (p, VMI_ANC_DID_AUDIO_G1 - a->group, a->dbn);
  vmi_anc_packet_set_data (p, d, 24);
}

int
vmi_anc_audio_data_parse (const VmiAncPacket * p, VmiAncAudioData * a)
{
  guint8 d[24], ecc[6];
  guint i, ch;

  if (p == NULL || a == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (p->did > VMI_ANC_DID_AUDIO_G1 || p->did < VMI_ANC_DID_AUDIO_G1 - 3
      || p->dc != VMI_ANC_AUDIO_DATA_DC)
    return VMI_ANC_ERROR_WRONG_TYPE;
  for (i = 0; i < 24; i++)
    d[i] = p->udw[i] & 0xff;
  vmi_anc_audio_ecc (p->did, p->sdid, d, ecc);
  if (memcmp (ecc, d + 18, 6) != 0)
    return VMI_ANC_ERROR_ECC;
  memset (a, 0, sizeof (*a));
  a->group = VMI_ANC_DID_AUDIO_G1 - p->did;
  a->dbn = p->sdid;
  a->clk = d[0] | (d[1] & 0xf) << 8 | ((d[1] >> 5) & 1) << 12;
  a->mpf = (d[1] & 0x10) != 0;
  a->line = p->line;
  for (ch = 0; ch < 4; ch++) {
    const guint8 *w = d + 2 + 4 * ch;
    guint32 s = (w[0] >> 4) | w[1] << 4 | w[2] << 12 | (w[3] & 0xf) << 20;

    /* sign-extend the 24-bit sample */
    a->samples[ch] = (gint32) (s << 8) >> 8;
    if (ch == 0) {
      a->z = (w[0] >> 3) & 1;
      a->v = (w[3] >> 4) & 1;
      a->u = (w[3] >> 5) & 1;
      a->c = (w[3] >> 6) & 1;
    }
  }
  return VMI_ANC_OK;
}

void
vmi_anc_audio_control_build (const VmiAncAudioControl * c, VmiAncPacket * p)
{
  guint8 d[VMI_ANC_AUDIO_CTRL_DC] = { 0 };

  d[0] = c->af;
  d[1] = c->rate;
  d[2] = c->active & 0xf;
  /* UDW3-8: DELA0-2 and DELC0-2; UDW9-10 reserved */
  d[3] = c->delay[0] & 0xff;
  d[4] = c->delay[1] & 0xff;
  d[5] = c->delay[2] & 0xff;
  vmi_anc_packet_init (p, VMI_ANC_DID_AUDIO_CTRL_G1 - c->group, c->dbn);
  vmi_anc_packet_set_data (p, d, VMI_ANC_AUDIO_CTRL_DC);
}

int
vmi_anc_audio_control_parse (const VmiAncPacket * p, VmiAncAudioControl * c)
{
  if (p == NULL || c == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (p->did > VMI_ANC_DID_AUDIO_CTRL_G1
      || p->did < VMI_ANC_DID_AUDIO_CTRL_G1 - 3
      || p->dc != VMI_ANC_AUDIO_CTRL_DC)
    return VMI_ANC_ERROR_WRONG_TYPE;
  memset (c, 0, sizeof (*c));
  c->group = VMI_ANC_DID_AUDIO_CTRL_G1 - p->did;
  c->dbn = p->sdid;
  c->af = p->udw[0] & 0xff;
  c->rate = p->udw[1] & 0xff;
  c->active = p->udw[2] & 0xf;
  c->delay[0] = p->udw[3] & 0xff;
  c->delay[1] = p->udw[4] & 0xff;
  c->delay[2] = p->udw[5] & 0xff;
  return VMI_ANC_OK;
}
