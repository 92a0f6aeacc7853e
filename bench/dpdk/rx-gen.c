/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A receive source for benchmarks that is not the bottleneck: a generator
 * thread feeding a net_ring port with continuous ST 2022-6 streams, loaded
 * into any DPDK process with the EAL option `-d` (dpdk-testpmd rxonly and
 * st2022src alike, so both read the same source), by LD_PRELOAD or by
 * dlopen() before the EAL starts:
 *
 *   VMI_RXGEN_PCAP=frame.pcap VMI_RXGEN_CPU=0 LD_PRELOAD=.../libvmi-rxgen.so \
 *     dpdk-testpmd --no-huge --no-pci --vdev net_ring0
 *
 * The EAL refuses a `-d` library when any directory above it is
 * world-writable (a build under /tmp): LD_PRELOAD and dlopen() have no such
 * check (the tests dlopen it, dpdk_test_rxgen_load(); the benchmark
 * scripts preload it).
 *
 * The pcap holds one frame of datagrams of each of one or more streams,
 * interleaved datagram by datagram as on a wire (st2022sink writes them
 * through net_pcap, bench/dpdk/pcap-interleave.py merges them); a stream
 * is a destination address and port. Each datagram lives in mbufs of our
 * own, built once (as many copies of the frame as the queue below needs),
 * and the mbufs go round. Their pool has mempool handlers of our own
 * ("vmi_rxgen") and no per-core cache: once the mbufs are built, the
 * receiver's rte_pktmbuf_free() only counts them back, so the receiver
 * pays a ring dequeue and a non-atomic free of an mbuf whose header it
 * reads from a shared cache line, nothing else: no copy into a fresh mbuf
 * (net_pcap), no atomic reference drop. The generator rewrites an mbuf
 * once the receiver has freed it from its previous round (the receiver
 * frees in order). Per datagram it rewrites just the RTP sequence number,
 * RTP timestamp and FRCount, each stream's own, so every stream is
 * continuous (frames decode, sequence numbers wrap as on a wire). The
 * generator runs on its own core (VMI_RXGEN_CPU): per-thread CPU
 * accounting of the receiver leaves it out.
 *
 * Two modes:
 * - unpaced (default): the ring is kept full; the generator waits for
 *   room, so nothing is lost and the receiver's capacity is measured.
 * - paced (VMI_RXGEN_PACE=<frames per second>, "60000/1001" or "50"):
 *   one frame of every stream per frame period, at an even datagram rate
 *   timed by the TSC, in bursts of VMI_RXGEN_BURST (default 32), whether
 *   or not the receiver keeps up, as a wire delivers them. A receive queue
 *   of VMI_RXGEN_DEPTH datagrams (default 16384) stands for a NIC's
 *   descriptor ring: net_ring's own ring holds 1024, the rest wait in the
 *   generator and move to the ring as it drains; a datagram that finds
 *   the queue full is dropped and counted (lost=), as a NIC drops it. A
 *   generator that was off its own core sends what it owes at once; the
 *   queue then takes as many more (up to 3 depths) as an on-time receiver
 *   would have drained meanwhile, so that the generator's lateness
 *   (late_max_us) is not counted as the receiver's loss.
 *   16384 rides out 7.6 ms of a receiver off its core at 8 streams of
 *   1080p59.94 (2.16 M datagrams/s); a NIC's 4096 descriptors hold 1.9 ms
 *   of them (15 ms of one stream).
 *
 * Environment: VMI_RXGEN_PCAP (required; without it the library does
 * nothing), VMI_RXGEN_PORT (default net_ring0), VMI_RXGEN_CPU (default: not
 * pinned), VMI_RXGEN_FIFO (a SCHED_FIFO priority: net_ring's ring holds
 * 1024 datagrams, a fraction of a millisecond of work, so a generator that
 * a busy machine takes off its core for a time slice leaves the receiver
 * polling an empty ring; at real-time priority it sleeps whenever it has
 * nothing to do instead of spinning, as the kernel throttles a real-time
 * thread that spins for a second), VMI_RXGEN_PACE, VMI_RXGEN_BURST,
 * VMI_RXGEN_DEPTH (above), VMI_RXGEN_STATS (a file the generator rewrites
 * in place about every 10 ms and when it stops, one line padded to 255
 * characters: "sent=<n> full=<n> low=<n> lost=<n> late_max_us=<n>
 * stalls=<n> qmax=<n>"; sent counts the datagrams put on the wire (lost
 * ones included), full the waits for room (unpaced), low the bursts that
 * found the ring with less than one receive burst queued (a receiver that
 * may have polled an empty ring), late_max_us how late the generator
 * itself made a burst at worst (paced: a generator off its core), stalls
 * the waits for an mbuf the receiver still held, qmax the most datagrams
 * the queue held, paced).
 *
 * Not part of the plugin; net_ring's ring is single-producer: the receiver
 * must not transmit on the port (st2022src with a unicast address sends
 * only ARP replies, and nothing asks it here; a multicast group would send
 * IGMP reports, so the streams go to one unicast address, port by port). */

