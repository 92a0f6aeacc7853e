/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * An IS-04 v1.3 Registration API for the tests (libsoup server on its own
 * thread): it records what nodes register, answers heartbeats (404 for a
 * node it does not hold), and can "restart" (forget everything).
 */

#ifndef __NMOS_REGISTRY_H__
#define __NMOS_REGISTRY_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct _NmosRegistry NmosRegistry;

/* Listens on 127.0.0.1:@port (0: ephemeral) or all IPv4 addresses when
 * @any. */
NmosRegistry *nmos_registry_new (guint port, gboolean any);
void nmos_registry_free (NmosRegistry * r);
guint nmos_registry_port (NmosRegistry * r);
/* "http://127.0.0.1:<port>" */
gchar *nmos_registry_url (NmosRegistry * r);

/* The registered resource's JSON data (as the node sent it), or NULL. */
gchar *nmos_registry_get (NmosRegistry * r, const gchar * id);
/* Ids of the registered resources of @type ("node", "sender", ...). */
GPtrArray *nmos_registry_ids (NmosRegistry * r, const gchar * type);
guint nmos_registry_count (NmosRegistry * r);
guint nmos_registry_heartbeats (NmosRegistry * r);
guint nmos_registry_node_posts (NmosRegistry * r);
/* Forgets every resource (a registry restart without persistence): the
 * next heartbeat gets 404. */
void nmos_registry_restart (NmosRegistry * r);
/* Waits (on the registry's own signal, at most @timeout_s) until @type has
 * @n resources registered; FALSE on timeout. */
gboolean nmos_registry_wait_count (NmosRegistry * r, const gchar * type,
    guint n, guint timeout_s);
/* Waits until at least @n node registrations have been received. */
gboolean nmos_registry_wait_node_posts (NmosRegistry * r, guint n,
    guint timeout_s);

G_END_DECLS

#endif /* __NMOS_REGISTRY_H__ */
