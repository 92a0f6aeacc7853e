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

#include "gstst2022legs.h"
#include "transport/vmi-transport-reopen.h"
#include "st2022/st2022-seamless.h"

GST_DEBUG_CATEGORY_EXTERN (gst_st2022_legs_debug);
#define GST_CAT_DEFAULT gst_st2022_legs_debug

/* datagrams per recv_burst() and path */
#define LEGS_BURST 64
/* while a path carries the stream, the longest the receive thread waits on
 * one path before it looks at the other (µs): what that other path's
 * datagrams may wait in its socket buffer, far inside any window */
#define LEGS_SLICE_US 1000
/* datagrams per millisecond at the highest rate (3G 1080p): sizes the
 * merge's ring for the window */
#define LEGS_MAX_RATE_PER_MS 270
/* a second path whose interface is missing or down: how often it is
 * opened again (µs); a failing try costs a few ioctls */
#define LEGS_RETRY_US (250 * 1000)

/* --- st2022src ----------------------------------------------------------- */

struct _GstSt2022SrcLegs
{
  GstElement *element;
  /* the primary is the element's; the secondary NULL while its link is
   * not there */
  VmiTransport *t[2];
  /* guards t[1] against wakeup() from another thread */
  GMutex t_lock;
  /* while the secondary has no transport, a thread of its own
   * (st2022src-path2) opens it every LEGS_RETRY_US (an open maps a packet
   * ring of tens of MB: not on the receive thread, which the primary's
   * datagrams must not wait for); the primary's (st2022src-path1) the
   * same while the secondary carries the stream alone */
  VmiTransportReopen *reopen[2];
  /* the primary failed while the secondary carries the stream: the element
   * lets its transport go, and takes the one opened again
   * (gst_st2022_src_legs_primary()) */
  gboolean primary_lost;
  GstSt2022Transport kind;
  VmiTransportConfig cfg[2];    /* strings our own */
  St2022StreamLock *lock[2];    /* the primary's is the element's */
  St2022Depacketizer *depay;
  St2022Seamless *merge;
  VmiRxSlot rx[2][LEGS_BURST];
  gint n[2];
  /* the path came back short this round */
  gboolean drained[2];
  guint64 dropped_told[2];
  /* path state: last datagram of the stream (monotonic µs), posted down */
  gint64 last_mono[2];
  gboolean down[2];
  guint wait_leg;
  gboolean stopped;             /* the merge's flush feeds nothing more */
  guint reach;                  /* the merge's and depacketizer's, now */

  /* under the element's object lock */
  St2022SeamlessStats stats;
  St2022LockStats lstats[2];
  guint64 overflow2;
};

static void
legs_emit (gpointer user_data, const guint8 * data, gsize len,
    guint64 arrival_ns, St2022SeamlessPath path, gconstpointer tag)
{
  GstSt2022SrcLegs *l = user_data;

  if (l->stopped)
    return;
  /* straight from the receive burst: the lock has parsed its header */
  if (tag)
    st2022_depacketizer_push_parsed (l->depay, data, tag, arrival_ns);
  else
    st2022_depacketizer_push (l->depay, data, len, arrival_ns);
}

static void
legs_resync (gpointer user_data)
{
  GstSt2022SrcLegs *l = user_data;

  GST_INFO_OBJECT (l->element, "merged stream starts over");
  if (!l->stopped)
    st2022_depacketizer_flush (l->depay);
}

static const St2022SeamlessCallbacks legs_callbacks = {
  legs_emit,
  legs_resync,
};

/* secondary-port=0 binds an ephemeral port: tell the application which
 * (FALSE after a GST_ELEMENT_ERROR when @post and the transport cannot) */
static gboolean
legs_report_port (GstElement * src, VmiTransport * t2, guint16 asked,
    gboolean post)
{
  guint16 port;

  if (asked != 0)
    return TRUE;
  port = vmi_transport_get_local_port (t2);
  if (port == 0) {
    if (post)
      GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS,
          ("secondary-port=0 (an ephemeral port) needs transport=socket; set "
              "secondary-port to the second path's UDP port"), (NULL));
    return FALSE;
  }
  g_object_set (src, "secondary-port", (gint) port, NULL);
  return TRUE;
}

