/* gst-vmi: unit tests of the ST 2022-6 core: formats, SDI words, CRC-18,
 * RTP/HBRMT headers
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022.h"
#include "st2022-crc-ref.h"

GST_START_TEST (test_format_table)
{
  const St2022Format *f;
  guint i;

  fail_unless (st2022_format_count () >= 14);
  fail_unless (st2022_format_get (st2022_format_count ()) == NULL);

  f = st2022_format_from_name ("1080i59.94");
  fail_unless (f != NULL);
  fail_unless_equals_int (f->frame_code, 0x20);
  fail_unless_equals_int (f->frate_code, 0x17);
  fail_unless_equals_int (f->sample_code, 0x1);
  fail_unless_equals_int (f->cf_code, 3);
  fail_unless_equals_int (f->width, 1920);
  fail_unless_equals_int (f->height, 1080);
  fail_unless (f->interlaced);
  fail_unless_equals_int (f->fps_n, 30000);
  fail_unless_equals_int (f->fps_d, 1001);
  fail_unless_equals_int (f->total_lines, 1125);
  fail_unless_equals_int (f->samples_per_line, 2200);
  fail_unless_equals_int (f->active_first[0], 21);
  fail_unless_equals_int (f->active_last[0], 560);
  fail_unless_equals_int (f->active_first[1], 584);
  fail_unless_equals_int (f->active_last[1], 1123);
  fail_unless_equals_int (f->line_bytes, 5500);
  fail_unless_equals_int (f->active_offset, 700);
  fail_unless_equals_int (f->active_bytes, 4800);
  fail_unless_equals_uint64 (f->frame_bytes, 6187500);
  fail_unless_equals_int (f->datagrams_per_frame, 4497);
  fail_unless_equals_int (f->last_payload_bytes, 1004);
  fail_unless_equals_int (ST2022_PAYLOAD_SIZE - f->last_payload_bytes, 372);
  fail_unless_equals_int (f->vts_increment, 4950000);
  fail_unless_equals_int (f->rtp_ts_increment, 900900);

  f = st2022_format_from_name ("1080i50");
  fail_unless_equals_uint64 (f->frame_bytes, 7425000);
  fail_unless_equals_int (f->datagrams_per_frame, 5397);
  fail_unless_equals_int (f->last_payload_bytes, 104);
  fail_unless_equals_int (f->cf_code, 2);
  fail_unless_equals_int (f->rtp_ts_increment, 1080000);
  fail_unless_equals_int (f->vts_increment, 5940000);

  f = st2022_format_from_name ("1080P24");      /* case-insensitive */
  fail_unless_equals_uint64 (f->frame_bytes, 7734375);
  fail_unless_equals_int (f->datagrams_per_frame, 5621);
  fail_unless_equals_int (f->last_payload_bytes, 1255);
  fail_unless_equals_int (f->active_first[0], 42);
  fail_unless_equals_int (f->active_last[0], 1121);

  f = st2022_format_from_name ("1080p23.98");
  fail_unless_equals_int (f->rtp_ts_increment, 1126125);
  fail_unless_equals_int (f->vts_increment, 1125 * 2750 * 2);

  f = st2022_format_from_name ("1080p59.94");
  fail_unless (f->level_a_3g);
  fail_unless_equals_int (f->frate_code, 0x11);
  fail_unless_equals_int (f->cf_code, 5);
  fail_unless_equals_int (f->datagrams_per_frame, 4497);
  fail_unless_equals_int (f->rtp_ts_increment, 450450);

  f = st2022_format_from_name ("1080p50");
  fail_unless_equals_int (f->datagrams_per_frame, 5397);
  fail_unless_equals_int (f->cf_code, 4);

  f = st2022_format_from_name ("720p59.94");
  fail_unless_equals_uint64 (f->frame_bytes, 3093750);
  fail_unless_equals_int (f->datagrams_per_frame, 2249);
  fail_unless_equals_int (f->last_payload_bytes, 502);
  fail_unless_equals_int (f->active_first[0], 26);
  fail_unless_equals_int (f->active_last[0], 745);
  fail_unless_equals_int (f->active_offset, 925);

  /* the rasters this table added for ST 2022-6's other formats, numbers
   * from ST 296 / 274 / 2048-2 worked out by hand */
  f = st2022_format_from_name ("720p25");
  fail_unless_equals_int (f->samples_per_line, 3960);
  fail_unless_equals_uint64 (f->frame_bytes, 7425000);
  fail_unless_equals_int (f->datagrams_per_frame, 5397);
  fail_unless_equals_int (f->frame_code, 0x30);
  fail_unless_equals_int (f->frate_code, 0x18);
  f = st2022_format_from_name ("720p29.97");
  fail_unless_equals_int (f->samples_per_line, 3300);
  fail_unless_equals_int (f->datagrams_per_frame, 4497);
  fail_unless_equals_int (f->cf_code, 3);
  fail_unless_equals_int (f->vts_increment, 750 * 3300 * 2);
  f = st2022_format_from_name ("1080PsF23.98");
  fail_unless (f->psf && f->interlaced);
  fail_unless_equals_int (f->frame_code, 0x22);
  fail_unless_equals_int (f->frate_code, 0x1B);
  fail_unless_equals_int (f->samples_per_line, 2750);
  fail_unless_equals_int (f->field2_first_line, 564);
  fail_unless_equals_int (f->active_first[1], 584);
  fail_unless_equals_int (f->datagrams_per_frame, 5621);
  fail_unless_equals_int (f->rtp_ts_increment, 1126125);
  f = st2022_format_from_name ("2048p24");
  fail_unless_equals_int (f->frame_code, 0x23);
  fail_unless_equals_int (f->width, 2048);
  fail_unless_equals_int (f->active_offset, 1755);
  fail_unless_equals_int (f->active_bytes, 5120);
  f = st2022_format_from_name ("2048p47.95");
  fail_unless (f->level_a_3g);
  fail_unless_equals_int (f->frate_code, 0x15);
  fail_unless_equals_int (f->cf_code, 5);
  fail_unless_equals_int (f->rtp_ts_increment, 563062);
  f = st2022_format_from_name ("2048PsF30");
  fail_unless_equals_int (f->frame_code, 0x24);
  fail_unless_equals_int (f->samples_per_line, 2200);
  fail_unless_equals_int (f->datagrams_per_frame, 4497);
  /* the segmented twin st2022sink's psf=true sends */
  fail_unless (st2022_format_psf_of (st2022_format_from_name ("1080i50")) ==
      st2022_format_from_name ("1080PsF25"));
  fail_unless (st2022_format_psf_of (st2022_format_from_name ("1080p25")) ==
      st2022_format_from_name ("1080PsF25"));
  fail_unless (st2022_format_psf_of (st2022_format_from_name
          ("1080i59.94")) == st2022_format_from_name ("1080PsF29.97"));
  fail_unless (st2022_format_psf_of (st2022_format_from_name ("1080p30")) ==
      st2022_format_from_name ("1080PsF30"));
  fail_unless (st2022_format_psf_of (st2022_format_from_name
          ("1080p23.98")) == st2022_format_from_name ("1080PsF23.98"));
  fail_unless (st2022_format_psf_of (st2022_format_from_name ("2048p24")) ==
      st2022_format_from_name ("2048PsF24"));
  fail_unless (st2022_format_psf_of (f) == f);
  fail_unless (st2022_format_psf_of (st2022_format_from_name ("1080p50")) ==
      NULL);
  fail_unless (st2022_format_psf_of (st2022_format_from_name ("720p25")) ==
      NULL);
  fail_unless (st2022_format_psf_of (st2022_format_from_name
          ("2048p47.95")) == NULL);
  fail_unless (st2022_format_psf_of (st2022_format_from_name ("525i59.94"))
      == NULL);
  fail_unless (st2022_format_psf_of (NULL) == NULL);
  /* ST 296's 4125 samples a line: 10,312.5 bytes on the wire; in memory
   * a blank pair more (8252 words, 10,315 bytes), the wire's counts from
   * the wire size */
  f = st2022_format_from_name ("720p24");
  fail_unless (f != NULL && f->half_byte_lines && !f->interlaced);
  fail_unless_equals_int (f->frame_code, 0x30);
  fail_unless_equals_int (f->frate_code, 0x1A);
  fail_unless_equals_int (f->cf_code, 2);
  fail_unless_equals_int (f->samples_per_line, 4125);
  fail_unless_equals_int (f->line_words, 8252);
  fail_unless_equals_int (f->line_bytes, 10315);
  fail_unless_equals_int (f->active_offset, 7115);
  fail_unless_equals_uint64 (f->frame_bytes, 7736250);
  fail_unless_equals_uint64 (f->wire_bytes, 7734375);
  fail_unless_equals_int (f->datagrams_per_frame, 5621);
  fail_unless_equals_int (f->last_payload_bytes, 1255);
  fail_unless_equals_int (f->vts_increment, 6187500);
  fail_unless_equals_int (f->rtp_ts_increment, 1125000);
  f = st2022_format_from_codes (0x30, 0x1B, 1);
  fail_unless (f != NULL && f->half_byte_lines);
  fail_unless_equals_string (f->name, "720p23.98");
  fail_unless_equals_int (f->rtp_ts_increment, 1126125);
  fail_unless (st2022_format_from_video (1280, 720, FALSE, 24000, 1001) == f);
  fail_unless (st2022_format_psf_of (f) == NULL);
  /* every other raster is whole bytes: memory and wire agree */
  for (i = 0; i < st2022_format_count (); i++) {
    const St2022Format *g = st2022_format_get (i);
    if (g->half_byte_lines)
      continue;
    fail_unless_equals_int (g->line_words, g->samples_per_line * 2);
    fail_unless_equals_uint64 (g->wire_bytes, g->frame_bytes);
  }

  /* SD (ST 125 / BT.656): 1716 and 1728 words per line */
  f = st2022_format_from_name ("525i59.94");
  fail_unless (f->sd && f->interlaced && f->bottom_field_first);
  fail_unless_equals_int (f->frame_code, 0x10);
  fail_unless_equals_int (f->frate_code, 0x17);
  fail_unless_equals_int (f->cf_code, 1);
  fail_unless_equals_int (f->line_bytes, 2145);
  fail_unless_equals_uint64 (f->frame_bytes, 1126125);
  fail_unless_equals_int (f->datagrams_per_frame, 819);
  fail_unless_equals_int (f->last_payload_bytes, 557);
  fail_unless_equals_int (f->active_offset, 345);
  fail_unless_equals_int (f->vts_increment, 900900);
  fail_unless_equals_int (f->rtp_ts_increment, 900900);
  /* F=1 on 1-3 and 266-525; V=1 on 1-20 and 264-282 */
  fail_unless_equals_int (st2022_format_line_flags (f, 1), 3);
  fail_unless_equals_int (st2022_format_line_flags (f, 3), 3);
  fail_unless_equals_int (st2022_format_line_flags (f, 4), 2);
  fail_unless_equals_int (st2022_format_line_flags (f, 20), 2);
  fail_unless_equals_int (st2022_format_line_flags (f, 21), 0);
  fail_unless_equals_int (st2022_format_line_flags (f, 263), 0);
  fail_unless_equals_int (st2022_format_line_flags (f, 264), 2);
  fail_unless_equals_int (st2022_format_line_flags (f, 265), 2);
  fail_unless_equals_int (st2022_format_line_flags (f, 266), 3);
  fail_unless_equals_int (st2022_format_line_flags (f, 282), 3);
  fail_unless_equals_int (st2022_format_line_flags (f, 283), 1);
  fail_unless_equals_int (st2022_format_line_flags (f, 525), 1);
  /* bottom field first: row 0 is line 283 (field 2), row 1 line 21 */
  fail_unless_equals_int (st2022_format_row_to_line (f, 0), 283);
  fail_unless_equals_int (st2022_format_row_to_line (f, 1), 21);
  fail_unless_equals_int (st2022_format_row_to_line (f, 485), 263);
  fail_unless_equals_int (st2022_format_line_to_row (f, 525), 484);
  f = st2022_format_from_name ("625i50");
  fail_unless (f->sd && f->interlaced && !f->bottom_field_first);
  fail_unless_equals_int (f->frame_code, 0x11);
  fail_unless_equals_int (f->line_bytes, 2160);
  fail_unless_equals_uint64 (f->frame_bytes, 1350000);
  fail_unless_equals_int (f->datagrams_per_frame, 982);
  fail_unless_equals_int (f->last_payload_bytes, 144);
  fail_unless_equals_int (f->vts_increment, 1080000);
  fail_unless_equals_int (st2022_format_line_flags (f, 22), 2);
  fail_unless_equals_int (st2022_format_line_flags (f, 23), 0);
  fail_unless_equals_int (st2022_format_line_flags (f, 311), 2);
  fail_unless_equals_int (st2022_format_line_flags (f, 313), 3);
  fail_unless_equals_int (st2022_format_line_flags (f, 336), 1);
  fail_unless_equals_int (st2022_format_line_flags (f, 624), 3);
  fail_unless_equals_int (st2022_format_row_to_line (f, 0), 23);
  fail_unless_equals_int (st2022_format_row_to_line (f, 1), 336);

  f = st2022_format_from_name ("720p50");
  fail_unless_equals_uint64 (f->frame_bytes, 3712500);
  fail_unless_equals_int (f->datagrams_per_frame, 2699);
  fail_unless_equals_int (f->last_payload_bytes, 52);

  fail_unless (st2022_format_from_name ("1080i61") == NULL);
  fail_unless (st2022_format_from_name (NULL) == NULL);

  /* every entry is self-consistent and found by every lookup */
  for (i = 0; i < st2022_format_count (); i++) {
    const St2022Format *g = st2022_format_get (i);
    guint rows, line;

    fail_unless (st2022_format_from_codes (g->frame_code, g->frate_code,
            g->sample_code) == g, "%s", g->name);
    {
      /* PsF shares its geometry with the interlaced format of its rate
       * where there is one: that one is found first */
      const St2022Format *twin = g;

      if (g->psf && g->width == 1920 && st2022_format_from_codes
          (ST2022_FRAME_1080I, g->frate_code, g->sample_code))
        twin = st2022_format_from_codes (ST2022_FRAME_1080I, g->frate_code,
            g->sample_code);
      /* which are 25, 29.97 and 30 */
      if (twin != g)
        fail_unless (g->fps_n == 25 * g->fps_d || g->fps_d == 1001 ||
            g->fps_n == 30 * g->fps_d, "%s", g->name);
      fail_unless ((twin != g) == (g->psf && g->width == 1920 &&
              g->fps_n * 1001 != 24000 * g->fps_d &&
              g->fps_n != 24 * g->fps_d), "%s", g->name);
      fail_unless (twin != NULL && (twin == g || !twin->psf), "%s", g->name);
      fail_unless (st2022_format_from_video (g->width, g->height,
              g->interlaced, g->fps_n, g->fps_d) == twin, "%s", g->name);
      fail_unless (st2022_format_from_video (g->width, g->height,
              g->interlaced, g->fps_n * 2, g->fps_d * 2) == twin, "%s",
          g->name);
      /* PsF is the interlaced raster: codes aside, the same numbers */
      if (twin != g) {
        fail_unless_equals_int (twin->samples_per_line, g->samples_per_line);
        fail_unless_equals_int (twin->field2_first_line,
            g->field2_first_line);
        fail_unless_equals_int (twin->datagrams_per_frame,
            g->datagrams_per_frame);
      }
    }
    fail_unless_equals_int (g->psf, g->frame_code == ST2022_FRAME_1080PSF ||
        g->frame_code == ST2022_FRAME_2048_1080PSF);
    if (g->psf)
      fail_unless (g->interlaced);
    fail_unless (st2022_format_from_name (g->name) == g);
    fail_unless_equals_uint64 (g->wire_bytes,
        (guint64) g->total_lines * g->samples_per_line * 20 / 8);
    fail_unless_equals_int (g->half_byte_lines, g->samples_per_line % 2);
    fail_unless_equals_int (g->line_words % 4, 0);
    fail_unless_equals_int (g->line_words, g->samples_per_line * 2 +
        (g->half_byte_lines ? 2 : 0));
    fail_unless_equals_uint64 (g->frame_bytes,
        (guint64) g->total_lines * g->line_words * 10 / 8);
    fail_unless_equals_int (g->datagrams_per_frame,
        (g->wire_bytes + 1375) / 1376);
    fail_unless_equals_int (g->last_payload_bytes,
        g->wire_bytes - (g->datagrams_per_frame - 1) * 1376);
    /* the video timestamp clock advances by the frame's word count */
    fail_unless_equals_uint64 ((guint64) g->vts_increment * g->fps_n,
        (guint64) g->total_lines * g->samples_per_line * 2 * g->fps_n);
    /* whole ticks but at 48000/1001 (563062.5: rounded down) */
    fail_unless_equals_uint64 (g->rtp_ts_increment,
        27000000ull * g->fps_d / g->fps_n);
    if (g->fps_n != 48000)
      fail_unless_equals_uint64 ((guint64) g->rtp_ts_increment * g->fps_n,
          27000000ull * g->fps_d);
    /* the last line is vertical blanking (the HD writer relies on it); SD
     * has no CRC to carry and 525's last line is active */
    if (!g->sd)
      fail_unless (st2022_format_line_flags (g, g->total_lines) &
          ST2022_LINE_V);

    /* rows ↔ lines is a bijection between rows and active lines */
    rows = 0;
    for (line = 1; line <= g->total_lines; line++) {
      gint row = st2022_format_line_to_row (g, line);
      if (row >= 0) {
        rows++;
        fail_unless_equals_int (st2022_format_row_to_line (g, row), line);
        fail_if (st2022_format_line_flags (g, line) & ST2022_LINE_V);
      } else {
        fail_unless (st2022_format_line_flags (g, line) & ST2022_LINE_V);
      }
    }
    fail_unless_equals_int (rows, g->height);
    fail_unless_equals_int (st2022_format_row_to_line (g, g->height), 0);
  }

  /* 1080i: rows are woven, F=1 from line 564 */
  f = st2022_format_from_name ("1080i60");
  fail_unless_equals_int (st2022_format_row_to_line (f, 0), 21);
  fail_unless_equals_int (st2022_format_row_to_line (f, 1), 584);
  fail_unless_equals_int (st2022_format_row_to_line (f, 1079), 1123);
  fail_unless_equals_int (st2022_format_line_flags (f, 20), ST2022_LINE_V);
  fail_unless_equals_int (st2022_format_line_flags (f, 21), 0);
  fail_unless_equals_int (st2022_format_line_flags (f, 561), ST2022_LINE_V);
  fail_unless_equals_int (st2022_format_line_flags (f, 563), ST2022_LINE_V);
  fail_unless_equals_int (st2022_format_line_flags (f, 564),
      ST2022_LINE_V | ST2022_LINE_F);
  fail_unless_equals_int (st2022_format_line_flags (f, 584), ST2022_LINE_F);
  fail_unless_equals_int (st2022_format_line_flags (f, 1125),
      ST2022_LINE_V | ST2022_LINE_F);
  fail_unless_equals_int (st2022_format_line_flags (f, 0), 0);
  fail_unless_equals_int (st2022_format_line_flags (f, 1126), 0);

  fail_unless (st2022_format_from_video (1920, 1080, FALSE, 30000, 1001) !=
      st2022_format_from_video (1920, 1080, TRUE, 30000, 1001));
  fail_unless (st2022_format_from_video (1920, 1080, TRUE, 0, 1) == NULL);
  /* 525 at 25 and 625 at 29.97 are no rasters */
  fail_unless (st2022_format_from_codes (0x10, 0x18, 1) == NULL);
  fail_unless (st2022_format_from_codes (0x11, 0x17, 1) == NULL);
  fail_unless (st2022_format_from_codes (0x10, 0x17, 1) ==
      st2022_format_from_name ("525i59.94"));
}

