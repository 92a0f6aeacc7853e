/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-vmisink
 * @title: vmisink
 * @see_also: vmisrc, shmsink
 *
 * Hands frames to other processes on the same host without copying them.
 * vmisink listens on a unix socket (`socket-path`); each `vmisrc` that
 * connects receives every frame memory's file descriptor once, then a small
 * message per frame (memory id, offset, size, timestamps, flags, video
 * meta). The consumer maps the memory read-only and sends a release when it
 * is done with the frame; until every consumer has released a frame,
 * vmisink keeps a reference on the buffer so its memory cannot be reused.
 *
 * vmisink proposes a #GstVmiBufferPool upstream, so producers render
 * straight into shareable memory. A buffer that is not in vMI memory (the
 * upstream element insisted on its own allocator) is copied once into
 * vMI memory, counted in `stats` (`copies`) and warned about once.
 *
 * A consumer that holds `max-outstanding` frames is skipped (the frame is
 * counted as `frames-skipped` for it) rather than stalling the producer; a
 * consumer that keeps a frame longer than `release-timeout` ms is cut off
 * with a warning; a consumer that sends anything malformed is disconnected
 * with a warning. Each connect/disconnect posts a `vmisink-client` element
 * message (fields `event`, `client`, `reason`).
 *
 * See docs/zerocopy.md for the protocol.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! video/x-raw,format=UYVP,width=1920,height=1080,framerate=60/1 ! vmisink socket-path=/tmp/vmi.sock
 * ]|
 * and in another process
 * |[
 * gst-launch-1.0 vmisrc socket-path=/tmp/vmi.sock ! videoconvert ! autovideosink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "pool/gstvmisink.h"
#include "pool/gstvmibufferpool.h"
#include "pool/vmi-protocol.h"
#include "pool/vmi-sink-clients.h"
#include "gstvmielements.h"

#include <gst/video/video.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_STATIC (gst_vmi_sink_debug);
#define GST_CAT_DEFAULT gst_vmi_sink_debug

enum
{
  PROP_0,
  PROP_SOCKET_PATH,
  PROP_PERMS,
  PROP_WAIT_FOR_CONNECTION,
  PROP_MAX_CLIENTS,
  PROP_MAX_OUTSTANDING,
  PROP_RELEASE_TIMEOUT,
  PROP_STATS,
};

#define DEFAULT_PROP_SOCKET_PATH         NULL
#define DEFAULT_PROP_PERMS               0600
#define DEFAULT_PROP_WAIT_FOR_CONNECTION TRUE
#define DEFAULT_PROP_MAX_CLIENTS         4
#define DEFAULT_PROP_MAX_OUTSTANDING     8
#define DEFAULT_PROP_RELEASE_TIMEOUT     1000

struct _GstVmiSink
{
  GstBaseSink parent;

  /* properties, object lock */
  gchar *socket_path;
  guint perms;
  gboolean wait_for_connection;
  guint max_clients;
  guint max_outstanding;
  guint release_timeout;

  /* everything below: self->lock */
  GMutex lock;
  GCond cond;
  gboolean flushing;
  gboolean running;
  int listen_fd;
  /* the service thread waits on the listening socket and every client;
   * stop() sets it flushing, as udpsrc and shmsink do */
  GstPoll *poll;
  GstPollFD listen_pollfd;
  GThread *thread;
  /* consumers and the frames they hold (a GstBuffer reference each: what
   * keeps the memory from going back to the pool and being rewritten while
   * the consumer reads it) */
  VmiSinkClients clients;
  guint64 next_seq;
  GHashTable *memories;         /* id -> GstMemory (ref) sent to someone */
  gchar *caps_str;
  guint caps_gen;
  guint8 *msgbuf;               /* VMI_PROTO_MAX_MSG bytes, under lock */
  guint8 rxbuf[VMI_PROTO_HEADER_SIZE + 64];     /* service thread only */

  /* copies, render thread only */
  GstBufferPool *copy_pool;
  GstVideoInfo info;
  gboolean have_info;
  gboolean warned_copy;

  /* stats, self->lock */
  guint64 rendered, copies, skipped, sent;
  guint64 clients_timed_out, clients_rejected, clients_total;
};

#define gst_vmi_sink_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstVmiSink, gst_vmi_sink, GST_TYPE_BASE_SINK,
    GST_DEBUG_CATEGORY_INIT (gst_vmi_sink_debug, "vmisink", 0,
        "vMI zero-copy inter-process sink"));