/* rte_prefetch0_write() is experimental in 22.11 */
#define ALLOW_EXPERIMENTAL_API
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#define GEN_BURST_MAX 256
#define GEN_MAX_STREAMS 64
/* the queue a late generator may fill, in depths (see "owed") */
#define GEN_QUEUE_SPARE 4
/* datagrams a receiver may hold besides its queue (its bursts) */
#define GEN_HELD 1024
/* Ethernet/IPv4/UDP, then RTP: sequence number, timestamp; HBRMT FRCount */
#define OFF_DST_IP 30
#define OFF_DST_PORT 36
#define OFF_RTP 42
#define OFF_SEQ (OFF_RTP + 2)
#define OFF_TS (OFF_RTP + 4)
#define OFF_FRCOUNT (OFF_RTP + 12 + 1)
/* RTP timestamp step per frame: 1080p59.94's at 27 MHz (receivers take
 * frames by sequence number and FRCount; the step only keeps it moving) */
#define TS_59_94 450450u

/* A datagram of the pcap as loaded, and its stream's datagrams a frame */
typedef struct
{
  uint32_t ts;
  uint16_t seq, per_frame;
  uint8_t fr;
} Meta;

typedef struct
{
  struct rte_mbuf **m;          /* copies x n, in pcap order */
  Meta *meta;                   /* n */
  unsigned n, copies, streams;
} Gen;

static volatile int gen_stop;

/* the pool's handlers: a plain stack while the mbufs are built, then
 * frees are only counted (the generator owns every mbuf for good) */
static struct
{
  void **stack;
  unsigned n;
  int armed;
  uint64_t freed;
} gp;

static int
gp_alloc (struct rte_mempool *mp)
{
  gp.stack = calloc (mp->size, sizeof (void *));
  return gp.stack ? 0 : -ENOMEM;
}

static void
gp_free (struct rte_mempool *mp)
{
  (void) mp;
  free (gp.stack);
  gp.stack = NULL;
}

static int
gp_enqueue (struct rte_mempool *mp, void *const *obj, unsigned n)
{
  (void) mp;
  if (__atomic_load_n (&gp.armed, __ATOMIC_RELAXED)) {
    /* release: the receiver is done with these mbufs */
    __atomic_add_fetch (&gp.freed, n, __ATOMIC_RELEASE);
    return 0;
  }
  memcpy (gp.stack + gp.n, obj, n * sizeof (void *));
  gp.n += n;
  return 0;
}

static int
gp_dequeue (struct rte_mempool *mp, void **obj, unsigned n)
{
  (void) mp;
  if (n > gp.n)
    return -ENOBUFS;
  gp.n -= n;
  memcpy (obj, gp.stack + gp.n, n * sizeof (void *));
  return 0;
}

static unsigned
gp_count (const struct rte_mempool *mp)
{
  (void) mp;
  return gp.n;
}

static const struct rte_mempool_ops gp_ops = {
  .name = "vmi_rxgen",
  .alloc = gp_alloc,
  .free = gp_free,
  .enqueue = gp_enqueue,
  .dequeue = gp_dequeue,
  .get_count = gp_count,
};

static unsigned
rd32 (const uint8_t * p, int swap)
{
  uint32_t v;

  memcpy (&v, p, 4);
  return swap ? __builtin_bswap32 (v) : v;
}

static unsigned
env_uint (const char *name, unsigned dflt)
{
  const char *v = getenv (name);

  return v && *v ? (unsigned) strtoul (v, NULL, 10) : dflt;
}

/* The datagrams of @path, each copied into @g->copies mbufs of a pool
 * made for them, with each stream's first sequence number, timestamp and
 * FRCount. @queue: datagrams the receive queue holds at most */
