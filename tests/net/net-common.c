/* gst-vmi tests: helpers shared by the net tests. */

#include "net-common.h"

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "../../gst/st2022-elements/gstst2022meta.h"

guint16
net_test_port (void)
{
  /* A port the kernel picks as free now, not one derived from the pid:
   * tests of other binaries and other jobs on the machine run beside
   * these, and pid-derived ranges overlapped (a receiver failed to bind
   * under load). Not one of the last few handed out, so the two ports of
   * one test differ. */
  static guint16 recent[8];
  static guint n_recent = 0;

  for (;;) {
    struct sockaddr_in a = {.sin_family = AF_INET };
    socklen_t al = sizeof (a);
    int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    guint16 port;
    guint i;
    gboolean seen = FALSE;

    fail_unless (fd >= 0, "socket: %s", g_strerror (errno));
    fail_unless (bind (fd, (struct sockaddr *) &a, sizeof (a)) == 0,
        "bind: %s", g_strerror (errno));
    fail_unless (getsockname (fd, (struct sockaddr *) &a, &al) == 0);
    close (fd);
    port = g_ntohs (a.sin_port);
    for (i = 0; i < G_N_ELEMENTS (recent); i++)
      seen |= recent[i] == port;
    if (seen)
      continue;
    recent[n_recent++ % G_N_ELEMENTS (recent)] = port;
    return port;
  }
}

/* the namespace the process started in (opened at the first entry) */
static int ns_orig = -1;

void
net_enter_netns (const gchar * name)
{
  gchar *path = g_strdup_printf ("/var/run/netns/%s", name);
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (ns_orig < 0)
    ns_orig = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  fail_unless (fd >= 0, "cannot open %s", path);
  fail_unless (setns (fd, CLONE_NEWNET) == 0, "setns: %s", g_strerror (errno));
  close (fd);
  g_free (path);
}

void
net_leave_netns (void)
{
  fail_unless (setns (ns_orig, CLONE_NEWNET) == 0);
}

gboolean
net_sh (const gchar * fmt, ...)
{
  va_list ap;
  gchar *cmd, *out = NULL, *err = NULL;
  gint status = -1;
  gboolean ok;

  va_start (ap, fmt);
  cmd = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  ok = g_spawn_command_line_sync (cmd, &out, &err, &status, NULL)
      && g_spawn_check_wait_status (status, NULL);
  if (!ok)
    GST_WARNING ("'%s' failed: %s", cmd, err ? err : "");
  g_free (cmd);
  g_free (out);
  g_free (err);
  return ok;
}

gboolean
net_netns_pair_add (const gchar * ns_a, const gchar * ns_b,
    const gchar * dev_a, const gchar * dev_b, const gchar * mac_a,
    const gchar * subnet)
{
  gchar *mac = mac_a ? g_strdup_printf (" address %s", mac_a) : g_strdup ("");
  gboolean ok;

  net_netns_pair_del (ns_a, ns_b);
  ok = net_sh ("ip netns add %s", ns_a) && net_sh ("ip netns add %s", ns_b)
      && net_sh ("ip link add %s netns %s%s type veth peer name %s netns %s",
      dev_a, ns_a, mac, dev_b, ns_b)
      && net_sh ("ip -n %s addr add %s.1/24 dev %s", ns_a, subnet, dev_a)
      && net_sh ("ip -n %s addr add %s.2/24 dev %s", ns_b, subnet, dev_b)
      && net_sh ("ip -n %s link set %s up", ns_a, dev_a)
      && net_sh ("ip -n %s link set %s up", ns_b, dev_b)
      && net_sh ("ip -n %s link set lo up", ns_a)
      && net_sh ("ip -n %s link set lo up", ns_b);
  g_free (mac);
  return ok;
}

void
net_netns_pair_del (const gchar * ns_a, const gchar * ns_b)
{
  gchar *cmd = g_strdup_printf ("ip netns del %s", ns_a);

  /* not net_sh(): a namespace that is not there is no failure */
  g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL);
  g_free (cmd);
  cmd = g_strdup_printf ("ip netns del %s", ns_b);
  g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL);
  g_free (cmd);
}

