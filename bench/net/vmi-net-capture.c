/* gst-vmi: capture UDP datagrams with the kernel's receive timestamps into a
 * pcap file (LINKTYPE_RAW, nanosecond timestamps) that tools/vmi-analyze
 * reads. Stands in for tcpdump on machines without it, and sees what a
 * receiving socket sees: with UDP GSO on loopback, a sender's burst is
 * segmented on receive and its datagrams share one timestamp, as they would
 * leave a real NIC back to back.
 *
 * Usage: vmi-net-capture PORT COUNT OUT.pcap [TIMEOUT_S [SKIP]]
 *   SKIP datagrams are received first and not written (start-up).
 */

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define BURST 64
#define SLOT 2048

static void
put32 (FILE * f, guint32 v)
{
  fwrite (&v, 4, 1, f);
}

static void
put16 (FILE * f, guint16 v)
{
  fwrite (&v, 2, 1, f);
}

static guint16
ip_checksum (const guint8 * h)
{
  guint32 sum = 0;
  guint i;

  for (i = 0; i < 20; i += 2)
    sum += h[i] << 8 | h[i + 1];
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return ~sum;
}

int
main (int argc, char **argv)
{
  int fd, one = 1, size = 256 * 1024 * 1024;
  struct sockaddr_in sa = { 0 };
  guint16 port;
  guint64 count, got = 0, skip, skipped = 0;
  gint64 deadline;
  FILE *out;
  static guint8 bufs[BURST][SLOT];
  static char ctrl[BURST][CMSG_SPACE (sizeof (struct timespec))];
  struct mmsghdr msgs[BURST];
  struct iovec iov[BURST];
  struct sockaddr_in from[BURST];

  if (argc < 4) {
    fprintf (stderr, "usage: %s PORT COUNT OUT.pcap [TIMEOUT_S [SKIP]]\n",
        argv[0]);
    return 2;
  }
  port = atoi (argv[1]);
  count = g_ascii_strtoull (argv[2], NULL, 10);
  deadline = g_get_monotonic_time () + (argc > 4 ? atoi (argv[4]) : 30) *
      G_USEC_PER_SEC;
  skip = argc > 5 ? g_ascii_strtoull (argv[5], NULL, 10) : 0;

  fd = socket (AF_INET, SOCK_DGRAM, 0);
  if (setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof (size)) < 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof (size));
  setsockopt (fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof (one));
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr.s_addr = htonl (INADDR_ANY);
  if (bind (fd, (struct sockaddr *) &sa, sizeof (sa)) < 0) {
    fprintf (stderr, "bind: %s\n", g_strerror (errno));
    return 1;
  }
  out = fopen (argv[3], "wb");
  if (!out) {
    fprintf (stderr, "%s: %s\n", argv[3], g_strerror (errno));
    return 1;
  }
  /* pcap header: nanosecond magic, v2.4, LINKTYPE_RAW */
  put32 (out, 0xa1b23c4d);
  put16 (out, 2);
  put16 (out, 4);
  put32 (out, 0);
  put32 (out, 0);
  put32 (out, 65535);
  put32 (out, 101);
  /* ready: the sender may start */
  printf ("capturing\n");
  fflush (stdout);

  while (got < count && g_get_monotonic_time () < deadline) {
    struct pollfd pfd = { fd, POLLIN, 0 };
    int n, i;

    if (poll (&pfd, 1, 100) <= 0)
      continue;
    for (i = 0; i < BURST; i++) {
      iov[i].iov_base = bufs[i];
      iov[i].iov_len = SLOT;
      memset (&msgs[i].msg_hdr, 0, sizeof (struct msghdr));
      msgs[i].msg_hdr.msg_iov = &iov[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
      msgs[i].msg_hdr.msg_name = &from[i];
      msgs[i].msg_hdr.msg_namelen = sizeof (from[i]);
      msgs[i].msg_hdr.msg_control = ctrl[i];
      msgs[i].msg_hdr.msg_controllen = sizeof (ctrl[i]);
    }
    n = recvmmsg (fd, msgs, BURST, MSG_DONTWAIT, NULL);
    for (i = 0; i < n && got < count; i++) {
      struct cmsghdr *c;
      struct timespec ts = { 0, 0 };
      guint len = msgs[i].msg_len;
      guint8 hdr[28] = { 0 };

      if (skipped < skip) {
        skipped++;
        continue;
      }
      got++;

      for (c = CMSG_FIRSTHDR (&msgs[i].msg_hdr); c;
          c = CMSG_NXTHDR (&msgs[i].msg_hdr, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS)
          memcpy (&ts, CMSG_DATA (c), sizeof (ts));
      /* IPv4 + UDP headers rebuilt around the payload */
      hdr[0] = 0x45;
      hdr[2] = (len + 28) >> 8;
      hdr[3] = (len + 28) & 0xff;
      hdr[8] = 64;
      hdr[9] = 17;
      memcpy (hdr + 12, &from[i].sin_addr, 4);
      hdr[16] = 127;
      hdr[19] = 1;
      {
        guint16 ck = ip_checksum (hdr);
        hdr[10] = ck >> 8;
        hdr[11] = ck & 0xff;
      }
      memcpy (hdr + 20, &from[i].sin_port, 2);
      hdr[22] = port >> 8;
      hdr[23] = port & 0xff;
      hdr[24] = (len + 8) >> 8;
      hdr[25] = (len + 8) & 0xff;
      put32 (out, ts.tv_sec);
      put32 (out, ts.tv_nsec);
      put32 (out, len + 28);
      put32 (out, len + 28);
      fwrite (hdr, 28, 1, out);
      fwrite (bufs[i], len, 1, out);
    }
  }
  fclose (out);
  close (fd);
  fprintf (stderr, "captured %" G_GUINT64_FORMAT " datagrams\n", got);
  return got == count ? 0 : 1;
}