static int
load_pcap (const char *path, unsigned queue, Gen * g)
{
  FILE *f = fopen (path, "rb");
  uint8_t hdr[24], rec[16], *buf = NULL;
  uint32_t keys[GEN_MAX_STREAMS];
  unsigned counts[GEN_MAX_STREAMS], *stream = NULL;
  unsigned magic, len, maxlen = 0, i, c, k;
  struct rte_mempool *mp;
  long data;
  int swap;

  if (f == NULL || fread (hdr, 1, 24, f) != 24)
    goto bad;
  magic = rd32 (hdr, 0);
  swap = magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1;
  if (!swap && magic != 0xa1b2c3d4 && magic != 0xa1b23c4d)
    goto bad;
  /* first pass: how many, how long */
  data = ftell (f);
  while (fread (rec, 1, 16, f) == 16) {
    len = rd32 (rec + 8, swap);
    if (len < OFF_FRCOUNT + 1 || len > 9000 || fseek (f, len, SEEK_CUR) != 0)
      goto bad;
    maxlen = len > maxlen ? len : maxlen;
    g->n++;
  }
  if (g->n == 0 || fseek (f, data, SEEK_SET) != 0)
    goto bad;
  /* enough copies that an mbuf comes round again only after the queue
   * and the receiver's bursts have given it back */
  g->copies = (queue + GEN_HELD + GEN_BURST_MAX + g->n - 1) / g->n;
  mp = rte_pktmbuf_pool_create_by_ops ("vmi_rxgen", g->n * g->copies, 0, 0,
      (uint16_t) (RTE_PKTMBUF_HEADROOM + maxlen), (int) rte_socket_id (),
      "vmi_rxgen");
  g->m = calloc ((size_t) g->n * g->copies, sizeof (*g->m));
  g->meta = calloc (g->n, sizeof (*g->meta));
  stream = calloc (g->n, sizeof (*stream));
  buf = malloc (maxlen);
  if (mp == NULL || g->m == NULL || g->meta == NULL || stream == NULL
      || buf == NULL) {
    fprintf (stderr, "rx-gen: no memory for %u mbufs: %s\n",
        g->n * g->copies, rte_strerror (rte_errno));
    goto bad;
  }
  for (i = 0; i < g->n; i++) {
    uint32_t key;
    Meta *mt = &g->meta[i];

    if (fread (rec, 1, 16, f) != 16)
      goto bad;
    len = rd32 (rec + 8, swap);
    if (fread (buf, 1, len, f) != len)
      goto bad;
    for (c = 0; c < g->copies; c++) {
      struct rte_mbuf *m = rte_pktmbuf_alloc (mp);
      char *d = m ? rte_pktmbuf_append (m, (uint16_t) len) : NULL;

      if (d == NULL)
        goto bad;
      memcpy (d, buf, len);
      g->m[c * g->n + i] = m;
    }
    /* its stream: destination address and port */
    key = (uint32_t) buf[OFF_DST_IP + 2] << 24 | buf[OFF_DST_IP + 3] << 16 |
        buf[OFF_DST_PORT] << 8 | buf[OFF_DST_PORT + 1];
    key ^= (uint32_t) buf[OFF_DST_IP] << 8 | buf[OFF_DST_IP + 1];
    for (k = 0; k < g->streams && keys[k] != key; k++);
    if (k == g->streams) {
      if (k == GEN_MAX_STREAMS) {
        fprintf (stderr, "rx-gen: more than %d streams\n", GEN_MAX_STREAMS);
        goto bad;
      }
      keys[k] = key;
      counts[k] = 0;
      g->streams++;
    }
    counts[k]++;
    stream[i] = k;
    mt->seq = (uint16_t) (buf[OFF_SEQ] << 8 | buf[OFF_SEQ + 1]);
    mt->ts = (uint32_t) buf[OFF_TS] << 24 | buf[OFF_TS + 1] << 16 |
        buf[OFF_TS + 2] << 8 | buf[OFF_TS + 3];
    mt->fr = buf[OFF_FRCOUNT];
  }
  for (i = 0; i < g->n; i++)
    g->meta[i].per_frame = (uint16_t) counts[stream[i]];
  fclose (f);
  free (stream);
  free (buf);
  return 0;

bad:
  fprintf (stderr, "rx-gen: cannot read the pcap %s\n", path);
  if (f)
    fclose (f);
  free (stream);
  free (buf);
  return -1;
}

