/* gst-vmi: frames to another process, vmisink/vmisrc vs shmsink/shmsrc vs
 * one process, in one run.
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 *   bench-pool-ipc [FRAMES-UNTHROTTLED [FRAMES-60FPS]]
 *
 * Each case runs three times; the run with the median CPU per frame is
 * shown. *
 * The producer (a spawned gst-launch-1.0: videotestsrc ! 1080p UYVP !
 * vmisink|shmsink) and the consumer (this process: vmisrc|shmsrc !
 * fakesink) are timed with getrusage; the single-process row is
 * videotestsrc ! fakesink. pattern=black keeps the source cheap (painting
 * the ball costs ~20 ms per 1080p frame here and would hide everything);
 * the table shows each transport's overhead per frame (its CPU per frame
 * minus the single-process CPU per frame) next to the cost of one
 * frame-sized memcpy measured in the same run.
 */

#include <gst/gst.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define CAPS "video/x-raw,format=UYVP,width=1920,height=1080,framerate=60/1"

typedef struct
{
  guint frames;
  gint64 first_us, last_us;
} Count;

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Count *c = data;
  gint64 now = g_get_monotonic_time ();

  if (c->frames++ == 0)
    c->first_us = now;
  c->last_us = now;
  return GST_PAD_PROBE_OK;
}

static double
tv_s (struct timeval tv)
{
  return tv.tv_sec + tv.tv_usec / 1e6;
}

static double
self_cpu (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return tv_s (ru.ru_utime) + tv_s (ru.ru_stime);
}

static double startup_cpu_s;

/* CPU a gst-launch-1.0 process spends starting and stopping, whatever it
 * runs (registry, plugin loading) */
static double
measure_startup (void)
{
  gchar *argv[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
    (gchar *) "fakesrc", (gchar *) "num-buffers=1", (gchar *) "!",
    (gchar *) "fakesink", NULL
  };
  double best = 1e9;
  int i;

  for (i = 0; i < 3; i++) {
    struct rusage ru;
    int status;
    GPid pid;

    if (!g_spawn_async (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
            &pid, NULL))
      return 0;
    if (wait4 (pid, &status, 0, &ru) == pid)
      best = MIN (best, tv_s (ru.ru_utime) + tv_s (ru.ru_stime));
    g_spawn_close_pid (pid);
  }
  return best;
}

typedef struct
{
  const char *name;
  guint produced, received;
  double cpu_s, wall_s;
} Result;

/* Runs one case. @producer: gst-launch description run in a child process
 * (NULL: none); @consumer: description run here, ending in "fakesink". */
static Result
run_case (const char *name, const char *producer, const char *consumer,
    guint frames, gboolean consumer_first)
{
  Result r = { name, frames, 0, 0, 0 };
  GstElement *pipe;
  GstElement *sink;
  GstPad *pad;
  GstMessage *msg;
  Count count = { 0, };
  GPid pid = 0;
  double cpu0;
  gint64 t0;
  struct rusage ru;
  int status;
  gboolean reaped = FALSE;

  pipe = gst_parse_launch (consumer, NULL);
  g_assert (pipe);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_probe, &count,
      NULL);

  cpu0 = self_cpu ();
  t0 = g_get_monotonic_time ();
  if (consumer_first)
    gst_element_set_state (pipe, GST_STATE_PLAYING);
  if (producer) {
    gchar *cmd = g_strdup_printf ("gst-launch-1.0 -q %s", producer);
    gchar **argv = NULL;
    GError *err = NULL;

    g_shell_parse_argv (cmd, NULL, &argv, NULL);
    if (!g_spawn_async (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
            &pid, &err))
      g_error ("cannot run gst-launch-1.0: %s", err->message);
    g_strfreev (argv);
    g_free (cmd);
    if (!consumer_first) {
      g_usleep (300000);        /* let the producer create its socket */
      gst_element_set_state (pipe, GST_STATE_PLAYING);
    }
  }
  if (producer) {
  }
  /* EOS from vmisrc and the single process; shmsrc is not always told
   * when its producer exits: stop once the producer is gone and no frame
   * came for half a second */
  for (;;) {
    guint seen = count.frames;

    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
        GST_SECOND / 2, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (msg) {
      gst_message_unref (msg);
      break;
    }
    if (g_get_monotonic_time () - t0 > 60 * G_USEC_PER_SEC)
      break;
    if (pid && !reaped && wait4 (pid, &status, WNOHANG, &ru) == pid)
      reaped = TRUE;
    if (reaped && count.frames == seen)
      break;
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  r.cpu_s = self_cpu () - cpu0;
  r.wall_s = (g_get_monotonic_time () - t0) / 1e6;
  if (count.frames > 1)
    r.wall_s = (count.last_us - count.first_us) / 1e6 * count.frames /
        (count.frames - 1);
  r.received = count.frames;

  if (pid) {
    if (reaped || wait4 (pid, &status, 0, &ru) == pid)
      r.cpu_s += MAX (0.0, tv_s (ru.ru_utime) + tv_s (ru.ru_stime) -
          startup_cpu_s);
    g_spawn_close_pid (pid);
  }
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return r;
}

