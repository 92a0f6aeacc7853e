/* gst-vmi benchmark: where st2022src's receive time goes, piece by piece
 * (docs/benchmarks.md "DPDK receive", the decomposition). One process
 * polls net_ring0, fed by the generator of rx-gen.c (LD_PRELOAD, on the
 * other core), and runs in turn, one CPU slice each, a ladder of receive
 * loops, each the one before plus one piece of st2022src's own receive
 * code, called as the element calls it:
 *
 *   burst   rte_eth_rx_burst, a prefetch of each mbuf, rte_pktmbuf_free_bulk
 *   parse   + Ethernet/IPv4/UDP classification (vmi_rawnet_classify, the
 *           DPDK transport's, with its prefetch of each frame's first line
 *           4 frames ahead) and the RTP/HBRMT header parse
 *           (st2022_header_parse_cached)
 *   copy    + the payload streamed (st2022_copy_stream_held, as the
 *           depacketizer does) into its place in
 *           a raster-sized frame, 4 frames in rotation, the payload
 *           prefetched two datagrams ahead, a fence per frame: the floor,
 *           the least a receiver that copies once does
 *   lock    the same, with the stream lock (st2022_stream_lock_push, which
 *           parses the header) in place of the bare parse
 *   raster  + the depacketizer (st2022_depacketizer_push_parsed) writing a
 *           raster target (its bookkeeping, the same copy)
 *   uyvp    the depacketizer writing a UYVP picture (1920x1080, stride
 *           4800: the active picture only, one or two spans per datagram)
 *   blank   + the ANC side buffer with its blank_dirty map, one per frame,
 *           as st2022src gives the depacketizer (the blank fill compare)
 *
 * Every slice of a loop that keeps state starts it over (lock reset,
 * depacketizer flush), so each begins on a stream it has not seen; a slice
 * is long enough (about a quarter of a CPU-second) for that to vanish.
 *
 *   bench-rx-floor <cpu-seconds per slice> <rounds> <eal-args> [loop...]
 *
 * (default: all seven; "<loop>/0" runs a loop with VMI_RX_HOLD=0, the
 * payload copy holding no partial line back, st2022-copy.h)
 *
 * Prints one line per slice (loop, datagrams, ns of the thread's CPU per
 * datagram, the share of polls that found less than a burst), then per
 * loop min / median / max of ns per datagram over the rounds and the
 * median's step over the loop before it. CPU is the polling thread's own
 * (CLOCK_THREAD_CPUTIME_ID). Not a test; bench/dpdk/rx-floor.sh runs it
 * with the generator next to the whole element. */

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "st2022.h"
#include "st2022-copy.h"
#include "st2022-lock.h"
#include "vmi-rawnet.h"

#define BURST 64
#define FRAMES 4
#define PREFETCH_AHEAD 2
/* the DPDK transport's RX_PREFETCH */
#define HDR_AHEAD 4
#define MAX_ROUNDS 64
#define MAX_RUNS 32

typedef enum
{
  L_BURST, L_PARSE, L_COPY, L_LOCK, L_RASTER, L_UYVP, L_BLANK, N_LOOPS
} Loop;

static const char *const loop_names[N_LOOPS] = {
  "burst", "parse", "copy", "lock", "raster", "uyvp", "blank"
};

typedef struct
{
  const St2022Format *fmt;
  guint8 *frame[FRAMES], *side[FRAMES];
  guint32 *dirty[FRAMES];
  guint next;
  guint64 frames;
  Loop loop;
} Floor;

static gdouble
thread_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static gboolean
on_begin (gpointer u, const St2022Format * fmt, const St2022Header * h,
    St2022Target * t)
{
  Floor *f = u;
  guint i = f->next++ % FRAMES;

  t->data = f->frame[i];
  if (f->loop == L_RASTER) {
    t->type = ST2022_TARGET_RASTER;
    t->size = fmt->frame_bytes;
    return TRUE;
  }
  t->type = ST2022_TARGET_UYVP;
  t->stride = fmt->active_bytes;
  t->size = (gsize) fmt->height * fmt->active_bytes;
  if (f->loop == L_BLANK) {
    t->blank = f->side[i];
    t->blank_size = fmt->frame_bytes;
    t->blank_dirty = f->dirty[i];
  }
  return TRUE;
}

static void
on_end (gpointer u, St2022Target * t, const St2022FrameInfo * info)
{
  ((Floor *) u)->frames++;
}

static const St2022DepacketizerCallbacks callbacks = { on_begin, on_end,
  NULL
};

