/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Shared transmit engines (see vmi-tx-shared.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vmi-tx-shared.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "pacing/vmi-tx-sched.h"
#include "vmi-engine-registry.h"

G_STATIC_ASSERT (VMI_TX_SHARED_MAX_STREAMS <= VMI_TX_SCHED_MAX_STREAMS);
G_STATIC_ASSERT (VMI_TX_SHARED_MAX_STREAMS <= 64);     /* the work mask */
G_STATIC_ASSERT (VMI_TX_SHARED_MAX_STREAMS <= VMI_ENGINE_REGISTRY_MAX_IDS);

/* datagrams per run of an unpaced frame (as a thread of its own sends
 * them, vmi-tx-engine.c) */
#define UNPACED_BATCH 64
/* runs one pass sends at most (64 streams' runs in a window, and then
 * the requests and queued frames are looked at) */
#define PASS_MAX_RUNS 64
/* how soon a lock held by another thread is tried again */
#define RETRY_NS 20000

typedef struct _VmiTxShared VmiTxShared;

struct _VmiTxSharedMember
{
  VmiTxShared *sh;
  guint id;
  VmiTxEngine *e;
};

typedef struct
{
  gboolean join;
  VmiTxSharedMember *member;
  gboolean done;
} Request;

struct _VmiTxShared
{
  /* first: the name, members and ids (vmi-engine-registry.h) */
  VmiEngineEntry entry;
  gint cpu;
  /* the port the first engine named: every other one must name it */
  gint port_index;
  gchar *port_name;
  GThread *thread;
  /* set by the thread before it serves the first request: the system
   * refused it real-time priority */
  gboolean no_rt;

  /* requests and wake-ups: the thread waits on @cond for work, the
   * joiners and leavers for their request */
  GMutex lock;
  GCond cond;
  GQueue requests;
  gint pending;                 /* atomic: requests queued */
  gint quit;                    /* atomic */
  gint sleeping;                /* atomic: the thread waits on @cond */
  guint64 work;                 /* atomic: a bit per member, frames queued */

  /* the thread's own */
  VmiTxSched sched;
  VmiTxSharedMember *by_id[VMI_TX_SHARED_MAX_STREAMS];
  guint64 late_seen[VMI_TX_SHARED_MAX_STREAMS];
  guint64 behind_seen[VMI_TX_SHARED_MAX_STREAMS];
  /* frames whose end waits for their engine's lock: a bit per member,
   * and what to tell it */
  guint64 ending;
  gboolean end_complete[VMI_TX_SHARED_MAX_STREAMS];
};

static inline void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#endif
}

/* Member @id's frame is over: the engine gets it back with its lateness
 * now, or (its lock taken, @wait FALSE) from a later turn of the loop.
 * A real-time thread always waits: the engine's lock inherits priority
 * (vmi-tx-engine.c), so a streaming thread preempted while holding it
 * runs at ours until it lets go (ends waited 14-30 us at most, where
 * trying and coming back let a stream's next frame wait up to 61 ms on a
 * loaded 2-vCPU VM); without real-time priority there is nothing to
 * inherit and the thread only tries. */
static void
end_frame (VmiTxShared * sh, guint id, gboolean complete, gboolean wait)
{
  VmiTxSchedStats st;
  gboolean late, behind;
  guint64 bit = G_GUINT64_CONSTANT (1) << id;

  vmi_tx_sched_cancel (&sh->sched, id);
  if (sh->ending & bit)
    complete = sh->end_complete[id];
  vmi_tx_sched_get_stats (&sh->sched, id, &st);
  late = st.frames_late != sh->late_seen[id];
  behind = st.frames_behind != sh->behind_seen[id];
  if (!vmi_tx_engine_shared_end (sh->by_id[id]->e, complete, late, behind,
          st.late_max, wait || !sh->no_rt)) {
    sh->ending |= bit;
    sh->end_complete[id] = complete;
    return;
  }
  sh->ending &= ~bit;
  sh->late_seen[id] = st.frames_late;
  sh->behind_seen[id] = st.frames_behind;
}

