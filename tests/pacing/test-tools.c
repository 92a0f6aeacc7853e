/* gst-vmi: vmi-pace and vmi-analyze on real files.
 *
 * The test writes pcap (µs and ns magic), pcapng and Linux-cooked captures
 * itself, byte by byte, runs vmi-analyze --json on them and compares with
 * values computed here from the timestamps it wrote.
 *
 * argv[1] = vmi-pace, argv[2] = vmi-analyze (from meson).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "tool-json.h"

static const gchar *vmi_pace_path, *vmi_analyze_path;
static gchar *tmpdir;

#define PORT 5004
#define RATE (4497.0 * 30000.0 / 1001.0)
#define NPKT 3000
#define LOST_AT 1000            /* datagram never written: one seq gap */

/* ---- capture writers ---- */

static void
put16 (GByteArray * b, guint16 v, gboolean be)
{
  guint8 x[2] = { be ? v >> 8 : v & 0xff, be ? v & 0xff : v >> 8 };
  g_byte_array_append (b, x, 2);
}

static void
put32 (GByteArray * b, guint32 v)
{
  /* capture file headers are written little-endian (the writer's order) */
  guint8 x[4] = { v, v >> 8, v >> 16, v >> 24 };
  g_byte_array_append (b, x, 4);
}

typedef enum
{
  LINK_ETH, LINK_VLAN, LINK_SLL, LINK_SLL2, LINK_ETH_SNAP96     /* cut to 96 */
} Link;

