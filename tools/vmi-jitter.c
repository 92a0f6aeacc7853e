/* gst-vmi: how much jitter does this host add? (vmi-jitter)
 *
 * The methodology of "Chasing Linux Jitter Sources for Uncompressed Video"
 * (thesis ch. 2) as a tool, see docs/jitter.md:
 *
 *   vmi-jitter dummy [--period-ns 7410] [--iterations N] [--cpu C]
 *     a loop that busy-waits one packet period and timestamps each
 *     iteration: the jitter no network stack causes;
 *   vmi-jitter sink [--transport socket|packet|dpdk] [--port P]
 *       [--address A] [--mode poll|block] [--count N] [--cpu C]
 *     a packet sink that timestamps each arriving datagram and drops it;
 *   common: --trace (kernel IRQ / NAPI / receive events next to the
 *     timestamps), --json FILE, --series FILE (ΔT in ns, one a line),
 *     --plot FILE.png (time series and CDF).
 *
 * The summary (count, mean, σ, p50/p99/p99.9, max, spikes) and the
 * receiver buffer b > 2 f J come from tools/vmi-jitter-stats.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>

#include "vmi-jitter-stats.h"
#include "vmi-jitter-trace.h"
#include "vmi-format.h"
#include "vmi-plot.h"
#include "vmi-rawnet.h"
#include "vmi-timing.h"
#include "vmi-transport.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

/* the 1080i59.94 packet period the papers use, rounded as they do */
#define DEFAULT_PERIOD_NS 7410

static gint64 opt_period_ns = 0;
static gint64 opt_iterations = 1000000;
static gint64 opt_count = 1000000;
static gint opt_cpu = -1;
static gint opt_priority = 0;
static gchar *opt_transport = NULL;
static gint opt_port = 5004;
static gchar *opt_address = NULL;
static gchar *opt_mode = NULL;
static gchar *opt_iface = NULL;
static gchar *opt_eal_args = NULL;
static gint opt_dpdk_port = 0;
static gint opt_idle_ms = 1000;
static gboolean opt_trace = FALSE;
static gchar *opt_trace_irq = NULL;
static gchar *opt_json = NULL;
static gchar *opt_series = NULL;
static gchar *opt_plot = NULL;
static gchar *opt_format = NULL;
static gdouble opt_threshold_ns = 0;

static GOptionEntry common_entries[] = {
  {"cpu", 0, 0, G_OPTION_ARG_INT, &opt_cpu,
      "Pin the measuring thread to core C (default: not pinned)", "C"},
  {"priority", 0, 0, G_OPTION_ARG_INT, &opt_priority,
      "Run the measuring thread at SCHED_FIFO priority N (1-99, root; "
        "default 0: the normal scheduler)", "N"},
  {"trace", 0, 0, G_OPTION_ARG_NONE, &opt_trace,
      "Record kernel IRQ, NAPI and receive events next to the timestamps "
        "(tracefs, root) and report the split", NULL},
  {"trace-irq", 0, 0, G_OPTION_ARG_STRING, &opt_trace_irq,
      "With --trace: only IRQs whose name matches GLOB (the NIC's)", "GLOB"},
  {"json", 0, 0, G_OPTION_ARG_FILENAME, &opt_json,
      "Write the summary as JSON to FILE ('-' = stdout)", "FILE"},
  {"series", 0, 0, G_OPTION_ARG_FILENAME, &opt_series,
      "Write the raw ΔT series (ns, one a line) to FILE", "FILE"},
  {"plot", 0, 0, G_OPTION_ARG_FILENAME, &opt_plot,
      "Draw the ΔT time series and its CDF into FILE.png", "FILE.png"},
  {"spike-threshold-ns", 0, 0, G_OPTION_ARG_DOUBLE, &opt_threshold_ns,
      "A spike is a ΔT above this (default: period + 5000)", "NS"},
  {"format", 0, 0, G_OPTION_ARG_STRING, &opt_format,
      "Size the receiver buffer for this ST 2022-6 format, e.g. 1080i59.94 "
        "(default: the measured series' own rate)", "NAME"},
  {"period-ns", 0, 0, G_OPTION_ARG_INT64, &opt_period_ns,
      "dummy: the busy-wait per iteration (default 7410); sink: the stream's "
        "packet period (default: --format's, else estimated)", "NS"},
  {NULL}
};

static GOptionEntry dummy_entries[] = {
  {"iterations", 0, 0, G_OPTION_ARG_INT64, &opt_iterations,
      "Iterations of the loop (default 1000000)", "N"},
  {NULL}
};

