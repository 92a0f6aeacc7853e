/* gst-vmi tests: st2022sink / st2022src with transport=dpdk on DPDK's
 * virtual devices (no NIC, no hugepages): what the sink writes through
 * net_pcap decoded by the tests' own decoder, what the src rebuilds from a
 * capture made by the tests' own encoder, a net_ring loopback, and the
 * errors users get. Each test case runs in a process of its own (Check
 * forks), so each starts its own EAL with its own --file-prefix. */

#include "dpdk-common.h"

#include <stdio.h>
#include <string.h>

#define GROUP 0xef010203        /* 239.1.2.3 */
#define GROUP_S "239.1.2.3"

/* Pushes @n pictures of @f through appsrc ! st2022sink @sink_props to EOS;
 * returns the sink's final statistics. */
static GstStructure *
send_pictures (const RefFormat * f, guint8 ** pics, guint n,
    const gchar * sink_props)
{
  gchar *desc = g_strdup_printf ("st2022sink name=sink transport=dpdk "
      "stats-interval=0 %s", sink_props);
  GstStructure *stats = net_send_pictures (f, pics, n, desc);

  g_free (desc);
  return stats;
}

static void
check_tx_pcap (const RefFormat * f)
{
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pcap = g_build_filename (dir, "tx.pcap", NULL);
  gchar *vdev = g_strdup_printf ("--vdev net_pcap0,tx_pcap=%s", pcap);
  gchar *eal = dpdk_test_eal_args (vdev);
  gchar *props = g_strdup_printf ("host=" GROUP_S " port=5006 "
      "dpdk-eal-args=\"%s\"", eal);
  guint8 **pics = net_make_pictures (f, 3, 42);
  GstStructure *stats = send_pictures (f, pics, 3, props);
  GPtrArray *frames;

  fail_unless_equals_uint64 (net_stat (stats, "frames"), 3);
  fail_unless_equals_uint64 (net_stat (stats, "packets"),
      3 * ref_datagrams (f));
  /* the pcap file is complete once the port is closed: at NULL */
  frames = dpdk_pcap_read (pcap);
  dpdk_check_capture (f, frames, pics, 3, GROUP, 5006);

  g_ptr_array_unref (frames);
  gst_structure_free (stats);
  net_free_pictures (pics, 3);
  g_free (props);
  g_free (eal);
  g_free (vdev);
  g_free (pcap);
  dpdk_test_rmdir (dir);
}

GST_START_TEST (test_tx_pcap_1080i5994)
{
  check_tx_pcap (&ref_1080i5994);
}

GST_END_TEST;

GST_START_TEST (test_tx_pcap_720p5994)
{
  check_tx_pcap (&ref_720p5994);
}

GST_END_TEST;

/* SD (one word stream, no LN/CRC) and PsF through DPDK too */
/* progressive HD: the transmit thread writes the raster into its ring
 * (sliced writing), which wraps three times a frame */
GST_START_TEST (test_tx_pcap_1080p25)
{
  check_tx_pcap (&ref_1080p25);
}

GST_END_TEST;

GST_START_TEST (test_tx_pcap_625i)
{
  check_tx_pcap (&ref_625i);
}

GST_END_TEST;

GST_START_TEST (test_tx_pcap_1080psf2398)
{
  check_tx_pcap (&ref_1080psf2398);
}

GST_END_TEST;

/* The receiver's frames, compared with the pictures; caps from the stream. */
static void
check_received (NetReceiver * r, const RefFormat * f, guint8 ** pics,
    guint n)
{
  guint k;

  net_check_frames (r, f, pics, n, n);
  for (k = 0; k < n; k++) {
    GstVideoInfo info;

    fail_unless (gst_video_info_from_caps (&info,
            gst_sample_get_caps (r->samples->pdata[k])));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), f->width);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), f->height);
    fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&info), f->fps_n);
    fail_unless_equals_int (GST_VIDEO_INFO_FPS_D (&info), f->fps_d);
    fail_unless_equals_int (GST_VIDEO_INFO_IS_INTERLACED (&info),
        f->interlaced);
  }
}

