/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The transmit engine of st2022sink (see vmi-tx-engine.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-tx-engine.h"

#include <string.h>
#include <time.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "vmi-tx-ring.h"
#include "vmi-tx-shared.h"
#include "vmi-pacer.h"
#include "vmi-gap-frame.h"
#include "vmi-epoch.h"
#include "pool/vmi-dma.h"

/* rasters: one on the wire (kept for underrun=repeat), B1 queued, one being
 * written by the element */
#define N_SLOTS 4
#define DEFAULT_PREFILL 3

/* Software pacing (vmi-tx-engine.h) */
#define PACING_BATCH_NS VMI_TX_PACING_BATCH_NS
#define PACING_SPIN_NS VMI_TX_PACING_SPIN_NS
/* longest uninterrupted sleep: how soon flushing stops a paced frame */
#define PACING_SLICE_NS 5000000

/* Sliced writing: the ring the transmit thread writes rasters into, cut
 * in slices that each stay referenced while the NIC may read them. 2 MiB
 * stays in the last-level cache; a datagram's payload may run 1376 bytes
 * past its slice. */
#define RING_SLICE (64 * 1024)
#define RING_SLICES 32
#define RING_SIZE ((gsize) RING_SLICE * RING_SLICES)
/* the writer runs this many lines ahead of the datagrams being sent */
#define SLICE_LOOKAHEAD_LINES 2
/* datagrams per send_burst() of an unpaced sliced frame */
#define SLICE_BATCH 64
/* how often a wait for a slice the NIC still holds checks for a flush */
#define SLICE_WAIT_US 1000

/* PA: entries per send_burst() */
#define PA_BURST 32
/* PA: the pacer never runs more than this much wire time ahead of the host
 * clock (at the line rate + PA_AHEAD_PPM). With a NIC the TX queue's
 * back-pressure holds it well before that; a transport without
 * back-pressure (a veth) would otherwise get the stream at CPU speed. */
#define PA_AHEAD_NS 50000000
#define PA_AHEAD_PPM 1000
/* PA controlled: the pacer's first packet leaves this long after the
 * controller has watched the reference for one window (the lead), so the
 * controller's samples are known when the pacer asks (> PA_AHEAD_NS +
 * PA_REF_DELAY_NS) */
#define PA_CTL_MARGIN_NS 60000000
/* PA controlled, stream reference: arrivals older than this are assumed
 * all pushed (the receiving thread's worst latency) */
#define PA_REF_DELAY_NS 5000000
/* PA controlled: how often the transmit thread reads the reference clock */
#define PA_CLOCK_POLL_NS 20000
#define REF_RING 8192
/* PA, unpinned: sleep while the TX queue is full */
#define PA_POLL_SLEEP_NS 50000
/* cfg.epoch: a PA stream's first frame is at least this far off */
#define PA_EPOCH_MARGIN_NS 2000000

typedef enum
{
  SLOT_FREE,
  SLOT_BUILDING,
  SLOT_QUEUED,
  SLOT_SENDING,
} SlotState;

typedef struct
{
  VmiTxBuffer buf;              /* first: acquire() hands out &slot->buf */
  VmiTxFrame txf;
  VmiTxEngine *e;
  SlotState state;
  guint32 rtp;
  guint64 k;                    /* cfg.epoch: frame index since the epoch */
  gint64 start_mono;
  gint64 queued_mono;           /* when submitted (shared engine) */
  /* sliced (vmi_tx_engine_set_lines): the lines still to write */
  gboolean sliced;
  St2022RasterWriter *writer;
  St2022RasterCursor cur;
  GDestroyNotify done;
  gpointer done_data;
} Slot;

typedef struct
{
  VmiTxFrame txf;
  VmiTxEngine *e;
  gboolean busy;                /* under lock: open, or the NIC holds it */
} RingSlice;

struct _VmiTxEngine
{
  VmiTransport *t;
  VmiTxEngineConfig cfg;
  gboolean pa;

  GThread *thread;
  /* priority inheritance (engine_lock_init()) */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  /* under lock */
  Slot slots[N_SLOTS];
  GQueue queue;                 /* Slot *, oldest first */
  gboolean stop;
  gboolean draining;
  gboolean busy;                /* the thread holds a frame or a stream */
  GError *error;
  VmiTxEngineStats stats;
  /* atomic */
  gint flushing;
  gint flush_gen;

  /* format: changed by configure() only with the thread idle */
  const St2022Format *fmt;
  St2022Packetizer *pkt;
  St2022Datagram *pkts;
  struct iovec *iov;            /* 2 per datagram: header, payload */
  VmiTxDatagram *dgrams;
  guint n_dgrams;
  gsize raster_size;
  guint64 period_ns;
  gint fps_n, fps_d;
  guint32 rtp_per_frame;
  /* sliced writing (NONE/SOFTWARE, HD): the ring and its slices; the
   * positions are stream bytes (ring offset = position mod RING_SIZE) */
  guint8 *ring;
  RingSlice slices[RING_SLICES];
  guint64 next_open, next_close;        /* stream slice indices */
  /* under lock: threads waiting for a slice to come back. A release
   * signals only then: the NIC frees some 95 slices per 1080p frame, and
   * a broadcast is a futex call that also wakes the element's thread
   * waiting for a free slot (a context switch each on a shared core) */
  guint slice_waiters;
  VmiEpoch ep;
  gint ref_bits;                /* atomic: HBRMT R */
  guint64 tau_num, tau_den;     /* nominal tau (PA) */
  guint64 ctl_capacity;

  /* transmit side */
  guint32 tx_last_rtp;
  gboolean tx_have_last_rtp;

  /* reference arrivals, single producer / single consumer */
  guint64 ref_ring[REF_RING];
  gint ref_head;                /* atomic, written by the producer */
  gint ref_tail;                /* atomic, written by the consumer */
  gint ref_dropped;             /* atomic */
  VmiTransport *ref_rx;
  GThread *ref_thread;
  gboolean spin;                /* busy-poll a full queue (pinned thread) */
  gint ref_stop;                /* atomic */

  /* cfg.shared_engine: the shared engine's thread sends our frames */
  VmiTxSharedMember *member;
  gchar *warning;
  /* the shared thread's: the frame it sends, its flush generation and
   * payload bytes sent */
  Slot *sh_slot;
  gint sh_gen;
  guint64 sh_bytes, stats_pending;
};

/* a thread sends our frames: ours or the shared engine's */
#define RUNNING(e) ((e)->thread != NULL || (e)->member != NULL)

static gpointer vmi_tx_engine_thread (gpointer data);

/* ---- the engine's lock ----
 * A priority-inheritance mutex: the shared transmit thread (real-time)
 * takes it to start and end a frame, and a sink's streaming thread
 * (normal priority) preempted while holding it on a busy CPU is then
 * raised to the waiter's priority until it lets go, instead of holding
 * every stream of the engine for its time slices (ends of frames waiting
 * 55-61 ms on a loaded 2-vCPU VM). Waits are on CLOCK_MONOTONIC, as
 * GCond's. */

static void
engine_lock_init (VmiTxEngine * e)
{
  pthread_mutexattr_t ma;
  pthread_condattr_t ca;

  pthread_mutexattr_init (&ma);
  pthread_mutexattr_setprotocol (&ma, PTHREAD_PRIO_INHERIT);
  pthread_mutex_init (&e->lock, &ma);
  pthread_mutexattr_destroy (&ma);
  pthread_condattr_init (&ca);
  pthread_condattr_setclock (&ca, CLOCK_MONOTONIC);
  pthread_cond_init (&e->cond, &ca);
  pthread_condattr_destroy (&ca);
}

static void
engine_lock_clear (VmiTxEngine * e)
{
  pthread_mutex_destroy (&e->lock);
  pthread_cond_destroy (&e->cond);
}

static inline void
engine_lock (VmiTxEngine * e)
{
  pthread_mutex_lock (&e->lock);
}

static inline void
engine_unlock (VmiTxEngine * e)
{
  pthread_mutex_unlock (&e->lock);
}

static inline gboolean
engine_trylock (VmiTxEngine * e)
{
  return pthread_mutex_trylock (&e->lock) == 0;
}

static inline void
engine_wait (VmiTxEngine * e)
{
  pthread_cond_wait (&e->cond, &e->lock);
}

/* until @end_us (g_get_monotonic_time()); FALSE once it has passed */
static gboolean
engine_wait_until (VmiTxEngine * e, gint64 end_us)
{
  struct timespec ts = { end_us / G_USEC_PER_SEC,
    (end_us % G_USEC_PER_SEC) * 1000
  };

  return pthread_cond_timedwait (&e->cond, &e->lock, &ts) != ETIMEDOUT;
}

static inline void
engine_broadcast (VmiTxEngine * e)
{
  pthread_cond_broadcast (&e->cond);
}

gint64
vmi_tx_mono_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#endif
}

