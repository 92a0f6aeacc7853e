/* gst-vmi tests: st2022src fed by an independent encoder (st2022-ref.c
 * packetizing rasters built from the standards, sent as plain UDP
 * datagrams): bit-exact frames, caps from the stream, sequence-number and
 * FRCount wraps, loss (a marker among it) with exact counters and
 * concealment, garbage, duplicates, reordering, sender restart, format
 * change. */

#include "net-common.h"

#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "../../gst/st2022-elements/gstst2022meta.h"

typedef struct
{
  const RefFormat *f;
  guint16 port;
  int fd;
  guint16 seq;
  guint8 frcount;
  guint32 rtp;
  guint32 vts;
  guint32 ssrc;
  guint8 *raster;
  guint8 *dgram;
} Encoder;

static void
encoder_init (Encoder * e, const RefFormat * f, guint16 port, guint16 seq,
    guint8 frcount, guint32 ssrc)
{
  e->f = f;
  e->port = port;
  e->fd = ref_udp_sender ();
  e->seq = seq;
  e->frcount = frcount;
  e->rtp = 0x12345678;
  e->vts = 0xfff00000;          /* wraps within a few frames */
  e->ssrc = ssrc;
  e->raster = g_malloc (ref_frame_bytes (f));
  e->dgram = g_malloc (REF_DATAGRAM);
}

static void
encoder_clear (Encoder * e)
{
  close (e->fd);
  g_free (e->raster);
  g_free (e->dgram);
}

/* The reference raster builder is slow (bit-serial CRC): build them all
 * first so the stream is sent without pauses, like a real sender's. */
static guint8 **
build_rasters (const RefFormat * f, guint8 ** pics, guint n)
{
  guint8 **r = g_new (guint8 *, n);
  guint i;

  for (i = 0; i < n; i++) {
    r[i] = g_malloc (ref_frame_bytes (f));
    ref_build_raster (f, pics[i], f->width * 5 / 2, r[i]);
  }
  return r;
}

static void
encoder_send_raster (Encoder * e, const guint8 * raster, const gint * drop)
{
  guint n = ref_datagrams (e->f), i;

  memcpy (e->raster, raster, ref_frame_bytes (e->f));
  for (i = 0; i < n; i++) {
    const gint *d;
    gboolean skip = FALSE;

    for (d = drop; d && *d >= 0; d++)
      skip |= (guint) * d == i;
    ref_pack_datagram (e->f, e->raster, i, e->seq + i, e->rtp, e->ssrc,
        e->frcount, e->vts, 98, e->dgram);
    if (!skip)
      ref_udp_sendto (e->fd, "127.0.0.1", e->port, e->dgram, REF_DATAGRAM);
    /* a little breathing room so a loaded machine keeps up */
    if (i % 256 == 255)
      g_usleep (1000);
  }
  e->seq += n;
  e->frcount++;
  e->rtp += ref_rtp_per_frame (e->f);
  e->vts += e->f->lines * e->f->samples * 2;
}

static void
receiver_start (NetReceiver * r, guint16 port, guint frames,
    const gchar * caps, const gchar * extra)
{
  gchar *desc = g_strdup_printf ("st2022src name=src port=%u num-buffers=%u "
      "stats-interval=0 %s ! %s%sappsink name=sink sync=false", port, frames,
      extra ? extra : "", caps ? caps : "", caps ? " ! " : "");

  net_receiver_start (r, desc);
  g_free (desc);
}

static void
check_caps (GstCaps * caps, const RefFormat * f, const gchar * format)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint w, h, n, d;

  fail_unless (gst_caps_is_fixed (caps));
  fail_unless_equals_string (gst_structure_get_string (s, "format"), format);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, f->width);
  fail_unless_equals_int (h, f->height);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (n, f->fps_n);
  fail_unless_equals_int (d, f->fps_d);
  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      f->interlaced ? "interleaved" : "progressive");
  if (f->interlaced && !f->psf)
    fail_unless_equals_string (gst_structure_get_string (s, "field-order"),
        f->bff ? "bottom-field-first" : "top-field-first");
  if (f->psf)
    fail_if (gst_structure_has_field (s, "field-order"));
  fail_unless_equals_string (gst_structure_get_string (s, "colorimetry"),
      f->sd ? "bt601" : "bt709");
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  if (f->sd)
    fail_unless (n == (f->lines == 525 ? 10 : 12) && d == 11);
  else
    fail_unless (n == 1 && d == 1);
}

