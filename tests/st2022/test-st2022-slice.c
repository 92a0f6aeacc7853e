/* gst-vmi: unit tests of the sliced raster writer (St2022RasterCursor),
 * the packetizer's ring mode and the double-mapped ring
 * (gst/transport/vmi-tx-ring.h): byte for byte what the whole-raster writer and
 * the flat packetizer give, whatever the cuts, the ring size and origin.
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022.h"
#include "vmi-tx-ring.h"

#define RING (256 * 1024)

/* random words (reserved values included, which the writers clip) */
static guint8 *
random_picture (const St2022Format * f, St2022PixelFormat px, guint32 seed,
    gsize * stride)
{
  GRand *r = g_rand_new_with_seed (seed);
  gsize s = st2022_picture_min_stride (f, px) + (px == ST2022_PIXEL_UYVP ?
      5 : 0), i, n = s * f->height;
  guint8 *p = g_malloc (n);

  for (i = 0; i < n; i++)
    p[i] = g_rand_int (r) & 0xff;
  /* a few legal rows too: both writer paths (clip and vector) run */
  for (i = 0; i < f->height; i += 7)
    memset (p + i * s, 0x80, st2022_picture_min_stride (f, px));
  g_rand_free (r);
  *stride = s;
  return p;
}

static void
check_format (const gchar * name, St2022PixelFormat px, guint32 seed)
{
  const St2022Format *f = st2022_format_from_name (name);
  St2022RasterWriter *ref_w = st2022_raster_writer_new (f);
  St2022RasterWriter *w = st2022_raster_writer_new (f);
  St2022RasterCursor cur;
  GRand *r = g_rand_new_with_seed (seed);
  guint8 *ring, *flat, *ref, *pic;
  gsize stride, origin;
  guint frame, line;
  GError *err = NULL;

  fail_unless (f != NULL);
  ring = vmi_tx_ring_map (RING, &err);
  fail_unless (ring != NULL, "%s", err ? err->message : "");
  ref = g_malloc (f->frame_bytes);
  flat = g_malloc (f->frame_bytes + ST2022_RASTER_CURSOR_SLACK);
  for (frame = 0; frame < 3; frame++) {
    pic = random_picture (f, px, seed + frame, &stride);
    fail_unless_equals_int (st2022_raster_writer_write (ref_w, ref,
            f->frame_bytes, px, pic, stride), ST2022_OK);

    /* flat, cut at random lines */
    memset (flat, 0xee, f->frame_bytes);
    fail_unless_equals_int (st2022_raster_writer_begin (w, &cur, flat, 0, 0,
            px, pic, stride), ST2022_OK);
    while (cur.line <= f->total_lines)
      st2022_raster_writer_lines (w, &cur, cur.line + g_rand_int_range (r, 0,
              9));
    fail_unless (memcmp (flat, ref, f->frame_bytes) == 0, "%s flat", name);

    /* in the ring from a random origin: each stretch checked before the
     * ring wraps over it */
    origin = g_rand_int_range (r, 0, RING);
    fail_unless_equals_int (st2022_raster_writer_begin (w, &cur, ring, RING,
            origin, px, pic, stride), ST2022_OK);
    while (cur.line <= f->total_lines) {
      guint first = cur.line;

      st2022_raster_writer_lines (w, &cur, cur.line + g_rand_int_range (r, 0,
              9));
      for (line = first; line < cur.line; line++) {
        gsize off = (origin + (gsize) (line - 1) * f->line_bytes) % RING;

        fail_unless (memcmp (ring + off, ref + (gsize) (line - 1) *
                f->line_bytes, f->line_bytes) == 0, "%s ring line %u", name,
            line);
      }
    }
    g_free (pic);
  }
  vmi_tx_ring_unmap (ring, RING);
  st2022_raster_writer_free (ref_w);
  st2022_raster_writer_free (w);
  g_free (ref);
  g_free (flat);
  g_rand_free (r);
}

GST_START_TEST (test_cursor_1080p_uyvp)
{
  check_format ("1080p59.94", ST2022_PIXEL_UYVP, 1);
}

GST_END_TEST;

GST_START_TEST (test_cursor_1080p_v210)
{
  check_format ("1080p59.94", ST2022_PIXEL_V210, 2);
}