/* the properties that say where path @p receives (IS-05 sets them) */
static const gchar *const path_props[2][3] = {
  {"address", "port", "source-address"},
  {"secondary-address", "secondary-port", "secondary-source-address"},
};

/* Path @p's settings as the element has them now: an IS-05 activation
 * may have moved it since start (address, port, source) */
static void
legs_refresh_cfg (GstSt2022SrcLegs * l, guint p)
{
  VmiTransportConfig cfg = l->cfg[p];
  gchar *address = NULL, *source = NULL;
  gint port = -1;

  g_object_get (l->element, path_props[p][0], &address, path_props[p][1],
      &port, path_props[p][2], &source, NULL);
  if (address && *address)
    cfg.address = address;
  if (port > 0)
    cfg.port = port;
  cfg.source_address = source;
  if (g_strcmp0 (cfg.address, l->cfg[p].address) != 0
      || cfg.port != l->cfg[p].port
      || g_strcmp0 (cfg.source_address, l->cfg[p].source_address) != 0) {
    GST_INFO_OBJECT (l->element, "%s path now %s:%u", gst_st2022_legs_path_name (p),
        cfg.address, cfg.port);
    vmi_transport_config_own_strings (&cfg);
    gst_st2022_transport_config_clear (&l->cfg[p]);
    l->cfg[p] = cfg;
    vmi_transport_reopen_set_config (l->reopen[p], &l->cfg[p]);
  }
  g_free (address);
  g_free (source);
}

/* Receive thread (or start): path @p has no transport (its interface is
 * missing or down, or went away): it is down, and opened again from time
 * to time; @dead (the secondary's, or the primary's the element let go)
 * is closed on the opener's thread */
static void
legs_lost (GstSt2022SrcLegs * l, guint p, VmiTransport * dead,
    const gchar * why)
{
  g_mutex_lock (&l->t_lock);
  l->t[p] = NULL;
  g_mutex_unlock (&l->t_lock);
  l->n[p] = 0;
  l->drained[p] = TRUE;
  l->dropped_told[p] = 0;
  legs_refresh_cfg (l, p);
  vmi_transport_reopen_start (l->reopen[p], dead);
  GST_INFO_OBJECT (l->element, "%s path has no link: %s", gst_st2022_legs_path_name (p), why);
  if (!l->down[p]) {
    l->down[p] = TRUE;
    gst_st2022_legs_post_path (l->element, p, FALSE, why);
  }
}

static void
legs_lost_secondary (GstSt2022SrcLegs * l, const gchar * why)
{
  legs_lost (l, 1, l->t[1], why);
}

/* Receive thread: takes path @p's transport once the opener has it; the
 * path is up again when its first datagram of the stream arrives
 * (dispatch) */
static void
legs_take_opened (GstSt2022SrcLegs * l, guint p)
{
  VmiTransport *t = vmi_transport_reopen_take (l->reopen[p]);
  const gchar *warning;

  if (G_LIKELY (t == NULL))
    return;
  if (p == 1 && !legs_report_port (l->element, t, l->cfg[1].port, FALSE)) {
    vmi_transport_close (t);
    legs_lost_secondary (l, "no ephemeral port");
    return;
  }
  warning = vmi_transport_get_warning (t);
  if (warning)
    GST_ELEMENT_WARNING (l->element, RESOURCE, SETTINGS, ("%s", warning),
        ("%s path", gst_st2022_legs_path_name (p)));
  GST_INFO_OBJECT (l->element, "%s path opened on %s:%u", gst_st2022_legs_path_name (p),
      l->cfg[p].address, l->cfg[p].port);
  l->drained[p] = FALSE;
  l->dropped_told[p] = 0;
  g_mutex_lock (&l->t_lock);
  l->t[p] = t;
  g_mutex_unlock (&l->t_lock);
  /* the element takes it as its own (gst_st2022_src_legs_primary()) */
  if (p == 0)
    l->primary_lost = FALSE;
}

