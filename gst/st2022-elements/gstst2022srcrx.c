/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022src's receive side: its receive thread (or its turn on a shared
 * engine's), the stream lock in front of the depacketizer, silence and
 * its messages, and the IS-05 switch of transport between two frames. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>

#include "gstst2022src-priv.h"
#include "st2022-copy.h"
#include "transport/vmi-rawnet.h"

#define GST_CAT_DEFAULT gst_st2022_src_debug

/* The datagrams that confirmed a new stream (the last of them is the one
 * just judged) go to the depacketizer; it starts over unless they continue
 * its stream after a loss. */
static void
gst_st2022_src_relock (GstSt2022Src * self, guint64 arrival)
{
  if (st2022_stream_lock_replay_to (self->lock_gate, self->depay, arrival))
    GST_INFO_OBJECT (self, "new stream: starting over");
}

/* The element message is for applications; a user of gst-launch or
 * gst-play only sees warnings, and a receiver that hears nothing must say
 * so there too, once per silence. */
static void
gst_st2022_src_warn_silence (GstSt2022Src * self, guint64 timeout)
{
  gchar *addr, *iface, *secs;
  gint port;

  GST_OBJECT_LOCK (self);
  addr = g_strdup (self->address);
  iface = g_strdup (self->multicast_iface);
  port = self->port;
  GST_OBJECT_UNLOCK (self);
  secs = g_strdup_printf ("%.3g", (gdouble) timeout / GST_SECOND);
  if (self->had_signal)
    GST_ELEMENT_WARNING (self, RESOURCE, READ,
        ("the ST 2022-6 stream on %s:%d stopped: no datagram for %s s",
            addr, port, secs), ("timeout=%" G_GUINT64_FORMAT " ns; the "
            "stream is taken up again when it returns", timeout));
  else {
    struct in_addr ia;
    gchar *mc = inet_pton (AF_INET, addr, &ia) == 1 &&
        vmi_rawnet_is_multicast (ia.s_addr) ?
        g_strdup_printf (", that multicast-iface (%s) is the interface the "
        "group arrives on", iface ? iface : "unset: the default route's") :
        g_strdup ("");

    GST_ELEMENT_WARNING (self, RESOURCE, READ,
        ("no ST 2022-6 datagram on %s:%d for %s s; check that a sender "
            "sends to this address and port%s, and the firewall", addr,
            port, secs, mc), ("timeout=%" G_GUINT64_FORMAT " ns", timeout));
    g_free (mc);
  }
  g_free (secs);
  g_free (iface);
  g_free (addr);
}

/* No valid datagram for a while: after `timeout` (or IDLE_FLUSH_US when
 * there is none) hand the depacketizer what the lock holds of the stream,
 * end the frame that waits for its end, and tell the application. */
static void
gst_st2022_src_idle (GstSt2022Src * self, gint64 now_mono)
{
  gint64 silent = now_mono - self->last_rx_mono;
  guint64 timeout;

  GST_OBJECT_LOCK (self);
  timeout = self->timeout;
  GST_OBJECT_UNLOCK (self);

  if (timeout > 0 ? (guint64) silent * 1000 >= timeout :
      silent > IDLE_FLUSH_US) {
    /* the datagrams the lock held as the stream going on after a loss
     * arrived: they go in as the live path takes them (into the frame,
     * or late), not lost because the confirming run never came */
    guint n = self->legs ? 0 : st2022_stream_lock_release_to (self->lock_gate,
        self->depay, self->last_burst);

    if (n > 0)
      GST_DEBUG_OBJECT (self, "%u datagrams the lock held handed back", n);
    if (self->in_progress > 0) {
      /* what the merge still holds of that frame goes in first */
      if (self->legs)
        gst_st2022_src_legs_drain (self->legs);
      st2022_depacketizer_flush (self->depay);
      gst_st2022_src_update_stats (self);
    } else if (n > 0) {
      gst_st2022_src_update_stats (self);
    }
  }
  if (timeout == 0 || self->signal_lost
      || (guint64) silent * 1000 < timeout)
    return;

  self->signal_lost = TRUE;
  /* whatever comes next is the stream now, from its first datagram */
  if (self->legs)
    gst_st2022_src_legs_reset (self->legs);
  st2022_stream_lock_reset (self->lock_gate);
  st2022_depacketizer_flush (self->depay);
  GST_OBJECT_LOCK (self);
  if (self->had_signal)
    self->signal_lost_count++;
  GST_OBJECT_UNLOCK (self);
  gst_st2022_src_update_stats (self);
  GST_INFO_OBJECT (self, "no datagram for %" GST_TIME_FORMAT,
      GST_TIME_ARGS (timeout));
  gst_st2022_src_warn_silence (self, timeout);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_structure_new ("st2022-timeout", "timeout", G_TYPE_UINT64,
              timeout, "signal-lost", G_TYPE_BOOLEAN, self->had_signal,
              NULL)));
}

