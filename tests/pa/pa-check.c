/* gst-vmi tests: the issue-13 acceptance check of a Pacing-Assistant wire
 * (see pa-check.h). */

#include "pa-check.h"
#include "vmi-pacer.h"

#include <string.h>

#define GAP_MIN 84
#define GAP_MAX 1538
#define WIRE_OVERHEAD 24        /* preamble + SFD 8, FCS 4, IFG 12 */

static void
pa_tau (const RefFormat * f, guint64 line_rate, guint64 * num, guint64 * den)
{
  fail_unless (vmi_pace_tau_for_rate (line_rate, ref_datagrams (f),
          f->fps_n, f->fps_d, num, den), "%s does not fit %" G_GUINT64_FORMAT
      " bit/s", f->name, line_rate);
}

guint
pa_expected_wire_frames (const RefFormat * f, guint64 line_rate,
    guint n_frames)
{
  guint n_media = n_frames * ref_datagrams (f), total = 0, sends = 0;
  guint64 num, den;
  VmiPacer p;
  guint32 w;

  pa_tau (f, line_rate, &num, &den);
  fail_unless (vmi_pacer_init_free_running (&p, GAP_MIN, GAP_MAX,
          REF_NET_HEADER + REF_DATAGRAM + WIRE_OVERHEAD, num,
          den) == VMI_PACE_OK);
  for (;;) {
    VmiPaceCmd c = vmi_pacer_next (&p, &w);

    if (c == VMI_PACE_CMD_SEND && sends++ == n_media)
      break;
    total++;
  }
  return total;
}

void
pa_check_wire (const RefFormat * f, guint64 line_rate, GPtrArray * wire,
    guint8 ** pics, guint n_frames, guint16 port, const GstStructure * stats)
{
  static const guint8 gap_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };
  guint n = ref_datagrams (f), want, i, m = 0, gaps = 0, k, r;
  gsize fb = ref_frame_bytes (f), ustride = f->width * 5 / 2;
  guint8 *raster = g_malloc (fb), *prev = g_malloc (fb);
  guint8 *pic = g_malloc (ustride * f->height);
  guint64 num, den, pos = 0, gap_bytes = 0, gap_min = G_MAXUINT64,
      gap_max = 0;
  guint16 seq0 = 0;
  guint32 rtp0 = 0;

  pa_tau (f, line_rate, &num, &den);
  want = pa_expected_wire_frames (f, line_rate, n_frames);
  fail_unless_equals_uint64 (net_stat (stats, "frames"), n_frames);
  fail_unless_equals_uint64 (net_stat (stats, "packets"), n_frames * n);
  fail_unless (wire->len >= want, "%u frames on the wire, want %u",
      wire->len, want);
  if (net_stat (stats, "underruns") == 0)
    fail_unless_equals_int (wire->len, want);

  for (i = 0; i < wire->len; i++) {
    gsize len;
    const guint8 *fr = g_bytes_get_data (wire->pdata[i], &len);
    guint et = fr[12] << 8 | fr[13];

    if (et == 0x0800) {
      const guint8 *d = fr + REF_NET_HEADER;
      guint idx = m % n;
      gsize off = (gsize) idx * REF_PAYLOAD;
      guint64 want_pos = (guint64) ((unsigned __int128) m * num / den);

      fail_unless (i < want, "media frame after the pacer's last");
      fail_unless (pos == want_pos, "media frame %u at wire byte %"
          G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT, m, pos, want_pos);
      fail_unless_equals_int (len, REF_NET_HEADER + REF_DATAGRAM);
      fail_unless_equals_int (fr[23], 17);
      fail_unless_equals_int (fr[36] << 8 | fr[37], port);
      if (m == 0) {
        seq0 = d[2] << 8 | d[3];
        rtp0 = (guint32) d[4] << 24 | d[5] << 16 | d[6] << 8 | d[7];
      }
      fail_unless_equals_int ((guint16) (d[2] << 8 | d[3]),
          (guint16) (seq0 + m));
      fail_unless_equals_int ((guint32) d[4] << 24 | d[5] << 16 | d[6] << 8
          | d[7], rtp0 + (m / n) * ref_rtp_per_frame (f));
      fail_unless_equals_int (!!(d[1] & 0x80), idx == n - 1);
      memcpy (raster + off, d + REF_HEADER, MIN (REF_PAYLOAD, fb - off));
      if (idx == n - 1) {
        gchar *err = NULL;
        guint errors = ref_check_raster (f, raster, m >= n ? prev : NULL,
            pic, &err);

        k = m / n;
        fail_unless (errors == 0, "frame %u: %u raster errors, first: %s", k,
            errors, err);
        for (r = 0; r < f->height; r++)
          fail_unless (memcmp (pic + r * ustride, pics[k] + r * ustride,
                  ustride) == 0, "frame %u: picture row %u differs", k, r);
        memcpy (prev, raster, fb);
      }
      m++;
    } else {
      fail_unless (i > 0, "the wire starts with a gap frame");
      fail_unless_equals_int (et, 0x8808);
      fail_unless (memcmp (fr, gap_dst, 6) == 0, "gap frame %u not to "
          "01:80:C2:00:00:01", i);
      fail_unless (len + WIRE_OVERHEAD >= GAP_MIN
          && len + WIRE_OVERHEAD <= GAP_MAX, "gap frame of %u wire bytes",
          (guint) len + WIRE_OVERHEAD);
      gaps++;
      gap_bytes += len + WIRE_OVERHEAD;
      gap_min = MIN (gap_min, len + WIRE_OVERHEAD);
      gap_max = MAX (gap_max, len + WIRE_OVERHEAD);
    }
    pos += len + WIRE_OVERHEAD;
  }
  fail_unless_equals_int (m, n_frames * n);
  g_print ("%s at %" G_GUINT64_FORMAT " bit/s: tau %.2f wire bytes, %u media "
      "frames at floor(i*tau), %u gap frames of %" G_GUINT64_FORMAT "..%"
      G_GUINT64_FORMAT " wire bytes\n", f->name, line_rate, (double) num / den,
      m, gaps, gap_min, gap_max);
  fail_unless_equals_uint64 (net_stat (stats, "gap-frames"), gaps);
  fail_unless_equals_uint64 (net_stat (stats, "gap-bytes"), gap_bytes);

  g_free (raster);
  g_free (prev);
  g_free (pic);
}
