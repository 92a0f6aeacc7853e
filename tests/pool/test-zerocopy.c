/* gst-vmi: no frame-sized copy on the zero-copy paths
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * Each pipeline runs in a gst-launch-1.0 child with the vmi-copycount shim
 * preloaded, which counts every memcpy/memmove of 2048 bytes or more (one
 * 1080p line is 4800 bytes in UYVP; a datagram payload, the one copy per
 * byte a socket receiver cannot avoid, is 1376). A path is copy-free when,
 * over all its frames, such copies add up to less than one frame.
 */

#include <gst/check/gstcheck.h>

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pool-test-util.h"

#define UYVP_FRAME 5184000      /* 1920x1080 UYVP */
#define CAPS_1080I "video/x-raw,format=UYVP,width=1920,height=1080," \
  "framerate=30000/1001,interlace-mode=interleaved"

typedef struct
{
  guint64 calls, bytes;
} Copies;

static GPid
spawn_launch_full (const gchar * desc, const gchar * report, gint * out)
{
  gchar *cmd = g_strdup_printf ("gst-launch-1.0 %s %s", out ? "-v" : "-q",
      desc);
  gchar **argv = NULL, **envp = g_get_environ ();
  GError *err = NULL;
  GPid pid;

  fail_unless (g_shell_parse_argv (cmd, NULL, &argv, NULL));
  if (report) {
    gchar *shim = g_build_filename (g_getenv ("VMI_BUILD_ROOT"), "tests",
        "pool", "libvmi-copycount.so", NULL);
    fail_unless (g_file_test (shim, G_FILE_TEST_EXISTS), "%s missing", shim);
    envp = g_environ_setenv (envp, "LD_PRELOAD", shim, TRUE);
    envp = g_environ_setenv (envp, "VMI_COPY_REPORT", report, TRUE);
    g_free (shim);
  }
  fail_unless (g_spawn_async_with_pipes (NULL, argv, envp,
          G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
          (out ? 0 : G_SPAWN_STDOUT_TO_DEV_NULL), NULL, NULL, &pid, NULL, out,
          NULL, &err), "%s", err ? err->message : "");
  g_strfreev (argv);
  g_strfreev (envp);
  g_free (cmd);
  return pid;
}

static GPid
spawn_launch (const gchar * desc, const gchar * report)
{
  return spawn_launch_full (desc, report, NULL);
}

static gpointer
drain_thread (gpointer data)
{
  FILE *f = data;
  char line[1024];

  while (fgets (line, sizeof (line), f));
  fclose (f);
  return NULL;
}

/* Reads the child's -v output (@fd, taken) until st2022src announces the
 * port it bound (it notifies "port" after binding port 0, and gst-launch
 * -v prints the notification); the rest is drained by @drain, so the
 * child never blocks on a full pipe. 0 when the child ended first. */
static guint
read_bound_port (gint fd, GThread ** drain)
{
  FILE *f = fdopen (fd, "r");
  char line[1024];
  guint port = 0;

  fail_unless (f != NULL);
  while (port == 0 && fgets (line, sizeof (line), f)) {
    const char *p = strstr (line, "/GstSt2022Src:");

    if (p && (p = strstr (p, ": port = ")) != NULL)
      port = (guint) g_ascii_strtoull (p + 9, NULL, 10);
  }
  *drain = g_thread_new ("drain", drain_thread, f);
  return port;
}

/* exit status, or -1 (after killing it) on timeout */
static gint
wait_child (GPid pid, guint timeout_s)
{
  gint rc = pool_test_wait_child (pid, timeout_s * 1000);

  g_spawn_close_pid (pid);
  return rc;
}

static Copies
read_report (const gchar * path)
{
  Copies c = { 0, 0 };
  gchar *text = NULL;

  fail_unless (g_file_get_contents (path, &text, NULL, NULL),
      "no copy report at %s (did the process exit normally?)", path);
  fail_unless (sscanf (text, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
          &c.calls, &c.bytes) == 2);
  g_free (text);
  unlink (path);
  return c;
}

static gchar *
tmp_path (const gchar * what)
{
  return g_strdup_printf ("%s/vmi-zc-%s-%d-%d", g_get_tmp_dir (), what,
      getpid (), g_random_int_range (0, 1 << 30));
}

/* control: the shim does see a pipeline that copies whole frames
 * (videotestsrc paints a static pattern once and copies it per frame) */
GST_START_TEST (test_shim_sees_frame_copies)
{
  gchar *report = tmp_path ("control");
  GPid pid = spawn_launch ("videotestsrc pattern=black num-buffers=10 ! "
      "video/x-raw,format=UYVP,width=1920,height=1080 ! fakesink", report);
  Copies c;

  fail_unless_equals_int (wait_child (pid, 60), 0);
  c = read_report (report);
  GST_INFO ("control: %" G_GUINT64_FORMAT " copies, %" G_GUINT64_FORMAT
      " bytes", c.calls, c.bytes);
  fail_unless (c.bytes >= 9 * (guint64) UYVP_FRAME,
      "shim saw only %" G_GUINT64_FORMAT " bytes", c.bytes);
  g_free (report);
}

