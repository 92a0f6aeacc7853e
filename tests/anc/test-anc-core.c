/* gst-vmi: unit tests of the ST 291-1 ancillary data core
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Expected words are computed here independently of the core: parity by
 * counting bits, checksums by summing, the audio ECC by polynomial long
 * division, raster words by unpacking the raster bit by bit.
 */

#include <gst/check/gstcheck.h>
#include <string.h>
#include "vmi-anc.h"

/* ---- independent helpers ------------------------------------------ */

static guint16
ref_word (guint8 v)
{
  guint bits = 0, i;

  for (i = 0; i < 8; i++)
    bits += (v >> i) & 1;
  return v | (bits & 1) << 8 | (!(bits & 1)) << 9;
}

/* packet words from DID, SDID and 8-bit data */
static guint
ref_packet (guint8 did, guint8 sdid, const guint8 * data, guint dc,
    guint16 * out)
{
  guint i, sum = 0;

  out[0] = 0;
  out[1] = out[2] = 0x3ff;
  out[3] = ref_word (did);
  out[4] = ref_word (sdid);
  out[5] = ref_word (dc);
  for (i = 0; i < dc; i++)
    out[6 + i] = ref_word (data[i]);
  for (i = 3; i < 6 + dc; i++)
    sum += out[i] & 0x1ff;
  sum &= 0x1ff;
  out[6 + dc] = sum | (((sum >> 8) & 1) ? 0 : 0x200);
  return dc + 7;
}

/* word @i of @line, read bit by bit (10 bits MSB first, no gaps) */
static guint16
ref_raster_word (const St2022Format * fmt, const guint8 * raster, guint line,
    guint i)
{
  gsize bit = ((gsize) (line - 1) * fmt->line_bytes) * 8 + (gsize) i * 10;
  guint16 w = 0;
  guint k;

  for (k = 0; k < 10; k++, bit++)
    w = w << 1 | ((raster[bit / 8] >> (7 - bit % 8)) & 1);
  return w;
}

static guint8 *
blank_raster (const St2022Format * fmt, St2022RasterWriter ** wp)
{
  St2022RasterWriter *w = st2022_raster_writer_new (fmt);
  gsize stride = st2022_picture_min_stride (fmt, ST2022_PIXEL_UYVP);
  guint8 *pic = g_malloc (stride * fmt->height);
  guint8 *raster = g_malloc (fmt->frame_bytes);
  gsize i;

  /* a grey UYVP picture: C 0x200, Y 0x200 */
  for (i = 0; i < stride * fmt->height; i += 5) {
    pic[i] = 0x80;
    pic[i + 1] = 0x20;
    pic[i + 2] = 0x08;
    pic[i + 3] = 0x02;
    pic[i + 4] = 0x00;
  }
  fail_unless_equals_int (st2022_raster_writer_write (w, raster,
          fmt->frame_bytes, ST2022_PIXEL_UYVP, pic, stride), ST2022_OK);
  g_free (pic);
  if (wp)
    *wp = w;
  else
    st2022_raster_writer_free (w);
  return raster;
}

/* ---- packets ------------------------------------------------------- */

GST_START_TEST (test_parity_and_checksum)
{
  VmiAncPacket p;
  guint16 words[VMI_ANC_MAX_WORDS], ref[VMI_ANC_MAX_WORDS];
  guint8 data[255];
  guint v, i, n;
  /* ST 352 of 1080i59.94, worked out by hand: 0x85 0x06 0x00 0x01 */
  static const guint16 st352_1080i5994[11] = { 0x000, 0x3ff, 0x3ff, 0x241,
    0x101, 0x104, 0x185, 0x206, 0x200, 0x101, 0x2d2
  };

  for (v = 0; v < 256; v++)
    fail_unless_equals_int (vmi_anc_word (v), ref_word (v));

  vmi_anc_st352_build (st2022_format_from_name ("1080i59.94"), &p);
  n = vmi_anc_packet_to_words (&p, words, G_N_ELEMENTS (words));
  fail_unless_equals_int (n, 11);
  for (i = 0; i < 11; i++)
    fail_unless_equals_int (words[i], st352_1080i5994[i]);

  /* every DC from 0 to 255 against the reference */
  for (n = 0; n <= 255; n++) {
    for (i = 0; i < n; i++)
      data[i] = (guint8) (i * 37 + n);
    vmi_anc_packet_init (&p, 0x45, 0x12);
    fail_unless_equals_int (vmi_anc_packet_set_data (&p, data, n), 0);
    fail_unless_equals_int (vmi_anc_packet_to_words (&p, words,
            G_N_ELEMENTS (words)), (int) n + 7);
    ref_packet (0x45, 0x12, data, n, ref);
    fail_unless (memcmp (words, ref, (n + 7) * 2) == 0, "dc %u", n);
  }
}

GST_END_TEST;

GST_START_TEST (test_parse_errors)
{
  VmiAncPacket p, q;
  guint16 w[64];
  guint8 data[4] = { 1, 2, 3, 4 };
  int n;

  vmi_anc_packet_init (&p, 0x61, 0x01);
  vmi_anc_packet_set_data (&p, data, 4);
  n = vmi_anc_packet_to_words (&p, w, 64);
  fail_unless_equals_int (vmi_anc_packet_parse (w, n, &q), 11);
  fail_unless_equals_int (q.did, 0x61);
  fail_unless_equals_int (q.sdid, 0x01);
  fail_unless_equals_int (q.dc, 4);
  fail_unless_equals_int (q.udw[3], ref_word (4));
  fail_unless_equals_int (vmi_anc_packet_parse (w, n - 1, &q),
      VMI_ANC_ERROR_SHORT);
  w[7] ^= 0x001;
  fail_unless_equals_int (vmi_anc_packet_parse (w, n, &q),
      VMI_ANC_ERROR_CHECKSUM);
  w[7] ^= 0x001;
  w[5] ^= 0x100;
  fail_unless_equals_int (vmi_anc_packet_parse (w, n, &q),
      VMI_ANC_ERROR_PARITY);
  w[5] ^= 0x100;
  w[1] = 0x3fe;
  fail_unless_equals_int (vmi_anc_packet_parse (w, n, &q),
      VMI_ANC_ERROR_NO_ADF);
}

GST_END_TEST;

/* ---- ST 352 -------------------------------------------------------- */

GST_START_TEST (test_st352_all_formats)
{
  static const struct
  {
    const char *name;
    guint8 b1, b2, b3;
  } expect[] = {
    {"1080i59.94", 0x85, 0x06}, {"1080i60", 0x85, 0x07},
    {"1080i50", 0x85, 0x05}, {"1080p23.98", 0x85, 0xC2},
    {"1080p24", 0x85, 0xC3}, {"1080p25", 0x85, 0xC5},
    {"1080p29.97", 0x85, 0xC6}, {"1080p30", 0x85, 0xC7},
    {"1080p50", 0x89, 0xC9}, {"1080p59.94", 0x89, 0xCA},
    {"1080p60", 0x89, 0xCB}, {"720p50", 0x84, 0xC9},
    {"720p59.94", 0x84, 0xCA}, {"720p60", 0x84, 0xCB},
    {"720p25", 0x84, 0xC5}, {"720p29.97", 0x84, 0xC6},
    {"720p30", 0x84, 0xC7},
    {"720p23.98", 0x84, 0xC2}, {"720p24", 0x84, 0xC3},
    /* PsF: interlaced transport (b7 0), progressive picture (b6 1) */
    {"1080PsF23.98", 0x85, 0x42}, {"1080PsF24", 0x85, 0x43},
    {"1080PsF25", 0x85, 0x45}, {"1080PsF29.97", 0x85, 0x46},
    {"1080PsF30", 0x85, 0x47},
    /* 2048 samples: byte 3 b6 */
    {"2048p23.98", 0x85, 0xC2, 0x40}, {"2048p24", 0x85, 0xC3, 0x40},
    {"2048p25", 0x85, 0xC5, 0x40}, {"2048p29.97", 0x85, 0xC6, 0x40},
    {"2048p30", 0x85, 0xC7, 0x40}, {"2048p47.95", 0x89, 0xC4, 0x40},
    {"2048p48", 0x89, 0xC8, 0x40},
    {"2048PsF23.98", 0x85, 0x42, 0x40}, {"2048PsF24", 0x85, 0x43, 0x40},
    {"2048PsF25", 0x85, 0x45, 0x40}, {"2048PsF29.97", 0x85, 0x46, 0x40},
    {"2048PsF30", 0x85, 0x47, 0x40},
    /* SD on 270 Mb/s */
    {"525i59.94", 0x81, 0x06}, {"625i50", 0x81, 0x05},
  };
  guint i, seen = 0;

  for (i = 0; i < G_N_ELEMENTS (expect); i++) {
    const St2022Format *fmt = st2022_format_from_name (expect[i].name);
    guint8 b[4];
    guint lines[2];

    fail_unless (fmt != NULL, "%s", expect[i].name);
    fail_unless_equals_int (vmi_anc_st352_bytes (fmt, b), 0);
    fail_unless_equals_int (b[0], expect[i].b1);
    fail_unless_equals_int (b[1], expect[i].b2);
    fail_unless_equals_int (b[2], expect[i].b3);
    fail_unless_equals_int (b[3], 0x01);
    fail_unless_equals_int (vmi_anc_st352_lines (fmt, lines),
        fmt->interlaced ? 2 : 1);
    if (fmt->sd) {
      fail_unless_equals_int (lines[0], fmt->total_lines == 525 ? 13 : 9);
      fail_unless_equals_int (lines[1], fmt->total_lines == 525 ? 276 : 322);
      seen++;
      continue;
    }
    fail_unless_equals_int (lines[0], 10);
    if (fmt->interlaced)
      fail_unless_equals_int (lines[1], 572);
    seen++;
  }
  /* every format of the table is covered */
  fail_unless_equals_int (seen, st2022_format_count ());
}

