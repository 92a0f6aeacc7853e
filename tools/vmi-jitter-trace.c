/* gst-vmi tools: kernel events next to vmi-jitter's user-space timestamps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-jitter-trace.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

struct _VmiJitterTrace
{
  gchar *dir;                   /* the instance */
};

/* Where tracefs is mounted, or NULL. */
static gchar *
tracefs_root (void)
{
  gchar *mounts = NULL, **lines, *root = NULL;
  guint i;

  if (g_file_get_contents ("/proc/mounts", &mounts, NULL, NULL)) {
    lines = g_strsplit (mounts, "\n", -1);
    for (i = 0; lines[i] && !root; i++) {
      gchar **f = g_strsplit (lines[i], " ", 4);
      if (g_strv_length (f) >= 3 && g_str_equal (f[2], "tracefs"))
        root = g_strdup (f[1]);
      g_strfreev (f);
    }
    g_strfreev (lines);
    g_free (mounts);
  }
  if (!root && g_file_test ("/sys/kernel/debug/tracing/trace",
          G_FILE_TEST_EXISTS))
    root = g_strdup ("/sys/kernel/debug/tracing");
  return root;
}

static gboolean
put (const gchar * dir, const gchar * file, const gchar * value, gchar ** why)
{
  gchar *path = g_build_filename (dir, file, NULL);
  FILE *f = fopen (path, "w");
  gboolean ok = f != NULL && fputs (value, f) >= 0;

  if (f && fclose (f) != 0)
    ok = FALSE;
  if (!ok && why)
    *why = g_strdup_printf ("cannot write '%s' to %s: %s", value, path,
        g_strerror (errno));
  g_free (path);
  return ok;
}

static gboolean
event_on (const gchar * dir, const gchar * ev, const gchar * filter,
    gchar ** why)
{
  gchar *sub = g_build_filename ("events", ev, NULL);
  gchar *ef = g_build_filename (sub, "filter", NULL);
  gchar *ee = g_build_filename (sub, "enable", NULL);
  gboolean ok = (!filter || put (dir, ef, filter, why))
      && put (dir, ee, "1", why);

  g_free (sub);
  g_free (ef);
  g_free (ee);
  return ok;
}

VmiJitterTrace *
vmi_jitter_trace_start (const gchar * iface, const gchar * irq_glob, gint cpu,
    gchar ** why)
{
  gchar *root = tracefs_root (), *dir, *name, *f_dev = NULL, *f_irq = NULL;
  VmiJitterTrace *tr;

  if (!root) {
    *why = g_strdup ("tracefs is not mounted: as root, mount -t tracefs "
        "nodev /sys/kernel/tracing");
    return NULL;
  }
  name = g_strdup_printf ("vmi-jitter-%d", (int) getpid ());
  dir = g_build_filename (root, "instances", name, NULL);
  g_free (name);
  if (g_mkdir (dir, 0700) != 0) {
    *why = g_strdup_printf ("cannot create the tracefs instance %s: %s%s",
        dir, g_strerror (errno), errno == EACCES || errno == EPERM ?
        " (run as root)" : "");
    g_free (root);
    g_free (dir);
    return NULL;
  }
  g_free (root);
  tr = g_new0 (VmiJitterTrace, 1);
  tr->dir = dir;

  if (iface)
    f_dev = g_strdup_printf ("name == \"%s\"", iface);
  if (irq_glob)
    f_irq = g_strdup_printf ("name ~ \"%s\"", irq_glob);
  if (!put (dir, "trace_clock", "mono", why)
      || !put (dir, "buffer_size_kb", "32768", why))
    goto failed;
  if (cpu >= 0) {
    /* tracing_cpumask is a hex mask, 32 CPUs per comma-separated word */
    GString *m = g_string_new (NULL);
    gint w;
    for (w = cpu / 32; w >= 0; w--)
      g_string_append_printf (m, "%s%x", m->len ? "," : "",
          w == cpu / 32 ? 1u << (cpu % 32) : 0u);
    if (!put (dir, "tracing_cpumask", m->str, why)) {
      g_string_free (m, TRUE);
      goto failed;
    }
    g_string_free (m, TRUE);
  }
  if (!event_on (dir, "irq/irq_handler_entry", f_irq, why)
      || !event_on (dir, "net/netif_receive_skb", f_dev, why)
      || !event_on (dir, "sched/sched_switch", NULL, why))
    goto failed;
  if (iface) {
    g_free (f_dev);
    f_dev = g_strdup_printf ("dev_name == \"%s\"", iface);
  }
  /* napi_poll is absent from kernels built without it: not fatal */
  event_on (dir, "napi/napi_poll", f_dev, NULL);
  if (!put (dir, "tracing_on", "1", why))
    goto failed;
  g_free (f_dev);
  g_free (f_irq);
  return tr;

failed:
  g_free (f_dev);
  g_free (f_irq);
  put (dir, "tracing_on", "0", NULL);
  g_rmdir (dir);
  g_free (dir);
  g_free (tr);
  return NULL;
}