void
vmi_tx_engine_config_init (VmiTxEngineConfig * cfg)
{
  memset (cfg, 0, sizeof (*cfg));
  cfg->pacing = VMI_TX_PACING_SOFTWARE;
  cfg->underrun = VMI_TX_UNDERRUN_REPEAT;
  cfg->line_rate = G_GUINT64_CONSTANT (10000000000);
  cfg->tx_cpu = -1;
  cfg->reference = VMI_TX_REFERENCE_NONE;
  cfg->window_ns = 1000000000;
  cfg->n_windows = 2;
  cfg->prefill_frames = DEFAULT_PREFILL;
}

static const gchar *
pacing_name (VmiTxPacing p)
{
  switch (p) {
    case VMI_TX_PACING_NONE:
      return "none";
    case VMI_TX_PACING_SOFTWARE:
      return "software";
    case VMI_TX_PACING_PA_FREE_RUNNING:
      return "pa-free-running";
    case VMI_TX_PACING_PA_CONTROLLED:
      return "pa-controlled";
  }
  return "?";
}

/* ---- frames ---- */

static void
slot_release (VmiTxFrame * f, gpointer user_data)
{
  Slot *slot = user_data;
  VmiTxEngine *e = slot->e;

  engine_lock (e);
  slot->state = SLOT_FREE;
  engine_broadcast (e);
  engine_unlock (e);
}

static void
ring_slice_release (VmiTxFrame * f, gpointer user_data)
{
  RingSlice *rs = user_data;
  VmiTxEngine *e = rs->e;

  engine_lock (e);
  rs->busy = FALSE;
  if (e->slice_waiters)
    engine_broadcast (e);
  engine_unlock (e);
}

/* A sliced slot dropped unsent: its picture goes back. */
static void
slot_drop_lines (Slot * slot)
{
  if (slot->sliced && slot->done)
    slot->done (slot->done_data);
  slot->sliced = FALSE;
  slot->done = NULL;
}

VmiTxEngine *
vmi_tx_engine_new (VmiTransport * t, const VmiTxEngineConfig * cfg,
    GError ** error)
{
  VmiTxEngine *e;
  guint i;

  e = g_new0 (VmiTxEngine, 1);
  e->t = t;
  e->cfg = *cfg;
  if (e->cfg.prefill_frames == 0)
    e->cfg.prefill_frames = DEFAULT_PREFILL;
  e->cfg.prefill_frames = MIN (e->cfg.prefill_frames, N_SLOTS - 1);
  e->pa = cfg->pacing == VMI_TX_PACING_PA_FREE_RUNNING
      || cfg->pacing == VMI_TX_PACING_PA_CONTROLLED;
  if (e->pa && !vmi_transport_has_caps (t, VMI_TRANSPORT_CAP_GAP_FRAMES)) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
        "pacing=%s needs a transport that sends gap frames (packet or dpdk)",
        pacing_name (cfg->pacing));
    g_free (e);
    return NULL;
  }
  if (cfg->pacing == VMI_TX_PACING_PA_CONTROLLED
      && cfg->reference == VMI_TX_REFERENCE_CLOCK && cfg->ref_clock == NULL) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
        "pa-controlled on a clock needs the clock");
    g_free (e);
    return NULL;
  }
  if (cfg->epoch && cfg->epoch_clock == NULL
      && (cfg->pacing == VMI_TX_PACING_PA_FREE_RUNNING
          || cfg->pacing == VMI_TX_PACING_PA_CONTROLLED)) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
        "a Pacing-Assistant stream on the epoch needs the epoch clock");
    g_free (e);
    return NULL;
  }
  engine_lock_init (e);
  g_queue_init (&e->queue);
  for (i = 0; i < N_SLOTS; i++)
    e->slots[i].e = e;
  for (i = 0; i < RING_SLICES; i++)
    e->slices[i].e = e;
  if (cfg->shared_engine && *cfg->shared_engine) {
    if (e->pa) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
          "pacing=%s cannot use shared-engine '%s': the Pacing-Assistant "
          "fills the port's transmit queue with this stream's datagrams and "
          "gap frames, so it needs the port and a thread to itself; leave "
          "shared-engine empty, or use pacing=software to share the thread",
          pacing_name (cfg->pacing), cfg->shared_engine);
      goto failed;
    }
    e->cfg.shared_engine = NULL;        /* borrowed: not kept */
    e->cfg.port_name = NULL;
    e->member = vmi_tx_shared_join (cfg->shared_engine, e, cfg->port_index,
        cfg->port_name, cfg->tx_cpu, &e->warning, error);
    if (e->member == NULL)
      goto failed;
    return e;
  }
  e->thread = g_thread_new ("st2022-tx", vmi_tx_engine_thread, e);
  return e;

failed:
  engine_lock_clear (e);
  g_free (e);
  return NULL;
}

const gchar *
vmi_tx_engine_get_warning (VmiTxEngine * e)
{
  return e->warning;
}

/* Waits (lock held) until the thread holds nothing and every raster is
 * back (zero-copy transports may still hold some). */
static void
wait_idle_locked (VmiTxEngine * e)
{
  guint i;
  gboolean busy;

  e->slice_waiters++;
  for (;;) {
    busy = e->busy || !g_queue_is_empty (&e->queue);
    for (i = 0; i < N_SLOTS; i++)
      busy |= e->slots[i].state == SLOT_SENDING
          || e->slots[i].state == SLOT_QUEUED;
    for (i = 0; i < RING_SLICES; i++)
      busy |= e->slices[i].busy;
    if (!busy || !RUNNING (e))
      break;
    engine_wait (e);
  }
  e->slice_waiters--;
}

static void
free_format_locked (VmiTxEngine * e)
{
  guint i;

  for (i = 0; i < N_SLOTS; i++) {
    vmi_dma_free (e->slots[i].buf.raster, e->raster_size);
    e->slots[i].buf.raster = NULL;
    e->slots[i].state = SLOT_FREE;
  }
  g_clear_pointer (&e->pkt, st2022_packetizer_free);
  g_clear_pointer (&e->pkts, g_free);
  g_clear_pointer (&e->iov, g_free);
  g_clear_pointer (&e->dgrams, g_free);
  for (i = 0; i < RING_SLICES && e->ring; i++)
    if (e->slices[i].busy)
      break;
  /* a slice the transport still holds: leak the ring, as a raster */
  if (i == RING_SLICES) {
    vmi_dma_unregister (e->ring);
    vmi_tx_ring_unmap (e->ring, RING_SIZE);
  }
  e->ring = NULL;
  e->fmt = NULL;
}

/* Leaves the shared engine: its thread gives our frame back (abandoned)
 * and never calls us again; then waits (a while) for the transport to give
 * back what it holds of our rasters, since closing a shared port's
 * transport does not wait for the other senders' frames */
