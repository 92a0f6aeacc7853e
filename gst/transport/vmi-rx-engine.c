/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vmi-rx-engine.h"
#include "vmi-engine-registry.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

G_STATIC_ASSERT (VMI_RX_ENGINE_MAX_STREAMS <= VMI_ENGINE_REGISTRY_MAX_IDS);

/* datagrams per recv_burst() */
#define ENGINE_BURST 64
/* a real-time engine with nothing to receive sleeps this long: at 8
 * streams of 1080p59.94 some 50 datagrams arrive meanwhile (a NIC queue
 * holds thousands), and a real-time thread that never sleeps is throttled
 * by the kernel for 50 ms a second (sched_rt_runtime_us) */
#define ENGINE_IDLE_SLEEP_US 20

typedef struct _VmiRxEngine VmiRxEngine;

struct _VmiRxEngineMember
{
  VmiRxEngine *engine;
  guint id;
  gint kept_off;                /* atomic: vmi_rx_engine_keep_off_cpu() done */
  VmiRxEngineFunc func;
  gpointer user_data;
};

typedef struct
{
  gboolean join;
  VmiRxEngineMember *member;
  const VmiTransportConfig *cfg;        /* join: valid while the joiner waits */
  gboolean done, ok;
  GError *error;
} Request;

struct _VmiRxEngine
{
  /* first: the name, members and ids (vmi-engine-registry.h) */
  VmiEngineEntry entry;
  const VmiTransportClass *klass;
  VmiTransport *t;
  gint cpu;
  /* the port the first receiver named: every other one must name it */
  gint port_index;
  gchar *port_name;
  GThread *thread;
  /* set by the thread before it serves its first request */
  gboolean rt;

  /* requests: the joiners and leavers wait on @cond */
  GMutex lock;
  GCond cond;
  GQueue requests;
  gint pending;                 /* atomic: requests queued */
  gboolean quit;

  /* the engine thread's own */
  VmiRxEngineMember *by_id[VMI_RX_ENGINE_MAX_STREAMS];
  GError *failed;
};

static void
engine_serve_requests (VmiRxEngine * e)
{
  Request *r;

  g_mutex_lock (&e->lock);
  while ((r = g_queue_pop_head (&e->requests))) {
    VmiRxEngineMember *m = r->member;

    if (r->join) {
      if (e->failed) {
        r->ok = FALSE;
        r->error = g_error_copy (e->failed);
      } else {
        r->ok = e->klass->add_stream (e->t, m->id, r->cfg, &r->error);
      }
      if (r->ok)
        e->by_id[m->id] = m;
    } else {
      if (e->by_id[m->id] == m) {
        e->by_id[m->id] = NULL;
        if (!e->failed)
          e->klass->remove_stream (e->t, m->id);
      }
      r->ok = TRUE;
    }
    r->done = TRUE;
    g_atomic_int_add (&e->pending, -1);
  }
  g_cond_broadcast (&e->cond);
  g_mutex_unlock (&e->lock);
}

static void
engine_pin (VmiRxEngine * e)
{
  cpu_set_t set;
  int rc;

  if (e->cpu < 0)
    return;
  CPU_ZERO (&set);
  CPU_SET (e->cpu, &set);
  rc = pthread_setaffinity_np (pthread_self (), sizeof (set), &set);
  if (rc != 0) {
    g_warning ("receive engine '%s': cannot pin to CPU %d: %s", e->entry.name,
        e->cpu, g_strerror (rc));
    return;
  }
  /* A pinned engine has its CPU to itself: real-time priority where
   * allowed (root, CAP_SYS_NICE), so that no other thread waking there
   * holds every stream's datagrams for a time slice (milliseconds: more
   * than a NIC's queue at several streams). It sleeps when idle. */
  {
    struct sched_param sp = {.sched_priority = 10 };

    e->rt = pthread_setschedparam (pthread_self (), SCHED_FIFO, &sp) == 0;
  }
}

static void
engine_tick_all (VmiRxEngine * e, const GError * error)
{
  guint i;

  for (i = 0; i < VMI_RX_ENGINE_MAX_STREAMS; i++) {
    VmiRxEngineMember *m = e->by_id[i];
    if (m)
      m->func (m->user_data, e->t, NULL, 0, error);
  }
}