/* one frame carrying IPv4/UDP/RTP(seq) with a 1400-byte payload */
static GByteArray *
make_frame (Link link, guint16 dport, guint16 seq)
{
  GByteArray *f = g_byte_array_new ();
  static const guint8 dst[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
  static const guint8 src[6] = { 0x02, 0, 0, 0, 0, 1 };
  guint8 ip[20] = { 0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0,
    192, 168, 1, 1, 239, 1, 2, 3
  };
  guint8 rtp[1400] = { 0 };
  guint16 udp_len = 8 + sizeof (rtp), ip_len = 20 + udp_len;

  if (link == LINK_SLL2) {
    put16 (f, 0x0800, TRUE);    /* protocol */
    put16 (f, 0, TRUE);
    put16 (f, 0, TRUE);         /* interface index (32 bits) */
    put16 (f, 3, TRUE);
    put16 (f, 1, TRUE);         /* ARPHRD_ETHER */
    g_byte_array_append (f, (const guint8 *) "\x04\x06", 2);
    g_byte_array_append (f, src, 6);
    put16 (f, 0, TRUE);
  } else if (link == LINK_SLL) {
    put16 (f, 4, TRUE);         /* sent by us */
    put16 (f, 1, TRUE);         /* ARPHRD_ETHER */
    put16 (f, 6, TRUE);
    g_byte_array_append (f, src, 6);
    put16 (f, 0, TRUE);
    put16 (f, 0x0800, TRUE);
  } else {
    g_byte_array_append (f, dst, 6);
    g_byte_array_append (f, src, 6);
    if (link == LINK_VLAN) {
      put16 (f, 0x8100, TRUE);
      put16 (f, 0x2064, TRUE);  /* PCP 1, VID 100 */
    }
    put16 (f, 0x0800, TRUE);
  }
  ip[2] = ip_len >> 8;
  ip[3] = ip_len & 0xff;
  g_byte_array_append (f, ip, 20);
  put16 (f, 40000, TRUE);
  put16 (f, dport, TRUE);
  put16 (f, udp_len, TRUE);
  put16 (f, 0, TRUE);
  rtp[0] = 0x80;
  rtp[1] = 98;
  rtp[2] = seq >> 8;
  rtp[3] = seq & 0xff;
  g_byte_array_append (f, rtp, sizeof (rtp));
  return f;
}

typedef enum
{
  FILE_PCAP_US, FILE_PCAP_NS, FILE_PCAPNG_NS
} FileKind;

/* Writes NPKT - 1 datagrams (LOST_AT missing) plus one of another stream,
 * times base + i T + 3 us sin(i/50) + a small pseudo-random term. Returns
 * the times as the file stores them (ns from the first packet). */
static gchar *
write_capture (FileKind kind, Link link, double *t_out, gsize * n_out)
{
  GByteArray *b = g_byte_array_new ();
  const gint64 base = G_GINT64_CONSTANT (1700000000123456789);
  guint32 lcg = 12345;
  gsize n = 0;
  guint i;
  gint64 first = 0;
  gchar *path;
  guint32 dlt = link == LINK_SLL ? 113 : link == LINK_SLL2 ? 276 : 1;
  guint snap = link == LINK_ETH_SNAP96 ? 96 : 65535;

  if (kind == FILE_PCAPNG_NS) {
    put32 (b, 0x0a0d0d0a);      /* section header block */
    put32 (b, 28);
    put32 (b, 0x1a2b3c4d);
    put16 (b, 1, FALSE);
    put16 (b, 0, FALSE);
    put32 (b, 0xffffffff);
    put32 (b, 0xffffffff);
    put32 (b, 28);
    put32 (b, 1);               /* interface description block */
    put32 (b, 32);
    put16 (b, dlt, FALSE);
    put16 (b, 0, FALSE);
    put32 (b, snap);
    put16 (b, 9, FALSE);        /* if_tsresol = 10^-9 */
    put16 (b, 1, FALSE);
    put32 (b, 9);
    put32 (b, 0);               /* opt_endofopt */
    put32 (b, 32);
  } else {
    put32 (b, kind == FILE_PCAP_NS ? 0xa1b23c4d : 0xa1b2c3d4);
    put16 (b, 2, FALSE);
    put16 (b, 4, FALSE);
    put32 (b, 0);
    put32 (b, 0);
    put32 (b, snap);
    put32 (b, dlt);
  }

  for (i = 0; i < NPKT; i++) {
    guint k;
    double jit;
    gint64 ts;
    GByteArray *f;
    gboolean other = (i == 10);

    lcg = lcg * 1103515245 + 12345;
    jit = 3000.0 * sin (i / 50.0) + (double) ((lcg >> 16) % 200);
    ts = base + (gint64) llround (i * (1e9 / RATE) + jit);
    if (kind == FILE_PCAP_US)
      ts -= ts % 1000;          /* what a µs file can hold */
    if (i == LOST_AT)
      continue;
    /* a datagram of another stream just before packet 10 */
    for (k = other ? 0 : 1; k < 2; k++) {
      gint64 tw = k == 0 ? ts - 500 : ts;
      guint orig;
      f = make_frame (link, k == 0 ? PORT + 2 : PORT, (guint16) (65000 + i));
      orig = f->len;
      g_byte_array_set_size (f, MIN (f->len, snap));
      if (kind == FILE_PCAPNG_NS) {
        guint pad = (4 - f->len % 4) % 4, tot = 32 + f->len + pad;
        guint64 u = (guint64) tw;
        put32 (b, 6);
        put32 (b, tot);
        put32 (b, 0);
        put32 (b, u >> 32);
        put32 (b, u & 0xffffffff);
        put32 (b, f->len);
        put32 (b, orig);
        g_byte_array_append (b, f->data, f->len);
        g_byte_array_append (b, (const guint8 *) "\0\0\0", pad);
        put32 (b, tot);
      } else {
        put32 (b, tw / 1000000000);
        put32 (b, kind == FILE_PCAP_US ? (tw % 1000000000) / 1000 :
            tw % 1000000000);
        put32 (b, f->len);
        put32 (b, orig);
        g_byte_array_append (b, f->data, f->len);
      }
      g_byte_array_free (f, TRUE);
    }
    if (n == 0)
      first = ts;
    t_out[n++] = (double) (ts - first);
  }
  *n_out = n;
  path = g_strdup_printf ("%s/cap-%d-%d.%s", tmpdir, kind, link,
      kind == FILE_PCAPNG_NS ? "pcapng" : "pcap");
  fail_unless (g_file_set_contents (path, (const gchar *) b->data, b->len,
          NULL));
  g_byte_array_free (b, TRUE);
  return path;
}

/* ---- running the tools ---- */

static gchar *
run (const gchar * const *argv, gint * status, gchar ** err_out)
{
  gchar *out = NULL, *err = NULL;
  GError *e = NULL;

  fail_unless (g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_DEFAULT,
          NULL, NULL, &out, &err, status, &e), "spawn %s: %s", argv[0],
      e ? e->message : "");
  if (err_out)
    *err_out = err;
  else
    g_free (err);
  return out;
}

/* independent reference computations */
typedef struct
{
  double pit_min, pit_max, pit_mean, jp, span, rate_ls;
} Expect;