static GOptionEntry sink_entries[] = {
  {"transport", 0, 0, G_OPTION_ARG_STRING, &opt_transport,
      "socket (kernel UDP, default), packet (AF_PACKET) or dpdk", "T"},
  {"port", 0, 0, G_OPTION_ARG_INT, &opt_port,
      "UDP port (default 5004; socket: 0 binds a free one, printed)", "P"},
  {"address", 0, 0, G_OPTION_ARG_STRING, &opt_address,
      "Local address or multicast group (default 0.0.0.0)", "A"},
  {"mode", 0, 0, G_OPTION_ARG_STRING, &opt_mode,
      "poll (MSG_DONTWAIT loop, default) or block (recvfrom waits)", "M"},
  {"count", 0, 0, G_OPTION_ARG_INT64, &opt_count,
      "Datagrams to receive (default 1000000)", "N"},
  {"idle-ms", 0, 0, G_OPTION_ARG_INT, &opt_idle_ms,
      "Stop when the stream pauses this long (default 1000)", "MS"},
  {"iface", 0, 0, G_OPTION_ARG_STRING, &opt_iface,
      "packet: the interface; socket: the one to join multicast on; dpdk: "
        "the port's name (net_af_packet0); with --trace: only its events",
      "IFACE"},
  {"dpdk-eal-args", 0, 0, G_OPTION_ARG_STRING, &opt_eal_args,
      "dpdk: EAL arguments, e.g. \"--no-huge --no-pci --vdev=...\"", "ARGS"},
  {"dpdk-port", 0, 0, G_OPTION_ARG_INT, &opt_dpdk_port,
      "dpdk: the ethdev port (default 0)", "N"},
  {NULL}
};

static volatile sig_atomic_t stop_requested;

static void
on_signal (int sig)
{
  (void) sig;
  stop_requested = 1;
}

static inline guint64
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static gboolean
pin_cpu (gint cpu, GError ** error)
{
  cpu_set_t set;

  if (cpu < 0)
    return TRUE;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  if (sched_setaffinity (0, sizeof (set), &set) != 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
        "cannot pin to core %d: %s (see nproc and the cpuset)", cpu,
        g_strerror (errno));
    return FALSE;
  }
  return TRUE;
}

/* Real-time priority keeps other tasks off the measuring core the way
 * the papers' isolcpus did; best effort, with a word when refused. */
static void
set_priority (gint prio)
{
  struct sched_param sp = { 0 };

  if (prio <= 0)
    return;
  sp.sched_priority = CLAMP (prio, 1, 99);
  if (sched_setscheduler (0, SCHED_FIFO, &sp) != 0)
    fprintf (stderr, "vmi-jitter: SCHED_FIFO %d refused (%s): measuring "
        "at normal priority\n", sp.sched_priority, g_strerror (errno));
}

/* ---- sink: one datagram per receive, so ΔT is per datagram ---- */

typedef struct
{
  int fd, guard_fd;
  VmiTransport *transport;
  VmiRawnetFilter filter;
  gboolean poll;
  VmiSeqStats seq;              /* RTP sequence: what never arrived */
  gint64 ext;                   /* extended sequence, 0 = first datagram */
  guint16 last;
  gint64 group_pos;             /* ext of the first of the last group */
  guint32 *pos;                 /* per datagram: its place in the stream */
  /* packet: a virtio_net_hdr, then the frame (up to a 64 KiB GSO one) */
  guint8 buf[sizeof (struct virtio_net_hdr) + 65536 + 64];
} Sink;

static gboolean
parse_ipv4 (const gchar * s, struct in_addr *a, GError ** error)
{
  if (inet_pton (AF_INET, s, a) == 1)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
      "--address %s is not an IPv4 address", s);
  return FALSE;
}

/* A UDP socket on the port: for `socket` the receiver; for `packet` a
 * guard that takes nothing (a drop-all filter) so the kernel does not
 * answer the stream with ICMP port-unreachable. Joins a multicast group. */
