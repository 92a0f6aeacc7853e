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

#include "pool/gstvmisink-priv.h"
#include "gstvmielements.h"

#include <errno.h>
#include <string.h>

GST_DEBUG_CATEGORY (gst_vmi_sink_debug);
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

#define gst_vmi_sink_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstVmiSink, gst_vmi_sink, GST_TYPE_BASE_SINK,
    GST_DEBUG_CATEGORY_INIT (gst_vmi_sink_debug, "vmisink", 0,
        "vMI zero-copy inter-process sink"));
GST_ELEMENT_REGISTER_DEFINE (vmisink, "vmisink", GST_RANK_NONE,
    GST_TYPE_VMI_SINK);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);







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
  if (!gst_vmi_sink_service_start (self, fd))
    goto no_poll;
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
  gchar *path;

  GST_OBJECT_LOCK (self);
  path = g_strdup (self->socket_path);
  GST_OBJECT_UNLOCK (self);
  gst_vmi_sink_service_stop (self, path);
  g_free (path);

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



/* Upstream did not use our pool: one copy into vMI memory, counted and
 * warned about once. NULL with @exhausted set when every frame of the copy
 * pool is still held by consumers. */
static GstBuffer *
vmi_sink_copy_to_vmi (GstVmiSink * self, GstBuffer * buf, gboolean * exhausted)
{
  if (!self->warned_copy) {
    self->warned_copy = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Upstream does not render into vMI memory; every frame is copied."),
        ("upstream ignored the proposed GstVmiBufferPool (or allocator); "
            "put the producing element directly before vmisink"));
  }
  return gst_vmi_buffer_copy_to_vmi (&self->copy_pool,
      self->have_info ? &self->info : NULL, buf, exhausted);
}

static GstFlowReturn
gst_vmi_sink_render (GstBaseSink * bsink, GstBuffer * buf)
{
  GstVmiSink *self = GST_VMI_SINK (bsink);
  GstBuffer *out;
  gboolean copied = FALSE, exhausted = FALSE;
  guint max_out;

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
    gst_vmi_sink_forget_unused_locked (self);
    g_mutex_unlock (&self->lock);
    return GST_FLOW_OK;
  }
  g_mutex_unlock (&self->lock);

  if (gst_vmi_buffer_is_shareable (buf, VMI_PROTO_MAX_MEMS)) {
    out = gst_buffer_ref (buf);
  } else {
    out = vmi_sink_copy_to_vmi (self, buf, &exhausted);
    if (exhausted) {
      GList *l;

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
  gst_vmi_sink_service_send_frame (self, out, max_out, copied);
  /* the consumers that got the frame hold their own references */
  gst_buffer_unref (out);
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
      gst_vmi_sink_client_send (self, l->data, &m, -1);
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
