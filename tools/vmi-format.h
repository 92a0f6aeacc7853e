/* gst-vmi tools: video format -> packet rate
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_TOOLS_FORMAT_H__
#define __VMI_TOOLS_FORMAT_H__

#include <glib.h>

G_BEGIN_DECLS

/* Datagrams per frame and frame rate (fps_num / fps_den) of an ST 2022-6
 * format given by name ("1080i59.94"). FALSE if unknown. */
gboolean vmi_tools_format_lookup (const gchar * name, guint64 * packets_per_frame,
    guint64 * fps_num, guint64 * fps_den);
/* Space-separated list of the known names; g_free it. */
gchar *vmi_tools_format_names (void);

G_END_DECLS

#endif