static void
expect_for (const double *t, gsize n, double f, Expect * e)
{
  long double st = 0, si = 0, stt = 0, sti = 0, T = 1e9L / f;
  double vmin = 1e300, vmax = -1e300;
  gsize i;

  e->pit_min = 1e300;
  e->pit_max = -1e300;
  e->jp = 0;
  for (i = 0; i + 1 < n; i++) {
    double d = t[i + 1] - t[i];
    e->pit_min = MIN (e->pit_min, d);
    e->pit_max = MAX (e->pit_max, d);
    e->jp = MAX (e->jp, fabs ((double) T - d));
  }
  e->pit_mean = (t[n - 1] - t[0]) / (n - 1);
  for (i = 0; i < n; i++) {
    double v = (double) i - f * t[i] / 1e9;
    vmin = MIN (vmin, v);
    vmax = MAX (vmax, v);
    st += t[i];
    si += i;
    stt += (long double) t[i] * t[i];
    sti += (long double) t[i] * i;
  }
  e->span = vmax - vmin;
  e->rate_ls = (double) ((n * sti - st * si) / (n * stt - st * st) * 1e9L);
}

static void
check_capture (FileKind kind, Link link)
{
  double *t = g_new (double, NPKT);
  gsize n;
  gchar *path = write_capture (kind, link, t, &n);
  gchar rate[32];
  const gchar *argv[] = { vmi_analyze_path, "--json", "--port", "5004",
    "--rate", rate, path, NULL
  };
  gchar *out;
  gint status;
  Expect e;

  g_ascii_formatd (rate, sizeof (rate), "%.6f", RATE);
  out = run (argv, &status, NULL);
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s", out);
  expect_for (t, n, RATE, &e);
  GST_INFO ("%s: %s", path, out);
  fail_unless_equals_int ((gint) json_num (out, "packets"), NPKT - 1);
  fail_unless_equals_int ((gint) n, NPKT - 1);
  fail_unless (fabs (json_num (out, "pit_min_ns") - e.pit_min) < 1e-3);
  fail_unless (fabs (json_num (out, "pit_max_ns") - e.pit_max) < 1e-3);
  fail_unless (fabs (json_num (out, "pit_mean_ns") - e.pit_mean) < 1e-3);
  fail_unless (fabs (json_num (out, "peak_period_jitter_ns") - e.jp) < 1e-3);
  fail_unless (fabs (json_num (out, "occupancy_span") - e.span) < 1e-5,
      "span %g vs %g", json_num (out, "occupancy_span"), e.span);
  fail_unless (fabs (json_num (out, "alt_jitter_ns") - e.span / (2 * RATE) *
          1e9) < 1e-3);
  fail_unless_equals_int ((gint) json_num (out, "seq_errors"), 1);
  fail_unless_equals_int ((gint) json_num (out, "seq_lost"), 1);
  fail_unless_equals_int ((gint) json_num (out, "seq_late"), 0);
  fail_unless_equals_int ((gint) json_num (out, "udp_port"), PORT);
  fail_unless_equals_int ((gint) json_num (out, "rate_estimated"), 0);
  /* the sinusoid (3 us) dominates: J_ALT ~ 3 us, well above 0 */
  fail_unless (e.span > 0.5);
  g_free (out);

  /* without --rate: least squares, checked against the long-double fit */
  {
    const gchar *argv2[] = { vmi_analyze_path, "--json", path, NULL };
    out = run (argv2, &status, NULL);
    fail_unless (g_spawn_check_wait_status (status, NULL), "%s", out);
    fail_unless_equals_int ((gint) json_num (out, "rate_estimated"), 1);
    fail_unless (fabs (json_num (out, "rate_hz") - e.rate_ls) < 1e-4,
        "%.6f vs %.6f", json_num (out, "rate_hz"), e.rate_ls);
    fail_unless_equals_int ((gint) json_num (out, "udp_port"), PORT);
    /* the datagram to PORT + 2 came after the stream was locked: skipped */
    fail_unless_equals_int ((gint) json_num (out, "packets"), NPKT - 1);
    fail_unless_equals_int ((gint) json_num (out, "skipped"), 1);
    g_free (out);
  }
  g_free (path);
  g_free (t);
}

GST_START_TEST (test_pcap_us_ethernet)
{
  check_capture (FILE_PCAP_US, LINK_ETH);
}

GST_END_TEST;

GST_START_TEST (test_pcap_ns_vlan)
{
  check_capture (FILE_PCAP_NS, LINK_VLAN);
}

GST_END_TEST;

GST_START_TEST (test_pcapng_ns_ethernet)
{
  check_capture (FILE_PCAPNG_NS, LINK_ETH);
}

GST_END_TEST;