static void
shared_stop (VmiTxEngine * e)
{
  gint64 end = g_get_monotonic_time () + 2 * G_TIME_SPAN_SECOND;

  vmi_tx_engine_set_flushing (e, TRUE);
  vmi_tx_shared_leave (e->member);
  engine_lock (e);
  e->member = NULL;
  e->busy = FALSE;
  e->stop = TRUE;
  for (;;) {
    guint i;
    gboolean held = FALSE;

    for (i = 0; i < N_SLOTS; i++)
      held |= e->slots[i].state == SLOT_SENDING;
    if (!held || !engine_wait_until (e, end))
      break;
  }
  engine_broadcast (e);
  engine_unlock (e);
}

void
vmi_tx_engine_stop (VmiTxEngine * e)
{
  if (e && e->member) {
    shared_stop (e);
    return;
  }
  if (e == NULL || e->thread == NULL)
    return;
  vmi_tx_engine_set_flushing (e, TRUE);
  engine_lock (e);
  e->stop = TRUE;
  engine_broadcast (e);
  engine_unlock (e);
  g_thread_join (e->thread);
  if (e->ref_thread) {
    g_atomic_int_set (&e->ref_stop, 1);
    vmi_transport_wakeup (e->ref_rx);
    g_thread_join (e->ref_thread);
    e->ref_thread = NULL;
  }
  g_clear_pointer (&e->ref_rx, vmi_transport_close);
  engine_lock (e);
  e->thread = NULL;
  engine_broadcast (e);
  engine_unlock (e);
}

void
vmi_tx_engine_free (VmiTxEngine * e)
{
  guint i;

  if (e == NULL)
    return;
  vmi_tx_engine_stop (e);
  engine_lock (e);
  for (i = 0; i < N_SLOTS; i++)
    if (e->slots[i].state == SLOT_SENDING) {
      /* still referenced by a transport that was not closed: leak the
       * raster rather than let the NIC read freed memory */
      g_warning ("st2022 transmit engine freed while the transport holds "
          "a frame");
      e->slots[i].buf.raster = NULL;
    }
  free_format_locked (e);
  engine_unlock (e);
  g_clear_error (&e->error);
  g_free (e->warning);
  engine_lock_clear (e);
  g_free (e);
}

gboolean
vmi_tx_engine_configure (VmiTxEngine * e, const St2022Format * fmt,
    gint fps_n, gint fps_d, const St2022PacketizerConfig * pcfg,
    GError ** error)
{
  St2022PacketizerConfig cfg = *pcfg;
  guint i, n = fmt->datagrams_per_frame;
  guint64 num = 0, den = 1;

  if (e->pa) {
    VmiPacer check;
    VmiPaceError err = VMI_PACE_ERR_OVERFLOW;

    if (vmi_pace_tau_for_rate (e->cfg.line_rate, n, fps_n, fps_d, &num,
            &den))
      err = vmi_pacer_init_free_running (&check, VMI_GAP_MIN_WIRE_BYTES,
          VMI_GAP_MAX_WIRE_BYTES, VMI_TX_MEDIA_WIRE_BYTES, num, den);
    if (err != VMI_PACE_OK) {
      gdouble rate = (gdouble) n * fps_n / fps_d;
      guint64 need = (guint64) ((VMI_TX_MEDIA_WIRE_BYTES +
              VMI_GAP_MIN_WIRE_BYTES) * 8.0 * rate * 1.0002) + 1;

      g_set_error (error, VMI_TRANSPORT_ERROR,
          VMI_TRANSPORT_ERROR_UNSUPPORTED,
          "pacing=%s cannot send %s at line-rate=%" G_GUINT64_FORMAT
          ": %.0f packets/s of %u wire bytes leave less than the smallest "
          "gap frame (%u wire bytes) between packets (%s); set line-rate to "
          "the link's real speed, at least %" G_GUINT64_FORMAT " bit/s, or "
          "send a format with fewer packets per second",
          pacing_name (e->cfg.pacing), fmt->name, e->cfg.line_rate, rate,
          VMI_TX_MEDIA_WIRE_BYTES, VMI_GAP_MIN_WIRE_BYTES,
          vmi_pace_error_string (err), need);
      return FALSE;
    }
  }

  vmi_tx_engine_drain (e);
  engine_lock (e);
  wait_idle_locked (e);
  if (e->pkt) {
    /* a format change keeps the stream running, as one sender would */
    cfg.initial_seq = st2022_packetizer_get_seq (e->pkt);
    cfg.initial_frcount = st2022_packetizer_get_frcount (e->pkt);
    cfg.initial_vts = st2022_packetizer_get_vts (e->pkt);
  }
  free_format_locked (e);
  e->pkt = st2022_packetizer_new (fmt, &cfg);
  if (e->pkt == NULL) {
    engine_unlock (e);
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
        "could not set up the ST 2022-6 packetizer for %s", fmt->name);
    return FALSE;
  }
  e->fmt = fmt;
  e->raster_size = fmt->frame_bytes;
  for (i = 0; i < N_SLOTS; i++) {
    /* DMA-registered when a transport asked for it (vmi-dma.h): a NIC
     * then sends straight out of the raster */
    e->slots[i].buf.raster = vmi_dma_alloc (e->raster_size, NULL);
    e->slots[i].buf.size = e->raster_size;
    e->slots[i].state = SLOT_FREE;
  }
  /* the sliced writer's ring: not for PA (its repeats need whole rasters)
   * nor SD (a small raster); without it every frame is written whole */
  /* nor a shared engine: its thread sends, the elements write (the
   * shared core's time goes to the datagrams of every stream) */
  if (!e->pa && !fmt->sd && e->member == NULL) {
    GError *rerr = NULL;

    e->ring = vmi_tx_ring_map (RING_SIZE, &rerr);
    if (e->ring == NULL) {
      g_warning ("st2022 transmit engine: %s; rasters are written whole",
          rerr->message);
      g_clear_error (&rerr);
    } else {
      /* both copies: a slice's last datagram may run into the second; a
       * NIC reads the ring in place when this succeeds, else gets copies */
      vmi_dma_register (e->ring, 2 * RING_SIZE, sysconf (_SC_PAGESIZE));
    }
    e->next_open = e->next_close = 0;
  }
  e->n_dgrams = n;
  e->pkts = g_new0 (St2022Datagram, n);
  e->iov = g_new0 (struct iovec, 2 * n);
  e->dgrams = g_new0 (VmiTxDatagram, n);
  for (i = 0; i < n; i++) {
    e->dgrams[i].iov = &e->iov[2 * i];
    e->dgrams[i].n_iov = 2;
  }
  e->fps_n = fps_n;
  e->fps_d = fps_d;
  e->period_ns = (guint64) 1000000000 * fps_d / fps_n;
  e->rtp_per_frame = (guint32) (((guint64) 27000000 * fps_d + fps_n / 2) /
      fps_n);
  vmi_epoch_init (&e->ep, fps_n, fps_d);
  e->tau_num = num;
  e->tau_den = den;
  /* the controller queues a window's arrivals and the lead's between two
   * samples */
  e->ctl_capacity = (guint64) ((gdouble) n * fps_n / fps_d *
      ((gdouble) e->cfg.window_ns * 1.01 + PA_CTL_MARGIN_NS * 2) / 1e9)
      + 4096;
  e->stats.tau_num = num;
  e->stats.tau_den = den;
  engine_unlock (e);
  return TRUE;
}

guint64
vmi_tx_engine_get_period (VmiTxEngine * e)
{
  return e->period_ns;
}

VmiTxBuffer *
vmi_tx_engine_acquire (VmiTxEngine * e, GError ** error)
{
  Slot *slot = NULL;
  guint i;

  engine_lock (e);
  for (;;) {
    if (e->error) {
      g_propagate_error (error, e->error);
      e->error = NULL;
      break;
    }
    if (g_atomic_int_get (&e->flushing) || e->fmt == NULL)
      break;
    for (i = 0; i < N_SLOTS && slot == NULL; i++)
      if (e->slots[i].state == SLOT_FREE)
        slot = &e->slots[i];
    if (slot) {
      slot->state = SLOT_BUILDING;
      break;
    }
    engine_wait (e);
  }
  engine_unlock (e);
  return slot ? &slot->buf : NULL;
}