GST_ELEMENT_REGISTER_DEFINE (vmisink, "vmisink", GST_RANK_NONE,
    GST_TYPE_VMI_SINK);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

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
static GstMessage *
vmi_sink_drop_client_locked (GstVmiSink * self, VmiSinkClient * c,
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

static gint
vmi_sink_client_send (GstVmiSink * self, VmiSinkClient * c, const VmiMsg * m,
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
static void
vmi_sink_forget_unused_locked (GstVmiSink * self)
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
      vmi_sink_client_send (self, c, &m, -1);
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
  vmi_sink_client_send (self, c, &m, -1);
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
        msgs = g_list_append (msgs, vmi_sink_drop_client_locked (self, c,
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
        msgs = g_list_append (msgs, vmi_sink_drop_client_locked (self, c,
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
 * GstBaseSink
 */

static gboolean
gst_vmi_sink_start (GstBaseSink * bsink)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);
  gchar *path;
  guint perms;
  int fd;

  GST_OBJECT_LOCK (self);
  path = g_strdup (self->socket_path);
  perms = self->perms;
  GST_OBJECT_UNLOCK (self);

  if (path == NULL)
    goto no_path;

  fd = vmi_socket_listen (path, perms);
  if (fd < 0)
    goto listen_failed;

  g_mutex_lock (&self->lock);
  self->listen_fd = fd;
  self->poll = gst_poll_new (TRUE);
  if (self->poll == NULL) {
    g_mutex_unlock (&self->lock);
    close (fd);
    self->listen_fd = -1;
    goto no_poll;
  }
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
  self->warned_copy = FALSE;

  GST_INFO_OBJECT (self, "listening on %s (mode %04o)", path, perms);
  g_free (path);
  return TRUE;

  /* ERRORS */
no_path:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No socket-path set."),
        ("Set the socket-path property, e.g. socket-path=/tmp/vmi.sock"));
    return FALSE;
  }
listen_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Could not listen on socket \"%s\".", path),
        ("%s. Check that the directory exists and is writable, that the "
            "path is not an existing non-socket file and that no other "
            "vmisink is serving it.", g_strerror (-fd)));
    g_free (path);
    return FALSE;
  }
no_poll:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ_WRITE,
        ("Could not create the wake-up of the service thread: %s.",
            g_strerror (errno)),
        ("The process is out of file descriptors: raise its limit "
            "(ulimit -n) or close some."));
    g_free (path);
    return FALSE;
  }
}

static gboolean
gst_vmi_sink_stop (GstBaseSink * bsink)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);
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

  /* stop accepting first, so a consumer reconnecting as soon as we drop it
   * finds nothing rather than a listen queue about to vanish */
  GST_OBJECT_LOCK (self);
  if (self->socket_path && self->listen_fd >= 0)
    unlink (self->socket_path);
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->lock);
  if (self->listen_fd >= 0)
    close (self->listen_fd);
  self->listen_fd = -1;
  while (self->clients.clients)
    gst_message_unref (vmi_sink_drop_client_locked (self,
            self->clients.clients->data, "stopping"));
  g_clear_pointer (&self->memories, g_hash_table_destroy);
  g_clear_pointer (&self->poll, gst_poll_free);
  g_clear_pointer (&self->caps_str, g_free);
  g_mutex_unlock (&self->lock);

  if (self->copy_pool) {
    gst_buffer_pool_set_active (self->copy_pool, FALSE);
    gst_clear_object (&self->copy_pool);
  }
  self->have_info = FALSE;
  return TRUE;
}

