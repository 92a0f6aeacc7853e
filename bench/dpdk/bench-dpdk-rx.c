/* gst-vmi benchmark: datagrams per CPU-second of the whole st2022src
 * element on DPDK, fed by a net_pcap infinite_rx replay or by the
 * generator of rx-gen.c on a net_ring port (rx-bench.sh).
 *
 *   bench-dpdk-rx <source> <seconds> <eal-args> [sources] [shared-engine]
 *                 [dpdk-rx-mbufs] [rx-cpu]
 *
 * <source>: a pcap file (replayed by net_pcap infinite_rx, each stream on
 * 239.1.2.<1+i>:5004), or `gen` (streams to 10.0.0.2:<5004+2i> on
 * net_ring0 from rx-gen.c, which <eal-args> load with -d or the
 * environment with LD_PRELOAD). With VMI_RXGEN_STATS (the generator's
 * counts) the line also has gen_lost, the datagrams its queue could not
 * take over the same interval, and gen_late_max_us.
 *
 * Runs `st2022src transport=dpdk ! fakesink` (one per source; with a
 * shared-engine name they share one receive thread), lets it settle for
 * one second, then counts the datagrams the elements took (their
 * `packets` statistic) and the CPU time of the receive threads
 * (/proc/self/task/<tid>/stat: utime + stime of every thread named
 * st2022src-rx or vmi-rx-*) over <seconds>. Prints one line:
 *
 *   rx-element packets=<n> cpu_s=<t> mdgps_per_cpu_s=<r> streams_1080p5994=<s>
 *     frames=<f> lost=<l> caps=<negotiated caps of the first source>
 *
 * frames and lost (the `frames` and `packets-lost` statistics over the
 * same interval) show the elements reassembled whole frames.
 *
 * Not a test: timings on a shared machine are noise; bench/dpdk/rx-bench.sh
 * alternates it with dpdk-testpmd rxonly on the same replay and core. */

#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1080p59.94: 4497 datagrams per frame, 60000/1001 frames per second */
#define DGRAMS_PER_S_1080P5994 (4497.0 * 60000.0 / 1001.0)

