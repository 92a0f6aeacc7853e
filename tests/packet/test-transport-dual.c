/* gst-vmi tests: ST 2022-7 sending without the elements: the dual
 * transport over two real UDP sockets on loopback, a second path that
 * cannot open at start and is opened in the background
 * (gst/transport/vmi-transport-reopen.c), and the reopener alone on a
 * port another socket holds.  Pure C (GLib), no privileges. */

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <glib.h>

#include "vmi-transport.h"
#include "vmi-transport-dual.h"
#include "vmi-transport-reopen.h"
#include "vmi-transport-private.h"

#define RETRY_US 20000
#define PAYLOAD 1200

/* a UDP socket on 127.0.0.1, port 0 (read back) */
static int
udp_bound (guint16 * port)
{
  struct sockaddr_in a = { 0 };
  socklen_t len = sizeof (a);
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), size = 8 << 20;

  g_assert_cmpint (fd, >=, 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof (size));
  setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof (size));
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &a, sizeof (a)), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &a, &len), ==, 0);
  *port = ntohs (a.sin_port);
  return fd;
}

/* the sequence numbers (first 4 bytes) of what @fd has queued */
static GArray *
drain (int fd)
{
  GArray *seqs = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint8 buf[2048];
  ssize_t n;

  while ((n = recv (fd, buf, sizeof (buf), MSG_DONTWAIT)) > 0) {
    guint32 seq;

    g_assert_cmpint (n, ==, PAYLOAD);
    memcpy (&seq, buf, 4);
    g_array_append_val (seqs, seq);
  }
  return seqs;
}

static void
send_config (VmiTransportConfig * cfg, guint16 port, const gchar * prefix)
{
  memset (cfg, 0, sizeof (*cfg));
  cfg->direction = VMI_TRANSPORT_DIR_SEND;
  cfg->address = "127.0.0.1";
  cfg->port = port;
  cfg->ttl_mc = 1;
  cfg->prop_prefix = prefix;
}

/* @bursts bursts of 8 datagrams (numbered from @seq) through @t, waiting
 * @gap_us between bursts */
static void
send_bursts (VmiTransport * t, guint32 * seq, guint bursts, gulong gap_us)
{
  static guint8 payload[8][PAYLOAD];
  struct iovec iov[8];
  VmiTxDatagram dg[8];
  guint b, i;

  for (b = 0; b < bursts; b++) {
    GError *err = NULL;

    for (i = 0; i < 8; i++) {
      guint32 s = (*seq)++;

      memset (payload[i], (guint8) s, PAYLOAD);
      memcpy (payload[i], &s, 4);
      iov[i].iov_base = payload[i];
      iov[i].iov_len = PAYLOAD;
      dg[i].iov = &iov[i];
      dg[i].n_iov = 1;
      dg[i].gap_wire_bytes = 0;
      dg[i].frame = NULL;
    }
    g_assert_cmpint (vmi_transport_send_burst (t, dg, 8, &err), ==, 8);
    g_assert_no_error (err);
    if (gap_us)
      g_usleep (gap_us);
  }
}

/* A second path whose interface does not exist: the burst goes on the
 * primary, the secondary counts every datagram as failed, and the reason
 * names the second path's property */
static void
test_secondary_never_opens (void)
{
  VmiTransportConfig c1, c2;
  VmiTransport *p, *d;
  VmiTransportDualLeg leg;
  GError *err = NULL;
  gchar *why = NULL;
  guint16 port1, port2;
  int fd1 = udp_bound (&port1), fd2 = udp_bound (&port2);
  guint32 seq = 0;
  GArray *got;

  send_config (&c1, port1, NULL);
  send_config (&c2, port2, "secondary-");
  c2.multicast_iface = "vmi-nosuch0";
  p = vmi_transport_socket_class.open (&c1, &err);
  g_assert_no_error (err);
  g_assert_null (vmi_transport_socket_class.open (&c2, &err));
  g_assert_error (err, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK);
  g_assert_nonnull (strstr (err->message, "set secondary-multicast-iface"));
  d = vmi_transport_dual_new (p, NULL, &vmi_transport_socket_class, &c1, &c2,
      err->message);
  g_clear_error (&err);

  /* several retry periods */
  send_bursts (d, &seq, 20, RETRY_US / 2);
  vmi_transport_dual_get_leg (d, 1, &leg, &why);
  g_assert_false (leg.up);
  g_assert_false (leg.open);
  g_assert_cmpuint (leg.sent, ==, 0);
  g_assert_cmpuint (leg.failed, ==, 160);
  g_assert_cmpuint (leg.failures, ==, 1);
  g_assert_cmpuint (leg.reopens, ==, 0);
  g_assert_nonnull (strstr (why, "secondary-multicast-iface"));
  g_free (why);
  vmi_transport_dual_get_leg (d, 0, &leg, NULL);
  g_assert_true (leg.up);
  g_assert_cmpuint (leg.sent, ==, 160);
  g_assert_cmpuint (leg.failed, ==, 0);

  got = drain (fd1);
  g_assert_cmpuint (got->len, ==, 160);
  g_array_unref (got);
  got = drain (fd2);
  g_assert_cmpuint (got->len, ==, 0);
  g_array_unref (got);
  vmi_transport_close (d);
  close (fd1);
  close (fd2);
}

/* A second path that could not open at start: opened in the background
 * and taken by a later burst; from then on it carries the same datagrams
 * as the primary, and sent + failed is every datagram */