static int
udp_open (struct in_addr addr, guint16 port, gboolean guard, GError ** error)
{
  struct sockaddr_in sa = { 0 };
  socklen_t len = sizeof (sa);
  int fd = socket (AF_INET, SOCK_DGRAM, 0), one = 1, sz = 32 << 20;
  gboolean mc = IN_MULTICAST (ntohl (addr.s_addr));

  if (fd < 0)
    goto failed;
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one));
  if (guard) {
    struct sock_filter drop = BPF_STMT (BPF_RET | BPF_K, 0);
    struct sock_fprog prog = { 1, &drop };
    setsockopt (fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof (prog));
  } else if (setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz,
          sizeof (sz)) != 0) {
    /* a full socket buffer would turn host jitter into loss */
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof (sz));
  }
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr = addr;
  if (bind (fd, (struct sockaddr *) &sa, sizeof (sa)) != 0)
    goto failed;
  if (mc) {
    struct ip_mreqn mr = { 0 };
    mr.imr_multiaddr = addr;
    mr.imr_ifindex = opt_iface ? (int) if_nametoindex (opt_iface) : 0;
    if (setsockopt (fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof (mr)))
      goto failed;
  }
  if (getsockname (fd, (struct sockaddr *) &sa, &len) == 0)
    opt_port = ntohs (sa.sin_port);
  return fd;

failed:
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
      "udp socket on %s:%u: %s", inet_ntoa (addr), port, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return -1;
}

static int
packet_open (const gchar * iface, GError ** error)
{
  struct sockaddr_ll sll = { 0 };
  int fd, one = 1, sz = 32 << 20;

  if (!iface) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "--transport packet needs --iface (the interface the stream "
        "arrives on)");
    return -1;
  }
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons (ETH_P_IP);
  sll.sll_ifindex = (int) if_nametoindex (iface);
  if (sll.sll_ifindex == 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
        "no interface %s (ip link)", iface);
    return -1;
  }
  fd = socket (AF_PACKET, SOCK_RAW, htons (ETH_P_IP));
  if (fd < 0 || bind (fd, (struct sockaddr *) &sll, sizeof (sll)) != 0) {
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
        "AF_PACKET socket on %s: %s%s", iface, g_strerror (errno),
        errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
    if (fd >= 0)
      close (fd);
    return -1;
  }
  if (setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof (sz)) != 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof (sz));
  /* on lo every frame passes twice, as sent and as received */
  setsockopt (fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof (one));
  /* lo and veth pass a UDP GSO burst (st2022sink on sockets) as one
   * frame: the header says how many datagrams it carries */
  if (setsockopt (fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof (one))) {
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
        "PACKET_VNET_HDR on %s: %s", iface, g_strerror (errno));
    close (fd);
    return -1;
  }
  return fd;
}

static gboolean
sink_open (Sink * s, GError ** error)
{
  struct in_addr addr;
  const gchar *tname = opt_transport ? opt_transport : "socket";

  s->fd = s->guard_fd = -1;
  if (!parse_ipv4 (opt_address ? opt_address : "0.0.0.0", &addr, error))
    return FALSE;
  if (opt_port < 0 || opt_port > 65535) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "--port %d is not a UDP port", opt_port);
    return FALSE;
  }
  if (g_str_equal (tname, "socket")) {
    s->fd = udp_open (addr, opt_port, FALSE, error);
    return s->fd >= 0;
  }
  if (opt_port == 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "--transport %s needs the stream's --port", tname);
    return FALSE;
  }
  if (g_str_equal (tname, "packet")) {
    s->fd = packet_open (opt_iface, error);
    if (s->fd < 0)
      return FALSE;
    s->guard_fd = udp_open (addr, opt_port, TRUE, error);
    if (s->guard_fd < 0)
      return FALSE;
    s->filter.port = opt_port;
    if (IN_MULTICAST (ntohl (addr.s_addr)))
      s->filter.group = addr.s_addr;
    else
      s->filter.local_ip = addr.s_addr;
    return TRUE;
  }
  if (g_str_equal (tname, "dpdk")) {
    /* the DPDK transport already hands over one mbuf per datagram */
    const VmiTransportClass *k = vmi_transport_lookup (VMI_TRANSPORT_KIND_DPDK);
    VmiTransportConfig c = { 0 };

    if (!k) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
          "this build has no DPDK transport: install DPDK (libdpdk-dev) "
          "and rebuild with -Ddpdk=enabled");
      return FALSE;
    }
    c.direction = VMI_TRANSPORT_DIR_RECEIVE;
    c.address = opt_address ? opt_address : "0.0.0.0";
    c.port = opt_port;
    c.iface = opt_iface;
    c.dpdk_eal_args = opt_eal_args;
    c.dpdk_port = opt_dpdk_port;
    s->transport = k->open (&c, error);
    return s->transport != NULL;
  }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
      "unknown --transport %s: socket, packet or dpdk", tname);
  return FALSE;
}

static void
sink_close (Sink * s)
{
  if (s->fd >= 0)
    close (s->fd);
  if (s->guard_fd >= 0)
    close (s->guard_fd);
  vmi_transport_close (s->transport);
}