typedef struct
{
  uint64_t sent, full, low, lost, late_max, stalls, qmax;
} Counts;

/* The counts into @fd, in place: a rename would have the file system
 * flush the data first (ext4 does on a rename over a file), and the
 * generator would wait on the disk. A fixed-size line, so a reader sees
 * one whole line */
static void
write_stats (int fd, const Counts * c)
{
  char line[256];
  int n;

  if (fd < 0)
    return;
  n = snprintf (line, sizeof (line), "sent=%llu full=%llu low=%llu lost=%llu "
      "late_max_us=%llu stalls=%llu qmax=%llu", (unsigned long long) c->sent,
      (unsigned long long) c->full, (unsigned long long) c->low,
      (unsigned long long) c->lost, (unsigned long long) c->late_max,
      (unsigned long long) c->stalls, (unsigned long long) c->qmax);
  memset (line + n, ' ', sizeof (line) - 1 - n);
  line[sizeof (line) - 1] = '\n';
  if (pwrite (fd, line, sizeof (line), 0) != (ssize_t) sizeof (line))
    return;
}

/* nothing to do for @us: a real-time generator sleeps (it would hold its
 * core from everyone else, and the kernel throttles a real-time thread
 * that spins), another spins */
static void
gen_wait (int fifo, unsigned us)
{
  if (fifo) {
    struct timespec ts = { 0, (long) us * 1000 };
    nanosleep (&ts, NULL);
  } else {
    rte_pause ();
  }
}

/* frames per second "N/D" or "F" (0: unpaced) */
static double
parse_fps (const char *v)
{
  double n, d = 1;

  if (v == NULL || *v == 0)
    return 0;
  n = strtod (v, (char **) &v);
  if (*v == '/')
    d = strtod (v + 1, NULL);
  return d > 0 && n > 0 ? n / d : 0;
}