/* The receiver starts first, as in a real deployment: every frame must come
 * out bit-exact with caps and meta from the stream. Which frame is which
 * is read from the meta (FRCount), so the check does not depend on where
 * the receiver first locked on. */
static void
check_src_exact (const RefFormat * f, const gchar * format, guint16 seq0,
    guint8 fr0)
{
  const guint N = 4;
  guint16 port = net_test_port ();
  guint8 **pics = net_make_pictures (f, N + 1, port);
  Encoder e;
  NetReceiver r;
  GstStructure *stats;
  gchar *capsf = g_strdup_printf ("video/x-raw,format=%s", format);
  guint i, n = ref_datagrams (f);
  guint8 first_k = 0;

  guint8 **rasters = build_rasters (f, pics, N + 1);

  receiver_start (&r, port, N, capsf, NULL);
  encoder_init (&e, f, port, seq0, fr0, 0xabcdef01);
  for (i = 0; i <= N; i++)
    encoder_send_raster (&e, rasters[i], NULL);
  net_free_pictures (rasters, N + 1);
  stats = net_receiver_finish (&r, 30);

  fail_unless_equals_int (r.samples->len, N);
  for (i = 0; i < N; i++) {
    GstSample *s = r.samples->pdata[i];
    GstBuffer *buf = gst_sample_get_buffer (s);
    GstSt2022Meta *m = net_get_meta (buf);
    guint8 *got = net_buffer_to_uyvp (buf, gst_sample_get_caps (s), f);
    guint k;

    fail_unless (m != NULL);
    k = (guint8) (m->frcount - fr0);
    if (i == 0) {
      /* the first frame or the one after it (joined mid-frame) */
      fail_unless (k <= 1, "first output is frame %u", k);
      first_k = k;
    }
    fail_unless_equals_int (k, first_k + i);
    check_caps (gst_sample_get_caps (s), f, format);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    fail_unless (GST_BUFFER_PTS_IS_VALID (buf));
    fail_unless (memcmp (got, pics[k], f->width * 5 / 2 * f->height) ==
        0, "%s %s frame %u differs", f->name, format, k);
    fail_unless_equals_int (m->first_seq, (guint16) (seq0 + k * n));
    fail_unless_equals_int (m->last_seq, (guint16) (seq0 + (k + 1) * n - 1));
    fail_unless_equals_uint64 (m->rtp_timestamp, (guint32) (0x12345678 +
            k * ref_rtp_per_frame (f)));
    fail_unless_equals_uint64 (m->ssrc, 0xabcdef01);
    fail_unless_equals_uint64 (m->video_timestamp, (guint32) (0xfff00000 +
            k * f->lines * f->samples * 2));
    if (i > 0) {
      GstBuffer *pb = gst_sample_get_buffer (r.samples->pdata[i - 1]);
      fail_unless (GST_BUFFER_PTS (buf) > GST_BUFFER_PTS (pb));
    }
    g_free (got);
  }
  fail_unless_equals_uint64 (net_stat (stats, "frames"), N);
  fail_unless_equals_uint64 (net_stat (stats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "frames-corrupted"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "packets-invalid"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "packets-discarded"),
      first_k * n);

  gst_structure_free (stats);
  net_receiver_clear (&r);
  encoder_clear (&e);
  net_free_pictures (pics, N + 1);
  g_free (capsf);
}

GST_START_TEST (test_src_1080i5994_uyvp_seq_wrap)
{
  /* sequence numbers wrap inside frame 2, FRCount wraps at frame 3 */
  check_src_exact (&ref_1080i5994, "UYVP", 65536 - 2 * 4497 - 100, 253);
}

