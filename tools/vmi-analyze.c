/* vmi-analyze: timing analysis of one ST 2022-6 stream
 *
 * Input: a capture (pcap or pcapng, µs or ns timestamps; Ethernet with
 * 802.1Q/802.1ad tags, Linux cooked SLL/SLL2, raw IP) or a vmi-pace CSV,
 * timed on a virtual wire at --line-rate. Reports PIT statistics,
 * peak-period jitter, occupancy span and ALT-jitter estimate, packets per
 * 1-s window, RTP sequence errors, and Cinst/VRX against the ST 2110-21
 * narrow and wide limits. --plot draws a thesis fig. 4.6 style PNG.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <errno.h>

#include <glib.h>
#include <pcap/pcap.h>

#include "vmi-timing.h"
#include "vmi-format.h"
#include "vmi-plot.h"
#include "vmi-capture.h"

static gint opt_port = -1;
static gdouble opt_rate = 0;
static gchar *opt_format = NULL;
static gdouble opt_line_rate = 10e9;
static gboolean opt_json = FALSE;
static gchar *opt_plot = NULL;
static gdouble opt_fc_window_ns = 0;
static gint opt_fc_windows = 2;

static GOptionEntry entries[] = {
  {"port", 'p', 0, G_OPTION_ARG_INT, &opt_port,
      "UDP destination port of the stream (default: the first RTP stream)",
      "PORT"},
  {"rate", 0, 0, G_OPTION_ARG_DOUBLE, &opt_rate,
      "packet rate f in packets/s (default: least-squares estimate)", "F"},
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "take f from this format's nominal packet rate (e.g. 1080i59.94)",
      "NAME"},
  {"line-rate", 'r', 0, G_OPTION_ARG_DOUBLE, &opt_line_rate,
      "CSV input: virtual wire line rate, bit/s (default 10e9)", "BPS"},
  {"json", 'j', 0, G_OPTION_ARG_NONE, &opt_json,
      "print one JSON object", NULL},
  {"plot", 0, 0, G_OPTION_ARG_FILENAME, &opt_plot,
      "write PIT histogram, occupancy and packets per window to a PNG",
      "FILE.png"},
  {"fc-window-ns", 0, 0, G_OPTION_ARG_DOUBLE, &opt_fc_window_ns,
        "input is the reference stream: qualify a frequency controller "
        "sampled every W ns (A_W, C_W, receiver buffer needed)", "W"},
  {"fc-windows", 0, 0, G_OPTION_ARG_INT, &opt_fc_windows,
      "N_W regularisation windows for --fc-window-ns (default 2)", "N"},
  {NULL}
};

typedef struct
{
  gboolean done;
  double a_w, c_w, t_e, bound, buffer;
} FcReport;

static FcReport fc;

typedef struct
{
  GArray *t_abs;                /* gint64 ns (pcap) */
  GArray *t;                    /* double ns relative to the first packet */
  VmiSeqStats seq;
  gboolean from_csv;
  guint64 gaps, gap_min, gap_max;
  guint64 skipped;              /* packets not belonging to the stream */
  guint64 malformed;
  gint port;
} Input;

/* ---- pcap ---- */

