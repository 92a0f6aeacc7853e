/* gst-vmi: state stress of every element of the plugin, in the manner of
 * gst-check's generic/states
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The elements are found at run time (the features of the "vmi" plugin), so
 * a new element is covered without touching this file. Each gets a minimal
 * valid pipeline built from its pad templates (a live videotestsrc with caps
 * its sink template accepts upstream, a fakesink downstream) and the
 * properties it needs to start without a peer, chosen by name: a free UDP
 * port for "port", 127.0.0.1 for "address"/"host", a private path for
 * "socket-path" (vmisrc then waits for a producer that never comes, which is
 * a valid PLAYING state for a live source).
 *
 * Every pipeline goes NULL -> READY -> PAUSED -> PLAYING -> PAUSED -> READY
 * -> NULL CYCLES times (default 1000) with a random dwell (seeded:
 * --seed, default 1) in each state, every change waited for and checked,
 * and no ERROR on the bus. After the run, at NULL, the process must hold
 * exactly the file descriptors it held after the warm-up cycles, no more
 * threads, and no more heap (mallinfo2, with G_SLICE=always-malloc) than
 * the warm-up left plus 128 bytes a cycle of slack for GLib/GStreamer's
 * caches that fill lazily.
 *
 * Usage: test-states [--cycles N] [--seed S] [--dwell-us MAX] [ELEMENT...]
 */

#include <gst/gst.h>
#include <gst/video/video.h>

#include <malloc.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define WARMUP 5

static guint n_cycles = 1000;
static guint dwell_max_us = 1000;
static guint32 seed = 1;

static guint
count_dir (const gchar * path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  guint n = 0;

  g_assert (d != NULL);
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  return n;
}

static gsize
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();
  return mi.uordblks + mi.hblkhd;
}

/* a UDP port nobody uses now (bound, read back, released) */
static guint
free_udp_port (void)
{
  struct sockaddr_in sa = { 0 };
  socklen_t len = sizeof (sa);
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  guint port;

  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert (fd >= 0);
  g_assert (bind (fd, (struct sockaddr *) &sa, sizeof (sa)) == 0);
  g_assert (getsockname (fd, (struct sockaddr *) &sa, &len) == 0);
  port = ntohs (sa.sin_port);
  close (fd);
  return port;
}

static GstStaticPadTemplate *
find_template (GstElementFactory * f, GstPadDirection dir)
{
  const GList *l;

  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    if (t->direction == dir && t->presence == GST_PAD_ALWAYS)
      return t;
  }
  return NULL;
}

/* caps a live videotestsrc can produce and @t accepts: a broadcast format
 * first (what the ST 2022 elements want), then small raw video */
static gchar *
upstream_caps (GstStaticPadTemplate * t)
{
  const gchar *candidates[] = {
    "video/x-raw,width=1280,height=720,framerate=60000/1001,"
        "interlace-mode=progressive,pixel-aspect-ratio=1/1",
    "video/x-raw,format=UYVY,width=320,height=240,framerate=30/1",
  };
  GstCaps *tc = gst_static_caps_get (&t->static_caps);
  GstElementFactory *vts = gst_element_factory_find ("videotestsrc");
  GstCaps *src = gst_static_caps_get (&find_template (vts,
          GST_PAD_SRC)->static_caps);
  gchar *ret = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (candidates) && !ret; i++) {
    GstCaps *c = gst_caps_from_string (candidates[i]);
    GstCaps *a = gst_caps_intersect (c, tc);
    GstCaps *b = gst_caps_intersect (a, src);
    if (!gst_caps_is_empty (b)) {
      b = gst_caps_fixate (b);
      ret = gst_caps_to_string (b);
    }
    gst_caps_unref (b);
    gst_caps_unref (a);
    gst_caps_unref (c);
  }
  gst_caps_unref (src);
  gst_caps_unref (tc);
  gst_object_unref (vts);
  return ret;
}

/* what an element needs to start without a peer, by property name */
static void
configure (GstElement * e, const gchar * tmpdir)
{
  GObjectClass *k = G_OBJECT_GET_CLASS (e);

  if (g_object_class_find_property (k, "port"))
    g_object_set (e, "port", (gint) free_udp_port (), NULL);
  if (g_object_class_find_property (k, "address"))
    g_object_set (e, "address", "127.0.0.1", NULL);
  if (g_object_class_find_property (k, "host"))
    g_object_set (e, "host", "127.0.0.1", NULL);
  if (g_object_class_find_property (k, "socket-path")) {
    gchar *p = g_strdup_printf ("%s/%s.sock", tmpdir, GST_OBJECT_NAME (e));
    g_object_set (e, "socket-path", p, NULL);
    g_free (p);
  }
}