/* Receive thread, @lock held: the IS-05 transport becomes the one
 * received from, between two frames (TRUE, @lock released); FALSE (@lock
 * still held) while a frame of the old stream is arriving, for at most
 * RETARGET_WAIT_US, after which that frame is ended as it is. */
static gboolean
gst_st2022_src_take_swap (GstSt2022Src * self)
{
  VmiTransport *old = self->t, *t2;

  if (self->in_progress > 0) {
    if (self->swap_since == 0)
      self->swap_since = g_get_monotonic_time ();
    if (g_get_monotonic_time () - self->swap_since < RETARGET_WAIT_US)
      return FALSE;
  }
  self->t = self->swap_t;
  self->swap_t = NULL;
  t2 = self->swap_t2;
  self->swap_t2 = NULL;
  self->swap_since = 0;
  g_mutex_unlock (&self->lock);

  vmi_transport_close (old);
  st2022_depacketizer_flush (self->depay);
  /* whatever the new transport brings is the stream, from its first
   * datagram */
  st2022_stream_lock_reset (self->lock_gate);
  if (self->legs && t2)
    gst_st2022_src_legs_set_secondary (self->legs, t2);
  else
    vmi_transport_close (t2);
  if (self->legs)
    gst_st2022_src_legs_set_primary (self->legs, self->t);
  self->rx_dropped_told = 0;
  self->last_rx_mono = g_get_monotonic_time ();

  /* done only now: the old socket is closed, its port free again */
  g_mutex_lock (&self->lock);
  g_atomic_int_set (&self->swap_pending, 0);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

gboolean
gst_st2022_src_swap_transport (GstSt2022Src * self, VmiTransport * t)
{
  return gst_st2022_src_swap_transports (self, t, NULL);
}

gboolean
gst_st2022_src_swap_transports (GstSt2022Src * self, VmiTransport * t,
    VmiTransport * t2)
{
  VmiTransport *replaced, *replaced2;

  g_mutex_lock (&self->lock);
  if (self->thread == NULL || self->stopping) {
    g_mutex_unlock (&self->lock);
    return FALSE;
  }
  replaced = self->swap_t;
  replaced2 = self->swap_t2;
  self->swap_t = t;
  self->swap_t2 = t2;
  g_atomic_int_set (&self->swap_pending, 1);
  g_cond_broadcast (&self->cond);
  /* until the receive thread has taken it (a frame's time or so) */
  while (g_atomic_int_get (&self->swap_pending) && !self->stopping)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);
  vmi_transport_close (replaced);
  vmi_transport_close (replaced2);
  return TRUE;
}

/* Datagrams of a burst whose payload lines are asked for ahead of the one
 * copied: each payload sits in a buffer of its own (an mbuf), where the
 * hardware prefetchers start cold. 2 measured best of 1, 2, 4, 8 on the
 * rx-gen source (docs/benchmarks.md); VMI_RX_PREFETCH overrides it (0:
 * none), for the benchmarks' A/B runs. */
#define RX_PREFETCH_AHEAD 2

/* A stream whose frames never end (a lost last datagram, every frame)
 * still shows its datagrams in the counters within this time */
#define RX_FOLD_INTERVAL GST_MSECOND

static guint
rx_prefetch_ahead (void)
{
  static gsize once;
  static guint ahead;

  if (g_once_init_enter (&once)) {
    const gchar *e = g_getenv ("VMI_RX_PREFETCH");

    ahead = e ? (guint) MIN (g_ascii_strtoull (e, NULL, 10), 64) :
        RX_PREFETCH_AHEAD;
    g_once_init_leave (&once, 1);
  }
  return ahead;
}

/* Receive thread, ST 2022-7: the primary was lost while the secondary
 * carried the stream (the legs open it again), or is back: the element's
 * transport follows, under @lock (unlock() wakes it), and a lost one is
 * closed on the legs' opener thread */
static void
gst_st2022_src_follow_primary (GstSt2022Src * self)
{
  VmiTransport *old;

  g_mutex_lock (&self->lock);
  old = self->t;
  self->t = gst_st2022_src_legs_primary (self->legs);
  g_mutex_unlock (&self->lock);
  if (old)
    gst_st2022_src_legs_release_primary (self->legs, old);
}

/* One burst of @n datagrams of @t (@n = 0: none came within
 * RX_TIMEOUT_US), on the receive thread or the shared engine's */