GstCaps *
net_format_caps (const RefFormat * f, const gchar * format, gboolean bare)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, format,
      "width", G_TYPE_INT, f->width, "height", G_TYPE_INT, f->height,
      "framerate", GST_TYPE_FRACTION, f->fps_n, f->fps_d,
      "interlace-mode", G_TYPE_STRING,
      f->interlaced ? "interleaved" : "progressive", NULL);

  if (!bare) {
    /* SD: BT.601, 4:3 pictures of 720 samples */
    gst_caps_set_simple (caps, "colorimetry", G_TYPE_STRING,
        f->sd ? "bt601" : "bt709", "pixel-aspect-ratio", GST_TYPE_FRACTION,
        f->sd ? (f->lines == 525 ? 10 : 12) : 1, f->sd ? 11 : 1, NULL);
    /* PsF: one progressive picture, no field order */
    if (f->interlaced && !f->psf)
      gst_caps_set_simple (caps, "field-order", G_TYPE_STRING,
          f->bff ? "bottom-field-first" : "top-field-first", NULL);
  }
  return caps;
}

GstBuffer *
net_make_buffer (const GstVideoInfo * info, const RefFormat * f,
    const guint8 * uyvp)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame frame;
  gsize ustride = f->width * 5 / 2;
  guint r;

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buf,
          GST_MAP_WRITE));
  memset (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0), 0, info->size);
  for (r = 0; r < f->height; r++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_v210)
      ref_uyvp_to_v210 (uyvp + r * ustride, f->width, row);
    else
      memcpy (row, uyvp + r * ustride, ustride);
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

guint8 *
net_buffer_to_uyvp (GstBuffer * buf, GstCaps * caps, const RefFormat * f)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gsize ustride = f->width * 5 / 2;
  guint8 *out = g_malloc (ustride * f->height);
  guint r;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  for (r = 0; r < f->height; r++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    if (GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_v210)
      ref_v210_to_uyvp (row, f->width, out + r * ustride);
    else
      memcpy (out + r * ustride, row, ustride);
  }
  gst_video_frame_unmap (&frame);
  return out;
}

GstStructure *
net_run_until_eos (GstElement * pipeline, const gchar * stats_from,
    guint timeout_s)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstStructure *stats = NULL;
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  for (;;) {
    GstMessage *msg;
    gint64 left = deadline - g_get_monotonic_time ();

    fail_unless (left > 0, "timed out waiting for EOS");
    msg = gst_bus_timed_pop (bus, left * 1000);
    fail_unless (msg != NULL, "timed out waiting for EOS");
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;
      gst_message_parse_error (msg, &err, &dbg);
      fail ("error from %s: %s (%s)", GST_OBJECT_NAME (msg->src),
          err->message, dbg);
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT && stats_from
        && g_strcmp0 (GST_OBJECT_NAME (msg->src), stats_from) == 0
        && gst_message_has_name (msg, "st2022-stats")) {
      if (stats)
        gst_structure_free (stats);
      stats = gst_structure_copy (gst_message_get_structure (msg));
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      gst_message_unref (msg);
      break;
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return stats;
}

guint64
net_stat (const GstStructure * s, const gchar * field)
{
  guint64 v = 0;

  fail_unless (s != NULL, "no st2022-stats");
  fail_unless (gst_structure_get_uint64 (s, field, &v), "no field %s in %"
      GST_PTR_FORMAT, field, s);
  return v;
}

guint8 **
net_make_pictures (const RefFormat * f, guint n, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 **p = g_new (guint8 *, n);
  guint i;

  for (i = 0; i < n; i++) {
    p[i] = g_malloc (f->width * 5 / 2 * f->height);
    ref_random_uyvp (f, rand, p[i], f->width * 5 / 2);
  }
  g_rand_free (rand);
  return p;
}

void
net_free_pictures (guint8 ** p, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    g_free (p[i]);
  g_free (p);
}

GstSt2022Meta *
net_get_meta (GstBuffer * buf)
{
  GType api = g_type_from_name ("GstSt2022MetaAPI");

  fail_unless (api != 0);
  return (GstSt2022Meta *) gst_buffer_get_meta (buf, api);
}

static GstFlowReturn
net_receiver_new_sample (GstAppSink * sink, gpointer user_data)
{
  NetReceiver *r = user_data;
  GstSample *s = gst_app_sink_pull_sample (sink);

  g_mutex_lock (&r->lock);
  g_ptr_array_add (r->samples, s);
  g_mutex_unlock (&r->lock);
  return GST_FLOW_OK;
}