/* Member @id's next queued frame, if it is idle and has one */
static void
start_next (VmiTxShared * sh, guint id)
{
  VmiTxSharedMember *m = sh->by_id[id];
  gint64 start, ready;
  guint64 period;
  guint n;
  gboolean paced;

  if (m == NULL || vmi_tx_sched_busy (&sh->sched, id)
      || (sh->ending & (G_GUINT64_CONSTANT (1) << id)))
    return;
  switch (vmi_tx_engine_shared_next (m->e, &start, &ready, &period, &n,
          &paced)) {
    case 1:
      if (!vmi_tx_sched_begin_frame (&sh->sched, id, start, period, n,
              paced, ready))
        end_frame (sh, id, FALSE, FALSE);
      break;
    case -1:
      /* its lock is taken: next turn */
      __atomic_fetch_or (&sh->work, G_GUINT64_CONSTANT (1) << id,
          __ATOMIC_SEQ_CST);
      break;
    default:
      break;
  }
}

static void
serve_requests (VmiTxShared * sh)
{
  Request *r;

  /* a joiner or leaver holds it for a moment, unless preempted */
  if (!g_mutex_trylock (&sh->lock))
    return;
  while ((r = g_queue_pop_head (&sh->requests))) {
    VmiTxSharedMember *m = r->member;

    if (r->join) {
      sh->by_id[m->id] = m;
      vmi_tx_sched_reset_stats (&sh->sched, m->id);
      sh->late_seen[m->id] = sh->behind_seen[m->id] = 0;
      /* it may have queued frames already */
      __atomic_fetch_or (&sh->work, G_GUINT64_CONSTANT (1) << m->id,
          __ATOMIC_SEQ_CST);
    } else if (sh->by_id[m->id] == m) {
      /* a state change of its element: waiting for its lock is fine */
      if (vmi_tx_sched_busy (&sh->sched, m->id)
          || (sh->ending & (G_GUINT64_CONSTANT (1) << m->id)))
        end_frame (sh, m->id, FALSE, TRUE);
      sh->by_id[m->id] = NULL;
    }
    r->done = TRUE;
    g_atomic_int_add (&sh->pending, -1);
  }
  g_cond_broadcast (&sh->cond);
  g_mutex_unlock (&sh->lock);
}

/* Sleeps until @until_ns (CLOCK_MONOTONIC; < 0: no limit) or until a
 * member queues a frame or a request comes; while a frame waits to end,
 * or the lock is taken, a moment only: the thread holding what we wait
 * for may be one this (real-time) thread keeps off its core. */
static void
wait_work (VmiTxShared * sh, gint64 until_ns)
{
  if (sh->ending) {
    gint64 soon = vmi_tx_mono_now () + RETRY_NS;

    until_ns = until_ns < 0 ? soon : MIN (until_ns, soon);
  }
  if (!g_mutex_trylock (&sh->lock)) {
    struct timespec ts = { 0, RETRY_NS };

    nanosleep (&ts, NULL);
    return;
  }
  g_atomic_int_set (&sh->sleeping, 1);
  while (__atomic_load_n (&sh->work, __ATOMIC_SEQ_CST) == 0
      && g_atomic_int_get (&sh->pending) == 0
      && !g_atomic_int_get (&sh->quit)) {
    if (until_ns < 0)
      g_cond_wait (&sh->cond, &sh->lock);
    else if (!g_cond_wait_until (&sh->cond, &sh->lock, until_ns / 1000))
      break;
  }
  g_atomic_int_set (&sh->sleeping, 0);
  g_mutex_unlock (&sh->lock);
}

/* the pass's side of the thread (vmi_tx_sched_pass()) */
static gint64
pass_now (gpointer user)
{
  return vmi_tx_mono_now ();
}

static gint
pass_send (gpointer user, const VmiTxRun * run)
{
  VmiTxShared *sh = user;

  return vmi_tx_engine_shared_send (sh->by_id[run->id]->e, run->first,
      run->count);
}

static void
pass_done (gpointer user, guint id, gboolean complete)
{
  VmiTxShared *sh = user;

  end_frame (sh, id, complete, FALSE);
  start_next (sh, id);
}

static const VmiTxSchedOps pass_ops = { pass_now, pass_send, pass_done };