GST_END_TEST;

GST_START_TEST (test_xyz_ln)
{
  /* all 8 F/V/H combinations */
  fail_unless_equals_int (st2022_xyz (0, 0, 0), 0x200);
  fail_unless_equals_int (st2022_xyz (0, 0, 1), 0x274);
  fail_unless_equals_int (st2022_xyz (0, 1, 0), 0x2AC);
  fail_unless_equals_int (st2022_xyz (0, 1, 1), 0x2D8);
  fail_unless_equals_int (st2022_xyz (1, 0, 0), 0x31C);
  fail_unless_equals_int (st2022_xyz (1, 0, 1), 0x368);
  fail_unless_equals_int (st2022_xyz (1, 1, 0), 0x3B0);
  fail_unless_equals_int (st2022_xyz (1, 1, 1), 0x3C4);

  {
    guint16 ln0, ln1;
    st2022_ln_words (1, &ln0, &ln1);
    fail_unless_equals_int (ln0, 0x204);
    fail_unless_equals_int (ln1, 0x200);
    st2022_ln_words (564, &ln0, &ln1);
    fail_unless_equals_int (ln0, 0x2D0);
    fail_unless_equals_int (ln1, 0x210);
    st2022_ln_words (1125, &ln0, &ln1);
    fail_unless_equals_int (ln0, 0x194);
    fail_unless_equals_int (ln1, 0x220);
    st2022_ln_words (750, &ln0, &ln1);
    fail_unless_equals_int (ln0, 0x1B8);        /* 750 & 0x7f = 0x6e: b8 set */
    fail_unless_equals_int (ln1, 0x214);        /* 750 >> 7 = 5 */
  }
}

