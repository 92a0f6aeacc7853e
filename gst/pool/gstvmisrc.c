/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-vmisrc
 * @title: vmisrc
 * @see_also: vmisink, shmsrc
 *
 * Receives frames from a `vmisink` in another process on the same host
 * without copying them: the producer's frame memory is mapped read-only
 * and each output buffer wraps it. When the buffer is freed downstream, a
 * release message returns the frame to the producer.
 *
 * Caps, timestamps, buffer flags and the video meta (strides, plane
 * offsets) are carried across. In live mode (`is-live`, the default) the
 * producer's timestamp is mapped onto this pipeline's running time through
 * the host's monotonic clock when both pipelines run on the system clock,
 * and the frame is time-stamped on arrival otherwise.
 *
 * vmisrc waits for the producer and reconnects when it restarts (posting a
 * `vmisrc-connection` element message with `event` = `connected` or
 * `disconnected`). While there is no producer at `socket-path` it posts a
 * warning saying so (once per wait) and retries every 100 ms. Everything the producer sends is checked (message
 * lengths, that a received fd is a memfd sealed against shrinking and as
 * big as announced, that every frame lies inside its mapping and is as big
 * as the caps need); a producer that fails a check is a fatal stream error.
 *
 * See docs/zerocopy.md for the protocol.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 vmisrc socket-path=/tmp/vmi.sock ! queue ! videoconvert ! autovideosink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "pool/gstvmisrc.h"
#include "pool/vmi-protocol.h"
#include "gstvmielements.h"

#include <gst/video/video.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_STATIC (gst_vmi_src_debug);
#define GST_CAT_DEFAULT gst_vmi_src_debug

enum
{
  PROP_0,
  PROP_SOCKET_PATH,
  PROP_IS_LIVE,
  PROP_STATS,
};

#define DEFAULT_PROP_SOCKET_PATH NULL
#define DEFAULT_PROP_IS_LIVE     TRUE

/* a producer cannot make us hold more mappings than this */
#define MAX_MAPPINGS        256
#define RECONNECT_INTERVAL  100     /* ms */
/* how long a release may wait for room in a full socket queue */
#define RELEASE_GRACE_MS    200

/* One connection to a producer; buffers still downstream keep it (and so
 * the socket their release goes to) alive after a reconnect. */
typedef struct
{
  gint refcount;
  int fd;
} VmiConn;

typedef struct
{
  gint refcount;
  guint64 id;
  guint8 *data;
  gsize size;
} VmiMapping;

typedef struct
{
  VmiConn *conn;
  guint64 seq;
  gint pending;                 /* wrapped memories not yet freed */
  guint n_maps;
  VmiMapping *maps[VMI_PROTO_MAX_MEMS];
} VmiFrameRef;

struct _GstVmiSrc
{
  GstPushSrc parent;

  /* properties, object lock */
  gchar *socket_path;
  gboolean is_live;

  /* streaming thread */
  VmiConn *conn;
  GHashTable *maps;             /* id -> VmiMapping */
  gboolean have_hello;
  GstCaps *caps;
  GstVideoInfo info;
  gboolean have_info;
  gboolean waiting_logged;
  guint8 *msgbuf;               /* VMI_PROTO_MAX_MSG bytes */

  /* unlock */
  /* the connection's fd, and the wake-up of unlock(): flushing makes every
   * wait return at once, as in udpsrc and shmsrc */
  GstPoll *poll;
  GstPollFD pollfd;
  gint flushing;                /* atomic */

  /* stats: written by the streaming thread, read by get_property */
  guint64 frames, connects;     /* atomic */
};

#define gst_vmi_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstVmiSrc, gst_vmi_src, GST_TYPE_PUSH_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_vmi_src_debug, "vmisrc", 0,
        "vMI zero-copy inter-process source"));
