/* gst-vmi bench: commands per second of the pacing generator, side by side
 * with a trivial loop, against what 1080i59.94 at 10 Gbit/s needs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdio.h>

#include "vmi-pacer.h"
#include "vmi-ref-sim.h"

#define RUN_US 700000           /* per measurement */

static volatile guint64 sink;

/* baseline: the cheapest loop that hands out a command: a counter and a
 * store, what any transmitter loop costs before it does real work */
static double
trivial_loop (guint64 * cmds)
{
  gint64 t0 = g_get_monotonic_time (), t1;
  guint64 n = 0, acc = 0;

  do {
    guint k;
    for (k = 0; k < 4096; k++) {
      acc += (n + k) & 1 ? 1538 : 1466;
      sink = acc;
    }
    n += 4096;
    t1 = g_get_monotonic_time ();
  } while (t1 - t0 < RUN_US);
  *cmds = n;
  return (t1 - t0) / 1e6;
}

static double
generator (VmiPacer * p, VmiFreqCtl * ctl, VmiRefSim * ref, guint64 * cmds,
    guint64 * sends)
{
  gint64 t0 = g_get_monotonic_time (), t1;
  guint64 n = 0, s = 0, acc = 0;

  do {
    guint k;
    for (k = 0; k < 4096; k++) {
      guint32 w;
      switch (vmi_pacer_next (p, &w)) {
        case VMI_PACE_CMD_SEND:
          s++;
          /* fall through */
        case VMI_PACE_CMD_WAIT:
          acc += w;
          break;
        case VMI_PACE_CMD_STALL:
          vmi_freq_ctl_push (ctl, vmi_ref_sim_next (ref));
          k--;
          continue;
        default:
          g_error ("pacer error: %s",
              vmi_pace_error_string (vmi_pacer_error (p)));
      }
    }
    sink = acc;
    n += 4096;
    t1 = g_get_monotonic_time ();
  } while (t1 - t0 < RUN_US);
  *cmds = n;
  *sends = s;
  return (t1 - t0) / 1e6;
}

int
main (void)
{
  const guint64 rate = 10000000000ULL;
  const double f = 4497.0 * 30000.0 / 1001.0;
  guint64 num, den, cmds, sends, base_cmds;
  double secs, base_secs, need_cmds, base_rate, fr_rate, ctl_rate;
  VmiPacer p;
  VmiFreqCtl *ctl;
  VmiRefSim ref;

  vmi_pace_tau_for_rate (rate, 4497, 30000, 1001, &num, &den);
  base_secs = trivial_loop (&base_cmds);
  base_rate = base_cmds / base_secs;

  vmi_pacer_init_free_running (&p, 84, 1538, 1466, num, den);
  secs = generator (&p, NULL, NULL, &cmds, &sends);
  fr_rate = cmds / secs;
  /* real time needs f sends per second and the gaps that go with them */
  need_cmds = f * (double) cmds / (double) sends;
  printf ("pacing-generator free-running 1080i59.94@10G: %.1f M commands/s "
      "(%.2f M packets/s = %.1f x real time)\n", fr_rate / 1e6,
      sends / secs / 1e6, sends / secs / f);

  ctl = vmi_freq_ctl_new (2, 4096);
  vmi_ref_sim_init (&ref, f, 100, 10000, 1, rate);
  vmi_pacer_init_controlled (&p, 84, 1538, 1466, ctl, 1250000000ULL,
      1250000000ULL);
  secs = generator (&p, ctl, &ref, &cmds, &sends);
  ctl_rate = cmds / secs;
  printf ("pacing-generator controlled (incl. reference simulation): %.1f M "
      "commands/s (%.2f M packets/s = %.1f x real time)\n", ctl_rate / 1e6,
      sends / secs / 1e6, sends / secs / f);
  printf ("baseline trivial loop: %.1f M commands/s\n", base_rate / 1e6);
  printf ("needed at 10 Gbit/s (134,775 packets/s + gaps): %.3f M "
      "commands/s\n", need_cmds / 1e6);
  printf ("ratios: free-running/trivial %.2f, controlled/trivial %.2f, "
      "free-running headroom %.0f x, controlled headroom %.0f x\n",
      fr_rate / base_rate, ctl_rate / base_rate, fr_rate / need_cmds,
      ctl_rate / need_cmds);
  vmi_ref_sim_clear (&ref);
  vmi_freq_ctl_free (ctl);
  return 0;
}
