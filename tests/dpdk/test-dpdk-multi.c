/* gst-vmi tests: the dpdk transport between two processes, on virtual
 * devices: net_af_packet on a veth pair across two network namespaces
 * (the sink in one, the src in the other), and net_memif (the sink a
 * memif client, the src the server; copy mode, no hugepages). The sender
 * is a gst-launch-1.0 child; the receiver runs here and checks the frames
 * bit for bit. Needs root (namespaces); exits 77 saying why otherwise. */

#include "dpdk-common.h"

#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define GROUP_S "239.1.2.5"
#define N_FRAMES 3

static gboolean
run (const gchar * cmd)
{
  gint status;

  return g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL)
      && g_spawn_check_wait_status (status, NULL);
}

/* Writes @n pictures of @f as one UYVP file, returns its path. */
static gchar *
write_pictures (const gchar * dir, const RefFormat * f, guint8 ** pics,
    guint n)
{
  gchar *path = g_build_filename (dir, "pictures.uyvp", NULL);
  gsize fs = f->width * 5 / 2 * f->height;
  GByteArray *a = g_byte_array_new ();
  guint k;

  for (k = 0; k < n; k++)
    g_byte_array_append (a, pics[k], fs);
  fail_unless (g_file_set_contents (path, (gchar *) a->data, a->len, NULL));
  g_byte_array_unref (a);
  return path;
}

/* gst-launch-1.0 sending the pictures file with st2022sink @sink_props,
 * optionally inside network namespace @netns */
static GPid
start_sender (const RefFormat * f, const gchar * file, const gchar * netns,
    const gchar * sink_props)
{
  gchar *cmd = g_strdup_printf ("%s%s gst-launch-1.0 -q filesrc "
      "location=%s blocksize=%u ! rawvideoparse format=uyvp width=%u "
      "height=%u framerate=%d/%d ! st2022sink transport=dpdk host=" GROUP_S
      " port=5030 pacing=software %s", netns ? "ip netns exec " : "",
      netns ? netns : "", file, f->width * 5 / 2 * f->height, f->width,
      f->height, f->fps_n, f->fps_d, sink_props);
  gchar **argv = NULL;
  GPid pid;
  fail_unless (g_shell_parse_argv (cmd, NULL, &argv, NULL));
  fail_unless (g_spawn_async (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL), "%s", cmd);
  g_strfreev (argv);
  g_free (cmd);
  return pid;
}

static void
wait_sender (GPid pid)
{
  gint status;

  fail_unless (waitpid (pid, &status, 0) == pid);
  fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 0,
      "sender failed (status %d)", status);
}

/* The receiver: @vdev on this side, started before the sender. */
static void
receive_from (const RefFormat * f, guint8 ** pics, const gchar * vdev,
    const gchar * file, const gchar * sender_netns,
    const gchar * sender_vdev)
{
  gchar *eal = dpdk_test_eal_args (vdev), *eal2 =
      dpdk_test_eal_args (sender_vdev);
  gchar *desc = g_strdup_printf ("st2022src name=src transport=dpdk "
      "address=" GROUP_S " port=5030 num-buffers=%u stats-interval=0 "
      "dpdk-eal-args=\"%s\" ! appsink name=sink sync=false", N_FRAMES, eal);
  gchar *props = g_strdup_printf ("dpdk-eal-args=\"%s\"", eal2);
  NetReceiver r;
  GstStructure *stats;
  GPid pid;

  /* the src's port is up when set_state() returns */
  net_receiver_start (&r, desc);
  pid = start_sender (f, file, sender_netns, props);
  stats = net_receiver_finish (&r, 90);
  wait_sender (pid);
  net_check_frames (&r, f, pics, N_FRAMES, N_FRAMES);
  fail_unless_equals_uint64 (net_stat (stats, "packets-lost"), 0);

  net_receiver_clear (&r);
  gst_structure_free (stats);
  g_free (props);
  g_free (desc);
  g_free (eal);
  g_free (eal2);
}