GST_ELEMENT_REGISTER_DEFINE (vmisrc, "vmisrc", GST_RANK_NONE,
    GST_TYPE_VMI_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static void
vmi_conn_unref (VmiConn * c)
{
  if (g_atomic_int_dec_and_test (&c->refcount)) {
    close (c->fd);
    g_free (c);
  }
}

static void
vmi_mapping_unref (VmiMapping * m)
{
  if (g_atomic_int_dec_and_test (&m->refcount)) {
    munmap (m->data, m->size);
    g_free (m);
  }
}

/* GDestroyNotify of every wrapped memory: the last one of a frame tells the
 * producer it may reuse the frame. Runs in whatever thread frees it. */
static void
vmi_frame_ref_release (gpointer data)
{
  VmiFrameRef *f = data;
  guint i;

  if (!g_atomic_int_dec_and_test (&f->pending))
    return;
  {
    VmiMsg m = {.type = VMI_MSG_RELEASE };
    guint8 buf[VMI_PROTO_HEADER_SIZE + 8];
    gsize len;

    gssize r;

    m.u.release.seq = f->seq;
    len = vmi_msg_pack (&m, buf, sizeof (buf));
    /* Never block: this runs in whatever thread drops the buffer (often
     * the streaming thread, which must stay stoppable). A full queue means
     * the producer stopped reading releases (it is hung or hostile): hang
     * up, so that the streaming thread sees the connection end and
     * reconnects; the producer takes all our frames back when it notices.
     * After a disconnect the send fails quietly (EPIPE): the producer has
     * already taken the frame back. */
    r = vmi_socket_send (f->conn->fd, buf, len, -1, TRUE);
    if (r == -EAGAIN || r == -ENOBUFS) {
      /* a burst of releases can briefly outrun a busy producer: allow it a
       * bounded moment before calling it hung */
      struct pollfd p = { f->conn->fd, POLLOUT, 0 };
      if (poll (&p, 1, RELEASE_GRACE_MS) > 0)
        r = vmi_socket_send (f->conn->fd, buf, len, -1, TRUE);
    }
    if (r == -EAGAIN || r == -ENOBUFS) {
      GST_WARNING ("vMI producer does not read releases; disconnecting");
      shutdown (f->conn->fd, SHUT_RDWR);
    }
  }
  for (i = 0; i < f->n_maps; i++)
    vmi_mapping_unref (f->maps[i]);
  vmi_conn_unref (f->conn);
  g_free (f);
}

static void
vmi_src_disconnect (GstVmiSrc * self, const char *reason)
{
  gboolean was_connected = self->have_hello;

  if (!self->conn)
    return;
  GST_INFO_OBJECT (self, "disconnected from the producer: %s", reason);
  /* buffers still downstream keep the fd; shut it down so the producer sees
   * us go now, not when the last of them is freed */
  shutdown (self->conn->fd, SHUT_RDWR);
  g_clear_pointer (&self->conn, vmi_conn_unref);
  g_hash_table_remove_all (self->maps);
  self->have_hello = FALSE;
  if (was_connected)
    gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_structure_new ("vmisrc-connection", "event", G_TYPE_STRING,
              "disconnected", "reason", G_TYPE_STRING, reason, NULL)));
}

/* Waits up to @timeout_ms (-1: for ever) for @fd, or only for an unlock
 * when @fd < 0. Returns 1 when @fd is readable, 0 on timeout, -1 when
 * flushing. */
static gint
vmi_src_wait (GstVmiSrc * self, int fd, int timeout_ms)
{
  gint r;

  if (self->pollfd.fd != fd) {
    if (self->pollfd.fd >= 0)
      gst_poll_remove_fd (self->poll, &self->pollfd);
    gst_poll_fd_init (&self->pollfd);
    self->pollfd.fd = fd;
    if (fd >= 0) {
      gst_poll_add_fd (self->poll, &self->pollfd);
      gst_poll_fd_ctl_read (self->poll, &self->pollfd, TRUE);
    }
  }
  r = gst_poll_wait (self->poll, timeout_ms < 0 ? GST_CLOCK_TIME_NONE :
      (GstClockTime) timeout_ms * GST_MSECOND);
  if (g_atomic_int_get (&self->flushing) || (r < 0 && errno == EBUSY))
    return -1;
  if (r > 0 && fd >= 0 && (gst_poll_fd_can_read (self->poll, &self->pollfd)
          || gst_poll_fd_has_closed (self->poll, &self->pollfd)
          || gst_poll_fd_has_error (self->poll, &self->pollfd)))
    return 1;
  return 0;
}