static void
gst_st2022_src_rx_process (GstSt2022Src * self, VmiTransport * t,
    const VmiRxSlot * rx, gint n)
{
  GstClock *clock;
  guint64 now;
  gboolean valid = FALSE;
  /* a run of accepted datagrams of a frame still arriving changes only
   * what the frame's end folds in (on_frame_end); anything else is
   * folded in with this run (see below) */
  gboolean fold = n == 0 || self->legs != NULL;
  gint i, ahead = (gint) rx_prefetch_ahead ();

  if (n > 0 && !self->legs) {
    VmiTransportStats ts;

    /* drops the transport learnt of with this burst explain a jump in
     * the stream: the lock takes it without a confirming run */
    vmi_transport_get_stats (t, &ts);
    if (ts.rx_dropped > self->rx_dropped_told) {
      st2022_stream_lock_note_dropped (self->lock_gate,
          ts.rx_dropped - self->rx_dropped_told);
      self->rx_dropped_told = ts.rx_dropped;
      fold = TRUE;
    }
  }

  GST_OBJECT_LOCK (self);
  clock = GST_ELEMENT_CLOCK (self) ? gst_object_ref (GST_ELEMENT_CLOCK (self))
      : NULL;
  GST_OBJECT_UNLOCK (self);
  /* one arrival time per burst: bursts are far shorter than a frame */
  now = clock ? gst_clock_get_time (clock) :
      (guint64) g_get_monotonic_time () * 1000;
  if (clock)
    gst_object_unref (clock);
  if (n > 0)
    self->last_burst = now;

  if (self->legs) {
    guint64 timeout;

    GST_OBJECT_LOCK (self);
    timeout = self->timeout;
    GST_OBJECT_UNLOCK (self);
    valid = gst_st2022_src_legs_dispatch (self->legs, now, timeout);
  }
  for (i = 0; !self->legs && i < MIN (ahead, n); i++)
    st2022_copy_prefetch (rx[i].data, rx[i].len);
  /* one path: the lock in front of the depacketizer */
  for (i = 0; !self->legs && i < n; i++) {
    St2022Header h;

    if (ahead && i + ahead < n)
      st2022_copy_prefetch (rx[i + ahead].data, rx[i + ahead].len);

    switch (st2022_stream_lock_push (self->lock_gate, rx[i].data,
            rx[i].len, &h)) {
      case ST2022_LOCK_ACCEPT:
        valid = TRUE;
        /* the lock has parsed the header */
        st2022_depacketizer_push_parsed (self->depay, rx[i].data, &h, now);
        break;
      case ST2022_LOCK_INVALID:
        /* counted (and rejected) by the depacketizer */
        st2022_depacketizer_push (self->depay, rx[i].data, rx[i].len, now);
        fold = TRUE;
        break;
      case ST2022_LOCK_RELOCK:
        valid = TRUE;
        gst_st2022_src_relock (self, now);
        fold = TRUE;
        break;
      case ST2022_LOCK_FOREIGN:
      case ST2022_LOCK_OUT_OF_WINDOW:
        fold = TRUE;
        break;
    }
    /* a retarget waits for the end of the frame of the old stream; what
     * follows in this burst is the old stream's next frame */
    if (G_UNLIKELY (g_atomic_int_get (&self->swap_pending))
        && self->in_progress == 0)
      break;
  }

  if (valid) {
    self->last_rx_mono = g_get_monotonic_time ();
    self->full_since = 0;
    if (self->signal_lost) {
      self->signal_lost = FALSE;
      GST_OBJECT_LOCK (self);
      if (self->had_signal)
        self->signal_restored_count++;
      GST_OBJECT_UNLOCK (self);
      GST_INFO_OBJECT (self, "stream back");
    }
    self->had_signal = TRUE;
  } else {
    gint64 mono = g_get_monotonic_time ();

    /* a full burst means more is queued (a receive thread back from a
     * stall reads its backlog, the stream behind the strays): silence is
     * judged once the queue is read, or once a flood kept it full long */
    if (n < RX_BURST)
      self->full_since = 0;
    else if (self->full_since == 0)
      self->full_since = mono;
    if (n < RX_BURST || mono - self->full_since >= IDLE_FLUSH_US)
      gst_st2022_src_idle (self, mono);
  }
  /* Folding takes the element's lock and reads three sets of counters:
   * on a shared engine with interleaved streams a run is a few datagrams,
   * and that was paid per run. A run of nothing but accepted datagrams of
   * a frame still arriving is left to that frame's end (on_frame_end), to
   * an empty poll or tick (RX_TIMEOUT_US, VMI_RX_ENGINE_TICK_US), or to
   * the next run after RX_FOLD_INTERVAL: the counters are that late at
   * most, never wrong. */
  if (fold || self->in_progress == 0 || now < self->last_fold
      || now - self->last_fold >= RX_FOLD_INTERVAL) {
    gst_st2022_src_update_stats (self);
    self->last_fold = now;
  }
  /* on the receive thread's clock, so they keep coming during silence */
  if (gst_st2022_common_stats_due (GST_ELEMENT (self), &self->common,
          &self->last_post, now))
    gst_st2022_src_post_stats (self);
}

