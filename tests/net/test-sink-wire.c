/* gst-vmi tests: what st2022sink puts on the wire, decoded by an independent
 * decoder (st2022-ref.c) bit for bit: RTP, HBRMT, video timestamps, EAV/SAV,
 * LN, CRC-18 and the active picture. */

#include "net-common.h"

#include <string.h>
#include <errno.h>
#include <sys/socket.h>

#define N_FRAMES 3

static guint
read_datagrams (int fd, GPtrArray * out)
{
  guint8 buf[2048];

  for (;;) {
    ssize_t n = recv (fd, buf, sizeof (buf), MSG_DONTWAIT);
    if (n < 0)
      break;
    g_ptr_array_add (out, g_bytes_new (buf, n));
  }
  return out->len;
}

static guint32
be32 (const guint8 * p)
{
  return (guint32) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* @props: extra st2022sink properties; @pt, @want_ssrc: the payload type
 * and SSRC they ask for (@want_ssrc -1: random, anything goes); the sink's
 * stats at EOS go to @stats_out when it is not NULL; @in_caps (taken):
 * what appsrc offers, when not the caps of @f */
static void
check_sink_wire_full (const RefFormat * f, const gchar * format,
    gboolean bare, const gchar * props, guint pt, gint64 want_ssrc,
    GstStructure ** stats_out, GstCaps * in_caps)
{
  guint16 port = net_test_port ();
  int fd = ref_udp_bind ("127.0.0.1", port);
  GstElement *pipeline, *src;
  GstCaps *caps = in_caps ? in_caps : net_format_caps (f, format, bare);
  GstVideoInfo info;
  GRand *rand = g_rand_new_with_seed (port);
  gsize ustride = f->width * 5 / 2, fb = ref_frame_bytes (f);
  guint8 *pictures[N_FRAMES];
  guint n = ref_datagrams (f), i, k;
  GPtrArray *dgrams = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  GstStructure *stats;
  gchar *desc;
  guint8 *raster = g_malloc (fb), *prev = g_malloc (fb), *pic =
      g_malloc (ustride * f->height);
  guint32 ssrc = 0, rtp0 = 0, vts0 = 0;
  guint16 seq0 = 0;
  guint8 fr0 = 0;

  fail_unless (gst_video_info_from_caps (&info, caps));
  desc = g_strdup_printf ("appsrc name=src format=time ! st2022sink "
      "name=sink host=127.0.0.1 port=%u stats-interval=0 %s", port, props);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (pipeline != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_set (src, "caps", caps, NULL);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (k = 0; k < N_FRAMES; k++) {
    GstBuffer *buf;
    pictures[k] = g_malloc (ustride * f->height);
    ref_random_uyvp (f, rand, pictures[k], ustride);
    buf = net_make_buffer (&info, f, pictures[k]);
    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND * f->fps_d,
        f->fps_n);
    GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (GST_SECOND, f->fps_d,
        f->fps_n);
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (src), buf) ==
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  stats = net_run_until_eos (pipeline, "sink", 30);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  /* the sender's own account, posted at EOS */
  fail_unless_equals_uint64 (net_stat (stats, "frames"), N_FRAMES);
  fail_unless_equals_uint64 (net_stat (stats, "packets"), N_FRAMES * n);
  fail_unless_equals_uint64 (net_stat (stats, "bytes"),
      (guint64) N_FRAMES * n * REF_DATAGRAM);

  fail_unless_equals_int (read_datagrams (fd, dgrams), N_FRAMES * n);

  for (k = 0; k < N_FRAMES; k++) {
    gchar *err = NULL;
    guint errors;

    for (i = 0; i < n; i++) {
      gsize len;
      const guint8 *d = g_bytes_get_data (dgrams->pdata[k * n + i], &len);
      guint16 seq = d[2] << 8 | d[3];
      guint32 rtp = be32 (d + 4), vts = be32 (d + 20);
      guint cf = (d[14] & 1) << 3 | d[15] >> 5;

      fail_unless_equals_int (len, REF_DATAGRAM);
      /* RTP: V=2, no P/X/CC, PT 98, marker on the last datagram only */
      fail_unless_equals_int (d[0], 0x80);
      fail_unless_equals_int (d[1] & 0x7f, pt);
      fail_unless_equals_int (!!(d[1] & 0x80), i == n - 1);
      if (k == 0 && i == 0) {
        seq0 = seq;
        rtp0 = rtp;
        ssrc = be32 (d + 8);
        if (want_ssrc >= 0)
          fail_unless_equals_uint64 (ssrc, want_ssrc);
        fr0 = d[13];
        vts0 = vts;
      }
      fail_unless_equals_int (seq, (guint16) (seq0 + k * n + i));
      fail_unless_equals_uint64 (rtp, (guint32) (rtp0 + k *
              ref_rtp_per_frame (f)));
      fail_unless_equals_uint64 (be32 (d + 8), ssrc);
      /* HBRMT */
      fail_unless_equals_int (d[12], 0x08);
      fail_unless_equals_int (d[13], (guint8) (fr0 + k));
      fail_unless_equals_int (d[14] & 0xfe, 0);
      fail_unless_equals_int (d[15] & 0x1f, 0);
      fail_unless_equals_int (cf, f->cf);
      fail_unless_equals_int (d[16] >> 4, 0);
      fail_unless_equals_int ((d[16] & 0xf) << 4 | d[17] >> 4, f->frame_code);
      fail_unless_equals_int ((d[17] & 0xf) << 4 | d[18] >> 4, f->frate_code);
      fail_unless_equals_int (d[18] & 0xf, 1);
      fail_unless_equals_int (d[19], 0);
      fail_unless_equals_uint64 (vts, (guint32) (vts0 + k * f->lines *
              f->samples * 2 + ref_vts_offset (i)));
      if (i == n - 1) {
        gsize tail = fb - (gsize) i * REF_PAYLOAD, j;
        memcpy (raster + (gsize) i * REF_PAYLOAD, d + REF_HEADER, tail);
        for (j = tail; j < REF_PAYLOAD; j++)
          fail_unless_equals_int (d[REF_HEADER + j], 0);
      } else {
        memcpy (raster + (gsize) i * REF_PAYLOAD, d + REF_HEADER,
            REF_PAYLOAD);
      }
    }
    errors = ref_check_raster (f, raster, k ? prev : NULL, pic, &err);
    fail_unless (errors == 0, "%s frame %u: %u raster errors, first: %s",
        f->name, k, errors, err);
    for (i = 0; i < f->height; i++)
      fail_unless (memcmp (pic + i * ustride, pictures[k] + i * ustride,
              ustride) == 0, "%s frame %u: picture row %u differs", f->name,
          k, i);
    memcpy (prev, raster, fb);
  }

  for (k = 0; k < N_FRAMES; k++)
    g_free (pictures[k]);
  g_free (raster);
  g_free (prev);
  g_free (pic);
  if (stats_out)
    *stats_out = stats;
  else
    gst_structure_free (stats);
  g_ptr_array_unref (dgrams);
  g_rand_free (rand);
  gst_caps_unref (caps);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  close (fd);
}

static void
check_sink_wire_props (const RefFormat * f, const gchar * format,
    gboolean bare, const gchar * props, guint pt, gint64 want_ssrc)
{
  check_sink_wire_full (f, format, bare, props, pt, want_ssrc, NULL, NULL);
}

static void
check_sink_wire (const RefFormat * f, const gchar * format, gboolean bare)
{
  check_sink_wire_props (f, format, bare, "", 98, -1);
}

GST_START_TEST (test_wire_1080i5994_uyvp)
{
  check_sink_wire (&ref_1080i5994, "UYVP", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_1080i5994_bare_caps)
{
  /* rawvideoparse-style caps: no field-order, no colorimetry */
  check_sink_wire (&ref_1080i5994, "UYVP", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_wire_1080i50_v210)
{
  check_sink_wire (&ref_1080i50, "v210", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_720p5994_uyvp)
{
  check_sink_wire (&ref_720p5994, "UYVP", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_720p5994_v210)
{
  /* and the RTP properties reach the wire */
  check_sink_wire_props (&ref_720p5994, "v210", TRUE,
      "payload-type=100 ssrc=287454020", 100, 0x11223344);
}

GST_END_TEST;

/* ST 2022-6's other HD rasters, each decoded by the reference */
GST_START_TEST (test_wire_720p2997_uyvp)
{
  check_sink_wire (&ref_720p2997, "UYVP", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_720p25_v210)
{
  check_sink_wire (&ref_720p25, "v210", FALSE);
}

GST_END_TEST;

/* ST 296's 4125-sample lines: 10,312.5 bytes, every second one starting
 * half way through a byte; the reference addresses words by bit */
GST_START_TEST (test_wire_720p24_uyvp)
{
  check_sink_wire (&ref_720p24, "UYVP", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_720p2398_v210)
{
  check_sink_wire (&ref_720p2398, "v210", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_1080psf2398_uyvp)
{
  /* interleaved without field-order at a rate 1080i does not have */
  check_sink_wire (&ref_1080psf2398, "UYVP", TRUE);
}

GST_END_TEST;

/* 1080PsF25/29.97/30 have the caps of 1080i without field-order or of
 * 1080p: psf=true sends them, decoded by the reference as PsF rasters */
GST_START_TEST (test_wire_1080psf25_psf_property)
{
  check_sink_wire_props (&ref_1080psf25, "UYVP", TRUE, "psf=true", 98, -1);
}

GST_END_TEST;

GST_START_TEST (test_wire_1080psf2997_from_progressive_v210)
{
  GstCaps *caps = net_format_caps (&ref_1080psf2997, "v210", FALSE);

  gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, "progressive",
      NULL);
  check_sink_wire_full (&ref_1080psf2997, "v210", FALSE, "psf=true", 98, -1,
      NULL, caps);
}

GST_END_TEST;

/* psf=true leaves alone what is not PsF: a field order says interlaced,
 * and 720p and 1080p50 have no segmented raster */
GST_START_TEST (test_wire_psf_property_keeps_others)
{
  check_sink_wire_props (&ref_1080i50, "UYVP", FALSE, "psf=true", 98, -1);
  check_sink_wire_props (&ref_720p50, "UYVP", FALSE, "psf=true", 98, -1);
  /* and without it, interleaved 1080 at 25 without field-order is 1080i */
  check_sink_wire (&ref_1080i50, "UYVP", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_wire_2048p24_v210)
{
  check_sink_wire (&ref_2048p24, "v210", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_2048p48_uyvp)
{
  check_sink_wire (&ref_2048p48, "UYVP", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_2048psf2997_v210)
{
  check_sink_wire (&ref_2048psf2997, "v210", FALSE);
}

GST_END_TEST;

/* SD: the reference checks every word of every line */
GST_START_TEST (test_wire_525i_uyvp)
{
  check_sink_wire (&ref_525i, "UYVP", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_wire_525i_bare_v210)
{
  /* no field-order: the standard's (bottom first) */
  check_sink_wire (&ref_525i, "v210", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_wire_625i_v210)
{
  check_sink_wire (&ref_625i, "v210", FALSE);
}

GST_END_TEST;

/* Samples in the timing-reference ranges must not reach the wire. */
GST_START_TEST (test_wire_clips_reserved_values)
{
  const RefFormat *f = &ref_720p5994;
  guint16 port = net_test_port ();
  int fd = ref_udp_bind ("127.0.0.1", port);
  GstCaps *caps = net_format_caps (f, "UYVP", FALSE);
  GstVideoInfo info;
  gsize ustride = f->width * 5 / 2, fb = ref_frame_bytes (f);
  guint8 *pic = g_malloc0 (ustride * f->height), *raster = g_malloc (fb);
  guint8 *out = g_malloc (ustride * f->height), d[2048];
  GstElement *pipeline, *src;
  gchar *desc, *err = NULL;
  GstStructure *stats;
  guint i, n = ref_datagrams (f), r;

  /* words 0,1,2,3 = 0, 1023, 3, 1020 on every row */
  for (r = 0; r < f->height; r++) {
    for (i = 0; i < 2 * f->width; i++)
      ref_put_word (pic + r * ustride, i, 512);
    ref_put_word (pic + r * ustride, 0, 0);
    ref_put_word (pic + r * ustride, 1, 1023);
    ref_put_word (pic + r * ustride, 2, 3);
    ref_put_word (pic + r * ustride, 3, 1020);
  }
  fail_unless (gst_video_info_from_caps (&info, caps));
  desc = g_strdup_printf ("appsrc name=src format=time ! st2022sink "
      "name=sink port=%u pacing=none", port);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_set (src, "caps", caps, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (src), net_make_buffer (&info, f, pic));
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  stats = net_run_until_eos (pipeline, "sink", 30);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  for (i = 0; i < n; i++) {
    ssize_t len = recv (fd, d, sizeof (d), MSG_DONTWAIT);
    fail_unless_equals_int (len, REF_DATAGRAM);
    memcpy (raster + (gsize) i * REF_PAYLOAD, d + REF_HEADER,
        MIN (REF_PAYLOAD, fb - (gsize) i * REF_PAYLOAD));
  }
  fail_unless_equals_int (ref_check_raster (f, raster, NULL, out, &err), 0);
  for (r = 0; r < f->height; r++) {
    fail_unless_equals_int (ref_get_word (out + r * ustride, 0), 4);
    fail_unless_equals_int (ref_get_word (out + r * ustride, 1), 1019);
    fail_unless_equals_int (ref_get_word (out + r * ustride, 2), 4);
    fail_unless_equals_int (ref_get_word (out + r * ustride, 3), 1019);
    fail_unless_equals_int (ref_get_word (out + r * ustride, 4), 512);
  }

  gst_structure_free (stats);
  gst_caps_unref (caps);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (pic);
  g_free (raster);
  g_free (out);
  close (fd);
}

GST_END_TEST;

/* The reference decoder must catch a broken raster, or it proves nothing. */
GST_START_TEST (test_reference_decoder_detects_errors)
{
  const RefFormat *f = &ref_720p5994;
  gsize ustride = f->width * 5 / 2, fb = ref_frame_bytes (f);
  guint8 *pic = g_malloc (ustride * f->height), *raster = g_malloc (fb);
  GRand *rand = g_rand_new_with_seed (7);
  gchar *err = NULL;

  ref_random_uyvp (f, rand, pic, ustride);
  ref_build_raster (f, pic, ustride, raster);
  fail_unless_equals_int (ref_check_raster (f, raster, NULL, NULL, NULL), 0);
  /* one active bit flipped: the next line's CRC catches it */
  raster[ref_line_bytes (f) * 100 + ref_line_bytes (f) - 3] ^= 0x10;
  fail_unless (ref_check_raster (f, raster, NULL, NULL, &err) > 0);
  fail_unless (strstr (err, "CRC") != NULL, "%s", err);
  g_free (err);
  g_free (pic);
  g_free (raster);
  g_rand_free (rand);
}

GST_END_TEST;

/* MSG_ZEROCOPY: the same bits on the wire. Over loopback the kernel copies
 * each send when it delivers it, and says so in the completion: every send
 * reported done by EOS was copied. A send is 1 to 16 datagrams (as many as
 * fit in 17 page fragments, see the socket transport). */
GST_START_TEST (test_wire_1080i5994_zerocopy)
{
  const RefFormat *f = &ref_1080i5994;
  guint64 packets = (guint64) N_FRAMES * ref_datagrams (f), done, copied;
  GstStructure *st = NULL;

  check_sink_wire_full (f, "UYVP", FALSE, "zerocopy=true", 98, -1, &st,
      NULL);
  done = net_stat (st, "zerocopy-done");
  copied = net_stat (st, "zerocopy-copied");
  GST_INFO ("zerocopy: %" G_GUINT64_FORMAT " sends done, %" G_GUINT64_FORMAT
      " copied, %" G_GUINT64_FORMAT " datagrams", done, copied, packets);
  fail_unless (done > 0, "no zerocopy send completed: %" GST_PTR_FORMAT, st);
  fail_unless (done <= packets);
  fail_unless_equals_uint64 (copied, done);
  gst_structure_free (st);
}

GST_END_TEST;

static Suite *
sink_wire_suite (void)
{
  Suite *s = suite_create ("st2022sink-wire");
  TCase *tc = tcase_create ("wire");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_reference_decoder_detects_errors);
  tcase_add_test (tc, test_wire_1080i5994_uyvp);
  tcase_add_test (tc, test_wire_1080i5994_bare_caps);
  tcase_add_test (tc, test_wire_1080i50_v210);
  tcase_add_test (tc, test_wire_720p5994_uyvp);
  tcase_add_test (tc, test_wire_720p5994_v210);
  tcase_add_test (tc, test_wire_720p2997_uyvp);
  tcase_add_test (tc, test_wire_720p25_v210);
  tcase_add_test (tc, test_wire_720p24_uyvp);
  tcase_add_test (tc, test_wire_720p2398_v210);
  tcase_add_test (tc, test_wire_1080psf2398_uyvp);
  tcase_add_test (tc, test_wire_1080psf25_psf_property);
  tcase_add_test (tc, test_wire_1080psf2997_from_progressive_v210);
  tcase_add_test (tc, test_wire_psf_property_keeps_others);
  tcase_add_test (tc, test_wire_2048p24_v210);
  tcase_add_test (tc, test_wire_2048p48_uyvp);
  tcase_add_test (tc, test_wire_2048psf2997_v210);
  tcase_add_test (tc, test_wire_525i_uyvp);
  tcase_add_test (tc, test_wire_525i_bare_v210);
  tcase_add_test (tc, test_wire_625i_v210);
  tcase_add_test (tc, test_wire_clips_reserved_values);
  tcase_add_test (tc, test_wire_1080i5994_zerocopy);
  return s;
}

GST_CHECK_MAIN (sink_wire);