static gpointer
shared_thread (gpointer data)
{
  VmiTxShared *sh = data;
  struct sched_param sp;
  int policy;

  vmi_tx_thread_setup (sh->cpu);
  /* without it any thread that wakes on our CPU, the sinks' own
   * included, runs for a time slice (milliseconds) while every stream's
   * runs wait */
  sh->no_rt = pthread_getschedparam (pthread_self (), &policy, &sp) != 0
      || policy != SCHED_FIFO;
  for (;;) {
    guint64 work;
    VmiTxRun run;
    gint64 now;
    gboolean full;

    if (G_UNLIKELY (g_atomic_int_get (&sh->pending) > 0))
      serve_requests (sh);
    if (G_UNLIKELY (g_atomic_int_get (&sh->quit)))
      break;
    /* frames whose end waited for their engine's lock */
    for (work = sh->ending; work; work &= work - 1) {
      guint id = (guint) __builtin_ctzll (work);

      end_frame (sh, id, FALSE, FALSE);
      start_next (sh, id);
    }
    work = __atomic_exchange_n (&sh->work, 0, __ATOMIC_SEQ_CST);
    while (work) {
      start_next (sh, (guint) __builtin_ctzll (work));
      work &= work - 1;
    }
    if (!vmi_tx_sched_peek (&sh->sched, &run)) {
      wait_work (sh, -1);
      continue;
    }
    /* nothing due within the window: sleep until the first run is due
     * (a queued frame or a request ends the sleep). No early wake-up and
     * no spin: the runs leave late by the wake-up latency (tens of us,
     * against the 834 us a 59.94 Hz run may be late), and a spin before
     * each of a few tens of thousand runs a second held the thread's CPU
     * for 70-80 % of its time with 8 streams */
    now = vmi_tx_mono_now ();
    if (run.deadline - now > VMI_TX_SCHED_WINDOW_NS) {
      wait_work (sh, run.deadline);
      continue;
    }
    /* every run due within the window, of every stream, in one pass */
    vmi_tx_sched_pass (&sh->sched, now, VMI_TX_SCHED_WINDOW_NS,
        PASS_MAX_RUNS, &pass_ops, sh, &full);
    if (G_UNLIKELY (full)) {
      /* the port's queue is full: the run stays due */
      cpu_relax ();
    }
  }
  return NULL;
}

/* Queues @r and waits until the thread has carried it out. */
static void
shared_request (VmiTxShared * sh, Request * r)
{
  g_mutex_lock (&sh->lock);
  g_queue_push_tail (&sh->requests, r);
  g_atomic_int_inc (&sh->pending);
  g_cond_broadcast (&sh->cond);
  while (!r->done)
    g_cond_wait (&sh->cond, &sh->lock);
  g_mutex_unlock (&sh->lock);
}

static void
shared_free (VmiEngineEntry * entry)
{
  VmiTxShared *sh = (VmiTxShared *) entry;

  if (sh->thread) {
    g_mutex_lock (&sh->lock);
    g_atomic_int_set (&sh->quit, TRUE);
    g_cond_broadcast (&sh->cond);
    g_mutex_unlock (&sh->lock);
    g_thread_join (sh->thread);
  }
  g_mutex_clear (&sh->lock);
  g_cond_clear (&sh->cond);
  g_free (sh->port_name);
  g_free (sh->entry.name);
  g_free (sh);
}

/* the engines of the process by name: their joins and leaves one at a
 * time */
static VmiEngineRegistry registry = VMI_ENGINE_REGISTRY_INIT (shared_free);

static VmiTxShared *
shared_new (const gchar * name, gint port_index, const gchar * port_name,
    gint cpu)
{
  VmiTxShared *sh = g_new0 (VmiTxShared, 1);
  gchar *tname;

  sh->entry.name = g_strdup (name);
  sh->cpu = cpu;
  sh->port_index = port_index;
  sh->port_name = g_strdup (port_name && *port_name ? port_name : NULL);
  g_mutex_init (&sh->lock);
  g_cond_init (&sh->cond);
  g_queue_init (&sh->requests);
  vmi_tx_sched_init (&sh->sched, VMI_TX_PACING_BATCH_NS, UNPACED_BATCH);
  /* "vmi-tx-<name>": what top and /proc show (15 characters at most) */
  tname = g_strdup_printf ("vmi-tx-%.8s", name);
  sh->thread = g_thread_new (tname, shared_thread, sh);
  g_free (tname);
  return sh;
}