GST_END_TEST;

/* ---- ATC ----------------------------------------------------------- */

GST_START_TEST (test_atc)
{
  VmiAncTimecode tc = { 0 }, back;
  VmiAncPacket p;
  guint16 w[32], ref[32];
  guint8 d[16];
  guint i;

  tc.hours = 12;
  tc.minutes = 34;
  tc.seconds = 56;
  tc.frames = 29;
  tc.drop_frame = TRUE;
  tc.dbb1 = VMI_ANC_ATC_VITC2;
  tc.binary_groups[0] = 0xA;
  vmi_anc_atc_build (&tc, &p);
  vmi_anc_packet_to_words (&p, w, 32);

  /* ST 12-2: nibble in b7-4, DBB1 bit i in b3 of UDW i (DBB1 = 2: UDW2) */
  memset (d, 0, sizeof (d));
  d[0] = 9 << 4;                /* frame units */
  d[1] = 0xA << 4 | 1 << 3;     /* BG1, DBB1 bit 1 */
  d[2] = (2 | 4) << 4;          /* frame tens 2, drop frame */
  d[4] = 6 << 4;
  d[6] = 5 << 4;
  d[8] = 4 << 4;
  d[10] = 3 << 4;
  d[12] = 2 << 4;
  d[14] = 1 << 4;
  ref_packet (0x60, 0x60, d, 16, ref);
  for (i = 0; i < 23; i++)
    fail_unless_equals_int (w[i], ref[i]);

  fail_unless_equals_int (vmi_anc_atc_parse (&p, &back), 0);
  fail_unless_equals_int (back.hours, 12);
  fail_unless_equals_int (back.minutes, 34);
  fail_unless_equals_int (back.seconds, 56);
  fail_unless_equals_int (back.frames, 29);
  fail_unless (back.drop_frame);
  fail_unless (!back.color_frame);
  fail_unless_equals_int (back.dbb1, VMI_ANC_ATC_VITC2);
  fail_unless_equals_int (back.binary_groups[0], 0xA);
  fail_unless_equals_int (vmi_anc_atc_line (st2022_format_from_name
          ("1080i50"), VMI_ANC_ATC_VITC2), 571);
  fail_unless_equals_int (vmi_anc_atc_line (st2022_format_from_name
          ("525i59.94"), VMI_ANC_ATC_VITC1), 12);
  fail_unless_equals_int (vmi_anc_atc_line (st2022_format_from_name
          ("525i59.94"), VMI_ANC_ATC_VITC2), 275);
  fail_unless_equals_int (vmi_anc_atc_line (st2022_format_from_name
          ("625i50"), VMI_ANC_ATC_VITC1), 8);
  fail_unless_equals_int (vmi_anc_atc_line (st2022_format_from_name
          ("625i50"), VMI_ANC_ATC_VITC2), 321);
  fail_unless_equals_int (vmi_anc_atc_line (st2022_format_from_name
          ("720p50"), VMI_ANC_ATC_VITC2), 9);
  p.sdid = 0x61;
  fail_unless_equals_int (vmi_anc_atc_parse (&p, &back),
      VMI_ANC_ERROR_WRONG_TYPE);
}

GST_END_TEST;

/* ---- CDP ----------------------------------------------------------- */

GST_START_TEST (test_cdp)
{
  guint8 cc[6] = { 0xfc, 0x94, 0x2c, 0xfd, 0x80, 0x80 };
  guint8 cdp[256];
  guint i, sum = 0;
  int n;
  VmiAncPacket p;

  n = vmi_anc_cdp_from_cc_data (cc, 6, 30000, 1001, 0x1234, cdp, 256);
  /* header 7 + ccdata id/count 2 + 20 triplets + footer 4 */
  fail_unless_equals_int (n, 73);
  fail_unless_equals_int (cdp[0], 0x96);
  fail_unless_equals_int (cdp[1], 0x69);
  fail_unless_equals_int (cdp[2], 73);
  fail_unless_equals_int (cdp[3], 0x4f);
  fail_unless_equals_int (cdp[5], 0x12);
  fail_unless_equals_int (cdp[6], 0x34);
  fail_unless_equals_int (cdp[7], 0x72);
  fail_unless_equals_int (cdp[8], 0xe0 | 20);
  fail_unless (memcmp (cdp + 9, cc, 6) == 0);
  fail_unless_equals_int (cdp[15], 0xfa);
  fail_unless_equals_int (cdp[69], 0x74);
  for (i = 0; i < 73; i++)
    sum += cdp[i];
  fail_unless_equals_int (sum % 256, 0);
  fail_unless_equals_int (vmi_anc_cdp_from_cc_data (cc, 6, 50, 1, 0, cdp,
          256), 7 + 2 + 36 + 4);
  fail_unless (vmi_anc_cdp_from_cc_data (cc, 6, 13, 1, 0, cdp, 256) < 0);
  fail_unless_equals_int (vmi_anc_cdp_build (cdp, 73, &p), 0);
  fail_unless_equals_int (p.did, 0x61);
  fail_unless_equals_int (p.sdid, 0x01);
  fail_unless_equals_int (p.dc, 73);
}

GST_END_TEST;

/* ---- audio --------------------------------------------------------- */

GST_START_TEST (test_audio_distribution)
{
  const St2022Format *f;
  guint64 k;
  guint sum;

  f = st2022_format_from_name ("1080i59.94");
  fail_unless_equals_int (vmi_anc_audio_sequence_length (f), 5);
  fail_unless_equals_int (vmi_anc_audio_frame_samples (f, 0), 1602);
  fail_unless_equals_int (vmi_anc_audio_frame_samples (f, 1), 1601);
  fail_unless_equals_int (vmi_anc_audio_frame_samples (f, 2), 1602);
  fail_unless_equals_int (vmi_anc_audio_frame_samples (f, 3), 1601);
  fail_unless_equals_int (vmi_anc_audio_frame_samples (f, 4), 1602);
  for (k = 0, sum = 0; k < 5; k++)
    sum += vmi_anc_audio_frame_samples (f, k + 10);
  fail_unless_equals_int (sum, 8008);
  f = st2022_format_from_name ("720p59.94");
  for (k = 0, sum = 0; k < 5; k++)
    sum += vmi_anc_audio_frame_samples (f, k);
  fail_unless_equals_int (sum, 4004);
  fail_unless_equals_int (vmi_anc_audio_frame_samples
      (st2022_format_from_name ("720p50"), 3), 960);
  fail_unless_equals_int (vmi_anc_audio_frame_samples
      (st2022_format_from_name ("1080i50"), 3), 1920);
  fail_unless_equals_int (vmi_anc_audio_frame_samples
      (st2022_format_from_name ("1080p23.98"), 3), 2002);
  fail_unless_equals_int (vmi_anc_audio_sequence_length
      (st2022_format_from_name ("1080p23.98")), 1);
}

GST_END_TEST;

/* Clock phase words (ST 299-1) on the continuous 48 kHz grid, worked out
 * here from time instead of the sequence: global sample s sits at
 * (s + a / nf) / 48000 s, frame f starts at f * fps_d / fps_n s, and the
 * video clock runs at F * fps_n / fps_d (F = lines * samples per line);
 * a / nf is 2/5 of a sample period at 30000/1001, 0 elsewhere. */
typedef struct
{
  guint line, clk;
} Phase;

static Phase
ref_phase (const St2022Format * f, guint64 s, guint64 frame, guint a,
    guint nf)
{
  guint64 fc = (guint64) f->total_lines * f->samples_per_line;
  /* ((s * nf + a) / (48000 * nf) - frame * fps_d / fps_n) * fc * fps_n /
   * fps_d, over a common denominator */
  guint64 num = (s * nf + a) * fc * f->fps_n -
      frame * fc * f->fps_d * 48000 * nf;
  guint64 t = num / ((guint64) 48000 * nf * f->fps_d);
  Phase ph = { (guint) (t / f->samples_per_line) + 1,
    (guint) (t % f->samples_per_line)
  };
  return ph;
}

/* (line, clock word) of the first, second and last sample of each frame of
 * the sequence; frames 5-9 repeat frames 0-4 (the grid meets the same
 * frame start every 5 frames), which the test checks over 10 frames.  The
 * 1125-line 30000/1001 rasters (1080i59.94, 1080p29.97) share one. */
static const Phase phase_1125_2997[5][3] = {
  {{1, 618}, {1, 2163}, {1125, 1890}}, {{1, 1236}, {2, 581}, {1125, 963}},
  {{1, 309}, {1, 1854}, {1125, 1581}}, {{1, 927}, {2, 272}, {1125, 654}},
  {{1, 0}, {1, 1545}, {1125, 1272}},
};

static const Phase phase_750_5994[5][3] = {
  {{1, 0}, {1, 1545}, {750, 413}}, {{1, 309}, {2, 204}, {750, 722}},
  {{1, 618}, {2, 513}, {750, 1031}}, {{1, 927}, {2, 822}, {750, 1340}},
  {{1, 1236}, {2, 1131}, {750, 104}},
};

static const Phase phase_1125_25[1][3] = {
  {{1, 0}, {1, 1546}, {1125, 1093}},
};

static const struct
{
  const char *name;
  guint a, nf;
  const Phase (*p)[3];
} phase_table[] = {
  {"1080i59.94", 2, 5, phase_1125_2997},
  {"720p59.94", 0, 5, phase_750_5994},
  {"1080p29.97", 2, 5, phase_1125_2997},
  {"1080i50", 0, 1, phase_1125_25},
};