static void
test_secondary_opens_later (void)
{
  VmiTransportConfig c1, c2;
  VmiTransport *p, *d;
  VmiTransportDualLeg leg;
  GError *err = NULL;
  guint16 port1, port2;
  int fd1 = udp_bound (&port1), fd2 = udp_bound (&port2);
  guint32 seq = 0, i;
  gint64 deadline;
  GArray *got1, *got2;

  send_config (&c1, port1, NULL);
  send_config (&c2, port2, "secondary-");
  p = vmi_transport_socket_class.open (&c1, &err);
  g_assert_no_error (err);
  d = vmi_transport_dual_new (p, NULL, &vmi_transport_socket_class, &c1, &c2,
      "not there yet");
  send_bursts (d, &seq, 4, 0);
  vmi_transport_dual_get_leg (d, 1, &leg, NULL);
  g_assert_cmpuint (leg.failed, ==, 32);
  g_assert_false (leg.up);

  /* a burst after the opener opened it: up */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  do {
    send_bursts (d, &seq, 1, RETRY_US / 4);
    vmi_transport_dual_get_leg (d, 1, &leg, NULL);
  } while (!leg.up && g_get_monotonic_time () < deadline);
  g_assert_true (leg.up);
  g_assert_true (leg.open);
  g_assert_cmpuint (leg.reopens, ==, 1);
  g_assert_cmpuint (leg.failures, ==, 1);
  send_bursts (d, &seq, 10, 0);
  vmi_transport_dual_get_leg (d, 1, &leg, NULL);
  g_assert_cmpuint (leg.sent + leg.failed, ==, seq);
  g_assert_cmpuint (leg.sent, >=, 80);
  g_assert_cmpuint (vmi_transport_dual_get_local_port (d, 1), !=, 0);
  vmi_transport_close (d);

  /* the primary all, the secondary the last leg.sent of them, in order */
  got1 = drain (fd1);
  got2 = drain (fd2);
  g_assert_cmpuint (got1->len, ==, seq);
  g_assert_cmpuint (got2->len, ==, leg.sent);
  for (i = 0; i < got1->len; i++)
    g_assert_cmpuint (g_array_index (got1, guint32, i), ==, i);
  for (i = 0; i < got2->len; i++)
    g_assert_cmpuint (g_array_index (got2, guint32, i), ==, seq - leg.sent + i);
  g_array_unref (got1);
  g_array_unref (got2);
  close (fd1);
  close (fd2);
}

/* The reopener alone: a receiver whose port another socket holds is tried
 * every period, fails (the reason kept), and opens once the port is free;
 * what it opened receives */
static void
test_reopen_busy_port (void)
{
  VmiTransportConfig cfg = { 0 };
  VmiTransportReopen *r;
  VmiTransport *t = NULL;
  VmiRxSlot slot;
  GError *err = NULL;
  guint16 port;
  int blocker = udp_bound (&port), tx;
  struct sockaddr_in to = { 0 };
  gint64 deadline;
  gchar *why;

  cfg.direction = VMI_TRANSPORT_DIR_RECEIVE;
  cfg.address = "127.0.0.1";
  cfg.port = port;
  r = vmi_transport_reopen_new (&vmi_transport_socket_class, &cfg, RETRY_US,
      "test-reopen");
  /* not started: nothing opens */
  g_usleep (3 * RETRY_US);
  g_assert_null (vmi_transport_reopen_take (r));
  g_assert_cmpuint (vmi_transport_reopen_get_tries (r), ==, 0);
  vmi_transport_reopen_start (r, NULL);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (vmi_transport_reopen_get_tries (r) < 3
      && g_get_monotonic_time () < deadline)
    g_usleep (RETRY_US / 4);
  g_assert_cmpuint (vmi_transport_reopen_get_tries (r), >=, 3);
  g_assert_null (vmi_transport_reopen_take (r));
  why = vmi_transport_reopen_get_error (r);
  g_assert_nonnull (strstr (why, "cannot bind"));
  g_free (why);

  close (blocker);
  while (t == NULL && g_get_monotonic_time () < deadline) {
    t = vmi_transport_reopen_take (r);
    if (t == NULL)
      g_usleep (RETRY_US / 4);
  }
  g_assert_nonnull (t);
  /* taken: the next take has nothing */
  g_assert_null (vmi_transport_reopen_take (r));

  tx = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  to.sin_family = AF_INET;
  to.sin_port = htons (port);
  to.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (sendto (tx, "vmi", 3, 0, (struct sockaddr *) &to,
          sizeof (to)), ==, 3);
  g_assert_cmpint (vmi_transport_recv_burst (t, &slot, 1, G_USEC_PER_SEC,
          &err), ==, 1);
  g_assert_no_error (err);
  g_assert_cmpuint (slot.len, ==, 3);
  g_assert_cmpmem (slot.data, 3, "vmi", 3);
  close (tx);

  /* started again, handed the transport to close: it closes it (the port
   * is free again) and opens anew */
  vmi_transport_reopen_start (r, t);
  t = NULL;
  while (t == NULL && g_get_monotonic_time () < deadline) {
    t = vmi_transport_reopen_take (r);
    if (t == NULL)
      g_usleep (RETRY_US / 4);
  }
  g_assert_nonnull (t);
  vmi_transport_close (t);

  /* cancelled: what opens meanwhile is closed, nothing is handed out */
  vmi_transport_reopen_start (r, NULL);
  vmi_transport_reopen_cancel (r);
  g_usleep (3 * RETRY_US);
  g_assert_null (vmi_transport_reopen_take (r));
  vmi_transport_reopen_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport-dual/secondary-never-opens",
      test_secondary_never_opens);
  g_test_add_func ("/transport-dual/secondary-opens-later",
      test_secondary_opens_later);
  g_test_add_func ("/transport-dual/reopen-busy-port", test_reopen_busy_port);
  return g_test_run ();
}
