/* gst-vmi: vmisink's bookkeeping of its consumers, in plain C
 *
 * Which consumers are connected, which frames each holds (until it sends
 * RELEASE), which shared memories each has been given, and when one has
 * held a frame too long — the state vmisink keeps besides its sockets, in
 * the manner of shmpipe beside shmsink. No GObject and no sockets: a held
 * frame is the caller's reference (vmisink: a GstBuffer), dropped through
 * the callback given at init; fds are only closed. Not thread-safe: the
 * caller serialises (vmisink: its lock).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_SINK_CLIENTS_H__
#define __VMI_SINK_CLIENTS_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 seq;
  gint64 sent;                  /* monotonic µs */
  gpointer frame;               /* the caller's reference */
} VmiSinkHeld;

typedef struct
{
  guint id;                     /* 1, 2, ... in connection order */
  int fd;                       /* closed on removal */
  GHashTable *mems;             /* memory ids whose fd this client has */
  /* frames sent and not released: sized to max-outstanding at connection,
   * so holding and releasing allocate nothing (it grows only if
   * max-outstanding is raised while running) */
  VmiSinkHeld *held;
  guint n_held, held_alloc;
  guint caps_gen;               /* caps generation this client has seen */
  guint64 sent, skipped;
} VmiSinkClient;

typedef struct
{
  GList *clients;               /* VmiSinkClient, in connection order */
  guint next_id;
  guint64 releases;             /* RELEASEs accepted, all clients */
  GDestroyNotify frame_unref;
} VmiSinkClients;

typedef enum
{
  VMI_SINK_CLIENT_KEEP,         /* a valid RELEASE */
  VMI_SINK_CLIENT_HOSTILE,      /* broke the protocol: disconnect it */
} VmiSinkClientVerdict;

void vmi_sink_clients_init (VmiSinkClients * cl, GDestroyNotify frame_unref);
/* removes every client */
void vmi_sink_clients_clear (VmiSinkClients * cl);

/* A new client on @fd (taken over), room for @max_outstanding frames */
VmiSinkClient *vmi_sink_clients_add (VmiSinkClients * cl, int fd,
    guint max_outstanding);
/* Drops every frame @c holds, closes its fd, frees it */
void vmi_sink_clients_remove (VmiSinkClients * cl, VmiSinkClient * c);
guint vmi_sink_clients_count (const VmiSinkClients * cl);

/* @c holds @frame (the caller's reference, given to @c) as frame @seq,
 * sent at @now */
void vmi_sink_client_hold (VmiSinkClient * c, guint64 seq, gint64 now,
    gpointer frame);
/* Drops @c's hold on @seq; FALSE when @c does not hold it */
gboolean vmi_sink_clients_release (VmiSinkClients * cl, VmiSinkClient * c,
    guint64 seq);

/* The earliest send time of a frame still held, G_MAXINT64 if none */
gint64 vmi_sink_clients_oldest_hold (const VmiSinkClients * cl);
/* TRUE when @c has held a frame longer than @timeout_us at @now */
gboolean vmi_sink_client_expired (const VmiSinkClient * c, gint64 now,
    gint64 timeout_us);

gboolean vmi_sink_client_has_memory (const VmiSinkClient * c, guint64 id);
void vmi_sink_client_add_memory (VmiSinkClient * c, guint64 id);
/* TRUE when @c had memory @id (and now has not) */
gboolean vmi_sink_client_forget_memory (VmiSinkClient * c, guint64 id);

/* One message @c sent (@len bytes, with @fd or -1; @fd is closed): a
 * RELEASE of a frame it holds is applied (KEEP); anything else is HOSTILE
 * with @reason set. */
VmiSinkClientVerdict vmi_sink_clients_handle_message (VmiSinkClients * cl,
    VmiSinkClient * c, const guint8 * msg, gsize len, int fd,
    const char **reason);

G_END_DECLS

#endif /* __VMI_SINK_CLIENTS_H__ */