static GBytes *
junk_frame (guint8 kind)
{
  guint8 fr[128] = { 0 };
  RefUdpFrame h = { {0x01, 0x00, 0x5e, 0x01, 0x02, 0x03},
  {0x02, 0, 0, 0, 0, 9}, 0x0a000009, GROUP, 5004, 5004, 8
  };
  guint8 payload[40] = { 0x80 };
  gsize len;

  switch (kind) {
    case 0:                    /* our group, another port */
      h.dst_port = 5008;
      break;
    case 1:                    /* another group */
      h.dst_ip = 0xef010204;
      ref_multicast_mac (h.dst_ip, h.dst_mac);
      break;
    default:                   /* ours, but a broken IPv4 checksum */
      break;
  }
  len = ref_build_udp_frame (&h, payload, sizeof (payload), fr);
  if (kind == 2)
    fr[24] ^= 0x40;
  return g_bytes_new (fr, len);
}

static void
check_rx_pcap (const RefFormat * f)
{
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *pcap = g_build_filename (dir, "rx.pcap", NULL);
  gchar *vdev = g_strdup_printf ("--vdev net_pcap0,rx_pcap=%s,tx_pcap=%s/tx"
      ".pcap", pcap, dir);
  gchar *eal = dpdk_test_eal_args (vdev);
  guint8 **pics = net_make_pictures (f, 3, 7);
  GPtrArray *frames = dpdk_encode_stream (f, pics, 3, GROUP, 5004);
  NetReceiver r;
  GstStructure *stats;
  gchar *desc;

  /* frames of other streams and a damaged one, among ours */
  g_ptr_array_insert (frames, 0, junk_frame (0));
  g_ptr_array_insert (frames, 100, junk_frame (1));
  g_ptr_array_insert (frames, 200, junk_frame (2));
  dpdk_pcap_write (pcap, frames);

  desc = g_strdup_printf ("st2022src name=src transport=dpdk address="
      GROUP_S " port=5004 num-buffers=3 stats-interval=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false", eal);
  net_receiver_start (&r, desc);
  stats = net_receiver_finish (&r, 60);
  check_received (&r, f, pics, 3);
  fail_unless_equals_uint64 (net_stat (stats, "packets"),
      3 * ref_datagrams (f));
  fail_unless_equals_uint64 (net_stat (stats, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (stats, "frames"), 3);

  net_receiver_clear (&r);
  gst_structure_free (stats);
  g_ptr_array_unref (frames);
  net_free_pictures (pics, 3);
  g_free (desc);
  g_free (eal);
  g_free (vdev);
  g_free (pcap);
  dpdk_test_rmdir (dir);
}

GST_START_TEST (test_rx_pcap_1080i5994)
{
  check_rx_pcap (&ref_1080i5994);
}

GST_END_TEST;

GST_START_TEST (test_rx_pcap_525i)
{
  check_rx_pcap (&ref_525i);
}

GST_END_TEST;

GST_START_TEST (test_rx_pcap_2048psf24)
{
  check_rx_pcap (&ref_2048psf24);
}

GST_END_TEST;

GST_START_TEST (test_rx_pcap_1080p25)
{
  check_rx_pcap (&ref_1080p25);
}

GST_END_TEST;

/* Sink and src of one process on one net_ring port: the sink takes its TX
 * queue, the src its RX queue, one EAL for both. */
GST_START_TEST (test_ring_loopback)
{
  const RefFormat *f = &ref_720p5994;
  gchar *eal = dpdk_test_eal_args ("--vdev net_ring0");
  gchar *desc, *props;
  guint8 **pics = net_make_pictures (f, 3, 3);
  NetReceiver r;
  GstStructure *rx, *tx;

  desc = g_strdup_printf ("st2022src name=src transport=dpdk address="
      GROUP_S " port=5010 num-buffers=3 stats-interval=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false", eal);
  /* the src's EAL and port are up when set_state() returns (start() runs
   * in READY -> PAUSED, before the live pipeline goes ASYNC) */
  net_receiver_start (&r, desc);
  props = g_strdup_printf ("host=" GROUP_S " port=5010 pacing=software "
      "dpdk-eal-args=\"%s\"", eal);
  tx = send_pictures (f, pics, 3, props);
  rx = net_receiver_finish (&r, 60);
  check_received (&r, f, pics, 3);
  fail_unless_equals_uint64 (net_stat (tx, "packets"), 3 * ref_datagrams (f));
  fail_unless_equals_uint64 (net_stat (rx, "packets"), 3 * ref_datagrams (f));
  fail_unless_equals_uint64 (net_stat (rx, "packets-lost"), 0);

  net_receiver_clear (&r);
  gst_structure_free (rx);
  gst_structure_free (tx);
  net_free_pictures (pics, 3);
  g_free (props);
  g_free (desc);
  g_free (eal);
}

GST_END_TEST;

/* Runs @desc in a gst-launch-1.0 child under the copy-counting shim
 * (tests/pool/vmi-copycount.c): calls to memcpy/memmove of at least @min
 * bytes, and their bytes. */
static void
count_copies (const gchar * desc, guint min, guint64 * calls, guint64 * bytes)
{
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *report = g_build_filename (dir, "copies", NULL);
  gchar *shim = g_build_filename (g_getenv ("VMI_BUILD_ROOT"), "tests",
      "pool", "libvmi-copycount.so", NULL);
  gchar *cmd = g_strdup_printf ("gst-launch-1.0 -q %s", desc);
  gchar **argv = NULL, **envp = g_get_environ (), *out = NULL;
  gchar minstr[16];
  gint status;

  g_snprintf (minstr, sizeof (minstr), "%u", min);
  envp = g_environ_setenv (envp, "LD_PRELOAD", shim, TRUE);
  envp = g_environ_setenv (envp, "VMI_COPY_MIN", minstr, TRUE);
  envp = g_environ_setenv (envp, "VMI_COPY_REPORT", report, TRUE);
  fail_unless (g_shell_parse_argv (cmd, NULL, &argv, NULL));
  fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL));
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s failed", cmd);
  fail_unless (g_file_get_contents (report, &out, NULL, NULL));
  fail_unless (sscanf (out, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
          calls, bytes) == 2);
  g_free (out);
  g_strfreev (argv);
  g_strfreev (envp);
  g_free (cmd);
  g_free (shim);
  g_free (report);
  dpdk_test_rmdir (dir);
}