GST_START_TEST (test_af_packet_two_namespaces)
{
  const RefFormat *f = &ref_720p5994;
  gchar *dir = dpdk_test_mkdtemp ();
  guint8 **pics = net_make_pictures (f, N_FRAMES, 21);
  gchar *file = write_pictures (dir, f, pics, N_FRAMES);
  guint id = getpid () % 100000;
  gchar *nsa = g_strdup_printf ("vmidpa%u", id);
  gchar *nsb = g_strdup_printf ("vmidpb%u", id);
  gchar *va = g_strdup_printf ("vda%u", id), *vb = g_strdup_printf ("vdb%u",
      id);
  gchar *cmd, *path, *vdev_a, *vdev_b;
  int fd;

  cmd = g_strdup_printf ("sh -c 'ip netns add %s && ip netns add %s && "
      "ip link add %s type veth peer name %s && ip link set %s netns %s && "
      "ip link set %s netns %s && ip -n %s link set %s up && "
      "ip -n %s link set %s up'", nsa, nsb, va, vb, va, nsa, vb, nsb, nsa,
      va, nsb, vb);
  fail_unless (run (cmd), "cannot set up namespaces: %s", cmd);
  g_free (cmd);

  /* the receiver (and its EAL's af_packet socket) lives in namespace B */
  path = g_strdup_printf ("/var/run/netns/%s", nsb);
  fd = open (path, O_RDONLY);
  fail_unless (fd >= 0 && setns (fd, CLONE_NEWNET) == 0);
  close (fd);
  g_free (path);

  /* rings of 16384 frames (the default 512 holds a fifth of a 720p
   * frame): a receiver descheduled on a loaded machine loses nothing */
  vdev_a = g_strdup_printf ("--vdev net_af_packet0,iface=%s,framecnt=16384",
      va);
  vdev_b = g_strdup_printf ("--vdev net_af_packet0,iface=%s,framecnt=16384",
      vb);
  receive_from (f, pics, vdev_b, file, nsa, vdev_a);

  cmd = g_strdup_printf ("sh -c 'ip netns del %s; ip netns del %s'", nsa,
      nsb);
  run (cmd);
  g_free (cmd);
  g_free (vdev_a);
  g_free (vdev_b);
  g_free (va);
  g_free (vb);
  g_free (nsa);
  g_free (nsb);
  g_free (file);
  net_free_pictures (pics, N_FRAMES);
  dpdk_test_rmdir (dir);
}

GST_END_TEST;

/* memif in copy mode works without hugepages (the regions are memfds):
 * the src is the server, the sink a client in another process. */
GST_START_TEST (test_memif_two_processes)
{
  const RefFormat *f = &ref_720p5994;
  gchar *dir = dpdk_test_mkdtemp ();
  /* one frame more than received: a memif client that exits right after
   * its last frame takes the ring, and what the server has not read yet,
   * with it */
  guint8 **pics = net_make_pictures (f, N_FRAMES + 1, 22);
  gchar *file = write_pictures (dir, f, pics, N_FRAMES + 1);
  gchar *vdev_s = g_strdup_printf ("--vdev net_memif0,role=server,"
      "socket=%s/memif.sock", dir);
  gchar *vdev_c = g_strdup_printf ("--vdev net_memif0,role=client,"
      "socket=%s/memif.sock", dir);

  receive_from (f, pics, vdev_s, file, NULL, vdev_c);

  g_free (vdev_s);
  g_free (vdev_c);
  g_free (file);
  net_free_pictures (pics, N_FRAMES + 1);
  dpdk_test_rmdir (dir);
}

GST_END_TEST;

static Suite *
dpdk_multi_suite (void)
{
  Suite *s = suite_create ("dpdk-multi");
  TCase *tc = tcase_create ("multi");

  tcase_set_timeout (tc, 150);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_af_packet_two_namespaces);
  tcase_add_test (tc, test_memif_two_processes);
  return s;
}

int
main (int argc, char **argv)
{
  if (geteuid () != 0 || !g_find_program_in_path ("ip")) {
    g_print ("SKIP: needs root and iproute2 (network namespaces, veth)\n");
    return 77;
  }
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (dpdk_multi_suite (), "dpdk_multi",
      __FILE__);
}