GST_START_TEST (test_audio_clock_phase)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (phase_table); i++) {
    const St2022Format *f = st2022_format_from_name (phase_table[i].name);
    guint64 frame, s = 0;
    guint line, clk, prev_t = 0;

    fail_unless (f != NULL);
    for (frame = 0; frame < 10; frame++) {
      guint n = vmi_anc_audio_frame_samples (f, frame), k;
      const Phase *want = phase_table[i].p[frame % phase_table[i].nf];

      for (k = 0; k < n; k++, s++) {
        Phase r = ref_phase (f, s, frame, phase_table[i].a,
            phase_table[i].nf);
        guint t;

        fail_unless_equals_int (vmi_anc_audio_sample_phase (f, frame, k,
                &line, &clk), VMI_ANC_OK);
        fail_unless (line == r.line && clk == r.clk,
            "%s frame %" G_GUINT64_FORMAT " sample %u: line %u clk %u, "
            "want %u %u", f->name, frame, k, line, clk, r.line, r.clk);
        /* every instant lies inside its frame, one period after the last */
        fail_unless (line >= 1 && line <= f->total_lines);
        t = (line - 1) * f->samples_per_line + clk;
        if (k > 0)
          fail_unless (t - prev_t >= 1545 && t - prev_t <= 1547);
        prev_t = t;
        if (k == 0 || k == 1 || k == n - 1) {
          const Phase *w = &want[k == 0 ? 0 : k == 1 ? 1 : 2];

          fail_unless (line == w->line && clk == w->clk,
              "%s frame %" G_GUINT64_FORMAT " sample %u: line %u clk %u, "
              "table %u %u", f->name, frame, k, line, clk, w->line, w->clk);
        }
      }
      fail_unless (vmi_anc_audio_sample_phase (f, frame, n, &line,
              &clk) < 0);
    }
  }
}

GST_END_TEST;

/* A packet's line and clock phase word name its sample (the receiver
 * places the samples of a frame that lost its first datagrams by it): on
 * its instant's line, and (MPF) on the next; a phase between samples, a
 * line past the raster or a clock word past the line name none */
GST_START_TEST (test_audio_sample_at)
{
  const char *names[] = { "720p50", "1080i59.94", "720p59.94", "1080p25",
    "1080psf23.98"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    const St2022Format *f = st2022_format_from_name (names[i]);
    guint64 frame;

    fail_unless (f != NULL, "%s", names[i]);
    for (frame = 0; frame < 5; frame++) {
      guint n = vmi_anc_audio_frame_samples (f, frame), k, line, clk;

      for (k = 0; k < n; k++) {
        fail_unless_equals_int (vmi_anc_audio_sample_phase (f, frame, k,
                &line, &clk), VMI_ANC_OK);
        fail_unless_equals_int (vmi_anc_audio_sample_at (f, frame, line, clk,
                FALSE), (int) k);
        if (line < f->total_lines)
          fail_unless_equals_int (vmi_anc_audio_sample_at (f, frame,
                  line + 1, clk, TRUE), (int) k);
        if (clk + 1 < f->samples_per_line)
          fail_unless_equals_int (vmi_anc_audio_sample_at (f, frame, line,
                  clk + 1, FALSE), -1);
      }
      fail_unless_equals_int (vmi_anc_audio_sample_at (f, frame,
              f->total_lines + 1, 0, FALSE), -1);
      fail_unless_equals_int (vmi_anc_audio_sample_at (f, frame, 1,
              f->samples_per_line, FALSE), -1);
    }
  }
  fail_unless_equals_int (vmi_anc_audio_sample_at (NULL, 0, 1, 0, FALSE),
      -1);
}

GST_END_TEST;

/* remainder of M(x) * x^6 / (x^6+x^5+x^3+x^2+x+1) for bit lane @k */
static guint8
ref_ecc_lane (const guint8 * bytes, guint n, guint k)
{
  guint64 m = 0;
  guint i;
  const guint64 g = 0x6f;       /* 1101111 */

  for (i = 0; i < n; i++)
    m = m << 1 | ((bytes[i] >> k) & 1);
  m <<= 6;
  for (i = n + 6; i-- > 6;)
    if (m & (1ull << i))
      m ^= g << (i - 6);
  return (guint8) m;            /* 6 bits: x^5 first */
}

GST_START_TEST (test_audio_packet)
{
  VmiAncAudioData a = { 0 }, b;
  VmiAncPacket p;
  guint8 bytes[24], ecc[6];
  guint i, k;

  a.group = 2;
  a.dbn = 77;
  a.clk = 0x1abc;
  a.mpf = TRUE;
  a.samples[0] = -1;
  a.samples[1] = 0x123456;
  a.samples[2] = -0x800000;
  a.samples[3] = 0x7fffff;
  a.z = 1;
  a.c = 1;
  vmi_anc_audio_data_build (&a, &p);
  fail_unless_equals_int (p.did, 0xE5);
  fail_unless_equals_int (p.sdid, 77);
  fail_unless_equals_int (p.dc, 24);
  /* UDW0/1: clock phase, MPF */
  fail_unless_equals_int (p.udw[0], ref_word (0xbc));
  fail_unless_equals_int (p.udw[1], ref_word (0x0a | 0x10 | 0x20));
  /* channel 2 = 0x123456: aux nibble 6 in b7-4, then 0x45, 0x23, 0x1 */
  fail_unless_equals_int (p.udw[6] & 0xff, 0x60);
  fail_unless_equals_int (p.udw[7] & 0xff, 0x45);
  fail_unless_equals_int (p.udw[8] & 0xff, 0x23);
  /* 0x1 | C (b6) | P: bits 4-30 hold 2+3+3+1 ones + C = 10: P = 0 */
  fail_unless_equals_int (p.udw[9] & 0xff, 0x01 | 0x40);
  /* channel 1 = -1: all ones, Z, C: 24 + 1 = 25 ones: P = 1 */
  fail_unless_equals_int (p.udw[5] & 0xff, 0x0f | 0x40 | 0x80);
  /* Z only on channel 1 and 3 */
  fail_unless_equals_int ((p.udw[2] >> 3) & 1, 1);
  fail_unless_equals_int ((p.udw[6] >> 3) & 1, 0);
  fail_unless_equals_int ((p.udw[10] >> 3) & 1, 1);

  bytes[0] = 0;
  bytes[1] = bytes[2] = 0xff;
  bytes[3] = 0xE5;
  bytes[4] = 77;
  bytes[5] = 24;
  for (i = 0; i < 18; i++)
    bytes[6 + i] = p.udw[i] & 0xff;
  memset (ecc, 0, 6);
  for (k = 0; k < 8; k++) {
    guint8 r = ref_ecc_lane (bytes, 24, k);
    for (i = 0; i < 6; i++)
      ecc[i] |= ((r >> (5 - i)) & 1) << k;
  }
  for (i = 0; i < 6; i++)
    fail_unless_equals_int (p.udw[18 + i] & 0xff, ecc[i]);

  fail_unless_equals_int (vmi_anc_audio_data_parse (&p, &b), 0);
  fail_unless_equals_int (b.group, 2);
  fail_unless_equals_int (b.dbn, 77);
  fail_unless_equals_int (b.clk, 0x1abc);
  fail_unless (b.mpf);
  for (i = 0; i < 4; i++)
    fail_unless_equals_int (b.samples[i], a.samples[i]);
  p.udw[20] ^= 1;
  fail_unless_equals_int (vmi_anc_audio_data_parse (&p, &b),
      VMI_ANC_ERROR_ECC);
}

GST_END_TEST;

/* ---- raster -------------------------------------------------------- */

GST_START_TEST (test_raster_place_and_crc)
{
  const St2022Format *fmt = st2022_format_from_name ("1080i59.94");
  St2022RasterWriter *rw;
  guint8 *raster = blank_raster (fmt, &rw);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  VmiAncPacket p, atc;
  VmiAncTimecode tc = { 1, 2, 3, 4, FALSE, FALSE, VMI_ANC_ATC_VITC1, 0 };
  St2022RasterCheck chk = { 0 };
  guint16 ref[32];
  guint8 d[4] = { 0x85, 0x06, 0x00, 0x01 };
  guint n, i;

  vmi_anc_st352_build (fmt, &p);
  vmi_anc_atc_build (&tc, &atc);
  fail_unless_equals_int (vmi_anc_writer_begin (w, raster, fmt->frame_bytes),
      0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 10, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_Y, &p), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 572, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_Y, &p), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 9, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &atc), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 9, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &atc), 0);
  fail_unless_equals_int (vmi_anc_writer_used (w, 9, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y), 46);
  /* no VANC on picture lines nor on the last line */
  fail_unless_equals_int (vmi_anc_writer_add (w, 21, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &atc), VMI_ANC_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (vmi_anc_writer_add (w, 1125, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &atc), VMI_ANC_ERROR_INVALID_ARGUMENT);

  /* before the CRC fix line 10's Y CRC is stale */
  st2022_raster_check (fmt, raster, fmt->frame_bytes, NULL, &chk);
  fail_unless_equals_int (chk.crc_errors, 1);
  fail_unless_equals_int (vmi_anc_writer_end (w), 0);
  memset (&chk, 0, sizeof (chk));
  st2022_raster_check (fmt, raster, fmt->frame_bytes, NULL, &chk);
  fail_unless_equals_int (chk.crc_errors, 0);
  fail_unless_equals_int (chk.trs_errors, 0);
  fail_unless_equals_int (chk.ln_errors, 0);

  /* the payload ID in the Y words right after CRC, C untouched */
  n = ref_packet (0x41, 0x01, d, 4, ref);
  for (i = 0; i < n; i++) {
    fail_unless_equals_int (ref_raster_word (fmt, raster, 10, 17 + 2 * i),
        ref[i]);
    fail_unless_equals_int (ref_raster_word (fmt, raster, 572, 17 + 2 * i),
        ref[i]);
    fail_unless_equals_int (ref_raster_word (fmt, raster, 10, 16 + 2 * i),
        0x200);
  }
  fail_unless_equals_int (ref_raster_word (fmt, raster, 10, 17 + 2 * n),
      0x040);
  /* the ATC right after SAV of line 9 (active starts at word 560) */
  fail_unless_equals_int (ref_raster_word (fmt, raster, 9, 561), 0x000);
  fail_unless_equals_int (ref_raster_word (fmt, raster, 9, 563), 0x3ff);
  fail_unless_equals_int (ref_raster_word (fmt, raster, 9, 567), 0x260);

  /* a later frame through the same raster writer: blank again, CRC right */
  st2022_raster_writer_free (rw);
  vmi_anc_writer_free (w);
  g_free (raster);
}

