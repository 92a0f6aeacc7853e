/* gst-vmi tests: st2022sink -> st2022src on real sockets: bit-exact round
 * trips, a lossy relay with exact counters, multicast (and SSM) across
 * network namespaces, negotiation and configuration errors, state cycles. */

#include "net-common.h"

#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "../../gst/st2022-elements/gstst2022meta.h"

static void
receiver_start (NetReceiver * r, const gchar * props, guint frames,
    const gchar * format)
{
  gchar *desc = g_strdup_printf ("st2022src name=src num-buffers=%u "
      "stats-interval=0 %s ! video/x-raw,format=%s ! appsink name=sink "
      "sync=false", frames, props, format);

  net_receiver_start (r, desc);
  g_free (desc);
}


/* Every output frame equals the input frame its FRCount names. */
static void
check_outputs (NetReceiver * r, const RefFormat * f, guint8 ** pics,
    guint n_pics, guint expect, gboolean allow_corrupted)
{
  guint i;
  guint8 fr0 = 0;

  fail_unless_equals_int (r->samples->len, expect);
  for (i = 0; i < r->samples->len; i++) {
    GstSample *s = r->samples->pdata[i];
    GstBuffer *buf = gst_sample_get_buffer (s);
    GstSt2022Meta *m = net_get_meta (buf);
    guint8 *got;
    guint k;

    fail_unless (m != NULL);
    if (i == 0)
      fr0 = m->frcount;
    k = (guint8) (m->frcount - fr0);
    /* the sender starts at a random FRCount: the first output is frame 0
     * (the receiver runs first) */
    fail_unless_equals_int (k, i);
    fail_unless (k < n_pics);
    if (!allow_corrupted)
      fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED))
      continue;
    got = net_buffer_to_uyvp (buf, gst_sample_get_caps (s), f);
    fail_unless (memcmp (got, pics[k], f->width * 5 / 2 * f->height) == 0,
        "%s: frame %u differs", f->name, k);
    g_free (got);
  }
}