static gboolean
gst_vmi_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);
  gchar *str = gst_caps_to_string (caps);

  if (strlen (str) > VMI_PROTO_MAX_CAPS) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Caps too long to send to consumers."),
        ("%" G_GSIZE_FORMAT " bytes, at most %d: drop fields consumers do "
            "not need (e.g. with a capssetter or a simpler capsfilter)",
            strlen (str), (int) VMI_PROTO_MAX_CAPS));
    g_free (str);
    return FALSE;
  }
  self->have_info = gst_video_info_from_caps (&self->info, caps);
  if (self->copy_pool) {
    gst_buffer_pool_set_active (self->copy_pool, FALSE);
    gst_clear_object (&self->copy_pool);
  }

  g_mutex_lock (&self->lock);
  g_free (self->caps_str);
  self->caps_str = str;
  self->caps_gen++;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_vmi_sink_propose_allocation (GstBaseSink * bsink, GstQuery * query)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);
  GstAllocator *allocator = gst_vmi_allocator_get ();
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, &need_pool);

  if (caps && gst_video_info_from_caps (&info, caps)) {
    if (need_pool) {
      GstBufferPool *pool = gst_vmi_buffer_pool_new ();
      GstStructure *config = gst_buffer_pool_get_config (pool);

      gst_buffer_pool_config_set_params (config, caps, info.size, 2, 0);
      gst_buffer_pool_config_set_allocator (config, allocator, NULL);
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META);
      if (!gst_buffer_pool_set_config (pool, config)) {
        GST_WARNING_OBJECT (self, "could not configure the proposed pool");
        gst_object_unref (pool);
      } else {
        /* max 0: the vMI pool bounds itself; consumers that hold frames
         * make the producer skip, not allocate without end */
        gst_query_add_allocation_pool (query, pool, info.size, 2, 0);
        gst_object_unref (pool);
      }
    }
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  }
  gst_query_add_allocation_param (query, allocator, NULL);
  gst_object_unref (allocator);
  return TRUE;
}

static gboolean
vmi_buffer_is_shareable (GstBuffer * buf)
{
  guint i, n = gst_buffer_n_memory (buf);

  if (n == 0 || n > VMI_PROTO_MAX_MEMS)
    return FALSE;
  for (i = 0; i < n; i++)
    if (!gst_is_vmi_memory (gst_buffer_peek_memory (buf, i)))
      return FALSE;
  return TRUE;
}

/* Upstream did not use our pool: one copy into vMI memory, counted.
 * Sets @exhausted (and returns NULL) when every frame of the copy pool is
 * still held by consumers. */