/* No frame-sized CPU copy on TX: of a frame's 4497 payloads only the last
 * (zero-padded, so outside the frame's raster) is copied. Copies of
 * exactly 1376 bytes are those counted at >= 1376 and not at >= 1377
 * (upstream copies - rawvideoparse, the raster writer - are larger). */
GST_START_TEST (test_tx_no_payload_copies)
{
  const RefFormat *f = &ref_1080i5994;
  GstCaps *caps = net_format_caps (f, "v210", FALSE);
  gchar *dir = dpdk_test_mkdtemp ();
  gchar *file = g_build_filename (dir, "pictures.v210", NULL);
  guint8 **pics = net_make_pictures (f, 4, 11);
  GByteArray *all = g_byte_array_new ();
  GstVideoInfo info;
  guint64 calls_a, bytes_a, calls_b, bytes_b;
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  gchar *desc;
  guint k;

  fail_unless (gst_video_info_from_caps (&info, caps));
  for (k = 0; k < 4; k++) {
    GstBuffer *b = net_make_buffer (&info, f, pics[k]);
    GstMapInfo map;
    gst_buffer_map (b, &map, GST_MAP_READ);
    g_byte_array_append (all, map.data, map.size);
    gst_buffer_unmap (b, &map);
    gst_buffer_unref (b);
  }
  fail_unless (g_file_set_contents (file, (gchar *) all->data, all->len,
          NULL));
  desc = g_strdup_printf ("filesrc location=%s blocksize=%" G_GSIZE_FORMAT
      " ! rawvideoparse format=v210 width=%u height=%u framerate=%d/%d "
      "interlaced=true top-field-first=true ! st2022sink transport=dpdk "
      "host=" GROUP_S " dpdk-eal-args=\"%s\"", file, info.size, f->width,
      f->height, f->fps_n, f->fps_d, eal);
  count_copies (desc, REF_PAYLOAD, &calls_a, &bytes_a);
  /* a second process, a new EAL: another --file-prefix */
  g_free (desc);
  g_free (eal);
  eal = dpdk_test_eal_args ("--vdev net_null0");
  desc = g_strdup_printf ("filesrc location=%s blocksize=%" G_GSIZE_FORMAT
      " ! rawvideoparse format=v210 width=%u height=%u framerate=%d/%d "
      "interlaced=true top-field-first=true ! st2022sink transport=dpdk "
      "host=" GROUP_S " dpdk-eal-args=\"%s\"", file, info.size, f->width,
      f->height, f->fps_n, f->fps_d, eal);
  count_copies (desc, REF_PAYLOAD + 1, &calls_b, &bytes_b);
  fail_unless_equals_uint64 (calls_a - calls_b, 4);
  fail_unless_equals_uint64 (bytes_a - bytes_b, 4 * REF_PAYLOAD);

  g_byte_array_unref (all);
  net_free_pictures (pics, 4);
  gst_caps_unref (caps);
  g_free (desc);
  g_free (eal);
  g_free (file);
  dpdk_test_rmdir (dir);
}