/* Counts @k datagrams from @rtp on: the segments of a GSO burst carry
 * consecutive sequence numbers. Not RTP: not counted. */
static inline int
sink_track (Sink * s, const guint8 * rtp, gsize len, int k)
{
  if (G_LIKELY (len >= 4 && (rtp[0] >> 6) == 2)) {
    guint16 seq = (guint16) (rtp[2] << 8 | rtp[3]);
    int j;
    if (s->seq.started)
      s->ext += (gint16) (guint16) (seq - s->last);
    s->group_pos = s->ext;
    s->ext += k - 1;
    s->last = (guint16) (seq + k - 1);
    for (j = 0; j < k; j++)
      vmi_seq_stats_push (&s->seq, (guint16) (seq + j));
  } else {
    s->group_pos = s->ext;
    s->ext += k;
  }
  return k;
}

/* Datagrams of our stream received together (1, or a GSO frame's
 * count), nothing yet: 0, failure: -1. */
static inline int
sink_recv (Sink * s, GError ** error)
{
  ssize_t len;

  if (s->transport) {
    VmiRxSlot slot;
    int r = vmi_transport_recv_burst (s->transport, &slot, 1,
        s->poll ? 0 : (gint64) opt_idle_ms * 1000, error);
    return r > 0 ? sink_track (s, slot.data, slot.len, r) : r;
  }
  len = recv (s->fd, s->buf, sizeof (s->buf), s->poll ? MSG_DONTWAIT : 0);
  if (len < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
      return 0;
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
        "receive failed: %s", g_strerror (errno));
    return -1;
  }
  if (s->guard_fd >= 0) {
    const struct virtio_net_hdr *vh = (const struct virtio_net_hdr *) s->buf;
    const guint8 *payload;
    gsize plen;
    guint32 src;

    if ((gsize) len < sizeof (*vh))
      return 0;
    /* SOCK_RAW on ETH_P_IP hands over the Ethernet frame */
    if (vmi_rawnet_classify (s->buf + sizeof (*vh), len - sizeof (*vh),
            &s->filter, &payload, &plen, &src) != VMI_RAWNET_RX_OURS)
      return 0;
    if (vh->gso_type != VIRTIO_NET_HDR_GSO_NONE && vh->gso_size > 0)
      return sink_track (s, payload, vh->gso_size,
          (int) ((plen + vh->gso_size - 1) / vh->gso_size));
    return sink_track (s, payload, plen, 1);
  }
  return sink_track (s, s->buf, len, 1);
}

static gssize
run_sink (Sink * s, guint64 * ts, gsize n, GError ** error)
{
  gsize i = 0;
  guint64 idle_ns = (guint64) opt_idle_ms * 1000000;

  if (!s->poll && s->fd >= 0) {
    /* block: the stream's end is a receive timeout */
    struct timeval tv = { opt_idle_ms / 1000, (opt_idle_ms % 1000) * 1000 };
    setsockopt (s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof (tv));
  }
  while (i < n && !stop_requested) {
    int r = sink_recv (s, error);
    guint64 t = now_ns ();

    if (G_LIKELY (r > 0)) {
      /* datagrams that arrive together have one arrival time */
      for (gint64 p = s->group_pos; r > 0 && i < n; r--, p++) {
        s->pos[i] = (guint32) MAX (p, 0);
        ts[i++] = t;
      }
      continue;
    }
    if (r < 0)
      return -1;
    /* nothing: before the first datagram wait for ever (Ctrl-C stops) */
    if (i > 0 && t - ts[i - 1] >= idle_ns)
      break;
  }
  return i;
}

/* ---- output ---- */

static void
print_summary (FILE * f, const gchar * what, const VmiJitterSummary * s)
{
  fprintf (f, "%s\n", what);
  fprintf (f, "  ΔT samples        %" G_GSIZE_FORMAT "\n", s->count);
  fprintf (f, "  period T          %.1f ns (%s)\n", s->period_ns,
      s->period_estimated ? "estimated" : "given");
  fprintf (f, "  mean / σ          %.1f / %.1f ns\n", s->mean_ns, s->stddev_ns);
  fprintf (f, "  p50 / p99 / p99.9 %.1f / %.1f / %.1f ns\n", s->p50_ns,
      s->p99_ns, s->p999_ns);
  fprintf (f, "  min / max         %.1f / %.1f ns\n", s->min_ns, s->max_ns);
  fprintf (f, "  jitter J          %.1f ns (max |ΔT - T|)\n", s->jitter_ns);
  fprintf (f, "  spikes            %" G_GSIZE_FORMAT " above %.0f ns\n",
      s->spikes, s->spike_threshold_ns);
}

