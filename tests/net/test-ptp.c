/* gst-vmi: ST 2059 timing on a real PTP network (network namespaces)
 *
 * ptp4l is the grandmaster (software time stamping, masterOnly, and
 * free_running: it never adjusts any clock) on a veth in namespace A; the
 * test process runs the pipeline in namespace B, where the elements'
 * GstPtpClock is the only PTP slave. A capture socket in A timestamps every
 * datagram on arrival (SO_TIMESTAMPNS, the host's CLOCK_REALTIME, which is
 * what ptp4l -S serves plus its UTC offset). Checked against that capture,
 * with the epoch arithmetic written out here: each frame's first datagram
 * leaves within 5 ms (median 1 ms) after its alignment point plus
 * tx-offset, RTP timestamp and video timestamp are the alignment point's,
 * HBRMT R = 2, the SDP names the grandmaster and domain; st2022src on the
 * same PTP reports latency within bounds and stamps frames on the epoch.
 *
 * SKIPs (exit 77, saying why) without root, ip or ptp4l.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/net/gstptpclock.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net-common.h"

/* ptp4l's clock identity: the veth's MAC with FF-FE in the middle */
#define GM_MAC "02:00:5e:10:00:01"
#define GM_ID "02-00-5E-FF-FE-10-00-01"
#define DOMAIN 127
#define UTC_OFFSET 37
#define GROUP "239.78.0.1"
#define TX_OFFSET_NS 700000
/* 720p50: 20 ms frames, 540000 RTP ticks and 2970000 CF (148.5 MHz) ticks
 * a frame */
#define FPS 50
#define FRAMES 40
/* runs of the real-time bounds before failing: other tests' real-time
 * transmit threads (same SCHED_FIFO priority) can hold the CPU for tens
 * of ms on a small, loaded machine */
#define ATTEMPTS 5
#define VTS_PER_FRAME 2970000u
#define SYNC_TOLERANCE_NS 1000000

static gchar ns_a[32], ns_b[32], dev_a[16], dev_b[16], conf_path[64];
static GPid ptp4l_pid;

/* ptp4l dies with the test runner, however that ends (a timeout's kill
 * included) */