static GstElement *
make_pipeline (GstElementFactory * f, const gchar * tmpdir)
{
  const gchar *name = GST_OBJECT_NAME (f);
  GstStaticPadTemplate *sink = find_template (f, GST_PAD_SINK);
  GstStaticPadTemplate *src = find_template (f, GST_PAD_SRC);
  GString *desc = g_string_new (NULL);
  GError *err = NULL;
  GstElement *pipeline, *e;

  if (sink) {
    gchar *caps = upstream_caps (sink);
    if (!caps) {
      g_printerr ("%s: no caps a videotestsrc can feed it; teach "
          "upstream_caps() one\n", name);
      exit (1);
    }
    g_string_append_printf (desc, "videotestsrc is-live=true pattern=black "
        "! %s ! ", caps);
    g_free (caps);
  }
  g_string_append_printf (desc, "%s name=dut", name);
  if (src)
    g_string_append (desc, " ! fakesink async=false");
  pipeline = gst_parse_launch (desc->str, &err);
  if (!pipeline) {
    g_printerr ("%s: '%s': %s\n", name, desc->str, err->message);
    exit (1);
  }
  e = gst_bin_get_by_name (GST_BIN (pipeline), "dut");
  configure (e, tmpdir);
  gst_object_unref (e);
  g_print ("%s: %s\n", name, desc->str);
  g_string_free (desc, TRUE);
  return pipeline;
}

static void
check_bus (GstElement * pipeline, const gchar * name, guint cycle)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *m;

  while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
    GError *err;
    gchar *dbg;
    gst_message_parse_error (m, &err, &dbg);
    g_printerr ("%s: cycle %u: error: %s (%s)\n", name, cycle, err->message,
        dbg);
    exit (1);
  }
  gst_object_unref (bus);
}

static void
set_state (GstElement * pipeline, GstState s, const gchar * name, guint cycle)
{
  GstStateChangeReturn r = gst_element_set_state (pipeline, s);
  GstState cur;

  if (r == GST_STATE_CHANGE_ASYNC)
    r = gst_element_get_state (pipeline, &cur, NULL, 30 * GST_SECOND);
  if (r == GST_STATE_CHANGE_FAILURE || r == GST_STATE_CHANGE_ASYNC) {
    check_bus (pipeline, name, cycle);
    g_printerr ("%s: cycle %u: change to %s %s\n", name, cycle,
        gst_element_state_get_name (s), r == GST_STATE_CHANGE_FAILURE ?
        "failed" : "did not complete in 30 s");
    exit (1);
  }
}

static void
run_cycles (GstElement * pipeline, const gchar * name, GRand * rand,
    guint from, guint to)
{
  static const GstState up[] = { GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL
  };
  guint c, i;

  for (c = from; c < to; c++) {
    for (i = 0; i < G_N_ELEMENTS (up); i++) {
      set_state (pipeline, up[i], name, c);
      g_usleep (g_rand_int_range (rand, 0, dwell_max_us + 1));
    }
    check_bus (pipeline, name, c);
  }
}