static void
round_trip_at (const RefFormat * f, const gchar * in_format,
    const gchar * out_format, const gchar * rx_addr, const gchar * tx_host)
{
  const guint N = 4;
  guint16 port = net_test_port ();
  guint8 **pics = net_make_pictures (f, N, port);
  gchar *props = g_strdup_printf ("port=%u address=%s", port, rx_addr);
  gchar *sprops = g_strdup_printf ("port=%u host=%s", port, tx_host);
  GstStructure *sstats, *rstats;
  NetReceiver r;
  NetSender s;
  guint k;

  receiver_start (&r, props, N, out_format);
  net_sender_start (&s, f, in_format, sprops, GST_STATE_PLAYING);
  for (k = 0; k < N; k++)
    net_sender_push (&s, k, pics[k]);
  sstats = net_sender_finish (&s);
  rstats = net_receiver_finish (&r, 60);

  check_outputs (&r, f, pics, N, N, FALSE);
  fail_unless_equals_uint64 (net_stat (sstats, "frames"), N);
  fail_unless_equals_uint64 (net_stat (rstats, "frames"), N);
  fail_unless_equals_uint64 (net_stat (rstats, "packets"),
      net_stat (sstats, "packets"));
  fail_unless_equals_uint64 (net_stat (rstats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (rstats, "frames-corrupted"), 0);

  gst_structure_free (sstats);
  gst_structure_free (rstats);
  net_receiver_clear (&r);
  net_free_pictures (pics, N);
  g_free (props);
  g_free (sprops);
}

static void
round_trip (const RefFormat * f, const gchar * in_format,
    const gchar * out_format)
{
  round_trip_at (f, in_format, out_format, "0.0.0.0", "127.0.0.1");
}

GST_START_TEST (test_round_trip_ipv6)
{
  round_trip_at (&ref_720p5994, "UYVP", "UYVP", "::", "::1");
}

GST_END_TEST;

GST_START_TEST (test_round_trip_1080i5994)
{
  round_trip (&ref_1080i5994, "UYVP", "UYVP");
}

GST_END_TEST;

GST_START_TEST (test_round_trip_1080i50_v210)
{
  round_trip (&ref_1080i50, "v210", "v210");
}

GST_END_TEST;

GST_START_TEST (test_round_trip_720p5994_mixed)
{
  round_trip (&ref_720p5994, "UYVP", "v210");
  round_trip (&ref_720p5994, "v210", "UYVP");
}

GST_END_TEST;

/* --- a lossy relay between the two elements ------------------------------ */

typedef struct
{
  int in_fd;                    /* bound before the thread starts */
  guint16 out_port;
  volatile gint stop;
  guint n;                      /* datagrams per frame */
  guint dropped, duplicated, reordered, garbage;
  guint frames_hit;             /* frames with a dropped datagram */
  GThread *thread;
} Relay;

static gpointer
relay_thread (gpointer data)
{
  Relay *r = data;
  int in = r->in_fd, out = ref_udp_sender ();
  guint8 buf[2048], held[2048], junk[1400];
  gssize held_len = -1;
  guint64 g = 0;
  gint64 last_frame_hit = -1;

  memset (junk, 0x5a, sizeof (junk));
  while (!g_atomic_int_get (&r->stop)) {
    struct pollfd pfd = { in, POLLIN, 0 };
    gssize len;
    guint idx;

    if (poll (&pfd, 1, 50) <= 0)
      continue;
    len = recv (in, buf, sizeof (buf), 0);
    if (len <= 0)
      continue;
    idx = g % r->n;
    /* frames 1..: frame 0 lets the receiver lock on untouched */
    if (g >= r->n && g % 997 == 500) {
      r->dropped++;
      if ((gint64) (g / r->n) != last_frame_hit) {
        r->frames_hit++;
        last_frame_hit = g / r->n;
      }
    } else if (g >= r->n && g % 1511 == 700) {
      /* held back, sent after the next one: one datagram reordered */
      memcpy (held, buf, len);
      held_len = len;
    } else {
      ref_udp_sendto (out, "127.0.0.1", r->out_port, buf, len);
      if (held_len >= 0) {
        ref_udp_sendto (out, "127.0.0.1", r->out_port, held, held_len);
        held_len = -1;
        r->reordered++;
      }
      if (g >= r->n && g % 1201 == 100 && idx != r->n - 1) {
        ref_udp_sendto (out, "127.0.0.1", r->out_port, buf, len);
        r->duplicated++;
      }
      if (g >= r->n && g % 2003 == 3) {
        ref_udp_sendto (out, "127.0.0.1", r->out_port, junk, 1 + g % 1400);
        r->garbage++;
      }
    }
    g++;
  }
  close (in);
  close (out);
  return NULL;
}

GST_START_TEST (test_relay_loss_reorder_duplicate_garbage)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 8;
  guint8 **pics = net_make_pictures (f, N, 3);
  guint16 rport = net_test_port ();
  gchar *sprops, *rprops = g_strdup_printf ("port=%u", rport);
  GstStructure *sstats, *rstats;
  struct sockaddr_in sa;
  socklen_t sa_len = sizeof (sa);
  NetReceiver r;
  NetSender s;
  Relay relay = { 0 };
  guint k;

  /* the relay's socket is bound (an ephemeral port, read back) before
   * anything is sent to it */
  relay.in_fd = ref_udp_bind ("127.0.0.1", 0);
  fail_unless (getsockname (relay.in_fd, (struct sockaddr *) &sa,
          &sa_len) == 0);
  sprops = g_strdup_printf ("port=%u", ntohs (sa.sin_port));
  relay.out_port = rport;
  relay.n = ref_datagrams (f);
  receiver_start (&r, rprops, N, "UYVP");
  relay.thread = g_thread_new ("relay", relay_thread, &relay);
  net_sender_start (&s, f, "UYVP", sprops, GST_STATE_PLAYING);
  for (k = 0; k < N; k++)
    net_sender_push (&s, k, pics[k]);
  sstats = net_sender_finish (&s);
  rstats = net_receiver_finish (&r, 60);
  g_atomic_int_set (&relay.stop, 1);
  g_thread_join (relay.thread);

  GST_INFO ("relay: dropped %u duplicated %u reordered %u garbage %u",
      relay.dropped, relay.duplicated, relay.reordered, relay.garbage);
  fail_unless (relay.dropped > 0 && relay.duplicated > 0
      && relay.reordered > 0 && relay.garbage > 0);
  check_outputs (&r, f, pics, N, N, TRUE);
  fail_unless_equals_uint64 (net_stat (rstats, "packets-lost"),
      relay.dropped);
  fail_unless_equals_uint64 (net_stat (rstats, "packets-duplicate"),
      relay.duplicated);
  fail_unless_equals_uint64 (net_stat (rstats, "packets-reordered"),
      relay.reordered);
  fail_unless_equals_uint64 (net_stat (rstats, "packets-invalid"),
      relay.garbage);
  fail_unless_equals_uint64 (net_stat (rstats, "frames-corrupted"),
      relay.frames_hit);
  fail_unless_equals_uint64 (net_stat (rstats, "frames"), N);
  fail_unless_equals_uint64 (net_stat (rstats, "packets"),
      net_stat (sstats, "packets") - relay.dropped + relay.duplicated);
  {
    guint corrupted = 0;
    for (k = 0; k < r.samples->len; k++)
      corrupted += GST_BUFFER_FLAG_IS_SET (gst_sample_get_buffer
          (r.samples->pdata[k]), GST_BUFFER_FLAG_CORRUPTED);
    fail_unless_equals_int (corrupted, relay.frames_hit);
  }

  gst_structure_free (sstats);
  gst_structure_free (rstats);
  net_receiver_clear (&r);
  net_free_pictures (pics, N);
  g_free (sprops);
  g_free (rprops);
}