GST_END_TEST;

GST_START_TEST (test_crc18)
{
  guint16 words[2000];
  guint i;
  guint32 a, b;
  guint16 cr0, cr1;

  /* a realistic line: 1920 active C words of a ramp, then EAV + LN */
  for (i = 0; i < 960; i++)
    words[i] = (guint16) (64 + (i * 7) % 876);
  words[960] = 0x3ff;
  words[961] = 0;
  words[962] = 0;
  words[963] = 0x274;
  words[964] = 0x204;
  words[965] = 0x200;
  a = st2022_crc18_update (0, words, 966);
  b = reference_crc (words, 966);
  fail_unless_equals_int (a, b);
  fail_unless (a != 0);
  /* incremental == one shot */
  fail_unless_equals_int (st2022_crc18_update (st2022_crc18_update (0, words,
              500), words + 500, 466), a);

  /* single words: the register after one word */
  for (i = 0; i < 1024; i++) {
    guint16 w = i;
    fail_unless_equals_int (st2022_crc18_update (0, &w, 1),
        reference_crc (&w, 1));
  }

  /* random data */
  {
    GRand *r = g_rand_new_with_seed (42);
    for (i = 0; i < 2000; i++)
      words[i] = g_rand_int_range (r, 0, 1024);
    fail_unless_equals_int (st2022_crc18_update (0, words, 2000),
        reference_crc (words, 2000));
    g_rand_free (r);
  }

  st2022_crc_words (0x3ffff, &cr0, &cr1);
  fail_unless_equals_int (cr0, 0x1ff);
  fail_unless_equals_int (cr1, 0x1ff);
  st2022_crc_words (0, &cr0, &cr1);
  fail_unless_equals_int (cr0, 0x200);
  fail_unless_equals_int (cr1, 0x200);
  st2022_crc_words (0x00100, &cr0, &cr1);       /* c8 = 1 */
  fail_unless_equals_int (cr0, 0x100);
  fail_unless_equals_int (cr1, 0x200);
  st2022_crc_words (0x20200, &cr0, &cr1);       /* c9, c17 */
  fail_unless_equals_int (cr0, 0x200);
  fail_unless_equals_int (cr1, 0x101);
}