GST_END_TEST;

GST_START_TEST (test_src_1080i50_v210)
{
  check_src_exact (&ref_1080i50, "v210", 1000, 0);
}

GST_END_TEST;

GST_START_TEST (test_src_720p5994_uyvp)
{
  check_src_exact (&ref_720p5994, "UYVP", 65000, 255);
}

GST_END_TEST;

GST_START_TEST (test_src_720p5994_v210)
{
  check_src_exact (&ref_720p5994, "v210", 7, 9);
}

GST_END_TEST;

/* ST 2022-6's other HD rasters, built by the reference encoder */
GST_START_TEST (test_src_720p25_uyvp)
{
  check_src_exact (&ref_720p25, "UYVP", 100, 0);
}

GST_END_TEST;

GST_START_TEST (test_src_720p2997_v210)
{
  check_src_exact (&ref_720p2997, "v210", 200, 1);
}

GST_END_TEST;

/* 4125-sample lines (10,312.5 bytes) from the reference encoder */
GST_START_TEST (test_src_720p24_uyvp)
{
  check_src_exact (&ref_720p24, "UYVP", 300, 3);
}

GST_END_TEST;

GST_START_TEST (test_src_720p2398_v210)
{
  check_src_exact (&ref_720p2398, "v210", 65500, 4);
}

GST_END_TEST;

GST_START_TEST (test_src_1080psf25_uyvp)
{
  check_src_exact (&ref_1080psf25, "UYVP", 310, 2);
}

GST_END_TEST;

/* A gateway `st2022src ! st2022sink psf=true`: 1080PsF25 in (caps those of
 * 1080i50 without field-order), 1080PsF25 out, each picture bit-exact as
 * the reference decodes the gateway's wire */