static void
json_summary (GString * j, const VmiJitterSummary * s)
{
  g_string_append_printf (j, "\"count\": %" G_GSIZE_FORMAT
      ", \"period_ns\": %.3f, \"period_estimated\": %s"
      ", \"mean_ns\": %.3f, \"stddev_ns\": %.3f, \"min_ns\": %.3f"
      ", \"p50_ns\": %.3f, \"p99_ns\": %.3f, \"p999_ns\": %.3f"
      ", \"max_ns\": %.3f, \"jitter_ns\": %.3f"
      ", \"spike_threshold_ns\": %.3f, \"spikes\": %" G_GSIZE_FORMAT,
      s->count, s->period_ns, s->period_estimated ? "true" : "false",
      s->mean_ns, s->stddev_ns, s->min_ns, s->p50_ns, s->p99_ns, s->p999_ns,
      s->max_ns, s->jitter_ns, s->spike_threshold_ns, s->spikes);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* nearest rank, as the ΔT percentiles */
static double
rank (const double *sorted, gsize m, double p)
{
  gsize r = (gsize) ceil (p / 100.0 * (double) m - 1e-9);
  return sorted[CLAMP (r, 1, m) - 1];
}

/* What the kernel saw of the same run: per-event-kind counts, the ΔT of
 * frames entering the stack (NIC / IRQ / softirq jitter), the delay from
 * there to the user-space timestamp (stack + scheduler), and for the
 * spikes of the user series what happened on the CPU during each. */
static void
trace_report (GString * j, FILE * out, GArray * evs, const double *t,
    const guint32 * pos, gsize n, guint64 t0, const VmiJitterSummary * us)
{
  GArray *net = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 counts[4] = { 0 };
  gsize i, k = 0, n_lat = 0, sp_irq = 0, sp_sched = 0, sp_none = 0;
  double *lat = g_new (double, n);
  VmiJitterSummary ks;
  gboolean have_k, per_datagram, dummy = pos == NULL;

  for (i = 0; i < evs->len; i++) {
    VmiJitterEvent *e = &g_array_index (evs, VmiJitterEvent, i);
    counts[e->kind]++;
    /* the stream's frames: up to the last timestamp, from at most 1 s
     * before the first (a receiver late at the start still finds the
     * stream's first frame; traffic long before it stays out) */
    if (e->kind == VMI_JITTER_EV_NET) {
      double v = e->ts_ns - (double) t0;
      if (v >= -1e9 && v <= t[n - 1])
        g_array_append_val (net, v);
    }
  }
  /* frames before a pause of 100 ms are not the stream (neighbour
   * discovery and the like, before it started) */
  while (net->len >= 2 && g_array_index (net, double, 1) -
      g_array_index (net, double, 0) > 1e8)
    g_array_remove_index (net, 0);
  /* Sink: when the stack saw one frame per datagram (no GSO), datagram
   * number p of the stream is the p-th frame and its delay is exact;
   * otherwise each timestamp is set against the latest frame before it, a
   * lower bound. */
  per_datagram = pos && net->len >= (gsize) pos[n - 1] + 1
      && net->len <= (gsize) pos[n - 1] + 1 + n / 100;
  for (i = 0; pos && i < n && net->len; i++) {
    if (per_datagram) {
      lat[n_lat++] = t[i] - g_array_index (net, double, pos[i]);
      continue;
    }
    while (k + 1 < net->len && g_array_index (net, double, k + 1) <= t[i])
      k++;
    if (g_array_index (net, double, k) <= t[i])
      lat[n_lat++] = t[i] - g_array_index (net, double, k);
  }
  /* dummy: its spikes explained by an IRQ or a context switch on the CPU
   * (a sink's spikes are mostly the stream's own gaps) */
  for (i = 0, k = 0; dummy && i + 1 < n; i++) {
    gboolean irq = FALSE, sched = FALSE;
    if (t[i + 1] - t[i] <= us->spike_threshold_ns)
      continue;
    while (k < evs->len
        && g_array_index (evs, VmiJitterEvent, k).ts_ns - t0 < t[i] - 1e3)
      k++;
    for (gsize q = k; q < evs->len; q++) {
      VmiJitterEvent *e = &g_array_index (evs, VmiJitterEvent, q);
      if (e->ts_ns - t0 > t[i + 1] + 1e3)
        break;
      if (opt_cpu >= 0 && e->cpu != opt_cpu)
        continue;
      irq |= e->kind == VMI_JITTER_EV_IRQ;
      sched |= e->kind == VMI_JITTER_EV_SCHED;
    }
    if (irq)
      sp_irq++;
    if (sched)
      sp_sched++;
    if (!irq && !sched)
      sp_none++;
  }

  g_string_append_printf (j, ", \"trace\": {\"available\": true"
      ", \"irq_events\": %" G_GUINT64_FORMAT ", \"napi_events\": %"
      G_GUINT64_FORMAT ", \"net_events\": %" G_GUINT64_FORMAT
      ", \"sched_events\": %" G_GUINT64_FORMAT,
      counts[VMI_JITTER_EV_IRQ], counts[VMI_JITTER_EV_NAPI],
      counts[VMI_JITTER_EV_NET], counts[VMI_JITTER_EV_SCHED]);
  fprintf (out, "kernel trace (1 µs resolution)\n");
  fprintf (out, "  events            irq %" G_GUINT64_FORMAT " napi %"
      G_GUINT64_FORMAT " netif_receive_skb %" G_GUINT64_FORMAT
      " sched_switch %" G_GUINT64_FORMAT "\n", counts[0], counts[1],
      counts[2], counts[3]);
  if (dummy) {
    g_string_append_printf (j, ", \"spikes_with_irq\": %" G_GSIZE_FORMAT
        ", \"spikes_with_switch\": %" G_GSIZE_FORMAT
        ", \"spikes_unexplained\": %" G_GSIZE_FORMAT, sp_irq, sp_sched,
        sp_none);
    fprintf (out, "  spikes            %" G_GSIZE_FORMAT " with an IRQ, %"
        G_GSIZE_FORMAT " with a context switch, %" G_GSIZE_FORMAT
        " with neither (SMI, hypervisor)%s\n", sp_irq, sp_sched, sp_none,
        opt_cpu < 0 ? " [not pinned: events of every CPU]" : "");
  }

  have_k = net->len >= 2 && vmi_jitter_summarize ((double *) net->data,
      net->len, us->period_estimated ? 0 : us->period_ns,
      us->spike_threshold_ns, us->stream_rate_hz, &ks);
  if (have_k) {
    g_string_append (j, ", \"kernel\": {");
    json_summary (j, &ks);
    g_string_append (j, "}");
    print_summary (out, "frames entering the stack (NIC, IRQ, softirq)",
        &ks);
  }
  if (n_lat) {
    double sum = 0, sq = 0, mean;
    for (i = 0; i < n_lat; i++)
      sum += lat[i];
    mean = sum / n_lat;
    for (i = 0; i < n_lat; i++)
      sq += (lat[i] - mean) * (lat[i] - mean);
    qsort (lat, n_lat, sizeof (double), cmp_double);
    g_string_append_printf (j, ", \"kernel_to_user\": {\"matched\": "
        "\"%s\", \"count\": %" G_GSIZE_FORMAT ", \"mean_ns\": %.3f"
        ", \"stddev_ns\": %.3f"
        ", \"p50_ns\": %.3f, \"p999_ns\": %.3f, \"max_ns\": %.3f}",
        per_datagram ? "per-datagram" : "latest-frame", n_lat,
        mean, sqrt (sq / n_lat), rank (lat, n_lat, 50), rank (lat, n_lat,
            99.9), lat[n_lat - 1]);
    fprintf (out, "stack → user (delay from netif_receive_skb to the "
        "timestamp, %s)\n  mean / σ          %.1f / %.1f ns\n"
        "  p50 / p99.9 / max %.1f / %.1f / %.1f ns over %" G_GSIZE_FORMAT
        " datagrams\n", per_datagram ? "each datagram's own frame" :
        "the latest frame before it: a lower bound", mean, sqrt (sq / n_lat),
        rank (lat, n_lat, 50),
        rank (lat, n_lat, 99.9), lat[n_lat - 1], n_lat);
  }
  g_string_append (j, "}");
  g_array_free (net, TRUE);
  g_free (lat);
}

static gboolean
write_outputs (const gchar * title, const double *t, gsize n,
    const VmiJitterSummary * s, GString * extra, GError ** error)
{
  GString *j;
  gsize i;
  gboolean ok = TRUE;

  print_summary (stdout, title, s);
  printf ("receiver buffer   b > 2 f J: %" G_GUINT64_FORMAT
      " datagrams = %.1f µs at %.1f datagrams/s\n", s->buffer_packets,
      s->buffer_us, s->stream_rate_hz);

  if (opt_series) {
    FILE *f = g_str_equal (opt_series, "-") ? stdout : fopen (opt_series, "w");
    if (!f) {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
          "cannot write %s: %s", opt_series, g_strerror (errno));
      return FALSE;
    }
    for (i = 0; i + 1 < n; i++)
      fprintf (f, "%.0f\n", t[i + 1] - t[i]);
    if (f != stdout && fclose (f) != 0)
      ok = FALSE;
  }
  if (opt_json) {
    j = g_string_new ("{\"mode\": ");
    g_string_append_printf (j, "\"%s\", ", title);
    if (g_str_equal (title, "sink"))
      g_string_append_printf (j, "\"transport\": \"%s\", \"recv_mode\": "
          "\"%s\", ", opt_transport ? opt_transport : "socket",
          opt_mode ? opt_mode : "poll");
    g_string_append_printf (j, "\"cpu\": %d, \"priority\": %d, ", opt_cpu,
        opt_priority);
    json_summary (j, s);
    g_string_append_printf (j, ", \"stream_rate_hz\": %.3f"
        ", \"buffer_packets\": %" G_GUINT64_FORMAT ", \"buffer_us\": %.3f",
        s->stream_rate_hz, s->buffer_packets, s->buffer_us);
    if (extra)
      g_string_append (j, extra->str);
    g_string_append (j, "}\n");
    if (g_str_equal (opt_json, "-"))
      fputs (j->str, stdout);
    else if (!g_file_set_contents (opt_json, j->str, -1, error))
      ok = FALSE;
    g_string_free (j, TRUE);
  }
  if (ok && opt_plot) {
    gchar *cap = g_strdup_printf ("%" G_GSIZE_FORMAT " ΔT: mean %.2f µs, "
        "σ %.2f µs, p99.9 %.2f µs, max %.1f µs, %" G_GSIZE_FORMAT
        " spikes > %.1f µs; buffer %" G_GUINT64_FORMAT " datagrams",
        s->count, s->mean_ns / 1e3, s->stddev_ns / 1e3, s->p999_ns / 1e3,
        s->max_ns / 1e3, s->spikes, s->spike_threshold_ns / 1e3,
        s->buffer_packets);
    gchar *head = g_strdup_printf ("vmi-jitter %s", title);
    ok = vmi_plot_jitter_png (opt_plot, head, cap, t, n, s->period_ns,
        s->spike_threshold_ns, error);
    g_free (cap);
    g_free (head);
  }
  return ok;
}

