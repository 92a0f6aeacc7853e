/* gst-vmi tests: network namespaces, veth and frames for the packet tests. */

#include "packet-common.h"

#include <gst/check/gstcheck.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

guint8 pkt_mac_a[6], pkt_mac_b[6];
static gchar peer_ns[32];
static int self_fd = -1, peer_fd = -1;

static G_GNUC_NORETURN void
skip (const gchar * why)
{
  g_print ("SKIP: %s\n", why);
  exit (77);
}

/* runs @cmd; returns its exit status */
static int
run_status (const gchar * cmd, gchar ** err)
{
  gint status = -1;
  gchar *argv[] = { (gchar *) "/bin/sh", (gchar *) "-c", (gchar *) cmd, NULL };

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
          NULL, err, &status, NULL))
    return -1;
  return g_spawn_check_wait_status (status, NULL) ? 0 : 1;
}

static gchar *
expand (const gchar * cmd)
{
  gchar **parts = g_strsplit (cmd, "@PEER@", -1);
  gchar *out = g_strjoinv (peer_ns, parts);

  g_strfreev (parts);
  return out;
}

void
pkt_run (const gchar * fmt, ...)
{
  va_list ap;
  gchar *raw, *cmd, *err = NULL;
  int rc;

  va_start (ap, fmt);
  raw = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  cmd = expand (raw);
  rc = run_status (cmd, &err);
  fail_unless (rc == 0, "'%s' failed: %s", cmd, err ? err : "");
  g_free (err);
  g_free (cmd);
  g_free (raw);
}

static void
read_mac (const gchar * ifname, guint8 mac[6])
{
  struct ifreq ifr = { 0 };
  int fd = socket (AF_INET, SOCK_DGRAM, 0);

  g_strlcpy (ifr.ifr_name, ifname, sizeof (ifr.ifr_name));
  if (fd < 0 || ioctl (fd, SIOCGIFHWADDR, &ifr) < 0)
    g_error ("cannot read the MAC of %s: %s", ifname, g_strerror (errno));
  memcpy (mac, ifr.ifr_hwaddr.sa_data, 6);
  close (fd);
}

static void
enter (int fd)
{
  if (setns (fd, CLONE_NEWNET) < 0)
    g_error ("setns: %s", g_strerror (errno));
}

void
pkt_env_setup (void)
{
  const gchar *cmds[] = {
    "ip link set lo up",
    "ip netns add @PEER@",
    "ip link add " PKT_IF_A " type veth peer name " PKT_IF_B " netns @PEER@",
    "echo 1 > /proc/sys/net/ipv6/conf/" PKT_IF_A "/disable_ipv6",
    "ip netns exec @PEER@ sh -c 'echo 1 > /proc/sys/net/ipv6/conf/"
        PKT_IF_B "/disable_ipv6'",
    "ip addr add " PKT_IP_A "/24 dev " PKT_IF_A,
    "ip -n @PEER@ addr add " PKT_IP_B "/24 dev " PKT_IF_B,
    "ip link set " PKT_IF_A " up",
    "ip -n @PEER@ link set " PKT_IF_B " up",
  };
  gchar *path, *err = NULL;
  guint i;

  if (geteuid () != 0)
    skip ("the packet transport tests need root (raw sockets, network "
        "namespaces, veth)");
  if (run_status ("ip -V", NULL) != 0)
    skip ("the packet transport tests need `ip` (iproute2)");
  if (unshare (CLONE_NEWNET) < 0)
    skip ("cannot create a network namespace (unshare CLONE_NEWNET)");
  self_fd = open ("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  g_snprintf (peer_ns, sizeof (peer_ns), "vmipkt-%d", (int) getpid ());

  for (i = 0; i < G_N_ELEMENTS (cmds); i++) {
    gchar *cmd = expand (cmds[i]);

    if (run_status (cmd, &err) != 0) {
      gchar *why = g_strdup_printf ("cannot set up the veth pair: '%s' "
          "failed: %s", cmd, err ? err : "");
      pkt_env_teardown ();
      skip (why);
    }
    g_clear_pointer (&err, g_free);
    g_free (cmd);
  }
  path = g_strdup_printf ("/run/netns/%s", peer_ns);
  peer_fd = open (path, O_RDONLY | O_CLOEXEC);
  g_free (path);
  if (peer_fd < 0)
    g_error ("cannot open the peer namespace: %s", g_strerror (errno));
  read_mac (PKT_IF_A, pkt_mac_a);
  enter (peer_fd);
  read_mac (PKT_IF_B, pkt_mac_b);
  enter (self_fd);
}

void
pkt_env_teardown (void)
{
  gchar *cmd = expand ("ip netns del @PEER@");

  if (run_status (cmd, NULL) != 0)
    g_printerr ("could not delete network namespace %s\n", peer_ns);
  g_free (cmd);
}

int
pkt_test_main (int argc, char **argv, Suite * (*make) (void),
    const gchar * name, const gchar * file)
{
  int rc;

  pkt_env_setup ();
  gst_check_init (&argc, &argv);
  rc = gst_check_run_suite (make (), name, file);
  pkt_env_teardown ();
  return rc;
}

int
pkt_peer_socket (int domain, int type, int protocol)
{
  int fd;

  enter (peer_fd);
  fd = socket (domain, type, protocol);
  enter (self_fd);
  fail_unless (fd >= 0, "socket: %s", g_strerror (errno));
  return fd;
}

int
pkt_capture_open (void)
{
  struct sockaddr_ll sll = { 0 };
  int fd, size = 256 << 20;

  enter (peer_fd);
  fd = socket (AF_PACKET, SOCK_RAW, htons (ETH_P_ALL));
  sll.sll_ifindex = if_nametoindex (PKT_IF_B);
  enter (self_fd);
  fail_unless (fd >= 0, "AF_PACKET socket: %s", g_strerror (errno));
  fail_unless (sll.sll_ifindex > 0);
  fail_unless (setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
          sizeof (size)) == 0);
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons (ETH_P_ALL);
  fail_unless (bind (fd, (struct sockaddr *) &sll, sizeof (sll)) == 0,
      "bind: %s", g_strerror (errno));
  return fd;
}