static void
ptp4l_child_setup (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

/* Unchecked fixture, in the test runner: namespaces, veth, and ptp4l as the
 * grandmaster of domain 127 in A */
static void
ptp_network_setup (void)
{
  const gchar *argv[] = { "ip", "netns", "exec", ns_a, "ptp4l", "-f",
    conf_path, "-q", NULL
  };
  gchar *conf;
  gboolean ok;
  GError *err = NULL;

  g_snprintf (ns_a, sizeof (ns_a), "vmiptpa%d", getpid ());
  g_snprintf (ns_b, sizeof (ns_b), "vmiptpb%d", getpid ());
  g_snprintf (dev_a, sizeof (dev_a), "vmipa%d", getpid () % 100000);
  g_snprintf (dev_b, sizeof (dev_b), "vmipb%d", getpid () % 100000);
  ok = net_netns_pair_add (ns_a, ns_b, dev_a, dev_b, GM_MAC, "10.78.0")
      /* PTP and the stream are multicast: a route for them on the veth */
      && net_sh ("ip -n %s route add 224.0.0.0/4 dev %s", ns_a, dev_a)
      && net_sh ("ip -n %s route add 224.0.0.0/4 dev %s", ns_b, dev_b);
  fail_unless (ok, "could not set up the network namespaces");

  /* ST 2059-2 message rates; masterOnly: never a slave; free_running:
   * never adjusts the clock whatever happens */
  g_snprintf (conf_path, sizeof (conf_path), "/tmp/vmi-ptp4l-%d.conf",
      getpid ());
  conf = g_strdup_printf ("[global]\ndomainNumber %d\npriority1 1\n"
      "free_running 1\ntime_stamping software\nlogSyncInterval -3\n"
      "logAnnounceInterval -2\nannounceReceiptTimeout 3\n"
      "logMinDelayReqInterval -3\nutc_offset %d\n[%s]\nmasterOnly 1\n",
      DOMAIN, UTC_OFFSET, dev_a);
  fail_unless (g_file_set_contents (conf_path, conf, -1, NULL));
  g_free (conf);
  fail_unless (g_spawn_async (NULL, (gchar **) argv, NULL,
          G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, ptp4l_child_setup,
          NULL, &ptp4l_pid, &err), "cannot start ptp4l: %s",
      err ? err->message : "");
}

static void
ptp_network_teardown (void)
{
  if (ptp4l_pid > 0) {
    kill (ptp4l_pid, SIGTERM);
    waitpid (ptp4l_pid, NULL, 0);
    ptp4l_pid = 0;
  }
  unlink (conf_path);
  net_netns_pair_del (ns_a, ns_b);
}

/* ---- the capture in namespace A ---- */

typedef struct
{
  guint32 rtp, vts;
  guint8 r;
  guint64 arrival_ns;           /* CLOCK_REALTIME */
} FirstDatagram;

typedef struct
{
  int fd;
  volatile gint stop;
  GArray *firsts;               /* FirstDatagram */
  guint64 datagrams;
} Capture;

#define CAP_BATCH 64

static gpointer
capture_thread (gpointer data)
{
  Capture *cap = data;
  static guint8 bufs[CAP_BATCH][1500];
  static guint8 ctl[CAP_BATCH][CMSG_SPACE (sizeof (struct timespec))];
  struct mmsghdr msgs[CAP_BATCH];
  struct iovec iov[CAP_BATCH];
  gboolean after_marker = FALSE;
  guint16 marker_seq = 0;
  struct timeval tv = { 0, 100000 };
  guint i;

  setsockopt (cap->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof (tv));
  while (!g_atomic_int_get (&cap->stop)) {
    int n;

    for (i = 0; i < CAP_BATCH; i++) {
      iov[i].iov_base = bufs[i];
      iov[i].iov_len = sizeof (bufs[i]);
      memset (&msgs[i].msg_hdr, 0, sizeof (msgs[i].msg_hdr));
      msgs[i].msg_hdr.msg_iov = &iov[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
      msgs[i].msg_hdr.msg_control = ctl[i];
      msgs[i].msg_hdr.msg_controllen = sizeof (ctl[i]);
    }
    n = recvmmsg (cap->fd, msgs, CAP_BATCH, MSG_WAITFORONE, NULL);
    for (i = 0; i < (guint) MAX (n, 0); i++) {
      const guint8 *d = bufs[i];
      guint16 seq = d[2] << 8 | d[3];
      struct cmsghdr *cm;

      cap->datagrams++;
      if (msgs[i].msg_len < 24)
        continue;
      /* a frame's first datagram: the one right after a marker */
      if (after_marker && seq == (guint16) (marker_seq + 1)) {
        FirstDatagram f = { 0 };

        f.rtp = (guint32) d[4] << 24 | d[5] << 16 | d[6] << 8 | d[7];
        f.r = d[12 + 2] >> 6;
        f.vts = (guint32) d[20] << 24 | d[21] << 16 | d[22] << 8 | d[23];
        for (cm = CMSG_FIRSTHDR (&msgs[i].msg_hdr); cm;
            cm = CMSG_NXTHDR (&msgs[i].msg_hdr, cm))
          if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_TIMESTAMPNS) {
            struct timespec ts;

            memcpy (&ts, CMSG_DATA (cm), sizeof (ts));
            f.arrival_ns = (guint64) ts.tv_sec * GST_SECOND + ts.tv_nsec;
          }
        if (f.arrival_ns)
          g_array_append_val (cap->firsts, f);
      }
      after_marker = (d[1] & 0x80) != 0;
      marker_seq = seq;
    }
  }
  return NULL;
}

static int
capture_socket (guint16 * port, gboolean join)
{
  struct sockaddr_in a = { 0 };
  struct ip_mreqn mr = { 0 };
  socklen_t len = sizeof (a);
  int one = 1, rcvbuf = 64 * 1024 * 1024;
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  fail_unless (fd >= 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof (rcvbuf));
  fail_unless (setsockopt (fd, SOL_SOCKET, SO_TIMESTAMPNS, &one,
          sizeof (one)) == 0);
  a.sin_family = AF_INET;
  a.sin_port = 0;
  a.sin_addr.s_addr = htonl (INADDR_ANY);
  fail_unless (bind (fd, (struct sockaddr *) &a, sizeof (a)) == 0);
  fail_unless (getsockname (fd, (struct sockaddr *) &a, &len) == 0);
  *port = ntohs (a.sin_port);
  if (!join)
    return fd;
  inet_pton (AF_INET, GROUP, &mr.imr_multiaddr);
  mr.imr_ifindex = if_nametoindex (dev_a);
  fail_unless (setsockopt (fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr,
          sizeof (mr)) == 0, "join: %s", g_strerror (errno));
  return fd;
}

/* ---- the epoch, written out independently of gst/pacing/vmi-epoch.c ---- */

/* the last frame whose alignment point (k / FPS s) is at or before t */
static guint64
frame_before (guint64 t_ns)
{
  return t_ns / (GST_SECOND / FPS);
}

static gint
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

typedef struct
{
  guint frames;
  guint off_grid;
  gint64 worst_ns;
} SrcProbe;

/* st2022src on PTP: the PTS is the instant the RTP timestamp names, as
 * running time; 720p50's alignment points are whole multiples of 20 ms
 * and its RTP steps (540000) name them exactly */
static GstPadProbeReturn
src_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  SrcProbe *p = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime t = GST_BUFFER_PTS (buf) +
      gst_element_get_base_time (GST_PAD_PARENT (pad));
  gint64 off = (gint64) (t % (GST_SECOND / FPS));

  /* the element maps its clock's RTP time to the pipeline's (two readings
   * of the one PTP domain clock, some 100 ns apart) */
  off = MIN (off, (gint64) (GST_SECOND / FPS) - off);
  if (off > 1000) {
    p->off_grid++;
    p->worst_ns = MAX (p->worst_ns, off);
  }
  p->frames++;
  return GST_PAD_PROBE_OK;
}

