/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmisink's socket side: the service thread that accepts consumers, reads
 * their releases and cuts off the ones that hang, and the sending of a
 * frame (with the caps and memory fds a consumer lacks) to every consumer.
 * The element (gstvmisink.c) keeps the GstBaseSink glue, the properties
 * and the copy fallback; the bookkeeping itself is pure C
 * (vmi-sink-clients.c). Everything here runs under self->lock unless its
 * name says otherwise. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "pool/gstvmisink-priv.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_EXTERN (gst_vmi_sink_debug);
#define GST_CAT_DEFAULT gst_vmi_sink_debug

/* a client's fd in the service thread's GstPoll (found by its number) */
static void
vmi_sink_poll_fd (GstVmiSink * self, int fd, gboolean add)
{
  GstPollFD pfd = GST_POLL_FD_INIT;

  pfd.fd = fd;
  if (add) {
    gst_poll_add_fd (self->poll, &pfd);
    gst_poll_fd_ctl_read (self->poll, &pfd, TRUE);
  } else {
    gst_poll_remove_fd (self->poll, &pfd);
  }
}

static gboolean
vmi_sink_poll_fd_ready (GstVmiSink * self, int fd)
{
  GstPollFD pfd = GST_POLL_FD_INIT;

  pfd.fd = fd;
  return gst_poll_fd_can_read (self->poll, &pfd)
      || gst_poll_fd_has_closed (self->poll, &pfd)
      || gst_poll_fd_has_error (self->poll, &pfd);
}

static GstMessage *
vmi_sink_client_message (GstVmiSink * self, const char *event, guint id,
    const char *reason)
{
  return gst_message_new_element (GST_OBJECT (self),
      gst_structure_new ("vmisink-client", "event", G_TYPE_STRING, event,
          "client", G_TYPE_UINT, id, "reason", G_TYPE_STRING, reason, NULL));
}

/* Removes @c; returns the message to post once the lock is dropped. */
GstMessage *
gst_vmi_sink_drop_client_locked (GstVmiSink * self, VmiSinkClient * c,
    const char *reason)
{
  GstMessage *msg;

  GST_INFO_OBJECT (self, "client %u disconnected: %s", c->id, reason);
  msg = vmi_sink_client_message (self, "disconnected", c->id, reason);
  vmi_sink_poll_fd (self, c->fd, FALSE);
  vmi_sink_clients_remove (&self->clients, c);
  g_cond_broadcast (&self->cond);
  return msg;
}

gint
gst_vmi_sink_client_send (GstVmiSink * self, VmiSinkClient * c, const VmiMsg * m,
    int fd)
{
  gsize len = vmi_msg_pack (m, self->msgbuf, VMI_PROTO_MAX_MSG);

  gssize r;

  g_assert (len > 0);
  /* never block the streaming thread on a consumer that stopped reading */
  r = vmi_socket_send (c->fd, self->msgbuf, len, fd, TRUE);
  return r < 0 ? (gint) r : 0;
}

/* Forgets memories no buffer uses any more (our cache holds the last ref),
 * telling the clients that have them so they can unmap. */
void
gst_vmi_sink_forget_unused_locked (GstVmiSink * self)
{
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, self->memories);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    GstMemory *mem = value;
    guint64 id = *(guint64 *) key;
    GList *l;

    if (GST_MINI_OBJECT_REFCOUNT_VALUE (mem) > 1)
      continue;
    for (l = self->clients.clients; l; l = l->next) {
      VmiSinkClient *c = l->data;
      VmiMsg m = {.type = VMI_MSG_FORGET };

      if (!vmi_sink_client_forget_memory (c, id))
        continue;
      m.u.forget.id = id;
      /* a lost FORGET only leaves a mapping behind until disconnect */
      gst_vmi_sink_client_send (self, c, &m, -1);
    }
    g_hash_table_iter_remove (&it);
  }
}

/* ----------------------------------------------------------------------
 * service thread: accepts consumers, reads releases, enforces timeouts
 */

static GstMessage *
vmi_sink_accept_locked (GstVmiSink * self)
{
  VmiSinkClient *c;
  VmiMsg m = {.type = VMI_MSG_HELLO };
  guint max_clients, max_outstanding;
  int fd;

  fd = accept4 (self->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0)
    return NULL;

  GST_OBJECT_LOCK (self);
  max_clients = self->max_clients;
  max_outstanding = self->max_outstanding;
  GST_OBJECT_UNLOCK (self);
  if (vmi_sink_clients_count (&self->clients) >= max_clients) {
    GST_WARNING_OBJECT (self, "refusing a consumer: max-clients=%u reached",
        max_clients);
    close (fd);
    self->clients_rejected++;
    return vmi_sink_client_message (self, "refused", 0, "max-clients reached");
  }

  c = vmi_sink_clients_add (&self->clients, fd, max_outstanding);
  vmi_sink_poll_fd (self, fd, TRUE);
  m.u.hello.version = VMI_PROTO_VERSION;
  m.u.hello.pid = getpid ();
  gst_vmi_sink_client_send (self, c, &m, -1);
  self->clients_total++;
  g_cond_broadcast (&self->cond);
  GST_INFO_OBJECT (self, "client %u connected", c->id);
  return vmi_sink_client_message (self, "connected", c->id, "");
}