gpointer
gst_st2022_src_rx_thread (gpointer data)
{
  GstSt2022Src *self = data;
  GError *err = NULL;
  gint n;

  if (self->thread_cpu >= 0) {
    cpu_set_t set;
    gint rc;

    CPU_ZERO (&set);
    CPU_SET (self->thread_cpu, &set);
    rc = pthread_setaffinity_np (pthread_self (), sizeof (set), &set);
    if (rc != 0)
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
          ("cannot pin the receive thread to CPU %d (rx-cpu): %s",
              self->thread_cpu, g_strerror (rc)), (NULL));
  }
  for (;;) {
    g_mutex_lock (&self->lock);
    if (self->stopping) {
      g_mutex_unlock (&self->lock);
      break;
    }
    if (g_atomic_int_get (&self->swap_pending)
        && gst_st2022_src_take_swap (self))
      continue;
    if (self->t == NULL && !gst_st2022_src_legs_primary_lost (self->legs)) {
      /* IS-05 disabled the receiver: nothing to receive, time still runs */
      g_cond_wait_until (&self->cond, &self->lock,
          g_get_monotonic_time () + RX_TIMEOUT_US);
      g_mutex_unlock (&self->lock);
      gst_st2022_src_idle (self, g_get_monotonic_time ());
      continue;
    }
    g_mutex_unlock (&self->lock);

    if (self->legs)
      n = gst_st2022_src_legs_recv (self->legs, RX_TIMEOUT_US, &err);
    else
      n = vmi_transport_recv_burst (self->t, self->rx, RX_BURST,
          RX_TIMEOUT_US, &err);
    /* first: a primary taken again is the element's even when the round
     * then failed */
    if (G_UNLIKELY (self->legs
            && gst_st2022_src_legs_primary (self->legs) != self->t))
      gst_st2022_src_follow_primary (self);
    if (n < 0)
      goto receive_failed;
    gst_st2022_src_rx_process (self, self->t, self->rx, n);
  }
  return NULL;

  /* ERRORS */
receive_failed:
  {
    g_mutex_lock (&self->lock);
    self->rx_error = err;
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
    return NULL;
  }
}

/* The shared engine's thread: our datagrams, a tick, or its failure */
static void
gst_st2022_src_engine_func (gpointer user_data, VmiTransport * t,
    const VmiRxSlot * slots, guint n, const GError * error)
{
  GstSt2022Src *self = user_data;

  if (G_UNLIKELY (error)) {
    g_mutex_lock (&self->lock);
    if (self->rx_error == NULL)
      self->rx_error = g_error_copy (error);
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
    return;
  }
  self->engine_t = t;
  gst_st2022_src_rx_process (self, t, slots, (gint) n);
}

/* Joins the shared engine @name with the stream @cfg describes */
gboolean
gst_st2022_src_join_engine (GstSt2022Src * self, GstSt2022Transport kind,
    const gchar * name, VmiTransportConfig * cfg, gint cpu, guint mbufs)
{
  const VmiTransportClass *klass = vmi_transport_lookup ((VmiTransportKind)
      kind);
  gchar *warning = NULL;
  GError *err = NULL;

  if (klass == NULL
      || !vmi_transport_class_has_caps (klass, VMI_TRANSPORT_CAP_DEMUX)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("shared-engine needs "
            "transport=dpdk (transport=%s receives on a thread per "
            "element): set transport=dpdk or clear shared-engine",
            gst_st2022_transport_nick (kind)), (NULL));
    return FALSE;
  }
  cfg->rx_mbufs = mbufs ? mbufs : SHARED_ENGINE_RX_MBUFS;
  self->member = vmi_rx_engine_join (name, klass, cfg, cpu,
      gst_st2022_src_engine_func, self, &warning, &err);
  if (warning)
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("%s", warning),
        ("shared-engine %s", name));
  g_free (warning);
  if (self->member == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ, ("%s", err->message),
        ("shared-engine %s", name));
    g_clear_error (&err);
    return FALSE;
  }
  return TRUE;
}