gboolean
vmi_tx_engine_set_lines (VmiTxEngine * e, VmiTxBuffer * buf,
    St2022RasterWriter * w, const St2022RasterCursor * cur,
    GDestroyNotify done, gpointer done_data)
{
  Slot *slot = (Slot *) buf;

  if (e->ring == NULL || cur->line < 1
      || (gsize) (cur->line - 1) * e->fmt->line_bytes +
      ST2022_RASTER_CURSOR_SLACK > RING_SIZE / 2)
    return FALSE;
  slot->sliced = TRUE;
  slot->writer = w;
  slot->cur = *cur;
  slot->done = done;
  slot->done_data = done_data;
  return TRUE;
}

void
vmi_tx_engine_release (VmiTxEngine * e, VmiTxBuffer * buf)
{
  Slot *slot = (Slot *) buf;

  slot_drop_lines (slot);
  engine_lock (e);
  slot->state = SLOT_FREE;
  engine_broadcast (e);
  engine_unlock (e);
}

void
vmi_tx_engine_submit (VmiTxEngine * e, VmiTxBuffer * buf, guint32 rtp,
    gint64 start_mono)
{
  Slot *slot = (Slot *) buf;

  slot->rtp = rtp;
  slot->start_mono = start_mono;
  slot->queued_mono = e->member ? vmi_tx_mono_now () : 0;
  vmi_tx_frame_init (&slot->txf, slot->buf.raster, slot->buf.size,
      slot_release, slot);
  engine_lock (e);
  if (g_atomic_int_get (&e->flushing)) {
    /* flushed between acquire and submit: never sent */
    slot->state = SLOT_FREE;
    engine_unlock (e);
    slot_drop_lines (slot);
    engine_lock (e);
  } else {
    slot->state = SLOT_QUEUED;
    g_queue_push_tail (&e->queue, slot);
  }
  /* wake the thread after unlocking: woken under the lock, a transmit
   * thread of higher priority on the same core preempted us only to block
   * on the lock we held (two more context switches per frame) */
  engine_unlock (e);
  engine_broadcast (e);
  if (e->member)
    vmi_tx_shared_kick (e->member);
}

void
vmi_tx_engine_submit_epoch (VmiTxEngine * e, VmiTxBuffer * buf, guint64 k,
    gint64 start_mono)
{
  ((Slot *) buf)->k = k;
  vmi_tx_engine_submit (e, buf, vmi_epoch_rtp (&e->ep, k), start_mono);
}

void
vmi_tx_engine_set_ref (VmiTxEngine * e, guint8 ref)
{
  g_atomic_int_set (&e->ref_bits, ref);
}

void
vmi_tx_engine_drain (VmiTxEngine * e)
{
  engine_lock (e);
  e->draining = TRUE;
  engine_broadcast (e);
  while ((e->busy || !g_queue_is_empty (&e->queue)) && RUNNING (e)
      && !g_atomic_int_get (&e->flushing) && e->error == NULL)
    engine_wait (e);
  e->draining = FALSE;
  engine_unlock (e);
}

void
vmi_tx_engine_set_flushing (VmiTxEngine * e, gboolean flushing)
{
  GList *dropped = NULL, *l;
  Slot *slot;

  if (!flushing) {
    g_atomic_int_set (&e->flushing, 0);
    return;
  }
  engine_lock (e);
  g_atomic_int_set (&e->flushing, 1);
  g_atomic_int_inc (&e->flush_gen);
  while ((slot = g_queue_pop_head (&e->queue))) {
    slot->state = SLOT_SENDING;
    dropped = g_list_prepend (dropped, slot);
  }
  /* a new stream starts with fresh RTP bookkeeping on the wire side only
   * after the flush; the submit side keeps its own */
  engine_broadcast (e);
  engine_unlock (e);
  for (l = dropped; l; l = l->next) {
    slot_drop_lines (l->data);
    vmi_tx_frame_unref (&((Slot *) l->data)->txf);
  }
  g_list_free (dropped);
}

void
vmi_tx_engine_push_reference (VmiTxEngine * e, guint64 mono_ns)
{
  gint head = g_atomic_int_get (&e->ref_head);

  if (head - g_atomic_int_get (&e->ref_tail) >= REF_RING) {
    g_atomic_int_inc (&e->ref_dropped);
    return;
  }
  e->ref_ring[head % REF_RING] = mono_ns;
  g_atomic_int_set (&e->ref_head, head + 1);
}

static gpointer
reference_thread (gpointer data)
{
  VmiTxEngine *e = data;
  VmiRxSlot slots[32];
  GError *err = NULL;
  gint i, n;

  while (!g_atomic_int_get (&e->ref_stop)) {
    n = vmi_transport_recv_burst (e->ref_rx, slots, G_N_ELEMENTS (slots),
        100000, &err);
    if (n < 0) {
      g_warning ("st2022 reference stream: %s", err->message);
      g_clear_error (&err);
      break;
    }
    if (n > 0) {
      guint64 now = vmi_tx_mono_now ();
      for (i = 0; i < n; i++)
        vmi_tx_engine_push_reference (e, now);
    }
  }
  return NULL;
}

void
vmi_tx_engine_receive_reference (VmiTxEngine * e, VmiTransport * rx)
{
  e->ref_rx = rx;
  e->ref_thread = g_thread_new ("st2022-ref", reference_thread, e);
}

void
vmi_tx_engine_get_stats (VmiTxEngine * e, VmiTxEngineStats * stats)
{
  engine_lock (e);
  *stats = e->stats;
  engine_unlock (e);
  stats->reference_late += g_atomic_int_get (&e->ref_dropped);
}

static void
stats_changed (VmiTxEngine * e)
{
  if (e->cfg.stats_changed)
    e->cfg.stats_changed (e->cfg.stats_changed_data);
}

static void
set_error (VmiTxEngine * e, GError * err)
{
  engine_lock (e);
  if (e->error == NULL)
    e->error = err;
  else
    g_clear_error (&err);
  engine_broadcast (e);
  engine_unlock (e);
}

/* The RTP timestamp on the wire never goes backwards (repeats take the
 * next ones). */
static guint32
tx_rtp (VmiTxEngine * e, guint32 rtp)
{
  if (e->tx_have_last_rtp && (gint32) (rtp - e->tx_last_rtp) <= 0)
    rtp = e->tx_last_rtp + e->rtp_per_frame;
  e->tx_last_rtp = rtp;
  e->tx_have_last_rtp = TRUE;
  return rtp;
}

/* Packetizes @slot's raster into e->dgrams. Returns the number of
 * datagrams or -1 with @err. */
static gint
packetize (VmiTxEngine * e, Slot * slot, guint32 rtp, GError ** err)
{
  gint rc;
  guint i;

  rc = st2022_packetizer_begin_frame (e->pkt, slot->buf.raster,
      e->raster_size, rtp);
  if (rc == ST2022_OK)
    rc = st2022_packetizer_next (e->pkt, e->pkts, e->n_dgrams);
  if (rc < 0) {
    g_set_error (err, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "ST 2022-6 packetizing failed: %s", st2022_result_to_string (rc));
    return -1;
  }
  for (i = 0; i < (guint) rc; i++) {
    e->iov[2 * i].iov_base = e->pkts[i].header;
    e->iov[2 * i].iov_len = e->pkts[i].header_len;
    e->iov[2 * i + 1].iov_base = (gpointer) e->pkts[i].payload;
    e->iov[2 * i + 1].iov_len = e->pkts[i].payload_len;
    e->dgrams[i].frame = &slot->txf;
  }
  return rc;
}