static gboolean
vmi_src_try_connect (GstVmiSrc * self)
{
  gchar *path;
  int fd;

  GST_OBJECT_LOCK (self);
  path = g_strdup (self->socket_path);
  GST_OBJECT_UNLOCK (self);
  fd = vmi_socket_connect (path);
  if (fd < 0) {
    /* a wait that can last says so, once per wait */
    if (!self->waiting_logged)
      GST_ELEMENT_WARNING (self, RESOURCE, OPEN_READ,
          ("No vMI producer at %s (%s); retrying every %d ms.", path,
              g_strerror (-fd), RECONNECT_INTERVAL),
          ("Start the producer (vmisink socket-path=%s) or correct "
              "socket-path.", path));
    self->waiting_logged = TRUE;
    g_free (path);
    return FALSE;
  }
  self->conn = g_new0 (VmiConn, 1);
  self->conn->refcount = 1;
  self->conn->fd = fd;
  self->waiting_logged = FALSE;
  GST_DEBUG_OBJECT (self, "connected to %s, waiting for HELLO", path);
  g_free (path);
  return TRUE;
}

static gboolean
vmi_src_handle_memory (GstVmiSrc * self, const VmiMsg * m, int fd,
    const char **why)
{
  VmiMapping *map;
  void *data;

  if (fd < 0) {
    *why = "MEMORY message without a file descriptor";
    return FALSE;
  }
  if (g_hash_table_contains (self->maps, &m->u.memory.id)) {
    *why = "MEMORY id announced twice";
    return FALSE;
  }
  if (g_hash_table_size (self->maps) >= MAX_MAPPINGS) {
    *why = "too many memories announced";
    return FALSE;
  }
  if (m->u.memory.size > G_MAXSIZE || !vmi_check_memfd (fd,
          m->u.memory.size, why))
    return FALSE;
  data = mmap (NULL, m->u.memory.size, PROT_READ, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    *why = "could not map the producer's memory";
    return FALSE;
  }
  map = g_new0 (VmiMapping, 1);
  map->refcount = 1;
  map->id = m->u.memory.id;
  map->data = data;
  map->size = m->u.memory.size;
  g_hash_table_insert (self->maps, &map->id, map);
  GST_DEBUG_OBJECT (self, "mapped memory %" G_GUINT64_FORMAT " (%"
      G_GSIZE_FORMAT " bytes)", map->id, map->size);
  return TRUE;
}

static gboolean
vmi_src_handle_caps (GstVmiSrc * self, const VmiMsg * m, const char **why)
{
  GstCaps *caps = gst_caps_from_string (m->u.caps.str);

  if (!caps || !gst_caps_is_fixed (caps)) {
    *why = "CAPS message does not hold fixed caps";
    if (caps)
      gst_caps_unref (caps);
    return FALSE;
  }
  if (self->caps && gst_caps_is_equal (caps, self->caps)) {
    gst_caps_unref (caps);
    return TRUE;
  }
  self->have_info = gst_video_info_from_caps (&self->info, caps);
  /* raw video we cannot describe (absurd sizes, unknown format) would
   * leave frames unchecked against their caps: refuse it */
  if (!self->have_info && gst_structure_has_name (gst_caps_get_structure
          (caps, 0), "video/x-raw")) {
    *why = "CAPS message holds invalid raw video caps";
    gst_caps_unref (caps);
    return FALSE;
  }
  gst_caps_replace (&self->caps, caps);
  gst_caps_unref (caps);
  GST_DEBUG_OBJECT (self, "caps %" GST_PTR_FORMAT, self->caps);
  if (!gst_base_src_set_caps (GST_BASE_SRC (self), self->caps)) {
    *why = "downstream refused the producer's caps";
    return FALSE;
  }
  return TRUE;
}

/* The frame's size and video meta must fit what the caps describe, so
 * that nothing downstream reads past the memory. */
