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

#include <sched.h>

#include "vmi-transport-dual.h"
#include "vmi-transport-reopen.h"

/* A path whose queue takes nothing for this long is stalled (a link
 * without carrier, a device that stopped): what it does not take is
 * counted as failed and the other path goes on. A healthy queue drains in
 * far less (a frame's worth of datagrams leaves a 10 Gbit/s port in 5 ms). */
#define STALL_US 5000

static const gchar *const reopen_names[2] = {
  "st2022tx-path1", "st2022tx-path2"
};

typedef struct
{
  VmiTransport parent;
  VmiTransportClass klass;      /* the two paths' common capabilities */
  /* written by the sending thread only, under @lock (a path closed or
   * taken back: rare); read by it without the lock and by other threads
   * (stats, ports) under it */
  VmiTransport *leg[2];
  VmiTransportReopen *reopen[2];
  GMutex lock;
  /* sent and failed: the sending thread's, stored atomically (no lock per
   * burst); the rest changes under @lock when a path goes down or up */
  VmiTransportDualLeg legs[2];
  gchar *error[2];
  gint64 stalled_since[2];      /* sending thread: queue full since, or 0 */
} VmiTransportDual;

static void
dual_close (VmiTransport * t)
{
  VmiTransportDual *d = (VmiTransportDual *) t;
  guint i;

  for (i = 0; i < 2; i++) {
    /* a transport opened meanwhile and not taken is closed with it */
    vmi_transport_reopen_free (d->reopen[i]);
    vmi_transport_close (d->leg[i]);
    g_free (d->error[i]);
  }
  g_mutex_clear (&d->lock);
  g_free (d);
}

static inline void
count (guint64 * c, guint n)
{
  if (n > 0)
    __atomic_store_n (c, *c + n, __ATOMIC_RELAXED);
}

/* Path @i went down (@why), or stays down */
static void
leg_down (VmiTransportDual * d, guint i, const gchar * why)
{
  g_mutex_lock (&d->lock);
  if (d->legs[i].up)
    d->legs[i].failures++;
  d->legs[i].up = FALSE;
  g_free (d->error[i]);
  d->error[i] = g_strdup (why);
  g_mutex_unlock (&d->lock);
}

/* Path @i took @sent and did not take @failed; @err: it went down */
static void
leg_result (VmiTransportDual * d, guint i, guint sent, guint failed,
    GError * err)
{
  count (&d->legs[i].sent, sent);
  count (&d->legs[i].failed, failed);
  if (err) {
    leg_down (d, i, err->message);
  } else if (sent > 0 && G_UNLIKELY (!d->legs[i].up)) {
    g_mutex_lock (&d->lock);
    d->legs[i].up = TRUE;
    g_mutex_unlock (&d->lock);
  }
}

/* Path @i's interface went down or away (VMI_TRANSPORT_ERROR_LINK): its
 * transport is closed and opened again on the opener's thread.  Other
 * send errors (no route) keep the transport, tried again every burst. */
static void
leg_lost (VmiTransportDual * d, guint i)
{
  VmiTransport *dead;

  g_mutex_lock (&d->lock);
  dead = d->leg[i];
  d->leg[i] = NULL;
  d->legs[i].open = FALSE;
  g_mutex_unlock (&d->lock);
  d->stalled_since[i] = 0;
  vmi_transport_reopen_start (d->reopen[i], dead);
}

/* Path @i has no transport: takes the one opened meanwhile (one atomic
 * read while there is none) */
static inline void
leg_take (VmiTransportDual * d, guint i)
{
  VmiTransport *t;

  if (G_LIKELY (d->leg[i] != NULL))
    return;
  t = vmi_transport_reopen_take (d->reopen[i]);
  if (t == NULL)
    return;
  g_mutex_lock (&d->lock);
  d->leg[i] = t;
  d->legs[i].open = TRUE;
  d->legs[i].reopens++;
  g_mutex_unlock (&d->lock);
}

/* Path @i's queue took nothing: TRUE once that has lasted STALL_US (at
 * once while the path is already down for it) */