static gboolean
read_pcap (const gchar * path, Input * in, GError ** error)
{
  char errbuf[PCAP_ERRBUF_SIZE];
  pcap_t *pc;
  struct pcap_pkthdr *h;
  const u_char *data;
  int dlt, r;

  pc = pcap_open_offline_with_tstamp_precision (path,
      PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (!pc) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s", errbuf);
    return FALSE;
  }
  dlt = pcap_datalink (pc);
  while ((r = pcap_next_ex (pc, &h, &data)) == 1) {
    guint16 dport;
    const guint8 *pl;
    guint pl_len;
    gint64 ts;

    if (!vmi_capture_udp (dlt, data, h->caplen, &dport, &pl, &pl_len)) {
      in->skipped++;
      continue;
    }
    if (in->port < 0) {
      /* lock onto the first RTP (version 2) stream */
      if (pl_len < 12 || (pl[0] >> 6) != 2) {
        in->skipped++;
        continue;
      }
      in->port = dport;
    }
    if (dport != in->port) {
      in->skipped++;
      continue;
    }
    if (pl_len < 12 || (pl[0] >> 6) != 2) {
      in->malformed++;
      continue;
    }
    vmi_seq_stats_push (&in->seq, (pl[2] << 8) | pl[3]);
    /* nano precision was requested, so tv_usec holds ns */
    ts = (gint64) h->ts.tv_sec * 1000000000 + h->ts.tv_usec;
    g_array_append_val (in->t_abs, ts);
  }
  if (r == -1) {
    /* a capture cut short (tcpdump killed) still holds good packets:
     * analyse them and say where the file broke */
    if (in->t_abs->len == 0) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: %s", path,
          pcap_geterr (pc));
      pcap_close (pc);
      return FALSE;
    }
    g_printerr ("vmi-analyze: warning: %s: %s; analysing the %u packets "
        "before it\n", path, pcap_geterr (pc), in->t_abs->len);
  }
  pcap_close (pc);
  return TRUE;
}

/* ---- vmi-pace CSV on a virtual wire ---- */

static gboolean
read_csv (const gchar * path, Input * in, guint64 line_rate, GError ** error)
{
  FILE *f = g_str_equal (path, "-") ? stdin : fopen (path, "r");
  char line[128];
  VmiVWire w;
  guint64 lineno = 0;

  if (!f) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "%s: %s", path, g_strerror (errno));
    return FALSE;
  }
  vmi_vwire_init (&w, line_rate);
  while (fgets (line, sizeof (line), f)) {
    char *end;
    guint64 n;
    gboolean media;

    lineno++;
    if (line[0] == '#' || line[0] == '\n')
      continue;
    if (g_str_has_prefix (line, "send,")) {
      media = TRUE;
      n = g_ascii_strtoull (line + 5, &end, 10);
    } else if (g_str_has_prefix (line, "gap,")) {
      media = FALSE;
      n = g_ascii_strtoull (line + 4, &end, 10);
    } else {
      goto bad;
    }
    if (n == 0 || n > 1000000 || (*end != '\n' && *end != '\0'
            && *end != '\r'))
      goto bad;
    if (media) {
      double t = vmi_vwire_ns (&w, vmi_vwire_push (&w, n, TRUE));
      g_array_append_val (in->t, t);
    } else {
      vmi_vwire_push (&w, n, FALSE);
      in->gaps++;
      in->gap_min = MIN (in->gap_min, n);
      in->gap_max = MAX (in->gap_max, n);
    }
    continue;
  bad:
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "%s:%" G_GUINT64_FORMAT ": expected 'send,<bytes>' or "
        "'gap,<bytes>'", path, lineno);
    if (f != stdin)
      fclose (f);
    return FALSE;
  }
  if (f != stdin)
    fclose (f);
  return TRUE;
}

static gboolean
is_csv (const gchar * path)
{
  FILE *f;
  char b[8] = { 0 };
  size_t n;

  if (g_str_equal (path, "-"))
    return TRUE;
  if (!(f = fopen (path, "rb")))
    return FALSE;               /* read_pcap reports the error */
  n = fread (b, 1, sizeof (b) - 1, f);
  fclose (f);
  return n >= 4 && (g_str_has_prefix (b, "send,") || g_str_has_prefix (b,
          "gap,") || b[0] == '#');
}

static const char *
pf (gboolean ok)
{
  return ok ? "pass" : "FAIL";
}