GST_END_TEST;

typedef struct
{
  guint n;
  VmiAncPacket p[64];
} Found;

static void
collect (gpointer user, const VmiAncPacket * p)
{
  Found *f = user;

  if (f->n < 64)
    f->p[f->n++] = *p;
}

GST_START_TEST (test_raster_read)
{
  const St2022Format *fmt = st2022_format_from_name ("720p50");
  guint8 *raster = blank_raster (fmt, NULL);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  VmiAncPacket p, cdp;
  VmiAncReadStats st = { 0 };
  Found *f = g_new0 (Found, 1);
  guint8 data[100];
  guint32 *missing;
  guint i;
  gsize off;

  for (i = 0; i < 100; i++)
    data[i] = i;
  vmi_anc_st352_build (fmt, &p);
  vmi_anc_cdp_build (data, 100, &cdp);
  vmi_anc_writer_begin (w, raster, fmt->frame_bytes);
  fail_unless_equals_int (vmi_anc_writer_add (w, 10, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_Y, &p), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 12, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &cdp), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 11, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_C, &p), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 11, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_C, &p), 0);
  vmi_anc_writer_end (w);

  fail_unless_equals_int (vmi_anc_read_frame (fmt, raster, fmt->frame_bytes,
          NULL, &st, collect, f), 0);
  fail_unless_equals_int (st.packets, 4);
  fail_unless_equals_int (f->n, 4);
  fail_unless_equals_int (f->p[0].line, 10);
  fail_unless_equals_int (f->p[0].space, VMI_ANC_HANC);
  fail_unless_equals_int (f->p[0].channel, VMI_ANC_CHANNEL_Y);
  fail_unless_equals_int (f->p[0].did, 0x41);
  fail_unless_equals_int (f->p[0].udw[1] & 0xff, 0xC9);
  /* line 11 VANC C channel, then line 12 VANC Y */
  fail_unless_equals_int (f->p[1].channel, VMI_ANC_CHANNEL_C);
  fail_unless_equals_int (f->p[1].offset, 0);
  fail_unless_equals_int (f->p[2].offset, 11);
  fail_unless_equals_int (f->p[3].did, 0x61);
  fail_unless_equals_int (f->p[3].dc, 100);
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (f->p[3].udw[i] & 0xff, i);

  /* a flipped bit in the CDP: dropped and counted, the rest still found */
  /* byte 41: low bits of C word 32, high bits of Y word 33 (CDP word 16) */
  off = (gsize) 11 * fmt->line_bytes + fmt->active_offset + 41;
  raster[off] ^= 0x01;
  memset (&st, 0, sizeof (st));
  f->n = 0;
  vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, NULL, &st, collect, f);
  fail_unless_equals_int (st.packets, 3);
  fail_unless_equals_int (st.checksum_errors, 1);
  raster[off] ^= 0x01;

  /* the datagram holding line 10's HANC start is missing: not read */
  missing = g_new0 (guint32, (fmt->datagrams_per_frame + 31) / 32);
  off = (gsize) 9 * fmt->line_bytes + 20;
  missing[off / 1376 / 32] |= 1u << (off / 1376 % 32);
  memset (&st, 0, sizeof (st));
  f->n = 0;
  vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, missing, &st, collect,
      f);
  fail_unless_equals_int (st.packets, 3);
  fail_unless_equals_int (f->p[0].line, 11);
  /* the datagram holding the end of the CDP (not its start): lost */
  memset (missing, 0, (fmt->datagrams_per_frame + 31) / 32 * 4);
  off = (gsize) 11 * fmt->line_bytes + fmt->active_offset + 260;
  fail_unless (off / 1376 != (off - 260) / 1376);
  missing[off / 1376 / 32] |= 1u << (off / 1376 % 32);
  memset (&st, 0, sizeof (st));
  vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, missing, &st, NULL,
      NULL);
  fail_unless_equals_int (st.lost, 1);

  g_free (missing);
  g_free (f);
  vmi_anc_writer_free (w);
  g_free (raster);
}

GST_END_TEST;


/* ---- SD: one multiplexed word stream ------------------------------- */

static void
sd_place_and_read (const char *name, guint id_line, guint id_line2,
    guint8 b2, guint16 cs)
{
  const St2022Format *fmt = st2022_format_from_name (name);
  guint8 *raster = blank_raster (fmt, NULL);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  VmiAncPacket p, cdp, atc;
  VmiAncTimecode tc = { 1, 2, 3, 4, FALSE, FALSE, VMI_ANC_ATC_VITC1, 0 };
  VmiAncReadStats st = { 0 };
  St2022RasterCheck chk = { 0 };
  Found *f = g_new0 (Found, 1);
  /* ST 352 for 525i59.94 (81 06 00 01) / 625i50 (81 05 00 01), worked
   * out by hand: parity in b8/b9, checksum of b0-b8 */
  const guint16 want[11] = { 0x000, 0x3ff, 0x3ff, 0x241, 0x101, 0x104,
    0x281, 0x200 | b2, 0x200, 0x101, cs
  };
  guint16 ref[VMI_ANC_MAX_WORDS];
  guint8 data[100];
  guint32 *missing;
  guint hanc = fmt->total_lines == 525 ? 268 : 280, vline, i, n;
  gsize off;

  fail_unless (w != NULL);
  fail_unless_equals_int (vmi_anc_space_words (fmt, id_line, VMI_ANC_HANC),
      hanc);
  /* the whole active area of a blanking line, none on a picture line */
  fail_unless_equals_int (vmi_anc_space_words (fmt, id_line, VMI_ANC_VANC),
      1440);
  fail_unless_equals_int (vmi_anc_space_words (fmt, 100, VMI_ANC_VANC), 0);

  for (i = 0; i < 100; i++)
    data[i] = 200 - i;
  vmi_anc_st352_build (fmt, &p);
  vmi_anc_cdp_build (data, 100, &cdp);
  vmi_anc_atc_build (&tc, &atc);
  /* the last line of the frame if it is blanking (625), else line 1 */
  vline = st2022_format_line_to_row (fmt, fmt->total_lines) < 0 ?
      fmt->total_lines : 1;
  fail_unless_equals_int (vmi_anc_writer_begin (w, raster, fmt->frame_bytes),
      0);
  /* the channel does not matter on SD: one stream */
  fail_unless_equals_int (vmi_anc_writer_add (w, id_line, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_Y, &p), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, id_line, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_C, &atc), 0);
  fail_unless_equals_int (vmi_anc_writer_used (w, id_line, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_C), 11 + 23);
  fail_unless_equals_int (vmi_anc_writer_add (w, id_line2, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_Y, &p), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, vline, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &cdp), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, 100, VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &cdp), VMI_ANC_ERROR_INVALID_ARGUMENT);
  /* HANC holds 34 + 2 * 107 = 248 words, not a third CDP */
  fail_unless_equals_int (vmi_anc_writer_add (w, id_line, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_C, &cdp), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, id_line, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_C, &cdp), 0);
  fail_unless_equals_int (vmi_anc_writer_add (w, id_line, VMI_ANC_HANC,
          VMI_ANC_CHANNEL_C, &cdp), VMI_ANC_ERROR_NO_SPACE);
  fail_unless_equals_int (vmi_anc_writer_end (w), 0);

  /* consecutive words right after the 4-word EAV, then blanking */
  n = ref_packet (0x41, 0x01, (const guint8[]) {
      0x81, b2, 0x00, 0x01}, 4, ref);
  fail_unless_equals_int (n, 11);
  for (i = 0; i < 11; i++) {
    fail_unless_equals_int (ref[i], want[i]);
    fail_unless_equals_int (ref_raster_word (fmt, raster, id_line, 4 + i),
        want[i]);
    fail_unless_equals_int (ref_raster_word (fmt, raster, id_line2, 4 + i),
        want[i]);
  }
  /* EAV untouched, ATC next, blanking after the packets of line 2 */
  fail_unless_equals_int (ref_raster_word (fmt, raster, id_line, 0), 0x3ff);
  fail_unless_equals_int (ref_raster_word (fmt, raster, id_line, 3),
      ref_raster_word (fmt, raster, id_line - 1, 3));
  fail_unless_equals_int (ref_raster_word (fmt, raster, id_line, 15), 0x000);
  fail_unless_equals_int (ref_raster_word (fmt, raster, id_line, 18), 0x260);
  fail_unless_equals_int (ref_raster_word (fmt, raster, id_line2, 15),
      0x040);
  fail_unless_equals_int (ref_raster_word (fmt, raster, id_line2, 16),
      0x200);
  /* the CDP at the first word after SAV */
  off = (fmt->samples_per_line - fmt->width) * 2;
  fail_unless_equals_int (ref_raster_word (fmt, raster, vline, off - 4),
      0x3ff);
  fail_unless_equals_int (ref_raster_word (fmt, raster, vline, off + 3),
      0x161);
  fail_unless_equals_int (ref_raster_word (fmt, raster, vline, off + 6),
      ref_word (200));
  fail_unless_equals_int (ref_raster_word (fmt, raster, vline, off + 107),
      0x040);
  fail_unless_equals_int (ref_raster_word (fmt, raster, vline, off + 108),
      0x200);
  /* TRS and XYZ of every line still right */
  st2022_raster_check (fmt, raster, fmt->frame_bytes, NULL, &chk);
  fail_unless_equals_int (chk.trs_errors, 0);

  fail_unless_equals_int (vmi_anc_read_frame (fmt, raster, fmt->frame_bytes,
          NULL, &st, collect, f), 0);
  fail_unless_equals_int (st.packets, 6);
  fail_unless_equals_int (st.checksum_errors, 0);
  fail_unless_equals_int (f->n, 6);
  i = vline < id_line ? 1 : 0;
  if (i) {
    fail_unless_equals_int (f->p[0].line, 1);
    fail_unless_equals_int (f->p[0].space, VMI_ANC_VANC);
  }
  fail_unless_equals_int (f->p[i].line, id_line);
  fail_unless_equals_int (f->p[i].space, VMI_ANC_HANC);
  fail_unless_equals_int (f->p[i].channel, VMI_ANC_CHANNEL_C);
  fail_unless_equals_int (f->p[i].offset, 0);
  fail_unless_equals_int (f->p[i].did, 0x41);
  fail_unless_equals_int (f->p[i].udw[1] & 0xff, b2);
  fail_unless_equals_int (f->p[i + 1].offset, 11);
  fail_unless_equals_int (vmi_anc_atc_parse (&f->p[i + 1], &tc), 0);
  fail_unless_equals_int (tc.frames, 4);
  fail_unless_equals_int (f->p[i + 2].offset, 34);
  fail_unless_equals_int (f->p[i + 3].offset, 141);
  fail_unless_equals_int (f->p[i + 3].dc, 100);
  fail_unless_equals_int (f->p[i + 4].line, id_line2);
  n = vline < id_line ? 0 : 5;
  fail_unless_equals_int (f->p[n].line, vline);
  fail_unless_equals_int (f->p[n].space, VMI_ANC_VANC);
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (f->p[n].udw[i] & 0xff, 200 - i);

  /* one flipped UDW bit in the second line's payload ID: dropped, counted */
  off = (gsize) (id_line2 - 1) * fmt->line_bytes + 8;   /* words 6-7 */
  raster[off] ^= 0x01;
  memset (&st, 0, sizeof (st));
  vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, NULL, &st, NULL, NULL);
  fail_unless_equals_int (st.packets, 5);
  fail_unless_equals_int (st.checksum_errors, 1);
  raster[off] ^= 0x01;

  /* the datagram holding the start of the second payload ID line: that
   * line's HANC is not read, the rest is */
  missing = g_new0 (guint32, (fmt->datagrams_per_frame + 31) / 32);
  off = (gsize) (id_line2 - 1) * fmt->line_bytes + 5;
  missing[off / 1376 / 32] |= 1u << (off / 1376 % 32);
  memset (&st, 0, sizeof (st));
  f->n = 0;
  vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, missing, &st, collect,
      f);
  fail_unless_equals_int (st.packets, 5);
  fail_unless_equals_int (st.lost, 0);
  for (i = 0; i < f->n; i++)
    fail_unless (f->p[i].line != id_line2);

  g_free (missing);
  g_free (f);
  vmi_anc_writer_free (w);
  g_free (raster);
}