/* Parses @desc, takes its `sink` and bus, and sets it PLAYING */
static GstElement *
launch (const gchar * desc, GstElement ** sink, GstBus ** bus)
{
  GstElement *pipe = gst_parse_launch (desc, NULL);

  fail_unless (pipe != NULL, "cannot parse %s", desc);
  *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  *bus = gst_element_get_bus (pipe);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  return pipe;
}

/* the receiver's half of on_epoch_once() */
static gboolean
receiver_checks (guint attempt, GstStructure * stats, SrcProbe * probe,
    Capture * cap, GstBus * bus, GstElement * sink, GstElement * src,
    GstElement * pipe, gchar * sdp)
{
  gboolean in_bounds = TRUE;
  gdouble lat_min, lat_mean, lat_max;

  /* the receiver on the same PTP: latency = arrival of the first datagram
   * (when the element reads it) minus the instant the RTP timestamp names:
   * at least tx-offset, its least within 5 ms of it on a veth, the most
   * within 5 frame periods (a receive thread on a loaded machine reads
   * late; the kernel's arrival times are the capture's, checked above);
   * its frames stamped on the epoch. GstPtpClock's estimate of the
   * master's time moves when its path-delay samples are noisy (under
   * load it moved by 1 ms between two cases), and a move between the
   * sender's reading and the receiver's shifts every latency, so a run
   * out of either bound is reported and run again, bounds unchanged */
  fail_unless (stats != NULL);
  fail_unless (gst_structure_get_double (stats, "latency-min-us", &lat_min));
  fail_unless (gst_structure_get_double (stats, "latency-mean-us",
          &lat_mean));
  fail_unless (gst_structure_get_double (stats, "latency-max-us", &lat_max));
  g_printerr ("st2022src latency: min %.1f mean %.1f max %.1f us\n", lat_min,
      lat_mean, lat_max);
  fail_unless (lat_min <= lat_mean && lat_mean <= lat_max);
  if (lat_min < TX_OFFSET_NS / 1000.0
      || lat_min >= TX_OFFSET_NS / 1000.0 + 5000) {
    g_printerr ("attempt %u: latency-min-us %.1f (the bounds are %.1f and "
        "%.1f)%s\n", attempt, lat_min, TX_OFFSET_NS / 1000.0,
        TX_OFFSET_NS / 1000.0 + 5000, attempt < ATTEMPTS ?
        "; running again" : "");
    in_bounds = FALSE;
  }
  if (lat_max >= TX_OFFSET_NS / 1000.0 + 5e6 / FPS) {
    g_printerr ("attempt %u: latency-max-us %.1f (the bound is %.1f)%s\n",
        attempt, lat_max, TX_OFFSET_NS / 1000.0 + 5e6 / FPS,
        attempt < ATTEMPTS ? "; running again" : "");
    in_bounds = FALSE;
  }
  fail_unless (net_stat (stats, "frames") > 0);
  gst_structure_free (stats);
  fail_unless (probe->frames > 0);
  fail_unless_equals_int (probe->off_grid, 0);

  g_free (sdp);
  g_array_free (cap->firsts, TRUE);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipe);
  return in_bounds;
}

