/* gst-vmi tools: video format -> packet rate, from the st2022 core's
 * format table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-format.h"

#include "st2022.h"

gboolean
vmi_tools_format_lookup (const gchar * name, guint64 * ppf, guint64 * num,
    guint64 * den)
{
  const St2022Format *fmt = st2022_format_from_name (name);

  if (!fmt || fmt->fps_n <= 0 || fmt->fps_d <= 0)
    return FALSE;
  *ppf = fmt->datagrams_per_frame;
  *num = (guint64) fmt->fps_n;
  *den = (guint64) fmt->fps_d;
  return TRUE;
}

gchar *
vmi_tools_format_names (void)
{
  GString *s = g_string_new (NULL);
  guint i, n = st2022_format_count ();

  for (i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "",
        st2022_format_get (i)->name);
  return g_string_free (s, FALSE);
}
