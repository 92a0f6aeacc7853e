/* vmi-pace: run the Pacing-Assistant command generator (thesis algorithms
 * 1 and 2) and write the frames it puts on the wire as CSV:
 *   send,<wire bytes>     a media packet
 *   gap,<wire bytes>      a gap frame (wait)
 * wire bytes = frame + FCS + preamble/SFD + IFG. Feed the CSV to
 * vmi-analyze to time it on a virtual wire.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <errno.h>

#include <glib.h>

#include "vmi-pacer.h"
#include "vmi-ref-sim.h"
#include "vmi-format.h"

static gchar *opt_mode = NULL;
static gchar *opt_format = NULL;
static gdouble opt_line_rate = 10e9;
static gint64 opt_packets = 135000;
static gint opt_n_min = VMI_PACE_DEFAULT_N_MIN;
static gint opt_n_max = VMI_PACE_DEFAULT_N_MAX;
static gint opt_packet_bytes = VMI_ST2022_6_WIRE_BYTES;
static gdouble opt_ref_ppm = 0;
static gdouble opt_ref_jitter_ns = 0;
static gdouble opt_window_ns = 1e9;
static gint opt_windows = 2;
static gdouble opt_lead_ns = 0;
static gint64 opt_seed = 1;
static gchar *opt_output = NULL;
static gboolean opt_quiet = FALSE;
static gchar *opt_ref_pcap = NULL;

static GOptionEntry entries[] = {
  {"mode", 'm', 0, G_OPTION_ARG_STRING, &opt_mode,
      "free-running (algorithm 1) or controlled (algorithm 2)", "MODE"},
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "ST 2022-6 video format (default 1080i59.94)", "NAME"},
  {"line-rate", 'r', 0, G_OPTION_ARG_DOUBLE, &opt_line_rate,
      "line rate in bit/s (default 10e9)", "BPS"},
  {"packets", 'n', 0, G_OPTION_ARG_INT64, &opt_packets,
      "media packets to send (default 135000)", "N"},
  {"n-min", 0, 0, G_OPTION_ARG_INT, &opt_n_min,
      "smallest gap frame, wire bytes (default 84)", "BYTES"},
  {"n-max", 0, 0, G_OPTION_ARG_INT, &opt_n_max,
      "largest gap frame, wire bytes (default 1538)", "BYTES"},
  {"packet-bytes", 0, 0, G_OPTION_ARG_INT, &opt_packet_bytes,
      "media packet wire bytes (default 1466: 1442 B frame + 24)", "BYTES"},
  {"ref-ppm", 0, 0, G_OPTION_ARG_DOUBLE, &opt_ref_ppm,
      "controlled: reference clock offset from nominal, ppm", "PPM"},
  {"ref-jitter-ns", 0, 0, G_OPTION_ARG_DOUBLE, &opt_ref_jitter_ns,
      "controlled: reference arrival jitter, uniform in [0, J) ns", "J"},
  {"window-ns", 0, 0, G_OPTION_ARG_DOUBLE, &opt_window_ns,
      "controlled: update window W in ns (default 1e9)", "NS"},
  {"windows", 0, 0, G_OPTION_ARG_INT, &opt_windows,
      "controlled: N_W regularisation windows (default 2)", "N"},
  {"lead-ns", 0, 0, G_OPTION_ARG_DOUBLE, &opt_lead_ns,
      "controlled: controller lead (default = window)", "NS"},
  {"seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed,
      "controlled: random seed of the reference jitter (default 1)", "N"},
  {"output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
      "CSV output file (default stdout)", "FILE"},
  {"reference-pcap", 0, 0, G_OPTION_ARG_FILENAME, &opt_ref_pcap,
        "controlled: also write the simulated reference arrivals to a pcap "
        "(ns timestamps, UDP port 5004) for vmi-analyze --fc-window-ns",
      "FILE"},
  {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt_quiet,
      "no summary on stderr", NULL},
  {NULL}
};

/* Minimal pcap writer for the reference arrivals: nanosecond magic,
 * Ethernet, IPv4/UDP to port 5004, a 12-byte RTP header with the sequence
 * number. Only the timing and the sequence matter to vmi-analyze. */