static void
print_json (const Input * in, const VmiTimingReport * r)
{
  const VmiTimingLimits *l = &r->limits;
  gboolean narrow = r->cinst_max <= l->cmax_narrow
      && r->vrx_max <= l->vrx_narrow;
  gboolean wide = r->cinst_max <= l->cmax_wide && r->vrx_max <= l->vrx_wide;

  printf ("{\"source\": \"%s\", \"packets\": %" G_GSIZE_FORMAT
      ", \"duration_ns\": %.3f, \"rate_hz\": %.6f, \"rate_estimated\": %s"
      ", \"rate_mean_hz\": %.6f"
      ", \"pit_mean_ns\": %.4f, \"pit_min_ns\": %.4f, \"pit_max_ns\": %.4f"
      ", \"pit_stddev_ns\": %.4f, \"pit_p1_ns\": %.4f, \"pit_p50_ns\": %.4f"
      ", \"pit_p99_ns\": %.4f, \"pit_p999_ns\": %.4f"
      ", \"peak_period_jitter_ns\": %.4f"
      ", \"occupancy_min\": %.6f, \"occupancy_max\": %.6f"
      ", \"occupancy_span\": %.6f, \"alt_jitter_ns\": %.4f"
      ", \"windows\": %u, \"window_min\": %" G_GUINT64_FORMAT
      ", \"window_max\": %" G_GUINT64_FORMAT ", \"window_mean\": %.3f",
      in->from_csv ? "csv" : "pcap", r->packets, r->duration_ns, r->rate_hz,
      r->rate_estimated ? "true" : "false", r->rate_mean_hz, r->pit_mean_ns,
      r->pit_min_ns, r->pit_max_ns, r->pit_stddev_ns, r->pit_p1_ns,
      r->pit_p50_ns, r->pit_p99_ns, r->pit_p999_ns, r->peak_period_jitter_ns,
      r->occupancy_min, r->occupancy_max, r->occupancy_span, r->alt_jitter_ns,
      r->windows, r->window_min, r->window_max, r->window_mean);
  if (in->from_csv)
    printf (", \"gaps\": %" G_GUINT64_FORMAT ", \"gap_min\": %"
        G_GUINT64_FORMAT ", \"gap_max\": %" G_GUINT64_FORMAT, in->gaps,
        in->gaps ? in->gap_min : 0, in->gap_max);
  else
    printf (", \"udp_port\": %d, \"seq_errors\": %" G_GUINT64_FORMAT
        ", \"seq_lost\": %" G_GUINT64_FORMAT ", \"seq_late\": %"
        G_GUINT64_FORMAT ", \"skipped\": %" G_GUINT64_FORMAT
        ", \"malformed\": %" G_GUINT64_FORMAT, in->port, in->seq.errors,
        in->seq.lost, in->seq.late, in->skipped, in->malformed);
  if (fc.done)
    printf (", \"fc_window_ns\": %.1f, \"fc_windows\": %d"
        ", \"fc_a_w_ns\": %.4f, \"fc_c_w_ns\": %.4f, \"fc_bound_ns\": %.4f"
        ", \"fc_buffer_packets\": %.4f", opt_fc_window_ns, opt_fc_windows,
        fc.a_w, fc.c_w, fc.bound, fc.buffer);
  printf (", \"cinst_max\": %u, \"vrx_max\": %u, \"cmax_narrow\": %u"
      ", \"vrx_full_narrow\": %u, \"cmax_wide\": %u, \"vrx_full_wide\": %u"
      ", \"narrow_pass\": %s, \"wide_pass\": %s}\n", r->cinst_max, r->vrx_max,
      l->cmax_narrow, l->vrx_narrow, l->cmax_wide, l->vrx_wide,
      narrow ? "true" : "false", wide ? "true" : "false");
}