GST_END_TEST;

/* --- multicast in network namespaces ------------------------------------- */

static gchar ns_a[32], ns_b[32];
/* The namespaces are named after the test runner, the parent of the forked
 * tests: the tcase teardown, which runs there, removes them even when a
 * failed test could not. */
static pid_t ns_owner;

static gint
ns_id (void)
{
  return ns_owner ? ns_owner : getpid ();
}

static void
netns_names (void)
{
  g_snprintf (ns_a, sizeof (ns_a), "vmitxa%d", ns_id ());
  g_snprintf (ns_b, sizeof (ns_b), "vmitxb%d", ns_id ());
}

/* what a failed test left behind, if anything */
static void
netns_remove_quietly (void)
{
  if (geteuid () != 0)
    return;
  netns_names ();
  net_netns_pair_del (ns_a, ns_b);
}

static void
netns_owner_setup (void)
{
  ns_owner = getpid ();
}

static gboolean
netns_setup (void)
{
  gchar dev_a[16], dev_b[16];

  netns_names ();
  g_snprintf (dev_a, sizeof (dev_a), "vmia%d", ns_id () % 10000);
  g_snprintf (dev_b, sizeof (dev_b), "vmib%d", ns_id () % 10000);
  return net_netns_pair_add (ns_a, ns_b, dev_a, dev_b, NULL, "10.77.0")
      /* a second source on A, for the SSM case's marker datagram */
      && net_sh ("ip -n %s addr add 10.77.0.99/24 dev %s", ns_a, dev_a);
}

static void
netns_teardown (void)
{
  net_netns_pair_del (ns_a, ns_b);
}

static void
multicast_case (const gchar * source, gboolean expect_frames)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 3;
  guint8 **pics = net_make_pictures (f, N, 11);
  guint16 port = net_test_port ();
  gchar *rprops, *sprops;
  NetReceiver r;
  NetSender s;
  GstStructure *sstats, *rstats = NULL;
  guint k;

  /* main() has checked that namespaces can be made (else the whole
   * net-multicast test is a meson SKIP): failing here is a failure */
  fail_unless (netns_setup (), "could not set up the network namespaces");

  rprops = g_strdup_printf ("address=239.77.0.1 port=%u multicast-iface="
      "vmib%d%s%s", port, ns_id () % 10000, source ? " source-address=" : "",
      source ? source : "");
  sprops = g_strdup_printf ("host=239.77.0.1 port=%u multicast-iface=vmia%d "
      "ttl-mc=1", port, ns_id () % 10000);

  net_enter_netns (ns_b);
  receiver_start (&r, rprops, N, "UYVP");
  net_enter_netns (ns_a);
  net_sender_start (&s, f, "UYVP", sprops, GST_STATE_PLAYING);
  net_leave_netns ();
  for (k = 0; k < N; k++)
    net_sender_push (&s, k, pics[k]);
  sstats = net_sender_finish (&s);

  if (expect_frames) {
    rstats = net_receiver_finish (&r, 60);
    check_outputs (&r, f, pics, N, N, FALSE);
    fail_unless_equals_uint64 (net_stat (rstats, "packets"),
        net_stat (sstats, "packets"));
  } else {
    GstElement *src = gst_bin_get_by_name (GST_BIN (r.pipeline), "src");
    GstStructure *st = NULL;
    const guint8 marker[12] = { 0 };
    struct sockaddr_in sa = { 0 };
    struct in_addr ifaddr;
    gint64 end;
    int fd;

    /* The frames came from 10.77.0.1, which the filter keeps out. To know
     * when they have all been dealt with, a marker datagram follows them
     * from the allowed source (it is too short to be ST 2022-6, so it is
     * counted as invalid): once the source has counted it, the frames ahead
     * of it on the same link have been filtered or counted too. */
    g_assert (g_strcmp0 (source, "10.77.0.99") == 0);
    net_enter_netns (ns_a);
    fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    net_leave_netns ();
    fail_unless (fd >= 0);
    sa.sin_family = AF_INET;
    inet_pton (AF_INET, source, &sa.sin_addr);
    ifaddr = sa.sin_addr;
    fail_unless (bind (fd, (struct sockaddr *) &sa, sizeof (sa)) == 0,
        "bind %s: %s", source, g_strerror (errno));
    fail_unless (setsockopt (fd, IPPROTO_IP, IP_MULTICAST_IF, &ifaddr,
            sizeof (ifaddr)) == 0);
    ref_udp_sendto (fd, "239.77.0.1", port, marker, sizeof (marker));
    close (fd);
    end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
    for (;;) {
      g_object_get (src, "stats", &st, NULL);
      if (net_stat (st, "packets-invalid") > 0)
        break;
      fail_unless (g_get_monotonic_time () < end, "the marker datagram from "
          "the allowed source never arrived");
      gst_structure_free (st);
      g_usleep (10000);
    }
    fail_unless_equals_uint64 (net_stat (st, "packets-invalid"), 1);
    fail_unless_equals_uint64 (net_stat (st, "packets"), 0);
    fail_unless_equals_int (r.samples->len, 0);
    gst_structure_free (st);
    gst_object_unref (src);
    gst_element_set_state (r.pipeline, GST_STATE_NULL);
  }

  if (rstats)
    gst_structure_free (rstats);
  gst_structure_free (sstats);
  net_receiver_clear (&r);
  netns_teardown ();
  net_free_pictures (pics, N);
  g_free (rprops);
  g_free (sprops);
}