GST_END_TEST;

GST_START_TEST (test_pack_words)
{
  guint16 w[8] = { 0x200, 0x040, 0x200, 0x040, 0x3ff, 0x000, 0x155, 0x2aa };
  guint16 back[8];
  guint8 b[10];

  st2022_pack_words (w, b, 8);
  fail_unless_equals_int (b[0], 0x80);
  fail_unless_equals_int (b[1], 0x04);
  fail_unless_equals_int (b[2], 0x08);
  fail_unless_equals_int (b[3], 0x00);
  fail_unless_equals_int (b[4], 0x40);
  fail_unless_equals_int (b[5], 0xff);
  fail_unless_equals_int (b[6], 0xc0);
  st2022_unpack_words (b, back, 8);
  fail_unless (memcmp (w, back, sizeof (w)) == 0);

  /* video timestamp offsets: words before the first whole sample */
  fail_unless_equals_int (st2022_datagram_vts_offset (0), 0);
  /* 1376 B = 1100.8 words: first whole sample at sample 551 */
  fail_unless_equals_int (st2022_datagram_vts_offset (1), 1102);
  /* 2752 B = 2201.6 words → sample 1101 */
  fail_unless_equals_int (st2022_datagram_vts_offset (2), 2202);
  /* 5 datagrams = 6880 B = 5504 words exactly */
  fail_unless_equals_int (st2022_datagram_vts_offset (5), 5504);
}

