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

#include "vmi-transport-reopen.h"

struct _VmiTransportReopen
{
  const VmiTransportClass *klass;
  gint64 retry_us;
  GThread *thread;
  GMutex lock;
  GCond cond;
  /* under @lock */
  VmiTransportConfig cfg;
  gboolean active;              /* opening wanted */
  gboolean stop;
  gint64 due;                   /* next try, monotonic µs */
  GPtrArray *dead;              /* transports to close */
  gchar *error;
  guint tries;
  /* atomic: what the thread opened, for the user's thread to take */
  gpointer opened;
};

/* @lock held; released while closing (a packet ring's unmap, a DPDK
 * queue's drain) */
static void
close_dead (VmiTransportReopen * r)
{
  while (r->dead->len > 0) {
    VmiTransport *t = g_ptr_array_steal_index (r->dead, r->dead->len - 1);

    g_mutex_unlock (&r->lock);
    vmi_transport_close (t);
    g_mutex_lock (&r->lock);
  }
}

static gpointer
reopen_func (gpointer data)
{
  VmiTransportReopen *r = data;

  g_mutex_lock (&r->lock);
  while (!r->stop) {
    VmiTransportConfig cfg;
    VmiTransport *t;
    GError *err = NULL;

    if (r->dead->len > 0) {
      close_dead (r);
      continue;
    }
    if (!r->active) {
      g_cond_wait (&r->cond, &r->lock);
      continue;
    }
    if (g_get_monotonic_time () < r->due) {
      g_cond_wait_until (&r->cond, &r->lock, r->due);
      continue;
    }
    cfg = r->cfg;
    cfg.need_carrier = TRUE;
    vmi_transport_config_own_strings (&cfg);
    g_mutex_unlock (&r->lock);
    t = r->klass->open (&cfg, &err);
    vmi_transport_config_clear (&cfg);
    g_mutex_lock (&r->lock);
    if (t == NULL) {
      r->tries++;
      g_free (r->error);
      r->error = g_strdup (err->message);
      g_error_free (err);
      r->due = g_get_monotonic_time () + r->retry_us;
    } else if (r->stop || !r->active) {
      g_ptr_array_add (r->dead, t);
    } else {
      r->active = FALSE;
      g_atomic_pointer_set (&r->opened, t);
    }
  }
  close_dead (r);
  g_mutex_unlock (&r->lock);
  return NULL;
}

VmiTransportReopen *
vmi_transport_reopen_new (const VmiTransportClass * klass,
    const VmiTransportConfig * cfg, gint64 retry_us,
    const gchar * thread_name)
{
  VmiTransportReopen *r = g_new0 (VmiTransportReopen, 1);

  r->klass = klass;
  r->retry_us = retry_us;
  g_mutex_init (&r->lock);
  g_cond_init (&r->cond);
  r->cfg = *cfg;
  vmi_transport_config_own_strings (&r->cfg);
  r->dead = g_ptr_array_new ();
  /* now, on the thread that opened the first transport: the opener's
   * thread then opens in the same network namespace (a thread inherits
   * its creator's; a streaming thread from GStreamer's pool may be in
   * another) */
  r->thread = g_thread_new (thread_name, reopen_func, r);
  return r;
}

void
vmi_transport_reopen_set_config (VmiTransportReopen * r,
    const VmiTransportConfig * cfg)
{
  VmiTransportConfig old;

  g_mutex_lock (&r->lock);
  old = r->cfg;
  r->cfg = *cfg;
  vmi_transport_config_own_strings (&r->cfg);
  g_mutex_unlock (&r->lock);
  vmi_transport_config_clear (&old);
}

void
vmi_transport_reopen_start (VmiTransportReopen * r, VmiTransport * dead)
{
  g_mutex_lock (&r->lock);
  if (dead)
    g_ptr_array_add (r->dead, dead);
  if (!r->active && g_atomic_pointer_get (&r->opened) == NULL) {
    r->active = TRUE;
    r->due = g_get_monotonic_time () + r->retry_us;
  }
  g_cond_signal (&r->cond);
  g_mutex_unlock (&r->lock);
}

void
vmi_transport_reopen_cancel (VmiTransportReopen * r)
{
  VmiTransport *t;

  g_mutex_lock (&r->lock);
  r->active = FALSE;
  t = g_atomic_pointer_exchange (&r->opened, NULL);
  if (t)
    g_ptr_array_add (r->dead, t);
  g_cond_signal (&r->cond);
  g_mutex_unlock (&r->lock);
}

VmiTransport *
vmi_transport_reopen_take (VmiTransportReopen * r)
{
  if (G_LIKELY (g_atomic_pointer_get (&r->opened) == NULL))
    return NULL;
  return g_atomic_pointer_exchange (&r->opened, NULL);
}

gchar *
vmi_transport_reopen_get_error (VmiTransportReopen * r)
{
  gchar *e;

  g_mutex_lock (&r->lock);
  e = g_strdup (r->error);
  g_mutex_unlock (&r->lock);
  return e;
}

guint
vmi_transport_reopen_get_tries (VmiTransportReopen * r)
{
  guint n;

  g_mutex_lock (&r->lock);
  n = r->tries;
  g_mutex_unlock (&r->lock);
  return n;
}

void
vmi_transport_reopen_free (VmiTransportReopen * r)
{
  if (r == NULL)
    return;
  g_mutex_lock (&r->lock);
  r->stop = TRUE;
  g_cond_signal (&r->cond);
  g_mutex_unlock (&r->lock);
  g_thread_join (r->thread);
  g_mutex_lock (&r->lock);
  close_dead (r);
  g_mutex_unlock (&r->lock);
  vmi_transport_close (g_atomic_pointer_get (&r->opened));
  g_ptr_array_unref (r->dead);
  vmi_transport_config_clear (&r->cfg);
  g_free (r->error);
  g_cond_clear (&r->cond);
  g_mutex_clear (&r->lock);
  g_free (r);
}