/* Reads everything @c sent. Returns FALSE with @reason set when the client
 * must go; @hostile tells a protocol violation from a plain disconnect. */
static gboolean
vmi_sink_read_client_locked (GstVmiSink * self, VmiSinkClient * c,
    const char **reason, gboolean * hostile)
{
  for (;;) {
    int fd = -1;
    gssize r = vmi_socket_recv (c->fd, self->rxbuf, sizeof (self->rxbuf), &fd,
        TRUE);

    if (r == -EAGAIN)
      return TRUE;
    if (r == 0 || r == -ECONNRESET) {
      *reason = "consumer closed the connection";
      return FALSE;
    }
    *hostile = TRUE;
    if (r < 0) {
      *reason = r == -EBADMSG ? "malformed message (truncated or extra fds)"
          : "receive error";
      *hostile = r == -EBADMSG;
      return FALSE;
    }
    if (vmi_sink_clients_handle_message (&self->clients, c, self->rxbuf, r,
            fd, reason) != VMI_SINK_CLIENT_KEEP)
      return FALSE;
    *hostile = FALSE;
  }
}

static gpointer
vmi_sink_thread (gpointer data)
{
  GstVmiSink *self = data;
  GPtrArray *protocol_warnings = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *timeout_warnings = g_ptr_array_new_with_free_func (g_free);

  g_mutex_lock (&self->lock);
  while (self->running) {
    GList *l, *msgs = NULL;
    guint i, timeout_ms;
    gint64 now, oldest, timeout;

    GST_OBJECT_LOCK (self);
    timeout_ms = self->release_timeout;
    GST_OBJECT_UNLOCK (self);

    oldest = vmi_sink_clients_oldest_hold (&self->clients);
    now = g_get_monotonic_time ();
    /* frames sent meanwhile by the render thread start their clocks without
     * waking us: never sleep longer than a tick */
    timeout = 100;
    if (oldest != G_MAXINT64)
      timeout = CLAMP ((oldest + timeout_ms * 1000 - now) / 1000 + 1, 0,
          timeout);

    g_mutex_unlock (&self->lock);
    gst_poll_wait (self->poll, timeout * GST_MSECOND);
    g_mutex_lock (&self->lock);
    if (!self->running)
      break;

    /* the clients first: one dropped meanwhile (by the render thread) is
     * out of the list, and a client accepted below is not polled yet */
    for (l = self->clients.clients; l;) {
      const char *reason = NULL;
      gboolean hostile = FALSE;
      VmiSinkClient *c = l->data;

      l = l->next;
      if (!vmi_sink_poll_fd_ready (self, c->fd))
        continue;
      if (!vmi_sink_read_client_locked (self, c, &reason, &hostile)) {
        if (hostile) {
          self->clients_rejected++;
          g_ptr_array_add (protocol_warnings,
              g_strdup_printf ("client %u: %s", c->id, reason));
        }
        msgs = g_list_append (msgs, gst_vmi_sink_drop_client_locked (self, c,
                reason));
      }
    }
    if (gst_poll_fd_can_read (self->poll, &self->listen_pollfd)) {
      GstMessage *m = vmi_sink_accept_locked (self);
      if (m)
        msgs = g_list_append (msgs, m);
    }

    /* cut off consumers that stopped releasing frames */
    now = g_get_monotonic_time ();
    for (l = self->clients.clients; l;) {
      VmiSinkClient *c = l->data;

      l = l->next;
      if (vmi_sink_client_expired (c, now, (gint64) timeout_ms * 1000)) {
        self->clients_timed_out++;
        g_ptr_array_add (timeout_warnings, g_strdup_printf ("client %u; raise "
                "release-timeout if it is only slow", c->id));
        msgs = g_list_append (msgs, gst_vmi_sink_drop_client_locked (self, c,
                "release-timeout expired"));
      }
    }

    if (msgs || protocol_warnings->len || timeout_warnings->len) {
      GList *m;
      g_mutex_unlock (&self->lock);
      for (i = 0; i < protocol_warnings->len; i++)
        GST_ELEMENT_WARNING (self, STREAM, FAILED,
            ("A consumer broke the vMI protocol and was disconnected."),
            ("%s", (gchar *) g_ptr_array_index (protocol_warnings, i)));
      for (i = 0; i < timeout_warnings->len; i++)
        GST_ELEMENT_WARNING (self, RESOURCE, BUSY,
            ("A consumer held a frame longer than release-timeout (%u ms) "
                "and was disconnected.", timeout_ms),
            ("%s", (gchar *) g_ptr_array_index (timeout_warnings, i)));
      for (m = msgs; m; m = m->next)
        gst_element_post_message (GST_ELEMENT (self), m->data);
      g_list_free (msgs);
      g_ptr_array_set_size (protocol_warnings, 0);
      g_ptr_array_set_size (timeout_warnings, 0);
      g_mutex_lock (&self->lock);
    }
  }
  g_mutex_unlock (&self->lock);
  g_ptr_array_unref (protocol_warnings);
  g_ptr_array_unref (timeout_warnings);
  return NULL;
}

