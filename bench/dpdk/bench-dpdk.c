/* gst-vmi benchmark: packets per second per core of the ST 2022-6 send
 * path (packetize + send_burst) and receive path (recv_burst + reassembly
 * into a raster) over a transport, through vmi-transport.h exactly as the
 * elements use it.
 *
 *   bench-dpdk tx <transport> <eal-args|host> <seconds>
 *   bench-dpdk rx <transport> <eal-args> <seconds>
 *
 * tx: 1080i59.94 frames back to back (no pacing) to 239.1.2.3:5004; dpdk
 *     on whatever port 0 of <eal-args> is (net_null0: the NIC costs
 *     nothing), socket to <eal-args> taken as the host. Per core = packets
 *     / CPU time of the sending thread.
 * rx: a producer thread (sending as above, on another core) feeds port 0
 *     (net_ring0 loops TX to RX; socket: 127.0.0.1 UDP) and this thread
 *     receives and reassembles. Per core = packets / (CPU time - time in
 *     empty polls): a busy poller is busy even when idle.
 *
 * Prints one line: "<mode> <transport> packets=<n> cpu_s=<t> mpps_per_core=<r>
 * ...". Not a test: timings on a shared machine are noise. */

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/vmi-transport.h"
#include "st2022/st2022.h"

#define GROUP "239.1.2.3"
#define BURST 64

static volatile gint stop;

static gdouble
thread_cpu (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
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

typedef struct
{
  VmiTransport *t;
  guint64 packets;
  gdouble cpu;
  gdouble seconds;              /* < 0: until stop */
} Sender;

static void
release_nothing (VmiTxFrame * f, gpointer u)
{
}

static gpointer
send_loop (gpointer data)
{
  Sender *s = data;
  const St2022Format *fmt = st2022_format_from_name ("1080i59.94");
  St2022PacketizerConfig pc;
  St2022Packetizer *p;
  guint n = fmt->datagrams_per_frame, i;
  guint8 *raster = g_malloc (fmt->frame_bytes);
  St2022Datagram *dg = g_new (St2022Datagram, n);
  struct iovec *iov = g_new (struct iovec, 2 * n);
  VmiTxDatagram *d = g_new0 (VmiTxDatagram, n);
  VmiTxFrame frame;
  GError *err = NULL;
  gdouble c0, end;
  guint32 rtp = 0;

  memset (raster, 0x5a, fmt->frame_bytes);
  st2022_packetizer_config_init (&pc);
  p = st2022_packetizer_new (fmt, &pc);
  /* the frame lives for the whole run: references only count */
  vmi_tx_frame_init (&frame, raster, fmt->frame_bytes, release_nothing,
      NULL);
  c0 = thread_cpu ();
  end = s->seconds > 0 ? mono () + s->seconds : 0;
  while (!g_atomic_int_get (&stop) && (end == 0 || mono () < end)) {
    guint done = 0;

    st2022_packetizer_begin_frame (p, raster, fmt->frame_bytes, rtp);
    rtp += 900900;
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
    while (done < n && !g_atomic_int_get (&stop)) {
      gint r = vmi_transport_send_burst (s->t, d + done, MIN (BURST,
              n - done), &err);
      if (r < 0) {
        g_printerr ("send: %s\n", err->message);
        exit (1);
      }
      done += r;
    }
    s->packets += done;
  }
  s->cpu = thread_cpu () - c0;
  st2022_packetizer_free (p);
  g_free (raster);
  g_free (dg);
  g_free (iov);
  g_free (d);
  return NULL;
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

int
main (int argc, char **argv)
{
  gboolean tx;
  gdouble seconds;
  Sender s = { 0 };

  if (argc != 5) {
    g_printerr ("usage: %s tx|rx <transport> <eal-args|host> <seconds>\n",
        argv[0]);
    return 2;
  }
  tx = g_strcmp0 (argv[1], "tx") == 0;
  seconds = g_ascii_strtod (argv[4], NULL);

  if (tx) {
    s.t = open_transport (VMI_TRANSPORT_DIR_SEND, argv[2], argv[3]);
    s.seconds = seconds;
    send_loop (&s);
    printf ("tx %s packets=%" G_GUINT64_FORMAT " cpu_s=%.3f "
        "mpps_per_core=%.3f\n", argv[2], s.packets, s.cpu,
        s.packets / s.cpu / 1e6);
    vmi_transport_close (s.t);
  } else {
    gboolean dpdk = g_strcmp0 (argv[2], "dpdk") == 0;
    VmiTransport *rx = open_transport (VMI_TRANSPORT_DIR_RECEIVE, argv[2],
        dpdk ? argv[3] : "127.0.0.1");
    const St2022Format *fmt = st2022_format_from_name ("1080i59.94");
    Receiver r = { {g_malloc (fmt->frame_bytes), g_malloc (fmt->frame_bytes)}
    };
    St2022Depacketizer *dp = st2022_depacketizer_new (&callbacks, &r);
    St2022DepacketizerStats st;
    VmiRxSlot slots[BURST];
    GError *err = NULL;
    GThread *th;
    gdouble c0, idle = 0, end;
    guint64 packets = 0;

    s.t = open_transport (VMI_TRANSPORT_DIR_SEND, argv[2], dpdk ? argv[3] :
        "127.0.0.1");
    s.seconds = -1;
    th = g_thread_new ("producer", send_loop, &s);
    c0 = thread_cpu ();
    end = mono () + seconds;
    while (mono () < end) {
      gdouble t0 = mono ();
      gint n = vmi_transport_recv_burst (rx, slots, BURST, 0, &err), i;

      if (n < 0) {
        g_printerr ("receive: %s\n", err->message);
        return 1;
      }
      if (n == 0) {
        idle += mono () - t0;
        continue;
      }
      for (i = 0; i < n; i++)
        st2022_depacketizer_push (dp, slots[i].data, slots[i].len, 0);
      packets += n;
    }
    c0 = thread_cpu () - c0;
    g_atomic_int_set (&stop, 1);
    g_thread_join (th);
    st2022_depacketizer_get_stats (dp, &st);
    printf ("rx %s packets=%" G_GUINT64_FORMAT " cpu_s=%.3f idle_s=%.3f "
        "mpps_per_core=%.3f frames=%" G_GUINT64_FORMAT " lost=%"
        G_GUINT64_FORMAT " producer_mpps_per_core=%.3f\n", argv[2], packets,
        c0, idle, packets / (c0 - idle) / 1e6, r.frames, st.packets_lost,
        s.packets / s.cpu / 1e6);
    st2022_depacketizer_free (dp);
    vmi_transport_close (rx);
    vmi_transport_close (s.t);
  }
  return 0;
}
