/* gst-vmi benchmark: CPU per frame of a whole pipeline (every thread of
 * the process: the element's streaming, transmit or receive threads),
 * measured between two frames so that start-up (plugin loading, EAL
 * start, port set-up) is not counted.
 *
 *   bench-element <warm-up frames> <pipeline description>
 *
 * The pipeline has an element named "count": buffers reaching its sink pad
 * are the frames counted, and that pad's caps are printed (the caps the
 * pipeline really negotiated). CPU is getrusage(RUSAGE_SELF) user +
 * system between frame <warm-up> and the last frame, so the time a shared
 * core gave other processes is not counted. The last st2022-stats element
 * message (the element posts one at EOS) is printed too.
 *
 * Prints: "caps=<caps> frames=<n> cpu_s=<t> fps_per_cpu_s=<r> stats=<...>" */

#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench-cpu.h"

static guint64 seen, warm;
static gdouble cpu0, cpu1;
static guint64 frames;
/* context switches of the whole process over the same frames: a thread
 * woken for nothing shows here before it shows in the CPU time */
static glong csw0, csw1;

static glong
process_switches (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_nvcsw + ru.ru_nivcsw;
}

static gdouble
process_cpu (void)
{
  return bench_cpu_seconds (RUSAGE_SELF);
}

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer u)
{
  seen++;
  if (seen == warm) {
    cpu0 = process_cpu ();
    csw0 = process_switches ();
  } else if (seen > warm) {
    cpu1 = process_cpu ();
    csw1 = process_switches ();
    frames = seen - warm;
  }
  return GST_PAD_PROBE_OK;
}

int
main (int argc, char **argv)
{
  GstElement *pipe, *count;
  GstPad *pad;
  GstBus *bus;
  GstMessage *m;
  GstCaps *caps;
  GError *err = NULL;
  gchar *stats = NULL, *caps_s;
  gboolean ok = TRUE;

  gst_init (&argc, &argv);
  if (argc != 3) {
    g_printerr ("usage: %s <warm-up frames> <pipeline>\n", argv[0]);
    return 2;
  }
  warm = MAX (1, g_ascii_strtoull (argv[1], NULL, 10));
  pipe = gst_parse_launch (argv[2], &err);
  if (pipe == NULL) {
    g_printerr ("pipeline: %s\n", err->message);
    return 1;
  }
  count = gst_bin_get_by_name (GST_BIN (pipe), "count");
  if (count == NULL) {
    g_printerr ("the pipeline has no element named \"count\"\n");
    return 2;
  }
  pad = gst_element_get_static_pad (count, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, NULL, NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipe);
  for (;;) {
    m = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT) {
      const GstStructure *s = gst_message_get_structure (m);
      if (gst_structure_has_name (s, "st2022-stats")) {
        g_free (stats);
        stats = gst_structure_to_string (s);
      }
      gst_message_unref (m);
      continue;
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *e;
      gst_message_parse_error (m, &e, NULL);
      g_printerr ("error: %s\n", e->message);
      g_error_free (e);
      ok = FALSE;
    }
    gst_message_unref (m);
    break;
  }
  caps = gst_pad_get_current_caps (pad);
  caps_s = caps ? gst_caps_to_string (caps) : g_strdup ("(none)");
  gst_element_set_state (pipe, GST_STATE_NULL);
  if (ok && frames > 0)
    printf ("caps=%s frames=%" G_GUINT64_FORMAT " cpu_s=%.3f "
        "fps_per_cpu_s=%.1f switches_per_frame=%.1f stats=%s\n", caps_s,
        frames, cpu1 - cpu0, frames / (cpu1 - cpu0),
        (gdouble) (csw1 - csw0) / frames, stats ? stats : "(none)");
  else if (ok)
    g_printerr ("only %" G_GUINT64_FORMAT " frames: fewer than the warm-up\n",
        seen);
  if (caps)
    gst_caps_unref (caps);
  g_free (caps_s);
  g_free (stats);
  gst_object_unref (pad);
  gst_object_unref (count);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return ok && frames > 0 ? 0 : 1;
}