/* ----------------------------------------------------------------------
 * frames: what a FRAME message says, and sending it to every consumer
 */

static guint64
vmi_sink_abs_pts (GstVmiSink * self, GstBuffer * buf)
{
  GstBaseSink *bsink = GST_BASE_SINK (self);
  GstClock *clock;
  guint64 abs = VMI_PROTO_NONE;
  gint type = -1;
  GstClockTime rt;

  if (!GST_BUFFER_PTS_IS_VALID (buf))
    return abs;
  clock = gst_element_get_clock (GST_ELEMENT (self));
  if (!clock)
    return abs;
  /* only the monotonic system clock is shared with other processes */
  if (GST_IS_SYSTEM_CLOCK (clock))
    g_object_get (clock, "clock-type", &type, NULL);
  if (type == GST_CLOCK_TYPE_MONOTONIC) {
    rt = gst_segment_to_running_time (&bsink->segment, GST_FORMAT_TIME,
        GST_BUFFER_PTS (buf));
    if (GST_CLOCK_TIME_IS_VALID (rt))
      abs = rt + gst_element_get_base_time (GST_ELEMENT (self));
  }
  gst_object_unref (clock);
  return abs;
}

/* The FRAME message for @out (all of it in vMI memory), but its seq */
static void
vmi_sink_describe_frame (GstVmiSink * self, GstBuffer * out, VmiFrameInfo * fi)
{
  GstVideoMeta *vmeta;
  guint i;

  fi->pts = GST_BUFFER_PTS (out);
  fi->dts = GST_BUFFER_DTS (out);
  fi->duration = GST_BUFFER_DURATION (out);
  fi->abs_pts = vmi_sink_abs_pts (self, out);
  fi->offset = GST_BUFFER_OFFSET (out);
  fi->offset_end = GST_BUFFER_OFFSET_END (out);
  fi->flags = GST_BUFFER_FLAGS (out);
  fi->n_mems = gst_buffer_n_memory (out);
  for (i = 0; i < fi->n_mems; i++) {
    GstMemory *mem = gst_buffer_peek_memory (out, i);
    fi->mems[i].id = gst_vmi_memory_get_id (mem);
    fi->mems[i].offset = mem->offset;
    fi->mems[i].size = mem->size;
  }
  vmeta = gst_buffer_get_video_meta (out);
  if (vmeta && vmeta->n_planes <= VMI_PROTO_MAX_PLANES) {
    fi->n_planes = vmeta->n_planes;
    for (i = 0; i < vmeta->n_planes; i++) {
      fi->plane_offset[i] = vmeta->offset[i];
      fi->plane_stride[i] = vmeta->stride[i];
    }
  }
}

/* Sends frame @fm (buffer @out) to @c: the caps and memories it does not
 * have yet first. Called with self->lock; 0 or a negative errno. */
static gint
vmi_sink_send_frame_locked (GstVmiSink * self, VmiSinkClient * c,
    GstBuffer * out, const VmiMsg * fm)
{
  const VmiFrameInfo *fi = &fm->u.frame;
  gint err = 0;
  guint i;

  if (c->caps_gen != self->caps_gen && self->caps_str) {
    VmiMsg cm = {.type = VMI_MSG_CAPS };
    cm.u.caps.str = self->caps_str;
    cm.u.caps.len = strlen (self->caps_str);
    err = gst_vmi_sink_client_send (self, c, &cm, -1);
    if (err == 0)
      c->caps_gen = self->caps_gen;
  }
  for (i = 0; err == 0 && i < fi->n_mems; i++) {
    GstMemory *mem = gst_buffer_peek_memory (out, i);
    guint64 id = fi->mems[i].id;
    VmiMsg mm = {.type = VMI_MSG_MEMORY };

    if (vmi_sink_client_has_memory (c, id))
      continue;
    while (mem->parent)
      mem = mem->parent;
    mm.u.memory.id = id;
    mm.u.memory.size = mem->maxsize;
    err = gst_vmi_sink_client_send (self, c, &mm, gst_fd_memory_get_fd (mem));
    if (err == 0) {
      vmi_sink_client_add_memory (c, id);
      if (!g_hash_table_contains (self->memories, &id))
        g_hash_table_insert (self->memories, g_memdup2 (&id, sizeof (id)),
            gst_memory_ref (mem));
    }
  }
  if (err == 0)
    err = gst_vmi_sink_client_send (self, c, fm, -1);
  return err;
}