static gint
cmp_cpu_per_frame (gconstpointer a, gconstpointer b)
{
  const Result *x = a, *y = b;
  double px = x->received ? x->cpu_s / x->received : 1e9;
  double py = y->received ? y->cpu_s / y->received : 1e9;

  return px < py ? -1 : px > py;
}

/* the run with the median CPU per frame out of REPS (noise on a shared VM) */
#define REPS 3
static Result
run_median (const char *name, const char *producer, const char *consumer,
    guint frames, gboolean consumer_first, const char *path)
{
  Result r[REPS];
  int i;

  for (i = 0; i < REPS; i++) {
    r[i] = run_case (name, producer, consumer, frames, consumer_first);
    unlink (path);
  }
  qsort (r, REPS, sizeof (Result), (GCompareFunc) cmp_cpu_per_frame);
  return r[REPS / 2];
}

static void
print_row (const Result * r, double base_cpu_per_frame)
{
  double per = r->received ? r->cpu_s / r->received * 1e3 : 0;

  printf ("  %-26s %6u/%-6u %8.1f %10.2f %14.2f\n", r->name, r->received,
      r->produced, r->received / r->wall_s, per,
      base_cpu_per_frame >= 0 ? per - base_cpu_per_frame : 0.0);
}

static void
run_mode (const char *title, guint frames, gboolean live)
{
  gchar *path = g_strdup_printf ("%s/vmi-bench-%d.sock", g_get_tmp_dir (),
      getpid ());
  const char *src_live = live ? "true" : "false";
  gchar *single = g_strdup_printf ("videotestsrc num-buffers=%u is-live=%s "
      "pattern=black ! " CAPS " ! fakesink name=out sync=false", frames,
      src_live);
  gchar *vprod = g_strdup_printf ("videotestsrc num-buffers=%u is-live=%s "
      "pattern=black ! " CAPS " ! vmisink socket-path=%s sync=false "
      "max-outstanding=4", frames, src_live, path);
  gchar *vcons = g_strdup_printf ("vmisrc socket-path=%s ! "
      "fakesink name=out sync=false enable-last-sample=false", path);
  gchar *sprod = g_strdup_printf ("videotestsrc num-buffers=%u is-live=%s "
      "pattern=black ! " CAPS " ! shmsink socket-path=%s sync=false "
      "wait-for-connection=true shm-size=67108864", frames, src_live, path);
  gchar *scons = g_strdup_printf ("shmsrc socket-path=%s is-live=true ! "
      CAPS " ! fakesink name=out sync=false enable-last-sample=false", path);
  Result base, vmi, shm;
  double base_per;

  base = run_median ("single process (baseline)", NULL, single, frames, TRUE,
      path);
  vmi = run_median ("vmisink -> vmisrc", vprod, vcons, frames, TRUE, path);
  shm = run_median ("shmsink -> shmsrc", sprod, scons, frames, FALSE, path);

  base_per = base.cpu_s / base.received * 1e3;
  printf ("\n%s, 1920x1080 UYVP, %u frames\n", title, frames);
  printf ("  %-26s %13s %8s %10s %14s\n", "path", "recv/sent", "fps",
      "ms CPU/fr", "overhead ms/fr");
  print_row (&base, -1);
  print_row (&vmi, base_per);
  print_row (&shm, base_per);

  g_free (path);
  g_free (single);
  g_free (vprod);
  g_free (vcons);
  g_free (sprod);
  g_free (scons);
}

/* ms for one memcpy of a 1080p UYVP frame between warm buffers */
static double
memcpy_ms (void)
{
  const gsize size = 5184000;
  guint8 *a = g_malloc (size), *b = g_malloc (size);
  gint64 t0;
  int i, n = 100;

  memset (a, 1, size);
  memset (b, 2, size);
  t0 = g_get_monotonic_time ();
  for (i = 0; i < n; i++) {
    memcpy (b, a, size);
    a[i] = b[size - 1 - i];     /* keep the copies observable */
  }
  t0 = g_get_monotonic_time () - t0;
  g_free (a);
  g_free (b);
  return t0 / 1e3 / n;
}

int
main (int argc, char **argv)
{
  guint fast = argc > 1 ? atoi (argv[1]) : 300;
  guint live = argc > 2 ? atoi (argv[2]) : 180;
  long cores = sysconf (_SC_NPROCESSORS_ONLN);

  gst_init (&argc, &argv);
  startup_cpu_s = measure_startup ();
  printf ("bench-pool-ipc: producer process -> consumer process; CPU = user + "
      "sys of both processes (getrusage), %ld cores\n", cores);
  printf ("each row: the median of %d runs by CPU per frame\n", REPS);
  printf ("overhead = CPU per frame minus the single-process CPU per frame; "
      "the producer's start-up CPU (gst-launch-1.0 of an empty pipeline, "
      "%.0f ms) is subtracted\n", startup_cpu_s * 1e3);
  printf ("reference: one 1080p UYVP frame memcpy (5184000 B) = %.2f ms\n",
      memcpy_ms ());
  run_mode ("unthrottled", fast, FALSE);
  run_mode ("60 fps (live source)", live, TRUE);
  return 0;
}