GST_START_TEST (test_sd_raster_525)
{
  sd_place_and_read ("525i59.94", 13, 276, 0x06, 0x1ce);
}

GST_END_TEST;

GST_START_TEST (test_sd_raster_625)
{
  sd_place_and_read ("625i50", 9, 322, 0x05, 0x1cd);
}

GST_END_TEST;

/* ---- depacketizer side buffer -------------------------------------- */

typedef struct
{
  const St2022Format *fmt;
  guint8 *pic, *blank;
  gsize stride;
  guint ended;
  guint32 *dirty;               /* St2022Target.blank_dirty, or NULL */
  guint64 packets[4];           /* per frame, read with the map */
} DepayCtx;

static gboolean
depay_begin (gpointer user, const St2022Format * fmt,
    const St2022Header * hdr, St2022Target * t)
{
  DepayCtx *c = user;

  t->type = ST2022_TARGET_UYVP;
  t->data = c->pic;
  t->stride = c->stride;
  t->size = c->stride * fmt->height;
  t->blank = c->blank;
  t->blank_size = fmt->frame_bytes;
  t->blank_dirty = c->dirty;
  return TRUE;
}

static void
depay_end (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  DepayCtx *c = user;

  fail_unless (info->complete);
  c->ended++;
}

/* one frame of @raster through the packetizer into the depacketizer */
static void
depay_push_frame (St2022Packetizer * pk, St2022Depacketizer * dp,
    const guint8 * raster, const St2022Format * fmt, guint32 ts)
{
  St2022Datagram dg[64];
  guint8 buf[ST2022_DATAGRAM_SIZE];
  int n, i;

  st2022_packetizer_begin_frame (pk, raster, fmt->frame_bytes, ts);
  while ((n = st2022_packetizer_next (pk, dg, 64)) > 0) {
    for (i = 0; i < n; i++) {
      memcpy (buf, dg[i].header, dg[i].header_len);
      memcpy (buf + dg[i].header_len, dg[i].payload, dg[i].payload_len);
      st2022_depacketizer_push (dp, buf, dg[i].header_len +
          dg[i].payload_len, 0);
    }
  }
}

GST_START_TEST (test_depacketizer_blank)
{
  const St2022Format *fmt = st2022_format_from_name ("1080i50");
  St2022RasterWriter *rw;
  guint8 *raster = blank_raster (fmt, &rw);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  St2022PacketizerConfig cfg;
  St2022Packetizer *pk;
  St2022DepacketizerCallbacks cb = { depay_begin, depay_end, NULL };
  St2022Depacketizer *dp;
  DepayCtx c = { 0 };
  VmiAncPacket p;
  VmiAncReadStats st = { 0 };
  Found *f = g_new0 (Found, 1);
  guint8 *pic_ref;
  gsize off;
  guint line, frame;

  c.fmt = fmt;
  c.stride = fmt->active_bytes;
  c.pic = g_malloc0 (c.stride * fmt->height);
  c.blank = g_malloc0 (fmt->frame_bytes);
  pic_ref = g_malloc (c.stride * fmt->height);
  vmi_anc_st352_build (fmt, &p);
  vmi_anc_writer_begin (w, raster, fmt->frame_bytes);
  vmi_anc_writer_add (w, 10, VMI_ANC_HANC, VMI_ANC_CHANNEL_Y, &p);
  vmi_anc_writer_add (w, 572, VMI_ANC_HANC, VMI_ANC_CHANNEL_Y, &p);
  vmi_anc_writer_add (w, 561, VMI_ANC_VANC, VMI_ANC_CHANNEL_C, &p);
  vmi_anc_writer_end (w);
  st2022_raster_read (fmt, raster, fmt->frame_bytes, ST2022_PIXEL_UYVP,
      pic_ref, c.stride);

  st2022_packetizer_config_init (&cfg);
  cfg.ssrc = 1;
  pk = st2022_packetizer_new (fmt, &cfg);
  dp = st2022_depacketizer_new (&cb, &c);
  /* two frames: the first one's start is only guessed */
  for (frame = 0; frame < 2; frame++)
    depay_push_frame (pk, dp, raster, fmt, frame * 1000);
  st2022_depacketizer_flush (dp);
  fail_unless_equals_int (c.ended, 2);
  fail_unless (memcmp (c.pic, pic_ref, c.stride * fmt->height) == 0);
  /* every non-picture byte is in the side buffer */
  for (line = 1; line <= fmt->total_lines; line++) {
    off = (gsize) (line - 1) * fmt->line_bytes;
    if (st2022_format_line_to_row (fmt, line) >= 0)
      fail_unless (memcmp (c.blank + off, raster + off, fmt->active_offset)
          == 0, "line %u", line);
    else
      fail_unless (memcmp (c.blank + off, raster + off, fmt->line_bytes)
          == 0, "line %u", line);
  }
  vmi_anc_read_frame (fmt, c.blank, fmt->frame_bytes, NULL, &st, collect, f);
  fail_unless_equals_int (st.packets, 3);
  fail_unless_equals_int (f->p[0].line, 10);
  fail_unless_equals_int (f->p[1].line, 561);
  fail_unless_equals_int (f->p[2].line, 572);

  st2022_depacketizer_free (dp);
  st2022_packetizer_free (pk);
  st2022_raster_writer_free (rw);
  vmi_anc_writer_free (w);
  g_free (raster);
  g_free (c.pic);
  g_free (c.blank);
  g_free (pic_ref);
  g_free (f);
}

GST_END_TEST;

/* the side buffer read as st2022src does, with the map, and without: the
 * same packets */
static void
depay_end_read (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  DepayCtx *c = user;
  VmiAncReadStats all = { 0 }, mapped = { 0 };

  fail_unless (info->complete);
  vmi_anc_read_frame (c->fmt, t->blank, c->fmt->frame_bytes, NULL, &all,
      NULL, NULL);
  vmi_anc_read_frame_full (c->fmt, t->blank, c->fmt->frame_bytes, NULL,
      c->dirty, &mapped, NULL, NULL);
  fail_unless_equals_int (mapped.packets, all.packets);
  fail_unless_equals_int (mapped.checksum_errors, all.checksum_errors);
  if (c->ended < G_N_ELEMENTS (c->packets))
    c->packets[c->ended] = mapped.packets;
  c->ended++;
}