static gboolean
vmi_src_check_video (GstVmiSrc * self, const VmiFrameInfo * f, gsize total,
    const char **why)
{
  const GstVideoInfo *info = &self->info;
  guint i;

  if (!self->have_info) {
    /* a video meta needs a format and a size: without raw video caps there
     * is nothing to check it against (and nothing to build it from) */
    if (f->n_planes > 0) {
      *why = "video meta on caps that are not raw video";
      return FALSE;
    }
    return TRUE;
  }
  if (f->n_planes == 0) {
    if (total < info->size) {
      *why = "frame smaller than its caps";
      return FALSE;
    }
    return TRUE;
  }
  if (f->n_planes != GST_VIDEO_INFO_N_PLANES (info)) {
    *why = "video meta plane count differs from the caps";
    return FALSE;
  }
  for (i = 0; i < f->n_planes; i++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    guint64 rows, min_stride, row_bytes;

    gst_video_format_info_component (info->finfo, i, comp);
    rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, comp[0],
        GST_VIDEO_INFO_FIELD_HEIGHT (info));
    min_stride = GST_VIDEO_INFO_PLANE_STRIDE (info, i);
    if (f->plane_stride[i] <= 0 || (guint64) f->plane_stride[i] < min_stride) {
      *why = "video meta stride smaller than a line";
      return FALSE;
    }
    row_bytes = (guint64) f->plane_stride[i] * rows;
    if (rows == 0 || !vmi_range_ok (f->plane_offset[i], row_bytes, total)) {
      *why = "video meta plane outside the frame";
      return FALSE;
    }
  }
  return TRUE;
}

static void
vmi_src_timestamp (GstVmiSrc * self, GstBuffer * buf, const VmiFrameInfo * f,
    gboolean live)
{
  GST_BUFFER_PTS (buf) = f->pts;
  GST_BUFFER_DTS (buf) = f->dts;
  GST_BUFFER_DURATION (buf) = f->duration;

  if (live) {
    GstClock *clock = gst_element_get_clock (GST_ELEMENT (self));
    GstClockTime base = gst_element_get_base_time (GST_ELEMENT (self));
    gint type = -1;

    GST_BUFFER_PTS (buf) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
    if (clock) {
      if (GST_IS_SYSTEM_CLOCK (clock))
        g_object_get (clock, "clock-type", &type, NULL);
      /* same host, same CLOCK_MONOTONIC: the producer's clock time is ours */
      if (type == GST_CLOCK_TYPE_MONOTONIC && f->abs_pts != VMI_PROTO_NONE &&
          f->abs_pts >= base)
        GST_BUFFER_PTS (buf) = f->abs_pts - base;
      else {
        GstClockTime now = gst_clock_get_time (clock);
        GST_BUFFER_PTS (buf) = now > base ? now - base : 0;
      }
      gst_object_unref (clock);
    }
  }
}

static GstFlowReturn
vmi_src_handle_frame (GstVmiSrc * self, const VmiMsg * m, GstBuffer ** out,
    const char **why)
{
  const VmiFrameInfo *f = &m->u.frame;
  const guint safe_flags = GST_BUFFER_FLAG_LIVE | GST_BUFFER_FLAG_DISCONT |
      GST_BUFFER_FLAG_RESYNC | GST_BUFFER_FLAG_CORRUPTED |
      GST_BUFFER_FLAG_MARKER | GST_BUFFER_FLAG_HEADER | GST_BUFFER_FLAG_GAP |
      GST_BUFFER_FLAG_DROPPABLE | GST_BUFFER_FLAG_DELTA_UNIT |
      GST_BUFFER_FLAG_DECODE_ONLY | GST_BUFFER_FLAG_NON_DROPPABLE;
  VmiFrameRef *ref;
  GstBuffer *buf;
  gsize total = 0;
  gboolean live;
  guint i;

  if (!self->caps) {
    *why = "FRAME before any CAPS";
    return GST_FLOW_ERROR;
  }
  ref = g_new0 (VmiFrameRef, 1);
  for (i = 0; i < f->n_mems; i++) {
    VmiMapping *map = g_hash_table_lookup (self->maps, &f->mems[i].id);

    if (!map) {
      *why = "FRAME refers to an unknown memory";
      goto bad;
    }
    if (!vmi_range_ok (f->mems[i].offset, f->mems[i].size, map->size)) {
      *why = "FRAME offset/size outside the memory";
      goto bad;
    }
    g_atomic_int_inc (&map->refcount);
    ref->maps[ref->n_maps++] = map;
    total += f->mems[i].size;
  }
  if (!vmi_src_check_video (self, f, total, why))
    goto bad;

  g_atomic_int_inc (&self->conn->refcount);
  ref->conn = self->conn;
  ref->seq = f->seq;
  ref->pending = f->n_mems;

  buf = gst_buffer_new ();
  for (i = 0; i < f->n_mems; i++)
    gst_buffer_append_memory (buf,
        gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY,
            ref->maps[i]->data + f->mems[i].offset, f->mems[i].size, 0,
            f->mems[i].size, ref, vmi_frame_ref_release));

  if (f->n_planes > 0) {
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
    gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
    for (i = 0; i < f->n_planes; i++) {
      offsets[i] = f->plane_offset[i];
      strides[i] = f->plane_stride[i];
    }
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
        GST_VIDEO_INFO_HEIGHT (&self->info), f->n_planes, offsets, strides);
  }

  GST_OBJECT_LOCK (self);
  live = self->is_live;
  GST_OBJECT_UNLOCK (self);
  vmi_src_timestamp (self, buf, f, live);
  GST_BUFFER_OFFSET (buf) = f->offset;
  GST_BUFFER_OFFSET_END (buf) = f->offset_end;
  GST_BUFFER_FLAGS (buf) = f->flags & safe_flags;

  __atomic_add_fetch (&self->frames, 1, __ATOMIC_RELAXED);
  *out = buf;
  return GST_FLOW_OK;