GST_START_TEST (test_gateway_keeps_psf25)
{
  const RefFormat *f = &ref_1080psf25;
  const guint N = 3;
  guint16 in_port = net_test_port (), out_port = net_test_port ();
  int fd = ref_udp_bind ("127.0.0.1", out_port);
  guint8 **pics = net_make_pictures (f, N + 1, in_port);
  guint8 **rasters = build_rasters (f, pics, N + 1);
  guint n = ref_datagrams (f), i, out;
  gint last_k = -1;
  gsize fb = ref_frame_bytes (f), ustride = f->width * 5 / 2;
  guint8 *raster = g_malloc (fb), *prev = g_malloc (fb);
  guint8 *pic = g_malloc (ustride * f->height), buf[2048];
  struct timeval tv = { 10, 0 };
  GstElement *gw;
  Encoder e;
  gchar *desc = g_strdup_printf ("st2022src port=%u stats-interval=0 ! "
      "st2022sink host=127.0.0.1 port=%u psf=true pacing=none sync=false "
      "stats-interval=0", in_port, out_port);

  gw = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (gw != NULL);
  fail_unless (gst_element_set_state (gw, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  encoder_init (&e, f, in_port, 1000, 0, 0x1234);
  for (i = 0; i <= N; i++)
    encoder_send_raster (&e, rasters[i], NULL);
  net_free_pictures (rasters, N + 1);

  /* a bound on each wait, not a measurement */
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof (tv));
  for (out = 0; out < N; out++) {
    gchar *err = NULL;
    guint errors, k;

    for (i = 0; i < n; i++) {
      ssize_t len = recv (fd, buf, sizeof (buf), 0);

      fail_unless_equals_int (len, REF_DATAGRAM);
      /* FRAME 0x22, FRATE 0x18: 1080PsF25, not 1080i50 */
      fail_unless_equals_int ((buf[16] & 0xf) << 4 | buf[17] >> 4, 0x22);
      fail_unless_equals_int ((buf[17] & 0xf) << 4 | buf[18] >> 4, 0x18);
      fail_unless_equals_int (!!(buf[1] & 0x80), i == n - 1);
      memcpy (raster + (gsize) i * REF_PAYLOAD, buf + REF_HEADER,
          MIN (REF_PAYLOAD, fb - (gsize) i * REF_PAYLOAD));
    }
    errors = ref_check_raster (f, raster, out ? prev : NULL, pic, &err);
    fail_unless (errors == 0, "gateway frame %u: %u raster errors, first: "
        "%s", out, errors, err);
    /* the frames in order: the first one, or the next if the gateway
     * joined mid-frame */
    for (k = 0; k <= N; k++)
      if (memcmp (pic, pics[k], ustride * f->height) == 0)
        break;
    fail_unless (k <= N, "gateway frame %u is none of the pictures sent",
        out);
    fail_unless (last_k < 0 ? k <= 1 : (gint) k == last_k + 1);
    last_k = (gint) k;
    memcpy (prev, raster, fb);
  }

  gst_element_set_state (gw, GST_STATE_NULL);
  gst_object_unref (gw);
  encoder_clear (&e);
  net_free_pictures (pics, N + 1);
  g_free (raster);
  g_free (prev);
  g_free (pic);
  close (fd);
}

GST_END_TEST;

GST_START_TEST (test_src_1080psf2997_v210)
{
  check_src_exact (&ref_1080psf2997, "v210", 300, 2);
}

GST_END_TEST;

GST_START_TEST (test_src_2048p4795_uyvp)
{
  check_src_exact (&ref_2048p4795, "UYVP", 400, 3);
}

GST_END_TEST;

/* SD: one multiplexed word stream, 4-word EAV/SAV, no LN/CRC */
GST_START_TEST (test_src_525i_v210)
{
  check_src_exact (&ref_525i, "v210", 65500, 250);
}

GST_END_TEST;

GST_START_TEST (test_src_625i_uyvp)
{
  check_src_exact (&ref_625i, "UYVP", 600, 5);
}

GST_END_TEST;

GST_START_TEST (test_src_2048psf24_v210)
{
  check_src_exact (&ref_2048psf24, "v210", 500, 4);
}

GST_END_TEST;

static guint8
black_byte (gsize row_offset)
{
  static const guint8 black[5] = { 0x80, 0x04, 0x08, 0x00, 0x40 };
  return black[row_offset % 5];
}

/* Is byte @off of the raster in one of the @drop datagrams? */
static gboolean
byte_lost (gsize off, const gint * drop)
{
  for (; *drop >= 0; drop++)
    if (off / REF_PAYLOAD == (gsize) * drop)
      return TRUE;
  return FALSE;
}

/* Is any bit of the picture byte at raster bit @bit (8 bits) in one of the
 * @drop datagrams?  (720p23.98/24: a byte of every second line straddles
 * two wire bytes, and a datagram boundary can cut it.) */
static gboolean
bits_lost (gsize bit, const gint * drop)
{
  return byte_lost (bit / 8, drop) || byte_lost ((bit + 7) / 8, drop);
}

static guint
count_drops (const gint * drop)
{
  guint c = 0;

  for (; drop && *drop >= 0; drop++)
    c++;
  return c;
}

/* Loss: every frame is pushed; the ones with lost datagrams are flagged
 * CORRUPTED, their lost bytes concealed (black in the first frame, the
 * previous output frame's bytes after), every other byte exact; the
 * counters at EOS are exact. */
static void
check_loss (const RefFormat * f, const gchar * format, const gint * drop0,
    const gint * drop2, const gint * drop5)
{
  const guint N = 6;
  guint16 port = net_test_port ();
  guint8 **pics = net_make_pictures (f, N, 99);
  guint n = ref_datagrams (f), k, row;
  gsize ustride = f->width * 5 / 2, lb = (gsize) f->samples * 20;
  gsize act_off = (gsize) (f->samples - f->width) * 20;
  const gint *drops[] = { drop0, NULL, drop2, NULL, NULL, drop5 };
  guint expect_lost = count_drops (drop0) + count_drops (drop2) +
      count_drops (drop5);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s", format);
  Encoder e;
  NetReceiver r;
  GstStructure *stats;

  guint8 **rasters = build_rasters (f, pics, N);

  receiver_start (&r, port, N, caps, NULL);
  g_free (caps);
  encoder_init (&e, f, port, 40000, 0, 0x5eed);
  for (k = 0; k < N; k++)
    encoder_send_raster (&e, rasters[k], drops[k]);
  net_free_pictures (rasters, N);
  stats = net_receiver_finish (&r, 30);

  fail_unless_equals_int (r.samples->len, N);
  for (k = 0; k < N; k++) {
    GstBuffer *buf = gst_sample_get_buffer (r.samples->pdata[k]);
    guint8 *got = net_buffer_to_uyvp (buf,
        gst_sample_get_caps (r.samples->pdata[k]), f);
    guint8 *prev = k > 0 ? net_buffer_to_uyvp (gst_sample_get_buffer
        (r.samples->pdata[k - 1]), gst_sample_get_caps (r.samples->pdata[k -
                1]), f) : NULL;
    const gint none[] = { -1 };
    const gint *drop = drops[k] ? drops[k] : none;

    fail_unless_equals_int (net_get_meta (buf)->frcount, k);
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (buf,
            GST_BUFFER_FLAG_CORRUPTED), drops[k] != NULL);
    for (row = 0; row < f->height; row++) {
      /* in bits: 720p23.98/24's lines are not whole bytes */
      gsize line_off = (ref_row_to_line (f, row) - 1) * lb + act_off, b;
      for (b = 0; b < ustride; b++) {
        guint8 expect = bits_lost (line_off + 8 * b, drop) ?
            (prev ? prev[row * ustride + b] : black_byte (b)) :
            pics[k][row * ustride + b];
        if (got[row * ustride + b] != expect)
          fail ("frame %u row %u byte %" G_GSIZE_FORMAT ": got %02x, "
              "expected %02x (%s)", k, row, b, got[row * ustride + b], expect,
              bits_lost (line_off + 8 * b, drop) ? "concealed" : "received");
      }
    }
    g_free (got);
    g_free (prev);
  }
  fail_unless (net_stat (stats, "packets-lost") == expect_lost, "%s",
      gst_structure_to_string (stats));
  fail_unless_equals_uint64 (net_stat (stats, "frames-corrupted"), 3);
  fail_unless_equals_uint64 (net_stat (stats, "frames"), N);
  fail_unless_equals_uint64 (net_stat (stats, "frames-dropped"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "packets"),
      N * n - expect_lost);

  gst_structure_free (stats);
  net_receiver_clear (&r);
  encoder_clear (&e);
  net_free_pictures (pics, N);
}

