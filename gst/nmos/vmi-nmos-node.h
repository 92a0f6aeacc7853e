/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The process's NMOS node (libsoup 3 + json-glib, no GStreamer): the
 * IS-04 v1.3 Node API and the IS-05 v1.1 Connection API on one HTTP port,
 * served from a thread with a GMainContext of its own, and registration
 * with an IS-04 Registration API (heartbeats, re-registration, fail-over,
 * deregistration) from a second thread.
 *
 * One node per process, refcounted: the first vmi_nmos_node_acquire()
 * starts it, the last vmi_nmos_node_release() deregisters everything and
 * stops it. Each element adds its resources as one VmiNmosHandle. */

#ifndef __VMI_NMOS_NODE_H__
#define __VMI_NMOS_NODE_H__

#include <glib.h>

#include "vmi-nmos.h"

G_BEGIN_DECLS

typedef struct _VmiNmosNode VmiNmosNode;
typedef struct _VmiNmosHandle VmiNmosHandle;

typedef struct
{
  /* Registration API base URLs ("http://host:port"), comma-separated in
   * priority order; NULL or "" = discover _nmos-register._tcp by DNS-SD
   * (multicast DNS, vmi-nmos-discovery.h). */
  const gchar *registry;
  /* Node + Connection API port; 0 = ephemeral */
  guint port;
} VmiNmosNodeConfig;

/* Takes a reference on the process's node, starting it with @config if it
 * is not running. @warning (may be NULL) is set when a running node's
 * settings differ from @config (they stay in force). NULL with @error when
 * the HTTP port cannot be bound. */
VmiNmosNode *vmi_nmos_node_acquire (const VmiNmosNodeConfig * config,
    gchar ** warning, GError ** error);
/* Drops a reference; the last one deregisters the node (waiting a few
 * seconds at most for the registry) and stops it. */
void vmi_nmos_node_release (VmiNmosNode * node);
/* The port the HTTP server listens on. */
guint vmi_nmos_node_get_port (VmiNmosNode * node);
const gchar *vmi_nmos_node_get_id (VmiNmosNode * node);

/* Applies an activation (on the node's HTTP thread). @active: the state
 * becoming active (auto resolved). FALSE with @error when it cannot be
 * done: the old state stays active. */
typedef gboolean (*VmiNmosActivateFunc) (gpointer user_data,
    const VmiNmosState * active, guint n_legs, GError ** error);

/* Where registration stands, told to every handle when it changes */
typedef enum
{
  VMI_NMOS_REG_NONE,            /* not yet known */
  VMI_NMOS_REG_REGISTERED,      /* at @registry */
  /* DNS-SD found no usable registry, or every one found failed: browsing
   * again */
  VMI_NMOS_REG_SEARCHING,
  /* every registry of the configured list failed: trying them again */
  VMI_NMOS_REG_UNREACHABLE,
} VmiNmosRegState;

/* Called on the registration thread with the node's lock held: it must
 * not call into the node (posting a bus message is fine). */
typedef void (*VmiNmosStatusFunc) (gpointer user_data, VmiNmosRegState state,
    const gchar * registry, const gchar * detail);

typedef struct
{
  /* identity the UUIDs derive from (the element's path in its pipeline) */
  const gchar *identity;
  const gchar *label;
  /* sender: its SDP (manifest), multicast destination, grain rate (0/0:
   * not known yet) */
  const gchar *sdp;
  gboolean multicast;
  gint rate_n, rate_d;
  /* the interface the stream uses, as the node's interfaces name it; NULL:
   * the node's first */
  const gchar *interface;
  /* IS-05 state: initialised (vmi_nmos_endpoint_init), constraints and
   * auto values set; copied */
  const VmiNmosEndpoint *endpoint;
  VmiNmosActivateFunc activate;
  /* may be NULL; also called at once from vmi_nmos_node_add() when the
   * state is known */
  VmiNmosStatusFunc status;
  gpointer user_data;
} VmiNmosResourceInfo;

/* Adds a sender (source + flow + sender) or receiver (@info->endpoint's
 * role) and registers it. */
VmiNmosHandle *vmi_nmos_node_add (VmiNmosNode * node,
    const VmiNmosResourceInfo * info);
/* Removes and deregisters them; no activation runs for @h after this
 * returns. */
void vmi_nmos_node_remove (VmiNmosNode * node, VmiNmosHandle * h);
/* A sender's grain rate became known (caps). */
void vmi_nmos_node_set_grain_rate (VmiNmosNode * node, VmiNmosHandle * h,
    gint rate_n, gint rate_d);
/* The sender's or receiver's id. */
const gchar *vmi_nmos_handle_get_id (VmiNmosHandle * h);

G_END_DECLS

#endif /* __VMI_NMOS_NODE_H__ */
