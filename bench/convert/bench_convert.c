/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmi10to8 against its baselines, measured side by side in one run, on the
 * same 1920x1080 input frames:
 *
 * - memcpy of the input frame (the floor: converting must read it all);
 * - videoconvert n-threads=1 dither=none (GStreamer's converter) through
 *   GstHarness;
 * - the vmi10to8 element through GstHarness, 1 thread and one per CPU,
 *   out of place (the input still referenced elsewhere) and, for UYVY, in
 *   place;
 * - the raw core kernels: scalar, SSSE3, AVX2 on one thread, and the best
 *   one on every CPU.
 *
 * Each figure is the median wall-clock time per frame over a few dozen
 * frames (single-threaded runs: wall ~ CPU time); ratios are to read,
 * absolute values vary with the machine's load.
 *
 * Usage: bench_convert [frames]   (default 30) */

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "vmi-convert.h"

#define W 1920
#define H 1080

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* Page faults taken inside the timed regions of the row being measured: a
 * destination first touched on the clock would charge that row for the
 * kernel's page clearing, which the other rows do not pay. Every row warms
 * its destination before the clock runs (memcpy: memset then one untimed
 * copy; elements: one untimed frame, after which the pool hands the same
 * buffers back; in place: the copy made before the clock; kernels: memset
 * then one untimed run), and the count shows it held. */
static glong timed_faults;

static glong
minor_faults (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

typedef struct
{
  const char *name;
  VmiConvFormat in;
  VmiConvFormat out;
  const char *in_caps;
  const char *out_fmt;
} Case;

static const Case cases[] = {
  {"UYVP->UYVY", VMI_CONV_FORMAT_UYVP, VMI_CONV_FORMAT_UYVY, "UYVP", "UYVY"},
  {"UYVP->Y42B", VMI_CONV_FORMAT_UYVP, VMI_CONV_FORMAT_Y42B, "UYVP", "Y42B"},
  {"v210->UYVY", VMI_CONV_FORMAT_V210, VMI_CONV_FORMAT_UYVY, "v210", "UYVY"},
};

/* random bytes are valid UYVP and v210 frames */
static GstBuffer *
make_frame (const GstVideoInfo * info)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (1);
  gsize i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i + 4 <= map.size; i += 4)
    GST_WRITE_UINT32_LE (map.data + i, g_rand_int (rand));
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  return buf;
}

/* median ms per frame of an element. Not in place: the input is kept
 * referenced, so never converted in place. In place: every frame is a
 * fresh writable copy, made before the clock runs. */
static double
time_element (const char *desc, const Case * c, GstBuffer * in,
    guint frames, gboolean in_place)
{
  GstHarness *h = gst_harness_new_parse (desc);
  gchar *in_caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
      "height=%d,framerate=30000/1001", c->in_caps, W, H);
  gchar *out_caps = g_strdup_printf ("video/x-raw,format=%s", c->out_fmt);
  double *t = g_new (double, frames), m;
  guint i;

  timed_faults = 0;
  gst_harness_set_src_caps_str (h, in_caps);
  gst_harness_set_sink_caps_str (h, out_caps);
  /* first frame: negotiation, pool, thread start-up */
  gst_buffer_unref (gst_harness_push_and_pull (h, in_place ?
          gst_buffer_copy_deep (in) : gst_buffer_ref (in)));
  for (i = 0; i < frames; i++) {
    GstBuffer *feed = in_place ? gst_buffer_copy_deep (in) :
        gst_buffer_ref (in), *out;
    glong f0 = minor_faults ();
    double t0 = now_ms ();
    out = gst_harness_push_and_pull (h, feed);
    t[i] = now_ms () - t0;
    timed_faults += minor_faults () - f0;
    if (in_place && out != feed)
      g_printerr ("warning: frame %u not converted in place\n", i);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (in_caps);
  g_free (out_caps);
  m = median (t, frames);
  g_free (t);
  return m;
}

static double
time_kernel (const Case * c, guint8 * src, const GstVideoInfo * in_info,
    guint8 * dst, const GstVideoInfo * out_info, VmiConvImpl impl,
    VmiWorkers * workers, guint frames)
{
  VmiConvJob job = { 0, };
  double *t = g_new (double, frames), m;
  guint i, p;

  job.width = W;
  job.height = H;
  job.src.format = c->in;
  job.src.data[0] = src;
  job.src.stride[0] = GST_VIDEO_INFO_PLANE_STRIDE (in_info, 0);
  job.dst.format = c->out;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (out_info); p++) {
    job.dst.data[p] = dst + GST_VIDEO_INFO_PLANE_OFFSET (out_info, p);
    job.dst.stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (out_info, p);
  }
  if (vmi_conv_job_prepare (&job, impl) != 0) {
    g_free (t);
    return NAN;
  }
  vmi_conv_job_run_parallel (&job, workers);
  timed_faults = 0;
  for (i = 0; i < frames; i++) {
    glong f0 = minor_faults ();
    double t0 = now_ms ();
    vmi_conv_job_run_parallel (&job, workers);
    t[i] = now_ms () - t0;
    timed_faults += minor_faults () - f0;
  }
  m = median (t, frames);
  g_free (t);
  return m;
}

static double
time_memcpy (guint8 * dst, const guint8 * src, gsize size, guint frames)
{
  double *t = g_new (double, frames), m;
  guint i;

  memcpy (dst, src, size);
  timed_faults = 0;
  for (i = 0; i < frames; i++) {
    glong f0 = minor_faults ();
    double t0 = now_ms ();
    memcpy (dst, src, size);
    /* keep the copy from being optimised away */
    __asm__ __volatile__ ("":::"memory");
    t[i] = now_ms () - t0;
    timed_faults += minor_faults () - f0;
  }
  m = median (t, frames);
  g_free (t);
  return m;
}