void
net_receiver_start (NetReceiver * r, const gchar * desc)
{
  GstAppSinkCallbacks cb = { NULL, NULL, net_receiver_new_sample };

  r->pipeline = gst_parse_launch (desc, NULL);
  fail_unless (r->pipeline != NULL, "cannot build '%s'", desc);
  r->src = gst_bin_get_by_name (GST_BIN (r->pipeline), "src");
  r->sink = gst_bin_get_by_name (GST_BIN (r->pipeline), "sink");
  fail_unless (r->src != NULL && r->sink != NULL);
  g_mutex_init (&r->lock);
  r->samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  gst_app_sink_set_callbacks (GST_APP_SINK (r->sink), &cb, r, NULL);
  fail_unless (gst_element_set_state (r->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
}

GstStructure *
net_receiver_finish (NetReceiver * r, guint timeout_s)
{
  GstStructure *stats = net_run_until_eos (r->pipeline, "src", timeout_s);

  gst_element_set_state (r->pipeline, GST_STATE_NULL);
  return stats;
}

void
net_receiver_clear (NetReceiver * r)
{
  g_ptr_array_unref (r->samples);
  g_mutex_clear (&r->lock);
  gst_object_unref (r->src);
  gst_object_unref (r->sink);
  gst_object_unref (r->pipeline);
}

void
net_push_pictures (GstElement * appsrc, const GstVideoInfo * info,
    const RefFormat * f, guint8 ** pics, guint n_pics, guint n)
{
  guint k;

  for (k = 0; k < n; k++) {
    GstBuffer *buf = net_make_buffer (info, f, pics[k % n_pics]);

    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND * f->fps_d,
        f->fps_n);
    GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (GST_SECOND, f->fps_d,
        f->fps_n);
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (appsrc), buf) ==
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
}

void
net_sender_start (NetSender * s, const RefFormat * f, const gchar * format,
    const gchar * props, GstState state)
{
  GstCaps *caps = net_format_caps (f, format, FALSE);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! st2022sink "
      "name=sink stats-interval=0 %s", props);

  s->f = f;
  fail_unless (gst_video_info_from_caps (&s->info, caps));
  s->pipeline = gst_parse_launch (desc, NULL);
  fail_unless (s->pipeline != NULL, "cannot build %s", desc);
  g_free (desc);
  s->appsrc = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
  s->sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
  g_object_set (s->appsrc, "caps", caps, NULL);
  gst_caps_unref (caps);
  fail_unless (gst_element_set_state (s->pipeline, state) !=
      GST_STATE_CHANGE_FAILURE);
}

void
net_sender_push (NetSender * s, guint k, const guint8 * uyvp)
{
  GstBuffer *buf = net_make_buffer (&s->info, s->f, uyvp);

  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND * s->f->fps_d,
      s->f->fps_n);
  fail_unless (gst_app_src_push_buffer (GST_APP_SRC (s->appsrc), buf) ==
      GST_FLOW_OK);
}

GstStructure *
net_sender_finish (NetSender * s)
{
  GstStructure *stats;

  gst_app_src_end_of_stream (GST_APP_SRC (s->appsrc));
  stats = net_run_until_eos (s->pipeline, "sink", 60);
  gst_element_set_state (s->pipeline, GST_STATE_NULL);
  gst_object_unref (s->appsrc);
  gst_object_unref (s->sink);
  gst_object_unref (s->pipeline);
  return stats;
}

GstStructure *
net_send_pictures (const RefFormat * f, guint8 ** pics, guint n,
    const gchar * sink_desc)
{
  GstCaps *caps = net_format_caps (f, "UYVP", FALSE);
  GstElement *pipeline, *src;
  GstVideoInfo info;
  GstStructure *stats;
  gchar *desc;

  fail_unless (gst_video_info_from_caps (&info, caps));
  desc = g_strdup_printf ("appsrc name=src format=time ! %s", sink_desc);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL, "cannot build %s", desc);
  g_free (desc);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_set (src, "caps", caps, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  net_push_pictures (src, &info, f, pics, n, n);
  stats = net_run_until_eos (pipeline, "sink", 60);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
  return stats;
}

void
net_check_frames (NetReceiver * r, const RefFormat * f, guint8 ** pics,
    guint n_pics, guint n)
{
  gsize ustride = f->width * 5 / 2;
  guint k, i;

  fail_unless_equals_int (r->samples->len, n);
  for (k = 0; k < n; k++) {
    GstSample *s = r->samples->pdata[k];
    GstBuffer *b = gst_sample_get_buffer (s);
    const guint8 *want = pics[k % n_pics];
    guint8 *pic;

    fail_if (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_CORRUPTED),
        "frame %u corrupted", k);
    pic = net_buffer_to_uyvp (b, gst_sample_get_caps (s), f);
    for (i = 0; i < f->height; i++)
      fail_unless (memcmp (pic + i * ustride, want + i * ustride,
              ustride) == 0, "%s frame %u: row %u differs", f->name, k, i);
    g_free (pic);
  }
}
