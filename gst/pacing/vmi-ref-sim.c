/* gst-vmi: simulated reference stream for the frequency controller
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-ref-sim.h"

#include <math.h>

void
vmi_ref_sim_init (VmiRefSim * r, double rate_hz, double ppm, double jitter_ns,
    guint32 seed, guint64 line_rate_bps)
{
  r->period_ns = 1e9 / (rate_hz * (1.0 + ppm * 1e-6));
  r->jitter_ns = MAX (jitter_ns, 0.0);
  r->bytes_per_ns = (double) line_rate_bps / 8e9;
  r->rand = g_rand_new_with_seed (seed);
  r->next_index = 0;
  /* a packet can only be overtaken by those drawn within jitter_ns */
  r->cap = (guint) ceil (r->jitter_ns / r->period_ns) + 2;
  r->pend = g_new (double, r->cap);
  r->npend = 0;
}

void
vmi_ref_sim_clear (VmiRefSim * r)
{
  g_rand_free (r->rand);
  g_free (r->pend);
  r->rand = NULL;
  r->pend = NULL;
}

guint64
vmi_ref_sim_next (VmiRefSim * r)
{
  for (;;) {
    /* every packet not yet drawn arrives at or after next_index * period */
    double bound = (double) r->next_index * r->period_ns;
    guint i, best = 0;

    for (i = 1; i < r->npend; i++)
      if (r->pend[i] < r->pend[best])
        best = i;
    if (r->npend && (r->pend[best] <= bound || r->npend == r->cap)) {
      double t = r->pend[best];
      r->pend[best] = r->pend[--r->npend];
      return (guint64) floor (t * r->bytes_per_ns);
    }
    r->pend[r->npend++] = bound + (r->jitter_ns > 0 ?
        g_rand_double (r->rand) * r->jitter_ns : 0.0);
    r->next_index++;
  }
}