GST_END_TEST;

/* --- errors -------------------------------------------------------------- */

static GError *
sink_error (const gchar * props, gchar ** warnings)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=60000/1001 ! "
      "st2022sink transport=dpdk host=" GROUP_S " %s", props);
  GstElement *p = gst_parse_launch (desc, NULL);
  GError *err;

  fail_unless (p != NULL, "cannot build %s", desc);
  err = dpdk_expect_error (p, 30, warnings);
  gst_object_unref (p);
  g_free (desc);
  return err;
}

#define assert_error_has(err, dom, want, text) G_STMT_START { \
  fail_unless ((err) != NULL, "no error"); \
  fail_unless ((err)->domain == (dom) && (err)->code == (want), \
      "unexpected error %s:%d: %s", g_quark_to_string ((err)->domain), \
      (err)->code, (err)->message); \
  fail_unless (strstr ((err)->message, (text)) != NULL, \
      "'%s' not in: %s", (text), (err)->message); \
} G_STMT_END

GST_START_TEST (test_error_no_such_port)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  gchar *props = g_strdup_printf ("dpdk-port=3 dpdk-eal-args=\"%s\"", eal);
  GError *err = sink_error (props, NULL);

  assert_error_has (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "no DPDK port 3; this process has 1 port: 0 (net_null0)");
  fail_unless (strstr (err->message, "--vdev") != NULL, "%s", err->message);
  g_error_free (err);
  g_free (props);
  g_free (eal);
}

GST_END_TEST;

GST_START_TEST (test_error_no_such_port_name)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  gchar *props = g_strdup_printf ("iface=net_ring7 dpdk-eal-args=\"%s\"",
      eal);
  GError *err = sink_error (props, NULL);

  assert_error_has (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "no DPDK port named 'net_ring7'");
  g_error_free (err);
  g_free (props);
  g_free (eal);
}

GST_END_TEST;

GST_START_TEST (test_error_bad_eal_args)
{
  GError *err = sink_error ("dpdk-eal-args=\"--no-huge --no-pci -m 512 "
      "--file-prefix vmibad --bogus-option\"", NULL);

  assert_error_has (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "DPDK rejected dpdk-eal-args");
  fail_unless (strstr (err->message, "--bogus-option") != NULL);
  g_error_free (err);

  /* an unparsable string never reaches DPDK */
  err = sink_error ("dpdk-eal-args=\"--vdev 'net_ring0\"", NULL);
  assert_error_has (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "cannot parse dpdk-eal-args");
  g_error_free (err);
}

GST_END_TEST;

static gboolean
have_free_hugepages (void)
{
  gchar *info = NULL, *p;
  gboolean free = FALSE;

  if (g_file_get_contents ("/proc/meminfo", &info, NULL, NULL)
      && (p = strstr (info, "HugePages_Free:")))
    free = g_ascii_strtoull (p + strlen ("HugePages_Free:"), NULL, 10) > 0;
  g_free (info);
  return free;
}

GST_START_TEST (test_error_no_hugepages)
{
  gchar *props;
  GError *err;

  if (have_free_hugepages ()) {
    g_print ("test_error_no_hugepages: this machine has hugepages, the "
        "error cannot happen; not checked\n");
    return;
  }
  props = g_strdup_printf ("dpdk-eal-args=\"--no-pci -m 64 -l 0 "
      "--file-prefix vmitest-huge-%d --vdev net_null0\"", (int) getpid ());
  err = sink_error (props, NULL);
  assert_error_has (err, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_AUTHORIZED, "echo 512 > "
      "/proc/sys/vm/nr_hugepages");
  fail_unless (strstr (err->message, "--no-huge") != NULL);
  g_error_free (err);
  g_free (props);
}

GST_END_TEST;

/* Two senders on one port; the second is refused, and its EAL arguments
 * (different from the first's) get a warning naming those in force. */