GstSt2022SrcLegs *
gst_st2022_src_legs_new (GstElement * src, GstSt2022Transport kind,
    const VmiTransportConfig * cfg1, const VmiTransportConfig * cfg2,
    guint window_ms, VmiTransport * primary,
    St2022StreamLock * primary_lock, St2022Depacketizer * depay,
    guint confirm, gint payload_type, gboolean filter_ssrc, guint32 ssrc)
{
  GstSt2022SrcLegs *l;
  VmiTransport *t2;
  GError *link_err = NULL;
  guint i;

  if (!gst_st2022_legs_check_iface (src, kind, cfg2))
    return NULL;
  /* a second path whose link is not there yet does not stop the element:
   * it receives on the primary and opens the second path when it can */
  t2 = gst_st2022_transport_try_open (src, kind, cfg2, 0, NULL, &link_err);
  if (t2 == NULL && link_err == NULL)
    return NULL;
  if (t2 && !legs_report_port (src, t2, cfg2->port, TRUE)) {
    vmi_transport_close (t2);
    return NULL;
  }

  l = g_new0 (GstSt2022SrcLegs, 1);
  l->element = src;
  l->t[0] = primary;
  l->t[1] = t2;
  g_mutex_init (&l->t_lock);
  l->kind = kind;
  l->cfg[0] = *cfg1;
  l->cfg[1] = *cfg2;
  for (i = 0; i < 2; i++) {
    gst_st2022_transport_config_own_strings (&l->cfg[i]);
    l->reopen[i] = vmi_transport_reopen_new (vmi_transport_lookup
        ((VmiTransportKind) kind), &l->cfg[i], LEGS_RETRY_US,
        i ? "st2022src-path2" : "st2022src-path1");
  }
  l->lock[0] = primary_lock;
  l->lock[1] = st2022_stream_lock_new (confirm);
  st2022_stream_lock_set_filter (l->lock[1], payload_type, filter_ssrc, ssrc);
  /* the depacketizer's frame mapping is the stream's, whichever path a
   * datagram took */
  st2022_stream_lock_set_depacketizer (l->lock[1], depay);
  l->depay = depay;
  l->merge = st2022_seamless_new (window_ms,
      window_ms * LEGS_MAX_RATE_PER_MS + 2 * ST2022_SEAMLESS_REORDER,
      &legs_callbacks, l);
  l->last_mono[0] = l->last_mono[1] = g_get_monotonic_time ();
  GST_INFO_OBJECT (src, "second path on %s:%u, window %u ms", cfg2->address,
      cfg2->port, window_ms);
  if (link_err) {
    legs_lost_secondary (l, link_err->message);
    g_error_free (link_err);
  }
  return l;
}

void
gst_st2022_src_legs_stop (GstSt2022SrcLegs * l)
{
  if (l->merge == NULL)
    return;
  l->stopped = TRUE;
  g_clear_pointer (&l->reopen[0], vmi_transport_reopen_free);
  g_clear_pointer (&l->reopen[1], vmi_transport_reopen_free);
  st2022_seamless_flush (l->merge);
  gst_st2022_src_legs_update_stats (l);
  g_clear_pointer (&l->merge, st2022_seamless_free);
  g_clear_pointer (&l->lock[1], st2022_stream_lock_free);
  g_mutex_lock (&l->t_lock);
  g_clear_pointer (&l->t[1], vmi_transport_close);
  g_mutex_unlock (&l->t_lock);
  l->lock[0] = NULL;
  l->t[0] = NULL;
  l->depay = NULL;
}

void
gst_st2022_src_legs_free (GstSt2022SrcLegs * l)
{
  if (l == NULL)
    return;
  gst_st2022_src_legs_stop (l);
  gst_st2022_transport_config_clear (&l->cfg[0]);
  gst_st2022_transport_config_clear (&l->cfg[1]);
  g_mutex_clear (&l->t_lock);
  g_free (l);
}

/* A receive error on one path (its interface went away or down) while the
 * other has its transport takes that path down, not the element: TRUE
 * (the error cleared) then.  The primary's transport is the element's: it
 * lets it go when it sees gst_st2022_src_legs_primary() change. */
static gboolean
legs_recv_failed (GstSt2022SrcLegs * l, guint p, GError ** error)
{
  const gchar *why = error && *error ? (*error)->message : "receive failed";

  if (l->t[1 - p] == NULL)
    return FALSE;
  if (p == 0) {
    l->primary_lost = TRUE;
    legs_lost (l, 0, NULL, why);
  } else {
    legs_lost_secondary (l, why);
  }
  g_clear_error (error);
  return TRUE;
}