GST_START_TEST (test_multicast_netns)
{
  multicast_case (NULL, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_multicast_ssm_netns)
{
  multicast_case ("10.77.0.1", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_multicast_ssm_other_source_netns)
{
  multicast_case ("10.77.0.99", FALSE);
}

GST_END_TEST;

/* --- errors --------------------------------------------------------------- */

static GstMessage *
first_error (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR);

  gst_object_unref (bus);
  fail_unless (msg != NULL, "no error message");
  return msg;
}

GST_START_TEST (test_caps_not_supported)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time "
      "caps=video/x-raw,format=UYVP,width=1000,height=500,framerate=25/1 ! "
      "st2022sink name=sink", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstVideoInfo info;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_UYVP, 1000, 500);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_new_allocate (NULL,
          info.size, NULL));
  msg = first_error (pipeline);
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless_equals_string (GST_OBJECT_NAME (msg->src), "sink");
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  /* says what it got and every format it can send */
  fail_unless (strstr (err->message, "1000") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "UYVP or v210") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "1080i59.94") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "720p50") != NULL, "%s", err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The same caps through a queue and a capsfilter: they still reach the
 * sink, whose error names what it can send (not a bare "could not link"
 * or "not-negotiated" from upstream); the pad template lists the exact
 * formats. */
GST_START_TEST (test_caps_not_supported_through_queue)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=UYVP,width=1000,height=500 ! queue ! "
      "st2022sink name=sink", NULL);
  GstElement *sink = gst_element_factory_make ("st2022sink", NULL);
  GstPadTemplate *templ;
  GstCaps *caps;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;
  guint i;

  fail_unless (pipeline != NULL, "the pipeline does not link");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = first_error (pipeline);
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless_equals_string (GST_OBJECT_NAME (msg->src), "sink");
  fail_unless (strstr (err->message, "1000") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "1080i59.94") != NULL, "%s",
      err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  /* every template structure is one SDI format: fixed size and rate */
  templ = gst_element_get_pad_template (sink, "sink");
  caps = gst_pad_template_get_caps (templ);
  /* every raster of docs/st2022-6.md's table: SD, HD, 3G, PsF, 2048,
   * 720p23.98 and 720p24 */
  fail_unless_equals_int (gst_caps_get_size (caps), 38);
  {
    GstCaps *c24 = gst_caps_from_string ("video/x-raw,format=UYVP,"
        "width=1280,height=720,framerate=24/1");
    GstCaps *c2398 = gst_caps_from_string ("video/x-raw,format=v210,"
        "width=1280,height=720,framerate=24000/1001");
    fail_unless (gst_caps_can_intersect (c24, caps));
    fail_unless (gst_caps_can_intersect (c2398, caps));
    gst_caps_unref (c24);
    gst_caps_unref (c2398);
  }
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *st = gst_caps_get_structure (caps, i);
    fail_unless (gst_structure_has_field_typed (st, "width", G_TYPE_INT));
    fail_unless (gst_structure_has_field_typed (st, "height", G_TYPE_INT));
    fail_unless (gst_structure_has_field_typed (st, "framerate",
            GST_TYPE_FRACTION));
  }
  gst_caps_unref (caps);
  gst_object_unref (sink);
}

