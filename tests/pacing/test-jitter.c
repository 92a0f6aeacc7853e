/* gst-vmi: vmi-jitter end to end: the dummy loop for 10^5 iterations, and
 * the packet sink on loopback receiving 2 s of st2022sink (1080i59.94,
 * software pacing). Checks the JSON summary against the series file the
 * same run wrote, the buffer formula, the plot, and that the mean ΔT is
 * the stream's packet period within 5 %.
 *
 * argv[1] = vmi-jitter (from meson).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "tool-json.h"
#include <sys/wait.h>

static const gchar *vmi_jitter_path;
static gchar *tmpdir;

/* 1080i59.94: 4497 datagrams per frame at 30000/1001 frames/s */
#define F_1080I (4497.0 * 30000.0 / 1001.0)
#define FRAMES 60

typedef struct
{
  gchar *json, *series_path, *plot_path, *json_path;
} Outputs;

static void
outputs_init (Outputs * o, const gchar * name)
{
  o->json = NULL;
  o->json_path = g_strdup_printf ("%s/%s.json", tmpdir, name);
  o->series_path = g_strdup_printf ("%s/%s.txt", tmpdir, name);
  o->plot_path = g_strdup_printf ("%s/%s.png", tmpdir, name);
}

static void
outputs_clear (Outputs * o)
{
  g_free (o->json);
  g_free (o->json_path);
  g_free (o->series_path);
  g_free (o->plot_path);
}

/* The checks every mode shares: keys, the series file agrees with the
 * summary, spikes recounted, b = floor (2 f J) + 1, a PNG. */
static void
check_outputs (Outputs * o, double period_ns, double rate_hz)
{
  gchar *txt = NULL, **lines, *png = NULL;
  gsize n = 0, i, png_len = 0, spikes = 0;
  double sum = 0, max = 0, thr, count, j, b;

  fail_unless (g_file_get_contents (o->json_path, &o->json, NULL, NULL));
  GST_INFO ("%s", o->json);
  count = json_num (o->json, "count");
  thr = json_num (o->json, "spike_threshold_ns");
  fail_unless (fabs (thr - (period_ns + 5000)) < 1e-3);

  fail_unless (g_file_get_contents (o->series_path, &txt, NULL, NULL));
  lines = g_strsplit (txt, "\n", -1);
  for (i = 0; lines[i] && lines[i][0]; i++) {
    double v = g_ascii_strtod (lines[i], NULL);
    sum += v;
    max = MAX (max, v);
    spikes += v > thr;
    n++;
  }
  g_strfreev (lines);
  g_free (txt);
  fail_unless_equals_int ((gint) count, (gint) n);
  fail_unless (fabs (json_num (o->json, "mean_ns") - sum / n) < 1e-3 * n,
      "mean %f vs series %f", json_num (o->json, "mean_ns"), sum / n);
  fail_unless (fabs (json_num (o->json, "max_ns") - max) < 1e-3);
  fail_unless_equals_int ((gint) json_num (o->json, "spikes"), (gint) spikes);
  fail_unless (json_num (o->json, "p50_ns") <= json_num (o->json, "p99_ns"));
  fail_unless (json_num (o->json, "p99_ns") <= json_num (o->json, "p999_ns"));
  fail_unless (json_num (o->json, "p999_ns") <= max);
  fail_unless (json_num (o->json, "stddev_ns") >= 0);

  /* the mean PIT is the stream's packet period, within 5 % */
  fail_unless (fabs (sum / n - period_ns) < 0.05 * period_ns,
      "mean ΔT %.1f ns, period %.1f ns", sum / n, period_ns);

  /* the buffer follows from J by b > 2 f J */
  j = json_num (o->json, "jitter_ns");
  b = json_num (o->json, "buffer_packets");
  fail_unless (fabs (json_num (o->json, "stream_rate_hz") - rate_hz) < 1e-3);
  fail_unless_equals_int ((gint) b, (gint) floor (2 * rate_hz * j / 1e9) + 1);
  fail_unless (fabs (json_num (o->json, "buffer_us") - b / rate_hz * 1e6) <
      1e-3);

  fail_unless (g_file_get_contents (o->plot_path, &png, &png_len, NULL));
  fail_unless (png_len > 1000);
  fail_unless (memcmp (png, "\x89PNG\r\n\x1a\n", 8) == 0);
  g_free (png);
}

