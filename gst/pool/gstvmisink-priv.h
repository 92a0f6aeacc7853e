/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The instance of vmisink, shared by its element glue (gstvmisink.c) and
 * its socket side (gstvmisinkservice.c). Not installed. */

#ifndef __GST_VMI_SINK_PRIV_H__
#define __GST_VMI_SINK_PRIV_H__

#include "pool/gstvmisink.h"
#include "pool/gstvmibufferpool.h"
#include "pool/vmi-protocol.h"
#include "pool/vmi-sink-clients.h"

#include <gst/video/video.h>

G_BEGIN_DECLS

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

/* gstvmisinkservice.c */
gboolean gst_vmi_sink_service_start (GstVmiSink * self, int listen_fd);
void gst_vmi_sink_service_stop (GstVmiSink * self, const gchar * path);
void gst_vmi_sink_service_send_frame (GstVmiSink * self, GstBuffer * out,
    guint max_outstanding, gboolean copied);

/* called with self->lock */
GstMessage *gst_vmi_sink_drop_client_locked (GstVmiSink * self,
    VmiSinkClient * c, const char *reason);
gint gst_vmi_sink_client_send (GstVmiSink * self, VmiSinkClient * c,
    const VmiMsg * m, int fd);
void gst_vmi_sink_forget_unused_locked (GstVmiSink * self);

G_END_DECLS

#endif /* __GST_VMI_SINK_PRIV_H__ */