static GstBuffer *
vmi_sink_copy_to_vmi (GstVmiSink * self, GstBuffer * buf, gboolean * exhausted)
{
  GstBuffer *out = NULL;

  if (!self->warned_copy) {
    self->warned_copy = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Upstream does not render into vMI memory; every frame is copied."),
        ("upstream ignored the proposed GstVmiBufferPool (or allocator); "
            "put the producing element directly before vmisink"));
  }

  if (self->have_info) {
    if (!self->copy_pool) {
      GstStructure *config;
      GstCaps *caps = gst_video_info_to_caps (&self->info);

      self->copy_pool = gst_vmi_buffer_pool_new ();
      config = gst_buffer_pool_get_config (self->copy_pool);
      gst_buffer_pool_config_set_params (config, caps, self->info.size, 0, 0);
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META);
      gst_caps_unref (caps);
      if (!gst_buffer_pool_set_config (self->copy_pool, config) ||
          !gst_buffer_pool_set_active (self->copy_pool, TRUE))
        gst_clear_object (&self->copy_pool);
    }
    /* never wait for a consumer to give a frame back: a hung one would
     * stall the stream (and the state change) until its release-timeout */
    if (self->copy_pool &&
        gst_vmi_buffer_pool_acquire_live (self->copy_pool, &out,
            exhausted) == GST_FLOW_OK && *exhausted)
      return NULL;
    if (out) {
      GstVideoFrame src, dst;
      gboolean ok = FALSE;

      if (gst_video_frame_map (&src, &self->info, buf, GST_MAP_READ)) {
        if (gst_video_frame_map (&dst, &self->info, out, GST_MAP_WRITE)) {
          ok = gst_video_frame_copy (&dst, &src);
          gst_video_frame_unmap (&dst);
        }
        gst_video_frame_unmap (&src);
      }
      if (!ok)
        gst_clear_buffer (&out);
    }
    if (out) {
      /* not the metas: the copy has the pool's own video meta (its own
       * strides); a copied upstream meta would describe upstream's layout */
      gst_buffer_copy_into (out, buf, GST_BUFFER_COPY_FLAGS |
          GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
      return out;
    }
  }
  {
    /* not video (or odd buffers): copy the bytes as they are */
    GstAllocator *alloc = gst_vmi_allocator_get ();
    gsize size = gst_buffer_get_size (buf);

    out = gst_buffer_new_allocate (alloc, MAX (size, 1), NULL);
    gst_object_unref (alloc);
    if (!out)
      return NULL;
    gst_buffer_resize (out, 0, size);
    {
      GstMapInfo map;
      if (gst_buffer_map (out, &map, GST_MAP_WRITE)) {
        gst_buffer_extract (buf, 0, map.data, size);
        gst_buffer_unmap (out, &map);
      }
    }
    /* same bytes, same layout: the metas still apply */
    gst_buffer_copy_into (out, buf, GST_BUFFER_COPY_METADATA, 0, -1);
    return out;
  }
}

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

/* wait-for-connection: holds the stream until the first consumer came (only
 * the first: once the stream runs, losing every consumer must not stall
 * the producer). Called with self->lock; FALSE when flushing. */
static gboolean
vmi_sink_wait_first_consumer_locked (GstVmiSink * self)
{
  gboolean wait;

  GST_OBJECT_LOCK (self);
  wait = self->wait_for_connection;
  GST_OBJECT_UNLOCK (self);
  if (wait && self->clients_total == 0 && !self->flushing) {
    gchar *path;

    g_mutex_unlock (&self->lock);
    GST_OBJECT_LOCK (self);
    path = g_strdup (self->socket_path);
    GST_OBJECT_UNLOCK (self);
    /* a wait that can last says so */
    GST_ELEMENT_INFO (self, RESOURCE, BUSY,
        ("Waiting for the first consumer to connect to %s "
            "(wait-for-connection=true); the stream is held until then.",
            path), ("Start one, e.g. gst-launch-1.0 vmisrc socket-path=%s ! "
            "fakesink, or set wait-for-connection=false.", path));
    g_free (path);
    g_mutex_lock (&self->lock);
  }
  while (wait && self->clients_total == 0 && !self->flushing)
    g_cond_wait (&self->cond, &self->lock);
  return !self->flushing;
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
    err = vmi_sink_client_send (self, c, &cm, -1);
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
    err = vmi_sink_client_send (self, c, &mm, gst_fd_memory_get_fd (mem));
    if (err == 0) {
      vmi_sink_client_add_memory (c, id);
      if (!g_hash_table_contains (self->memories, &id))
        g_hash_table_insert (self->memories, g_memdup2 (&id, sizeof (id)),
            gst_memory_ref (mem));
    }
  }
  if (err == 0)
    err = vmi_sink_client_send (self, c, fm, -1);
  return err;
}