/* A round reads both paths in turn, a burst of each, until each comes
 * back short, then waits on one of them as one path's receive does, so
 * that the transport may let datagrams gather (the socket transport's
 * coalescing) rather than be asked again at once.  Asking both paths after
 * every burst made seven times one path's receive calls, a third of them
 * empty. */
gint
gst_st2022_src_legs_recv (GstSt2022SrcLegs * l, gint64 timeout_us,
    GError ** error)
{
  guint i, w;
  gint64 wait;

  if (G_UNLIKELY (l->t[0] == NULL && l->primary_lost))
    legs_take_opened (l, 0);
  if (l->t[1] == NULL)
    legs_take_opened (l, 1);
  for (i = 0; i < 2; i++) {
    l->n[i] = 0;
    if (l->drained[i] || l->t[i] == NULL)
      continue;
    l->n[i] = vmi_transport_recv_burst (l->t[i], l->rx[i], LEGS_BURST, 0,
        error);
    if (l->n[i] < 0 && !legs_recv_failed (l, i, error))
      return -1;
    /* short: what the transport had taken in is read (a socket's last
     * recvmmsg(), which took what both paths had queued up to about the
     * same instant) */
    l->drained[i] = l->n[i] < LEGS_BURST;
  }
  if (l->n[0] + l->n[1] > 0) {
    l->wait_leg = l->n[0] > 0 ? 0 : 1;
    return l->n[0] + l->n[1];
  }
  /* both came back short: wait on the one that carried the stream last,
   * in short slices while the other may have something too */
  w = l->t[l->wait_leg] ? l->wait_leg : 1 - l->wait_leg;
  if (G_UNLIKELY (l->t[w] == NULL)) {
    g_usleep (MIN (timeout_us, LEGS_SLICE_US));
    return 0;
  }
  wait = st2022_seamless_path_live (l->merge, 1 - w) ?
      MIN (timeout_us, LEGS_SLICE_US) : timeout_us;
  l->n[w] = vmi_transport_recv_burst (l->t[w], l->rx[w], LEGS_BURST, wait,
      error);
  if (l->n[w] < 0 && !legs_recv_failed (l, w, error))
    return -1;
  /* a new round: both are asked again */
  l->drained[0] = l->drained[1] = FALSE;
  return l->n[w];
}

static inline guint64
legs_key (const St2022Header * h)
{
  return (guint64) h->ssrc | (guint64) h->payload_type << 32 |
      (guint64) h->frame << 40 | (guint64) h->frate << 48 |
      (guint64) h->sample << 56;
}

/* TRUE when the datagram was the merged stream's (another stream on the
 * path, e.g. another format, does not keep the path up) */
static gboolean
legs_merge (GstSt2022SrcLegs * l, guint p, const guint8 * data, gsize len,
    const St2022Header * h, guint64 now)
{
  St2022SeamlessVerdict v = st2022_seamless_push (l->merge,
      (St2022SeamlessPath) p, legs_key (h), h->seq, data, len, now, h);

  return v != ST2022_SEAMLESS_MISMATCH && v != ST2022_SEAMLESS_INVALID;
}

/* one path's burst through its lock into the merge; TRUE when it carried
 * the merged stream */
static gboolean
legs_take (GstSt2022SrcLegs * l, guint p, guint64 now)
{
  gboolean valid = FALSE;
  VmiTransportStats ts;
  gint i;

  if (l->n[p] <= 0)
    return FALSE;
  vmi_transport_get_stats (l->t[p], &ts);
  if (ts.rx_dropped > l->dropped_told[p]) {
    st2022_stream_lock_note_dropped (l->lock[p],
        ts.rx_dropped - l->dropped_told[p]);
    l->dropped_told[p] = ts.rx_dropped;
  }
  for (i = 0; i < l->n[p]; i++) {
    const VmiRxSlot *s = &l->rx[p][i];
    St2022Header h;
    guint k, nr;

    switch (st2022_stream_lock_push (l->lock[p], s->data, s->len, &h)) {
      case ST2022_LOCK_ACCEPT:
        valid |= legs_merge (l, p, s->data, s->len, &h, now);
        break;
      case ST2022_LOCK_INVALID:
        /* counted (and rejected) by the depacketizer */
        st2022_depacketizer_push (l->depay, s->data, s->len, now);
        break;
      case ST2022_LOCK_RELOCK:
        if (st2022_stream_lock_relock_is_new_stream (l->lock[p]))
          st2022_seamless_path_restart (l->merge, (St2022SeamlessPath) p);
        nr = st2022_stream_lock_replay_count (l->lock[p]);
        for (k = 0; k < nr; k++) {
          gsize len;
          const guint8 *d = st2022_stream_lock_replay (l->lock[p], k, &len);

          if (st2022_header_parse (d, len, &h, NULL) == ST2022_OK)
            valid |= legs_merge (l, p, d, len, &h, now);
        }
        break;
      case ST2022_LOCK_FOREIGN:
      case ST2022_LOCK_OUT_OF_WINDOW:
        break;
    }
  }
  l->n[p] = 0;
  return valid;
}