GST_START_TEST (test_pcap_ns_sll)
{
  check_capture (FILE_PCAP_NS, LINK_SLL);
}

GST_END_TEST;

/* vmi-pace -> CSV -> vmi-analyze: free-running 1080i59.94 at 10 Gbit/s */
GST_START_TEST (test_pcapng_ns_sll2)
{
  check_capture (FILE_PCAPNG_NS, LINK_SLL2);
}

GST_END_TEST;

GST_START_TEST (test_pcap_us_snaplen96)
{
  check_capture (FILE_PCAP_US, LINK_ETH_SNAP96);
}

GST_END_TEST;

GST_START_TEST (test_pace_free_running_csv)
{
  gchar *csv = g_build_filename (tmpdir, "fr.csv", NULL);
  gchar *png = g_build_filename (tmpdir, "fr.png", NULL);
  const gchar *pace[] = { vmi_pace_path, "--mode", "free-running",
    "--format", "1080i59.94", "--packets", "300000", "-q", "-o", csv, NULL
  };
  const gchar *ana[] = { vmi_analyze_path, "--json", "--format",
    "1080i59.94", "--plot", png, csv, NULL
  };
  gchar *out, *contents;
  gint status;
  gsize len;

  out = run (pace, &status, NULL);
  fail_unless (g_spawn_check_wait_status (status, NULL));
  g_free (out);
  fail_unless (g_file_get_contents (csv, &contents, &len, NULL));
  /* tau = 9274.70: 1466 + 5 x 1538 + 118 for the first packet */
  fail_unless (g_str_has_prefix (contents, "send,1466\ngap,1538\ngap,1538\n"
          "gap,1538\ngap,1538\ngap,1538\ngap,118\nsend,1466\n"));
  g_free (contents);

  out = run (ana, &status, NULL);
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s", out);
  fail_unless_equals_int ((gint) json_num (out, "packets"), 300000);
  fail_unless (json_num (out, "gap_min") >= 84);
  fail_unless (json_num (out, "gap_max") <= 1538);
  fail_unless (fabs (json_num (out, "pit_min_ns") - 7419.2) < 1e-3);
  fail_unless (fabs (json_num (out, "pit_max_ns") - 7420.0) < 1e-3);
  fail_unless (json_num (out, "occupancy_span") < 1.0);
  fail_unless_equals_int ((gint) json_num (out, "narrow_pass"), 1);
  fail_unless (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_free (out);
  g_free (csv);
  g_free (png);
}

GST_END_TEST;

/* controlled mode follows a reference 100 ppm fast with 10 us jitter; the
 * reference, written as a capture, qualifies the controller (property 5)
 * and the bound it gives holds for the stream the pacer produced */
GST_START_TEST (test_pace_controlled_csv)
{
  gchar *csv = g_build_filename (tmpdir, "ctl.csv", NULL);
  gchar *ref = g_build_filename (tmpdir, "ref.pcap", NULL);
  gchar rate[32];
  const gchar *pace[] = { vmi_pace_path, "--mode", "controlled",
    "--packets", "700000", "--ref-ppm", "100", "--ref-jitter-ns", "10000",
    "--window-ns", "1e9", "--windows", "2", "-q", "-o", csv,
    "--reference-pcap", ref, NULL
  };
  const gchar *ana[] = { vmi_analyze_path, "--json", "--rate", rate, csv,
    NULL
  };
  const gchar *qual[] = { vmi_analyze_path, "--json", "--fc-window-ns", "1e9",
    "--fc-windows", "2", ref, NULL
  };
  gchar *out;
  gint status;
  double span, bound;

  g_ascii_formatd (rate, sizeof (rate), "%.6f", RATE * (1 + 100e-6));
  out = run (pace, &status, NULL);
  fail_unless (g_spawn_check_wait_status (status, NULL));
  g_free (out);
  out = run (ana, &status, NULL);
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s", out);
  fail_unless (json_num (out, "gap_min") >= 84);
  fail_unless (json_num (out, "gap_max") <= 1538);
  span = json_num (out, "occupancy_span");
  fail_unless (span <= 3.0, "%s", out);
  g_free (out);

  out = run (qual, &status, NULL);
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s", out);
  /* the reference: +100 ppm, gapless sequence, covering the whole run */
  fail_unless (fabs (json_num (out, "rate_hz") / (RATE * (1 + 100e-6)) - 1)
      < 2e-6, "%s", out);
  fail_unless_equals_int ((gint) json_num (out, "seq_errors"), 0);
  fail_unless (json_num (out, "packets") >= 700000);
  bound = json_num (out, "fc_buffer_packets");
  GST_INFO ("span %.3f, property-5 buffer bound %.3f", span, bound);
  fail_unless (json_num (out, "fc_a_w_ns") > 0);
  fail_unless (bound > 0 && bound < 8, "%s", out);
  fail_unless (span <= bound, "span %g above the bound %g", span, bound);
  g_free (out);
  g_free (csv);
  g_free (ref);
}

GST_END_TEST;

GST_START_TEST (test_errors)
{
  const gchar *pace[] = { vmi_pace_path, "--line-rate", "1e9", "-n", "10",
    NULL
  };
  const gchar *pace2[] = { vmi_pace_path, "--mode", "sideways", NULL };
  gchar *bad = g_build_filename (tmpdir, "bad.pcap", NULL);
  const gchar *ana[] = { vmi_analyze_path, bad, NULL };
  gchar *out, *err;
  gint status;

  /* 1080i59.94 cannot be paced at 1 Gbit/s: refused with the reason */
  out = run (pace, &status, &err);
  fail_if (g_spawn_check_wait_status (status, NULL));
  fail_unless (strstr (err, "too high") != NULL, "%s", err);
  fail_unless_equals_string (out, "");
  g_free (out);
  g_free (err);

  out = run (pace2, &status, &err);
  fail_if (g_spawn_check_wait_status (status, NULL));
  fail_unless (strstr (err, "--mode") != NULL, "%s", err);
  g_free (out);
  g_free (err);

  /* a capture cut in the middle of a record: the packets before it count */
  {
    double *t = g_new (double, NPKT);
    gsize n;
    gchar *path = write_capture (FILE_PCAP_NS, LINK_ETH, t, &n), *data;
    gsize len;
    const gchar *argv[] = { vmi_analyze_path, "--json", path, NULL };

    fail_unless (g_file_get_contents (path, &data, &len, NULL));
    /* header 24 + 101 records of 16 + 1442 (stream packets 0-9, the other
     * stream's datagram, stream packets 10-99), then half a record */
    fail_unless (g_file_set_contents (path, data, 24 + 101 * 1458 + 700,
            NULL));
    out = run (argv, &status, &err);
    fail_unless (g_spawn_check_wait_status (status, NULL), "%s", err);
    fail_unless_equals_int ((gint) json_num (out, "packets"), 100);
    fail_unless (strstr (err, "truncated") != NULL, "%s", err);
    g_free (out);
    g_free (err);
    g_free (data);
    g_free (path);
    g_free (t);
  }

  fail_unless (g_file_set_contents (bad, "not a capture at all", -1, NULL));
  out = run (ana, &status, &err);
  fail_if (g_spawn_check_wait_status (status, NULL));
  fail_unless (strlen (err) > 0);
  g_free (out);
  g_free (err);
  g_free (bad);
}

GST_END_TEST;

static Suite *
pacing_tools_suite (void)
{
  Suite *s = suite_create ("pacing-tools");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pcap_us_ethernet);
  tcase_add_test (tc, test_pcap_ns_vlan);
  tcase_add_test (tc, test_pcapng_ns_ethernet);
  tcase_add_test (tc, test_pcap_ns_sll);
  tcase_add_test (tc, test_pcapng_ns_sll2);
  tcase_add_test (tc, test_pcap_us_snaplen96);
  tcase_add_test (tc, test_pace_free_running_csv);
  tcase_add_test (tc, test_pace_controlled_csv);
  tcase_add_test (tc, test_errors);
  return s;
}

static void
rm_rf (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  if (!d)
    return;
  while ((name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL);
    g_unlink (p);
    g_free (p);
  }
  g_dir_close (d);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  int nf;
  SRunner *sr;

  gst_check_init (&argc, &argv);
  if (argc < 3) {
    g_printerr ("usage: %s VMI-PACE VMI-ANALYZE\n", argv[0]);
    return 1;
  }
  vmi_pace_path = argv[1];
  vmi_analyze_path = argv[2];
  tmpdir = g_dir_make_tmp ("vmi-pacing-XXXXXX", NULL);
  g_assert (tmpdir);
  sr = srunner_create (pacing_tools_suite ());
  srunner_run_all (sr, CK_NORMAL);
  nf = srunner_ntests_failed (sr);
  srunner_free (sr);
  rm_rf (tmpdir);
  g_free (tmpdir);
  return nf == 0 ? 0 : 1;
}