/* faults: page faults in all the row's timed frames */
static void
row_f (const char *what, double ms, double vc, double mc, glong faults)
{
  if (isnan (ms))
    printf ("  %-38s %9s\n", what, "n/a");
  else
    printf ("  %-38s %9.3f  %8.1fx  %7.2fx  %6ld\n", what, ms, vc / ms,
        ms / mc, faults);
}

/* a row measured just now */
static void
row (const char *what, double ms, double vc, double mc)
{
  row_f (what, ms, vc, mc, timed_faults);
}

int
main (int argc, char **argv)
{
  guint frames = argc > 1 ? (guint) atoi (argv[1]) : 30;
  VmiWorkers *all = vmi_workers_new (0);
  guint ci, ii, ncpu;
  double goal_vc = NAN, goal_mc = NAN;

  gst_init (&argc, &argv);
  if (frames < 3)
    frames = 3;
  ncpu = vmi_workers_n_threads (all);
  printf ("vmi10to8 benchmark: %dx%d frames, median of %u frames each, "
      "%u CPUs, best kernels %s\n", W, H, frames, ncpu,
      vmi_conv_impl_name (vmi_conv_impl_best ()));
  printf ("  %-38s %9s  %9s  %8s  %6s\n", "", "ms/frame", "vs vconv",
      "vs memcpy", "faults");

  for (ci = 0; ci < G_N_ELEMENTS (cases); ci++) {
    const Case *c = &cases[ci];
    GstVideoInfo in_info, out_info;
    GstBuffer *in;
    GstMapInfo map;
    guint8 *dst, *copy;
    double vc, mc, t;
    glong vc_f, mc_f;
    gchar *desc;
    static const VmiConvImpl impls[] = { VMI_CONV_IMPL_SCALAR,
      VMI_CONV_IMPL_SSSE3, VMI_CONV_IMPL_AVX2
    };

    /* the case's caps names are GStreamer's format names */
    gst_video_info_set_format (&in_info,
        gst_video_format_from_string (c->in_caps), W, H);
    gst_video_info_set_format (&out_info,
        gst_video_format_from_string (c->out_fmt), W, H);
    in = make_frame (&in_info);
    gst_buffer_map (in, &map, GST_MAP_READ);
    dst = g_malloc (out_info.size);
    copy = g_malloc (in_info.size);
    memset (dst, 0, out_info.size);
    memset (copy, 0, in_info.size);

    mc = time_memcpy (copy, map.data, in_info.size, frames);
    mc_f = timed_faults;
    vc = time_element ("videoconvert n-threads=1 dither=none", c, in,
        MAX (frames / 2, 5), FALSE);
    vc_f = timed_faults;
    printf ("%s (input %" G_GSIZE_FORMAT " B, output %" G_GSIZE_FORMAT
        " B)\n", c->name, in_info.size, out_info.size);
    row_f ("memcpy of the input frame", mc, vc, mc, mc_f);
    row_f ("videoconvert n-threads=1 dither=none", vc, vc, mc, vc_f);
    t = time_element ("vmi10to8 n-threads=1", c, in, frames, FALSE);
    row ("vmi10to8 n-threads=1", t, vc, mc);
    /* the goal, on the headline conversion */
    if (ci == 0) {
      goal_vc = vc / t;
      goal_mc = t / mc;
    }
    desc = g_strdup_printf ("vmi10to8 n-threads=%u", ncpu);
    t = time_element (desc, c, in, frames, FALSE);
    g_free (desc);
    desc = g_strdup_printf ("vmi10to8 n-threads=%u (0 = auto)", ncpu);
    row (desc, t, vc, mc);
    g_free (desc);
    if (vmi_conv_in_place_possible (c->in, c->out)) {
      t = time_element ("vmi10to8 n-threads=1", c, in, frames, TRUE);
      row ("vmi10to8 n-threads=1, in place", t, vc, mc);
      desc = g_strdup_printf ("vmi10to8 n-threads=%u", ncpu);
      t = time_element (desc, c, in, frames, TRUE);
      g_free (desc);
      desc = g_strdup_printf ("vmi10to8 n-threads=%u, in place", ncpu);
      row (desc, t, vc, mc);
      g_free (desc);
    }
    for (ii = 0; ii < G_N_ELEMENTS (impls); ii++) {
      desc = g_strdup_printf ("kernel %s, 1 thread",
          vmi_conv_impl_name (impls[ii]));
      row (desc, time_kernel (c, map.data, &in_info, dst, &out_info,
              impls[ii], NULL, frames), vc, mc);
      g_free (desc);
    }
    desc = g_strdup_printf ("kernel %s, %u threads",
        vmi_conv_impl_name (vmi_conv_impl_best ()), ncpu);
    row (desc, time_kernel (c, map.data, &in_info, dst, &out_info,
            VMI_CONV_IMPL_AUTO, all, frames), vc, mc);
    g_free (desc);

    g_free (dst);
    g_free (copy);
    gst_buffer_unmap (in, &map);
    gst_buffer_unref (in);
  }
  vmi_workers_free (all);
  printf ("goal, UYVP->UYVY, vmi10to8 n-threads=1: %.1fx faster than "
      "videoconvert (goal >= 20x: %s), %.2fx memcpy (goal <= 3x: %s)\n",
      goal_vc, goal_vc >= 20 ? "met" : "missed", goal_mc,
      goal_mc <= 3 ? "met" : "missed");
  return 0;
}