/* While both paths carry the stream, a datagram behind a gap goes to the
 * depacketizer at once (not copied and held until the lagging path fills
 * the gap) and the depacketizer keeps a frame open for the gap's datagram
 * up to a frame less a datagram (it keeps two frames); with one path,
 * nothing waits: the depacketizer's usual window. */
static void
legs_set_reach (GstSt2022SrcLegs * l)
{
  const St2022Format *fmt = st2022_depacketizer_get_format (l->depay);
  guint reach = ST2022_DEFAULT_REORDER_WINDOW;

  if (fmt && st2022_seamless_path_live (l->merge, 0)
      && st2022_seamless_path_live (l->merge, 1))
    reach = MAX (fmt->datagrams_per_frame - 1, reach);
  if (reach == l->reach)
    return;
  l->reach = reach;
  GST_DEBUG_OBJECT (l->element, "datagrams pass a gap by up to %u", reach);
  st2022_depacketizer_set_reorder_window (l->depay, reach);
  st2022_seamless_set_reach (l->merge, reach);
}

gboolean
gst_st2022_src_legs_dispatch (GstSt2022SrcLegs * l, guint64 now,
    guint64 timeout)
{
  gint64 mono = g_get_monotonic_time ();
  gboolean any = FALSE;
  guint p;

  for (p = 0; p < 2; p++) {
    if (legs_take (l, p, now)) {
      any = TRUE;
      l->last_mono[p] = mono;
      if (l->down[p]) {
        l->down[p] = FALSE;
        GST_INFO_OBJECT (l->element, "%s path back", gst_st2022_legs_path_name (p));
        gst_st2022_legs_post_path (l->element, p, TRUE, NULL);
      }
    } else if (!l->down[p] && timeout > 0
        && (guint64) (mono - l->last_mono[p]) * 1000 >= timeout
        && st2022_seamless_path_live (l->merge, 1 - p)) {
      /* one path silent while the other carries the stream (both silent:
       * the element's st2022-timeout tells) */
      gchar *why = g_strdup_printf ("no datagram of the stream for %"
          GST_TIME_FORMAT,
          GST_TIME_ARGS (timeout));

      l->down[p] = TRUE;
      GST_INFO_OBJECT (l->element, "%s path down", gst_st2022_legs_path_name (p));
      gst_st2022_legs_post_path (l->element, p, FALSE, why);
      g_free (why);
    }
  }
  st2022_seamless_advance (l->merge, now);
  legs_set_reach (l);
  return any;
}

void
gst_st2022_src_legs_wakeup (GstSt2022SrcLegs * l)
{
  /* the element wakes its primary too; this one may be a primary opened
   * again that the element has not taken yet (a second wakeup costs one
   * empty return) */
  if (l) {
    g_mutex_lock (&l->t_lock);
    vmi_transport_wakeup (l->t[0]);
    vmi_transport_wakeup (l->t[1]);
    g_mutex_unlock (&l->t_lock);
  }
}

void
gst_st2022_src_legs_set_primary (GstSt2022SrcLegs * l, VmiTransport * t)
{
  vmi_transport_reopen_cancel (l->reopen[0]);
  l->primary_lost = FALSE;
  g_mutex_lock (&l->t_lock);
  l->t[0] = t;
  g_mutex_unlock (&l->t_lock);
  l->dropped_told[0] = 0;
  l->n[0] = 0;
  l->drained[0] = FALSE;
  gst_st2022_src_legs_reset (l);
}

