/* gst-vmi: simulated reference stream for the frequency controller
 *
 * A constant-rate source whose clock is off by `ppm` from ours, seen
 * through a network that delays each packet by a uniform random amount in
 * [0, jitter_ns). Arrivals come out in time order (as a NIC sees them) and
 * in byte-times of our line rate. Used by vmi-pace and the tests to drive
 * algorithm 2 on the virtual wire.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_REF_SIM_H__
#define __VMI_REF_SIM_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double period_ns, jitter_ns, bytes_per_ns;
  GRand *rand;
  guint64 next_index;           /* next packet not yet drawn */
  double *pend;                 /* drawn, not yet delivered */
  guint npend, cap;
} VmiRefSim;

/* rate_hz: nominal packet rate; the source runs at rate_hz * (1 + ppm/1e6). */
void vmi_ref_sim_init (VmiRefSim * r, double rate_hz, double ppm,
    double jitter_ns, guint32 seed, guint64 line_rate_bps);
void vmi_ref_sim_clear (VmiRefSim * r);
/* Next arrival in time order, as byte-time floor(t_ns * r / 8e9). */
guint64 vmi_ref_sim_next (VmiRefSim * r);

G_END_DECLS

#endif