void
pkt_capture_read (int fd, GPtrArray * out, guint want, guint idle_s)
{
  static guint8 buf[65536];

  for (;;) {
    struct sockaddr_ll from;
    socklen_t fl = sizeof (from);
    ssize_t n;

    if (out->len >= want) {
      n = recvfrom (fd, buf, sizeof (buf), MSG_DONTWAIT,
          (struct sockaddr *) &from, &fl);
      if (n < 0)
        return;
    } else {
      struct pollfd pfd = {.fd = fd,.events = POLLIN };
      fail_unless (poll (&pfd, 1, idle_s * 1000) == 1,
          "no frame for %u s: got %u of %u", idle_s, out->len, want);
      n = recvfrom (fd, buf, sizeof (buf), 0, (struct sockaddr *) &from, &fl);
      fail_unless (n >= 0, "recv: %s", g_strerror (errno));
    }
    if (from.sll_pkttype == PACKET_OUTGOING)
      continue;
    g_ptr_array_add (out, g_bytes_new (buf, n));
  }
}

guint16
pkt_csum (const guint8 * p, gsize n)
{
  guint32 s = 0;
  gsize i;

  for (i = 0; i < n; i++)
    s += (i & 1) ? p[i] : (guint32) p[i] << 8;
  while (s > 0xffff)
    s = (s & 0xffff) + (s >> 16);
  return (guint16) (~s & 0xffff);
}

static void
put16 (guint8 * p, guint v)
{
  p[0] = v >> 8;
  p[1] = v;
}

gsize
pkt_build_udp (guint8 * buf, const guint8 dst_mac[6], const guint8 src_mac[6],
    const gchar * src_ip, const gchar * dst_ip, guint16 sport, guint16 dport,
    guint8 ttl, const guint8 * payload, gsize len)
{
  guint8 *ip = buf + 14, *udp = buf + 34;

  memcpy (buf, dst_mac, 6);
  memcpy (buf + 6, src_mac, 6);
  put16 (buf + 12, 0x0800);
  ip[0] = 0x45;
  ip[1] = 0;
  put16 (ip + 2, 28 + len);
  put16 (ip + 4, 0);
  put16 (ip + 6, 0x4000);
  ip[8] = ttl;
  ip[9] = 17;
  put16 (ip + 10, 0);
  fail_unless (inet_pton (AF_INET, src_ip, ip + 12) == 1);
  fail_unless (inet_pton (AF_INET, dst_ip, ip + 16) == 1);
  put16 (ip + 10, pkt_csum (ip, 20));
  put16 (udp, sport);
  put16 (udp + 2, dport);
  put16 (udp + 4, 8 + len);
  put16 (udp + 6, 0);
  memcpy (buf + 42, payload, len);
  return 42 + len;
}

void
pkt_group_mac (const gchar * group, guint8 mac[6])
{
  guint8 g[4];

  fail_unless (inet_pton (AF_INET, group, g) == 1);
  mac[0] = 0x01;
  mac[1] = 0x00;
  mac[2] = 0x5e;
  mac[3] = g[1] & 0x7f;
  mac[4] = g[2];
  mac[5] = g[3];
}