bad:
  for (i = 0; i < ref->n_maps; i++)
    vmi_mapping_unref (ref->maps[i]);
  g_free (ref);
  return GST_FLOW_ERROR;
}

static GstFlowReturn
gst_vmi_src_create (GstPushSrc * psrc, GstBuffer ** out)
{
  GstVmiSrc *self = GST_VMI_SRC (psrc);
  const char *why = NULL;
  VmiMsg m;
  gssize r;
  int fd;

  for (;;) {
    gint w;

    if (!self->conn) {
      if (g_atomic_int_get (&self->flushing))
        return GST_FLOW_FLUSHING;
      if (!vmi_src_try_connect (self)) {
        if (vmi_src_wait (self, -1, RECONNECT_INTERVAL) < 0)
          return GST_FLOW_FLUSHING;
        continue;
      }
    }

    w = vmi_src_wait (self, self->conn->fd, -1);
    if (w < 0)
      return GST_FLOW_FLUSHING;
    if (w == 0)
      continue;

    r = vmi_socket_recv (self->conn->fd, self->msgbuf, VMI_PROTO_MAX_MSG,
        &fd, TRUE);
    if (r == -EAGAIN || r == -EINTR)
      continue;
    if (r == 0 || r == -ECONNRESET) {
      vmi_src_disconnect (self, "producer closed the connection");
      continue;
    }
    if (r < 0) {
      why = r == -EBADMSG ? "truncated message or unexpected descriptors" :
          g_strerror (-r);
      goto protocol_error;
    }
    if (!vmi_msg_parse (self->msgbuf, r, &m, &why))
      goto protocol_error_fd;
    if (fd >= 0 && m.type != VMI_MSG_MEMORY) {
      why = "file descriptor attached to a message that takes none";
      goto protocol_error_fd;
    }
    if (!self->have_hello && m.type != VMI_MSG_HELLO) {
      why = "first message is not HELLO";
      goto protocol_error_fd;
    }

    switch (m.type) {
      case VMI_MSG_HELLO:
        if (self->have_hello) {
          why = "second HELLO";
          goto protocol_error;
        }
        /* only now is it a producer: a socket closing right after
         * connect (producer stopping) is not a connection */
        self->have_hello = TRUE;
        __atomic_add_fetch (&self->connects, 1, __ATOMIC_RELAXED);
        GST_INFO_OBJECT (self, "connected to producer pid %u",
            m.u.hello.pid);
        gst_element_post_message (GST_ELEMENT (self),
            gst_message_new_element (GST_OBJECT (self),
                gst_structure_new ("vmisrc-connection", "event", G_TYPE_STRING,
                    "connected", "reason", G_TYPE_STRING, "", NULL)));
        break;
      case VMI_MSG_CAPS:
        if (!vmi_src_handle_caps (self, &m, &why))
          goto protocol_error;
        break;
      case VMI_MSG_MEMORY:{
        gboolean ok = vmi_src_handle_memory (self, &m, fd, &why);
        if (fd >= 0)
          close (fd);
        fd = -1;
        if (!ok)
          goto protocol_error;
        break;
      }
      case VMI_MSG_FORGET:
        if (!g_hash_table_remove (self->maps, &m.u.forget.id)) {
          why = "FORGET of an unknown memory";
          goto protocol_error;
        }
        break;
      case VMI_MSG_FRAME:
        if (vmi_src_handle_frame (self, &m, out, &why) != GST_FLOW_OK)
          goto protocol_error;
        return GST_FLOW_OK;
      case VMI_MSG_EOS:
        GST_INFO_OBJECT (self, "producer sent EOS");
        return GST_FLOW_EOS;
      case VMI_MSG_RELEASE:
        why = "producer sent RELEASE";
        goto protocol_error;
    }
  }

  /* ERRORS */
protocol_error_fd:
  if (fd >= 0)
    close (fd);
protocol_error:
  {
    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("The vMI producer sent invalid data; disconnected."),
        ("%s", why));
    vmi_src_disconnect (self, why);
    return GST_FLOW_ERROR;
  }
}