GST_END_TEST;

/* Bottom field first is no SDI raster: refused, though the PsF entries of
 * the template (no field-order) would let the caps through */
GST_START_TEST (test_caps_bottom_field_first_refused)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=UYVP,width=1920,height=1080,framerate=30000/1001,"
      "interlace-mode=interleaved,field-order=bottom-field-first ! "
      "st2022sink name=sink", NULL);
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = first_error (pipeline);
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless_equals_string (GST_OBJECT_NAME (msg->src), "sink");
  fail_unless (strstr (err->message, "1080i59.94") != NULL, "%s",
      err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* An 8-bit format links (no bare "could not link") and gets an error that
 * says what the sink needs and what to add; through videoconvert the same
 * source negotiates a format the sink sends. */
GST_START_TEST (test_caps_8bit_names_fix)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=1280,height=720,framerate=50/1 ! "
      "st2022sink name=sink pacing=none", NULL);
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL, *desc;
  GstStructure *stats;

  fail_unless (pipeline != NULL, "an 8-bit format does not link");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = first_error (pipeline);
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless_equals_string (GST_OBJECT_NAME (msg->src), "sink");
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  fail_unless (g_str_has_prefix (err->message, "st2022sink needs 10-bit "
          "4:2:2 video (format UYVP or v210) and was offered video/x-raw, "
          "format=(string)I420"), "%s", err->message);
  fail_unless (strstr (err->message, "put videoconvert before st2022sink")
      != NULL, "%s", err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=1280,height=720,framerate=50/1 ! "
      "videoconvert ! st2022sink name=sink pacing=none port=%u",
      net_test_port ());
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  stats = net_run_until_eos (pipeline, "sink", 30);
  fail_unless_equals_uint64 (net_stat (stats, "frames"), 2);
  gst_structure_free (stats);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* zerocopy=true over loopback: the kernel copies every send, and the sink
 * says so once, with the fix. */