/* cfg.epoch: frame @k's timestamps are its alignment point's, on the RTP
 * clock and the video timestamp's CF clock (words per frame x frame rate) */
static gint
packetize_at (VmiTxEngine * e, Slot * slot, guint64 k, GError ** err)
{
  guint32 rtp = vmi_epoch_rtp (&e->ep, k);

  st2022_packetizer_set_vts (e->pkt, vmi_epoch_ticks (&e->ep, k,
          (guint64) e->fmt->vts_increment * e->fps_n, e->fps_d));
  st2022_packetizer_set_ref (e->pkt, g_atomic_int_get (&e->ref_bits));
  e->tx_last_rtp = rtp;
  e->tx_have_last_rtp = TRUE;
  return packetize (e, slot, rtp, err);
}

/* PA, the TX queue full: a thread on a core of its own (tx-cpu) spins;
 * one that shares its core sleeps a little (the queue holds far more than
 * that), so the real-time priority never starves the core. */
static inline void
pa_wait_queue (VmiTxEngine * e)
{
  if (e->spin) {
    cpu_relax ();
  } else {
    struct timespec ts = { 0, PA_POLL_SLEEP_NS };
    nanosleep (&ts, NULL);
  }
}

static inline gboolean
flushed (VmiTxEngine * e, gint gen)
{
  return g_atomic_int_get (&e->flush_gen) != gen;
}

/* ---- none / software ---- */

/* Sleeps until @deadline_ns minus the spin window, then spins: the kernel's
 * wake-up latency is tens of µs, the spin absorbs it. Sleeps in slices so
 * a flush is seen promptly; returns FALSE then. */
static gboolean
pace_until (VmiTxEngine * e, gint gen, gint64 deadline_ns)
{
  gint64 now;

  while ((now = vmi_tx_mono_now ()) < deadline_ns - PACING_SPIN_NS) {
    struct timespec ts;
    gint64 wake = MIN (deadline_ns - PACING_SPIN_NS, now + PACING_SLICE_NS);

    ts.tv_sec = wake / 1000000000;
    ts.tv_nsec = wake % 1000000000;
    while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
        EINTR);
    if (G_UNLIKELY (flushed (e, gen)))
      return FALSE;
  }
  while (vmi_tx_mono_now () < deadline_ns);
  return TRUE;
}

/* ---- sliced writing ---- */

/* Opens the ring's slices up to stream byte @end: each waits until the NIC
 * has given back its previous contents. FALSE when flushed or stopped. */
static gboolean
ring_open_until (VmiTxEngine * e, gint gen, guint64 end)
{
  while (e->next_open * RING_SLICE < end) {
    RingSlice *rs = &e->slices[e->next_open % RING_SLICES];
    guint off = (guint) (e->next_open % RING_SLICES) * RING_SLICE;

    engine_lock (e);
    while (rs->busy) {
      if (flushed (e, gen) || e->stop) {
        engine_unlock (e);
        return FALSE;
      }
      e->slice_waiters++;
      engine_wait_until (e, g_get_monotonic_time () +
          SLICE_WAIT_US);
      e->slice_waiters--;
    }
    rs->busy = TRUE;
    engine_unlock (e);
    /* a datagram starting in the slice may run past it (into the next one,
     * or the ring's mirror after the last) */
    vmi_tx_frame_init (&rs->txf, e->ring + off, RING_SLICE +
        ST2022_PAYLOAD_SIZE, ring_slice_release, rs);
    e->next_open++;
  }
  return TRUE;
}

/* Gives up our reference of the slices no datagram from stream byte @pos
 * on starts in (every slice when @pos is G_MAXUINT64). */
static void
ring_close_before (VmiTxEngine * e, guint64 pos)
{
  while (e->next_close < e->next_open && (pos == G_MAXUINT64
          || (e->next_close + 1) * RING_SLICE <= pos)) {
    vmi_tx_frame_unref (&e->slices[e->next_close % RING_SLICES].txf);
    e->next_close++;
  }
}

static inline VmiTxFrame *
ring_frame_at (VmiTxEngine * e, guint64 pos)
{
  return &e->slices[(pos / RING_SLICE) % RING_SLICES].txf;
}

/* A frame whose first lines the element wrote (with its ancillary data)
 * into the slot's raster: the head is copied into the ring, the transmit
 * thread writes the other lines there a few lines ahead of the datagrams
 * it sends, so the raster it writes is still in cache when the NIC reads
 * it, and the memory it writes is the ring's, not a whole raster's. Paced
 * as send_frame(). */
static void
send_frame_sliced (VmiTxEngine * e, Slot * slot, gint gen)
{
  const St2022Format *fmt = e->fmt;
  GError *err = NULL;
  gboolean paced = e->cfg.pacing == VMI_TX_PACING_SOFTWARE;
  gint64 period = e->period_ns;
  guint64 origin = e->next_open * RING_SLICE;
  gsize head = (gsize) (slot->cur.line - 1) * fmt->line_bytes;
  guint i = 0, k, n = fmt->datagrams_per_frame, batch, sent = 0, count;
  guint prepared = 0;
  guint64 bytes = 0;
  guint32 rtp;
  gint rc = 0;

  /* every frame starts on a slice: the slices of one frame are its own */
  if (!ring_open_until (e, gen, origin + head + ST2022_RASTER_CURSOR_SLACK))
    goto out;
  memcpy (e->ring + origin % RING_SIZE, slot->buf.raster, head);
  slot->cur.base = e->ring;
  slot->cur.ring_size = RING_SIZE;
  slot->cur.origin = origin % RING_SIZE;

  if (e->cfg.epoch) {
    rtp = vmi_epoch_rtp (&e->ep, slot->k);
    st2022_packetizer_set_vts (e->pkt, vmi_epoch_ticks (&e->ep, slot->k,
            (guint64) fmt->vts_increment * e->fps_n, e->fps_d));
    st2022_packetizer_set_ref (e->pkt, g_atomic_int_get (&e->ref_bits));
    e->tx_last_rtp = rtp;
    e->tx_have_last_rtp = TRUE;
  } else {
    rtp = tx_rtp (e, slot->rtp);
  }
  rc = st2022_packetizer_begin_frame_ring (e->pkt, e->ring, RING_SIZE,
      origin % RING_SIZE, rtp);
  if (rc != ST2022_OK)
    goto packetize_failed;

  batch = paced ? MAX (1, (guint) ((guint64) n * PACING_BATCH_NS /
          period)) : SLICE_BATCH;
  for (i = 0; i < n; i += sent) {
    guint64 end;
    guint need;

    count = MIN (batch, n - i);
    if (G_UNLIKELY (flushed (e, gen)))
      break;
    /* the lines under these datagrams, and a few more */
    end = MIN ((guint64) (i + count) * ST2022_PAYLOAD_SIZE,
        fmt->frame_bytes);
    need = MIN ((guint) ((end + fmt->line_bytes - 1) / fmt->line_bytes) +
        SLICE_LOOKAHEAD_LINES, fmt->total_lines);
    if (slot->cur.line <= need) {
      if (!ring_open_until (e, gen, origin + (guint64) need *
              fmt->line_bytes + ST2022_RASTER_CURSOR_SLACK))
        break;
      st2022_raster_writer_lines (slot->writer, &slot->cur, need);
    }
    if (i + count > prepared) {
      rc = st2022_packetizer_next (e->pkt, e->pkts + prepared,
          i + count - prepared);
      if (rc < 0)
        goto packetize_failed;
      for (k = prepared; k < prepared + (guint) rc; k++) {
        e->iov[2 * k].iov_base = e->pkts[k].header;
        e->iov[2 * k].iov_len = e->pkts[k].header_len;
        e->iov[2 * k + 1].iov_base = (gpointer) e->pkts[k].payload;
        e->iov[2 * k + 1].iov_len = e->pkts[k].payload_len;
        e->dgrams[k].frame = ring_frame_at (e, origin + (guint64) k *
            ST2022_PAYLOAD_SIZE);
      }
      prepared += rc;
    }
    if ((paced || (e->cfg.epoch && i == 0)) && !pace_until (e, gen,
            slot->start_mono + (gint64) ((guint64) period * i / n)))
      break;
    rc = vmi_transport_send_burst (e->t, &e->dgrams[i], count, &err);
    if (rc < 0)
      break;
    sent = rc;
    for (k = i; k < i + sent; k++)
      bytes += e->pkts[k].header_len + e->pkts[k].payload_len;
    ring_close_before (e, origin + (guint64) (i + sent) *
        ST2022_PAYLOAD_SIZE);
  }

out:
  /* the next frame starts on the next slice; what the NIC still holds
   * comes back through the slices' references */
  ring_close_before (e, G_MAXUINT64);
  slot_drop_lines (slot);
  engine_lock (e);
  e->stats.packets += i;
  e->stats.bytes += bytes;
  if (i == n)
    e->stats.frames++;
  engine_unlock (e);
  if (rc < 0 && err)
    set_error (e, err);
  return;

packetize_failed:
  g_set_error (&err, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
      "ST 2022-6 packetizing failed: %s", st2022_result_to_string (rc));
  rc = -1;
  goto out;
}