/* Per frame the lost datagrams (-1 terminated). Frame 0 (nothing before it:
 * black) loses a run in picture rows; frame 2 loses its marker and a
 * datagram of blanking; frame 5, the last, loses its marker too (pushed
 * when the stream pauses, not held until more comes). */
GST_START_TEST (test_src_loss_concealment_and_counters)
{
  const gint n = ref_datagrams (&ref_1080i5994);
  const gint drop0[] = { 500, 501, 502, 2600, -1 };
  const gint drop2[] = { 3, 1000, 3333, n - 1, -1 };
  const gint drop5[] = { 2000, n - 1, -1 };

  check_loss (&ref_1080i5994, "UYVP", drop0, drop2, drop5);
}

GST_END_TEST;

/* the other HD rasters: 2048-sample PsF segments (UYVP straight from the
 * datagrams) and 720p29.97's wide blanking (v210) */
GST_START_TEST (test_src_loss_2048psf2997_uyvp)
{
  const gint n = ref_datagrams (&ref_2048psf2997);
  const gint drop0[] = { 700, 701, 3000, -1 };
  const gint drop2[] = { 3, 2222, 4000, n - 1, -1 };
  const gint drop5[] = { 1500, n - 1, -1 };

  check_loss (&ref_2048psf2997, "UYVP", drop0, drop2, drop5);
}

GST_END_TEST;