static gpointer
engine_thread (gpointer data)
{
  VmiRxEngine *e = data;
  VmiRxSlot slots[ENGINE_BURST], run[ENGINE_BURST];
  gboolean taken[ENGINE_BURST];
  gint64 last_tick = g_get_monotonic_time ();

  engine_pin (e);
  for (;;) {
    gint n, i, j;
    gint64 now;

    if (g_atomic_int_get (&e->pending) > 0)
      engine_serve_requests (e);
    if (G_UNLIKELY (g_atomic_int_get (&e->quit)))
      break;
    if (G_UNLIKELY (e->failed)) {
      /* nothing to receive from: wait for the members to leave */
      g_mutex_lock (&e->lock);
      while (g_atomic_int_get (&e->pending) == 0 && !e->quit)
        g_cond_wait (&e->cond, &e->lock);
      g_mutex_unlock (&e->lock);
      continue;
    }
    n = vmi_transport_recv_burst (e->t, slots, ENGINE_BURST,
        e->rt ? 0 : VMI_RX_ENGINE_TICK_US, &e->failed);
    if (e->rt && n == 0) {
      struct timespec ts = { 0, ENGINE_IDLE_SLEEP_US * 1000 };

      nanosleep (&ts, NULL);
    }
    if (G_UNLIKELY (n < 0)) {
      if (e->failed == NULL)
        g_set_error (&e->failed, VMI_TRANSPORT_ERROR,
            VMI_TRANSPORT_ERROR_IO, "receive failed");
      engine_tick_all (e, e->failed);
      continue;
    }
    /* each receiver gets its datagrams of the burst in one call, in
     * arrival order: interleaved streams (a switch merging senders) would
     * otherwise cost a call, and a receiver's per-burst work, per datagram */
    memset (taken, 0, n * sizeof (taken[0]));
    for (i = 0; i < n; i++) {
      guint id = slots[i].stream, k = 0;
      VmiRxEngineMember *m;

      if (taken[i])
        continue;
      for (j = i; j < n; j++)
        if (!taken[j] && slots[j].stream == id) {
          taken[j] = TRUE;
          run[k++] = slots[j];
        }
      m = id < VMI_RX_ENGINE_MAX_STREAMS ? e->by_id[id] : NULL;
      if (G_LIKELY (m))
        m->func (m->user_data, e->t, run, k, NULL);
    }
    now = g_get_monotonic_time ();
    if (now - last_tick >= VMI_RX_ENGINE_TICK_US) {
      engine_tick_all (e, NULL);
      last_tick = now;
    }
  }
  return NULL;
}

/* Queues @r and waits until the engine thread has carried it out. */
static void
engine_request (VmiRxEngine * e, Request * r)
{
  g_mutex_lock (&e->lock);
  g_queue_push_tail (&e->requests, r);
  g_atomic_int_inc (&e->pending);
  g_cond_broadcast (&e->cond);
  g_mutex_unlock (&e->lock);
  vmi_transport_wakeup (e->t);
  g_mutex_lock (&e->lock);
  while (!r->done)
    g_cond_wait (&e->cond, &e->lock);
  g_mutex_unlock (&e->lock);
}

static void
engine_free (VmiRxEngine * e)
{
  if (e->thread) {
    g_mutex_lock (&e->lock);
    g_atomic_int_set (&e->quit, TRUE);
    g_cond_broadcast (&e->cond);
    g_mutex_unlock (&e->lock);
    vmi_transport_wakeup (e->t);
    g_thread_join (e->thread);
  }
  vmi_transport_close (e->t);
  g_clear_error (&e->failed);
  g_mutex_clear (&e->lock);
  g_cond_clear (&e->cond);
  g_free (e->port_name);
  g_free (e->entry.name);
  g_free (e);
}

static void
engine_free_entry (VmiEngineEntry * entry)
{
  engine_free ((VmiRxEngine *) entry);
}

/* the engines of the process by name: their joins and leaves one at a
 * time */
static VmiEngineRegistry registry =
VMI_ENGINE_REGISTRY_INIT (engine_free_entry);

static VmiRxEngine *
engine_new (const gchar * name, const VmiTransportClass * klass,
    const VmiTransportConfig * cfg, gint cpu, GError ** error)
{
  VmiRxEngine *e;
  VmiTransportConfig c = *cfg;
  gchar *tname;

  if (!vmi_transport_class_has_caps (klass, VMI_TRANSPORT_CAP_DEMUX)
      || klass->add_stream == NULL || klass->remove_stream == NULL) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
        "transport=%s cannot serve a shared receive engine (it does not "
        "demultiplex streams): use transport=dpdk, or leave shared-engine "
        "empty", klass ? klass->name : "?");
    return NULL;
  }
  e = g_new0 (VmiRxEngine, 1);
  e->entry.name = g_strdup (name);
  e->klass = klass;
  e->cpu = cpu;
  e->port_index = cfg->dpdk_port;
  e->port_name = g_strdup (cfg->iface && *cfg->iface ? cfg->iface : NULL);
  g_mutex_init (&e->lock);
  g_cond_init (&e->cond);
  g_queue_init (&e->requests);
  c.direction = VMI_TRANSPORT_DIR_RECEIVE;
  c.demux = TRUE;
  e->t = klass->open (&c, error);
  if (e->t == NULL) {
    engine_free (e);
    return NULL;
  }
  /* "vmi-rx-<name>": what top and /proc show (15 characters at most) */
  tname = g_strdup_printf ("vmi-rx-%.8s", name);
  e->thread = g_thread_new (tname, engine_thread, e);
  g_free (tname);
  return e;
}