/* One run, the sender's datagrams captured or (@receiver) st2022src
 * receiving them; FALSE when only a real-time bound was missed (a loaded
 * machine delays the sender's thread, the veth or the receive thread): the
 * caller runs it again. */
static gboolean
on_epoch_once (gboolean receiver, guint attempt)
{
  gboolean in_bounds;
  Capture cap = { 0 };
  GThread *th;
  guint16 port;
  GstElement *pipe, *sink, *src;
  GstBus *bus;
  GstMessage *msg;
  GstStructure *stats = NULL;
  GstClock *clock;
  gchar *desc, *sdp = NULL, *line;
  GArray *delays;
  gint64 utc_offset_ns, median;
  guint i, r_bad = 0, rtp_bad = 0, vts_bad = 0, steps_bad = 0;
  gboolean saw_waiting = FALSE, saw_locked = FALSE;
  SrcProbe probe = { 0 };
  gboolean sync_ok;
  GstPad *pad;

  /* the capture lives in A; everything else in B */
  net_enter_netns (ns_a);
  /* (the receiver case keeps its port to itself: no capture) */
  cap.fd = capture_socket (&port, TRUE);
  cap.firsts = g_array_new (FALSE, FALSE, sizeof (FirstDatagram));
  net_enter_netns (ns_b);

  desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=%d ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=%d/1 ! "
      "st2022sink name=sink clock-source=ptp ptp-domain=%d tx-offset=%d "
      "host=" GROUP " port=%u multicast-iface=%s "
      "st2022src name=src clock-source=ptp ptp-domain=%d address=" GROUP
      " port=%u multicast-iface=%s ! fakesink sync=false async=false",
      FRAMES, FPS, DOMAIN, TX_OFFSET_NS, port, dev_b, DOMAIN, port, dev_b);
  if (receiver)
    close (cap.fd);
  else
    *strstr (desc, " st2022src") = '\0';
  th = receiver ? NULL : g_thread_new ("capture", capture_thread, &cap);
  pipe = launch (desc, &sink, &bus);
  g_free (desc);
  src = receiver ? gst_bin_get_by_name (GST_BIN (pipe), "src") : NULL;
  if (receiver) {
    pad = gst_element_get_static_pad (src, "src");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, src_probe, &probe,
        NULL);
    gst_object_unref (pad);
  }

  /* until the sink has sent every frame (its stats at EOS; st2022src
   * keeps the pipeline running): the lock messages on the way, no error */
  for (;;) {
    const GstStructure *s;

    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    fail_unless (msg != NULL, "the sink did not finish within 60 s");
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err;
      gchar *dbg;

      gst_message_parse_error (msg, &err, &dbg);
      fail ("error: %s (%s)", err->message, dbg);
    }
    s = gst_message_get_structure (msg);
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (sink)
        && gst_structure_has_name (s, "st2022-clock")) {
      const gchar *state = gst_structure_get_string (s, "state");

      if (g_strcmp0 (state, "waiting") == 0)
        saw_waiting = TRUE;
      if (g_strcmp0 (state, "synchronised") == 0) {
        saw_locked = TRUE;
        fail_unless_equals_string (gst_structure_get_string (s,
                "grandmaster-id"), GM_ID);
      }
    }
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (sink)
        && gst_structure_has_name (s, "st2022-stats")
        && net_stat (s, "frames") == FRAMES) {
      gst_message_unref (msg);
      break;
    }
    gst_message_unref (msg);
  }
  fail_unless (saw_waiting && saw_locked);

  /* the PTP time ptp4l serves: the host's CLOCK_REALTIME plus the offset
   * it applies, a whole number of seconds (with -S on CLOCK_REALTIME,
   * linuxptp 3.1 applies none: it serves the clock's reading as PTP time;
   * the UTC offset it announces would be 37) */
  clock = gst_element_get_clock (pipe);
  fail_unless (GST_IS_PTP_CLOCK (clock), "the pipeline does not run on PTP");
  utc_offset_ns = (gint64) gst_clock_get_time (clock) -
      g_get_real_time () * 1000;
  {
    gint64 whole = (utc_offset_ns + GST_SECOND / 2) / GST_SECOND * GST_SECOND;

    g_printerr ("PTP time - CLOCK_REALTIME: %+.6f s\n", utc_offset_ns / 1e9);
    fail_unless (ABS (utc_offset_ns - whole) < 100 * GST_MSECOND && (whole ==
            0 || whole == (gint64) UTC_OFFSET * GST_SECOND),
        "PTP time is CLOCK_REALTIME %+.6f s, neither + 0 nor + %d s",
        utc_offset_ns / 1e9, UTC_OFFSET);
    /* the slave's servo (software time stamps, path delays a loaded
     * machine inflates) may be disturbed: the frames are then judged
     * against a clock they were not sent on; such a run is repeated */
    sync_ok = ABS (utc_offset_ns - whole) < SYNC_TOLERANCE_NS;
    if (!sync_ok)
      g_printerr ("attempt %u: the GstPtpClock is %+.3f ms off the "
          "grandmaster's clock (its servo disturbed by the load)%s\n",
          attempt, (utc_offset_ns - whole) / 1e6, attempt < ATTEMPTS ?
          "; running again" : "");
    utc_offset_ns = whole;
  }
  gst_object_unref (clock);

  g_object_get (sink, "sdp", &sdp, NULL);
  if (receiver)
    g_object_get (src, "stats", &stats, NULL);
  g_usleep (100000);
  gst_element_set_state (pipe, GST_STATE_NULL);
  if (receiver)
    return receiver_checks (attempt, stats, &probe, &cap, bus, sink, src,
        pipe, sdp);
  g_atomic_int_set (&cap.stop, 1);
  g_thread_join (th);
  close (cap.fd);
  if (!sync_ok) {
    g_free (sdp);
    g_array_free (cap.firsts, TRUE);
    gst_object_unref (bus);
    gst_object_unref (sink);
    gst_object_unref (pipe);
    return FALSE;
  }

  /* every frame's first datagram the capture saw */
  GST_INFO ("captured %" G_GUINT64_FORMAT " datagrams, %u frame starts",
      cap.datagrams, cap.firsts->len);
  fail_unless (cap.firsts->len >= FRAMES * 3 / 4,
      "only %u of %d frame starts captured (%" G_GUINT64_FORMAT
      " datagrams)", cap.firsts->len, FRAMES, cap.datagrams);
  delays = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (i = 0; i < cap.firsts->len; i++) {
    const FirstDatagram *f = &g_array_index (cap.firsts, FirstDatagram, i);
    guint64 ptp = f->arrival_ns + utc_offset_ns;
    /* the capture clock and the element's GstPtpClock agree to within
     * SYNC_TOLERANCE_NS (the PTP servo on a veth, software time stamps);
     * the frame is the one of the last three alignment points before its
     * arrival whose RTP timestamp, floor (k / 50 s * 27 MHz) = 540000 k
     * mod 2^32, it carries (a frame late by more than a period, on a
     * loaded machine, then shows as late, not as a wrong timestamp; ci18
     * had one 4 periods late): the alignment points of the last second */
    guint64 k = frame_before (ptp - TX_OFFSET_NS + SYNC_TOLERANCE_NS);
    guint64 align;
    gint64 delay;
    guint back;

    for (back = 0; back <= FPS; back++)
      if (f->rtp == (guint32) ((k - back) * 540000)) {
        k -= back;
        break;
      }
    align = k * (GST_SECOND / FPS);
    delay = (gint64) (ptp - align - TX_OFFSET_NS);
    if (f->rtp != (guint32) (k * 540000)) {
      rtp_bad++;
      if (rtp_bad <= 3)
        g_printerr ("frame start at %" G_GUINT64_FORMAT ": RTP %u, the "
            "alignment point before it (frame %" G_GUINT64_FORMAT ") has %u\n",
            ptp, f->rtp, k, (guint32) (k * 540000));
    }
    if (f->vts != (guint32) (k * VTS_PER_FRAME))
      vts_bad++;
    if (f->r != 2)
      r_bad++;
    if (i > 0 && (guint32) (f->rtp - g_array_index (cap.firsts, FirstDatagram,
                i - 1).rtp) % 540000 != 0)
      steps_bad++;
    if (delay > GST_MSECOND)
      g_printerr ("frame start %u of %u: %.1f us after its alignment point "
          "+ tx-offset\n", i, cap.firsts->len, delay / 1e3);
    g_array_append_val (delays, delay);
  }
  g_array_sort (delays, cmp_i64);
  median = g_array_index (delays, gint64, delays->len / 2);
  GST_INFO ("first datagram after alignment point + tx-offset: min %"
      G_GINT64_FORMAT " median %" G_GINT64_FORMAT " max %" G_GINT64_FORMAT
      " ns", g_array_index (delays, gint64, 0), median,
      g_array_index (delays, gint64, delays->len - 1));
  g_printerr ("epoch: %u frame starts, leave after alignment + tx-offset: "
      "min %.1f median %.1f max %.1f us\n", delays->len,
      g_array_index (delays, gint64, 0) / 1e3, median / 1e3,
      g_array_index (delays, gint64, delays->len - 1) / 1e3);
  fail_unless_equals_int (rtp_bad, 0);
  fail_unless_equals_int (vts_bad, 0);
  fail_unless_equals_int (r_bad, 0);
  fail_unless_equals_int (steps_bad, 0);
  fail_unless (g_array_index (delays, gint64, 0) >= -SYNC_TOLERANCE_NS);
  /* a host that holds the sender off its core delays frames: the median
   * (under 1 ms) and the latest (under 5 ms) decide whether this run
   * counts; a run over either is reported and run again */
  in_bounds = median < GST_MSECOND &&
      g_array_index (delays, gint64, delays->len - 1) < 5 * GST_MSECOND;
  if (!in_bounds)
    g_printerr ("attempt %u: frames left %.1f ms (median) and %.1f ms "
        "(latest) after their alignment point + tx-offset (the bounds are "
        "1 ms and 5 ms)%s\n", attempt, median / 1e6,
        g_array_index (delays, gint64, delays->len - 1) / 1e6,
        attempt < ATTEMPTS ? "; running again" : "");
  g_array_free (delays, TRUE);

  /* the SDP names the grandmaster and the domain */
  fail_unless (sdp != NULL);
  line = g_strdup_printf ("a=ts-refclk:ptp=IEEE1588-2008:" GM_ID ":%d\r\n",
      DOMAIN);
  fail_unless (strstr (sdp, line) != NULL, "no '%s' in\n%s", line, sdp);
  fail_unless (strstr (sdp, "a=mediaclk:direct=0\r\n") != NULL, "%s", sdp);
  fail_unless (strstr (sdp, "localmac") == NULL, "%s", sdp);
  g_free (line);
  g_free (sdp);

  g_array_free (cap.firsts, TRUE);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return in_bounds;
}