GST_START_TEST (test_src_loss_720p2997_v210)
{
  const gint n = ref_datagrams (&ref_720p2997);
  const gint drop0[] = { 900, 901, 2500, -1 };
  const gint drop2[] = { 3, 1000, 4000, n - 1, -1 };
  const gint drop5[] = { 2000, n - 1, -1 };

  check_loss (&ref_720p2997, "v210", drop0, drop2, drop5);
}

GST_END_TEST;

/* 1100 and 1101 lie in line 147 (odd: it starts on a whole byte), 2605
 * and 4001 in lines 348 and 534 (even: half way through a byte, so the
 * datagram boundaries cut picture bytes, which are concealed whole) */
GST_START_TEST (test_src_loss_720p24_uyvp)
{
  const gint n = ref_datagrams (&ref_720p24);
  const gint drop0[] = { 1100, 1101, 2605, -1 };
  const gint drop2[] = { 3, 1000, 4001, n - 1, -1 };
  const gint drop5[] = { 2000, n - 1, -1 };

  check_loss (&ref_720p24, "UYVP", drop0, drop2, drop5);
}

GST_END_TEST;

GST_START_TEST (test_src_loss_525i_uyvp)
{
  const gint n = ref_datagrams (&ref_525i);
  const gint drop0[] = { 100, 101, 600, -1 };
  const gint drop2[] = { 0, 400, n - 1, -1 };
  const gint drop5[] = { 300, n - 1, -1 };

  check_loss (&ref_525i, "UYVP", drop0, drop2, drop5);
}

GST_END_TEST;

/* v210 output conceals in the raster, before conversion: same result */
GST_START_TEST (test_src_loss_concealment_v210)
{
  const gint n = ref_datagrams (&ref_720p5994);
  const gint drop0[] = { 300, 301, 1600, -1 };
  const gint drop2[] = { 3, 1000, 1333, n - 1, -1 };
  const gint drop5[] = { 2000, n - 1, -1 };

  check_loss (&ref_720p5994, "v210", drop0, drop2, drop5);
}

GST_END_TEST;

GST_START_TEST (test_src_drop_corrupted)
{
  const RefFormat *f = &ref_720p5994;
  guint16 port = net_test_port ();
  guint8 **pics = net_make_pictures (f, 5, 5);
  gint drop[] = { 10, -1 };
  Encoder e;
  NetReceiver r;
  GstStructure *stats;
  guint k;

  /* 3 good frames come out; the corrupted one is dropped and counted */
  guint8 **rasters = build_rasters (f, pics, 5);

  receiver_start (&r, port, 3, NULL, "drop-corrupted=true");
  encoder_init (&e, f, port, 0, 0, 1);
  for (k = 0; k < 5; k++)
    encoder_send_raster (&e, rasters[k], k == 2 ? drop : NULL);
  net_free_pictures (rasters, 5);
  stats = net_receiver_finish (&r, 30);
  fail_unless_equals_int (r.samples->len, 3);
  for (k = 0; k < 3; k++) {
    GstBuffer *buf = gst_sample_get_buffer (r.samples->pdata[k]);
    GstSt2022Meta *m = net_get_meta (buf);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    /* frame 2 was the corrupted one */
    fail_unless_equals_int (m->frcount, k < 2 ? k : k + 1);
  }
  fail_unless_equals_uint64 (net_stat (stats, "frames-corrupted"), 1);
  fail_unless_equals_uint64 (net_stat (stats, "frames-dropped"), 1);
  fail_unless_equals_uint64 (net_stat (stats, "packets-lost"), 1);
  gst_structure_free (stats);
  net_receiver_clear (&r);
  encoder_clear (&e);
  net_free_pictures (pics, 5);
}

GST_END_TEST;

/* Garbage of every kind is counted as invalid and changes nothing else;
 * a sender restart (new SSRC, new sequence) is followed. */