/* With the blank_dirty map: frames with packets, without, and with again
 * give the same packets whether the reader uses the map or not; the
 * spaces of datagrams that brought blank fill are not read (a packet
 * planted there in the buffer is found only without the map) */
GST_START_TEST (test_depacketizer_blank_dirty)
{
  const St2022Format *fmt = st2022_format_from_name ("1080i50");
  St2022RasterWriter *rw[2];
  guint8 *raster[2] = { blank_raster (fmt, &rw[0]), blank_raster (fmt,
        &rw[1])
  };
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  St2022PacketizerConfig cfg;
  St2022Packetizer *pk;
  St2022DepacketizerCallbacks cb = { depay_begin, depay_end_read, NULL };
  St2022Depacketizer *dp;
  DepayCtx c = { 0 };
  VmiAncPacket p;
  VmiAncReadStats st = { 0 };
  guint words = (fmt->datagrams_per_frame + 31) / 32, sp0, sp1;
  static const guint order[] = { 0, 1, 0, 1 };
  guint frame;

  c.fmt = fmt;
  c.stride = fmt->active_bytes;
  c.pic = g_malloc0 (c.stride * fmt->height);
  c.blank = g_malloc0 (fmt->frame_bytes);
  c.dirty = g_malloc (words * 4);
  memset (c.dirty, 0xff, words * 4);
  vmi_anc_st352_build (fmt, &p);
  vmi_anc_writer_begin (w, raster[0], fmt->frame_bytes);
  vmi_anc_writer_add (w, 10, VMI_ANC_HANC, VMI_ANC_CHANNEL_Y, &p);
  vmi_anc_writer_add (w, 572, VMI_ANC_HANC, VMI_ANC_CHANNEL_Y, &p);
  vmi_anc_writer_add (w, 561, VMI_ANC_VANC, VMI_ANC_CHANNEL_C, &p);
  vmi_anc_writer_end (w);

  st2022_packetizer_config_init (&cfg);
  cfg.ssrc = 1;
  pk = st2022_packetizer_new (fmt, &cfg);
  dp = st2022_depacketizer_new (&cb, &c);
  for (frame = 0; frame < G_N_ELEMENTS (order); frame++)
    depay_push_frame (pk, dp, raster[order[frame]], fmt, frame * 1000);
  st2022_depacketizer_flush (dp);
  fail_unless_equals_int (c.ended, 4);
  fail_unless_equals_int (c.packets[0], 3);
  fail_unless_equals_int (c.packets[1], 0);
  fail_unless_equals_int (c.packets[2], 3);
  fail_unless_equals_int (c.packets[3], 0);

  /* line 10's packet planted in line 100's HANC, where blank fill came */
  st2022_format_anc_space (fmt, FALSE, &sp0, &sp1);
  memcpy (c.blank + 99 * fmt->line_bytes + sp0 / 4 * 5,
      raster[0] + 9 * fmt->line_bytes + sp0 / 4 * 5, (sp1 - sp0) * 10 / 8);
  vmi_anc_read_frame (fmt, c.blank, fmt->frame_bytes, NULL, &st, NULL, NULL);
  fail_unless_equals_int (st.packets, 1);
  memset (&st, 0, sizeof (st));
  vmi_anc_read_frame_full (fmt, c.blank, fmt->frame_bytes, NULL, c.dirty,
      &st, NULL, NULL);
  fail_unless_equals_int (st.packets, 0);

  st2022_depacketizer_free (dp);
  st2022_packetizer_free (pk);
  st2022_raster_writer_free (rw[0]);
  st2022_raster_writer_free (rw[1]);
  vmi_anc_writer_free (w);
  g_free (raster[0]);
  g_free (raster[1]);
  g_free (c.pic);
  g_free (c.blank);
  g_free (c.dirty);
}

GST_END_TEST;

/* ---- audio through the raster -------------------------------------- */

typedef struct
{
  VmiAncAudioRx *rx;
  guint data, control;
  guint max_per_line;
  guint line, on_line;
  gboolean interlaced;
  guint mpf_clear;
} AudioCollect;

static void
audio_cb (gpointer user, const VmiAncPacket * p)
{
  AudioCollect *c = user;
  VmiAncAudioData a;
  VmiAncAudioControl ctl;

  if (vmi_anc_audio_data_parse (p, &a) == 0) {
    fail_unless_equals_int (p->channel, VMI_ANC_CHANNEL_C);
    fail_unless_equals_int (p->space, VMI_ANC_HANC);
    fail_unless (p->line != 8 && !(c->interlaced && p->line == 570),
        "line %u", p->line);
    if (!a.mpf)
      c->mpf_clear++;
    if (a.group == 0) {
      c->on_line = p->line == c->line ? c->on_line + 1 : 1;
      c->line = p->line;
      c->max_per_line = MAX (c->max_per_line, c->on_line);
    }
    vmi_anc_audio_rx_push_data (c->rx, &a);
    c->data++;
  } else if (vmi_anc_audio_control_parse (p, &ctl) == 0) {
    fail_unless_equals_int (p->channel, VMI_ANC_CHANNEL_Y);
    fail_unless (p->line == 9 || p->line == 571);
    vmi_anc_audio_rx_push_control (c->rx, &ctl);
    c->control++;
  }
}

static void
audio_round_trip (const char *name, guint channels)
{
  const St2022Format *fmt = st2022_format_from_name (name);
  St2022RasterWriter *rw;
  guint8 *raster = blank_raster (fmt, &rw);
  gsize stride = st2022_picture_min_stride (fmt, ST2022_PIXEL_UYVP);
  guint8 *pic = g_malloc0 (stride * fmt->height);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  VmiAncAudioTx tx;
  AudioCollect c = { 0 };
  gint32 *in = g_new (gint32, 2048 * channels);
  gint32 *out = g_new (gint32, 2048 * channels);
  guint32 *missing = g_new0 (guint32, (fmt->datagrams_per_frame + 31) / 32);
  guint frame, i, n, got, concealed, groups = (channels + 3) / 4;
  guint64 serial = 0;

  c.rx = vmi_anc_audio_rx_new ();
  c.interlaced = fmt->interlaced;
  vmi_anc_audio_tx_init (&tx);
  for (frame = 0; frame < 7; frame++) {
    St2022RasterCheck chk = { 0 };
    guint lost_datagram = 0, expect_concealed = 0;

    n = vmi_anc_audio_frame_samples (fmt, frame);
    for (i = 0; i < n * channels; i++, serial++)
      in[i] = (gint32) ((serial * 2654435761u) & 0xffffff) - 0x800000;
    st2022_raster_writer_write (rw, raster, fmt->frame_bytes,
        ST2022_PIXEL_UYVP, pic, stride);
    vmi_anc_writer_begin (w, raster, fmt->frame_bytes);
    fail_unless_equals_int (vmi_anc_audio_tx_frame (&tx, w, in, n, channels),
        0);
    vmi_anc_writer_end (w);
    st2022_raster_check (fmt, raster, fmt->frame_bytes, NULL, &chk);
    fail_unless_equals_int (chk.crc_errors, 0);

    memset (missing, 0, (fmt->datagrams_per_frame + 31) / 32 * 4);
    if (frame == 3 || frame == 5) {
      /* lose the datagram holding the HANC of line 300 (frame 3) or of
       * the very first line (frame 5) */
      guint line = frame == 3 ? 300 : 1;
      /* (its place on the wire: 720p23.98/24's lines are not whole
       * bytes there) */
      lost_datagram = st2022_raster_wire_offset (fmt,
          (gsize) (line - 1) * fmt->line_bytes + 40) / 1376;
      missing[lost_datagram / 32] |= 1u << (lost_datagram % 32);
    }
    c.max_per_line = 0;
    c.line = 0;
    vmi_anc_audio_rx_begin_frame (c.rx);
    vmi_anc_read_frame (fmt, raster, fmt->frame_bytes,
        lost_datagram || frame == 3 || frame == 5 ? missing : NULL, NULL,
        audio_cb, &c);
    /* a line carries the samples its time holds (1 or 2) plus those
     * held back from a full line or the line after a switching point */
    fail_unless (c.max_per_line <= 2 * ((fmt->samples_per_line + 1544) /
            1545), "%u", c.max_per_line);
    /* clock words and lines agree with the 48 kHz grid */
    fail_unless_equals_int (vmi_anc_audio_rx_check_phase (c.rx, fmt, frame),
        0);
    fail_unless_equals_int (vmi_anc_audio_rx_channels (c.rx), channels);
    if (vmi_anc_audio_sequence_length (fmt) > 1)
      fail_unless_equals_int (vmi_anc_audio_rx_frame_number (c.rx),
          frame % 5 + 1);
    got = vmi_anc_audio_rx_end_frame (c.rx, (frame == 3 || frame == 5) ? n : 0,
        channels, out, 2048, &concealed);
    fail_unless_equals_int (got, n);
    for (i = 0; i < n; i++) {
      guint ch;
      gboolean zero = TRUE;

      for (ch = 0; ch < channels; ch++)
        if (out[i * channels + ch] != 0)
          zero = FALSE;
      if (zero && (frame == 3 || frame == 5)) {
        expect_concealed++;
        continue;
      }
      for (ch = 0; ch < channels; ch++)
        fail_unless_equals_int (out[i * channels + ch], in[i * channels + ch]);
    }
    if (frame == 3 || frame == 5) {
      /* a lost datagram of a line's HANC takes up to 2 samples' packets
       * (line 1 always carries sample 0) */
      fail_unless (concealed <= 3, "%u", concealed);
      if (frame == 5)
        fail_unless (concealed >= 1);
      fail_unless_equals_int (concealed, expect_concealed);
    } else {
      fail_unless_equals_int (concealed, 0);
    }
  }
  /* every frame: one control packet per group and field */
  fail_unless_equals_int (c.control, 7 * groups * (fmt->interlaced ? 2 : 1));
  vmi_anc_audio_rx_free (c.rx);
  vmi_anc_writer_free (w);
  st2022_raster_writer_free (rw);
  g_free (raster);
  g_free (pic);
  g_free (in);
  g_free (out);
  g_free (missing);
}

