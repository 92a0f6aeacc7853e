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

G_END_DECLS

#endif