VmiTxSharedMember *
vmi_tx_shared_join (const gchar * name, VmiTxEngine * e, gint port_index,
    const gchar * port_name, gint cpu, gchar ** warning, GError ** error)
{
  VmiTxShared *sh;
  VmiTxSharedMember *m = NULL;
  Request r = { 0 };
  gchar *w = NULL;
  gint id;

  g_return_val_if_fail (name && *name && e, NULL);
  if (port_name && !*port_name)
    port_name = NULL;
  vmi_engine_registry_lock (&registry);
  sh = (VmiTxShared *) vmi_engine_registry_find (&registry, name);
  if (sh == NULL) {
    sh = shared_new (name, port_index, port_name, cpu);
    vmi_engine_registry_add (&registry, &sh->entry);
  } else if (sh->port_index != port_index
      || g_strcmp0 (sh->port_name, port_name) != 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_BUSY,
        "shared-engine '%s' sends on port %s (dpdk-port %d), this sender "
        "names port %s (dpdk-port %d): an engine has one port; give senders "
        "on another port another shared-engine name", name,
        sh->port_name ? sh->port_name : "-", sh->port_index,
        port_name ? port_name : "-", port_index);
    goto out;
  } else if (cpu >= 0 && cpu != sh->cpu) {
    w = g_strdup_printf ("shared-engine '%s' runs %s%d (set by the sender "
        "that started it): tx-cpu=%d is not applied", name, sh->cpu >= 0 ?
        "on CPU " : "unpinned, tx-cpu ", sh->cpu, cpu);
  }
  id = vmi_engine_registry_join (&registry, &sh->entry,
      VMI_TX_SHARED_MAX_STREAMS);
  if (id < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_BUSY,
        "shared-engine '%s' serves %u senders already, its most: give this "
        "one another shared-engine name", name, VMI_TX_SHARED_MAX_STREAMS);
    goto out;
  }
  m = g_new0 (VmiTxSharedMember, 1);
  m->sh = sh;
  m->id = id;
  m->e = e;
  r.join = TRUE;
  r.member = m;
  shared_request (sh, &r);
  if (sh->no_rt) {
    gchar *rt = g_strdup_printf ("%s%sshared-engine '%s' runs without "
        "real-time priority (the system refused SCHED_FIFO): any other "
        "thread on its CPU can delay every stream's datagrams by a time "
        "slice; run as root or with CAP_SYS_NICE, or raise RLIMIT_RTPRIO "
        "(ulimit -r)", w ? w : "", w ? "; " : "", name);

    g_free (w);
    w = rt;
  }

out:
  vmi_engine_registry_unlock (&registry);
  if (warning)
    *warning = w;
  else
    g_free (w);
  return m;
}

void
vmi_tx_shared_leave (VmiTxSharedMember * m)
{
  VmiTxShared *sh;
  Request r = { 0 };

  if (m == NULL)
    return;
  sh = m->sh;
  g_return_if_fail (g_thread_self () != sh->thread);
  vmi_engine_registry_lock (&registry);
  r.join = FALSE;
  r.member = m;
  shared_request (sh, &r);
  /* the last one out stops the thread */
  vmi_engine_registry_leave (&registry, &sh->entry, m->id);
  vmi_engine_registry_unlock (&registry);
  g_free (m);
}

/* Takes @cpu out of the calling thread's CPUs, unless it has no other */
static void
keep_off_cpu (gint cpu)
{
  cpu_set_t set;

  if (pthread_getaffinity_np (pthread_self (), sizeof (set), &set) != 0
      || !CPU_ISSET (cpu, &set) || CPU_COUNT (&set) < 2)
    return;
  CPU_CLR (cpu, &set);
  pthread_setaffinity_np (pthread_self (), sizeof (set), &set);
}

void
vmi_tx_shared_kick (VmiTxSharedMember * m)
{
  /* the CPU this thread was last kept off (+ 1: 0 is none) */
  static _Thread_local gint kept_off;
  VmiTxShared *sh = m->sh;

  /* the thread queueing a frame is the one that wrote its raster (a
   * sink's streaming thread): on the engine's CPU it is what most delays
   * the engine (a 2-vCPU VM: runs 49-66 ms late with the writers there,
   * 4-5 ms without), so it moves off, once */
  if (G_UNLIKELY (sh->cpu >= 0 && kept_off != sh->cpu + 1)) {
    keep_off_cpu (sh->cpu);
    kept_off = sh->cpu + 1;
  }

  __atomic_fetch_or (&sh->work, G_GUINT64_CONSTANT (1) << m->id,
      __ATOMIC_SEQ_CST);
  /* the thread sets sleeping before it looks at the work bits: it sees
   * ours, or we see it asleep */
  if (g_atomic_int_get (&sh->sleeping)) {
    g_mutex_lock (&sh->lock);
    g_cond_broadcast (&sh->cond);
    g_mutex_unlock (&sh->lock);
  }
}
