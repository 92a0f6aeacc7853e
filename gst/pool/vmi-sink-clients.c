/* gst-vmi: vmisink's bookkeeping of its consumers (see vmi-sink-clients.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-sink-clients.h"
#include "vmi-protocol.h"

#include <unistd.h>

void
vmi_sink_clients_init (VmiSinkClients * cl, GDestroyNotify frame_unref)
{
  cl->clients = NULL;
  cl->next_id = 0;
  cl->releases = 0;
  cl->frame_unref = frame_unref;
}

void
vmi_sink_clients_clear (VmiSinkClients * cl)
{
  while (cl->clients)
    vmi_sink_clients_remove (cl, cl->clients->data);
}

VmiSinkClient *
vmi_sink_clients_add (VmiSinkClients * cl, int fd, guint max_outstanding)
{
  VmiSinkClient *c = g_new0 (VmiSinkClient, 1);

  c->id = ++cl->next_id;
  c->fd = fd;
  c->mems = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  c->held_alloc = MAX (max_outstanding, 1);
  c->held = g_new (VmiSinkHeld, c->held_alloc);
  cl->clients = g_list_append (cl->clients, c);
  return c;
}

void
vmi_sink_clients_remove (VmiSinkClients * cl, VmiSinkClient * c)
{
  cl->clients = g_list_remove (cl->clients, c);
  while (c->n_held > 0)
    cl->frame_unref (c->held[--c->n_held].frame);
  g_free (c->held);
  g_hash_table_destroy (c->mems);
  if (c->fd >= 0)
    close (c->fd);
  g_free (c);
}

guint
vmi_sink_clients_count (const VmiSinkClients * cl)
{
  return g_list_length (cl->clients);
}

void
vmi_sink_client_hold (VmiSinkClient * c, guint64 seq, gint64 now,
    gpointer frame)
{
  if (c->n_held == c->held_alloc) {
    /* only when max-outstanding was raised while running */
    c->held_alloc = MAX (2 * c->held_alloc, 8);
    c->held = g_renew (VmiSinkHeld, c->held, c->held_alloc);
  }
  c->held[c->n_held].seq = seq;
  c->held[c->n_held].sent = now;
  c->held[c->n_held].frame = frame;
  c->n_held++;
}

gboolean
vmi_sink_clients_release (VmiSinkClients * cl, VmiSinkClient * c,
    guint64 seq)
{
  guint i;

  for (i = 0; i < c->n_held; i++) {
    if (c->held[i].seq == seq) {
      cl->frame_unref (c->held[i].frame);
      c->held[i] = c->held[--c->n_held];
      return TRUE;
    }
  }
  return FALSE;
}

gint64
vmi_sink_clients_oldest_hold (const VmiSinkClients * cl)
{
  gint64 oldest = G_MAXINT64;
  const GList *l;
  guint i;

  for (l = cl->clients; l; l = l->next) {
    const VmiSinkClient *c = l->data;

    for (i = 0; i < c->n_held; i++)
      oldest = MIN (oldest, c->held[i].sent);
  }
  return oldest;
}

gboolean
vmi_sink_client_expired (const VmiSinkClient * c, gint64 now,
    gint64 timeout_us)
{
  guint i;

  for (i = 0; i < c->n_held; i++)
    if (now - c->held[i].sent > timeout_us)
      return TRUE;
  return FALSE;
}

gboolean
vmi_sink_client_has_memory (const VmiSinkClient * c, guint64 id)
{
  return g_hash_table_contains (c->mems, &id);
}

void
vmi_sink_client_add_memory (VmiSinkClient * c, guint64 id)
{
  g_hash_table_add (c->mems, g_memdup2 (&id, sizeof (id)));
}

gboolean
vmi_sink_client_forget_memory (VmiSinkClient * c, guint64 id)
{
  return g_hash_table_remove (c->mems, &id);
}

VmiSinkClientVerdict
vmi_sink_clients_handle_message (VmiSinkClients * cl, VmiSinkClient * c,
    const guint8 * msg, gsize len, int fd, const char **reason)
{
  VmiMsg m;

  if (fd >= 0) {
    close (fd);
    *reason = "consumer sent a file descriptor";
    return VMI_SINK_CLIENT_HOSTILE;
  }
  if (!vmi_msg_parse (msg, len, &m, reason))
    return VMI_SINK_CLIENT_HOSTILE;
  if (m.type != VMI_MSG_RELEASE) {
    *reason = "consumer sent a message other than RELEASE";
    return VMI_SINK_CLIENT_HOSTILE;
  }
  if (!vmi_sink_clients_release (cl, c, m.u.release.seq)) {
    *reason = "consumer released a frame it does not hold";
    return VMI_SINK_CLIENT_HOSTILE;
  }
  cl->releases++;
  return VMI_SINK_CLIENT_KEEP;
}