static GstFlowReturn
gst_vmi_sink_render (GstBaseSink * bsink, GstBuffer * buf)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);
  GstBuffer *out = NULL;
  VmiMsg fm = {.type = VMI_MSG_FRAME };
  GList *l, *dropped = NULL, *msgs = NULL;
  gboolean copied = FALSE, exhausted = FALSE;
  guint max_out;
  guint64 seq;
  gint64 now;

  GST_OBJECT_LOCK (self);
  max_out = self->max_outstanding;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&self->lock);
  if (!vmi_sink_wait_first_consumer_locked (self)) {
    g_mutex_unlock (&self->lock);
    return GST_FLOW_FLUSHING;
  }
  self->rendered++;
  if (self->clients.clients == NULL) {
    vmi_sink_forget_unused_locked (self);
    g_mutex_unlock (&self->lock);
    return GST_FLOW_OK;
  }
  g_mutex_unlock (&self->lock);

  if (vmi_buffer_is_shareable (buf)) {
    out = gst_buffer_ref (buf);
  } else {
    out = vmi_sink_copy_to_vmi (self, buf, &exhausted);
    if (exhausted) {
      /* every copy frame is still held by consumers: this frame is lost
       * for all of them, counted, rather than stalling the stream */
      g_mutex_lock (&self->lock);
      for (l = self->clients.clients; l; l = l->next) {
        ((VmiSinkClient *) l->data)->skipped++;
        self->skipped++;
      }
      g_mutex_unlock (&self->lock);
      return GST_FLOW_OK;
    }
    if (!out)
      goto copy_failed;
    copied = TRUE;
  }
  vmi_sink_describe_frame (self, out, &fm.u.frame);

  g_mutex_lock (&self->lock);
  if (copied)
    self->copies++;
  vmi_sink_forget_unused_locked (self);
  seq = fm.u.frame.seq = self->next_seq++;
  now = g_get_monotonic_time ();
  for (l = self->clients.clients; l; l = l->next) {
    VmiSinkClient *c = l->data;
    gint err;

    if (c->n_held >= max_out) {
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
  /* the clients that got the frame hold their own references */
  gst_buffer_unref (out);
  for (l = dropped; l; l = l->next)
    msgs = g_list_prepend (msgs, vmi_sink_drop_client_locked (self, l->data,
            "send failed"));
  g_list_free (dropped);
  g_mutex_unlock (&self->lock);
  for (l = msgs; l; l = l->next)
    gst_element_post_message (GST_ELEMENT (self), l->data);
  g_list_free (msgs);
  return GST_FLOW_OK;

  /* ERRORS */
copy_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Could not copy a frame into shareable memory."),
        ("memfd allocation failed; check memory limits"));
    return GST_FLOW_ERROR;
  }
}

static gboolean
gst_vmi_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    VmiMsg m = {.type = VMI_MSG_EOS };
    GList *l;

    g_mutex_lock (&self->lock);
    for (l = self->clients.clients; l; l = l->next)
      vmi_sink_client_send (self, l->data, &m, -1);
    g_mutex_unlock (&self->lock);
  }
  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

static gboolean
gst_vmi_sink_unlock (GstBaseSink * bsink)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);

  g_mutex_lock (&self->lock);
  self->flushing = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_vmi_sink_unlock_stop (GstBaseSink * bsink)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);

  g_mutex_lock (&self->lock);
  self->flushing = FALSE;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static GstStructure *
gst_vmi_sink_get_stats (GstVmiSink * self)
{
  GstStructure *s;

  g_mutex_lock (&self->lock);
  s = gst_structure_new ("vmisink-stats",
      "frames", G_TYPE_UINT64, self->rendered,
      "frames-sent", G_TYPE_UINT64, self->sent,
      "frames-skipped", G_TYPE_UINT64, self->skipped,
      "releases", G_TYPE_UINT64, self->clients.releases,
      "copies", G_TYPE_UINT64, self->copies,
      "clients", G_TYPE_UINT, vmi_sink_clients_count (&self->clients),
      "clients-total", G_TYPE_UINT64, self->clients_total,
      "clients-timed-out", G_TYPE_UINT64, self->clients_timed_out,
      "clients-rejected", G_TYPE_UINT64, self->clients_rejected, NULL);
  g_mutex_unlock (&self->lock);
  return s;
}

