/* gst-vmi tests: ST 2022-7 on the packet transport (AF_PACKET): st2022sink
 * in one network namespace of the test's own sends on two veth pairs to
 * st2022src in another, which receives both interfaces; then the secondary
 * network is cut (the receiver's end taken down once it listens): the
 * sender's secondary stalls and is counted, the primary carries every
 * frame. Root only (SKIP otherwise). */

#include "../net/net-common.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

static gchar ns_s[32], ns_r[32], ifs[4][16];
static int ns_orig = -1;

/* two namespaces joined by two veth pairs: a (sender) - b (receiver) the
 * primary network, c - d the secondary */
static gboolean
setup (void)
{
  static const gchar *mac[4] = { "02:7a:00:00:00:01", "02:7b:00:00:00:02",
    "02:7c:00:00:00:03", "02:7d:00:00:00:04"
  };
  gint pid = getpid () % 1000000, i;
  gboolean ok;

  g_snprintf (ns_s, sizeof (ns_s), "vmi7s%d", pid);
  g_snprintf (ns_r, sizeof (ns_r), "vmi7r%d", pid);
  for (i = 0; i < 4; i++)
    g_snprintf (ifs[i], sizeof (ifs[i]), "vmi7%c%d", 'a' + i, pid);
  net_sh ("ip netns del %s", ns_s);
  net_sh ("ip netns del %s", ns_r);
  ok = net_sh ("ip netns add %s", ns_s) && net_sh ("ip netns add %s", ns_r);
  for (i = 0; ok && i < 4; i += 2)
    ok = net_sh ("ip link add %s netns %s address %s type veth peer name %s "
        "netns %s address %s", ifs[i], ns_s, mac[i], ifs[i + 1], ns_r,
        mac[i + 1]);
  for (i = 0; ok && i < 4; i++)
    ok = net_sh ("ip -n %s addr add 10.8%d.0.%d/24 dev %s", i % 2 ? ns_r : ns_s,
        1 + i / 2, 1 + i % 2, ifs[i])
        && net_sh ("ip -n %s link set %s up", i % 2 ? ns_r : ns_s, ifs[i]);
  return ok && net_sh ("ip -n %s link set lo up", ns_s)
      && net_sh ("ip -n %s link set lo up", ns_r);
}

static void
teardown (void)
{
  net_sh ("ip netns del %s", ns_s);
  net_sh ("ip netns del %s", ns_r);
}

/* the elements' sockets are made by the thread that starts them */
static void
enter (const gchar * ns)
{
  gchar *path = g_strdup_printf ("/var/run/netns/%s", ns);
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (ns_orig < 0)
    ns_orig = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  fail_unless (fd >= 0 && setns (fd, CLONE_NEWNET) == 0, "cannot enter %s",
      ns);
  close (fd);
  g_free (path);
}

static void
leave (void)
{
  fail_unless (setns (ns_orig, CLONE_NEWNET) == 0);
}