/* One frame's datagrams, spread evenly from slot->start_mono over the frame
 * period with software pacing. */
static void
send_frame (VmiTxEngine * e, Slot * slot, gint gen)
{
  GError *err = NULL;
  gboolean paced = e->cfg.pacing == VMI_TX_PACING_SOFTWARE;
  gint64 period = e->period_ns;
  guint i, k, n, batch, sent = 0;
  guint64 bytes = 0;
  gint rc;

  if (slot->sliced) {
    send_frame_sliced (e, slot, gen);
    return;
  }
  rc = e->cfg.epoch ? packetize_at (e, slot, slot->k, &err) :
      packetize (e, slot, tx_rtp (e, slot->rtp), &err);
  if (rc < 0)
    goto failed;
  n = rc;

  /* one deadline per batch of ~PACING_BATCH_NS of the frame period */
  batch = paced ? MAX (1, (guint) ((guint64) n * PACING_BATCH_NS /
          period)) : n;
  for (i = 0; i < n; i += sent) {
    guint count = MIN (batch, n - i);

    if (G_UNLIKELY (flushed (e, gen)))
      break;
    /* on the epoch an unpaced frame still leaves at its launch time */
    if ((paced || (e->cfg.epoch && i == 0)) && !pace_until (e, gen,
            slot->start_mono + (gint64) ((guint64) period * i / n)))
      break;
    rc = vmi_transport_send_burst (e->t, &e->dgrams[i], count, &err);
    if (rc < 0)
      break;
    sent = rc;
    for (k = i; k < i + sent; k++)
      bytes += e->pkts[k].header_len + e->pkts[k].payload_len;
  }

  engine_lock (e);
  e->stats.packets += i;
  e->stats.bytes += bytes;
  if (i == n)
    e->stats.frames++;
  engine_unlock (e);
  stats_changed (e);
  if (rc < 0)
    goto failed;
  return;

failed:
  set_error (e, err);
}

/* ---- Pacing-Assistant ---- */

typedef struct
{
  VmiTxEngine *e;
  gint gen;
  VmiPacer pacer;
  VmiFreqCtl *ctl;
  guint64 line_rate;
  /* frame on the wire (our reference held), the next datagram of it */
  Slot *cur;
  gboolean cur_repeat;
  guint idx, n;
  guint gap_left;               /* underrun=gap: datagram slots left to fill */
  /* the burst being built */
  VmiTxDatagram burst[PA_BURST];
  guint nb;
  guint64 burst_bytes;          /* its wire bytes */
  guint64 y_sent;               /* wire bytes accepted by the transport */
  gint64 t_start;               /* host time of the pacer's byte 0 */
  /* controller */
  gint64 t_ctl;                 /* host time of the controller's byte 0 */
  guint64 clk0, clk_prev;
  gint64 mono_prev;
  guint64 ref_k;
  gint64 next_clock_poll;
  guint64 k;                    /* cfg.epoch: the next wire frame's index */
  /* counters not yet added to e->stats */
  VmiTxEngineStats acc;
  GError *err;
} PaStream;

static inline guint64
pa_bytes (const PaStream * s, gint64 ns)
{
  return ns <= 0 ? 0 : vmi_pace_ns_to_bytes ((guint64) ns, s->line_rate);
}

static void
pa_commit_stats (PaStream * s)
{
  VmiTxEngine *e = s->e;

  engine_lock (e);
  e->stats.packets += s->acc.packets;
  e->stats.bytes += s->acc.bytes;
  e->stats.frames += s->acc.frames;
  e->stats.underruns += s->acc.underruns;
  e->stats.frames_repeated += s->acc.frames_repeated;
  e->stats.gap_frames += s->acc.gap_frames;
  e->stats.gap_bytes += s->acc.gap_bytes;
  e->stats.tx_queue_full += s->acc.tx_queue_full;
  e->stats.reference_packets += s->acc.reference_packets;
  e->stats.reference_late += s->acc.reference_late;
  e->stats.tau_updates = s->pacer.updates;
  vmi_pacer_get_tau (&s->pacer, &e->stats.tau_num, &e->stats.tau_den);
  engine_unlock (e);
  memset (&s->acc, 0, sizeof (s->acc));
  stats_changed (e);
}

/* Feeds the frequency controller with the reference arrivals up to now.
 * Controller byte-time: host time since t_ctl at the line rate. */
static void
pa_feed_reference (PaStream * s, gint64 now)
{
  VmiTxEngine *e = s->e;

  if (s->ctl == NULL)
    return;
  if (e->cfg.reference == VMI_TX_REFERENCE_CLOCK) {
    guint64 clk;
    guint64 num, den;

    if (now < s->next_clock_poll)
      return;
    s->next_clock_poll = now + PA_CLOCK_POLL_NS;
    clk = e->cfg.ref_clock (e->cfg.ref_clock_data);
    /* nominal packet k at clk0 + k * 1e9 * fps_d / (fps_n * N) ns; its
     * host time interpolated between the last two clock readings */
    num = (guint64) 1000000000 * e->fps_d;
    den = (guint64) e->fps_n * e->n_dgrams;
    if (clk > s->clk_prev) {
      for (;;) {
        guint64 tk = s->clk0 + (guint64) ((unsigned __int128) s->ref_k * num
            / den);
        gint64 mono_k;

        if (tk > clk)
          break;
        mono_k = s->mono_prev + (gint64) ((gdouble) (tk - s->clk_prev) *
            (gdouble) (now - s->mono_prev) / (gdouble) (clk - s->clk_prev));
        if (vmi_freq_ctl_push (s->ctl, pa_bytes (s, mono_k - s->t_ctl)))
          s->acc.reference_packets++;
        else
          s->acc.reference_late++;
        s->ref_k++;
      }
      s->clk_prev = clk;
      s->mono_prev = now;
    }
    vmi_freq_ctl_set_horizon (s->ctl, pa_bytes (s, now - s->t_ctl));
  } else if (e->cfg.reference == VMI_TX_REFERENCE_STREAM) {
    gint head = g_atomic_int_get (&e->ref_head);
    gint tail = e->ref_tail;

    while (tail != head) {
      gint64 t = (gint64) e->ref_ring[tail % REF_RING];

      tail++;
      if (t < s->t_ctl)
        continue;
      if (vmi_freq_ctl_push (s->ctl, pa_bytes (s, t - s->t_ctl)))
        s->acc.reference_packets++;
      else
        s->acc.reference_late++;
    }
    g_atomic_int_set (&e->ref_tail, tail);
    vmi_freq_ctl_set_horizon (s->ctl, pa_bytes (s,
            now - PA_REF_DELAY_NS - s->t_ctl));
  }
}