static void
gst_vmi_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVmiSink *self = GST_VMI_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SOCKET_PATH:
      g_free (self->socket_path);
      self->socket_path = g_value_dup_string (value);
      break;
    case PROP_PERMS:
      self->perms = g_value_get_uint (value);
      break;
    case PROP_WAIT_FOR_CONNECTION:
      self->wait_for_connection = g_value_get_boolean (value);
      break;
    case PROP_MAX_CLIENTS:
      self->max_clients = g_value_get_uint (value);
      break;
    case PROP_MAX_OUTSTANDING:
      self->max_outstanding = g_value_get_uint (value);
      break;
    case PROP_RELEASE_TIMEOUT:
      self->release_timeout = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (prop_id == PROP_WAIT_FOR_CONNECTION) {
    g_mutex_lock (&self->lock);
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
  }
}

static void
gst_vmi_sink_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstVmiSink *self = GST_VMI_SINK (object);

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_vmi_sink_get_stats (self));
    return;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SOCKET_PATH:
      g_value_set_string (value, self->socket_path);
      break;
    case PROP_PERMS:
      g_value_set_uint (value, self->perms);
      break;
    case PROP_WAIT_FOR_CONNECTION:
      g_value_set_boolean (value, self->wait_for_connection);
      break;
    case PROP_MAX_CLIENTS:
      g_value_set_uint (value, self->max_clients);
      break;
    case PROP_MAX_OUTSTANDING:
      g_value_set_uint (value, self->max_outstanding);
      break;
    case PROP_RELEASE_TIMEOUT:
      g_value_set_uint (value, self->release_timeout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vmi_sink_finalize (GObject * object)
{
  GstVmiSink *self = GST_VMI_SINK (object);

  g_free (self->socket_path);
  g_free (self->msgbuf);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_vmi_sink_class_init (GstVmiSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *bsink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->set_property = gst_vmi_sink_set_property;
  gobject_class->get_property = gst_vmi_sink_get_property;
  gobject_class->finalize = gst_vmi_sink_finalize;

  /**
   * GstVmiSink:socket-path:
   *
   * Path of the unix socket consumers (`vmisrc`) connect to. A stale
   * socket file left by a crashed producer is replaced; any other file at
   * that path makes the state change fail.
   */
  g_object_class_install_property (gobject_class, PROP_SOCKET_PATH,
      g_param_spec_string ("socket-path", "Socket path",
          "Unix socket path consumers connect to", DEFAULT_PROP_SOCKET_PATH,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstVmiSink:perms:
   *
   * File mode of the socket, octal as chmod takes it: the default 0600 lets
   * only the owner in (anyone who can connect sees every frame), 0660 the
   * group too. A gst-launch line reads a leading 0 as octal (perms=0660);
   * gst-inspect and g_object_get() show the number in decimal (0600 = 384,
   * 0660 = 432).
   */
  g_object_class_install_property (gobject_class, PROP_PERMS,
      g_param_spec_uint ("perms", "Permissions",
          "File mode of the socket, octal (0600 = 384: owner only, "
          "0660 = 432: group too)",
          0, 0777, DEFAULT_PROP_PERMS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstVmiSink:wait-for-connection:
   *
   * Block the stream until the first consumer connects (an info message on
   * the bus says so when the wait begins). Only the first: a
   * stream that runs never stalls because its consumers went away. Frames
   * rendered while no consumer is connected are dropped (counted in
   * `frames` but not in `frames-sent`).
   */
  g_object_class_install_property (gobject_class, PROP_WAIT_FOR_CONNECTION,
      g_param_spec_boolean ("wait-for-connection", "Wait for connection",
          "Block the stream until the first consumer connects",
          DEFAULT_PROP_WAIT_FOR_CONNECTION,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstVmiSink:max-clients:
   *
   * How many consumers may be connected at once; all share the same frame
   * memory (fan-out without copies). Further connections are refused.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_CLIENTS,
      g_param_spec_uint ("max-clients", "Max clients",
          "Maximum number of consumers connected at once", 1, 64,
          DEFAULT_PROP_MAX_CLIENTS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstVmiSink:max-outstanding:
   *
   * Frames a consumer may hold unreleased. Further frames are not sent to
   * that consumer (counted in `frames-skipped`) so a slow consumer turns
   * into loss on its side, never into a stall of the producer or of the
   * other consumers. Keep it below the upstream pool's max-buffers.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_OUTSTANDING,
      g_param_spec_uint ("max-outstanding", "Max outstanding",
          "Frames a consumer may hold before it is skipped", 1, 1024,
          DEFAULT_PROP_MAX_OUTSTANDING,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstVmiSink:release-timeout:
   *
   * Milliseconds a consumer may hold a frame. A consumer that holds one
   * longer is considered hung: it is disconnected with a warning and its
   * frames are returned to the producer.
   */
  g_object_class_install_property (gobject_class, PROP_RELEASE_TIMEOUT,
      g_param_spec_uint ("release-timeout", "Release timeout",
          "Milliseconds a consumer may hold a frame before it is cut off",
          1, G_MAXINT / 1000, DEFAULT_PROP_RELEASE_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstVmiSink:stats:
   *
   * A `vmisink-stats` structure: `frames` (rendered), `frames-sent` (frame
   * messages over all consumers), `frames-skipped` (not sent to a consumer
   * that was behind), `releases`, `copies` (frames that were not in vMI
   * memory), `clients`, `clients-total`, `clients-timed-out`,
   * `clients-rejected` (refused or protocol violations).
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Counters of the sink",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "vMI zero-copy inter-process sink", "Sink/Video",
      "Hands frames to other processes through shared memory without "
      "copying. Example: gst-launch-1.0 videotestsrc is-live=true ! "
      "video/x-raw,format=UYVP,width=1920,height=1080,framerate=60/1 ! "
      "vmisink socket-path=/tmp/vmi.sock",
      "gst-vmi developers");

  bsink_class->start = GST_DEBUG_FUNCPTR (gst_vmi_sink_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_vmi_sink_stop);
  bsink_class->set_caps = GST_DEBUG_FUNCPTR (gst_vmi_sink_set_caps);
  bsink_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_vmi_sink_propose_allocation);
  bsink_class->render = GST_DEBUG_FUNCPTR (gst_vmi_sink_render);
  bsink_class->event = GST_DEBUG_FUNCPTR (gst_vmi_sink_event);
  bsink_class->unlock = GST_DEBUG_FUNCPTR (gst_vmi_sink_unlock);
  bsink_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_vmi_sink_unlock_stop);
}

static void
gst_vmi_sink_init (GstVmiSink * self)
{
  self->socket_path = g_strdup (DEFAULT_PROP_SOCKET_PATH);
  self->perms = DEFAULT_PROP_PERMS;
  self->wait_for_connection = DEFAULT_PROP_WAIT_FOR_CONNECTION;
  self->max_clients = DEFAULT_PROP_MAX_CLIENTS;
  self->max_outstanding = DEFAULT_PROP_MAX_OUTSTANDING;
  self->release_timeout = DEFAULT_PROP_RELEASE_TIMEOUT;
  self->listen_fd = -1;
  gst_poll_fd_init (&self->listen_pollfd);
  vmi_sink_clients_init (&self->clients,
      (GDestroyNotify) gst_mini_object_unref);
  self->msgbuf = g_malloc (VMI_PROTO_MAX_MSG);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  /* the last sample would pin one more pool frame for nothing */
  gst_base_sink_set_last_sample_enabled (GST_BASE_SINK (self), FALSE);
}