typedef struct
{
  VmiAncAudioRx *rx;
  guint data, mpf, tamper_clk, tamper_line;
} PhaseCollect;

static void
phase_cb (gpointer user, const VmiAncPacket * p)
{
  PhaseCollect *c = user;
  VmiAncAudioData a;

  if (vmi_anc_audio_data_parse (p, &a) != 0)
    return;
  fail_unless_equals_int (a.line, p->line);
  if (a.mpf)
    c->mpf++;
  /* the receiver must catch a clock word one off, and a packet moved a
   * line away without MPF */
  if (c->data == c->tamper_clk)
    a.clk ^= 1;
  if (c->data == c->tamper_line)
    a.line++;
  c->data++;
  vmi_anc_audio_rx_push_data (c->rx, &a);
}

/* 1080i59.94, 16 channels: ten frames through the raster, the receiver
 * checks every clock word; held-back samples (line 8, 570, full lines)
 * carry MPF */
GST_START_TEST (test_audio_phase_check)
{
  const St2022Format *fmt = st2022_format_from_name ("1080i59.94");
  St2022RasterWriter *rw;
  guint8 *raster = blank_raster (fmt, &rw);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  VmiAncAudioTx tx;
  PhaseCollect c = { 0 };
  gint32 *in = g_new0 (gint32, 2048 * 16);
  gsize stride = st2022_picture_min_stride (fmt, ST2022_PIXEL_UYVP);
  guint8 *pic = g_malloc0 (stride * fmt->height);
  guint frame;

  c.rx = vmi_anc_audio_rx_new ();
  vmi_anc_audio_tx_init (&tx);
  for (frame = 0; frame < 10; frame++) {
    guint n = vmi_anc_audio_frame_samples (fmt, frame);
    gint32 out[4];
    guint concealed;

    fail_unless_equals_int (st2022_raster_writer_write (rw, raster,
            fmt->frame_bytes, ST2022_PIXEL_UYVP, pic, stride), 0);
    vmi_anc_writer_begin (w, raster, fmt->frame_bytes);
    fail_unless_equals_int (vmi_anc_audio_tx_frame (&tx, w, in, n, 16), 0);
    vmi_anc_writer_end (w);
    /* a wrong count is refused */
    fail_unless (vmi_anc_audio_tx_frame (&tx, w, in, n + 1, 16) < 0);

    c.data = c.mpf = 0;
    c.tamper_clk = c.tamper_line = G_MAXUINT;
    if (frame == 7) {
      c.tamper_clk = 100;
      c.tamper_line = 2000;
    }
    vmi_anc_audio_rx_begin_frame (c.rx);
    vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, NULL, NULL, phase_cb,
        &c);
    fail_unless_equals_int (c.data, 4 * n);
    /* both fields' post-switching lines hold back 1 or 2 samples each */
    fail_unless (c.mpf >= 4 * 2, "%u", c.mpf);
    fail_unless_equals_int (vmi_anc_audio_rx_check_phase (c.rx, fmt, frame),
        frame == 7 ? 2 : 0);
    /* checked against the wrong place in the sequence, most words differ */
    fail_unless (vmi_anc_audio_rx_check_phase (c.rx, fmt, frame + 1) >
        4 * 1000);
    vmi_anc_audio_rx_end_frame (c.rx, 0, 4, out, 1, &concealed);
  }
  vmi_anc_audio_rx_free (c.rx);
  vmi_anc_writer_free (w);
  st2022_raster_writer_free (rw);
  g_free (raster);
  g_free (pic);
  g_free (in);
}

GST_END_TEST;

GST_START_TEST (test_audio_raster_1080i5994_2ch)
{
  audio_round_trip ("1080i59.94", 2);
}

GST_END_TEST;

GST_START_TEST (test_audio_raster_720p50_16ch)
{
  audio_round_trip ("720p50", 16);
}

GST_END_TEST;

/* ---- ST 272 SD audio ------------------------------------------------ */

GST_START_TEST (test_sd_audio_packet)
{
  VmiAncSdAudio a = { 0 }, b;
  VmiAncPacket p, q;
  guint16 w[32];
  /* worked out by hand: 0x123456 → 20 bits 0x12345, Z and C set;
   * -0x100000 → 0xF0000 */
  const guint16 want[13] = { 0x000, 0x3ff, 0x3ff, 0x2ff, 0x101, 0x206,
    0x229, 0x28d, 0x182, 0x203, 0x200, 0x19e, 0x1df
  };
  guint i;

  a.group = 0;
  a.dbn = 1;
  a.n = 1;
  a.channels = 2;
  a.samples[0][0] = 0x123456;
  a.samples[0][1] = -0x100000;
  a.z[0] = 1;
  a.c[0] = 1;
  fail_unless_equals_int (vmi_anc_sd_audio_build (&a, &p), 0);
  fail_unless_equals_int (vmi_anc_packet_to_words (&p, w, 32), 13);
  for (i = 0; i < 13; i++)
    fail_unless_equals_int (w[i], want[i]);
  fail_unless_equals_int (vmi_anc_packet_parse (w, 13, &q), 13);
  fail_unless_equals_int (vmi_anc_sd_audio_parse (&q, &b), 0);
  fail_unless_equals_int (b.group, 0);
  fail_unless_equals_int (b.n, 1);
  fail_unless_equals_int (b.channels, 2);
  /* the 4 low bits are not carried */
  fail_unless_equals_int (b.samples[0][0], 0x123450);
  fail_unless_equals_int (b.samples[0][1], -0x100000);
  fail_unless_equals_int (b.z[0], 1);
  fail_unless_equals_int (b.c[0], 1);

  /* group 4 is DID F9 (word 2F9) */
  a.group = 3;
  vmi_anc_sd_audio_build (&a, &p);
  vmi_anc_packet_to_words (&p, w, 32);
  fail_unless_equals_int (w[3], 0x2f9);
  /* a flipped audio bit with its checksum fixed: the AES3 parity says so */
  q.udw[1] ^= 0x001;
  fail_unless_equals_int (vmi_anc_sd_audio_parse (&q, &b),
      VMI_ANC_ERROR_PARITY);
  /* not audio */
  vmi_anc_st352_build (st2022_format_from_name ("525i59.94"), &q);
  fail_unless_equals_int (vmi_anc_sd_audio_parse (&q, &b),
      VMI_ANC_ERROR_WRONG_TYPE);
}

GST_END_TEST;

static void
sd_audio_cb (gpointer user, const VmiAncPacket * p)
{
  AudioCollect *c = user;
  VmiAncSdAudio a;

  fail_unless_equals_int (p->space, VMI_ANC_HANC);
  fail_unless_equals_int (vmi_anc_sd_audio_parse (p, &a), 0);
  fail_unless (a.n <= 4, "%u samples on line %u", a.n, p->line);
  /* none on the line after a switching point (c->line: the format's
   * line count here) */
  if (c->line == 525)
    fail_if (p->line == 11 || p->line == 274);
  else
    fail_if (p->line == 7 || p->line == 320);
  vmi_anc_audio_rx_push_sd (c->rx, &a);
}

static void
sd_audio_round_trip (const char *name, guint channels)
{
  const St2022Format *fmt = st2022_format_from_name (name);
  St2022RasterWriter *rw;
  guint8 *raster = blank_raster (fmt, &rw);
  gsize stride = st2022_picture_min_stride (fmt, ST2022_PIXEL_UYVP);
  guint8 *pic = g_malloc0 (stride * fmt->height);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  VmiAncAudioTx tx;
  AudioCollect c = { 0 };
  gint32 *in = g_new (gint32, 2048 * channels);
  gint32 *out = g_new (gint32, 2048 * channels);
  guint frame, i, n, got, concealed;
  guint64 serial = 0;

  c.rx = vmi_anc_audio_rx_new ();
  c.line = fmt->total_lines;
  vmi_anc_audio_tx_init (&tx);
  for (frame = 0; frame < 7; frame++) {
    St2022RasterCheck chk = { 0 };
    VmiAncReadStats st = { 0 };

    n = vmi_anc_audio_frame_samples (fmt, frame);
    fail_unless_equals_int (n, fmt->total_lines == 525 ?
        (frame % 5 % 2 ? 1601 : 1602) : 1920);
    /* 20-bit values (ST 272 without the auxiliary bits) */
    for (i = 0; i < n * channels; i++, serial++)
      in[i] = (gint32) (((serial * 2654435761u) & 0xffffff) - 0x800000) &
          ~0xf;
    st2022_raster_writer_write (rw, raster, fmt->frame_bytes,
        ST2022_PIXEL_UYVP, pic, stride);
    vmi_anc_writer_begin (w, raster, fmt->frame_bytes);
    fail_unless_equals_int (vmi_anc_sd_audio_tx_frame (&tx, w, in, n,
            channels), 0);
    vmi_anc_writer_end (w);
    st2022_raster_check (fmt, raster, fmt->frame_bytes, NULL, &chk);
    fail_unless_equals_int (chk.trs_errors, 0);

    vmi_anc_audio_rx_begin_frame (c.rx);
    vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, NULL, &st,
        sd_audio_cb, &c);
    /* one packet per group on each of the lines but two */
    fail_unless_equals_int (st.packets, (fmt->total_lines - 2) *
        ((channels + 3) / 4));
    fail_unless_equals_int (st.checksum_errors, 0);
    fail_unless_equals_int (vmi_anc_audio_rx_channels (c.rx), channels);
    got = vmi_anc_audio_rx_end_frame (c.rx, 0, channels, out, 2048,
        &concealed);
    fail_unless_equals_int (got, n);
    fail_unless_equals_int (concealed, 0);
    for (i = 0; i < n * channels; i++)
      fail_unless_equals_int (out[i], in[i]);
  }
  vmi_anc_audio_rx_free (c.rx);
  st2022_raster_writer_free (rw);
  vmi_anc_writer_free (w);
  g_free (raster);
  g_free (pic);
  g_free (in);
  g_free (out);
}