VmiRxEngineMember *
vmi_rx_engine_join (const gchar * name, const VmiTransportClass * klass,
    const VmiTransportConfig * cfg, gint cpu, VmiRxEngineFunc func,
    gpointer user_data, gchar ** warning, GError ** error)
{
  VmiRxEngine *e;
  VmiRxEngineMember *m = NULL;
  Request r = { 0 };
  GString *w = g_string_new (NULL);
  gint id;

  g_return_val_if_fail (name && *name && func, NULL);
  vmi_engine_registry_lock (&registry);
  e = (VmiRxEngine *) vmi_engine_registry_find (&registry, name);
  if (e == NULL) {
    const gchar *tw;

    e = engine_new (name, klass, cfg, cpu, error);
    if (e == NULL)
      goto out;
    vmi_engine_registry_add (&registry, &e->entry);
    tw = vmi_transport_get_warning (e->t);
    if (tw)
      g_string_append (w, tw);
  } else if (e->klass != klass) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_BUSY,
        "shared-engine '%s' receives with transport=%s: give this "
        "transport=%s receiver another shared-engine name", name,
        e->klass->name, klass ? klass->name : "?");
    goto out;
  } else if (e->port_index != cfg->dpdk_port || g_strcmp0 (e->port_name,
          cfg->iface && *cfg->iface ? cfg->iface : NULL) != 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_BUSY,
        "shared-engine '%s' receives on port %s (dpdk-port %d), this "
        "receiver names port %s (dpdk-port %d): an engine has one port; "
        "give receivers on another port another shared-engine name", name,
        e->port_name ? e->port_name : "-", e->port_index,
        cfg->iface && *cfg->iface ? cfg->iface : "-", cfg->dpdk_port);
    goto out;
  } else if (cpu >= 0 && cpu != e->cpu) {
    g_string_append_printf (w, "%sshared-engine '%s' runs %s%d (set by the "
        "receiver that started it): rx-cpu=%d is not applied", w->len ?
        "; " : "", name, e->cpu >= 0 ? "on CPU " : "unpinned, rx-cpu ",
        e->cpu, cpu);
  }
  id = vmi_engine_registry_join (&registry, &e->entry,
      VMI_RX_ENGINE_MAX_STREAMS);
  if (id < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_BUSY,
        "shared-engine '%s' serves %u receivers already, its most: give "
        "this one another shared-engine name", name,
        VMI_RX_ENGINE_MAX_STREAMS);
    goto out;
  }
  m = g_new0 (VmiRxEngineMember, 1);
  m->engine = e;
  m->id = id;
  m->func = func;
  m->user_data = user_data;
  r.join = TRUE;
  r.member = m;
  r.cfg = cfg;
  engine_request (e, &r);
  if (!r.ok) {
    g_propagate_error (error, r.error);
    g_clear_pointer (&m, g_free);
    /* an engine this receiver started goes with it */
    vmi_engine_registry_leave (&registry, &e->entry, id);
  } else if (e->cpu >= 0 && !e->rt) {
    g_string_append_printf (w, "%sshared-engine '%s' on CPU %d runs without "
        "real-time priority (the system refused SCHED_FIFO): any other "
        "thread on its CPU can hold every stream's datagrams for a time "
        "slice; run as root or with CAP_SYS_NICE, or raise RLIMIT_RTPRIO "
        "(ulimit -r)", w->len ? "; " : "", name, e->cpu);
  }

out:
  vmi_engine_registry_unlock (&registry);
  if (warning)
    *warning = w->len ? g_strdup (w->str) : NULL;
  g_string_free (w, TRUE);
  return m;
}

void
vmi_rx_engine_leave (VmiRxEngineMember * m)
{
  VmiRxEngine *e;
  Request r = { 0 };

  if (m == NULL)
    return;
  e = m->engine;
  g_return_if_fail (g_thread_self () != e->thread);
  vmi_engine_registry_lock (&registry);
  r.join = FALSE;
  r.member = m;
  engine_request (e, &r);
  /* the last one out stops the thread and closes the port */
  vmi_engine_registry_leave (&registry, &e->entry, m->id);
  vmi_engine_registry_unlock (&registry);
  g_free (m);
}

guint
vmi_rx_engine_count (const gchar * name)
{
  return vmi_engine_registry_count (&registry, name);
}

void
vmi_rx_engine_keep_off_cpu (VmiRxEngineMember * m)
{
  cpu_set_t set;
  gint cpu;

  if (m == NULL || g_atomic_int_get (&m->kept_off)
      || !g_atomic_int_compare_and_exchange (&m->kept_off, 0, 1))
    return;
  cpu = m->engine->cpu;
  if (cpu < 0 || !m->engine->rt
      || pthread_getaffinity_np (pthread_self (), sizeof (set), &set) != 0
      || !CPU_ISSET (cpu, &set) || CPU_COUNT (&set) < 2)
    return;
  CPU_CLR (cpu, &set);
  pthread_setaffinity_np (pthread_self (), sizeof (set), &set);
}
