/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A receive source for benchmarks that is not the bottleneck: a generator
 * thread feeding a net_ring port with a continuous ST 2022-6 stream, loaded
 * into any DPDK process with the EAL option `-d` (dpdk-testpmd rxonly and
 * st2022src alike, so both read the same source):
 *
 *   VMI_RXGEN_PCAP=frame.pcap VMI_RXGEN_CPU=0 \
 *     dpdk-testpmd --no-huge --no-pci -d .../libvmi-rxgen.so --vdev net_ring0
 *
 * The pcap holds one frame of datagrams (st2022sink writes it through
 * net_pcap). Each datagram lives in one mbuf of our own, built once, and
 * the mbufs go round. Their pool has mempool handlers of our own
 * ("vmi_rxgen") and no per-core cache: once the mbufs are built, the
 * receiver's rte_pktmbuf_free() only counts them back, so the receiver
 * pays a ring dequeue and a non-atomic free of an mbuf whose header it
 * reads from a shared cache line, nothing else: no copy into a fresh mbuf
 * (net_pcap), no atomic reference drop. The generator rewrites a datagram
 * once the receiver has freed the mbuf of its previous round (a frame of
 * datagrams earlier: the receiver frees in order). Per datagram it
 * rewrites just the RTP sequence number, RTP timestamp and FRCount, so the
 * stream is continuous (frames
 * decode, sequence numbers wrap as on a wire). The generator runs on its own core (VMI_RXGEN_CPU): per-thread CPU
 * accounting of the receiver leaves it out.
 *
 * Environment: VMI_RXGEN_PCAP (required; without it the library does
 * nothing), VMI_RXGEN_PORT (default net_ring0), VMI_RXGEN_CPU (default: not
 * pinned), VMI_RXGEN_FIFO (a SCHED_FIFO priority: net_ring's ring holds
 * 1024 datagrams, a fraction of a millisecond of work, so a generator that
 * a busy machine takes off its core for a time slice leaves the receiver
 * polling an empty ring; at real-time priority it sleeps 20 us whenever
 * the ring is full instead of spinning), VMI_RXGEN_STATS (a file the generator rewrites about every
 * 100 ms: "sent=<n> full=<n> low=<n>", low counting the bursts that found
 * the ring with less than one receive burst queued: a receiver that may
 * have polled an empty ring).
 *
 * Not part of the plugin; net_ring's ring is single-producer: the receiver
 * must not transmit on the port (st2022src with a unicast address sends
 * only ARP replies, and nothing asks it here). */

/* rte_prefetch0_write() is experimental in 22.11 */
#define ALLOW_EXPERIMENTAL_API
#include <errno.h>
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

#define GEN_BURST 32
#define GEN_MAX_DGRAMS 8192
/* Ethernet/IPv4/UDP, then RTP: sequence number, timestamp; HBRMT FRCount */
#define OFF_RTP 42
#define OFF_SEQ (OFF_RTP + 2)
#define OFF_TS (OFF_RTP + 4)
#define OFF_FRCOUNT (OFF_RTP + 12 + 1)
/* RTP timestamp step per frame: 1080p59.94's at 27 MHz (receivers take
 * frames by sequence number and FRCount; the step only keeps it moving) */
#define TS_59_94 450450u