/* Each sample's line, in order (group 1), from a read without loss */
typedef struct
{
  guint n;
  guint16 line[2048];
  guint8 arrived[626];          /* lines whose group 1 packet was read */
} SdLines;

static void
sd_lines_cb (gpointer user, const VmiAncPacket * p)
{
  SdLines *l = user;
  VmiAncSdAudio a;
  guint i;

  if (vmi_anc_sd_audio_parse (p, &a) != 0 || a.group != 0)
    return;
  l->arrived[p->line] = 1;
  for (i = 0; i < a.n && l->n < 2048; i++)
    l->line[l->n++] = (guint16) p->line;
}

/* ST 272 after loss: datagrams lost at a frame's end (the last line's
 * packets), in its middle and at its start; the samples of every packet
 * the reader could not read are silence at their own place, every other
 * sample is where it was sent. */
static void
sd_audio_loss (const char *name, guint channels)
{
  const St2022Format *fmt = st2022_format_from_name (name);
  St2022RasterWriter *rw;
  guint8 *raster = blank_raster (fmt, &rw);
  gsize stride = st2022_picture_min_stride (fmt, ST2022_PIXEL_UYVP);
  guint8 *pic = g_malloc0 (stride * fmt->height);
  VmiAncWriter *w = vmi_anc_writer_new (fmt);
  VmiAncAudioTx tx;
  AudioCollect c = { 0 };
  gint32 *in = g_new (gint32, 2048 * channels);
  gint32 *out = g_new (gint32, 2048 * channels);
  guint32 *map = g_new0 (guint32, (fmt->datagrams_per_frame + 31) / 32);
  SdLines *full = g_new0 (SdLines, 1), *lossy = g_new0 (SdLines, 1);
  /* the datagram holding the start of the last line's HANC */
  guint last = (guint) (((gsize) (fmt->total_lines - 1) * fmt->line_bytes +
          5) / ST2022_PAYLOAD_SIZE);
  const gint drops[6][4] = { {-1}, {last, -1}, {400, 401, 402, -1}, {-1},
  {0, -1}, {-1}
  };
  guint frame, i, n, got, concealed, silent, ch;
  guint64 serial = 0;

  c.rx = vmi_anc_audio_rx_new ();
  c.line = fmt->total_lines;
  vmi_anc_audio_tx_init (&tx);
  for (frame = 0; frame < 6; frame++) {
    VmiAncReadStats st = { 0 };

    n = vmi_anc_audio_frame_samples (fmt, frame);
    for (i = 0; i < n * channels; i++, serial++)
      in[i] = (gint32) (((serial * 2654435761u) & 0xffffff) - 0x800000) &
          ~0xf;
    st2022_raster_writer_write (rw, raster, fmt->frame_bytes,
        ST2022_PIXEL_UYVP, pic, stride);
    vmi_anc_writer_begin (w, raster, fmt->frame_bytes);
    fail_unless_equals_int (vmi_anc_sd_audio_tx_frame (&tx, w, in, n,
            channels), 0);
    vmi_anc_writer_end (w);

    memset (map, 0, (fmt->datagrams_per_frame + 31) / 32 * 4);
    for (i = 0; drops[frame][i] >= 0; i++)
      map[drops[frame][i] / 32] |= 1u << (drops[frame][i] % 32);
    memset (full, 0, sizeof (*full));
    memset (lossy, 0, sizeof (*lossy));
    vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, NULL, NULL,
        sd_lines_cb, full);
    fail_unless_equals_int (full->n, n);
    vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, map, NULL,
        sd_lines_cb, lossy);

    vmi_anc_audio_rx_begin_frame (c.rx);
    vmi_anc_read_frame (fmt, raster, fmt->frame_bytes, drops[frame][0] >= 0 ?
        map : NULL, &st, sd_audio_cb, &c);
    got = vmi_anc_audio_rx_end_frame (c.rx, drops[frame][0] >= 0 ? n : 0,
        channels, out, 2048, &concealed);
    fail_unless_equals_int (got, n);
    silent = 0;
    for (i = 0; i < n; i++) {
      gboolean lost = !lossy->arrived[full->line[i]];

      silent += lost;
      for (ch = 0; ch < channels; ch++)
        fail_unless_equals_int (out[i * channels + ch], lost ? 0 :
            in[i * channels + ch]);
    }
    fail_unless_equals_int (concealed, silent);
    /* each loss took some samples */
    fail_unless ((silent > 0) == (drops[frame][0] >= 0), "%s frame %u: %u "
        "samples lost", name, frame, silent);
  }
  vmi_anc_audio_rx_free (c.rx);
  st2022_raster_writer_free (rw);
  vmi_anc_writer_free (w);
  g_free (raster);
  g_free (pic);
  g_free (in);
  g_free (out);
  g_free (map);
  g_free (full);
  g_free (lossy);
}

GST_START_TEST (test_sd_audio_loss)
{
  sd_audio_loss ("525i59.94", 2);
  sd_audio_loss ("625i50", 6);
  sd_audio_loss ("525i59.94", 16);
}

GST_END_TEST;

GST_START_TEST (test_sd_audio_raster)
{
  sd_audio_round_trip ("525i59.94", 2);
  sd_audio_round_trip ("625i50", 2);
  sd_audio_round_trip ("525i59.94", 16);
  sd_audio_round_trip ("625i50", 6);
}

GST_END_TEST;

GST_START_TEST (test_audio_raster_all_formats)
{
  guint i;

  for (i = 0; i < st2022_format_count (); i++) {
    const St2022Format *f = st2022_format_get (i);
    /* C-channel HANC words of a line: two 16-channel samples (8 packets
     * of 31 words) need 248; 2048 samples in 2200 leave 140 */
    guint hanc = vmi_anc_space_words (f, 1, VMI_ANC_HANC);
    guint8 dummy[4] = { 0 };

    if (f->sd) {
      /* ST 299-1 is HD's: SD refuses rather than writing nonsense */
      VmiAncWriter *w = vmi_anc_writer_new (f);
      VmiAncAudioTx tx;

      fail_unless_equals_int (hanc, f->total_lines == 525 ? 268 : 280);
      vmi_anc_audio_tx_init (&tx);
      fail_unless_equals_int (vmi_anc_audio_tx_frame (&tx, w, NULL, 0, 2),
          VMI_ANC_ERROR_INVALID_ARGUMENT);
      fail_unless_equals_int (vmi_anc_read_frame (f, dummy, 4, NULL, NULL,
              NULL, NULL), VMI_ANC_ERROR_SHORT);
      vmi_anc_writer_free (w);
      continue;
    }
    if (hanc >= 8 * 31) {
      audio_round_trip (f->name, 16);
    } else {
      St2022RasterWriter *rw;
      guint8 *raster = blank_raster (f, &rw);
      VmiAncWriter *w = vmi_anc_writer_new (f);
      VmiAncAudioTx tx;
      gint32 *in = g_new0 (gint32, 2048 * 16);

      fail_unless_equals_int (hanc, 140);
      /* 16 channels do not fit: said so, not half done */
      vmi_anc_audio_tx_init (&tx);
      vmi_anc_writer_begin (w, raster, f->frame_bytes);
      fail_unless_equals_int (vmi_anc_audio_tx_frame (&tx, w, in,
              vmi_anc_audio_frame_samples (f, 0), 16),
          VMI_ANC_ERROR_NO_SPACE);
      vmi_anc_writer_free (w);
      st2022_raster_writer_free (rw);
      g_free (raster);
      g_free (in);
      audio_round_trip (f->name, 8);
    }
  }
}

GST_END_TEST;

static Suite *
anc_suite (void)
{
  Suite *s = suite_create ("anc-core");
  TCase *tc = tcase_create ("core");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parity_and_checksum);
  tcase_add_test (tc, test_parse_errors);
  tcase_add_test (tc, test_st352_all_formats);
  tcase_add_test (tc, test_atc);
  tcase_add_test (tc, test_cdp);
  tcase_add_test (tc, test_audio_distribution);
  tcase_add_test (tc, test_audio_clock_phase);
  tcase_add_test (tc, test_audio_sample_at);
  tcase_add_test (tc, test_audio_phase_check);
  tcase_add_test (tc, test_audio_packet);
  tcase_add_test (tc, test_raster_place_and_crc);
  tcase_add_test (tc, test_raster_read);
  tcase_add_test (tc, test_sd_raster_525);
  tcase_add_test (tc, test_sd_raster_625);
  tcase_add_test (tc, test_sd_audio_packet);
  tcase_add_test (tc, test_sd_audio_raster);
  tcase_add_test (tc, test_sd_audio_loss);
  tcase_add_test (tc, test_depacketizer_blank);
  tcase_add_test (tc, test_depacketizer_blank_dirty);
  tcase_add_test (tc, test_audio_raster_1080i5994_2ch);
  tcase_add_test (tc, test_audio_raster_720p50_16ch);
  /* 34 formats, 7 frames each: more than the default 30 s under ASan */
  tc = tcase_create ("all-formats");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_audio_raster_all_formats);
  return s;
}

GST_CHECK_MAIN (anc);