GST_START_TEST (test_dummy)
{
  Outputs o;
  const gchar *argv[] = { vmi_jitter_path, "dummy", "--iterations", "100000",
    "--period-ns", "7410", "--priority", "1", "--json", NULL, "--series",
    NULL, "--plot", NULL, NULL
  };
  gint status;
  gchar *out = NULL, *err = NULL;

  outputs_init (&o, "dummy");
  argv[9] = o.json_path;
  argv[11] = o.series_path;
  argv[13] = o.plot_path;
  fail_unless (g_spawn_sync (NULL, (gchar **) argv, NULL, 0, NULL, NULL,
          &out, &err, &status, NULL));
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s", err);
  check_outputs (&o, 7410, 1e9 / 7410);
  fail_unless_equals_int ((gint) json_num (o.json, "count"), 99999);
  /* the loop never returns before one period has passed */
  fail_unless (json_num (o.json, "min_ns") >= 7410);
  fail_unless (fabs (json_num (o.json, "jitter_ns") -
          (json_num (o.json, "max_ns") - 7410)) < 1e-3);
  fail_unless (strstr (out, "receiver buffer") != NULL, "%s", out);
  outputs_clear (&o);
  g_free (out);
  g_free (err);
}

GST_END_TEST;

/* The sink prints its port (it binds port 0) on stderr: read it back. */
static guint16
read_port (gint fd)
{
  GString *s = g_string_new (NULL);
  gchar c;
  const gchar *p;
  guint16 port = 0;

  while (read (fd, &c, 1) == 1) {
    g_string_append_c (s, c);
    if (c == '\n' && (p = strstr (s->str, "udp port ")) != NULL) {
      port = (guint16) atoi (p + strlen ("udp port "));
      break;
    }
  }
  fail_unless (port != 0, "no port in '%s'", s->str);
  g_string_free (s, TRUE);
  return port;
}

static void
run_sink (const gchar * mode)
{
  Outputs o;
  gchar *name = g_strdup_printf ("sink-%s", mode), *count, *desc;
  const gchar *argv[] = { vmi_jitter_path, "sink", "--port", "0", "--mode",
    mode, "--count", NULL, "--idle-ms", "3000", "--format", "1080i59.94",
    "--json", NULL, "--series", NULL, "--plot", NULL, NULL
  };
  GPid pid;
  gint err_fd, status;
  guint16 port;
  GstElement *pipe;
  GstMessage *msg;

  outputs_init (&o, name);
  count = g_strdup_printf ("%d", FRAMES * 4497);
  argv[7] = count;
  argv[13] = o.json_path;
  argv[15] = o.series_path;
  argv[17] = o.plot_path;
  fail_unless (g_spawn_async_with_pipes (NULL, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
          &pid, NULL, NULL, &err_fd, NULL));
  port = read_port (err_fd);

  /* 2 s of 1080i59.94 from st2022sink, paced in software */
  desc = g_strdup_printf ("videotestsrc num-buffers=1 pattern=smpte "
      "! video/x-raw,format=UYVP,width=1920,height=1080,"
      "framerate=30000/1001,interlace-mode=interleaved "
      "! imagefreeze is-live=true num-buffers=%d "
      "! st2022sink host=127.0.0.1 port=%u pacing=software", FRAMES, port);
  pipe = gst_parse_launch (desc, NULL);
  fail_unless (pipe != NULL);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);

  /* the sink stops at --count (every datagram) */
  fail_unless (waitpid (pid, &status, 0) == pid);
  g_spawn_close_pid (pid);
  close (err_fd);
  fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  check_outputs (&o, 1e9 / F_1080I, F_1080I);
  fail_unless_equals_int ((gint) json_num (o.json, "count"),
      FRAMES * 4497 - 1);
  fail_unless (strstr (o.json, "\"transport\": \"socket\"") != NULL);
  outputs_clear (&o);
  g_free (name);
  g_free (count);
  g_free (desc);
}

GST_START_TEST (test_sink_block)
{
  run_sink ("block");
}

GST_END_TEST;

GST_START_TEST (test_sink_poll)
{
  run_sink ("poll");
}

GST_END_TEST;

static Suite *
jitter_suite (void)
{
  Suite *s = suite_create ("jitter");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_dummy);
  tcase_add_test (tc, test_sink_block);
  tcase_add_test (tc, test_sink_poll);
  return s;
}

int
main (int argc, char **argv)
{
  int ret;

  gst_check_init (&argc, &argv);
  if (argc < 2) {
    g_printerr ("usage: test-jitter VMI-JITTER\n");
    return 2;
  }
  vmi_jitter_path = argv[1];
  tmpdir = g_dir_make_tmp ("vmi-jitter-XXXXXX", NULL);
  ret = gst_check_run_suite (jitter_suite (), "jitter", __FILE__);
  if (!g_getenv ("VMI_KEEP_FILES")) {
    const gchar *f;
    GDir *d = g_dir_open (tmpdir, 0, NULL);
    while (d && (f = g_dir_read_name (d))) {
      gchar *p = g_build_filename (tmpdir, f, NULL);
      g_unlink (p);
      g_free (p);
    }
    if (d)
      g_dir_close (d);
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);
  return ret;
}