GST_START_TEST (test_ptp_sender_on_epoch)
{
  gboolean ok = FALSE;
  guint attempt;

  for (attempt = 1; attempt <= ATTEMPTS && !ok; attempt++)
    ok = on_epoch_once (FALSE, attempt);
  fail_unless (ok, "frames left more than 1 ms (median) or 5 ms (latest) "
      "after their alignment point in %d runs", ATTEMPTS);
}

GST_END_TEST;

GST_START_TEST (test_ptp_receiver_latency)
{
  gboolean ok = FALSE;
  guint attempt;

  for (attempt = 1; attempt <= ATTEMPTS && !ok; attempt++)
    ok = on_epoch_once (TRUE, attempt);
  fail_unless (ok, "latency-min-us or latency-max-us out of bounds in %d "
      "runs", ATTEMPTS);
}

GST_END_TEST;

/* clock-source=tai on this host's own clock, untouched: the kernel's TAI
 * offset and sync state decide what the sink must say (a warning and R = 0
 * when CLOCK_TAI is not a disciplined TAI, R = 2 when it is), and every
 * frame is on the epoch of CLOCK_TAI (CLOCK_REALTIME + the kernel's TAI
 * offset), checked against a capture on loopback */
GST_START_TEST (test_tai_on_host_clock)
{
  Capture cap = { 0 };
  struct timex tx = { 0 };
  int st = adjtimex (&tx);
  gboolean disciplined = st != TIME_ERROR && !(tx.status & STA_UNSYNC)
      && tx.tai != 0;
  guint16 port;
  GstElement *pipe, *sink;
  GstBus *bus;
  GstMessage *msg;
  GThread *th;
  gchar *desc, *sdp = NULL;
  gboolean warned = FALSE, stated = FALSE;
  guint i, bad = 0, r_bad = 0;

  net_enter_netns (ns_b);
  cap.fd = capture_socket (&port, FALSE);
  cap.firsts = g_array_new (FALSE, FALSE, sizeof (FirstDatagram));
  desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=%d ! "
      "video/x-raw,format=UYVP,width=1280,height=720,framerate=%d/1 ! "
      "st2022sink name=sink clock-source=tai tx-offset=%d host=127.0.0.1 "
      "port=%u", FRAMES / 2, FPS, TX_OFFSET_NS, port);
  th = g_thread_new ("capture", capture_thread, &cap);
  pipe = launch (desc, &sink, &bus);
  g_free (desc);
  for (;;) {
    const GstStructure *s;

    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_EOS |
        GST_MESSAGE_ELEMENT);
    fail_unless (msg != NULL, "no EOS within 60 s");
    fail_unless (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      gst_message_unref (msg);
      break;
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      GError *err;

      gst_message_parse_warning (msg, &err, NULL);
      if (strstr (err->message, "clock-source=tai"))
        warned = TRUE;
      g_error_free (err);
    }
    s = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
        && gst_structure_has_name (s, "st2022-clock")) {
      fail_unless_equals_string (gst_structure_get_string (s,
              "clock-source"), "tai");
      fail_unless_equals_string (gst_structure_get_string (s, "state"),
          disciplined ? "synchronised" : "lost");
      stated = TRUE;
    }
    gst_message_unref (msg);
  }
  g_object_get (sink, "sdp", &sdp, NULL);
  g_usleep (100000);
  g_atomic_int_set (&cap.stop, 1);
  g_thread_join (th);
  close (cap.fd);
  gst_element_set_state (pipe, GST_STATE_NULL);

  fail_unless (warned == !disciplined, "kernel TAI offset %d, %s: warned %d",
      tx.tai, disciplined ? "synchronised" : "unsynchronised", warned);
  fail_unless (stated);
  fail_unless (strstr (sdp, "a=ts-refclk:ptp=IEEE1588-2008:traceable\r\n")
      && strstr (sdp, "a=mediaclk:direct=0\r\n"), "%s", sdp);
  fail_unless (cap.firsts->len >= FRAMES / 2 * 3 / 4);
  for (i = 0; i < cap.firsts->len; i++) {
    const FirstDatagram *f = &g_array_index (cap.firsts, FirstDatagram, i);
    /* CLOCK_TAI = CLOCK_REALTIME + the kernel's TAI offset, exactly: one
     * host, one clock, no servo */
    guint64 tai = f->arrival_ns + (guint64) tx.tai * GST_SECOND;
    guint64 k = frame_before (tai - TX_OFFSET_NS);

    /* its own alignment point's timestamp; a frame a loaded machine
     * delayed past the next alignment point carries the one before */
    if (f->rtp != (guint32) (k * 540000)
        && f->rtp != (guint32) ((k - 1) * 540000))
      bad++;
    if (f->r != (disciplined ? 2 : 0))
      r_bad++;
  }
  g_printerr ("tai: kernel TAI offset %d s, %s; %u frame starts\n", tx.tai,
      disciplined ? "synchronised" : "unsynchronised", cap.firsts->len);
  fail_unless_equals_int (bad, 0);
  fail_unless_equals_int (r_bad, 0);
  g_free (sdp);
  g_array_free (cap.firsts, TRUE);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
ptp_suite (void)
{
  Suite *s = suite_create ("net-ptp");
  TCase *tc = tcase_create ("ptp");

  tcase_set_timeout (tc, 120);
  tcase_add_unchecked_fixture (tc, ptp_network_setup, ptp_network_teardown);
  tcase_add_test (tc, test_ptp_sender_on_epoch);
  tcase_add_test (tc, test_ptp_receiver_latency);
  tcase_add_test (tc, test_tai_on_host_clock);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *ptp4l = g_find_program_in_path ("ptp4l");
  gchar *ip = g_find_program_in_path ("ip");
  gboolean can = geteuid () == 0 && ptp4l && ip;

  if (!can)
    g_print ("SKIP: needs root (network namespaces), ip and ptp4l "
        "(linuxptp; scripts/install-deps): %s\n", geteuid () != 0 ?
        "not root" : ptp4l ? "no ip" : "no ptp4l");
  g_free (ptp4l);
  g_free (ip);
  if (!can)
    return 77;
  gst_check_init (&argc, &argv);
  if (!gst_ptp_is_supported ()) {
    g_print ("SKIP: this GStreamer has no PTP support\n");
    return 77;
  }
  return gst_check_run_suite (ptp_suite (), "net-ptp", __FILE__);
}