static FILE *
ref_pcap_open (const gchar * path)
{
  static const guint32 hdr[6] = { 0xa1b23c4d, 0x00040002, 0, 0, 65535, 1 };
  FILE *f = fopen (path, "wb");

  if (f && fwrite (hdr, sizeof (hdr), 1, f) != 1) {
    fclose (f);
    return NULL;
  }
  return f;
}

static gboolean
ref_pcap_write (FILE * f, guint64 t_bytes, guint64 line_rate, guint16 seq)
{
  guint8 fr[54] = {
    0x01, 0x00, 0x5e, 0x01, 0x01, 0x01, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00,
    0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 239, 1, 1, 1,
    0x9c, 0x40, 0x13, 0x8c, 0, 20, 0, 0,
    0x80, 98, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
  };
  guint64 ns = (guint64) ((unsigned __int128) t_bytes * 8000000000ULL /
      line_rate);
  guint32 rec[4] = { (guint32) (ns / 1000000000), (guint32) (ns % 1000000000),
    sizeof (fr), sizeof (fr)
  };

  /* pcap headers are in the writer's byte order (the magic says which) */
  fr[44] = seq >> 8;
  fr[45] = seq & 0xff;
  return fwrite (rec, sizeof (rec), 1, f) == 1
      && fwrite (fr, sizeof (fr), 1, f) == 1;
}