gboolean
vmi_jitter_trace_parse_line (const gchar * line, VmiJitterEvent * ev)
{
  /* "  <idle>-0   [001] d.h1.  1234.567890: irq_handler_entry: irq=..."
   * the task name may hold anything, so parse from the CPU field on */
  const gchar *p = strstr (line, "] ");
  const gchar *b;
  unsigned long long sec, usec;
  unsigned cpu;
  char evname[40];
  int used = 0;

  if (!p || line[0] == '#')
    return FALSE;
  for (b = p; b > line && *b != '['; b--);
  if (*b != '[' || sscanf (b, "[%u]", &cpu) != 1)
    return FALSE;
  p += 2;
  /* the irq-info flags column is optional */
  while (*p == ' ')
    p++;
  if (sscanf (p, "%llu.%llu: %n", &sec, &usec, &used) != 2 || !used) {
    while (*p && *p != ' ')
      p++;
    if (sscanf (p, " %llu.%llu: %n", &sec, &usec, &used) != 2 || !used)
      return FALSE;
  }
  if (sscanf (p + used, "%39[^:]:", evname) != 1)
    return FALSE;
  if (g_str_equal (evname, "irq_handler_entry"))
    ev->kind = VMI_JITTER_EV_IRQ;
  else if (g_str_equal (evname, "napi_poll"))
    ev->kind = VMI_JITTER_EV_NAPI;
  else if (g_str_equal (evname, "netif_receive_skb"))
    ev->kind = VMI_JITTER_EV_NET;
  else if (g_str_equal (evname, "sched_switch"))
    ev->kind = VMI_JITTER_EV_SCHED;
  else
    return FALSE;
  ev->cpu = cpu;
  ev->ts_ns = (double) sec * 1e9 + (double) usec * 1e3;
  return TRUE;
}

static gint
cmp_ev (gconstpointer a, gconstpointer b)
{
  double x = ((const VmiJitterEvent *) a)->ts_ns;
  double y = ((const VmiJitterEvent *) b)->ts_ns;
  return (x > y) - (x < y);
}

GArray *
vmi_jitter_trace_stop (VmiJitterTrace * tr)
{
  GArray *evs = g_array_new (FALSE, FALSE, sizeof (VmiJitterEvent));
  gchar *path = g_build_filename (tr->dir, "trace", NULL);
  gchar *line = NULL;
  size_t cap = 0;
  FILE *f;

  put (tr->dir, "tracing_on", "0", NULL);
  f = fopen (path, "r");
  if (f) {
    VmiJitterEvent ev;
    while (getline (&line, &cap, f) > 0)
      if (vmi_jitter_trace_parse_line (line, &ev))
        g_array_append_val (evs, ev);
    fclose (f);
  }
  free (line);
  g_free (path);
  /* per-CPU buffers are read merged, but keep the order certain */
  g_array_sort (evs, cmp_ev);
  put (tr->dir, "events/enable", "0", NULL);
  g_rmdir (tr->dir);
  g_free (tr->dir);
  g_free (tr);
  return evs;
}