static gboolean
stalled (VmiTransportDual * d, guint i, GError ** error)
{
  gint64 now = g_get_monotonic_time ();

  if (d->stalled_since[i] == 0)
    d->stalled_since[i] = now;
  if (now - d->stalled_since[i] < STALL_US && d->legs[i].up)
    return FALSE;
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
      "its send queue took nothing for %d ms (no carrier? a stopped "
      "device?)", STALL_US / 1000);
  return TRUE;
}

/* All @n entries on path @i, waiting while its queue is full: both paths
 * must carry the same entries in the same order. -1 when it failed
 * (@hard: its send failed, else it stalled) or has no transport; @sent
 * then says how many it took. */
static gint
send_all (VmiTransportDual * d, guint i, const VmiTxDatagram * dg, guint n,
    guint * sent, gboolean * hard, GError ** error)
{
  guint off = 0;
  gint rc;

  *sent = 0;
  *hard = FALSE;
  if (d->leg[i] == NULL) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
        "%s", d->error[i] ? d->error[i] : "not open");
    return -1;
  }
  while (off < n) {
    rc = vmi_transport_send_burst (d->leg[i], dg + off, n - off, error);
    if (rc < 0) {
      *hard = TRUE;
      return -1;
    }
    if (rc == 0) {
      if (stalled (d, i, error))
        return -1;
      sched_yield ();
      continue;
    }
    d->stalled_since[i] = 0;
    off += rc;
    *sent = off;
  }
  return n;
}

/* The secondary sends the @m entries the primary took (or, the primary
 * down, the whole burst) */
static gint
secondary_send (VmiTransportDual * d, const VmiTxDatagram * dg, guint m,
    GError ** e1)
{
  guint sent;
  gboolean hard;

  if (send_all (d, 1, dg, m, &sent, &hard, e1) < 0) {
    /* a path without a transport stays down, its error as it was */
    if (d->leg[1] == NULL) {
      count (&d->legs[1].failed, m);
    } else {
      leg_result (d, 1, sent, m - sent, *e1);
      if (hard && g_error_matches (*e1, VMI_TRANSPORT_ERROR,
              VMI_TRANSPORT_ERROR_LINK))
        leg_lost (d, 1);
    }
    return -1;
  }
  leg_result (d, 1, m, 0, NULL);
  return m;
}

static gint
dual_send_burst (VmiTransport * t, const VmiTxDatagram * dg, guint n,
    GError ** error)
{
  VmiTransportDual *d = (VmiTransportDual *) t;
  GError *e0 = NULL, *e1 = NULL;
  gint rc = -1;

  leg_take (d, 0);
  leg_take (d, 1);
  /* the primary takes what its queue has room for, the secondary the
   * same entries */
  if (G_LIKELY (d->leg[0] != NULL)) {
    rc = vmi_transport_send_burst (d->leg[0], dg, n, &e0);
    if (rc == 0 && n > 0 && stalled (d, 0, &e0))
      rc = -2;
    if (rc > 0)
      d->stalled_since[0] = 0;
  }
  if (rc >= 0) {
    leg_result (d, 0, rc, 0, NULL);
    if (secondary_send (d, dg, rc, &e1) < 0)
      g_clear_error (&e1);
    return rc;
  }

  /* the primary failed: the burst is the secondary's alone */
  if (d->leg[0] == NULL) {
    count (&d->legs[0].failed, n);
  } else {
    leg_result (d, 0, 0, n, e0);
    if (rc == -1 && g_error_matches (e0, VMI_TRANSPORT_ERROR,
            VMI_TRANSPORT_ERROR_LINK))
      leg_lost (d, 0);
  }
  if (secondary_send (d, dg, n, &e1) < 0) {
    g_propagate_prefixed_error (error, e1,
        "both paths failed (primary: %s); secondary: ", e0 ? e0->message :
        d->error[0] ? d->error[0] : "not open");
    g_clear_error (&e0);
    return -1;
  }
  g_clear_error (&e0);
  return n;
}

static void
dual_wakeup (VmiTransport * t)
{
  VmiTransportDual *d = (VmiTransportDual *) t;

  g_mutex_lock (&d->lock);
  vmi_transport_wakeup (d->leg[0]);
  vmi_transport_wakeup (d->leg[1]);
  g_mutex_unlock (&d->lock);
}