static int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static guint16
port_setup (void)
{
  struct rte_eth_conf conf = { 0 };
  struct rte_mempool *mp;
  guint16 port = 0;

  if (rte_eth_dev_count_avail () == 0) {
    g_printerr ("no DPDK port (give --vdev net_ring0)\n");
    exit (1);
  }
  /* the generator brings mbufs of its own: the queue's pool is idle */
  mp = rte_pktmbuf_pool_create ("floor", 1023, 0, 0,
      RTE_MBUF_DEFAULT_BUF_SIZE, (int) rte_socket_id ());
  if (mp == NULL || rte_eth_dev_configure (port, 1, 1, &conf) != 0
      || rte_eth_rx_queue_setup (port, 0, 512, (unsigned) rte_socket_id (),
          NULL, mp) != 0
      || rte_eth_tx_queue_setup (port, 0, 512, (unsigned) rte_socket_id (),
          NULL) != 0 || rte_eth_dev_start (port) != 0) {
    g_printerr ("cannot start port 0\n");
    exit (1);
  }
  return port;
}

int
main (int argc, char **argv)
{
  gchar **eal;
  gint eal_argc, i;
  gdouble slice, ns[MAX_RUNS][MAX_ROUNDS];
  guint rounds, round, n_run = 0, l;
  Loop run[MAX_RUNS];
  gboolean nohold[MAX_RUNS];
  Floor f = { 0 };
  St2022Depacketizer *dp;
  St2022StreamLock *lock;
  St2022HeaderCache hc = { 0 };
  St2022CopyHold hold = { 0 };
  VmiRawnetFilter filter = { 0 };
  guint16 port;
  GError *err = NULL;

  if (argc < 4) {
    g_printerr ("usage: %s <cpu-seconds per slice> <rounds> <eal-args> "
        "[loop...]\n", argv[0]);
    return 2;
  }
  slice = g_ascii_strtod (argv[1], NULL);
  rounds = CLAMP (atoi (argv[2]), 1, MAX_ROUNDS);
  for (i = 4; i < argc && n_run < MAX_RUNS; i++)
    for (l = 0; l < N_LOOPS; l++)
      if (g_str_has_prefix (argv[i], loop_names[l])
          && (argv[i][strlen (loop_names[l])] == 0
              || g_strcmp0 (argv[i] + strlen (loop_names[l]), "/0") == 0)) {
        nohold[n_run] = argv[i][strlen (loop_names[l])] != 0;
        run[n_run++] = (Loop) l;
      }
  if (n_run == 0)
    for (l = 0; l < N_LOOPS; l++) {
      nohold[n_run] = FALSE;
      run[n_run++] = (Loop) l;
    }
  if (!g_shell_parse_argv (argv[3], &eal_argc, &eal, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  {
    gchar **a = g_new0 (gchar *, eal_argc + 2);

    a[0] = g_strdup ("bench-rx-floor");
    memcpy (a + 1, eal, eal_argc * sizeof (gchar *));
    if (rte_eal_init (eal_argc + 1, a) < 0) {
      g_printerr ("EAL init failed\n");
      return 1;
    }
  }
  port = port_setup ();

  f.fmt = st2022_format_from_name ("1080p59.94");
  for (i = 0; i < FRAMES; i++) {
    /* page-aligned, as st2022src's frames (memfd, gst/pool) */
    f.frame[i] = g_aligned_alloc0 (1, f.fmt->frame_bytes, 4096);
    f.side[i] = g_aligned_alloc0 (1, f.fmt->frame_bytes, 4096);
    f.dirty[i] = g_new (guint32, (f.fmt->datagrams_per_frame + 31) / 32);
    memset (f.dirty[i], 0xff, (f.fmt->datagrams_per_frame + 31) / 32 * 4);
  }
  dp = st2022_depacketizer_new (&callbacks, &f);
  lock = st2022_stream_lock_new (4);
  st2022_stream_lock_set_depacketizer (lock, dp);
  /* st2022src's filter for rx-bench.sh's unicast streams */
  filter.local_ip = g_htonl (0x0a000002);
  filter.port = 5004;

  printf ("== rx-floor: %.2f CPU-s per slice x %u rounds, copy %s\n", slice,
      rounds, st2022_copy_stream_name ());
  for (round = 0; round < rounds; round++) {
    for (l = 0; l < n_run; l++) {
      Loop lp = run[l];
      struct rte_mbuf *m[BURST];
      guint64 dgrams = 0, polls = 0, short_polls = 0, frames0 = f.frames;
      guint idx = 0, fi = 0, checks = 0;
      guint8 *frame = f.frame[0];
      gdouble c0, c1;

      f.loop = lp;
      /* <loop>/0: the copy holds no partial line (st2022-copy.h) */
      g_setenv ("VMI_RX_HOLD", nohold[l] ? "0" : "1", TRUE);
      st2022_copy_stream_select (ST2022_COPY_AUTO);
      st2022_stream_lock_reset (lock);
      st2022_depacketizer_flush (dp);
      frames0 = f.frames;
      c0 = c1 = thread_cpu ();
      while (c1 - c0 < slice) {
        guint16 k = rte_eth_rx_burst (port, 0, m, BURST), j;
        const guint8 *pl[BURST];
        gsize len[BURST];

        polls++;
        if (k < BURST)
          short_polls++;
        for (j = 0; j < k; j++)
          rte_prefetch0 (m[j]);
        if (lp >= L_PARSE) {
          /* classify the whole burst first, its frames' first lines
           * asked for HDR_AHEAD ahead, as the DPDK transport does */
          for (j = 0; j < MIN (k, HDR_AHEAD); j++)
            rte_prefetch0 (rte_pktmbuf_mtod (m[j], void *));
          for (j = 0; j < k; j++) {
            guint32 src;

            if (j + HDR_AHEAD < k)
              rte_prefetch0 (rte_pktmbuf_mtod (m[j + HDR_AHEAD], void *));
            if (vmi_rawnet_classify (rte_pktmbuf_mtod (m[j], const guint8 *),
                    m[j]->pkt_len, &filter, &pl[j], &len[j],
                    &src) != VMI_RAWNET_RX_OURS)
              len[j] = 0;
          }
          for (j = 0; j < MIN (PREFETCH_AHEAD, k); j++)
            if (lp >= L_COPY)
              st2022_copy_prefetch (pl[j], len[j]);
        }
        for (j = 0; lp >= L_PARSE && j < k; j++) {
          St2022Header h;

          if (lp >= L_COPY && j + PREFETCH_AHEAD < k)
            st2022_copy_prefetch (pl[j + PREFETCH_AHEAD],
                len[j + PREFETCH_AHEAD]);
          if (len[j] == 0)
            continue;
          if (lp >= L_RASTER) {
            if (st2022_stream_lock_push (lock, pl[j], len[j], &h) ==
                ST2022_LOCK_ACCEPT)
              st2022_depacketizer_push_parsed (dp, pl[j], &h, 0);
            continue;
          }
          if (lp == L_LOCK) {
            if (st2022_stream_lock_push (lock, pl[j], len[j], &h) !=
                ST2022_LOCK_ACCEPT)
              continue;
          } else if (st2022_header_parse_cached (&hc, pl[j], len[j],
                  &h) != ST2022_OK)
            continue;
          if (lp < L_COPY)
            continue;
          /* datagram idx of the frame: the marker ends a frame */
          st2022_copy_stream_held (&hold, frame + (gsize) idx *
              ST2022_PAYLOAD_SIZE, pl[j] + h.header_len, h.marker ?
              f.fmt->last_payload_bytes : ST2022_PAYLOAD_SIZE);
          if (h.marker || ++idx == f.fmt->datagrams_per_frame) {
            st2022_copy_stream_release (&hold);
            st2022_copy_stream_fence ();
            idx = 0;
            frame = f.frame[++fi % FRAMES];
            f.frames++;
          }
        }
        rte_pktmbuf_free_bulk (m, k);
        dgrams += k;
        /* the clock is a system call: read it every 64 polls */
        if ((++checks & 63) == 0)
          c1 = thread_cpu ();
      }
      c1 = thread_cpu ();
      ns[l][round] = (c1 - c0) * 1e9 / MAX (dgrams, 1);
      printf ("rx-floor round=%u loop=%s%s datagrams=%" G_GUINT64_FORMAT
          " cpu_s=%.3f ns_per_datagram=%.1f mdgps_per_cpu_s=%.3f "
          "frames=%" G_GUINT64_FORMAT " short_polls=%.2f%%\n", round + 1,
          loop_names[lp], nohold[l] ? "/0" : "", dgrams, c1 - c0,
          ns[l][round],
          dgrams / MAX (c1 - c0, 1e-9) / 1e6, f.frames - frames0,
          100.0 * short_polls / MAX (polls, 1));
      fflush (stdout);
    }
  }
  {
    gdouble prev = 0;

    for (l = 0; l < n_run; l++) {
      gdouble v[MAX_ROUNDS], med;

      memcpy (v, ns[l], rounds * sizeof (gdouble));
      qsort (v, rounds, sizeof (gdouble), cmp_double);
      med = v[(rounds - 1) / 2];
      printf ("rx-floor loop=%s%s ns_per_datagram=%.1f/%.1f/%.1f "
          "(min/median/max) step=%+.1f mdgps_per_cpu_s=%.2f\n",
          loop_names[run[l]], nohold[l] ? "/0" : "", v[0], med, v[rounds - 1], l ? med - prev : med,
          1e3 / med);
      prev = med;
    }
  }
  rte_eth_dev_stop (port);
  st2022_depacketizer_free (dp);
  st2022_stream_lock_free (lock);
  return 0;
}