/* Sends @out (all of it in vMI memory) to every consumer that has room for
 * it; the ones that fail are dropped and told about on the bus. Takes
 * self->lock. */
void
gst_vmi_sink_service_send_frame (GstVmiSink * self, GstBuffer * out,
    guint max_outstanding, gboolean copied)
{
  VmiMsg fm = {.type = VMI_MSG_FRAME };
  GList *l, *dropped = NULL, *msgs = NULL;
  guint64 seq;
  gint64 now;

  vmi_sink_describe_frame (self, out, &fm.u.frame);

  g_mutex_lock (&self->lock);
  if (copied)
    self->copies++;
  gst_vmi_sink_forget_unused_locked (self);
  seq = fm.u.frame.seq = self->next_seq++;
  now = g_get_monotonic_time ();
  for (l = self->clients.clients; l; l = l->next) {
    VmiSinkClient *c = l->data;
    gint err;

    if (c->n_held >= max_outstanding) {
      c->skipped++;
      self->skipped++;
      continue;
    }
    err = vmi_sink_send_frame_locked (self, c, out, &fm);
    if (err == -EAGAIN || err == -ENOBUFS) {
      /* its socket queue is full: it is not keeping up, skip the frame */
      c->skipped++;
      self->skipped++;
    } else if (err != 0) {
      dropped = g_list_prepend (dropped, c);
    } else {
      vmi_sink_client_hold (c, seq, now, gst_buffer_ref (out));
      c->sent++;
      self->sent++;
    }
  }
  for (l = dropped; l; l = l->next)
    msgs = g_list_prepend (msgs, gst_vmi_sink_drop_client_locked (self,
            l->data, "send failed"));
  g_list_free (dropped);
  g_mutex_unlock (&self->lock);
  for (l = msgs; l; l = l->next)
    gst_element_post_message (GST_ELEMENT (self), l->data);
  g_list_free (msgs);
}

/* ----------------------------------------------------------------------
 * start and stop
 */

/* Serves the listening socket @fd (taken over). FALSE, with errno set and
 * @fd closed, when the wake-up could not be made. Takes self->lock. */
gboolean
gst_vmi_sink_service_start (GstVmiSink * self, int fd)
{
  g_mutex_lock (&self->lock);
  self->poll = gst_poll_new (TRUE);
  if (self->poll == NULL) {
    int err = errno;

    g_mutex_unlock (&self->lock);
    close (fd);
    errno = err;
    return FALSE;
  }
  self->listen_fd = fd;
  gst_poll_fd_init (&self->listen_pollfd);
  self->listen_pollfd.fd = fd;
  gst_poll_add_fd (self->poll, &self->listen_pollfd);
  gst_poll_fd_ctl_read (self->poll, &self->listen_pollfd, TRUE);
  self->memories = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      (GDestroyNotify) gst_memory_unref);
  self->next_seq = 1;
  self->rendered = self->copies = self->skipped = self->sent = 0;
  self->clients.releases = 0;
  self->clients_timed_out = self->clients_rejected = self->clients_total = 0;
  self->running = TRUE;
  self->thread = g_thread_new ("vmisink", vmi_sink_thread, self);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

/* Joins the service thread, removes the socket file @path (may be NULL),
 * stops listening and disconnects every consumer. Takes self->lock. */
void
gst_vmi_sink_service_stop (GstVmiSink * self, const gchar * path)
{
  GThread *thread;

  g_mutex_lock (&self->lock);
  self->running = FALSE;
  if (self->poll)
    gst_poll_set_flushing (self->poll, TRUE);
  thread = self->thread;
  self->thread = NULL;
  g_mutex_unlock (&self->lock);
  if (thread)
    g_thread_join (thread);

  g_mutex_lock (&self->lock);
  /* stop accepting first, so a consumer reconnecting as soon as we drop it
   * finds nothing rather than a listen queue about to vanish */
  if (self->listen_fd >= 0) {
    if (path)
      unlink (path);
    close (self->listen_fd);
  }
  self->listen_fd = -1;
  while (self->clients.clients)
    gst_message_unref (gst_vmi_sink_drop_client_locked (self,
            self->clients.clients->data, "stopping"));
  g_clear_pointer (&self->memories, g_hash_table_destroy);
  g_clear_pointer (&self->poll, gst_poll_free);
  g_clear_pointer (&self->caps_str, g_free);
  g_mutex_unlock (&self->lock);
}