GST_START_TEST (test_error_port_busy_and_other_args)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=60000/1001 ! "
      "st2022sink transport=dpdk host=" GROUP_S " dpdk-eal-args=\"%s\"", eal);
  GstElement *first = gst_parse_launch (desc, NULL);
  gchar *props, *warnings = NULL;
  GError *err;

  fail_unless (gst_element_set_state (first, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (first, NULL, NULL,
          GST_CLOCK_TIME_NONE) == GST_STATE_CHANGE_SUCCESS);

  props = g_strdup_printf ("dpdk-eal-args=\"%s --other\"", eal);
  err = sink_error (props, &warnings);
  assert_error_has (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_BUSY,
      "DPDK port 0 (net_null0) is already sending");
  /* why the arguments did not apply is in the error too */
  fail_unless (strstr (err->message, "runs already in this process") !=
      NULL, "%s", err->message);
  g_error_free (err);
  g_free (warnings);

  /* the first one is unharmed, and a src may take the port's RX side; its
   * other arguments get a warning naming those in force */
  {
    gchar *src_desc = g_strdup_printf ("st2022src transport=dpdk "
        "address=" GROUP_S " dpdk-eal-args=\"%s --other\" ! fakesink", eal);
    GstElement *src = gst_parse_launch (src_desc, NULL);
    GstBus *bus = gst_element_get_bus (src);
    GstMessage *msg;
    GError *w = NULL;
    gchar *in_force = g_strdup_printf ("with dpdk-eal-args '%s'", eal);

    fail_unless (gst_element_set_state (src, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
        GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING);
    gst_message_parse_warning (msg, &w, NULL);
    fail_unless (strstr (w->message, "runs already in this process") !=
        NULL, "%s", w->message);
    fail_unless (strstr (w->message, in_force) != NULL, "%s", w->message);
    g_error_free (w);
    gst_message_unref (msg);
    gst_element_set_state (src, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (src);
    g_free (src_desc);
    g_free (in_force);
  }
  gst_element_set_state (first, GST_STATE_NULL);

  /* after both went: the port and the EAL (kept) serve again */
  fail_unless (gst_element_set_state (first, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (first, NULL, NULL,
          GST_CLOCK_TIME_NONE) == GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (first, GST_STATE_NULL);

  gst_object_unref (first);
  g_free (props);
  g_free (desc);
  g_free (eal);
}

GST_END_TEST;

GST_START_TEST (test_error_bad_destination_mac)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  /* the last host= wins over sink_error()'s multicast one */
  gchar *props = g_strdup_printf ("host=10.9.8.7 destination-mac=zz "
      "bind-address=10.9.8.1 dpdk-eal-args=\"%s\"", eal);
  GError *err = sink_error (props, NULL);

  assert_error_has (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "destination-mac 'zz' is not a MAC address");
  g_error_free (err);
  g_free (props);
  g_free (eal);
}

GST_END_TEST;

/* Unicast without destination-mac: ARP on the port; net_null answers
 * nothing, so the user is told to set destination-mac. */
GST_START_TEST (test_error_no_arp_reply)
{
  gchar *eal = dpdk_test_eal_args ("--vdev net_null0");
  gchar *props = g_strdup_printf ("host=10.9.8.7 bind-address=10.9.8.1 "
      "dpdk-eal-args=\"%s\"", eal);
  GError *err = sink_error (props, NULL);

  assert_error_has (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "no ARP reply from 10.9.8.7");
  fail_unless (strstr (err->message, "destination-mac") != NULL);
  g_error_free (err);
  g_free (props);
  g_free (eal);
}

GST_END_TEST;

static Suite *
dpdk_elements_suite (void)
{
  Suite *s = suite_create ("dpdk-elements");
  TCase *tc = tcase_create ("dpdk");

  tcase_set_timeout (tc, 180);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_tx_pcap_1080i5994);
  tcase_add_test (tc, test_tx_pcap_720p5994);
  tcase_add_test (tc, test_rx_pcap_1080i5994);
  tcase_add_test (tc, test_rx_pcap_1080p25);
  tcase_add_test (tc, test_tx_pcap_1080p25);
  tcase_add_test (tc, test_tx_pcap_625i);
  tcase_add_test (tc, test_tx_pcap_1080psf2398);
  tcase_add_test (tc, test_rx_pcap_525i);
  tcase_add_test (tc, test_rx_pcap_2048psf24);
  tcase_add_test (tc, test_ring_loopback);
  tcase_add_test (tc, test_tx_no_payload_copies);
  tcase_add_test (tc, test_error_no_such_port);
  tcase_add_test (tc, test_error_no_such_port_name);
  tcase_add_test (tc, test_error_bad_eal_args);
  tcase_add_test (tc, test_error_no_hugepages);
  tcase_add_test (tc, test_error_port_busy_and_other_args);
  tcase_add_test (tc, test_error_bad_destination_mac);
  tcase_add_test (tc, test_error_no_arp_reply);
  return s;
}

GST_CHECK_MAIN (dpdk_elements);
