/* gst-vmi tools: timing plot (cairo PNG)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_TOOLS_PLOT_H__
#define __VMI_TOOLS_PLOT_H__

#include <glib.h>
#include "vmi-timing.h"

G_BEGIN_DECLS

/* Three panels in one PNG: PIT histogram (log counts), virtual receiver
 * occupancy i - f t_i over time, packets per 1-s window. */
gboolean vmi_plot_png (const gchar * path, const gchar * title,
    const double *t_ns, gsize n, const VmiTimingReport * rep,
    GError ** error);

/* Two panels, as the jitter papers draw a ΔT series: ΔT_i = t_{i+1} - t_i
 * over time (per-pixel min/max, the period T and the spike threshold
 * dashed), and its distribution as 1 - CDF on a log scale so that a
 * handful of spikes in 10^6 samples stays visible. @caption: one line
 * under the title (the summary). */
gboolean vmi_plot_jitter_png (const gchar * path, const gchar * title,
    const gchar * caption, const double *t_ns, gsize n, double period_ns,
    double threshold_ns, GError ** error);

G_END_DECLS

#endif