void
gst_st2022_src_legs_set_secondary (GstSt2022SrcLegs * l, VmiTransport * t)
{
  vmi_transport_reopen_cancel (l->reopen[1]);
  g_mutex_lock (&l->t_lock);
  vmi_transport_close (l->t[1]);
  l->t[1] = t;
  g_mutex_unlock (&l->t_lock);
  l->dropped_told[1] = 0;
  l->n[1] = 0;
  l->drained[1] = FALSE;
  l->last_mono[1] = g_get_monotonic_time ();
  gst_st2022_src_legs_reset (l);
}

VmiTransport *
gst_st2022_src_legs_primary (GstSt2022SrcLegs * l)
{
  return l->t[0];
}

gboolean
gst_st2022_src_legs_primary_lost (GstSt2022SrcLegs * l)
{
  return l && l->primary_lost;
}

void
gst_st2022_src_legs_release_primary (GstSt2022SrcLegs * l, VmiTransport * t)
{
  vmi_transport_reopen_start (l->reopen[0], t);
}

void
gst_st2022_src_legs_drain (GstSt2022SrcLegs * l)
{
  st2022_seamless_flush (l->merge);
}

void
gst_st2022_src_legs_reset (GstSt2022SrcLegs * l)
{
  gst_st2022_src_legs_drain (l);
  st2022_stream_lock_reset (l->lock[1]);
}

void
gst_st2022_src_legs_update_stats (GstSt2022SrcLegs * l)
{
  St2022SeamlessStats st;
  St2022LockStats ls[2];
  VmiTransportStats ts;

  if (l->merge == NULL)
    return;
  st2022_seamless_get_stats (l->merge, &st);
  st2022_stream_lock_get_stats (l->lock[0], &ls[0]);
  st2022_stream_lock_get_stats (l->lock[1], &ls[1]);
  vmi_transport_get_stats (l->t[1], &ts);
  GST_OBJECT_LOCK (l->element);
  l->stats = st;
  l->lstats[0] = ls[0];
  l->lstats[1] = ls[1];
  l->overflow2 = ts.rx_dropped;
  GST_OBJECT_UNLOCK (l->element);
}

static guint64
legs_get (GstStructure * s, const gchar * name)
{
  guint64 v = 0;

  gst_structure_get_uint64 (s, name, &v);
  return v;
}

void
gst_st2022_src_legs_add_stats (GstSt2022SrcLegs * l, GstStructure * s)
{
  const St2022SeamlessStats *st;

  if (l == NULL)
    return;
  st = &l->stats;
  /* the element's counters are the primary path's lock and transport; the
   * secondary's and the merge's are added to them */
  gst_structure_set (s,
      "packets-primary", G_TYPE_UINT64, st->packets[0],
      "packets-secondary", G_TYPE_UINT64, st->packets[1],
      "packets-lost-primary", G_TYPE_UINT64, st->lost[0],
      "packets-lost-secondary", G_TYPE_UINT64, st->lost[1],
      "packets-recovered", G_TYPE_UINT64, st->recovered,
      "packets-late-primary", G_TYPE_UINT64, st->late[0],
      "packets-late-secondary", G_TYPE_UINT64, st->late[1],
      "path-differential-max-us", G_TYPE_UINT64,
      st->differential_max_ns / 1000,
      "path-differential-mean-us", G_TYPE_UINT64, st->differential_count ?
      st->differential_sum_ns / st->differential_count / 1000 : 0,
      "packets-foreign", G_TYPE_UINT64, legs_get (s, "packets-foreign") +
      l->lstats[1].foreign + st->mismatch[0] + st->mismatch[1],
      "packets-out-of-window", G_TYPE_UINT64, legs_get (s,
          "packets-out-of-window") + l->lstats[1].out_of_window +
      st->late[0] + st->late[1],
      "packets-duplicate", G_TYPE_UINT64, legs_get (s, "packets-duplicate") +
      st->duplicate[0] + st->duplicate[1],
      /* what the merge passed on ahead of a gap and filled after is not
       * reordered on the wire */
      "packets-reordered", G_TYPE_UINT64, legs_get (s, "packets-reordered") -
      MIN (legs_get (s, "packets-reordered"), st->behind),
      "packets-overflow", G_TYPE_UINT64, legs_get (s, "packets-overflow") +
      l->lstats[1].overflow,
      "overflow-events", G_TYPE_UINT64, legs_get (s, "overflow-events") +
      l->overflow2, NULL);
}