/* Hands the burst to the transport, busy-polling while its queue is full.
 * FALSE when flushed, stopped or failed. */
static gboolean
pa_flush_burst (PaStream * s)
{
  VmiTxEngine *e = s->e;
  guint off = 0;
  gint rc;
  gint64 now;
  guint64 limit;

  if (s->nb == 0)
    return TRUE;
  if (G_UNLIKELY (flushed (e, s->gen)))
    return FALSE;
  /* never more than PA_AHEAD_NS of wire time ahead of the host clock */
  for (;;) {
    now = vmi_tx_mono_now ();
    limit = pa_bytes (s, now - s->t_start);
    limit += limit / 1000000 * PA_AHEAD_PPM + pa_bytes (s, PA_AHEAD_NS);
    if (s->y_sent + s->burst_bytes <= limit)
      break;
    pa_feed_reference (s, now);
    if (G_UNLIKELY (flushed (e, s->gen)))
      return FALSE;
    pa_wait_queue (e);
  }
  for (;;) {
    rc = vmi_transport_send_burst (e->t, s->burst + off, s->nb - off,
        &s->err);
    if (G_UNLIKELY (rc < 0))
      return FALSE;
    off += rc;
    if (off == s->nb)
      break;
    s->acc.tx_queue_full++;
    pa_feed_reference (s, vmi_tx_mono_now ());
    if (G_UNLIKELY (flushed (e, s->gen) || e->stop))
      return FALSE;
    pa_wait_queue (e);
  }
  s->y_sent += s->burst_bytes;
  s->nb = 0;
  s->burst_bytes = 0;
  pa_feed_reference (s, vmi_tx_mono_now ());
  return TRUE;
}

static inline void
pa_add_gap (PaStream * s, guint32 n)
{
  VmiTxDatagram *d = &s->burst[s->nb++];

  d->iov = NULL;
  d->n_iov = 0;
  d->frame = NULL;
  d->gap_wire_bytes = n;
  s->burst_bytes += n;
  s->acc.gap_frames++;
  s->acc.gap_bytes += n;
}

/* The next frame at a frame boundary: a queued one, else (upstream late)
 * the last one again or gaps. FALSE when the stream ends (drained, flushed,
 * failed). */
static gboolean
pa_next_frame (PaStream * s)
{
  VmiTxEngine *e = s->e;
  Slot *next;
  gboolean draining;
  gint rc;

  /* the packetizer reuses its datagram array: what we built leaves first */
  if (!pa_flush_burst (s))
    return FALSE;
  if (s->cur && !s->cur_repeat && s->idx == s->n && s->n)
    s->acc.frames++;
  s->idx = s->n = 0;
  pa_commit_stats (s);

  /* under the lock a flush cannot come between the check and the pop: the
   * queue then holds only frames submitted after the flush, for the next
   * stream */
  engine_lock (e);
  if (flushed (e, s->gen)) {
    engine_unlock (e);
    return FALSE;
  }
  next = g_queue_pop_head (&e->queue);
  if (next)
    next->state = SLOT_SENDING;
  draining = e->draining;
  engine_unlock (e);

  if (next) {
    if (s->cur)
      vmi_tx_frame_unref (&s->cur->txf);
    s->cur = next;
    s->cur_repeat = FALSE;
    rc = e->cfg.epoch ? packetize_at (e, next, s->k++, &s->err) :
        packetize (e, next, tx_rtp (e, next->rtp), &s->err);
  } else if (draining) {
    return FALSE;
  } else {
    s->acc.underruns++;
    if (e->cfg.underrun == VMI_TX_UNDERRUN_REPEAT && s->cur) {
      s->cur_repeat = TRUE;
      s->acc.frames_repeated++;
      rc = e->cfg.epoch ? packetize_at (e, s->cur, s->k++, &s->err) :
          packetize (e, s->cur, tx_rtp (e, e->tx_last_rtp), &s->err);
    } else {
      s->k++;
      s->gap_left = e->n_dgrams;
      s->idx = s->n = 0;
      return TRUE;
    }
  }
  if (rc < 0)
    return FALSE;
  s->idx = 0;
  s->n = rc;
  return TRUE;
}

/* cfg.epoch: the stream's first frame is the next one whose alignment
 * point is at least PA_EPOCH_MARGIN_NS away; wait for it (the controller
 * still fed), so wire frame j is frame k + j on the epoch. */
static gboolean
pa_start_on_epoch (PaStream * s)
{
  VmiTxEngine *e = s->e;
  guint64 clk = e->cfg.epoch_clock (e->cfg.epoch_clock_data);
  gint64 now = vmi_tx_mono_now (), target;

  s->k = vmi_epoch_frame_at_or_after (&e->ep, clk + PA_EPOCH_MARGIN_NS);
  target = now + (gint64) (vmi_epoch_frame_time_ns (&e->ep, s->k) - clk);
  while ((now = vmi_tx_mono_now ()) < target - PACING_SPIN_NS) {
    struct timespec ts = { 0, 50000 };

    pa_feed_reference (s, now);
    if (flushed (e, s->gen) || e->stop)
      return FALSE;
    nanosleep (&ts, NULL);
  }
  while (vmi_tx_mono_now () < target);
  return TRUE;
}

static gboolean
pa_start (PaStream * s)
{
  VmiTxEngine *e = s->e;
  VmiPaceError err;
  gboolean controlled = e->cfg.pacing == VMI_TX_PACING_PA_CONTROLLED
      && e->cfg.reference != VMI_TX_REFERENCE_NONE;

  s->line_rate = e->cfg.line_rate;
  if (!controlled) {
    err = vmi_pacer_init_free_running (&s->pacer, VMI_GAP_MIN_WIRE_BYTES,
        VMI_GAP_MAX_WIRE_BYTES, VMI_TX_MEDIA_WIRE_BYTES, e->tau_num,
        e->tau_den);
  } else {
    guint64 w = pa_bytes (s, e->cfg.window_ns);
    gint64 now;

    s->ctl = vmi_freq_ctl_new (e->cfg.n_windows, e->ctl_capacity);
    err = vmi_pacer_init_controlled (&s->pacer, VMI_GAP_MIN_WIRE_BYTES,
        VMI_GAP_MAX_WIRE_BYTES, VMI_TX_MEDIA_WIRE_BYTES, s->ctl, w, w);
    /* the controller watches the reference for one window (the lead) and
     * a margin before the first packet: nothing is on the wire meanwhile */
    s->t_ctl = now = vmi_tx_mono_now ();
    /* discard reference arrivals from before this stream */
    g_atomic_int_set (&e->ref_tail, g_atomic_int_get (&e->ref_head));
    if (e->cfg.reference == VMI_TX_REFERENCE_CLOCK) {
      s->clk0 = s->clk_prev = e->cfg.ref_clock (e->cfg.ref_clock_data);
      s->mono_prev = now;
    }
    while (err == VMI_PACE_OK
        && (now = vmi_tx_mono_now ()) < s->t_ctl + (gint64) e->cfg.window_ns +
        PA_CTL_MARGIN_NS) {
      struct timespec ts = { 0, 50000 };

      pa_feed_reference (s, now);
      if (flushed (e, s->gen) || e->stop)
        return FALSE;
      nanosleep (&ts, NULL);
    }
  }
  if (err != VMI_PACE_OK) {
    g_set_error (&s->err, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "pacing=%s: %s", pacing_name (e->cfg.pacing),
        vmi_pace_error_string (err));
    return FALSE;
  }
  if (e->cfg.epoch && !pa_start_on_epoch (s))
    return FALSE;
  s->t_start = vmi_tx_mono_now ();
  return TRUE;
}