GST_END_TEST;

static gboolean
have (const gchar * factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  if (f)
    gst_object_unref (f);
  return f != NULL;
}

/* st2022src writes datagram payloads straight into pool frames and
 * vmi10to8 converts without an intermediate copy */
GST_START_TEST (test_st2022src_vmi10to8_copy_free)
{
  gchar *report = tmp_path ("rx");
  guint port;
  gchar *rx, *tx = NULL;
  GThread *drain = NULL;
  GPid rxpid, txpid;
  gint out = -1;
  Copies c;
  gint rc;

  if (!have ("st2022src") || !have ("st2022sink") || !have ("vmi10to8")) {
    g_print ("SKIP: st2022src/st2022sink/vmi10to8 not in this build\n");
    g_free (report);
    return;
  }
  /* the receiver binds an ephemeral port before anything is sent: the
   * sender is started on the port it announces */
  rx = g_strdup ("st2022src address=127.0.0.1 port=0 num-buffers=30 "
      "buffer-size=67108864 ! vmi10to8 ! fakesink sync=false");
  rxpid = spawn_launch_full (rx, report, &out);
  port = read_bound_port (out, &drain);
  fail_unless (port != 0, "st2022src never announced the port it bound");
  tx = g_strdup_printf ("videotestsrc is-live=true pattern=smpte "
      "num-buffers=150 ! " CAPS_1080I " ! st2022sink host=127.0.0.1 port=%u",
      port);
  txpid = spawn_launch (tx, NULL);
  rc = wait_child (rxpid, 60);
  kill (txpid, SIGTERM);
  wait_child (txpid, 10);
  g_thread_join (drain);
  fail_unless_equals_int (rc, 0);

  c = read_report (report);
  GST_INFO ("st2022src ! vmi10to8, 30 frames: %" G_GUINT64_FORMAT
      " copies >= 2048 B, %" G_GUINT64_FORMAT " bytes", c.calls, c.bytes);
  fail_unless (c.bytes < UYVP_FRAME, "%" G_GUINT64_FORMAT " bytes copied in "
      "%" G_GUINT64_FORMAT " large copies over 30 frames: a frame is copied "
      "somewhere", c.bytes, c.calls);

  g_free (rx);
  g_free (tx);
  g_free (report);
}

GST_END_TEST;

/* producer and consumer of vmisink/vmisrc: no copy on either side */
GST_START_TEST (test_vmisink_vmisrc_copy_free)
{
  gchar *prod_report = tmp_path ("prod"), *cons_report = tmp_path ("cons");
  gchar *sock = tmp_path ("sock");
  gchar *prod, *cons;
  GPid ppid, cpid;
  Copies pc, cc, base;

  prod = g_strdup_printf ("videotestsrc pattern=ball num-buffers=30 ! "
      "video/x-raw,format=UYVP,width=1920,height=1080,framerate=60/1 ! "
      "vmisink socket-path=%s sync=false", sock);
  cons = g_strdup_printf ("vmisrc socket-path=%s ! fakesink sync=false", sock);

  /* videotestsrc itself memcpy()s a 15360-byte temporary line per line it
   * paints: measure the same source into fakesink, and require vmisink to
   * add less than one frame to it */
  ppid = spawn_launch ("videotestsrc pattern=ball num-buffers=30 ! "
      "video/x-raw,format=UYVP,width=1920,height=1080,framerate=60/1 ! "
      "fakesink sync=false", prod_report);
  fail_unless_equals_int (wait_child (ppid, 60), 0);
  base = read_report (prod_report);

  cpid = spawn_launch (cons, cons_report);
  ppid = spawn_launch (prod, prod_report);
  fail_unless_equals_int (wait_child (ppid, 60), 0);
  fail_unless_equals_int (wait_child (cpid, 30), 0);

  pc = read_report (prod_report);
  cc = read_report (cons_report);
  GST_INFO ("producer %" G_GUINT64_FORMAT " B (videotestsrc alone %"
      G_GUINT64_FORMAT " B), consumer %" G_GUINT64_FORMAT " B in large copies",
      pc.bytes, base.bytes, cc.bytes);
  fail_unless (pc.bytes < base.bytes + UYVP_FRAME, "vmisink added %"
      G_GINT64_FORMAT " bytes of copies", (gint64) (pc.bytes - base.bytes));
  fail_unless (cc.bytes < UYVP_FRAME, "consumer copied %" G_GUINT64_FORMAT
      " bytes", cc.bytes);

  g_free (prod);
  g_free (cons);
  g_free (sock);
  g_free (prod_report);
  g_free (cons_report);
}

GST_END_TEST;

static Suite *
vmi_zerocopy_suite (void)
{
  Suite *s = suite_create ("vmi-zerocopy");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_shim_sees_frame_copies);
  tcase_add_test (tc, test_st2022src_vmi10to8_copy_free);
  tcase_add_test (tc, test_vmisink_vmisrc_copy_free);
  return s;
}

GST_CHECK_MAIN (vmi_zerocopy);