static void
two_paths (gboolean secondary_cut)
{
  const RefFormat *f = &ref_720p5994;
  const guint N = 3;
  guint8 **pics = net_make_pictures (f, N, 21);
  guint64 total = (guint64) N * ref_datagrams (f);
  GstStructure *sst, *rst;
  NetReceiver r;
  gchar *desc;
  guint k;

  /* a window far above the two rings' differential on a loaded machine
   * (each interface's packet ring is sent and read on its own) */
  enter (ns_r);
  desc = g_strdup_printf ("st2022src name=src transport=packet iface=%s "
      "address=10.81.0.2 port=5004 secondary-iface=%s secondary-address="
      "10.82.0.2 secondary-port=5006 seamless-window=200 num-buffers=%u "
      "stats-interval=0 ! "
      "video/x-raw,format=UYVP ! appsink name=sink sync=false", ifs[1],
      ifs[3], N);
  net_receiver_start (&r, desc);
  g_free (desc);
  leave ();
  /* the secondary network cut: what the sender puts on it goes nowhere */
  if (secondary_cut)
    fail_unless (net_sh ("ip -n %s link set %s down", ns_r, ifs[3]));

  enter (ns_s);
  desc = g_strdup_printf ("st2022sink name=sink transport=packet iface=%s "
      "host=10.81.0.2 port=5004 destination-mac=02:7b:00:00:00:02 "
      "secondary-iface=%s secondary-host=10.82.0.2 secondary-port=5006 "
      "secondary-destination-mac=02:7d:00:00:00:04 stats-interval=0",
      ifs[0], ifs[2]);
  sst = net_send_pictures (f, pics, N, desc);
  g_free (desc);
  leave ();
  rst = net_run_until_eos (r.pipeline, NULL, 60);
  /* then everything both paths brought counted (the secondary's last
   * copies may come after the last frame left) */
  {
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    do {
      g_object_get (r.src, "stats", &rst, NULL);
      if (net_stat (rst, "packets-primary") == total
          && net_stat (rst, "packets-secondary") == (secondary_cut ? 0 :
              total))
        break;
      gst_structure_free (rst);
      rst = NULL;
      g_usleep (10000);
    } while (g_get_monotonic_time () < deadline);
    if (rst)
      gst_structure_free (rst);
  }
  gst_element_set_state (r.pipeline, GST_STATE_NULL);
  g_object_get (r.src, "stats", &rst, NULL);

  /* the sender put every datagram on the primary; on a cut secondary
   * (a veth without carrier) its packet ring fills and stays full: the
   * rest is counted as failed, once down, and never held the primary */
  fail_unless_equals_uint64 (net_stat (sst, "packets-primary"), total);
  fail_unless_equals_uint64 (net_stat (sst, "packets-failed-primary"), 0);
  fail_unless_equals_uint64 (net_stat (sst, "packets-secondary") +
      net_stat (sst, "packets-failed-secondary"), total);
  if (secondary_cut) {
    fail_unless (net_stat (sst, "packets-failed-secondary") > 0);
    fail_unless_equals_uint64 (net_stat (sst, "path-failures-secondary"), 1);
  } else {
    fail_unless_equals_uint64 (net_stat (sst, "packets-failed-secondary"), 0);
  }

  fail_unless_equals_int (r.samples->len, N);
  for (k = 0; k < N; k++) {
    GstSample *s = r.samples->pdata[k];
    guint8 *got = net_buffer_to_uyvp (gst_sample_get_buffer (s),
        gst_sample_get_caps (s), f);

    fail_if (GST_BUFFER_FLAG_IS_SET (gst_sample_get_buffer (s),
            GST_BUFFER_FLAG_CORRUPTED), "frame %u corrupted", k);
    fail_unless (memcmp (got, pics[k], f->width * 5 / 2 * f->height) == 0,
        "frame %u differs", k);
    g_free (got);
  }
  fail_unless_equals_uint64 (net_stat (rst, "packets-lost"), 0);
  fail_unless_equals_uint64 (net_stat (rst, "packets-primary"), total);
  fail_unless_equals_uint64 (net_stat (rst, "packets-secondary"),
      secondary_cut ? 0 : total);
  fail_unless_equals_uint64 (net_stat (rst, "packets-lost-primary"), 0);
  fail_unless_equals_uint64 (net_stat (rst, "packets-lost-secondary"),
      secondary_cut ? total : 0);
  fail_unless_equals_uint64 (net_stat (rst, "packets-recovered"),
      secondary_cut ? total : 0);
  fail_unless_equals_uint64 (net_stat (rst, "packets-late-secondary"), 0);

  gst_structure_free (sst);
  gst_structure_free (rst);
  net_receiver_clear (&r);
  net_free_pictures (pics, N);
  if (secondary_cut)
    net_sh ("ip -n %s link set %s up", ns_r, ifs[3]);
}

GST_START_TEST (test_two_interfaces)
{
  two_paths (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_secondary_network_cut)
{
  two_paths (TRUE);
}

GST_END_TEST;

static Suite *
packet_seamless_suite (void)
{
  Suite *s = suite_create ("packet-seamless");
  TCase *tc = tcase_create ("two-interfaces");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_two_interfaces);
  tcase_add_test (tc, test_secondary_network_cut);
  return s;
}

int
main (int argc, char **argv)
{
  int rc;

  gst_check_init (&argc, &argv);
  if (getuid () != 0 || !net_sh ("ip -V")) {
    g_print ("SKIP: two network namespaces and veth pairs need root and "
        "iproute2\n");
    return 77;
  }
  if (!setup ()) {
    teardown ();
    g_print ("SKIP: cannot make network namespaces and veth pairs here\n");
    return 77;
  }
  rc = gst_check_run_suite (packet_seamless_suite (), "packet-seamless",
      __FILE__);
  teardown ();
  return rc;
}