static void *
gen_thread (void *arg)
{
  const char *pcap = getenv ("VMI_RXGEN_PCAP");
  const char *pname = getenv ("VMI_RXGEN_PORT");
  const char *stats_path = getenv ("VMI_RXGEN_STATS");
  int stats = -1;
  double fps = parse_fps (getenv ("VMI_RXGEN_PACE"));
  unsigned burst = env_uint ("VMI_RXGEN_BURST", 32);
  unsigned depth = env_uint ("VMI_RXGEN_DEPTH", 16384);
  char rname[RTE_RING_NAMESIZE];
  struct rte_eth_link link;
  struct rte_ring *r;
  struct rte_mbuf **fifo = NULL;
  unsigned fmask = 0, fhead = 0, ftail = 0;
  uint16_t port;
  Gen g = { 0 };
  Counts c = { 0 };
  uint64_t skipped = 0, next_stats, t0 = 0, hz, sent_total;
  double dg_cycles = 0;
  unsigned idx = 0, polls = 0, mi = 0, ringcap;
  uint32_t round = 0;
  int rt = getenv ("VMI_RXGEN_FIFO") && atoi (getenv ("VMI_RXGEN_FIFO"));

  (void) arg;
  pname = pname && *pname ? pname : "net_ring0";
  burst = burst < 1 ? 1 : burst > GEN_BURST_MAX ? GEN_BURST_MAX : burst;
  /* the EAL is up and the port started once its link is up */
  for (;;) {
    if (gen_stop)
      return NULL;
    memset (&link, 0, sizeof (link));
    if (rte_eth_dev_get_port_by_name (pname, &port) == 0
        && rte_eth_link_get_nowait (port, &link) == 0
        && link.link_status == RTE_ETH_LINK_UP)
      break;
    usleep (10000);
  }
  rte_thread_register ();
  snprintf (rname, sizeof (rname), "ETH_RXTX0_%s", pname);
  r = rte_ring_lookup (rname);
  if (r == NULL) {
    fprintf (stderr, "rx-gen: no ring %s\n", rname);
    return NULL;
  }
  ringcap = rte_ring_get_capacity (r);
  if (fps == 0)
    depth = ringcap;
  depth = depth < ringcap ? ringcap : depth;
  if (load_pcap (pcap, fps > 0 ? depth * GEN_QUEUE_SPARE : depth, &g) != 0)
    return NULL;
  if (fps > 0) {
    /* the datagrams the ring cannot take yet: the rest of the queue */
    for (fmask = 1; fmask < depth * GEN_QUEUE_SPARE; fmask <<= 1);
    fifo = calloc (fmask, sizeof (*fifo));
    fmask--;
    if (fifo == NULL)
      return NULL;
  }
  __atomic_store_n (&gp.armed, 1, __ATOMIC_RELEASE);
  fprintf (stderr, "rx-gen: %u datagrams of %u stream(s) a frame from %s "
      "onto %s, %s", g.n, g.streams, pcap, pname, fps > 0 ? "paced" :
      "unpaced\n");
  hz = rte_get_timer_hz ();
  if (fps > 0) {
    dg_cycles = (double) hz / (fps * g.n);
    fprintf (stderr, " at %.0f datagrams/s in bursts of %u, queue %u\n",
        fps * g.n, burst, depth);
  }
  if (stats_path && *stats_path)
    stats = open (stats_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  next_stats = rte_get_timer_cycles ();
  t0 = next_stats;
  if (fps > 0) {
    /* the clock starts with the receiver: fill the ring, and start once
     * it has taken the first datagrams (a receiver still starting up is
     * not one that loses them) */
    unsigned k;

    /* round 0: the datagrams as loaded */
    for (k = 0; k < ringcap && k < g.n && !gen_stop; k++) {
      if (rte_ring_sp_enqueue (r, g.m[mi]) != 0)
        break;
      c.sent++;
      if (++idx == g.n) {
        idx = 0;
        round++;
      }
      if (++mi == g.n * g.copies)
        mi = 0;
    }
    while (!gen_stop && rte_ring_count (r) >= c.sent) {
      memset (&link, 0, sizeof (link));
      if (rte_eth_link_get_nowait (port, &link) != 0
          || link.link_status != RTE_ETH_LINK_UP)
        gen_stop = 1;
      usleep (100);
    }
    t0 = rte_get_timer_cycles () - (uint64_t) (c.sent * dg_cycles);
  }

  while (!gen_stop) {
    struct rte_mbuf *b[GEN_BURST_MAX];
    uint64_t now = rte_get_timer_cycles ();
    unsigned k, queued = rte_ring_count (r), room, nb = 0, fcount;

    /* a stopped port (the receiver closing, the EAL about to go) ends
     * the generator: its ring and mbufs go with the EAL */
    if ((++polls & 1023) == 0 || queued == ringcap) {
      memset (&link, 0, sizeof (link));
      if (rte_eth_link_get_nowait (port, &link) != 0
          || link.link_status != RTE_ETH_LINK_UP)
        break;
    }
    if (now >= next_stats) {
      write_stats (stats, &c);
      next_stats = now + hz / 100;
    }
    fcount = ftail - fhead;
    if (fps > 0) {
      /* due: the bursts whose time has come */
      uint64_t due = (uint64_t) ((double) (now - t0) / dg_cycles);

      /* top the ring up from the queue */
      if (fcount > 0) {
        unsigned n1 = fcount, start = fhead & fmask, done;

        if (start + n1 > fmask + 1)
          n1 = fmask + 1 - start;
        done = rte_ring_sp_enqueue_burst (r, (void **) fifo + start, n1,
            NULL);
        fhead += done;
        fcount -= done;
        queued += done;
      }
      if (c.sent + burst > due) {
        unsigned us;

        us = (unsigned) (((c.sent + burst) * dg_cycles - (double) (now -
                    t0)) * 1e6 / (double) hz);
        /* the ring drains while we sleep: come back before it is empty */
        if (ftail != fhead && us > 20)
          us = 20;
        gen_wait (rt, us > 10 ? us - 10 : 1);
        continue;
      }
      {
        uint64_t late = (uint64_t) ((double) (now - t0) -
            (double) (c.sent + burst) * dg_cycles) * 1000000 / hz;
        if (late > c.late_max)
          c.late_max = late;
      }
      {
        /* a generator off its core for a while sends what it owes at
         * once: meanwhile a receiver on time would have taken as many
         * from a NIC's queue, so they do not count against it */
        uint64_t owed = due - c.sent - burst;
        unsigned limit = depth + (unsigned) (owed < (uint64_t) depth *
            (GEN_QUEUE_SPARE - 1) ? owed : (uint64_t) depth *
            (GEN_QUEUE_SPARE - 1));

        room = fcount + queued >= limit ? 0 : limit - fcount - queued;
      }
      if (fcount + queued > c.qmax)
        c.qmax = fcount + queued;
    } else {
      /* wait for room for a whole burst: fewer, larger enqueues */
      if (rte_ring_free_count (r) < burst) {
        c.full++;
        gen_wait (rt, 20);
        continue;
      }
      room = burst;
    }
    if (queued < 64)
      c.low++;
    /* the mbufs of this burst, of the round before, are free again */
    sent_total = c.sent + burst;
    if (sent_total > (uint64_t) g.n * g.copies
        && __atomic_load_n (&gp.freed, __ATOMIC_ACQUIRE) + skipped <
        sent_total - (uint64_t) g.n * g.copies) {
      c.stalls++;
      gen_wait (rt, 20);
      continue;
    }
    for (k = 0; k < burst; k++) {
      struct rte_mbuf *m = g.m[mi];
      const Meta *mt = &g.meta[idx];

      if (k < room) {
        uint8_t *p = rte_pktmbuf_mtod (m, uint8_t *);
        uint16_t seq = (uint16_t) (mt->seq + round * mt->per_frame);
        uint32_t ts = mt->ts + round * TS_59_94;

        p[OFF_SEQ] = (uint8_t) (seq >> 8);
        p[OFF_SEQ + 1] = (uint8_t) seq;
        p[OFF_TS] = (uint8_t) (ts >> 24);
        p[OFF_TS + 1] = (uint8_t) (ts >> 16);
        p[OFF_TS + 2] = (uint8_t) (ts >> 8);
        p[OFF_TS + 3] = (uint8_t) ts;
        p[OFF_FRCOUNT] = (uint8_t) (mt->fr + round);
        b[nb++] = m;
      } else {
        /* the queue is full: the wire's loss; the mbuf is free */
        c.lost++;
        skipped++;
      }
      if (++idx == g.n) {
        idx = 0;
        round++;
      }
      if (++mi == g.n * g.copies)
        mi = 0;
      /* the next round's lines, two bursts ahead */
      {
        unsigned i = mi + 2 * burst;

        i = i < g.n * g.copies ? i : i - g.n * g.copies;
        rte_prefetch0_write (rte_pktmbuf_mtod (g.m[i], uint8_t *) + OFF_RTP);
      }
    }
    c.sent += burst;
    if (fps > 0) {
      /* behind what waits in the queue, in order */
      for (k = 0; k < nb; k++)
        fifo[ftail++ & fmask] = b[k];
    } else {
      unsigned done = 0;

      while (done < nb && !gen_stop)
        done += rte_ring_sp_enqueue_burst (r, (void **) b + done,
            nb - done, NULL);
    }
  }
  write_stats (stats, &c);
  if (stats >= 0)
    close (stats);
  free (fifo);
  return NULL;
}

static pthread_t gen_tid;
static int gen_started;

__attribute__((constructor))
     static void gen_init (void)
{
  const char *cpu = getenv ("VMI_RXGEN_CPU");

  if (getenv ("VMI_RXGEN_PCAP") == NULL)
    return;
  rte_mempool_register_ops (&gp_ops);
  if (pthread_create (&gen_tid, NULL, gen_thread, NULL) != 0)
    return;
  gen_started = 1;
  pthread_setname_np (gen_tid, "rxgen");
  if (getenv ("VMI_RXGEN_FIFO") && atoi (getenv ("VMI_RXGEN_FIFO")) > 0) {
    struct sched_param sp = { 0 };

    sp.sched_priority = atoi (getenv ("VMI_RXGEN_FIFO"));
    if (pthread_setschedparam (gen_tid, SCHED_FIFO, &sp) != 0)
      fprintf (stderr, "rx-gen: cannot run at SCHED_FIFO %d\n",
          sp.sched_priority);
  }
  if (cpu && *cpu) {
    cpu_set_t set;

    CPU_ZERO (&set);
    CPU_SET (atoi (cpu), &set);
    pthread_setaffinity_np (gen_tid, sizeof (set), &set);
  }
}

__attribute__((destructor))
     static void gen_fini (void)
{
  gen_stop = 1;
  if (gen_started)
    pthread_join (gen_tid, NULL);
}