static gboolean
stress (GstElementFactory * f)
{
  const gchar *name = GST_OBJECT_NAME (f);
  gchar *tmpdir = g_dir_make_tmp ("vmi-states-XXXXXX", NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstElement *pipeline = make_pipeline (f, tmpdir);
  guint fds0, thr0, fds1, thr1;
  gsize heap0, heap1, slack = 128 * (gsize) n_cycles;
  gint64 t0;
  gboolean ok = TRUE;
  guint i;

  /* the first cycles fill GLib/GStreamer's one-time state (type classes,
   * caps caches, the shared task pool's threads) */
  run_cycles (pipeline, name, rand, 0, WARMUP);
  fds0 = count_dir ("/proc/self/fd");
  thr0 = count_dir ("/proc/self/task");
  heap0 = heap_in_use ();
  t0 = g_get_monotonic_time ();
  run_cycles (pipeline, name, rand, WARMUP, n_cycles);
  fds1 = count_dir ("/proc/self/fd");
  /* a pool thread whose task was just joined may still be on its way out:
   * wait (bounded) for it before calling it left behind */
  for (i = 0; (thr1 = count_dir ("/proc/self/task")) > thr0 && i < 1000; i++)
    g_usleep (10000);
  heap1 = heap_in_use ();

  g_print ("%s: %u cycles in %.1f s; fds %u -> %u, threads %u -> %u, "
      "heap %" G_GSIZE_FORMAT " -> %" G_GSIZE_FORMAT " bytes (%+"
      G_GSSIZE_FORMAT ")\n", name, n_cycles,
      (g_get_monotonic_time () - t0) / 1e6, fds0, fds1, thr0, thr1, heap0,
      heap1, (gssize) (heap1 - heap0));
  if (fds1 != fds0) {
    g_printerr ("%s: FAIL: %d file descriptors leaked\n", name,
        (gint) fds1 - (gint) fds0);
    ok = FALSE;
  }
  if (thr1 > thr0) {
    g_printerr ("%s: FAIL: %u threads left behind\n", name, thr1 - thr0);
    ok = FALSE;
  }
  if (heap1 > heap0 + slack) {
    g_printerr ("%s: FAIL: heap grew by %" G_GSIZE_FORMAT " bytes (limit %"
        G_GSIZE_FORMAT ")\n", name, heap1 - heap0, slack);
    ok = FALSE;
  }
  gst_object_unref (pipeline);
  g_rand_free (rand);
  rmdir (tmpdir);
  g_free (tmpdir);
  return ok;
}

/* Each element runs in its own process (this program again, with --child):
 * its fds, threads and heap are its own, and the elements run side by
 * side (most of a cycle is waiting for threads to start and stop). */
static gboolean
spawn_all (const gchar * self, GList * names)
{
  GPtrArray *pids = g_ptr_array_new ();
  gboolean ok = TRUE;
  GList *l;
  guint i;

  for (l = names; l; l = l->next) {
    gchar *cycles = g_strdup_printf ("%u", n_cycles);
    gchar *sd = g_strdup_printf ("%u", seed);
    gchar *dw = g_strdup_printf ("%u", dwell_max_us);
    const gchar *argv[] = { self, "--child", "--cycles", cycles, "--seed", sd,
      "--dwell-us", dw, l->data, NULL
    };
    GError *err = NULL;
    GPid pid;

    if (!g_spawn_async (NULL, (gchar **) argv, NULL,
            G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &err)) {
      g_printerr ("%s: %s\n", (gchar *) l->data, err->message);
      exit (1);
    }
    g_ptr_array_add (pids, GINT_TO_POINTER (pid));
    g_free (cycles);
    g_free (sd);
    g_free (dw);
  }
  for (i = 0, l = names; i < pids->len; i++, l = l->next) {
    int status;
    if (waitpid (GPOINTER_TO_INT (pids->pdata[i]), &status, 0) < 0 ||
        !WIFEXITED (status) || WEXITSTATUS (status) != 0) {
      g_printerr ("%s: FAILED (%s %d)\n", (gchar *) l->data,
          WIFSIGNALED (status) ? "signal" : "exit status",
          WIFSIGNALED (status) ? WTERMSIG (status) : WEXITSTATUS (status));
      ok = FALSE;
    }
  }
  g_ptr_array_free (pids, TRUE);
  return ok;
}

int
main (int argc, char **argv)
{
  GList *features, *l, *names = NULL;
  gchar **only = NULL;
  gboolean child = FALSE, ok = TRUE;
  GOptionEntry entries[] = {
    {"cycles", 0, 0, G_OPTION_ARG_INT, &n_cycles, "state cycles", "N"},
    {"seed", 0, 0, G_OPTION_ARG_INT, &seed, "random seed of the dwell", "S"},
    {"dwell-us", 0, 0, G_OPTION_ARG_INT, &dwell_max_us,
        "longest dwell in a state", "US"},
    {"child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &child,
        "stress the one element named, in this process", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &only, NULL, NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("[ELEMENT...]");

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, NULL) || n_cycles <= WARMUP)
    return 2;
  g_option_context_free (ctx);

  features = gst_registry_get_feature_list_by_plugin (gst_registry_get (),
      "vmi");
  if (!features) {
    g_printerr ("the vmi plugin is not in the registry (GST_PLUGIN_PATH?)\n");
    return 1;
  }
  for (l = features; l; l = l->next) {
    GstPluginFeature *pf = l->data;

    if (!GST_IS_ELEMENT_FACTORY (pf))
      continue;
    if (only && !g_strv_contains ((const gchar * const *) only,
            GST_OBJECT_NAME (pf)))
      continue;
    if (child) {
      GstElementFactory *f;
      /* GLib keeps finished pool threads (GstTask's) idle for reuse, up
       * to 2 for 15 s: without that, the thread count is exact */
      g_thread_pool_set_max_unused_threads (0);
      f =
          GST_ELEMENT_FACTORY (gst_plugin_feature_load (pf));
      ok &= stress (f);
      gst_object_unref (f);
    }
    names = g_list_append (names, g_strdup (GST_OBJECT_NAME (pf)));
  }
  gst_plugin_feature_list_free (features);
  g_strfreev (only);
  if (!names) {
    g_printerr ("no element to test\n");
    return 1;
  }
  if (!child) {
    ok = spawn_all (argv[0], names);
    g_print ("%u elements: %s\n", g_list_length (names), ok ? "all passed" :
        "FAILED");
  }
  g_list_free_full (names, g_free);
  gst_deinit ();
  return ok ? 0 : 1;
}