static gboolean
check_range (gdouble v, gdouble lo, gdouble hi, const gchar * what)
{
  if (!(v >= lo && v <= hi)) {
    g_printerr ("vmi-pace: %s %g out of range [%g, %g]\n", what, v, lo, hi);
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GError *err = NULL;
  guint64 ppf, fps_num, fps_den, tau_num = 0, tau_den = 1, line_rate;
  gboolean controlled;
  VmiPacer pacer;
  VmiFreqCtl *ctl = NULL;
  VmiRefSim ref;
  VmiPaceError perr;
  FILE *out, *refout = NULL;
  guint64 refs = 0;
  guint64 sends = 0, gaps = 0, gap_min = G_MAXUINT64, gap_max = 0;
  double rate_hz;
  int ret = 1;
  static char obuf[1 << 16];

  ctx = g_option_context_new ("- Pacing-Assistant command generator");
  g_option_context_set_summary (ctx,
      "Runs the pacing core and writes one CSV line per frame on the wire:\n"
      "'send,<wire bytes>' or 'gap,<wire bytes>'.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("vmi-pace: %s\n", err->message);
    g_clear_error (&err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);

  if (!opt_mode || g_str_equal (opt_mode, "free-running"))
    controlled = FALSE;
  else if (g_str_equal (opt_mode, "controlled"))
    controlled = TRUE;
  else {
    g_printerr ("vmi-pace: --mode must be free-running or controlled\n");
    return 2;
  }
  if (!vmi_tools_format_lookup (opt_format ? opt_format : "1080i59.94",
          &ppf, &fps_num, &fps_den)) {
    gchar *names = vmi_tools_format_names ();
    g_printerr ("vmi-pace: unknown format '%s' (known: %s)\n", opt_format,
        names);
    g_free (names);
    return 2;
  }
  if (!check_range (opt_line_rate, 1e6, 1e12, "--line-rate")
      || !check_range (opt_packets, 1, 1e12, "--packets")
      || !check_range (opt_n_min, 1, 1e6, "--n-min")
      || !check_range (opt_n_max, 1, 1e6, "--n-max")
      || !check_range (opt_packet_bytes, 1, 1e6, "--packet-bytes")
      || !check_range (opt_ref_ppm, -1e5, 1e5, "--ref-ppm")
      || !check_range (opt_ref_jitter_ns, 0, 1e9, "--ref-jitter-ns")
      || !check_range (opt_window_ns, 1e3, 1e12, "--window-ns")
      || !check_range (opt_windows, 1, 1000, "--windows")
      || !check_range (opt_lead_ns, 0, 1e12, "--lead-ns"))
    return 2;
  line_rate = (guint64) llround (opt_line_rate);
  rate_hz = (double) ppf * fps_num / fps_den;

  if (!controlled) {
    if (!vmi_pace_tau_for_rate (line_rate, ppf, fps_num, fps_den, &tau_num,
            &tau_den)) {
      g_printerr ("vmi-pace: rate does not fit the rational arithmetic\n");
      return 2;
    }
    perr = vmi_pacer_init_free_running (&pacer, opt_n_min, opt_n_max,
        opt_packet_bytes, tau_num, tau_den);
  } else {
    guint64 w = vmi_pace_ns_to_bytes ((guint64) llround (opt_window_ns),
        line_rate);
    guint64 lead = opt_lead_ns > 0 ?
        vmi_pace_ns_to_bytes ((guint64) llround (opt_lead_ns), line_rate) : w;
    ctl = vmi_freq_ctl_new (opt_windows, 4096);
    vmi_ref_sim_init (&ref, rate_hz, opt_ref_ppm, opt_ref_jitter_ns,
        (guint32) opt_seed, line_rate);
    perr = vmi_pacer_init_controlled (&pacer, opt_n_min, opt_n_max,
        opt_packet_bytes, ctl, w, lead);
  }
  if (perr) {
    g_printerr ("vmi-pace: cannot pace %s at %.0f bit/s: %s\n",
        opt_format ? opt_format : "1080i59.94", opt_line_rate,
        vmi_pace_error_string (perr));
    goto done;
  }

  out = opt_output ? fopen (opt_output, "w") : stdout;
  if (!out) {
    g_printerr ("vmi-pace: cannot open %s: %s\n", opt_output,
        g_strerror (errno));
    goto done;
  }
  setvbuf (out, obuf, _IOFBF, sizeof (obuf));
  if (opt_ref_pcap) {
    if (!controlled) {
      g_printerr ("vmi-pace: --reference-pcap needs --mode controlled\n");
      goto close;
    }
    if (!(refout = ref_pcap_open (opt_ref_pcap))) {
      g_printerr ("vmi-pace: cannot write %s: %s\n", opt_ref_pcap,
          g_strerror (errno));
      goto close;
    }
  }

  while (sends < (guint64) opt_packets) {
    guint32 n;
    switch (vmi_pacer_next (&pacer, &n)) {
      case VMI_PACE_CMD_SEND:
        fprintf (out, "send,%u\n", n);
        sends++;
        break;
      case VMI_PACE_CMD_WAIT:
        fprintf (out, "gap,%u\n", n);
        gaps++;
        gap_min = MIN (gap_min, n);
        gap_max = MAX (gap_max, n);
        break;
      case VMI_PACE_CMD_STALL:{
        guint64 t = vmi_ref_sim_next (&ref);
        if (!vmi_freq_ctl_push (ctl, t)) {
          g_printerr ("vmi-pace: frequency controller queue full\n");
          goto close;
        }
        if (refout && !ref_pcap_write (refout, t, line_rate, (guint16) refs++)) {
          g_printerr ("vmi-pace: write error on %s\n", opt_ref_pcap);
          goto close;
        }
        break;
      }
      case VMI_PACE_CMD_ERROR:
        g_printerr ("vmi-pace: stopped after %" G_GUINT64_FORMAT
            " packets: %s\n", sends,
            vmi_pace_error_string (vmi_pacer_error (&pacer)));
        goto close;
    }
  }
  ret = 0;

  if (!opt_quiet) {
    guint64 num, den;
    vmi_pacer_get_tau (&pacer, &num, &den);
    g_printerr ("vmi-pace: %s, %" G_GUINT64_FORMAT " packets, %"
        G_GUINT64_FORMAT " gaps (%" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
        " wire bytes), tau%s = %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
        " = %.6f byte-times (nominal %.6f)\n",
        controlled ? "controlled" : "free-running", sends, gaps,
        gaps ? gap_min : 0, gap_max, controlled ? "_cur" : "", num, den,
        (double) num / den, (double) line_rate / 8.0 / rate_hz);
  }

close:
  if (fflush (out) != 0 || (out != stdout && fclose (out) != 0)) {
    g_printerr ("vmi-pace: write error: %s\n", g_strerror (errno));
    ret = 1;
  }
  if (refout && fclose (refout) != 0) {
    g_printerr ("vmi-pace: write error on %s\n", opt_ref_pcap);
    ret = 1;
  }
done:
  if (ctl) {
    vmi_ref_sim_clear (&ref);
    vmi_freq_ctl_free (ctl);
  }
  g_free (opt_mode);
  g_free (opt_format);
  g_free (opt_output);
  g_free (opt_ref_pcap);
  return ret;
}