GST_START_TEST (test_src_garbage_and_restart)
{
  const RefFormat *f = &ref_720p5994;
  guint16 port = net_test_port ();
  guint8 **pics = net_make_pictures (f, 7, 6);
  guint k, prev_pic = 0;
  Encoder e, e2;
  NetReceiver r;
  GstStructure *stats;
  guint8 junk[1400];
  int fd = ref_udp_sender ();
  guint8 **rasters = build_rasters (f, pics, 7);

  receiver_start (&r, port, 5, "video/x-raw,format=UYVP", NULL);
  encoder_init (&e, f, port, 100, 0, 1111);
  encoder_send_raster (&e, rasters[0], NULL);
  encoder_send_raster (&e, rasters[1], NULL);
  /* garbage: short, not RTP v2, bad HBRMT (F=0), unknown FRAME, too long */
  memset (junk, 0xa5, sizeof (junk));
  ref_udp_sendto (fd, "127.0.0.1", port, junk, 10);
  ref_udp_sendto (fd, "127.0.0.1", port, junk, sizeof (junk));
  ref_pack_datagram (f, e.raster, 0, 1, 2, 3, 4, 5, 98, junk);
  junk[12] = 0x00;
  ref_udp_sendto (fd, "127.0.0.1", port, junk, sizeof (junk));
  ref_pack_datagram (f, e.raster, 0, 1, 2, 3, 4, 5, 98, junk);
  junk[17] = 0x9f;
  ref_udp_sendto (fd, "127.0.0.1", port, junk, sizeof (junk));
  encoder_send_raster (&e, rasters[2], NULL);
  /* the sender restarts: new SSRC, sequence and FRCount */
  encoder_init (&e2, f, port, 5, 77, 2222);
  for (k = 3; k < 7; k++)
    encoder_send_raster (&e2, rasters[k], NULL);
  net_free_pictures (rasters, 7);
  stats = net_receiver_finish (&r, 30);

  fail_unless_equals_uint64 (net_stat (stats, "packets-invalid"), 4);
  fail_unless_equals_int (r.samples->len, 5);
  for (k = 0; k < 5; k++) {
    GstSample *s = r.samples->pdata[k];
    GstSt2022Meta *m = net_get_meta (gst_sample_get_buffer (s));
    guint8 *got = net_buffer_to_uyvp (gst_sample_get_buffer (s),
        gst_sample_get_caps (s), f);
    /* the first sender's 3 frames, then the second sender's from where
     * the receiver found its frame start (its 1st or 2nd frame) */
    guint pic = m->ssrc == 1111 ? m->frcount : 3 + (guint8) (m->frcount - 77);

    fail_unless_equals_uint64 (m->ssrc, k < 3 ? 1111 : 2222);
    if (k < 3) {
      fail_unless_equals_int (m->frcount, k);
    } else if (k == 3) {
      fail_unless (pic == 3 || pic == 4, "second sender: picture %u", pic);
    } else {
      fail_unless_equals_int (pic, prev_pic + 1);
    }
    prev_pic = pic;
    fail_unless (memcmp (got, pics[pic], f->width * 5 / 2 * f->height) == 0,
        "output %u (picture %u) differs", k, pic);
    fail_if (GST_BUFFER_FLAG_IS_SET (gst_sample_get_buffer (s),
            GST_BUFFER_FLAG_CORRUPTED));
    g_free (got);
  }
  fail_unless_equals_uint64 (net_stat (stats, "frames-corrupted"), 0);
  gst_structure_free (stats);
  net_receiver_clear (&r);
  encoder_clear (&e);
  encoder_clear (&e2);
  net_free_pictures (pics, 7);
  close (fd);
}

GST_END_TEST;

/* A format change mid-stream renegotiates the caps; the new format's
 * frames are bigger (v210: the receive rasters must grow). */