static gboolean
stream_rate (double *rate_hz, double *period_ns, GError ** error)
{
  guint64 ppf, num, den;

  *rate_hz = 0;
  if (!opt_format)
    return TRUE;
  if (!vmi_tools_format_lookup (opt_format, &ppf, &num, &den)) {
    gchar *names = vmi_tools_format_names ();
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "unknown --format %s; known: %s", opt_format, names);
    g_free (names);
    return FALSE;
  }
  *rate_hz = (double) ppf * (double) num / (double) den;
  if (*period_ns <= 0)
    *period_ns = 1e9 / *rate_hz;
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GOptionGroup *g;
  GError *err = NULL;
  gboolean dummy;
  guint64 *ts = NULL, t0;
  gssize got;
  gsize i, cap;
  double *t = NULL, period_ns, rate_hz;
  VmiJitterSummary sum;
  VmiJitterTrace *tr = NULL;
  GString *extra = g_string_new (NULL);
  Sink *sink = NULL;
  struct sigaction sa = { 0 };
  gint ret = 1;

  if (argc < 2 || (!g_str_equal (argv[1], "dummy")
          && !g_str_equal (argv[1], "sink"))) {
    fprintf (stderr, "usage: vmi-jitter dummy|sink [OPTION...] "
        "(vmi-jitter dummy --help)\n");
    return 2;
  }
  dummy = g_str_equal (argv[1], "dummy");
  ctx = g_option_context_new (dummy ? "dummy - the busy-wait loop" :
      "sink - the packet sink");
  g_option_context_set_summary (ctx, "How much jitter does this host add, "
      "and how big must a receiver buffer be? (docs/jitter.md)");
  g_option_context_add_main_entries (ctx, common_entries, NULL);
  g = g_option_group_new (argv[1], dummy ? "The dummy loop" :
      "The packet sink", "Options of this mode", NULL, NULL);
  g_option_group_add_entries (g, dummy ? dummy_entries : sink_entries);
  g_option_context_add_group (ctx, g);
  argv[1] = argv[0];
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    fprintf (stderr, "vmi-jitter: %s\n", err->message);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);

  period_ns = (double) opt_period_ns;
  if (!stream_rate (&rate_hz, &period_ns, &err))
    goto failed;
  if (dummy && period_ns <= 0)
    period_ns = DEFAULT_PERIOD_NS;
  cap = (gsize) (dummy ? opt_iterations : opt_count);
  if ((dummy ? opt_iterations : opt_count) < 2 || cap > 500000000) {
    g_set_error (&err, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "--%s must be between 2 and 500000000", dummy ? "iterations" :
        "count");
    goto failed;
  }
  if (!dummy) {
    if (opt_mode && !g_str_equal (opt_mode, "poll")
        && !g_str_equal (opt_mode, "block")) {
      g_set_error (&err, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
          "--mode %s: poll or block", opt_mode);
      goto failed;
    }
    sink = g_new0 (Sink, 1);
    sink->poll = !opt_mode || g_str_equal (opt_mode, "poll");
    if (!sink_open (sink, &err))
      goto failed;
    /* the stream may start now (scripts and tests wait for this line;
     * with --port 0 it is how they learn the port) */
    fprintf (stderr, "vmi-jitter: listening on udp port %d (%s)\n", opt_port,
        opt_transport ? opt_transport : "socket");
  }
  /* every page touched now, none in the loop */
  ts = g_new0 (guint64, cap);
  if (sink)
    sink->pos = g_new0 (guint32, cap);
  if (!pin_cpu (opt_cpu, &err))
    goto failed;
  set_priority (opt_priority);

  if (opt_trace) {
    gchar *why = NULL;
    tr = vmi_jitter_trace_start (opt_iface, opt_trace_irq, -1, &why);
    if (!tr) {
      fprintf (stderr, "vmi-jitter: --trace skipped: %s\n", why);
      g_string_append_printf (extra, ", \"trace\": {\"available\": false, "
          "\"reason\": \"%s\"}", why);
      g_free (why);
    }
  }
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);

  if (dummy)
    got = vmi_jitter_dummy_loop (ts, cap, (guint64) period_ns,
        &stop_requested);
  else
    got = run_sink (sink, ts, cap, &err);
  if (got < 0)
    goto failed;
  if (got < 2) {
    g_set_error (&err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
        "%s: %" G_GSSIZE_FORMAT " timestamps, nothing to measure",
        dummy ? "dummy" : "no stream received", got);
    goto failed;
  }

  t0 = ts[0];
  t = g_new (double, got);
  for (i = 0; i < (gsize) got; i++)
    t[i] = (double) (ts[i] - t0);
  g_clear_pointer (&ts, g_free);
  if (!vmi_jitter_summarize (t, got, period_ns, opt_threshold_ns, rate_hz,
          &sum)) {
    g_set_error (&err, G_IO_ERROR, G_IO_ERROR_FAILED,
        "the series spans no time");
    goto failed;
  }
  if (tr) {
    GArray *evs = vmi_jitter_trace_stop (tr);
    tr = NULL;
    trace_report (extra, stdout, evs, t, sink ? sink->pos : NULL, got, t0,
        &sum);
    g_array_free (evs, TRUE);
  }
  if (sink) {
    /* what never arrived: the RTP sequence's forward gaps; and the
     * stream's own period, which losses do not stretch as they stretch
     * the mean ΔT */
    double stream_pit = vmi_jitter_stream_period (t, sink->pos, got);

    g_string_append_printf (extra, ", \"seq_lost\": %" G_GUINT64_FORMAT
        ", \"seq_late\": %" G_GUINT64_FORMAT ", \"stream_pit_ns\": %.3f",
        sink->seq.lost, sink->seq.late, stream_pit);
    printf ("datagrams lost    %" G_GUINT64_FORMAT " (RTP sequence gaps), %"
        G_GUINT64_FORMAT " late or duplicate\n", sink->seq.lost,
        sink->seq.late);
    printf ("stream period     %.1f ns (least squares of each datagram's "
        "place in the stream against its time)\n", stream_pit);
  }
  if (!write_outputs (dummy ? "dummy" : "sink", t, got, &sum, extra, &err))
    goto failed;
  ret = 0;

failed:
  if (err) {
    fprintf (stderr, "vmi-jitter: %s\n", err->message);
    g_error_free (err);
  }
  if (tr)
    g_array_free (vmi_jitter_trace_stop (tr), TRUE);
  if (sink) {
    sink_close (sink);
    g_free (sink->pos);
    g_free (sink);
  }
  g_string_free (extra, TRUE);
  g_free (ts);
  g_free (t);
  return ret;
}