static void
print_text (const Input * in, const VmiTimingReport * r)
{
  const VmiTimingLimits *l = &r->limits;

  printf ("source            %s%s\n", in->from_csv ? "vmi-pace CSV on a "
      "virtual wire" : "capture", "");
  if (!in->from_csv)
    printf ("udp port          %d (%" G_GUINT64_FORMAT " other packets "
        "skipped, %" G_GUINT64_FORMAT " malformed)\n", in->port, in->skipped,
        in->malformed);
  printf ("packets           %" G_GSIZE_FORMAT " over %.6f s\n", r->packets,
      r->duration_ns / 1e9);
  printf ("rate f            %.4f packets/s (%s; mean %.4f)\n", r->rate_hz,
      r->rate_estimated ? "least squares" : "given", r->rate_mean_hz);
  if (r->windows)
    printf ("per 1-s window    min %" G_GUINT64_FORMAT " max %"
        G_GUINT64_FORMAT " mean %.2f (%u windows)\n", r->window_min,
        r->window_max, r->window_mean, r->windows);
  else
    printf ("per 1-s window    (trace shorter than 1 s)\n");
  printf ("PIT ns            mean %.3f min %.3f max %.3f stddev %.3f\n",
      r->pit_mean_ns, r->pit_min_ns, r->pit_max_ns, r->pit_stddev_ns);
  printf ("PIT percentiles   p1 %.3f p50 %.3f p99 %.3f p99.9 %.3f\n",
      r->pit_p1_ns, r->pit_p50_ns, r->pit_p99_ns, r->pit_p999_ns);
  printf ("peak-period jitter %.3f ns\n", r->peak_period_jitter_ns);
  /* values that print as zero print as 0, not -0 */
  printf ("occupancy i-f*t   min %.4f max %.4f span %.4f packets\n",
      fabs (r->occupancy_min) < 5e-5 ? 0.0 : r->occupancy_min,
      fabs (r->occupancy_max) < 5e-5 ? 0.0 : r->occupancy_max,
      r->occupancy_span);
  printf ("ALT-jitter est.   %.3f ns (span / 2f)\n", r->alt_jitter_ns);
  if (in->from_csv)
    printf ("gap frames        %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
        "..%" G_GUINT64_FORMAT " wire bytes)\n", in->gaps,
        in->gaps ? in->gap_min : 0, in->gap_max);
  else
    printf ("sequence errors   %" G_GUINT64_FORMAT " (lost %" G_GUINT64_FORMAT
        ", late/duplicate %" G_GUINT64_FORMAT ")\n", in->seq.errors,
        in->seq.lost, in->seq.late);
  printf ("Cinst max         %u  narrow <= %u %s, wide <= %u %s\n",
      r->cinst_max, l->cmax_narrow, pf (r->cinst_max <= l->cmax_narrow),
      l->cmax_wide, pf (r->cinst_max <= l->cmax_wide));
  printf ("VRX max           %u  narrow <= %u %s, wide <= %u %s\n",
      r->vrx_max, l->vrx_narrow, pf (r->vrx_max <= l->vrx_narrow),
      l->vrx_wide, pf (r->vrx_max <= l->vrx_wide));
  if (fc.done)
    printf ("controller W=%.0f ns N_W=%d: A_W %.3f ns, C_W %.3f ns, "
        "A_W + C_W + T^e = %.3f ns -> receiver buffer > %.3f packets\n",
        opt_fc_window_ns, opt_fc_windows, fc.a_w, fc.c_w, fc.bound,
        fc.buffer);
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GError *err = NULL;
  Input in = { 0 };
  VmiTimingReport rep;
  double rate = 0;
  int ret = 1;
  gsize i;
  guint backwards = 0;

  ctx = g_option_context_new ("FILE - timing analysis of one ST 2022-6 stream");
  g_option_context_set_summary (ctx,
      "FILE is a pcap/pcapng capture or a vmi-pace CSV ('-' reads CSV from "
      "stdin).");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || argc != 2) {
    g_printerr ("vmi-analyze: %s\n", err ? err->message :
        "exactly one input file expected (see --help)");
    g_clear_error (&err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);
  if (opt_port > 65535 || opt_port < -1 || opt_port == 0) {
    g_printerr ("vmi-analyze: --port must be 1..65535\n");
    return 2;
  }
  if (!(opt_line_rate >= 1e6 && opt_line_rate <= 1e12)) {
    g_printerr ("vmi-analyze: --line-rate out of range\n");
    return 2;
  }
  if (opt_fc_window_ns < 0 || opt_fc_windows < 1 || opt_fc_windows > 1000) {
    g_printerr ("vmi-analyze: --fc-window-ns must be > 0 and --fc-windows "
        "1..1000\n");
    return 2;
  }
  if (opt_rate < 0) {
    g_printerr ("vmi-analyze: --rate must be positive\n");
    return 2;
  }
  rate = opt_rate;
  if (opt_format) {
    guint64 ppf, num, den;
    if (!vmi_tools_format_lookup (opt_format, &ppf, &num, &den)) {
      gchar *names = vmi_tools_format_names ();
      g_printerr ("vmi-analyze: unknown format '%s' (known: %s)\n",
          opt_format, names);
      g_free (names);
      return 2;
    }
    if (rate == 0)
      rate = (double) ppf * num / den;
  }

  in.port = opt_port;
  in.gap_min = G_MAXUINT64;
  in.t_abs = g_array_new (FALSE, FALSE, sizeof (gint64));
  in.t = g_array_new (FALSE, FALSE, sizeof (double));
  in.from_csv = is_csv (argv[1]);
  if (in.from_csv) {
    if (!read_csv (argv[1], &in, (guint64) llround (opt_line_rate), &err))
      goto error;
  } else {
    if (!read_pcap (argv[1], &in, &err))
      goto error;
    for (i = 0; i < in.t_abs->len; i++) {
      gint64 d = g_array_index (in.t_abs, gint64, i) -
          g_array_index (in.t_abs, gint64, 0);
      double t = (double) d;
      if (i && t < g_array_index (in.t, double, i - 1) && !backwards++)
        g_printerr ("vmi-analyze: warning: capture timestamps go backwards "
            "at packet %" G_GSIZE_FORMAT "\n", i);
      g_array_append_val (in.t, t);
    }
  }
  if (in.t->len < 2) {
    g_printerr ("vmi-analyze: %s: fewer than 2 packets of the stream%s\n",
        argv[1], in.port >= 0 || in.from_csv ? "" :
        " (no RTP stream found; try --port)");
    goto out;
  }
  if (!vmi_timing_analyze ((const double *) in.t->data, in.t->len, rate,
          &rep)) {
    g_printerr ("vmi-analyze: %s: all packets have the same timestamp\n",
        argv[1]);
    goto out;
  }
  if (opt_fc_window_ns > 0) {
    if (!vmi_timing_fc_bounds ((const double *) in.t->data, in.t->len,
            rep.rate_hz, opt_fc_window_ns, opt_fc_windows, &fc.a_w, &fc.c_w)) {
      g_printerr ("vmi-analyze: %s: trace shorter than %d windows of %.0f "
          "ns, cannot qualify the controller\n", argv[1], opt_fc_windows + 1,
          opt_fc_window_ns);
      goto out;
    }
    /* property 5 bound, then property 2: b > 2 f J_ALT */
    fc.t_e = 8e9 / opt_line_rate;
    fc.bound = fc.a_w + fc.c_w + fc.t_e;
    fc.buffer = 2.0 * rep.rate_hz * fc.bound * 1e-9;
    fc.done = TRUE;
  }
  if (opt_json)
    print_json (&in, &rep);
  else
    print_text (&in, &rep);
  if (opt_plot && !vmi_plot_png (opt_plot, argv[1],
          (const double *) in.t->data, in.t->len, &rep, &err))
    goto error;
  ret = 0;
  goto out;

error:
  g_printerr ("vmi-analyze: %s\n", err->message);
  g_clear_error (&err);
out:
  g_array_free (in.t_abs, TRUE);
  g_array_free (in.t, TRUE);
  g_free (opt_format);
  g_free (opt_plot);
  return ret;
}
