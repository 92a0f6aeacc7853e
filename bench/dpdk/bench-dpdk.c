/* gst-vmi benchmark: datagrams per CPU-second of the ST 2022-6 send path
 * (packetize + send_burst) and receive path (recv_burst + reassembly into
 * a raster) over a transport, through vmi-transport.h exactly as the
 * elements use it, on 1080p59.94 (4497 datagrams per frame).
 *
 *   bench-dpdk tx <transport> <eal-args|host> <seconds>
 *   bench-dpdk rx dpdk <eal-args> <seconds>
 *
 * tx: frames back to back (no pacing) to 239.1.2.3:5004; dpdk on port 0 of
 *     <eal-args> (net_null0: the device costs nothing but freeing the
 *     mbufs, as it does for dpdk-testpmd txonly), socket to <eal-args>
 *     taken as the host.
 * rx: port 0 of <eal-args> is a source that never runs dry (net_pcap with
 *     infinite_rx=1 replaying a valid stream to 239.1.2.3:5004): the
 *     receiver polls, filters and reassembles what it gets, as fast as it
 *     can, so its core is busy all the time.
 *
 * CPU is the calling thread's own (getrusage RUSAGE_THREAD: user +
 * system), so time the scheduler gave other processes on a shared core is
 * not counted. Prints one line: "<mode> <transport> packets=<n> cpu_s=<t>
 * mpps_per_cpu_s=<r> ...". Not a test: the figures are only meaningful
 * next to a baseline measured in the same run (bench/dpdk/dpdk-bench.sh). */

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport/vmi-transport.h"
#include "st2022/st2022.h"
#include "bench-cpu.h"

#define GROUP "239.1.2.3"
#define FORMAT "1080p59.94"
#define BURST 64

static gdouble
thread_cpu (void)
{
  return bench_cpu_seconds (RUSAGE_THREAD);
}