GST_END_TEST;

GST_START_TEST (test_cursor_1080i_and_720p)
{
  check_format ("1080i59.94", ST2022_PIXEL_UYVP, 3);
  check_format ("720p50", ST2022_PIXEL_V210, 4);
  check_format ("720p50", ST2022_PIXEL_UYVP, 5);
}

GST_END_TEST;

/* The ring repeats past its end, both ways. */
GST_START_TEST (test_ring_mirror)
{
  GError *err = NULL;
  /* volatile: the two copies are one memory the compiler cannot know of */
  volatile guint8 *ring = vmi_tx_ring_map (RING, &err);

  fail_unless (ring != NULL);
  ring[RING - 1] = 0x5a;
  ring[RING + 7] = 0xa5;
  fail_unless_equals_int (ring[2 * RING - 1], 0x5a);
  fail_unless_equals_int (ring[7], 0xa5);
  vmi_tx_ring_unmap ((guint8 *) ring, RING);
  fail_unless (vmi_tx_ring_map (RING + 1, &err) == NULL);
  fail_unless (err != NULL && strstr (err->message, "page size") != NULL);
  g_clear_error (&err);
}

GST_END_TEST;

/* A frame packetized from a ring: the same datagrams, payload bytes
 * included, as from the flat raster. */
GST_START_TEST (test_packetizer_ring)
{
  const St2022Format *f = st2022_format_from_name ("1080p59.94");
  St2022PacketizerConfig cfg;
  St2022Packetizer *a, *b;
  St2022Datagram da[64], db[64];
  GError *err = NULL;
  guint8 *ring = vmi_tx_ring_map (RING, &err), *flat;
  gsize origin = RING - 1000, i;
  guint frame, k;
  gint n, m;

  fail_unless (ring != NULL);
  flat = g_malloc (f->frame_bytes);
  for (i = 0; i < f->frame_bytes; i++)
    flat[i] = (i * 131 + i / 1376) & 0xff;
  st2022_packetizer_config_init (&cfg);
  cfg.ssrc = 0x1234;
  a = st2022_packetizer_new (f, &cfg);
  b = st2022_packetizer_new (f, &cfg);
  for (frame = 0; frame < 2; frame++) {
    gsize done = 0;

    fail_unless_equals_int (st2022_packetizer_begin_frame (a, flat,
            f->frame_bytes, 1000 + frame), ST2022_OK);
    fail_unless_equals_int (st2022_packetizer_begin_frame_ring (b, ring, RING,
            origin, 1000 + frame), ST2022_OK);
    for (;;) {
      /* the ring holds the next stretch only, written just in time */
      gsize len = MIN ((gsize) 64 * 1376, f->frame_bytes - done);

      for (i = 0; i < len; i++)
        ring[(origin + done + i) % RING] = flat[done + i];
      n = st2022_packetizer_next (a, da, 64);
      m = st2022_packetizer_next (b, db, 64);
      fail_unless_equals_int (n, m);
      if (n == 0)
        break;
      for (k = 0; k < (guint) n; k++) {
        fail_unless_equals_int (da[k].header_len, db[k].header_len);
        fail_unless (memcmp (da[k].header, db[k].header, da[k].header_len)
            == 0);
        fail_unless (memcmp (da[k].payload, db[k].payload, 1376) == 0,
            "frame %u datagram %u", frame, da[k].index);
      }
      done += len;
    }
    origin = (origin + f->frame_bytes) % RING;
  }
  st2022_packetizer_free (a);
  st2022_packetizer_free (b);
  vmi_tx_ring_unmap (ring, RING);
  g_free (flat);
}

GST_END_TEST;

static Suite *
slice_suite (void)
{
  Suite *s = suite_create ("st2022-slice");
  TCase *tc = tcase_create ("slice");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cursor_1080p_uyvp);
  tcase_add_test (tc, test_cursor_1080p_v210);
  tcase_add_test (tc, test_cursor_1080i_and_720p);
  tcase_add_test (tc, test_ring_mirror);
  tcase_add_test (tc, test_packetizer_ring);
  return s;
}

GST_CHECK_MAIN (slice);