GST_END_TEST;

static void
make_header (St2022Header * h, const St2022Format * f)
{
  memset (h, 0, sizeof (*h));
  h->marker = TRUE;
  h->payload_type = 98;
  h->seq = 0xfffe;
  h->rtp_ts = 0x89abcdef;
  h->ssrc = 0x12345678;
  h->f = TRUE;
  h->vsid = 1;
  h->frcount = 0xa5;
  h->ref = 2;
  h->cf = f->cf_code;
  h->frame = f->frame_code;
  h->frate = f->frate_code;
  h->sample = f->sample_code;
  h->vts = 0xdeadbeef;
}

GST_START_TEST (test_header_roundtrip)
{
  guint8 dg[1400];
  guint i;

  for (i = 0; i < st2022_format_count (); i++) {
    const St2022Format *f = st2022_format_get (i);
    St2022Header h, p;
    const guint8 *payload = NULL;
    guint cf;

    for (cf = 0; cf <= 1; cf++) {
      make_header (&h, f);
      if (cf == 0)
        h.cf = 0;
      memset (dg, 0x5a, sizeof (dg));
      fail_unless_equals_int (st2022_header_pack (&h, dg, sizeof (dg)),
          ST2022_OK);
      fail_unless_equals_int (st2022_header_parse (dg,
              st2022_header_size (&h) + 1376, &p, &payload), ST2022_OK);
      fail_unless (payload == dg + st2022_header_size (&h));
      fail_unless (p.format == f);
      fail_unless_equals_int (p.header_len, cf ? 24 : 20);
      fail_unless_equals_int (p.marker, TRUE);
      fail_unless_equals_int (p.payload_type, 98);
      fail_unless_equals_int (p.seq, 0xfffe);
      fail_unless_equals_int (p.rtp_ts, 0x89abcdef);
      fail_unless_equals_int (p.ssrc, 0x12345678);
      fail_unless_equals_int (p.f, TRUE);
      fail_unless_equals_int (p.vsid, 1);
      fail_unless_equals_int (p.frcount, 0xa5);
      fail_unless_equals_int (p.ref, 2);
      fail_unless_equals_int (p.cf, h.cf);
      fail_unless_equals_int (p.frame, f->frame_code);
      fail_unless_equals_int (p.frate, f->frate_code);
      fail_unless_equals_int (p.sample, 1);
      fail_unless_equals_int (p.vts, cf ? 0xdeadbeef : 0);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_header_bytes)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  static const guint8 want[24] = {
    0x80, 0xe2, 0xff, 0xfe, 0x89, 0xab, 0xcd, 0xef, 0x12, 0x34, 0x56, 0x78,
    /* Ext 0 F 1 VSID 1 | FRCount | R=2 S FEC CF[3] | CF[2:0]=3 */
    0x09, 0xa5, 0x80, 0x60,
    /* MAP 0 FRAME 0x20 | FRAME, FRATE 0x17 | FRATE, SAMPLE 1 | 0 */
    0x02, 0x01, 0x71, 0x00,
    0xde, 0xad, 0xbe, 0xef
  };
  St2022Header h;
  guint8 b[24];

  make_header (&h, f);
  fail_unless_equals_int (st2022_header_pack (&h, b, 23),
      ST2022_ERROR_BUFFER_TOO_SMALL);
  fail_unless_equals_int (st2022_header_pack (&h, b, 24), ST2022_OK);
  fail_unless (memcmp (b, want, 24) == 0);
  fail_unless_equals_int (st2022_header_pack (NULL, b, 24),
      ST2022_ERROR_INVALID_ARGUMENT);

  /* CF bit 3 sits in byte 2 bit 0, apart from CF[2:0] (no table format
   * uses CF >= 8, so only a packed value shows the split); the parser
   * reads it back and rejects it */
  h.cf = 0xd;
  h.fec = 0;
  fail_unless_equals_int (st2022_header_pack (&h, b, 24), ST2022_OK);
  fail_unless_equals_int (b[14], 0x81);
  fail_unless_equals_int (b[15], 0xa0);
  {
    guint8 dg[1400] = { 0, };
    St2022Header p;
    memcpy (dg, b, 24);
    fail_unless_equals_int (st2022_header_parse (dg, 1400, &p, NULL),
        ST2022_ERROR_BAD_CF);
    fail_unless_equals_int (p.cf, 0xd);
  }
}

GST_END_TEST;

GST_START_TEST (test_header_malformed)
{
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  St2022Header h, p;
  guint8 good[1400], dg[1400];

  make_header (&h, f);
  st2022_header_pack (&h, good, sizeof (good));
  memset (good + 24, 0x11, 1376);

#define BAD(expr, len, code) do { \
    memcpy (dg, good, sizeof (dg)); \
    expr; \
    fail_unless_equals_int (st2022_header_parse (dg, len, &p, NULL), code); \
  } while (0)

  BAD ((void) 0, 1400, ST2022_OK);
  BAD ((void) 0, 0, ST2022_ERROR_SHORT);
  BAD ((void) 0, 19, ST2022_ERROR_SHORT);
  BAD ((void) 0, 22, ST2022_ERROR_SHORT);       /* CF != 0 but no timestamp */
  BAD (dg[0] = 0x40, 1400, ST2022_ERROR_RTP_VERSION);
  BAD (dg[0] = 0xc0, 1400, ST2022_ERROR_RTP_VERSION);
  BAD (dg[0] = 0xa0, 1400, ST2022_ERROR_RTP_PADDING);
  BAD (dg[0] = 0x90, 1400, ST2022_ERROR_RTP_EXTENSION);
  BAD (dg[0] = 0x81, 1400, ST2022_ERROR_RTP_CSRC);
  BAD (dg[12] |= 0x10, 1400, ST2022_ERROR_HBRMT_EXTENSION);
  BAD (dg[12] &= ~0x08, 1400, ST2022_ERROR_HBRMT_NO_FORMAT);
  BAD (dg[15] = 0xe0, 1400, ST2022_ERROR_BAD_CF);       /* CF = 7 */
  BAD (dg[14] |= 0x01, 1400, ST2022_ERROR_BAD_CF);      /* CF = 11 */
  BAD (dg[16] |= 0x10, 1400, ST2022_ERROR_UNSUPPORTED_MAP);
  BAD ((dg[16] = 0x09, dg[17] = 0x91), 1400, ST2022_ERROR_BAD_FRAME);
  BAD ((dg[17] = 0x09, dg[18] = 0x91), 1400, ST2022_ERROR_BAD_FRATE);
  BAD (dg[18] = 0x72, 1400, ST2022_ERROR_BAD_SAMPLE);
  /* 625 lines at 29.97 */
  BAD ((dg[16] = 0x01, dg[17] = 0x11), 1400, ST2022_ERROR_UNSUPPORTED_FORMAT);
  BAD ((void) 0, 1399, ST2022_ERROR_LENGTH);
  BAD ((void) 0, 1024, ST2022_ERROR_LENGTH);
  /* CF = 0: 20 B header, 1396 B datagram */
  BAD ((dg[14] = 0x80, dg[15] = 0), 1400, ST2022_ERROR_LENGTH);
  BAD ((dg[14] = 0x80, dg[15] = 0), 1396, ST2022_OK);
#undef BAD

  fail_unless_equals_int (st2022_header_parse (NULL, 1400, &p, NULL),
      ST2022_ERROR_INVALID_ARGUMENT);
  fail_unless (strcmp (st2022_result_to_string (ST2022_ERROR_LENGTH),
          "wrong payload length") == 0);
  fail_unless (strcmp (st2022_result_to_string (-999), "unknown error") == 0);
}