static gdouble
rx_threads_cpu (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar *tid;
  gdouble sum = 0;
  glong hz = sysconf (_SC_CLK_TCK);

  while (dir && (tid = g_dir_read_name (dir))) {
    gchar *path = g_strdup_printf ("/proc/self/task/%s/comm", tid);
    gchar *comm = NULL, *stat = NULL;

    if (g_file_get_contents (path, &comm, NULL, NULL)
        && (g_str_has_prefix (comm, "st2022src-rx")
            || g_str_has_prefix (comm, "vmi-rx"))) {
      gchar *spath = g_strdup_printf ("/proc/self/task/%s/stat", tid);

      if (g_file_get_contents (spath, &stat, NULL, NULL)) {
        /* fields after the ")" of comm: state is field 3, utime 14 */
        gchar *p = strrchr (stat, ')');
        gchar **f = g_strsplit (p + 2, " ", 0);

        if (g_strv_length (f) > 12)
          sum += (g_ascii_strtod (f[11], NULL) + g_ascii_strtod (f[12],
                  NULL)) / hz;
        g_strfreev (f);
      }
      g_free (spath);
    }
    g_free (stat);
    g_free (comm);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  return sum;
}

/* @field of the generator's stats file (VMI_RXGEN_STATS), 0 without */
static guint64
gen_stat (const gchar * field)
{
  const gchar *path = g_getenv ("VMI_RXGEN_STATS");
  gchar *text = NULL, *key = g_strdup_printf ("%s=", field), *p;
  guint64 v = 0;

  if (path && g_file_get_contents (path, &text, NULL, NULL)
      && (p = strstr (text, key)) != NULL)
    v = g_ascii_strtoull (p + strlen (key), NULL, 10);
  g_free (key);
  g_free (text);
  return v;
}

static guint64
stat_sum (GstElement ** srcs, guint n, const gchar * field)
{
  guint64 sum = 0, v;
  guint i;

  for (i = 0; i < n; i++) {
    GstStructure *s = NULL;

    g_object_get (srcs[i], "stats", &s, NULL);
    if (s && gst_structure_get_uint64 (s, field, &v))
      sum += v;
    if (s)
      gst_structure_free (s);
  }
  return sum;
}

int
main (int argc, char **argv)
{
  GstElement *pipeline, *srcs[64];
  GString *desc = g_string_new (NULL);
  GError *err = NULL;
  GstBus *bus;
  GstMessage *msg;
  guint n, i;
  gdouble secs, cpu0, cpu1;
  guint64 p0, p1, f0, f1, l0, l1, g0, g1;
  gboolean gen;
  GstPad *pad;
  GstCaps *caps;
  gchar *caps_s, *gen_line;

  gst_init (&argc, &argv);
  if (argc < 4) {
    g_printerr ("usage: %s <pcap|gen> <seconds> <eal-args> [sources] "
        "[shared-engine] [dpdk-rx-mbufs] [rx-cpu]\n", argv[0]);
    return 2;
  }
  secs = g_ascii_strtod (argv[2], NULL);
  n = argc > 4 ? atoi (argv[4]) : 1;
  n = CLAMP (n, 1, G_N_ELEMENTS (srcs));
  gen = g_strcmp0 (argv[1], "gen") == 0;
  for (i = 0; i < n; i++) {
    gchar *addr = gen ? g_strdup ("10.0.0.2") :
        g_strdup_printf ("239.1.2.%u", 1 + i);
    guint port = gen ? 5004 + 2 * i : 5004;
    gchar *vdev = gen ? g_strdup ("net_ring0") :
        g_strdup_printf ("net_pcap0,rx_pcap=%s,infinite_rx=1", argv[1]);

    g_string_append_printf (desc, "st2022src name=s%u transport=dpdk "
        "address=%s port=%u stats-interval=0 dpdk-eal-args=\"%s "
        "--vdev %s\" %s%s %s%s %s%s ! fakesink name=f%u sync=false ", i,
        addr, port, argv[3], vdev, argc > 5 ? "shared-engine=" : "",
        argc > 5 ? argv[5] : "", argc > 6 ? "dpdk-rx-mbufs=" : "",
        argc > 6 ? argv[6] : "", argc > 7 ? "rx-cpu=" : "",
        argc > 7 ? argv[7] : "", i);
    g_free (addr);
    g_free (vdev);
  }
  pipeline = gst_parse_launch (desc->str, &err);
  if (pipeline == NULL) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  for (i = 0; i < n; i++) {
    gchar name[16];
    g_snprintf (name, sizeof (name), "s%u", i);
    srcs[i] = gst_bin_get_by_name (GST_BIN (pipeline), name);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
  if (msg == NULL || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    if (msg) {
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error: %s\n", err->message);
    } else {
      g_printerr ("no frame within 10 s\n");
    }
    return 1;
  }
  gst_message_unref (msg);
  g_usleep (G_USEC_PER_SEC);

  p0 = stat_sum (srcs, n, "packets");
  f0 = stat_sum (srcs, n, "frames");
  l0 = stat_sum (srcs, n, "packets-lost");
  g0 = gen_stat ("lost");
  cpu0 = rx_threads_cpu ();
  g_usleep ((gulong) (secs * G_USEC_PER_SEC));
  cpu1 = rx_threads_cpu ();
  p1 = stat_sum (srcs, n, "packets");
  f1 = stat_sum (srcs, n, "frames");
  l1 = stat_sum (srcs, n, "packets-lost");
  g1 = gen_stat ("lost");

  pad = gst_element_get_static_pad (srcs[0], "src");
  caps = gst_pad_get_current_caps (pad);
  caps_s = caps ? gst_caps_to_string (caps) : g_strdup ("none");
  gen_line = g_getenv ("VMI_RXGEN_STATS") ?
      g_strdup_printf (" gen_lost=%" G_GUINT64_FORMAT " gen_late_max_us=%"
      G_GUINT64_FORMAT, g1 - g0, gen_stat ("late_max_us")) : g_strdup ("");
  printf ("rx-element sources=%u packets=%" G_GUINT64_FORMAT " cpu_s=%.2f "
      "mdgps_per_cpu_s=%.3f streams_1080p5994=%.1f frames=%" G_GUINT64_FORMAT
      " lost=%" G_GUINT64_FORMAT "%s caps=%s\n", n, p1 - p0, cpu1 - cpu0,
      (p1 - p0) / MAX (cpu1 - cpu0, 1e-3) / 1e6,
      (p1 - p0) / MAX (cpu1 - cpu0, 1e-3) / DGRAMS_PER_S_1080P5994, f1 - f0,
      l1 - l0, gen_line, caps_s);
  fflush (stdout);
  g_free (caps_s);
  g_free (gen_line);
  if (caps)
    gst_caps_unref (caps);
  gst_object_unref (pad);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  for (i = 0; i < n; i++)
    gst_object_unref (srcs[i]);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_string_free (desc, TRUE);
  return 0;
}