GST_START_TEST (test_zerocopy_copied_warned_once)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=100 ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=50/1 ! "
      "st2022sink zerocopy=true pacing=none port=%u", net_test_port ());
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint warnings = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
              GST_MESSAGE_WARNING | GST_MESSAGE_ERROR | GST_MESSAGE_EOS))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    fail_unless (type != GST_MESSAGE_ERROR);
    if (type == GST_MESSAGE_WARNING) {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      fail_unless (g_str_has_prefix (err->message, "zerocopy=true, but the "
              "kernel copied "), "%s", err->message);
      fail_unless (g_str_has_suffix (err->message, "set zerocopy=false"),
          "%s", err->message);
      g_error_free (err);
      warnings++;
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS)
      break;
  }
  fail_unless_equals_int (warnings, 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* Without caps forced upstream, negotiation picks a format we can send. */
GST_START_TEST (test_caps_autonegotiation)
{
  guint16 port = net_test_port ();
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! st2022sink "
      "name=sink pacing=none port=%u", port);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstStructure *stats;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  stats = net_run_until_eos (pipeline, "sink", 30);
  fail_unless_equals_uint64 (net_stat (stats, "frames"), 2);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_structure_free (stats);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

static void
expect_start_error (const gchar * desc, const gchar * text, GQuark domain,
    gint code)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  fail_unless (pipeline != NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  msg = first_error (pipeline);
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless (strstr (err->message, text) != NULL, "'%s' lacks '%s'",
      err->message, text);
  fail_unless (g_error_matches (err, domain, code), "%s", err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* A setting that needs what the chosen transport cannot do fails at start
 * and names the transports that can. */
GST_START_TEST (test_transport_errors)
{
  expect_start_error ("videotestsrc ! st2022sink pacing=pa-free-running",
      "pacing=pa-free-running needs a transport that sends raw Ethernet "
      "frames back to back (gap frames); transport=socket cannot",
      GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS);
  expect_start_error ("videotestsrc ! st2022sink pacing=pa-controlled",
      "pacing=pa-controlled needs a transport that sends raw Ethernet "
      "frames back to back (gap frames); transport=socket cannot",
      GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS);
  expect_start_error ("videotestsrc ! st2022sink transport=packet iface=lo "
      "zerocopy=true", "zerocopy=true needs a transport that lets the "
      "network device read the frames in place (zero-copy send); "
      "transport=packet cannot: use transport=socket",
      GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS);
  expect_start_error ("st2022src address=239.1.2.3 multicast-iface=nosuch0 "
      "! fakesink", "no network interface named 'nosuch0': set "
      "multicast-iface to one that 'ip link' lists",
      GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS);
  expect_start_error ("videotestsrc ! st2022sink host=no.such.host.invalid",
      "cannot resolve 'no.such.host.invalid'", GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_SETTINGS);
}

GST_END_TEST;

GST_START_TEST (test_port_in_use)
{
  guint16 port = net_test_port ();
  int fd = socket (AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in sa = { 0 };
  gchar *desc = g_strdup_printf ("st2022src address=127.0.0.1 port=%u ! "
      "fakesink", port);

  /* another receiver holds the unicast port */
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  fail_unless (bind (fd, (struct sockaddr *) &sa, sizeof (sa)) == 0);
  expect_start_error (desc, "Address already in use (another receiver has "
      "it: set port to a free one, or stop that receiver)",
      GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ);
  close (fd);
  g_free (desc);
}

GST_END_TEST;

/* st2022-stats is posted every stats-interval ms by both ends, and once
 * more at EOS (the bounds leave room for a loaded machine). */
GST_START_TEST (test_stats_interval_messages)
{
  guint16 port = net_test_port ();
  gchar *desc = g_strdup_printf ("st2022src name=src address=127.0.0.1 "
      "port=%u num-buffers=20 stats-interval=50 ! fakesink async=false "
      "videotestsrc is-live=true num-buffers=40 ! video/x-raw,format=UYVP,"
      "width=1280,height=720,framerate=60000/1001 ! st2022sink name=sink "
      "port=%u stats-interval=50", port, port);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  guint n_src = 0, n_sink = 0;
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    fail_if (type == GST_MESSAGE_ERROR);
    if (type == GST_MESSAGE_ELEMENT && gst_message_has_name (msg,
            "st2022-stats")) {
      if (g_str_equal (GST_OBJECT_NAME (msg->src), "src"))
        n_src++;
      else
        n_sink++;
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS)
      break;
  }
  fail_unless (msg != NULL, "no EOS");
  /* 20 frames span 317 ms of PTS: 6 periods and the EOS message */
  /* (and more: the receiver posts from its start, silence included) */
  fail_unless (n_src >= 4, "src posted %u", n_src);
  /* 40 frames take at least 650 ms of clock: 13 periods and EOS */
  fail_unless (n_sink >= 6, "sink posted %u", n_sink);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* --- states -------------------------------------------------------------- */

GST_START_TEST (test_state_cycles)
{
  guint16 port = net_test_port ();
  gchar *rdesc = g_strdup_printf ("st2022src port=%u ! fakesink", port);
  gchar *sdesc = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=60000/1001 ! "
      "st2022sink port=%u", port);
  GstElement *rx = gst_parse_launch (rdesc, NULL);
  GstElement *tx = gst_parse_launch (sdesc, NULL);
  guint i;

  for (i = 0; i < 20; i++) {
    fail_unless (gst_element_set_state (rx, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_set_state (tx, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    /* a dwell of 0-60 ms in PLAYING, so the stop lands at different
     * points of the streams (not a synchronisation) */
    g_usleep ((i % 4) * 20000);
    /* alternate which one stops first and through which states */
    if (i % 2) {
      fail_unless (gst_element_set_state (tx, GST_STATE_NULL) ==
          GST_STATE_CHANGE_SUCCESS);
      fail_unless (gst_element_set_state (rx, GST_STATE_PAUSED) !=
          GST_STATE_CHANGE_FAILURE);
      fail_unless (gst_element_set_state (rx, GST_STATE_NULL) ==
          GST_STATE_CHANGE_SUCCESS);
    } else {
      fail_unless (gst_element_set_state (rx, GST_STATE_NULL) ==
          GST_STATE_CHANGE_SUCCESS);
      fail_unless (gst_element_set_state (tx, GST_STATE_NULL) ==
          GST_STATE_CHANGE_SUCCESS);
    }
  }
  gst_object_unref (rx);
  gst_object_unref (tx);
  g_free (rdesc);
  g_free (sdesc);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  GstElement *sink = gst_element_factory_make ("st2022sink", NULL);
  GstElement *src = gst_element_factory_make ("st2022src", NULL);
  GstStructure *st = NULL;
  gchar *str = NULL;
  gint port;
  guint pt;

  g_object_get (sink, "host", &str, "port", &port, "payload-type", &pt, NULL);
  fail_unless_equals_string (str, "127.0.0.1");
  fail_unless_equals_int (port, 5004);
  fail_unless_equals_int (pt, 98);
  g_free (str);
  gst_util_set_object_arg (G_OBJECT (sink), "pacing", "none");
  gst_util_set_object_arg (G_OBJECT (sink), "transport", "dpdk");
  g_object_get (src, "address", &str, "port", &port, NULL);
  fail_unless_equals_string (str, "0.0.0.0");
  fail_unless_equals_int (port, 5004);
  g_free (str);
  g_object_get (src, "stats", &st, NULL);
  fail_unless (gst_structure_has_name (st, "st2022-stats"));
  fail_unless_equals_uint64 (net_stat (st, "packets"), 0);
  fail_unless_equals_uint64 (net_stat (st, "frames-dropped"), 0);
  gst_structure_free (st);
  g_object_get (sink, "stats", &st, NULL);
  fail_unless_equals_uint64 (net_stat (st, "bytes"), 0);
  /* sender fields only: nothing a sender cannot know */
  fail_if (gst_structure_has_field (st, "packets-lost"));
  fail_if (gst_structure_has_field (st, "frames-corrupted"));
  fail_if (gst_structure_has_field (st, "frames-dropped"));
  gst_structure_free (st);
  gst_object_unref (sink);
  gst_object_unref (src);
}

GST_END_TEST;

/* The public interface (docs/design.md, Properties): every property with
 * its type, default and when it may change. */
typedef struct
{
  const gchar *name;
  GType fundamental;
  const gchar *def;             /* serialized default; NULL: not checked */
  gboolean mutable_ready;       /* only before start */
} PropSpec;

static void
check_prop_specs (const gchar * factory, const PropSpec * specs, guint n)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  guint i;

  fail_unless (e != NULL);
  for (i = 0; i < n; i++) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        specs[i].name);

    fail_unless (ps != NULL, "%s has no property %s", factory,
        specs[i].name);
    fail_unless (G_TYPE_FUNDAMENTAL (ps->value_type) ==
        specs[i].fundamental, "%s:%s is a %s", factory, specs[i].name,
        g_type_name (ps->value_type));
    fail_unless (ps->flags & G_PARAM_STATIC_STRINGS);
    fail_unless_equals_int (!!(ps->flags & GST_PARAM_MUTABLE_READY),
        specs[i].mutable_ready);
    if (specs[i].def) {
      GValue v = G_VALUE_INIT;
      gchar *str;

      g_value_init (&v, ps->value_type);
      g_object_get_property (G_OBJECT (e), specs[i].name, &v);
      str = gst_value_serialize (&v);
      fail_unless_equals_string (str ? str : "NULL", specs[i].def);
      g_free (str);
      g_value_unset (&v);
    }
  }
  gst_object_unref (e);
}

GST_START_TEST (test_design_properties)
{
  static const PropSpec sink[] = {
    {"host", G_TYPE_STRING, "127.0.0.1", TRUE},
    {"port", G_TYPE_INT, "5004", TRUE},
    {"multicast-iface", G_TYPE_STRING, "NULL", TRUE},
    {"ttl-mc", G_TYPE_INT, "1", TRUE},
    {"payload-type", G_TYPE_UINT, "98", TRUE},
    {"ssrc", G_TYPE_UINT, NULL, TRUE},
    {"transport", G_TYPE_ENUM, "socket", TRUE},
    {"pacing", G_TYPE_ENUM, "software", TRUE},
    {"line-rate", G_TYPE_UINT64, "10000000000", TRUE},
    {"iface", G_TYPE_STRING, "NULL", TRUE},
    {"dpdk-eal-args", G_TYPE_STRING, "NULL", TRUE},
    {"dpdk-port", G_TYPE_INT, "0", TRUE},
    {"bind-address", G_TYPE_STRING, "NULL", TRUE},
    {"destination-mac", G_TYPE_STRING, "NULL", TRUE},
    {"gap-frame", G_TYPE_ENUM, "mac-control", TRUE},
    {"reference-address", G_TYPE_STRING, "NULL", TRUE},
    {"reference-port", G_TYPE_INT, "0", TRUE},
    {"pacing-window", G_TYPE_UINT64, "1000000000", TRUE},
    {"pacing-windows", G_TYPE_UINT, "2", TRUE},
    {"underrun", G_TYPE_ENUM, "repeat", TRUE},
    {"tx-cpu", G_TYPE_INT, "-1", TRUE},
    {"stats", G_TYPE_BOXED, NULL, FALSE},
    {"stats-interval", G_TYPE_UINT, "1000", FALSE},
  };
  static const PropSpec src[] = {
    {"address", G_TYPE_STRING, "0.0.0.0", TRUE},
    {"port", G_TYPE_INT, "5004", TRUE},
    {"multicast-iface", G_TYPE_STRING, "NULL", TRUE},
    {"source-address", G_TYPE_STRING, "NULL", TRUE},
    {"buffer-size", G_TYPE_INT, NULL, TRUE},
    {"transport", G_TYPE_ENUM, "socket", TRUE},
    {"iface", G_TYPE_STRING, "NULL", TRUE},
    {"dpdk-eal-args", G_TYPE_STRING, "NULL", TRUE},
    {"dpdk-port", G_TYPE_INT, "0", TRUE},
    {"drop-corrupted", G_TYPE_BOOLEAN, "false", FALSE},
    {"stats", G_TYPE_BOXED, NULL, FALSE},
    {"stats-interval", G_TYPE_UINT, "1000", FALSE},
  };

  check_prop_specs ("st2022sink", sink, G_N_ELEMENTS (sink));
  check_prop_specs ("st2022src", src, G_N_ELEMENTS (src));
}

GST_END_TEST;

/* The source answers LATENCY as a live source. */
GST_START_TEST (test_src_latency)
{
  GstElement *src = gst_element_factory_make ("st2022src", NULL);
  GstQuery *q = gst_query_new_latency ();
  gboolean live;
  GstClockTime min, max;

  fail_unless (gst_element_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  fail_unless (min > 0);
  gst_query_unref (q);
  gst_object_unref (src);
}

GST_END_TEST;

static gboolean multicast_only;

static Suite *
elements_suite (void)
{
  Suite *s = suite_create ("st2022-elements");
  TCase *tc = tcase_create ("elements");
  TCase *tcm;

  tcase_set_timeout (tc, 120);
  if (!multicast_only)
    suite_add_tcase (s, tc);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_design_properties);
  tcase_add_test (tc, test_src_latency);
  tcase_add_test (tc, test_caps_not_supported);
  tcase_add_test (tc, test_caps_not_supported_through_queue);
  tcase_add_test (tc, test_caps_bottom_field_first_refused);
  tcase_add_test (tc, test_caps_autonegotiation);
  tcase_add_test (tc, test_caps_8bit_names_fix);
  tcase_add_test (tc, test_zerocopy_copied_warned_once);
  tcase_add_test (tc, test_transport_errors);
  tcase_add_test (tc, test_port_in_use);
  tcase_add_test (tc, test_round_trip_1080i5994);
  tcase_add_test (tc, test_round_trip_1080i50_v210);
  tcase_add_test (tc, test_round_trip_720p5994_mixed);
  tcase_add_test (tc, test_round_trip_ipv6);
  tcase_add_test (tc, test_relay_loss_reorder_duplicate_garbage);
  tcase_add_test (tc, test_state_cycles);
  tcase_add_test (tc, test_stats_interval_messages);

  /* run alone by the net-multicast meson test (argument "multicast") */
  tcm = tcase_create ("multicast");
  tcase_set_timeout (tcm, 120);
  tcase_add_unchecked_fixture (tcm, netns_owner_setup, netns_remove_quietly);
  if (multicast_only)
    suite_add_tcase (s, tcm);
  tcase_add_test (tcm, test_multicast_netns);
  tcase_add_test (tcm, test_multicast_ssm_netns);
  tcase_add_test (tcm, test_multicast_ssm_other_source_netns);
  return s;
}

/* Can this process make network namespaces? NULL if so, else why not. */
static const gchar *
netns_unavailable (void)
{
  gchar *path;
  gboolean ok;

  if (geteuid () != 0)
    return "needs root (network namespaces)";
  path = g_find_program_in_path ("ip");
  g_free (path);
  if (!path)
    return "needs 'ip' (iproute2; scripts/install-deps installs it)";
  ok = net_sh ("ip netns add vmiprobe%d", getpid ());
  net_sh ("ip netns del vmiprobe%d", getpid ());
  return ok ? NULL : "'ip netns add' failed (no CAP_SYS_ADMIN?)";
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);

  multicast_only = argc > 1 && g_strcmp0 (argv[1], "multicast") == 0;
  if (multicast_only) {
    const gchar *why = netns_unavailable ();
    if (why) {
      /* exit code 77: meson reports the test as SKIP, not as passed */
      g_print ("SKIP multicast: %s\n", why);
      return 77;
    }
  }
  return gst_check_run_suite (elements_suite (), "elements", __FILE__);
}
