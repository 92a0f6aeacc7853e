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

/* A path whose queue takes nothing for this long is stalled (a link
 * without carrier, a device that stopped): what it does not take is
 * counted as failed and the other path goes on. A healthy queue drains in
 * far less (a frame's worth of datagrams leaves a 10 Gbit/s port in 5 ms). */
#define STALL_US 5000

typedef struct
{
  VmiTransport parent;
  VmiTransportClass klass;      /* the two paths' common capabilities */
  VmiTransport *leg[2];
  GMutex lock;                  /* guards legs[] (read from any thread) */
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
    vmi_transport_close (d->leg[i]);
    g_free (d->error[i]);
  }
  g_mutex_clear (&d->lock);
  g_free (d);
}

static void
leg_result (VmiTransportDual * d, guint i, guint sent, guint failed,
    GError * err)
{
  g_mutex_lock (&d->lock);
  d->legs[i].sent += sent;
  d->legs[i].failed += failed;
  if (err) {
    if (d->legs[i].up)
      d->legs[i].failures++;
    d->legs[i].up = FALSE;
    g_free (d->error[i]);
    d->error[i] = g_strdup (err->message);
  } else if (sent > 0) {
    d->legs[i].up = TRUE;
  }
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
 * must carry the same entries in the same order. -1 when it failed or
 * stalled; @sent then says how many it took. */
static gint
send_all (VmiTransportDual * d, guint i, const VmiTxDatagram * dg, guint n,
    guint * sent, GError ** error)
{
  guint off = 0;
  gint rc;

  *sent = 0;
  while (off < n) {
    rc = vmi_transport_send_burst (d->leg[i], dg + off, n - off, error);
    if (rc < 0)
      return -1;
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

static gint
dual_send_burst (VmiTransport * t, const VmiTxDatagram * dg, guint n,
    GError ** error)
{
  VmiTransportDual *d = (VmiTransportDual *) t;
  GError *e0 = NULL, *e1 = NULL;
  guint sent;
  gint rc;

  /* the primary takes what its queue has room for, the secondary the
   * same entries */
  rc = vmi_transport_send_burst (d->leg[0], dg, n, &e0);
  if (rc == 0 && n > 0 && stalled (d, 0, &e0))
    rc = -1;
  if (rc > 0)
    d->stalled_since[0] = 0;
  if (rc >= 0) {
    leg_result (d, 0, rc, 0, NULL);
    if (send_all (d, 1, dg, rc, &sent, &e1) < 0) {
      leg_result (d, 1, sent, rc - sent, e1);
      g_clear_error (&e1);
    } else {
      leg_result (d, 1, rc, 0, NULL);
    }
    return rc;
  }

  /* the primary failed: the burst is the secondary's alone */
  leg_result (d, 0, 0, n, e0);
  rc = send_all (d, 1, dg, n, &sent, &e1);
  if (rc < 0) {
    leg_result (d, 1, sent, n - sent, e1);
    g_propagate_prefixed_error (error, e1,
        "both paths failed (primary: %s); secondary: ", e0->message);
    g_clear_error (&e0);
    return -1;
  }
  g_clear_error (&e0);
  leg_result (d, 1, rc, 0, NULL);
  return rc;
}

static void
dual_wakeup (VmiTransport * t)
{
  VmiTransportDual *d = (VmiTransportDual *) t;

  vmi_transport_wakeup (d->leg[0]);
  vmi_transport_wakeup (d->leg[1]);
}

static const gchar *
dual_get_warning (VmiTransport * t)
{
  VmiTransportDual *d = (VmiTransportDual *) t;
  const gchar *w = vmi_transport_get_warning (d->leg[0]);

  return w ? w : vmi_transport_get_warning (d->leg[1]);
}

/* the primary's counters: what the element reports for its stream; the
 * secondary's own come from vmi_transport_dual_leg() */
static void
dual_get_stats (VmiTransport * t, VmiTransportStats * stats)
{
  VmiTransportDual *d = (VmiTransportDual *) t;

  vmi_transport_get_stats (d->leg[0], stats);
}

static guint16
dual_get_local_port (VmiTransport * t)
{
  VmiTransportDual *d = (VmiTransportDual *) t;

  return vmi_transport_get_local_port (d->leg[0]);
}

VmiTransport *
vmi_transport_dual_new (VmiTransport * primary, VmiTransport * secondary)
{
  VmiTransportDual *d = g_new0 (VmiTransportDual, 1);
  guint i;

  d->leg[0] = primary;
  d->leg[1] = secondary;
  d->klass.name = primary->klass->name;
  d->klass.kind = primary->klass->kind;
  d->klass.caps = primary->klass->caps & secondary->klass->caps;
  d->klass.close = dual_close;
  d->klass.send_burst = dual_send_burst;
  d->klass.wakeup = dual_wakeup;
  d->klass.get_warning = dual_get_warning;
  d->klass.get_stats = dual_get_stats;
  d->klass.get_local_port = dual_get_local_port;
  d->parent.klass = &d->klass;
  g_mutex_init (&d->lock);
  for (i = 0; i < 2; i++)
    d->legs[i].up = TRUE;
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
  *out = d->legs[leg];
  if (error_msg)
    *error_msg = g_strdup (d->error[leg]);
  g_mutex_unlock (&d->lock);
}

VmiTransport *
vmi_transport_dual_leg (VmiTransport * t, guint leg)
{
  g_return_val_if_fail (vmi_transport_is_dual (t) && leg < 2, NULL);
  return ((VmiTransportDual *) t)->leg[leg];
}