/* at start (the paths as they opened) */
static const gchar *
dual_get_warning (VmiTransport * t)
{
  VmiTransportDual *d = (VmiTransportDual *) t;
  const gchar *w = NULL;
  guint i;

  g_mutex_lock (&d->lock);
  for (i = 0; w == NULL && i < 2; i++)
    if (d->leg[i])
      w = vmi_transport_get_warning (d->leg[i]);
  g_mutex_unlock (&d->lock);
  return w;
}

/* the primary's counters (since it last opened): what the element
 * reports for its stream; the paths' own come from
 * vmi_transport_dual_get_leg() */
static void
dual_get_stats (VmiTransport * t, VmiTransportStats * stats)
{
  VmiTransportDual *d = (VmiTransportDual *) t;

  g_mutex_lock (&d->lock);
  vmi_transport_get_stats (d->leg[0], stats);
  g_mutex_unlock (&d->lock);
}

static guint16
dual_get_local_port (VmiTransport * t)
{
  return vmi_transport_dual_get_local_port (t, 0);
}

VmiTransport *
vmi_transport_dual_new (VmiTransport * primary, VmiTransport * secondary,
    const VmiTransportClass * klass, const VmiTransportConfig * cfg_primary,
    const VmiTransportConfig * cfg_secondary, const gchar * secondary_error)
{
  VmiTransportDual *d = g_new0 (VmiTransportDual, 1);
  const VmiTransportConfig *cfg[2] = { cfg_primary, cfg_secondary };
  guint i;

  d->leg[0] = primary;
  d->leg[1] = secondary;
  d->klass.name = primary->klass->name;
  d->klass.kind = primary->klass->kind;
  d->klass.caps = primary->klass->caps & klass->caps;
  d->klass.close = dual_close;
  d->klass.send_burst = dual_send_burst;
  d->klass.wakeup = dual_wakeup;
  d->klass.get_warning = dual_get_warning;
  d->klass.get_stats = dual_get_stats;
  d->klass.get_local_port = dual_get_local_port;
  d->parent.klass = &d->klass;
  g_mutex_init (&d->lock);
  for (i = 0; i < 2; i++) {
    VmiTransportConfig c = *cfg[i];

    /* a path opened again sends from the port it had (what the SDP and
     * NMOS told) */
    if (c.source_port == 0)
      c.source_port = vmi_transport_get_local_port (d->leg[i]);
    d->reopen[i] = vmi_transport_reopen_new (klass, &c,
        VMI_TRANSPORT_DUAL_RETRY_US, reopen_names[i]);
    d->legs[i].up = d->legs[i].open = d->leg[i] != NULL;
  }
  if (secondary == NULL) {
    d->legs[1].failures = 1;
    d->error[1] = g_strdup (secondary_error);
    vmi_transport_reopen_start (d->reopen[1], NULL);
  }
  return &d->parent;
}

gboolean
vmi_transport_is_dual (VmiTransport * t)
{
  return t != NULL && t->klass->close == dual_close;
}

void
vmi_transport_dual_get_leg (VmiTransport * t, guint leg,
    VmiTransportDualLeg * out, gchar ** error_msg)
{
  VmiTransportDual *d = (VmiTransportDual *) t;

  g_return_if_fail (vmi_transport_is_dual (t) && leg < 2);
  g_mutex_lock (&d->lock);
  out->up = d->legs[leg].up;
  out->open = d->legs[leg].open;
  out->failures = d->legs[leg].failures;
  out->reopens = d->legs[leg].reopens;
  out->sent = __atomic_load_n (&d->legs[leg].sent, __ATOMIC_RELAXED);
  out->failed = __atomic_load_n (&d->legs[leg].failed, __ATOMIC_RELAXED);
  if (error_msg)
    *error_msg = g_strdup (d->error[leg]);
  g_mutex_unlock (&d->lock);
}

guint16
vmi_transport_dual_get_local_port (VmiTransport * t, guint leg)
{
  VmiTransportDual *d = (VmiTransportDual *) t;
  guint16 port;

  g_return_val_if_fail (vmi_transport_is_dual (t) && leg < 2, 0);
  g_mutex_lock (&d->lock);
  port = vmi_transport_get_local_port (d->leg[leg]);
  g_mutex_unlock (&d->lock);
  return port;
}
