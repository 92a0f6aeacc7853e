/* gst-vmi: the tests of tools/ read the tools' one-line JSON summaries
 * (flat objects of numbers and booleans) with this.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __TOOL_JSON_H__
#define __TOOL_JSON_H__

#include <gst/check/gstcheck.h>
#include <string.h>

/* The value of "key": N, true = 1, false = 0; fails the test when absent. */
static inline double
json_num (const gchar * json, const gchar * key)
{
  gchar *pat = g_strdup_printf ("\"%s\": ", key);
  const gchar *p = strstr (json, pat);
  double v;

  fail_unless (p != NULL, "key %s missing in %s", key, json);
  p += strlen (pat);
  if (g_str_has_prefix (p, "true"))
    v = 1;
  else if (g_str_has_prefix (p, "false"))
    v = 0;
  else
    v = g_ascii_strtod (p, NULL);
  g_free (pat);
  return v;
}

#endif