static gdouble
mono (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static VmiTransport *
open_transport (VmiTransportDirection dir, const gchar * kind,
    const gchar * arg)
{
  const VmiTransportClass *k = vmi_transport_lookup_by_name (kind);
  VmiTransportConfig cfg = { 0 };
  gboolean dpdk = g_strcmp0 (kind, "dpdk") == 0;
  GError *err = NULL;
  VmiTransport *t;

  if (k == NULL) {
    g_printerr ("no transport %s in this build\n", kind);
    exit (77);
  }
  cfg.direction = dir;
  cfg.address = dpdk ? GROUP : arg;
  cfg.port = 5004;
  cfg.ttl_mc = 1;
  cfg.buffer_size = 64 << 20;
  cfg.dpdk_eal_args = dpdk ? arg : NULL;
  t = k->open (&cfg, &err);
  if (t == NULL) {
    g_printerr ("cannot open %s: %s\n", kind, err->message);
    exit (1);
  }
  return t;
}

static void
release_nothing (VmiTxFrame * f, gpointer u)
{
}

static void
run_send (const gchar * kind, const gchar * arg, gdouble seconds)
{
  const St2022Format *fmt = st2022_format_from_name (FORMAT);
  VmiTransport *t = open_transport (VMI_TRANSPORT_DIR_SEND, kind, arg);
  St2022PacketizerConfig pc;
  St2022Packetizer *p;
  guint n = fmt->datagrams_per_frame, i;
  guint8 *raster = g_malloc (fmt->frame_bytes);
  St2022Datagram *dg = g_new (St2022Datagram, n);
  struct iovec *iov = g_new (struct iovec, 2 * n);
  VmiTxDatagram *d = g_new0 (VmiTxDatagram, n);
  VmiTxFrame frame;
  GError *err = NULL;
  gdouble c0, cpu, end;
  guint64 packets = 0;
  guint32 rtp = 0;

  memset (raster, 0x5a, fmt->frame_bytes);
  st2022_packetizer_config_init (&pc);
  p = st2022_packetizer_new (fmt, &pc);
  /* the frame lives for the whole run: references only count */
  vmi_tx_frame_init (&frame, raster, fmt->frame_bytes, release_nothing,
      NULL);
  c0 = thread_cpu ();
  end = mono () + seconds;
  while (mono () < end) {
    guint done = 0;

    st2022_packetizer_begin_frame (p, raster, fmt->frame_bytes, rtp);
    rtp += 1501;
    st2022_packetizer_next (p, dg, n);
    for (i = 0; i < n; i++) {
      iov[2 * i].iov_base = dg[i].header;
      iov[2 * i].iov_len = dg[i].header_len;
      iov[2 * i + 1].iov_base = (gpointer) dg[i].payload;
      iov[2 * i + 1].iov_len = dg[i].payload_len;
      d[i].iov = &iov[2 * i];
      d[i].n_iov = 2;
      d[i].frame = &frame;
    }
    while (done < n) {
      gint r = vmi_transport_send_burst (t, d + done, MIN (BURST, n - done),
          &err);
      if (r < 0) {
        g_printerr ("send: %s\n", err->message);
        exit (1);
      }
      done += r;
    }
    packets += done;
  }
  cpu = thread_cpu () - c0;
  printf ("tx %s format=%s packets=%" G_GUINT64_FORMAT " cpu_s=%.3f "
      "mpps_per_cpu_s=%.3f\n", kind, fmt->name, packets, cpu,
      packets / cpu / 1e6);
  vmi_transport_close (t);
  st2022_packetizer_free (p);
  g_free (raster);
  g_free (dg);
  g_free (iov);
  g_free (d);
}

typedef struct
{
  guint8 *rasters[2];
  guint next;
  guint64 frames;
} Receiver;

static gboolean
on_begin (gpointer u, const St2022Format * fmt, const St2022Header * h,
    St2022Target * t)
{
  Receiver *r = u;

  t->type = ST2022_TARGET_RASTER;
  t->data = r->rasters[r->next++ % 2];
  t->size = fmt->frame_bytes;
  return TRUE;
}

static void
on_end (gpointer u, St2022Target * t, const St2022FrameInfo * info)
{
  ((Receiver *) u)->frames++;
}

static const St2022DepacketizerCallbacks callbacks = { on_begin, on_end,
  NULL
};

static void
run_receive (const gchar * kind, const gchar * arg, gdouble seconds)
{
  VmiTransport *rx = open_transport (VMI_TRANSPORT_DIR_RECEIVE, kind, arg);
  const St2022Format *fmt = st2022_format_from_name (FORMAT);
  Receiver r = { {g_malloc (fmt->frame_bytes), g_malloc (fmt->frame_bytes)}
  };
  St2022Depacketizer *dp = st2022_depacketizer_new (&callbacks, &r);
  St2022DepacketizerStats st;
  VmiRxSlot slots[BURST];
  GError *err = NULL;
  gdouble c0, cpu, end;
  guint64 packets = 0, empty = 0;
  guint16 first_seq = 0;

  c0 = thread_cpu ();
  end = mono () + seconds;
  while (mono () < end) {
    gint n = vmi_transport_recv_burst (rx, slots, BURST, 0, &err), i;

    if (n < 0) {
      g_printerr ("receive: %s\n", err->message);
      exit (1);
    }
    if (n == 0)
      empty++;
    for (i = 0; i < n; i++) {
      guint16 seq = slots[i].len >= 4 ? (slots[i].data[2] << 8 |
          slots[i].data[3]) : 0;

      /* the replay starts the stream over (same sequence numbers and
       * timestamps again): start the depacketizer over too, as
       * st2022src's stream lock does when a sender restarts */
      if (packets + i == 0)
        first_seq = seq;
      else if (seq == first_seq)
        st2022_depacketizer_flush (dp);
      st2022_depacketizer_push (dp, slots[i].data, slots[i].len, 0);
    }
    packets += n;
  }
  cpu = thread_cpu () - c0;
  st2022_depacketizer_get_stats (dp, &st);
  /* empty polls mean the source ran dry: the figure is then the
   * source's, not the receiver's */
  printf ("rx %s format=%s packets=%" G_GUINT64_FORMAT " cpu_s=%.3f "
      "mpps_per_cpu_s=%.3f frames=%" G_GUINT64_FORMAT " lost=%"
      G_GUINT64_FORMAT " empty_polls=%" G_GUINT64_FORMAT "\n", kind,
      fmt->name, packets, cpu, packets / cpu / 1e6, r.frames,
      st.packets_lost, empty);
  st2022_depacketizer_free (dp);
  vmi_transport_close (rx);
  g_free (r.rasters[0]);
  g_free (r.rasters[1]);
}

int
main (int argc, char **argv)
{
  gdouble seconds;

  if (argc != 5 || (g_strcmp0 (argv[1], "tx") && g_strcmp0 (argv[1], "rx"))) {
    g_printerr ("usage: %s tx|rx <transport> <eal-args|host> <seconds>\n",
        argv[0]);
    return 2;
  }
  seconds = g_ascii_strtod (argv[4], NULL);
  if (g_strcmp0 (argv[1], "tx") == 0)
    run_send (argv[2], argv[3], seconds);
  else
    run_receive (argv[2], argv[3], seconds);
  return 0;
}