static void
check_format_change (const gchar * format)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s", format);
  guint16 port = net_test_port ();
  guint8 **a = net_make_pictures (&ref_720p5994, 3, 1);
  guint8 **b = net_make_pictures (&ref_1080i50, 4, 2);
  Encoder e, e2;
  NetReceiver r;
  GstStructure *stats;
  guint k;

  guint8 **ra = build_rasters (&ref_720p5994, a, 3);
  guint8 **rb = build_rasters (&ref_1080i50, b, 4);

  receiver_start (&r, port, 4, caps, NULL);
  g_free (caps);
  encoder_init (&e, &ref_720p5994, port, 10, 0, 42);
  for (k = 0; k < 3; k++)
    encoder_send_raster (&e, ra[k], NULL);
  encoder_init (&e2, &ref_1080i50, port, e.seq, e.frcount, 42);
  for (k = 0; k < 4; k++)
    encoder_send_raster (&e2, rb[k], NULL);
  net_free_pictures (ra, 3);
  net_free_pictures (rb, 4);
  stats = net_receiver_finish (&r, 30);

  fail_unless_equals_int (r.samples->len, 4);
  check_caps (gst_sample_get_caps (r.samples->pdata[0]), &ref_720p5994,
      format);
  check_caps (gst_sample_get_caps (r.samples->pdata[3]), &ref_1080i50,
      format);
  for (k = 0; k < 4; k++) {
    GstSample *s = r.samples->pdata[k];
    GstBuffer *buf = gst_sample_get_buffer (s);
    GstSt2022Meta *m = net_get_meta (buf);
    gboolean second = m->frcount >= 3;
    const RefFormat *f = second ? &ref_1080i50 : &ref_720p5994;
    guint8 *got = net_buffer_to_uyvp (buf, gst_sample_get_caps (s), f);

    /* the first frame of the new format may be dropped when frames of the
     * old one still wait to be pushed: the caps change between buffers */
    check_caps (gst_sample_get_caps (s), f, format);
    fail_unless (memcmp (got, second ? b[m->frcount - 3] : a[m->frcount],
            f->width * 5 / 2 * f->height) == 0, "frame %u differs",
        m->frcount);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    g_free (got);
  }
  fail_unless_equals_uint64 (net_stat (stats, "format-changes"), 1);
  gst_structure_free (stats);
  net_receiver_clear (&r);
  encoder_clear (&e);
  encoder_clear (&e2);
  net_free_pictures (a, 3);
  net_free_pictures (b, 4);
}

GST_START_TEST (test_src_format_change)
{
  check_format_change ("UYVP");
}

GST_END_TEST;

GST_START_TEST (test_src_format_change_v210)
{
  check_format_change ("v210");
}

GST_END_TEST;

static Suite *
src_wire_suite (void)
{
  Suite *s = suite_create ("st2022src-wire");
  TCase *tc = tcase_create ("wire");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_src_1080i5994_uyvp_seq_wrap);
  tcase_add_test (tc, test_src_1080i50_v210);
  tcase_add_test (tc, test_src_720p5994_uyvp);
  tcase_add_test (tc, test_src_720p5994_v210);
  tcase_add_test (tc, test_src_720p25_uyvp);
  tcase_add_test (tc, test_src_720p2997_v210);
  tcase_add_test (tc, test_src_720p24_uyvp);
  tcase_add_test (tc, test_src_720p2398_v210);
  tcase_add_test (tc, test_src_1080psf25_uyvp);
  tcase_add_test (tc, test_gateway_keeps_psf25);
  tcase_add_test (tc, test_src_1080psf2997_v210);
  tcase_add_test (tc, test_src_2048p4795_uyvp);
  tcase_add_test (tc, test_src_2048psf24_v210);
  tcase_add_test (tc, test_src_525i_v210);
  tcase_add_test (tc, test_src_625i_uyvp);
  tcase_add_test (tc, test_src_loss_525i_uyvp);
  tcase_add_test (tc, test_src_loss_concealment_and_counters);
  tcase_add_test (tc, test_src_loss_concealment_v210);
  tcase_add_test (tc, test_src_loss_2048psf2997_uyvp);
  tcase_add_test (tc, test_src_loss_720p2997_v210);
  tcase_add_test (tc, test_src_loss_720p24_uyvp);
  tcase_add_test (tc, test_src_drop_corrupted);
  tcase_add_test (tc, test_src_garbage_and_restart);
  tcase_add_test (tc, test_src_format_change);
  tcase_add_test (tc, test_src_format_change_v210);
  return s;
}

GST_CHECK_MAIN (src_wire);