static gboolean
gst_vmi_src_start (GstBaseSrc * bsrc)
{
  GstVmiSrc *self = GST_VMI_SRC (bsrc);
  gboolean have_path;
  gsize path_len;

  GST_OBJECT_LOCK (self);
  have_path = self->socket_path != NULL;
  path_len = have_path ? strlen (self->socket_path) : 0;
  GST_OBJECT_UNLOCK (self);
  if (!have_path)
    goto no_path;
  /* else every connect would fail and we would wait for ever */
  if (path_len == 0 ||
      path_len >= sizeof (((struct sockaddr_un *) 0)->sun_path))
    goto bad_path;
  self->poll = gst_poll_new (TRUE);
  if (self->poll == NULL)
    goto no_poll;
  gst_poll_fd_init (&self->pollfd);

  self->maps = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
      (GDestroyNotify) vmi_mapping_unref);
  self->frames = self->connects = 0;
  g_atomic_int_set (&self->flushing, FALSE);
  return TRUE;

  /* ERRORS */
no_path:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No socket-path set."),
        ("Set socket-path to the path of the producer's vmisink."));
    return FALSE;
  }
bad_path:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("Invalid socket-path."),
        ("socket-path must be 1 to %d bytes long (a unix socket address); "
            "use a shorter path", (int) sizeof (((struct sockaddr_un *)
                    0)->sun_path) - 1));
    return FALSE;
  }
no_poll:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ_WRITE,
        ("Could not create the wake-up of the reading thread: %s.",
            g_strerror (errno)),
        ("The process is out of file descriptors: raise its limit "
            "(ulimit -n) or close some."));
    return FALSE;
  }
}

static gboolean
gst_vmi_src_stop (GstBaseSrc * bsrc)
{
  GstVmiSrc *self = GST_VMI_SRC (bsrc);

  if (self->conn) {
    shutdown (self->conn->fd, SHUT_RDWR);
    g_clear_pointer (&self->conn, vmi_conn_unref);
  }
  g_clear_pointer (&self->maps, g_hash_table_destroy);
  gst_clear_caps (&self->caps);
  self->have_hello = FALSE;
  self->have_info = FALSE;
  g_clear_pointer (&self->poll, gst_poll_free);
  gst_poll_fd_init (&self->pollfd);
  return TRUE;
}

static gboolean
gst_vmi_src_unlock (GstBaseSrc * bsrc)
{
  GstVmiSrc *self = GST_VMI_SRC (bsrc);

  g_atomic_int_set (&self->flushing, TRUE);
  if (self->poll)
    gst_poll_set_flushing (self->poll, TRUE);
  return TRUE;
}

static gboolean
gst_vmi_src_unlock_stop (GstBaseSrc * bsrc)
{
  GstVmiSrc *self = GST_VMI_SRC (bsrc);

  g_atomic_int_set (&self->flushing, FALSE);
  if (self->poll)
    gst_poll_set_flushing (self->poll, FALSE);
  return TRUE;
}