/* One PA stream: from the first queued frame (after B1 filled) until
 * drained, flushed, stopped or failed. */
static void
pa_stream (VmiTxEngine * e, gint gen)
{
  PaStream *s = g_new0 (PaStream, 1);
  guint32 n;

  s->e = e;
  s->gen = gen;
  if (!pa_start (s))
    goto done;

  for (;;) {
    switch (vmi_pacer_next (&s->pacer, &n)) {
      case VMI_PACE_CMD_SEND:
        if (s->idx == s->n && s->gap_left == 0 && !pa_next_frame (s))
          goto done;
        if (s->gap_left) {
          /* underrun=gap: the missing frame's time, datagram by datagram */
          s->gap_left--;
          pa_add_gap (s, n);
        } else {
          VmiTxDatagram *d = &s->burst[s->nb++];
          const St2022Datagram *p = &s->e->pkts[s->idx];

          *d = e->dgrams[s->idx++];
          d->gap_wire_bytes = 0;
          s->burst_bytes += n;
          s->acc.packets++;
          s->acc.bytes += p->header_len + p->payload_len;
        }
        break;
      case VMI_PACE_CMD_WAIT:
        pa_add_gap (s, n);
        break;
      case VMI_PACE_CMD_STALL:
        if (!pa_flush_burst (s))
          goto done;
        pa_feed_reference (s, vmi_tx_mono_now ());
        if (flushed (e, gen) || e->stop)
          goto done;
        pa_wait_queue (e);
        continue;
      case VMI_PACE_CMD_ERROR:
      default:
        g_set_error (&s->err, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
            "pacing=%s stopped: %s", pacing_name (e->cfg.pacing),
            vmi_pace_error_string (vmi_pacer_error (&s->pacer)));
        goto done;
    }
    if (s->nb == PA_BURST && !pa_flush_burst (s))
      goto done;
    if (G_UNLIKELY (flushed (e, gen) || e->stop))
      goto done;
  }

done:
  /* a stream that ends on a drain ends after whole frames */
  if (s->err == NULL && !flushed (e, gen) && !e->stop)
    pa_flush_burst (s);
  if (s->cur && !s->cur_repeat && s->idx == s->n && s->n)
    s->acc.frames++;
  pa_commit_stats (s);
  if (s->cur)
    vmi_tx_frame_unref (&s->cur->txf);
  if (s->err)
    set_error (e, s->err);
  vmi_freq_ctl_free (s->ctl);
  g_free (s);
}

/* ---- the thread ---- */

gboolean
vmi_tx_thread_setup (gint cpu)
{
  gboolean pinned = FALSE;

  /* precise wake-ups for software pacing */
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  if (cpu >= 0) {
    cpu_set_t set;

    CPU_ZERO (&set);
    CPU_SET (cpu, &set);
    pinned = pthread_setaffinity_np (pthread_self (), sizeof (set), &set) == 0;
    if (!pinned)
      g_warning ("st2022 transmit thread: cannot pin to CPU %d: %s", cpu,
          g_strerror (errno));
  }
  /* Real-time priority where allowed (root, CAP_SYS_NICE): a busy machine
   * then delays other work rather than our datagrams. Software pacing
   * sleeps between batches and an unpinned PA sleeps while the TX queue is
   * full, so neither starves the core; a pinned PA busy-polls its own
   * core (tools/vmi-host-check: isolate it, lift the RT throttling). */
  {
    struct sched_param sp = {.sched_priority = 10 };
    pthread_setschedparam (pthread_self (), SCHED_FIFO, &sp);
  }
  return pinned;
}

static gpointer
vmi_tx_engine_thread (gpointer data)
{
  VmiTxEngine *e = data;

  e->spin = vmi_tx_thread_setup (e->cfg.tx_cpu);
  engine_lock (e);
  while (!e->stop) {
    gint gen = g_atomic_int_get (&e->flush_gen);
    guint queued = g_queue_get_length (&e->queue);
    Slot *slot;

    if (queued == 0 || (e->pa && queued < e->cfg.prefill_frames
            && !e->draining) || e->error) {
      engine_wait (e);
      continue;
    }
    e->busy = TRUE;
    if (e->pa) {
      engine_unlock (e);
      pa_stream (e, gen);
    } else {
      slot = g_queue_pop_head (&e->queue);
      slot->state = SLOT_SENDING;
      engine_unlock (e);
      if (!flushed (e, gen))
        send_frame (e, slot, gen);
      slot_drop_lines (slot);
      vmi_tx_frame_unref (&slot->txf);
    }
    engine_lock (e);
    e->busy = FALSE;
    engine_broadcast (e);
  }
  engine_unlock (e);
  return NULL;
}

/* ---- a member of a shared transmit engine (vmi-tx-shared.c) ---- */

gint
vmi_tx_engine_shared_next (VmiTxEngine * e, gint64 * start, gint64 * ready,
    guint64 * period, guint * n, gboolean * paced)
{
  GError *err = NULL;
  Slot *slot;
  gint gen, rc;

  if (!engine_trylock (e))
    return -1;
  gen = g_atomic_int_get (&e->flush_gen);
  slot = e->error ? NULL : g_queue_pop_head (&e->queue);
  if (slot == NULL) {
    engine_unlock (e);
    return 0;
  }
  slot->state = SLOT_SENDING;
  e->busy = TRUE;
  engine_unlock (e);

  /* never sliced: set_lines() has no ring to take a frame with */
  rc = e->cfg.epoch ? packetize_at (e, slot, slot->k, &err) :
      packetize (e, slot, tx_rtp (e, slot->rtp), &err);
  e->sh_slot = slot;
  e->sh_gen = gen;
  e->sh_bytes = 0;
  if (rc <= 0) {
    if (err)
      set_error (e, err);
    vmi_tx_engine_shared_end (e, FALSE, FALSE, FALSE, 0, TRUE);
    return 0;
  }
  *start = slot->start_mono;
  *ready = slot->queued_mono;
  *period = e->period_ns;
  *n = rc;
  /* on the epoch an unpaced frame still leaves at its launch time; else
   * at once (its launch time is when it was submitted) */
  *paced = e->cfg.pacing == VMI_TX_PACING_SOFTWARE;
  return 1;
}

gint
vmi_tx_engine_shared_send (VmiTxEngine * e, guint first, guint count)
{
  GError *err = NULL;
  gint rc;
  guint k;

  if (G_UNLIKELY (flushed (e, e->sh_gen)))
    return -1;
  rc = vmi_transport_send_burst (e->t, &e->dgrams[first], count, &err);
  if (G_UNLIKELY (rc < 0)) {
    set_error (e, err);
    return -1;
  }
  for (k = first; k < first + (guint) rc; k++)
    e->sh_bytes += e->pkts[k].header_len + e->pkts[k].payload_len;
  e->stats_pending += rc;
  return rc;
}

gboolean
vmi_tx_engine_shared_end (VmiTxEngine * e, gboolean complete, gboolean late,
    gboolean behind, gint64 late_ns, gboolean wait)
{
  Slot *slot = e->sh_slot;

  if (wait)
    engine_lock (e);
  else if (!engine_trylock (e))
    return FALSE;
  e->sh_slot = NULL;
  e->stats.packets += e->stats_pending;
  e->stats.bytes += e->sh_bytes;
  if (complete)
    e->stats.frames++;
  if (late)
    e->stats.frames_late++;
  if (behind)
    e->stats.frames_behind++;
  e->stats.late_max = MAX (e->stats.late_max, late_ns);
  e->stats_pending = 0;
  e->busy = FALSE;
  /* our reference, dropped under the lock we hold (slot_release() would
   * take it): the raster is free unless a transport still reads it */
  if (slot && g_atomic_int_dec_and_test (&slot->txf.refs))
    slot->state = SLOT_FREE;
  engine_broadcast (e);
  engine_unlock (e);
  stats_changed (e);
  return TRUE;
}