typedef struct
{
  struct rte_mbuf **m;
  unsigned n;                   /* datagrams of the frame */
  uint16_t seq0;
  uint8_t fr0;
  uint32_t ts0, ts_step;
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

/* The frames of @path, each copied into an mbuf of @mp */
static int
load_pcap (const char *path, struct rte_mempool *mp, Gen * g)
{
  FILE *f = fopen (path, "rb");
  uint8_t hdr[24], rec[16];
  int swap;
  unsigned magic;

  if (f == NULL || fread (hdr, 1, 24, f) != 24)
    goto bad;
  magic = rd32 (hdr, 0);
  swap = magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1;
  if (!swap && magic != 0xa1b2c3d4 && magic != 0xa1b23c4d)
    goto bad;
  g->m = calloc (GEN_MAX_DGRAMS, sizeof (*g->m));
  while (g->n < GEN_MAX_DGRAMS && fread (rec, 1, 16, f) == 16) {
    unsigned len = rd32 (rec + 8, swap);
    struct rte_mbuf *m = rte_pktmbuf_alloc (mp);
    char *d;

    if (m == NULL || len < OFF_FRCOUNT + 1
        || (d = rte_pktmbuf_append (m, len)) == NULL
        || fread (d, 1, len, f) != len)
      goto bad;
    g->m[g->n++] = m;
  }
  fclose (f);
  if (g->n == 0)
    return -1;
  {
    const uint8_t *p = rte_pktmbuf_mtod (g->m[0], const uint8_t *);
    g->seq0 = (uint16_t) (p[OFF_SEQ] << 8 | p[OFF_SEQ + 1]);
    g->ts0 = (uint32_t) p[OFF_TS] << 24 | p[OFF_TS + 1] << 16 |
        p[OFF_TS + 2] << 8 | p[OFF_TS + 3];
    g->fr0 = p[OFF_FRCOUNT];
    g->ts_step = TS_59_94;
  }
  return 0;

bad:
  fprintf (stderr, "rx-gen: cannot read the pcap %s\n", path);
  if (f)
    fclose (f);
  return -1;
}

static void
write_stats (const char *path, uint64_t sent, uint64_t full, uint64_t low)
{
  char tmp[4096];
  FILE *f;

  snprintf (tmp, sizeof (tmp), "%s.tmp", path);
  f = fopen (tmp, "w");
  if (f == NULL)
    return;
  fprintf (f, "sent=%llu full=%llu low=%llu\n", (unsigned long long) sent,
      (unsigned long long) full, (unsigned long long) low);
  fclose (f);
  rename (tmp, path);
}

/* nothing to do until the receiver has read more: a real-time generator
 * sleeps (it would hold its core from everyone else), another spins */
static void
gen_wait (int fifo)
{
  if (fifo) {
    struct timespec ts = { 0, 20000 };
    nanosleep (&ts, NULL);
  } else {
    rte_pause ();
  }
}

static void *
gen_thread (void *arg)
{
  const char *pcap = getenv ("VMI_RXGEN_PCAP");
  const char *pname = getenv ("VMI_RXGEN_PORT");
  const char *stats = getenv ("VMI_RXGEN_STATS");
  char rname[RTE_RING_NAMESIZE];
  struct rte_eth_link link;
  struct rte_mempool *mp;
  struct rte_ring *r;
  uint16_t port;
  Gen g = { 0 };
  uint64_t sent = 0, full = 0, low = 0, next_stats;
  unsigned idx = 0, frame = 0, i, polls = 0;
  int fifo = getenv ("VMI_RXGEN_FIFO") && atoi (getenv ("VMI_RXGEN_FIFO"));
  uint16_t seq;

  (void) arg;
  pname = pname && *pname ? pname : "net_ring0";
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
  mp = rte_pktmbuf_pool_create_by_ops ("vmi_rxgen", GEN_MAX_DGRAMS, 0,
      0, RTE_MBUF_DEFAULT_BUF_SIZE, (int) rte_socket_id (), "vmi_rxgen");
  if (r == NULL || mp == NULL) {
    fprintf (stderr, "rx-gen: no ring %s or no mbufs: %s\n", rname,
        rte_strerror (rte_errno));
    return NULL;
  }
  if (load_pcap (pcap, mp, &g) != 0)
    return NULL;
  __atomic_store_n (&gp.armed, 1, __ATOMIC_RELEASE);
  fprintf (stderr, "rx-gen: %u datagrams a frame from %s onto %s\n", g.n,
      pcap, pname);
  seq = g.seq0;
  next_stats = rte_get_timer_cycles ();

  while (!gen_stop) {
    struct rte_mbuf *b[GEN_BURST];
    unsigned k, done = 0, queued = rte_ring_count (r);

    /* a stopped port (the receiver closing, the EAL about to go) ends
     * the generator: its ring and mbufs go with the EAL */
    if ((++polls & 1023) == 0 || queued == rte_ring_get_capacity (r)) {
      memset (&link, 0, sizeof (link));
      if (rte_eth_link_get_nowait (port, &link) != 0
          || link.link_status != RTE_ETH_LINK_UP)
        break;
    }

    if (queued < 64)
      low++;
    /* wait for room for a whole burst: fewer, larger enqueues */
    if (rte_ring_free_count (r) < GEN_BURST) {
      full++;
      gen_wait (fifo);
      continue;
    }
    /* the mbufs of this burst, of the round before, are free again */
    if (sent + GEN_BURST > g.n
        && __atomic_load_n (&gp.freed, __ATOMIC_ACQUIRE) < sent + GEN_BURST
        - g.n) {
      gen_wait (fifo);
      continue;
    }
    for (k = 0; k < GEN_BURST; k++) {
      struct rte_mbuf *m = g.m[idx];
      uint8_t *p = rte_pktmbuf_mtod (m, uint8_t *);
      uint32_t ts = g.ts0 + frame * g.ts_step;

      p[OFF_SEQ] = (uint8_t) (seq >> 8);
      p[OFF_SEQ + 1] = (uint8_t) seq;
      p[OFF_TS] = (uint8_t) (ts >> 24);
      p[OFF_TS + 1] = (uint8_t) (ts >> 16);
      p[OFF_TS + 2] = (uint8_t) (ts >> 8);
      p[OFF_TS + 3] = (uint8_t) ts;
      p[OFF_FRCOUNT] = (uint8_t) (g.fr0 + frame);
      b[k] = m;
      seq++;
      if (++idx == g.n) {
        idx = 0;
        frame++;
      }
      /* the next round's lines, two bursts ahead */
      i = idx + 2 * GEN_BURST < g.n ? idx + 2 * GEN_BURST :
          idx + 2 * GEN_BURST - g.n;
      rte_prefetch0_write (rte_pktmbuf_mtod (g.m[i], uint8_t *) + OFF_RTP);
    }
    while (done < GEN_BURST && !gen_stop)
      done += rte_ring_sp_enqueue_burst (r, (void **) b + done,
          GEN_BURST - done, NULL);
    sent += GEN_BURST;
    if (stats && rte_get_timer_cycles () >= next_stats) {
      write_stats (stats, sent, full, low);
      next_stats = rte_get_timer_cycles () + rte_get_timer_hz () / 10;
    }
  }
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