static gboolean
gst_vmi_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstVmiSrc *self = GST_VMI_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime min = 0;
    gboolean live;

    GST_OBJECT_LOCK (self);
    live = self->is_live;
    GST_OBJECT_UNLOCK (self);
    /* a frame is complete when it arrives: one frame of latency at most */
    if (self->have_info && self->info.fps_n > 0)
      min = gst_util_uint64_scale_int (GST_SECOND, self->info.fps_d,
          self->info.fps_n);
    gst_query_set_latency (query, live, min, GST_CLOCK_TIME_NONE);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

static void
gst_vmi_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVmiSrc *self = GST_VMI_SRC (object);

  switch (prop_id) {
    case PROP_SOCKET_PATH:
      GST_OBJECT_LOCK (self);
      g_free (self->socket_path);
      self->socket_path = g_value_dup_string (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_IS_LIVE:
      GST_OBJECT_LOCK (self);
      self->is_live = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      gst_base_src_set_live (GST_BASE_SRC (self), g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_vmi_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstVmiSrc *self = GST_VMI_SRC (object);

  switch (prop_id) {
    case PROP_SOCKET_PATH:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->socket_path);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_IS_LIVE:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->is_live);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_structure_new ("vmisrc-stats",
              "frames", G_TYPE_UINT64, __atomic_load_n (&self->frames,
                  __ATOMIC_RELAXED), "connects", G_TYPE_UINT64,
              __atomic_load_n (&self->connects, __ATOMIC_RELAXED), NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_vmi_src_finalize (GObject * object)
{
  GstVmiSrc *self = GST_VMI_SRC (object);

  g_free (self->socket_path);
  g_free (self->msgbuf);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_vmi_src_class_init (GstVmiSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);

  gobject_class->set_property = gst_vmi_src_set_property;
  gobject_class->get_property = gst_vmi_src_get_property;
  gobject_class->finalize = gst_vmi_src_finalize;

  /**
   * GstVmiSrc:socket-path:
   *
   * Path of the producer's (`vmisink`'s) unix socket.
   */
  g_object_class_install_property (gobject_class, PROP_SOCKET_PATH,
      g_param_spec_string ("socket-path", "Socket path",
          "Unix socket path of the producing vmisink", DEFAULT_PROP_SOCKET_PATH,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstVmiSrc:is-live:
   *
   * Act as a live source: frames are time-stamped in this pipeline's
   * running time (see the element description). Video producers are live,
   * so this is the default; set it to %FALSE to keep the producer's
   * timestamps untouched (e.g. file playback at full speed).
   */
  g_object_class_install_property (gobject_class, PROP_IS_LIVE,
      g_param_spec_boolean ("is-live", "Is live",
          "Act as a live source", DEFAULT_PROP_IS_LIVE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstVmiSrc:stats:
   *
   * A `vmisrc-stats` structure: `frames` received, `connects` (connections
   * made, so reconnects are `connects` - 1).
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Counters of the source",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "vMI zero-copy inter-process source", "Source/Video",
      "Receives frames from a vmisink in another process without copying. "
      "Example: gst-launch-1.0 vmisrc socket-path=/tmp/vmi.sock ! queue ! "
      "videoconvert ! autovideosink",
      "gst-vmi developers");

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_vmi_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_vmi_src_stop);
  bsrc_class->unlock = GST_DEBUG_FUNCPTR (gst_vmi_src_unlock);
  bsrc_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_vmi_src_unlock_stop);
  bsrc_class->query = GST_DEBUG_FUNCPTR (gst_vmi_src_query);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_vmi_src_create);
}

static void
gst_vmi_src_init (GstVmiSrc * self)
{
  self->socket_path = g_strdup (DEFAULT_PROP_SOCKET_PATH);
  self->is_live = DEFAULT_PROP_IS_LIVE;
  self->msgbuf = g_malloc (VMI_PROTO_MAX_MSG);
  gst_poll_fd_init (&self->pollfd);
  gst_base_src_set_live (GST_BASE_SRC (self), DEFAULT_PROP_IS_LIVE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}