GST_END_TEST;

static void
assert_same_header (const St2022Header * a, const St2022Header * b,
    guint pos, guint bit, gsize len)
{
  fail_unless (a->marker == b->marker && a->payload_type == b->payload_type
      && a->seq == b->seq && a->rtp_ts == b->rtp_ts && a->ssrc == b->ssrc
      && a->ext == b->ext && a->f == b->f && a->vsid == b->vsid
      && a->frcount == b->frcount && a->ref == b->ref
      && a->scramble == b->scramble && a->fec == b->fec && a->cf == b->cf
      && a->map == b->map && a->frame == b->frame && a->frate == b->frate
      && a->sample == b->sample && a->vts == b->vts && a->format == b->format
      && a->header_len == b->header_len,
      "byte %u bit %u, %" G_GSIZE_FORMAT " bytes: cached parse differs",
      pos, bit, len);
}

/* the cached parse is the parse: every single-bit change of every header
 * byte, at every length around the valid one, against a cache primed with
 * the unchanged datagram (with and without a video timestamp) */
GST_START_TEST (test_header_parse_cached)
{
  static const gsize lens[] = { 1395, 1396, 1399, 1400, 1401 };
  const St2022Format *f = st2022_format_from_name ("1080i59.94");
  St2022Header h, want, got;
  guint8 good[1400], dg[1400];
  guint cf, pos, bit, li, fast = 0, checked = 0;

  for (cf = 0; cf <= 1; cf++) {
    St2022HeaderCache primed = { 0 };
    gsize good_len = cf ? 1400 : 1396;

    make_header (&h, f);
    if (!cf)
      h.cf = 0;
    st2022_header_pack (&h, good, sizeof (good));
    memset (good + st2022_header_size (&h), 0x11, 1376);
    fail_unless_equals_int (st2022_header_parse_cached (&primed, good,
            good_len, &got), ST2022_OK);
    fail_unless (primed.valid);
    for (pos = 0; pos < 24; pos++) {
      for (bit = 0; bit <= 8; bit++) {
        for (li = 0; li < G_N_ELEMENTS (lens); li++) {
          St2022HeaderCache c = primed;
          int r;

          memcpy (dg, good, sizeof (dg));
          /* bit 8: no change */
          if (bit < 8)
            dg[pos] ^= 1u << bit;
          memset (&want, 0, sizeof (want));
          memset (&got, 0, sizeof (got));
          r = st2022_header_parse (dg, lens[li], &want, NULL);
          fail_unless_equals_int (st2022_header_parse_cached (&c, dg,
                  lens[li], &got), r);
          if (r == ST2022_OK)
            assert_same_header (&got, &want, pos, bit, lens[li]);
          /* a rejected datagram leaves the cache as it was */
          if (r != ST2022_OK)
            fail_unless (memcmp (&c, &primed, sizeof (c)) == 0);
          /* marker, sequence number, timestamps: still accepted, the
           * fast path's fields read from this datagram */
          if (lens[li] == good_len && (bit == 8 || (pos == 1 && bit == 7)
                  || (pos >= 2 && pos < 8) || (cf && pos >= 20))) {
            fail_unless_equals_int (r, ST2022_OK);
            fast++;
          }
          checked++;
        }
      }
    }
  }
  fail_unless_equals_int (checked, 2 * 24 * 9 * 5);
  /* 24 unchanged, 1 marker, 48 seq/ts bits per case; 32 vts bits with CF */
  fail_unless_equals_int (fast, 2 * (24 + 1 + 48) + 32);
}

GST_END_TEST;

static Suite *
st2022_core_suite (void)
{
  Suite *s = suite_create ("st2022-core");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_format_table);
  tcase_add_test (tc, test_xyz_ln);
  tcase_add_test (tc, test_crc18);
  tcase_add_test (tc, test_pack_words);
  tcase_add_test (tc, test_header_roundtrip);
  tcase_add_test (tc, test_header_bytes);
  tcase_add_test (tc, test_header_malformed);
  tcase_add_test (tc, test_header_parse_cached);
  return s;
}

GST_CHECK_MAIN (st2022_core);
