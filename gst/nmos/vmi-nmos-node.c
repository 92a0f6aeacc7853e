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

#define G_LOG_DOMAIN "vmi-nmos"

#include "vmi-nmos-node.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "st2022-sdp.h"
#include "vmi-nmos-discovery.h"

#define IS04_VERSION "v1.3"
#define IS05_VERSION "v1.1"
#define FORMAT_MUX "urn:x-nmos:format:mux"
#define MEDIA_TYPE "video/SMPTE2022-6"
#define TRANSPORT_RTP "urn:x-nmos:transport:rtp"
/* IS-04: heartbeats every 5 s (registries forget a node after 12) */
#define HEARTBEAT_US (5 * G_USEC_PER_SEC)
/* a registry that failed is tried again (or the next one) after this */
#define RETRY_US (1 * G_USEC_PER_SEC)
/* each registration request; the last deregistration waits at most this
 * long per request */
#define HTTP_TIMEOUT_S 2
/* DNS-SD: a registry that failed goes to the back of what the next browse
 * finds for this long (IS-04: clients MAY mark failed advertisements
 * invalid for a while); browsing again after nothing usable was found
 * waits 1 s, doubling up to this */
#define FAILED_HOLD_US (30 * G_USEC_PER_SEC)
#define BROWSE_BACKOFF_MAX_S 30
/* set to 1: registries advertised with pri 100 and above (IS-04 reserves
 * them for development) are used too */
#define ENV_DNSSD_DEVELOPMENT "VMI_NMOS_DNSSD_DEVELOPMENT"

typedef enum
{
  RES_NODE,
  RES_DEVICE,
  RES_SOURCE,
  RES_FLOW,
  RES_SENDER,
  RES_RECEIVER,
  N_RES_TYPES,
} ResType;

/* IS-04 type names: registration "type" and the Node API path */
static const gchar *res_type_names[N_RES_TYPES] =
    { "node", "device", "source", "flow", "sender", "receiver" };
static const gchar *res_paths[N_RES_TYPES] =
    { "nodes", "devices", "sources", "flows", "senders", "receivers" };

typedef struct
{
  ResType type;
  gchar id[VMI_NMOS_UUID_LEN];
  VmiNmosTime version;
  /* the version the current registry holds; registered = FALSE: none */
  gboolean registered;
  VmiNmosTime reg_version;
} Resource;

struct _VmiNmosHandle
{
  VmiNmosRole role;
  gchar *label;
  gchar *sdp;
  gchar *interface;
  gboolean multicast;
  gint rate_n, rate_d;
  Resource source, flow, sender;        /* sender */
  Resource receiver;            /* receiver */
  VmiNmosEndpoint ep;
  VmiNmosActivateFunc activate;
  VmiNmosStatusFunc status;
  gpointer user_data;
  GSource *timer;               /* a scheduled activation */
};

typedef struct
{
  gchar *name;
  gchar mac[18];                /* "aa-bb-cc-dd-ee-ff" */
} NodeInterface;

struct _VmiNmosNode
{
  gint refs;                    /* under nodes_lock */
  VmiNmosNodeConfig config;     /* strings owned */
  gchar *registry;

  GMutex lock;
  GCond cond;
  gchar host[INET_ADDRSTRLEN];
  gchar *hostname;
  guint port;
  Resource node, device;
  GPtrArray *handles;           /* VmiNmosHandle */
  GArray *interfaces;           /* NodeInterface */
  GPtrArray *ipv4;              /* the host's IPv4 addresses (gchar *) */
  GQueue deletes;               /* Resource * waiting for deregistration */
  gboolean dirty;               /* something to (re)register */
  gboolean stopping;

  GMainContext *ctx;
  GMainLoop *loop;
  SoupServer *server;
  GThread *http_thread;
  GThread *reg_thread;
  gchar **registries;           /* configured; empty: DNS-SD or none */
  gboolean discover;
  /* registration thread: the stale node a registry held was deleted
   * (once per registry) */
  gboolean stale_deleted;
  VmiNmosRegState reg_state;
  gchar *reg_url, *reg_detail;
};

static GMutex nodes_lock;
static VmiNmosNode *the_node;

/* --- small helpers ------------------------------------------------------ */

static void
resource_init (Resource * r, ResType type, const gchar * name)
{
  memset (r, 0, sizeof (*r));
  r->type = type;
  vmi_nmos_uuid_from_name (name, r->id);
  r->version = vmi_nmos_next_version (r->version);
}

static void
resource_bump (VmiNmosNode * node, Resource * r)
{
  r->version = vmi_nmos_next_version (r->version);
  node->dirty = TRUE;
  g_cond_broadcast (&node->cond);
}

static void
add_version (JsonBuilder * b, const Resource * r)
{
  gchar v[VMI_NMOS_TIME_LEN];

  vmi_nmos_time_format (r->version, v);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, r->id);
  json_builder_set_member_name (b, "version");
  json_builder_add_string_value (b, v);
}

static void
add_common (JsonBuilder * b, const Resource * r, const gchar * label,
    const gchar * description)
{
  add_version (b, r);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, label);
  json_builder_set_member_name (b, "description");
  json_builder_add_string_value (b, description);
  json_builder_set_member_name (b, "tags");
  json_builder_begin_object (b);
  json_builder_end_object (b);
}

static void
add_string_or_null (JsonBuilder * b, const gchar * name, const gchar * s)
{
  json_builder_set_member_name (b, name);
  if (s && *s)
    json_builder_add_string_value (b, s);
  else
    json_builder_add_null_value (b);
}

static gchar *
builder_to_string (JsonBuilder * b)
{
  JsonNode *root = json_builder_get_root (b);
  gchar *s = json_to_string (root, FALSE);

  json_node_unref (root);
  g_object_unref (b);
  return s;
}

static gchar *
base_href (VmiNmosNode * node)
{
  return g_strdup_printf ("http://%s:%u/", node->host, node->port);
}

/* --- resources as JSON (node lock held) --------------------------------- */

static void
build_node (VmiNmosNode * node, JsonBuilder * b)
{
  gchar *href = base_href (node);
  guint i;

  json_builder_begin_object (b);
  add_common (b, &node->node, node->hostname, "gst-vmi ST 2022-6 node");
  json_builder_set_member_name (b, "href");
  json_builder_add_string_value (b, href);
  json_builder_set_member_name (b, "hostname");
  json_builder_add_string_value (b, node->hostname);
  json_builder_set_member_name (b, "api");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "versions");
  json_builder_begin_array (b);
  json_builder_add_string_value (b, IS04_VERSION);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "endpoints");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "host");
  json_builder_add_string_value (b, node->host);
  json_builder_set_member_name (b, "port");
  json_builder_add_int_value (b, node->port);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_string_value (b, "http");
  json_builder_set_member_name (b, "authorization");
  json_builder_add_boolean_value (b, FALSE);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "caps");
  json_builder_begin_object (b);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "services");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "clocks");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, "clk0");
  json_builder_set_member_name (b, "ref_type");
  json_builder_add_string_value (b, "internal");
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "interfaces");
  json_builder_begin_array (b);
  for (i = 0; i < node->interfaces->len; i++) {
    NodeInterface *ni = &g_array_index (node->interfaces, NodeInterface, i);

    json_builder_begin_object (b);
    json_builder_set_member_name (b, "name");
    json_builder_add_string_value (b, ni->name);
    json_builder_set_member_name (b, "chassis_id");
    json_builder_add_string_value (b, ni->mac);
    json_builder_set_member_name (b, "port_id");
    json_builder_add_string_value (b, ni->mac);
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_free (href);
}

static void
build_device (VmiNmosNode * node, JsonBuilder * b)
{
  gchar *href = base_href (node), *ctrl;
  guint i;

  ctrl = g_strdup_printf ("%sx-nmos/connection/" IS05_VERSION "/", href);
  json_builder_begin_object (b);
  add_common (b, &node->device, node->hostname, "gst-vmi elements");
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "urn:x-nmos:device:generic");
  json_builder_set_member_name (b, "node_id");
  json_builder_add_string_value (b, node->node.id);
  json_builder_set_member_name (b, "senders");
  json_builder_begin_array (b);
  for (i = 0; i < node->handles->len; i++) {
    VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
    if (h->role == VMI_NMOS_SENDER)
      json_builder_add_string_value (b, h->sender.id);
  }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "receivers");
  json_builder_begin_array (b);
  for (i = 0; i < node->handles->len; i++) {
    VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
    if (h->role == VMI_NMOS_RECEIVER)
      json_builder_add_string_value (b, h->receiver.id);
  }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "controls");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "href");
  json_builder_add_string_value (b, ctrl);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "urn:x-nmos:control:sr-ctrl/" IS05_VERSION);
  json_builder_set_member_name (b, "authorization");
  json_builder_add_boolean_value (b, FALSE);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_free (ctrl);
  g_free (href);
}

static void
add_grain_rate (JsonBuilder * b, VmiNmosHandle * h)
{
  if (h->rate_n <= 0 || h->rate_d <= 0)
    return;
  json_builder_set_member_name (b, "grain_rate");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "numerator");
  json_builder_add_int_value (b, h->rate_n);
  json_builder_set_member_name (b, "denominator");
  json_builder_add_int_value (b, h->rate_d);
  json_builder_end_object (b);
}

static void
add_interface_bindings (VmiNmosNode * node, JsonBuilder * b,
    VmiNmosHandle * h)
{
  json_builder_set_member_name (b, "interface_bindings");
  json_builder_begin_array (b);
  if (h->interface)
    json_builder_add_string_value (b, h->interface);
  else if (node->interfaces->len > 0)
    json_builder_add_string_value (b, g_array_index (node->interfaces,
            NodeInterface, 0).name);
  json_builder_end_array (b);
}

static gchar *
sender_manifest_href (VmiNmosNode * node, VmiNmosHandle * h)
{
  return g_strdup_printf ("http://%s:%u/x-nmos/connection/" IS05_VERSION
      "/single/senders/%s/transportfile", node->host, node->port, h->sender.id);
}

static void
build_resource (VmiNmosNode * node, VmiNmosHandle * h, ResType type,
    JsonBuilder * b)
{
  const VmiNmosState *active = &h->ep.active;
  gchar *manifest;

  json_builder_begin_object (b);
  switch (type) {
    case RES_SOURCE:
      add_common (b, &h->source, h->label, "ST 2022-6 source");
      json_builder_set_member_name (b, "caps");
      json_builder_begin_object (b);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "device_id");
      json_builder_add_string_value (b, node->device.id);
      json_builder_set_member_name (b, "parents");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "clock_name");
      json_builder_add_string_value (b, "clk0");
      json_builder_set_member_name (b, "format");
      json_builder_add_string_value (b, FORMAT_MUX);
      add_grain_rate (b, h);
      break;
    case RES_FLOW:
      add_common (b, &h->flow, h->label, "ST 2022-6 flow");
      json_builder_set_member_name (b, "source_id");
      json_builder_add_string_value (b, h->source.id);
      json_builder_set_member_name (b, "device_id");
      json_builder_add_string_value (b, node->device.id);
      json_builder_set_member_name (b, "parents");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "format");
      json_builder_add_string_value (b, FORMAT_MUX);
      json_builder_set_member_name (b, "media_type");
      json_builder_add_string_value (b, MEDIA_TYPE);
      add_grain_rate (b, h);
      break;
    case RES_SENDER:
      add_common (b, &h->sender, h->label, "ST 2022-6 sender");
      json_builder_set_member_name (b, "flow_id");
      json_builder_add_string_value (b, h->flow.id);
      json_builder_set_member_name (b, "transport");
      json_builder_add_string_value (b, h->multicast ?
          TRANSPORT_RTP ".mcast" : TRANSPORT_RTP ".ucast");
      json_builder_set_member_name (b, "device_id");
      json_builder_add_string_value (b, node->device.id);
      manifest = sender_manifest_href (node, h);
      json_builder_set_member_name (b, "manifest_href");
      json_builder_add_string_value (b, manifest);
      g_free (manifest);
      add_interface_bindings (node, b, h);
      json_builder_set_member_name (b, "subscription");
      json_builder_begin_object (b);
      add_string_or_null (b, "receiver_id", active->peer_id);
      json_builder_set_member_name (b, "active");
      json_builder_add_boolean_value (b, active->master_enable);
      json_builder_end_object (b);
      break;
    case RES_RECEIVER:
      add_common (b, &h->receiver, h->label, "ST 2022-6 receiver");
      json_builder_set_member_name (b, "format");
      json_builder_add_string_value (b, FORMAT_MUX);
      json_builder_set_member_name (b, "caps");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "media_types");
      json_builder_begin_array (b);
      json_builder_add_string_value (b, MEDIA_TYPE);
      json_builder_end_array (b);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "device_id");
      json_builder_add_string_value (b, node->device.id);
      json_builder_set_member_name (b, "transport");
      json_builder_add_string_value (b, TRANSPORT_RTP);
      add_interface_bindings (node, b, h);
      json_builder_set_member_name (b, "subscription");
      json_builder_begin_object (b);
      add_string_or_null (b, "sender_id", active->peer_id);
      json_builder_set_member_name (b, "active");
      json_builder_add_boolean_value (b, active->master_enable);
      json_builder_end_object (b);
      break;
    default:
      g_assert_not_reached ();
  }
  json_builder_end_object (b);
}

/* The JSON of resource @r (a node, device or a handle's), node lock held */
static gchar *
resource_json (VmiNmosNode * node, VmiNmosHandle * h, const Resource * r)
{
  JsonBuilder *b = json_builder_new ();

  if (r->type == RES_NODE)
    build_node (node, b);
  else if (r->type == RES_DEVICE)
    build_device (node, b);
  else
    build_resource (node, h, r->type, b);
  return builder_to_string (b);
}

/* --- IS-05 state as JSON ------------------------------------------------ */

static void
add_value (JsonBuilder * b, const VmiNmosValue * v)
{
  switch (v->type) {
    case VMI_NMOS_V_STRING:
      json_builder_add_string_value (b, v->s);
      break;
    case VMI_NMOS_V_AUTO:
      json_builder_add_string_value (b, "auto");
      break;
    case VMI_NMOS_V_INT:
      json_builder_add_int_value (b, v->i);
      break;
    case VMI_NMOS_V_BOOL:
      json_builder_add_boolean_value (b, v->b);
      break;
    default:
      json_builder_add_null_value (b);
      break;
  }
}

static const gchar *
activation_mode_name (VmiNmosActivationMode m)
{
  switch (m) {
    case VMI_NMOS_ACTIVATE_IMMEDIATE:
      return "activate_immediate";
    case VMI_NMOS_ACTIVATE_ABSOLUTE:
      return "activate_scheduled_absolute";
    case VMI_NMOS_ACTIVATE_RELATIVE:
      return "activate_scheduled_relative";
    default:
      return NULL;
  }
}

static void
add_time_or_null (JsonBuilder * b, const gchar * name, gboolean has,
    VmiNmosTime t)
{
  gchar s[VMI_NMOS_TIME_LEN];

  json_builder_set_member_name (b, name);
  if (has) {
    vmi_nmos_time_format (t, s);
    json_builder_add_string_value (b, s);
  } else {
    json_builder_add_null_value (b);
  }
}

static gchar *
state_json (const VmiNmosEndpoint * ep, const VmiNmosState * st)
{
  JsonBuilder *b = json_builder_new ();
  const VmiNmosActivation *a = &st->activation;
  guint l, p;

  json_builder_begin_object (b);
  add_string_or_null (b, ep->role == VMI_NMOS_SENDER ? "receiver_id" :
      "sender_id", st->peer_id);
  json_builder_set_member_name (b, "master_enable");
  json_builder_add_boolean_value (b, st->master_enable);
  json_builder_set_member_name (b, "activation");
  json_builder_begin_object (b);
  add_string_or_null (b, "mode", activation_mode_name (a->mode));
  add_time_or_null (b, "requested_time", a->has_requested, a->requested);
  add_time_or_null (b, "activation_time", a->has_activation, a->activation);
  json_builder_end_object (b);
  if (ep->role == VMI_NMOS_RECEIVER) {
    json_builder_set_member_name (b, "transport_file");
    json_builder_begin_object (b);
    add_string_or_null (b, "data", st->transport_file);
    add_string_or_null (b, "type", st->transport_file ? "application/sdp" :
        NULL);
    json_builder_end_object (b);
  }
  json_builder_set_member_name (b, "transport_params");
  json_builder_begin_array (b);
  for (l = 0; l < ep->n_legs; l++) {
    json_builder_begin_object (b);
    for (p = 0; p < VMI_NMOS_N_PARAMS; p++) {
      if (!vmi_nmos_param_of_role (ep->role, p))
        continue;
      json_builder_set_member_name (b, vmi_nmos_param_name (p));
      add_value (b, &st->legs[l].v[p]);
    }
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return builder_to_string (b);
}

static gchar *
constraints_json (const VmiNmosEndpoint * ep)
{
  JsonBuilder *b = json_builder_new ();
  guint l, p, i;

  json_builder_begin_array (b);
  for (l = 0; l < ep->n_legs; l++) {
    json_builder_begin_object (b);
    for (p = 0; p < VMI_NMOS_N_PARAMS; p++) {
      const VmiNmosConstraint *c = &ep->constraints[l][p];

      if (!vmi_nmos_param_of_role (ep->role, p))
        continue;
      json_builder_set_member_name (b, vmi_nmos_param_name (p));
      json_builder_begin_object (b);
      if (c->n_enum > 0) {
        json_builder_set_member_name (b, "enum");
        json_builder_begin_array (b);
        for (i = 0; i < c->n_enum; i++)
          add_value (b, &c->enum_values[i]);
        json_builder_end_array (b);
      }
      if (c->has_min) {
        json_builder_set_member_name (b, "minimum");
        json_builder_add_int_value (b, c->min);
      }
      if (c->has_max) {
        json_builder_set_member_name (b, "maximum");
        json_builder_add_int_value (b, c->max);
      }
      json_builder_end_object (b);
    }
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  return builder_to_string (b);
}

/* --- requests to the registry (registration thread) -------------------- */

/* HTTP status, or 0 when the registry could not be reached */
static guint
registry_request (SoupSession * session, const gchar * method,
    const gchar * url, const gchar * body)
{
  SoupMessage *msg = soup_message_new (method, url);
  GError *err = NULL;
  GBytes *resp;
  guint status;

  if (msg == NULL) {
    g_message ("nmos: bad registry URL %s", url);
    return 0;
  }
  if (body) {
    GBytes *bytes = g_bytes_new (body, strlen (body));
    soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    g_bytes_unref (bytes);
  }
  resp = soup_session_send_and_read (session, msg, NULL, &err);
  status = err ? 0 : soup_message_get_status (msg);
  if (err) {
    g_debug ("nmos: %s %s: %s", method, url, err->message);
    g_error_free (err);
  }
  if (resp)
    g_bytes_unref (resp);
  g_object_unref (msg);
  return status;
}

static void
mark_unregistered (VmiNmosNode * node)
{
  guint i;

  node->node.registered = FALSE;
  node->device.registered = FALSE;
  for (i = 0; i < node->handles->len; i++) {
    VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
    h->source.registered = h->flow.registered = FALSE;
    h->sender.registered = h->receiver.registered = FALSE;
  }
  node->dirty = TRUE;
}

/* A registry we fail over to answered our heartbeat: it shares the
 * registrations of the one before (a cluster), which hold what was
 * registered there */
static void
restore_registered (VmiNmosNode * node)
{
  Resource *rs[3];
  guint i, k;

#define KNOWN(r) ((r)->reg_version.sec != 0 || (r)->reg_version.nsec != 0)
  node->node.registered = KNOWN (&node->node);
  node->device.registered = KNOWN (&node->device);
  for (i = 0; i < node->handles->len; i++) {
    VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
    rs[0] = &h->source;
    rs[1] = &h->flow;
    rs[2] = h->role == VMI_NMOS_SENDER ? &h->sender : &h->receiver;
    for (k = 0; k < 3; k++)
      rs[k]->registered = KNOWN (rs[k]);
  }
#undef KNOWN
  node->dirty = TRUE;
}

/* The resources whose registered version is not current, parents first
 * (node, device, sources, flows, senders, receivers). */
static GPtrArray *
collect_unregistered (VmiNmosNode * node, GPtrArray * owners)
{
  GPtrArray *out = g_ptr_array_new ();
  guint t, i;

  for (t = RES_NODE; t < N_RES_TYPES; t++) {
    if (t == RES_NODE || t == RES_DEVICE) {
      Resource *r = t == RES_NODE ? &node->node : &node->device;
      if (!r->registered || vmi_nmos_time_compare (r->reg_version,
              r->version) != 0) {
        g_ptr_array_add (out, r);
        g_ptr_array_add (owners, NULL);
      }
      continue;
    }
    for (i = 0; i < node->handles->len; i++) {
      VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
      Resource *r = NULL;

      if (h->role == VMI_NMOS_SENDER && t == RES_SOURCE)
        r = &h->source;
      else if (h->role == VMI_NMOS_SENDER && t == RES_FLOW)
        r = &h->flow;
      else if (h->role == VMI_NMOS_SENDER && t == RES_SENDER)
        r = &h->sender;
      else if (h->role == VMI_NMOS_RECEIVER && t == RES_RECEIVER)
        r = &h->receiver;
      if (r && (!r->registered || vmi_nmos_time_compare (r->reg_version,
                  r->version) != 0)) {
        g_ptr_array_add (out, r);
        g_ptr_array_add (owners, h);
      }
    }
  }
  return out;
}

/* Registers what is not registered; FALSE when the registry failed.
 * Called and returns with the node lock held (dropped for each request). */
static gboolean
register_pending (VmiNmosNode * node, SoupSession * session,
    const gchar * base)
{
  gchar *url = g_strdup_printf ("%s/x-nmos/registration/" IS04_VERSION
      "/resource", base);
  gboolean ok = TRUE;

  /* Deletes go first: an element that restarts (a bin taking it down to
   * READY and up again) queues the DELETE of ids that its new handle
   * registers again, and a DELETE sent after that POST would remove the
   * new registration for good. */
  while (node->dirty && ok && !node->stopping
      && g_queue_is_empty (&node->deletes)) {
    GPtrArray *owners = g_ptr_array_new ();
    GPtrArray *todo;
    guint i;

    node->dirty = FALSE;
    todo = collect_unregistered (node, owners);
    for (i = 0; i < todo->len && ok; i++) {
      Resource *r = g_ptr_array_index (todo, i);
      VmiNmosHandle *h = g_ptr_array_index (owners, i);
      VmiNmosTime version = r->version;
      gchar *data = resource_json (node, h, r);
      gchar *body = g_strdup_printf ("{\"type\":\"%s\",\"data\":%s}",
          res_type_names[r->type], data);
      guint status;

      g_free (data);
      g_mutex_unlock (&node->lock);
      status = registry_request (session, "POST", url, body);
      g_mutex_lock (&node->lock);
      g_free (body);
      /* the handle may have gone while the lock was dropped: its resources
       * went to the delete queue, and @todo is stale */
      if (node->dirty || !g_queue_is_empty (&node->deletes)) {
        node->dirty = TRUE;
        break;
      }
      if (status == 200 && r->type == RES_NODE && !r->registered
          && !node->stale_deleted) {
        /* IS-04: a 200 to a node's first registration means the registry
         * still holds an old one of ours: delete it, register anew */
        gchar *del = g_strdup_printf ("%s/x-nmos/registration/"
            IS04_VERSION "/resource/nodes/%s", base, r->id);

        node->stale_deleted = TRUE;
        g_info ("nmos: registry %s held this node already: deleting it",
            base);
        g_mutex_unlock (&node->lock);
        status = registry_request (session, "DELETE", del, NULL);
        g_mutex_lock (&node->lock);
        g_free (del);
        mark_unregistered (node);
        if (status == 0 || status >= 500)
          ok = FALSE;
        break;
      }
      if (status == 200 || status == 201) {
        r->registered = TRUE;
        r->reg_version = version;
      } else if (status == 0 || status >= 500) {
        ok = FALSE;
      } else {
        /* 4xx: the registry refuses this resource (a parent it does not
         * hold, a conflict): registering all again fixes the former */
        g_message ("nmos: registry answered %u to %s %s", status,
            res_type_names[r->type], r->id);
        if (status == 400 && r->type != RES_NODE)
          mark_unregistered (node);
        ok = status != 400;
      }
    }
    g_ptr_array_unref (todo);
    g_ptr_array_unref (owners);
  }
  g_free (url);
  return ok;
}

static void
delete_resource (SoupSession * session, const gchar * base,
    ResType type, const gchar * id, gboolean * reachable)
{
  gchar *url;
  guint status;

  if (!*reachable)
    return;
  url = g_strdup_printf ("%s/x-nmos/registration/" IS04_VERSION
      "/resource/%s/%s", base, res_paths[type], id);
  status = registry_request (session, "DELETE", url, NULL);
  if (status == 0)
    *reachable = FALSE;
  g_free (url);
}

/* Tells every handle where registration stands, when that changes */
static void
set_status (VmiNmosNode * node, VmiNmosRegState state, const gchar * url,
    const gchar * detail)
{
  guint i;

  if (node->reg_state == state && g_strcmp0 (node->reg_url, url) == 0)
    return;
  node->reg_state = state;
  g_free (node->reg_url);
  node->reg_url = g_strdup (url);
  g_free (node->reg_detail);
  node->reg_detail = g_strdup (detail);
  if (state == VMI_NMOS_REG_REGISTERED)
    g_info ("nmos: registered with %s", url);
  else
    g_message ("nmos: %s", detail);
  for (i = 0; i < node->handles->len; i++) {
    VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
    if (h->status)
      h->status (h->user_data, state, url, detail);
  }
}

/* A DNS-SD browse (the lock dropped): @list gets what it found, those that
 * failed in the last FAILED_HOLD_US last. */
static guint
browse_registries (VmiNmosNode * node, GPtrArray * list, GHashTable * failed)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  gboolean dev = g_strcmp0 (g_getenv (ENV_DNSSD_DEVELOPMENT), "1") == 0;
  gint64 now;
  guint seen, i, pass;

  g_mutex_unlock (&node->lock);
  seen = vmi_nmos_discover_registries (found, dev, &node->stopping);
  g_mutex_lock (&node->lock);
  now = g_get_monotonic_time ();
  for (pass = 0; pass < 2; pass++) {
    for (i = 0; i < found->len; i++) {
      const gchar *u = g_ptr_array_index (found, i);
      gpointer t = g_hash_table_lookup (failed, u);
      gboolean held = t && now - *(gint64 *) t < FAILED_HOLD_US;
      if (held == (pass == 1))
        g_ptr_array_add (list, g_strdup (u));
    }
  }
  g_ptr_array_unref (found);
  return seen;
}

/* A heartbeat to @base (the node lock held, dropped for the request) */
static guint
heartbeat (VmiNmosNode * node, SoupSession * session, const gchar * base)
{
  gchar *url = g_strdup_printf ("%s/x-nmos/registration/" IS04_VERSION
      "/health/nodes/%s", base, node->node.id);
  guint status;

  g_mutex_unlock (&node->lock);
  status = registry_request (session, "POST", url, NULL);
  g_mutex_lock (&node->lock);
  g_free (url);
  return status;
}

static gpointer
reg_thread_func (gpointer data)
{
  VmiNmosNode *node = data;
  /* No proxy: a registry sits on the facility's own network, where an
   * http_proxy meant for the outside world would misroute registration
   * (and GIO's libproxy module throws C++ exceptions that the sanitizer
   * builds cannot take). */
  SoupSession *session = soup_session_new_with_options ("timeout",
      HTTP_TIMEOUT_S, "idle-timeout", 30, "proxy-resolver", NULL, NULL);
  gboolean discover = node->discover;
  GPtrArray *list = g_ptr_array_new_with_free_func (g_free);
  GHashTable *failed = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  guint idx = 0, fails = 0, backoff_s = 1, i;
  gint64 next_heartbeat = 0;
  gboolean reachable = TRUE, probe = FALSE;

  for (i = 0; node->registries[i]; i++)
    g_ptr_array_add (list, g_strdup (node->registries[i]));

  g_mutex_lock (&node->lock);
  while (!node->stopping) {
    const gchar *base;
    Resource *del;
    gint64 now;
    gboolean ok = TRUE;

    if (list->len == 0 && !discover) {
      /* nmos-registry=none (peer-to-peer): the Node API alone */
      g_cond_wait (&node->cond, &node->lock);
      g_queue_clear_full (&node->deletes, g_free);
      continue;
    }
    if (list->len == 0) {
      guint seen;
      gchar *detail;

      /* nothing registers anywhere meanwhile: no deletes to send */
      g_queue_clear_full (&node->deletes, g_free);
      seen = browse_registries (node, list, failed);
      if (node->stopping)
        break;
      idx = fails = 0;
      if (list->len > 0) {
        backoff_s = 1;
        probe = TRUE;
        continue;
      }
      detail = g_strdup_printf ("no usable NMOS Registration API found by "
          "DNS-SD (_nmos-register._tcp: %u advertisement(s), none with "
          "api_ver v1.3, api_proto http(s), api_auth false and pri 0-99); "
          "browsing again in %u s", seen, backoff_s);
      set_status (node, VMI_NMOS_REG_SEARCHING, NULL, detail);
      g_free (detail);
      g_cond_wait_until (&node->cond, &node->lock,
          g_get_monotonic_time () + backoff_s * G_USEC_PER_SEC);
      backoff_s = MIN (backoff_s * 2, BROWSE_BACKOFF_MAX_S);
      g_queue_clear_full (&node->deletes, g_free);
      continue;
    }
    base = g_ptr_array_index (list, idx);

    /* IS-04: a node failing over heartbeats the new registry first; only
     * a 404 (it does not share the old one's registrations) registers
     * everything again */
    if (probe && (node->node.reg_version.sec != 0
            || node->node.reg_version.nsec != 0)) {
      guint status = heartbeat (node, session, base);

      if (status == 200) {
        g_info ("nmos: registry %s knows the node already", base);
        restore_registered (node);
        next_heartbeat = g_get_monotonic_time () + HEARTBEAT_US;
      } else if (status != 404) {
        ok = FALSE;
      }
    }
    probe = FALSE;

    /* deleted whether or not we saw it registered: a POST of it may have
     * been on its way when it was removed (a 404 is harmless) */
    while (ok && (del = g_queue_pop_head (&node->deletes))) {
      reachable = TRUE;
      g_mutex_unlock (&node->lock);
      delete_resource (session, base, del->type, del->id, &reachable);
      g_mutex_lock (&node->lock);
      g_free (del);
    }
    if (ok && node->dirty)
      ok = register_pending (node, session, base);

    now = g_get_monotonic_time ();
    if (ok && node->node.registered && now >= next_heartbeat) {
      guint status = heartbeat (node, session, base);

      next_heartbeat = now + HEARTBEAT_US;
      if (status == 404) {
        /* the registry forgot us (garbage collection, a restart) */
        g_info ("nmos: registry %s lost the node: registering again", base);
        mark_unregistered (node);
        continue;
      }
      if (status != 200)
        ok = FALSE;
    }
    if (ok && node->node.registered) {
      fails = 0;
      set_status (node, VMI_NMOS_REG_REGISTERED, base, NULL);
    }
    if (!ok) {
      gint64 *t = g_new (gint64, 1);

      *t = g_get_monotonic_time ();
      g_hash_table_replace (failed, g_strdup (base), t);
      mark_unregistered (node);
      next_heartbeat = 0;
      probe = TRUE;
      node->stale_deleted = FALSE;
      if (++fails >= list->len) {
        gchar *detail;
        if (discover) {
          /* IS-04: no further registry in the list: query again */
          detail = g_strdup_printf ("the %u NMOS Registration API(s) found "
              "by DNS-SD failed (the last: %s): browsing again", list->len,
              base);
          set_status (node, VMI_NMOS_REG_SEARCHING, NULL, detail);
          g_ptr_array_set_size (list, 0);
        } else {
          detail = g_strdup_printf ("no registry of nmos-registry=\"%s\" "
              "answers (the last tried: %s): trying again every %u s",
              node->registry, base, (guint) (RETRY_US / G_USEC_PER_SEC));
          set_status (node, VMI_NMOS_REG_UNREACHABLE, NULL, detail);
        }
        g_free (detail);
        fails = 0;
      }
      if (list->len > 0) {
        /* fail over to the next registry (or retry the only one) */
        idx = (idx + 1) % list->len;
        g_info ("nmos: registry %s failed: trying %s", base,
            (gchar *) g_ptr_array_index (list, idx));
      }
      g_cond_wait_until (&node->cond, &node->lock,
          g_get_monotonic_time () + RETRY_US);
      continue;
    }
    if (!node->dirty && g_queue_is_empty (&node->deletes) && !node->stopping)
      g_cond_wait_until (&node->cond, &node->lock,
          node->node.registered ? next_heartbeat :
          g_get_monotonic_time () + RETRY_US);
  }

  /* the last element stopped: deregister children, then the node (even
   * when a re-registration was under way: the registry may hold them) */
  if (list->len > 0) {
    gchar *base = g_strdup (g_ptr_array_index (list, idx));
    Resource *del;

    reachable = TRUE;
    while ((del = g_queue_pop_head (&node->deletes))) {
      g_mutex_unlock (&node->lock);
      delete_resource (session, base, del->type, del->id, &reachable);
      g_mutex_lock (&node->lock);
      g_free (del);
    }
    for (i = node->handles->len; i > 0; i--) {
      VmiNmosHandle *h = g_ptr_array_index (node->handles, i - 1);
      Resource rs[3];
      guint n = 0, k;

      if (h->role == VMI_NMOS_RECEIVER) {
        rs[n++] = h->receiver;
      } else {
        rs[n++] = h->sender;
        rs[n++] = h->flow;
        rs[n++] = h->source;
      }
      g_mutex_unlock (&node->lock);
      for (k = 0; k < n; k++)
        delete_resource (session, base, rs[k].type, rs[k].id, &reachable);
      g_mutex_lock (&node->lock);
    }
    g_mutex_unlock (&node->lock);
    delete_resource (session, base, RES_DEVICE, node->device.id, &reachable);
    delete_resource (session, base, RES_NODE, node->node.id, &reachable);
    g_mutex_lock (&node->lock);
    g_free (base);
  }
  g_queue_clear_full (&node->deletes, g_free);
  g_mutex_unlock (&node->lock);
  g_ptr_array_unref (list);
  g_hash_table_unref (failed);
  g_object_unref (session);
  return NULL;
}

/* --- HTTP server (HTTP thread) ------------------------------------------ */

static void
set_cors (SoupServerMessage * msg)
{
  SoupMessageHeaders *h = soup_server_message_get_response_headers (msg);

  soup_message_headers_replace (h, "Access-Control-Allow-Origin", "*");
  soup_message_headers_replace (h, "Access-Control-Allow-Methods",
      "GET, PUT, POST, PATCH, HEAD, OPTIONS, DELETE");
  soup_message_headers_replace (h, "Access-Control-Allow-Headers",
      "Content-Type, Accept");
  soup_message_headers_replace (h, "Access-Control-Max-Age", "3600");
}

static void
reply_take (SoupServerMessage * msg, guint status, const gchar * type,
    gchar * body)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, type, SOUP_MEMORY_TAKE, body,
      strlen (body));
}

/* IS-04/IS-05 error body */
static void
reply_error (SoupServerMessage * msg, guint status, const gchar * error)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "code");
  json_builder_add_int_value (b, status);
  json_builder_set_member_name (b, "error");
  json_builder_add_string_value (b, error);
  json_builder_set_member_name (b, "debug");
  json_builder_add_null_value (b);
  json_builder_end_object (b);
  reply_take (msg, status, "application/json", builder_to_string (b));
}

static void
reply_list (SoupServerMessage * msg, const gchar * const *items)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_array (b);
  for (; *items; items++)
    json_builder_add_string_value (b, *items);
  json_builder_end_array (b);
  reply_take (msg, 200, "application/json", builder_to_string (b));
}

static VmiNmosHandle *
find_handle (VmiNmosNode * node, VmiNmosRole role, const gchar * id)
{
  guint i;

  for (i = 0; i < node->handles->len; i++) {
    VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
    const gchar *hid = h->role == VMI_NMOS_SENDER ? h->sender.id :
        h->receiver.id;

    if (h->role == role && g_ascii_strcasecmp (hid, id) == 0)
      return h;
  }
  return NULL;
}

/* Node API (node lock held); @parts after "x-nmos/node/v1.3" */
static void
serve_node_api (VmiNmosNode * node, SoupServerMessage * msg, gchar ** parts,
    gboolean get)
{
  static const gchar *root[] = { "self/", "sources/", "flows/", "devices/",
    "senders/", "receivers/", NULL
  };
  guint n = g_strv_length (parts), i, t;
  JsonBuilder *b;

  if (n == 0) {
    if (!get)
      goto not_allowed;
    reply_list (msg, root);
    return;
  }
  if (n == 1 && strcmp (parts[0], "self") == 0) {
    if (!get)
      goto not_allowed;
    reply_take (msg, 200, "application/json", resource_json (node, NULL,
            &node->node));
    return;
  }
  for (t = RES_DEVICE; t < N_RES_TYPES; t++)
    if (strcmp (parts[0], res_paths[t]) == 0)
      break;
  if (n == 3 && t == RES_RECEIVER && strcmp (parts[2], "target") == 0) {
    /* IS-04 basic connection management: IS-05 does it here */
    if (!soup_server_message_get_method (msg)
        || strcmp (soup_server_message_get_method (msg), "PUT") != 0)
      goto not_allowed;
    reply_error (msg, 501, "connect receivers through the IS-05 "
        "Connection API (urn:x-nmos:control:sr-ctrl/" IS05_VERSION ")");
    return;
  }
  if (t == N_RES_TYPES || n > 2)
    goto not_found;
  if (!get)
    goto not_allowed;

  b = json_builder_new ();
  if (n == 1)
    json_builder_begin_array (b);
  if (t == RES_DEVICE) {
    if (n == 1 || g_ascii_strcasecmp (parts[1], node->device.id) == 0)
      build_device (node, b);
  } else {
    for (i = 0; i < node->handles->len; i++) {
      VmiNmosHandle *h = g_ptr_array_index (node->handles, i);
      const Resource *r = t == RES_SOURCE ? &h->source : t == RES_FLOW ?
          &h->flow : t == RES_SENDER ? &h->sender : &h->receiver;

      if ((t == RES_RECEIVER) != (h->role == VMI_NMOS_RECEIVER))
        continue;
      if (n == 1 || g_ascii_strcasecmp (parts[1], r->id) == 0)
        build_resource (node, h, t, b);
    }
  }
  if (n == 1) {
    json_builder_end_array (b);
  } else {
    JsonNode *root_node = json_builder_get_root (b);
    if (root_node == NULL) {
      g_object_unref (b);
      goto not_found;
    }
    json_node_unref (root_node);
  }
  reply_take (msg, 200, "application/json", builder_to_string (b));
  return;

not_found:
  reply_error (msg, 404, "no such resource");
  return;
not_allowed:
  reply_error (msg, 405, "method not allowed here");
}

/* --- IS-05 Connection API ----------------------------------------------- */

/* Decodes a transport_params leg; FALSE with @why on a type error or an
 * unknown parameter. */
static gboolean
decode_leg (VmiNmosRole role, JsonNode * n, VmiNmosLeg * leg, gchar ** why)
{
  JsonObject *o;
  GList *members, *l;
  gboolean ok = TRUE;

  memset (leg, 0, sizeof (*leg));
  if (!JSON_NODE_HOLDS_OBJECT (n)) {
    *why = g_strdup ("each transport_params leg must be an object");
    return FALSE;
  }
  o = json_node_get_object (n);
  members = json_object_get_members (o);
  for (l = members; l && ok; l = l->next) {
    const gchar *name = l->data;
    JsonNode *v = json_object_get_member (o, name);
    gint p = vmi_nmos_param_lookup (name);
    VmiNmosValue *val;

    if (p < 0 || !vmi_nmos_param_of_role (role, p)) {
      *why = g_strdup_printf ("transport parameter %s is not supported", name);
      ok = FALSE;
      break;
    }
    val = &leg->v[p];
    if (JSON_NODE_HOLDS_NULL (v)) {
      vmi_nmos_value_set_null (val);
    } else if (JSON_NODE_HOLDS_VALUE (v)) {
      GType t = json_node_get_value_type (v);

      if (t == G_TYPE_STRING) {
        const gchar *s = json_node_get_string (v);
        if (strcmp (s, "auto") == 0)
          vmi_nmos_value_set_auto (val);
        else if (strlen (s) < sizeof (val->s))
          vmi_nmos_value_set_string (val, s);
        else
          ok = FALSE;
      } else if (t == G_TYPE_INT64) {
        vmi_nmos_value_set_int (val, json_node_get_int (v));
      } else if (t == G_TYPE_BOOLEAN) {
        vmi_nmos_value_set_bool (val, json_node_get_boolean (v));
      } else {
        ok = FALSE;
      }
      if (!ok)
        *why = g_strdup_printf ("%s has a value of the wrong type", name);
    } else {
      *why = g_strdup_printf ("%s has a value of the wrong type", name);
      ok = FALSE;
    }
  }
  g_list_free (members);
  return ok;
}

static gboolean
decode_activation (JsonNode * n, VmiNmosActivation * a, gchar ** why)
{
  JsonObject *o;
  GList *members, *l;
  gboolean ok = TRUE;

  memset (a, 0, sizeof (*a));
  if (!JSON_NODE_HOLDS_OBJECT (n)) {
    *why = g_strdup ("activation must be an object");
    return FALSE;
  }
  o = json_node_get_object (n);
  members = json_object_get_members (o);
  for (l = members; l && ok; l = l->next) {
    const gchar *name = l->data;
    JsonNode *v = json_object_get_member (o, name);
    const gchar *s = JSON_NODE_HOLDS_VALUE (v)
        && json_node_get_value_type (v) == G_TYPE_STRING ?
        json_node_get_string (v) : NULL;

    if (strcmp (name, "mode") == 0) {
      if (JSON_NODE_HOLDS_NULL (v))
        a->mode = VMI_NMOS_ACTIVATE_NONE;
      else if (g_strcmp0 (s, "activate_immediate") == 0)
        a->mode = VMI_NMOS_ACTIVATE_IMMEDIATE;
      else if (g_strcmp0 (s, "activate_scheduled_absolute") == 0)
        a->mode = VMI_NMOS_ACTIVATE_ABSOLUTE;
      else if (g_strcmp0 (s, "activate_scheduled_relative") == 0)
        a->mode = VMI_NMOS_ACTIVATE_RELATIVE;
      else
        ok = FALSE;
    } else if (strcmp (name, "requested_time") == 0) {
      if (JSON_NODE_HOLDS_NULL (v))
        a->has_requested = FALSE;
      else if (s && vmi_nmos_time_parse (s, &a->requested))
        a->has_requested = TRUE;
      else
        ok = FALSE;
    } else if (strcmp (name, "activation_time") == 0) {
      /* read-only: accepted when well-formed, ignored */
      VmiNmosTime ignored;
      ok = JSON_NODE_HOLDS_NULL (v) || (s && vmi_nmos_time_parse (s,
              &ignored));
    } else {
      ok = FALSE;
    }
    if (!ok)
      *why = g_strdup_printf ("activation: bad or unknown member %s", name);
  }
  g_list_free (members);
  return ok;
}

/* Receiver transport_file: the SDP's destination, port and source filter
 * become leg 0's parameters (the request's own transport_params override
 * them). */
static gboolean
decode_transport_file (JsonNode * n, VmiNmosPatch * patch, gchar ** why)
{
  JsonObject *o;
  JsonNode *data, *type;
  const gchar *sdp_text;
  St2022Sdp sdp;
  GError *err = NULL;
  VmiNmosLeg *leg = &patch->legs[0];

  if (!JSON_NODE_HOLDS_OBJECT (n)) {
    *why = g_strdup ("transport_file must be an object");
    return FALSE;
  }
  o = json_node_get_object (n);
  if (json_object_get_size (o) > 2 || (json_object_get_size (o) > 0
          && !json_object_has_member (o, "data")
          && !json_object_has_member (o, "type"))) {
    *why = g_strdup ("transport_file has members other than data and type");
    return FALSE;
  }
  data = json_object_get_member (o, "data");
  type = json_object_get_member (o, "type");
  patch->has_transport_file = TRUE;
  patch->transport_file = NULL;
  if (data == NULL || JSON_NODE_HOLDS_NULL (data))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (data)
      || json_node_get_value_type (data) != G_TYPE_STRING) {
    *why = g_strdup ("transport_file data must be a string or null");
    return FALSE;
  }
  if (type == NULL || !JSON_NODE_HOLDS_VALUE (type)
      || json_node_get_value_type (type) != G_TYPE_STRING
      || strcmp (json_node_get_string (type), "application/sdp") != 0) {
    *why = g_strdup ("transport_file type must be application/sdp");
    return FALSE;
  }
  sdp_text = json_node_get_string (data);
  if (!st2022_sdp_parse (sdp_text, -1, &sdp, &err)) {
    *why = g_strdup_printf ("transport_file: %s", err->message);
    g_error_free (err);
    return FALSE;
  }
  if (sdp.ipv6 || sdp.address == NULL
      || strlen (sdp.address) >= sizeof (leg->v[0].s)
      || (sdp.source_address && strlen (sdp.source_address)
          >= sizeof (leg->v[0].s))) {
    *why = g_strdup ("transport_file: only IPv4 streams are received");
    st2022_sdp_clear (&sdp);
    return FALSE;
  }
  patch->transport_file = (gchar *) sdp_text;
  if (patch->n_legs == 0)
    patch->n_legs = 1;
  if (sdp.multicast) {
    vmi_nmos_value_set_string (&leg->v[VMI_NMOS_P_MULTICAST_IP],
        sdp.address);
    vmi_nmos_value_set_auto (&leg->v[VMI_NMOS_P_INTERFACE_IP]);
  } else {
    vmi_nmos_value_set_null (&leg->v[VMI_NMOS_P_MULTICAST_IP]);
    vmi_nmos_value_set_string (&leg->v[VMI_NMOS_P_INTERFACE_IP],
        sdp.address);
  }
  if (sdp.source_address)
    vmi_nmos_value_set_string (&leg->v[VMI_NMOS_P_SOURCE_IP],
        sdp.source_address);
  else
    vmi_nmos_value_set_null (&leg->v[VMI_NMOS_P_SOURCE_IP]);
  vmi_nmos_value_set_int (&leg->v[VMI_NMOS_P_DESTINATION_PORT], sdp.port);
  vmi_nmos_value_set_bool (&leg->v[VMI_NMOS_P_RTP_ENABLED], TRUE);
  st2022_sdp_clear (&sdp);
  return TRUE;
}

/* A staged PATCH body into @patch (@root stays alive: the transport file
 * text is borrowed). FALSE with @why on anything the schema refuses. */
static gboolean
decode_patch (VmiNmosRole role, JsonNode * root, VmiNmosPatch * patch,
    gchar ** why)
{
  JsonObject *o;
  JsonNode *tp, *tf;
  GList *members, *l;
  const gchar *peer_key = role == VMI_NMOS_SENDER ? "receiver_id" :
      "sender_id";
  gboolean ok = TRUE;

  memset (patch, 0, sizeof (*patch));
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)) {
    *why = g_strdup ("the body must be a JSON object");
    return FALSE;
  }
  o = json_node_get_object (root);
  members = json_object_get_members (o);
  for (l = members; l && ok; l = l->next) {
    const gchar *name = l->data;
    JsonNode *v = json_object_get_member (o, name);

    if (strcmp (name, peer_key) == 0) {
      patch->has_peer = TRUE;
      if (JSON_NODE_HOLDS_NULL (v)) {
        patch->peer_id[0] = '\0';
      } else if (JSON_NODE_HOLDS_VALUE (v)
          && json_node_get_value_type (v) == G_TYPE_STRING
          && vmi_nmos_uuid_valid (json_node_get_string (v))) {
        g_strlcpy (patch->peer_id, json_node_get_string (v),
            sizeof (patch->peer_id));
      } else {
        *why = g_strdup_printf ("%s must be a UUID or null", peer_key);
        ok = FALSE;
      }
    } else if (strcmp (name, "master_enable") == 0) {
      if (JSON_NODE_HOLDS_VALUE (v)
          && json_node_get_value_type (v) == G_TYPE_BOOLEAN) {
        patch->has_master_enable = TRUE;
        patch->master_enable = json_node_get_boolean (v);
      } else {
        *why = g_strdup ("master_enable must be a boolean");
        ok = FALSE;
      }
    } else if (strcmp (name, "activation") == 0) {
      patch->has_activation = TRUE;
      ok = decode_activation (v, &patch->activation, why);
    } else if (strcmp (name, "transport_params") == 0
        || (role == VMI_NMOS_RECEIVER
            && strcmp (name, "transport_file") == 0)) {
      /* below, in order: the file first, the explicit parameters over it */
    } else {
      *why = g_strdup_printf ("unknown member %s", name);
      ok = FALSE;
    }
  }
  g_list_free (members);
  if (!ok)
    return FALSE;

  tf = json_object_get_member (o, "transport_file");
  if (role == VMI_NMOS_RECEIVER && tf && !decode_transport_file (tf, patch,
          why))
    return FALSE;
  tp = json_object_get_member (o, "transport_params");
  if (tp) {
    JsonArray *a;
    guint i, p;

    if (!JSON_NODE_HOLDS_ARRAY (tp)) {
      *why = g_strdup ("transport_params must be an array");
      return FALSE;
    }
    a = json_node_get_array (tp);
    if (json_array_get_length (a) > VMI_NMOS_MAX_LEGS
        || json_array_get_length (a) == 0) {
      *why = g_strdup_printf ("transport_params has %u legs",
          json_array_get_length (a));
      return FALSE;
    }
    for (i = 0; i < json_array_get_length (a); i++) {
      VmiNmosLeg leg;

      if (!decode_leg (role, json_array_get_element (a, i), &leg, why))
        return FALSE;
      for (p = 0; p < VMI_NMOS_N_PARAMS; p++)
        if (leg.v[p].type != VMI_NMOS_V_UNSET)
          patch->legs[i].v[p] = leg.v[p];
    }
    patch->n_legs = MAX (patch->n_legs, json_array_get_length (a));
  }
  return TRUE;
}

static void
update_subscription (VmiNmosNode * node, VmiNmosHandle * h)
{
  resource_bump (node, h->role == VMI_NMOS_SENDER ? &h->sender :
      &h->receiver);
}

/* Activates @h's staged state now (node lock held). FALSE with @why. */
static gboolean
activate_now (VmiNmosNode * node, VmiNmosHandle * h, gchar ** why)
{
  VmiNmosState pending;
  GError *err = NULL;

  vmi_nmos_endpoint_pending (&h->ep, vmi_nmos_tai_now (), &pending);
  if (h->activate && !h->activate (h->user_data, &pending, h->ep.n_legs,
          &err)) {
    *why = g_strdup_printf ("activation failed: %s", err ? err->message :
        "unknown error");
    g_clear_error (&err);
    vmi_nmos_state_clear (&pending);
    vmi_nmos_endpoint_abort (&h->ep);
    return FALSE;
  }
  vmi_nmos_endpoint_commit (&h->ep, &pending);
  update_subscription (node, h);
  return TRUE;
}

typedef struct
{
  VmiNmosNode *node;
  VmiNmosHandle *h;
} TimerData;

static void schedule (VmiNmosNode * node, VmiNmosHandle * h);

static gboolean
scheduled_fire (gpointer data)
{
  TimerData *td = data;
  VmiNmosNode *node = td->node;
  VmiNmosTime when;
  gchar *why = NULL;

  g_mutex_lock (&node->lock);
  if (g_source_is_destroyed (g_main_current_source ())) {
    g_mutex_unlock (&node->lock);
    return G_SOURCE_REMOVE;
  }
  g_clear_pointer (&td->h->timer, g_source_unref);
  /* a GLib timer may run up to a millisecond before the TAI instant */
  if (vmi_nmos_endpoint_scheduled (&td->h->ep, &when)
      && vmi_nmos_time_until_ns (vmi_nmos_tai_now (), when) > 0) {
    schedule (node, td->h);
    g_mutex_unlock (&node->lock);
    return G_SOURCE_REMOVE;
  }
  if (!activate_now (node, td->h, &why)) {
    g_message ("nmos: scheduled activation of %s: %s",
        vmi_nmos_handle_get_id (td->h), why);
    g_free (why);
  }
  g_mutex_unlock (&node->lock);
  return G_SOURCE_REMOVE;
}

static void
cancel_timer (VmiNmosHandle * h)
{
  if (h->timer) {
    g_source_destroy (h->timer);
    g_clear_pointer (&h->timer, g_source_unref);
  }
}

static void
schedule (VmiNmosNode * node, VmiNmosHandle * h)
{
  VmiNmosTime when;
  TimerData *td;
  guint64 ns;

  cancel_timer (h);
  if (!vmi_nmos_endpoint_scheduled (&h->ep, &when))
    return;
  ns = vmi_nmos_time_until_ns (vmi_nmos_tai_now (), when);
  td = g_new (TimerData, 1);
  td->node = node;
  td->h = h;
  h->timer = g_timeout_source_new ((guint) MIN ((ns + 999999) / 1000000,
          G_MAXUINT));
  g_source_set_callback (h->timer, scheduled_fire, td, g_free);
  g_source_attach (h->timer, node->ctx);
}

/* One staged PATCH (single or bulk); returns the HTTP status, the body in
 * @body (a state on 200/202, an error text in @why otherwise). Node lock
 * held. */
static guint
patch_endpoint (VmiNmosNode * node, VmiNmosHandle * h, JsonNode * root,
    gchar ** body, gchar ** why)
{
  VmiNmosPatch patch;
  VmiNmosPatchResult res;
  VmiNmosState shown;

  *body = NULL;
  if (!decode_patch (h->role, root, &patch, why))
    return 400;
  res = vmi_nmos_endpoint_patch (&h->ep, &patch, vmi_nmos_tai_now (), why);
  switch (res) {
    case VMI_NMOS_PATCH_BAD_REQUEST:
      return 400;
    case VMI_NMOS_PATCH_LOCKED:
      return 423;
    case VMI_NMOS_PATCH_STAGED:
      /* a cancelled schedule */
      cancel_timer (h);
      *body = state_json (&h->ep, &h->ep.staged);
      return 200;
    case VMI_NMOS_PATCH_SCHEDULED:
      schedule (node, h);
      *body = state_json (&h->ep, &h->ep.staged);
      return 202;
    case VMI_NMOS_PATCH_ACTIVATE_NOW:
      cancel_timer (h);
      if (!activate_now (node, h, why))
        return 500;
      /* the response tells the activation that took place; staged's own
       * activation is null again */
      vmi_nmos_state_copy (&h->ep.staged, &shown);
      shown.activation = h->ep.active.activation;
      *body = state_json (&h->ep, &shown);
      vmi_nmos_state_clear (&shown);
      return 200;
  }
  return 500;
}

static JsonNode *
parse_body (SoupServerMessage * msg)
{
  SoupMessageBody *b = soup_server_message_get_request_body (msg);
  gchar *text;
  JsonNode *n;

  if (b == NULL || b->length == 0)
    return NULL;
  text = g_strndup (b->data, b->length);
  n = json_from_string (text, NULL);
  g_free (text);
  return n;
}

static void
serve_bulk (VmiNmosNode * node, SoupServerMessage * msg, VmiNmosRole role)
{
  JsonNode *root = parse_body (msg);
  JsonBuilder *b;
  JsonArray *a;
  guint i;

  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root)) {
    if (root)
      json_node_unref (root);
    reply_error (msg, 400, "the body must be a JSON array of {id, params}");
    return;
  }
  a = json_node_get_array (root);
  b = json_builder_new ();
  json_builder_begin_array (b);
  for (i = 0; i < json_array_get_length (a); i++) {
    JsonNode *e = json_array_get_element (a, i);
    JsonObject *o = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) :
        NULL;
    const gchar *id = o && json_object_has_member (o, "id")
        && JSON_NODE_HOLDS_VALUE (json_object_get_member (o, "id"))
        && json_node_get_value_type (json_object_get_member (o, "id")) ==
        G_TYPE_STRING ? json_object_get_string_member (o, "id") : NULL;
    JsonNode *params = o ? json_object_get_member (o, "params") : NULL;
    VmiNmosHandle *h = id ? find_handle (node, role, id) : NULL;
    gchar *body = NULL, *why = NULL;
    guint status;

    if (id == NULL || params == NULL) {
      status = 400;
      why = g_strdup ("each entry needs id and params");
    } else if (h == NULL) {
      status = 404;
      why = g_strdup ("no such id");
    } else {
      status = patch_endpoint (node, h, params, &body, &why);
    }
    json_builder_begin_object (b);
    add_string_or_null (b, "id", id);
    json_builder_set_member_name (b, "code");
    json_builder_add_int_value (b, status);
    if (status >= 400) {
      add_string_or_null (b, "error", why);
      json_builder_set_member_name (b, "debug");
      json_builder_add_null_value (b);
    }
    json_builder_end_object (b);
    g_free (body);
    g_free (why);
  }
  json_builder_end_array (b);
  json_node_unref (root);
  reply_take (msg, 200, "application/json", builder_to_string (b));
}

/* Connection API (node lock held); @parts after "x-nmos/connection/v1.1" */
static void
serve_connection_api (VmiNmosNode * node, SoupServerMessage * msg,
    gchar ** parts, const gchar * method)
{
  static const gchar *root[] = { "bulk/", "single/", NULL };
  static const gchar *roles[] = { "senders/", "receivers/", NULL };
  static const gchar *sender_items[] = { "constraints/", "staged/",
    "active/", "transportfile/", "transporttype/", NULL
  };
  static const gchar *receiver_items[] = { "constraints/", "staged/",
    "active/", "transporttype/", NULL
  };
  guint n = g_strv_length (parts), i;
  gboolean get = strcmp (method, "GET") == 0 || strcmp (method, "HEAD") == 0;
  VmiNmosRole role;
  VmiNmosHandle *h;

  if (n == 0 || (n == 1 && (strcmp (parts[0], "single") == 0
              || strcmp (parts[0], "bulk") == 0))) {
    if (!get)
      goto not_allowed;
    reply_list (msg, n == 0 ? root : roles);
    return;
  }
  if (n < 2 || (strcmp (parts[1], "senders") != 0
          && strcmp (parts[1], "receivers") != 0))
    goto not_found;
  role = strcmp (parts[1], "senders") == 0 ? VMI_NMOS_SENDER :
      VMI_NMOS_RECEIVER;

  if (strcmp (parts[0], "bulk") == 0) {
    if (n != 2)
      goto not_found;
    if (strcmp (method, "POST") != 0)
      goto not_allowed;
    serve_bulk (node, msg, role);
    return;
  }
  if (strcmp (parts[0], "single") != 0)
    goto not_found;

  if (n == 2) {
    GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

    if (!get) {
      g_ptr_array_unref (ids);
      goto not_allowed;
    }
    for (i = 0; i < node->handles->len; i++) {
      VmiNmosHandle *hh = g_ptr_array_index (node->handles, i);
      if (hh->role == role)
        g_ptr_array_add (ids, g_strdup_printf ("%s/",
                vmi_nmos_handle_get_id (hh)));
    }
    g_ptr_array_add (ids, NULL);
    reply_list (msg, (const gchar * const *) ids->pdata);
    g_ptr_array_unref (ids);
    return;
  }
  h = find_handle (node, role, parts[2]);
  if (h == NULL || n > 4)
    goto not_found;
  if (n == 3) {
    if (!get)
      goto not_allowed;
    reply_list (msg, role == VMI_NMOS_SENDER ? sender_items :
        receiver_items);
    return;
  }
  if (strcmp (parts[3], "constraints") == 0) {
    if (!get)
      goto not_allowed;
    reply_take (msg, 200, "application/json", constraints_json (&h->ep));
  } else if (strcmp (parts[3], "active") == 0) {
    if (!get)
      goto not_allowed;
    reply_take (msg, 200, "application/json", state_json (&h->ep,
            &h->ep.active));
  } else if (strcmp (parts[3], "transporttype") == 0) {
    if (!get)
      goto not_allowed;
    reply_take (msg, 200, "application/json",
        g_strdup ("\"" TRANSPORT_RTP "\""));
  } else if (strcmp (parts[3], "transportfile") == 0
      && role == VMI_NMOS_SENDER) {
    if (!get)
      goto not_allowed;
    reply_take (msg, 200, "application/sdp", g_strdup (h->sdp ? h->sdp : ""));
  } else if (strcmp (parts[3], "staged") == 0) {
    if (get) {
      reply_take (msg, 200, "application/json", state_json (&h->ep,
              &h->ep.staged));
    } else if (strcmp (method, "PATCH") == 0) {
      JsonNode *body = parse_body (msg);
      gchar *out = NULL, *why = NULL;
      guint status;

      if (body == NULL) {
        reply_error (msg, 400, "the body must be JSON");
        return;
      }
      status = patch_endpoint (node, h, body, &out, &why);
      json_node_unref (body);
      if (out)
        reply_take (msg, status, "application/json", out);
      else
        reply_error (msg, status, why ? why : "failed");
      g_free (why);
    } else {
      goto not_allowed;
    }
  } else {
    goto not_found;
  }
  return;

not_found:
  reply_error (msg, 404, "no such resource");
  return;
not_allowed:
  reply_error (msg, 405, "method not allowed here");
}

static void
server_callback (SoupServer * server, SoupServerMessage * msg,
    const char *path, GHashTable * query, gpointer user_data)
{
  VmiNmosNode *node = user_data;
  const gchar *method = soup_server_message_get_method (msg);
  gboolean get = strcmp (method, "GET") == 0 || strcmp (method, "HEAD") == 0;
  gchar **all, **parts;
  GPtrArray *clean = g_ptr_array_new ();
  guint i;

  set_cors (msg);
  if (strcmp (method, "OPTIONS") == 0) {
    soup_server_message_set_status (msg, 200, NULL);
    g_ptr_array_unref (clean);
    return;
  }
  /* "/a/b/" and "/a/b" are the same resource */
  all = g_strsplit (path, "/", -1);
  for (i = 0; all[i]; i++)
    if (*all[i])
      g_ptr_array_add (clean, all[i]);
  g_ptr_array_add (clean, NULL);
  parts = (gchar **) clean->pdata;

  g_mutex_lock (&node->lock);
  if (parts[0] == NULL) {
    static const gchar *root[] = { "x-nmos/", NULL };
    if (get)
      reply_list (msg, root);
    else
      reply_error (msg, 405, "method not allowed here");
  } else if (strcmp (parts[0], "x-nmos") != 0) {
    reply_error (msg, 404, "no such resource");
  } else if (parts[1] == NULL) {
    static const gchar *apis[] = { "node/", "connection/", NULL };
    if (get)
      reply_list (msg, apis);
    else
      reply_error (msg, 405, "method not allowed here");
  } else if (strcmp (parts[1], "node") == 0 && parts[2] == NULL) {
    static const gchar *v[] = { IS04_VERSION "/", NULL };
    if (get)
      reply_list (msg, v);
    else
      reply_error (msg, 405, "method not allowed here");
  } else if (strcmp (parts[1], "connection") == 0 && parts[2] == NULL) {
    static const gchar *v[] = { IS05_VERSION "/", NULL };
    if (get)
      reply_list (msg, v);
    else
      reply_error (msg, 405, "method not allowed here");
  } else if (strcmp (parts[1], "node") == 0
      && strcmp (parts[2], IS04_VERSION) == 0) {
    serve_node_api (node, msg, parts + 3, get);
  } else if (strcmp (parts[1], "connection") == 0
      && strcmp (parts[2], IS05_VERSION) == 0) {
    serve_connection_api (node, msg, parts + 3, method);
  } else {
    reply_error (msg, 404, "no such API or version");
  }
  g_mutex_unlock (&node->lock);
  g_ptr_array_unref (clean);
  g_strfreev (all);
}

static gpointer
http_thread_func (gpointer data)
{
  VmiNmosNode *node = data;

  g_main_context_push_thread_default (node->ctx);
  g_main_loop_run (node->loop);
  g_main_context_pop_thread_default (node->ctx);
  return NULL;
}

/* --- the node's host facts ---------------------------------------------- */

/* The local address packets to the first registry leave from (the address
 * controllers reach us on), else the first non-loopback IPv4, else
 * loopback. */
static void
find_host (VmiNmosNode * node)
{
  struct sockaddr_in sa = { 0 };
  socklen_t len = sizeof (sa);
  GUri *uri = node->registries[0] ? g_uri_parse (node->registries[0],
      G_URI_FLAGS_NONE, NULL) : NULL;
  guint i;

  g_strlcpy (node->host, "127.0.0.1", sizeof (node->host));
  if (uri && g_uri_get_host (uri)) {
    int fd = socket (AF_INET, SOCK_DGRAM, 0);
    sa.sin_family = AF_INET;
    sa.sin_port = htons (9);
    if (fd >= 0 && inet_pton (AF_INET, g_uri_get_host (uri),
            &sa.sin_addr) == 1
        && connect (fd, (struct sockaddr *) &sa, sizeof (sa)) == 0
        && getsockname (fd, (struct sockaddr *) &sa, &len) == 0) {
      inet_ntop (AF_INET, &sa.sin_addr, node->host, sizeof (node->host));
      close (fd);
      g_uri_unref (uri);
      return;
    }
    if (fd >= 0)
      close (fd);
  }
  if (uri)
    g_uri_unref (uri);
  for (i = 0; i < node->ipv4->len; i++) {
    const gchar *a = g_ptr_array_index (node->ipv4, i);
    if (!g_str_has_prefix (a, "127.")) {
      g_strlcpy (node->host, a, sizeof (node->host));
      return;
    }
  }
}

static void
find_interfaces (VmiNmosNode * node)
{
  struct ifaddrs *ifa, *i;

  node->interfaces = g_array_new (FALSE, TRUE, sizeof (NodeInterface));
  node->ipv4 = g_ptr_array_new_with_free_func (g_free);
  if (getifaddrs (&ifa) != 0)
    return;
  for (i = ifa; i; i = i->ifa_next) {
    if (i->ifa_addr == NULL || !(i->ifa_flags & IFF_UP))
      continue;
    if (i->ifa_addr->sa_family == AF_PACKET) {
      struct sockaddr_ll *ll = (struct sockaddr_ll *) i->ifa_addr;
      NodeInterface ni = { 0 };
      const guint8 *m = ll->sll_addr;

      ni.name = g_strdup (i->ifa_name);
      g_snprintf (ni.mac, sizeof (ni.mac), "%02x-%02x-%02x-%02x-%02x-%02x",
          m[0], m[1], m[2], m[3], m[4], m[5]);
      g_array_append_val (node->interfaces, ni);
    } else if (i->ifa_addr->sa_family == AF_INET) {
      gchar a[INET_ADDRSTRLEN];
      inet_ntop (AF_INET, &((struct sockaddr_in *) i->ifa_addr)->sin_addr, a,
          sizeof (a));
      g_ptr_array_add (node->ipv4, g_strdup (a));
    }
  }
  freeifaddrs (ifa);
}

/* --- lifecycle ---------------------------------------------------------- */

static void
node_free (VmiNmosNode * node)
{
  guint i;

  if (node->server)
    g_object_unref (node->server);
  if (node->loop)
    g_main_loop_unref (node->loop);
  if (node->ctx)
    g_main_context_unref (node->ctx);
  for (i = 0; node->interfaces && i < node->interfaces->len; i++)
    g_free (g_array_index (node->interfaces, NodeInterface, i).name);
  if (node->interfaces)
    g_array_unref (node->interfaces);
  if (node->ipv4)
    g_ptr_array_unref (node->ipv4);
  if (node->handles)
    g_ptr_array_unref (node->handles);
  g_strfreev (node->registries);
  g_free (node->registry);
  g_free (node->reg_url);
  g_free (node->reg_detail);
  g_free (node->hostname);
  g_mutex_clear (&node->lock);
  g_cond_clear (&node->cond);
  g_free (node);
}

static VmiNmosNode *
node_start (const VmiNmosNodeConfig * config, GError ** error)
{
  VmiNmosNode *node = g_new0 (VmiNmosNode, 1);
  gchar **regs;
  GSList *uris;
  gchar *name;
  guint i, n = 0;
  gboolean none = FALSE;

  g_mutex_init (&node->lock);
  g_cond_init (&node->cond);
  g_queue_init (&node->deletes);
  node->registry = g_strdup (config->registry ? config->registry : "");
  node->config.registry = node->registry;
  node->config.port = config->port;
  /* "http://a:1, http://b:2/" -> {"http://a:1", "http://b:2"} */
  regs = g_strsplit (node->registry, ",", -1);
  node->registries = g_new0 (gchar *, g_strv_length (regs) + 1);
  for (i = 0; regs[i]; i++) {
    gchar *r = g_strstrip (regs[i]);
    gsize l = strlen (r);
    while (l > 0 && r[l - 1] == '/')
      r[--l] = '\0';
    if (g_ascii_strcasecmp (r, "none") == 0)
      none = TRUE;
    else if (l > 0)
      node->registries[n++] = g_strdup (r);
  }
  g_strfreev (regs);
  /* "none": peer-to-peer, no registration and no DNS-SD */
  node->discover = n == 0 && !none;
  node->hostname = g_strdup (g_get_host_name ());
  node->handles = g_ptr_array_new ();
  find_interfaces (node);
  find_host (node);

  node->ctx = g_main_context_new ();
  node->loop = g_main_loop_new (node->ctx, FALSE);
  g_main_context_push_thread_default (node->ctx);
  node->server = soup_server_new ("server-header", "gst-vmi ", NULL);
  soup_server_add_handler (node->server, NULL, server_callback, node, NULL);
  if (!soup_server_listen_all (node->server, config->port,
          SOUP_SERVER_LISTEN_IPV4_ONLY, error)) {
    g_main_context_pop_thread_default (node->ctx);
    node_free (node);
    return NULL;
  }
  g_main_context_pop_thread_default (node->ctx);
  uris = soup_server_get_uris (node->server);
  node->port = uris ? (guint) g_uri_get_port (uris->data) : config->port;
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  /* stable across restarts: the host (name and the address it is reached
   * on, which tells apart hosts that share a name, like network
   * namespaces) and the configured port (0 included) */
  name = g_strdup_printf ("node:%s:%s:%u", node->hostname, node->host,
      config->port);
  resource_init (&node->node, RES_NODE, name);
  g_free (name);
  name = g_strdup_printf ("device:%s", node->node.id);
  resource_init (&node->device, RES_DEVICE, name);
  g_free (name);
  node->dirty = TRUE;

  node->http_thread = g_thread_new ("vmi-nmos-http", http_thread_func, node);
  node->reg_thread = g_thread_new ("vmi-nmos-reg", reg_thread_func, node);
  return node;
}

static void
node_stop (VmiNmosNode * node)
{
  g_mutex_lock (&node->lock);
  /* atomic: a DNS-SD browse polls it without the lock */
  g_atomic_int_set (&node->stopping, TRUE);
  g_cond_broadcast (&node->cond);
  g_mutex_unlock (&node->lock);
  g_thread_join (node->reg_thread);
  g_main_loop_quit (node->loop);
  g_thread_join (node->http_thread);
  soup_server_disconnect (node->server);
  node_free (node);
}

VmiNmosNode *
vmi_nmos_node_acquire (const VmiNmosNodeConfig * config, gchar ** warning,
    GError ** error)
{
  VmiNmosNode *node;

  if (warning)
    *warning = NULL;
  g_mutex_lock (&nodes_lock);
  if (the_node == NULL) {
    the_node = node_start (config, error);
    if (the_node == NULL) {
      g_mutex_unlock (&nodes_lock);
      return NULL;
    }
  } else if (warning && (g_strcmp0 (config->registry ? config->registry : "",
              the_node->registry) != 0 || (config->port != 0
              && config->port != the_node->port))) {
    *warning = g_strdup_printf ("the process's NMOS node already runs with "
        "nmos-registry=\"%s\" nmos-node-port=%u; those stay in force",
        the_node->registry, the_node->port);
  }
  node = the_node;
  node->refs++;
  g_mutex_unlock (&nodes_lock);
  return node;
}

void
vmi_nmos_node_release (VmiNmosNode * node)
{
  gboolean last;

  g_mutex_lock (&nodes_lock);
  last = --node->refs == 0;
  if (last)
    the_node = NULL;
  g_mutex_unlock (&nodes_lock);
  if (last)
    node_stop (node);
}

guint
vmi_nmos_node_get_port (VmiNmosNode * node)
{
  return node->port;
}

const gchar *
vmi_nmos_node_get_id (VmiNmosNode * node)
{
  return node->node.id;
}

const gchar *
vmi_nmos_handle_get_id (VmiNmosHandle * h)
{
  return h->role == VMI_NMOS_SENDER ? h->sender.id : h->receiver.id;
}

VmiNmosHandle *
vmi_nmos_node_add (VmiNmosNode * node, const VmiNmosResourceInfo * info)
{
  VmiNmosHandle *h = g_new0 (VmiNmosHandle, 1);
  gchar *name;
  guint l, i;

  h->role = info->endpoint->role;
  h->label = g_strdup (info->label);
  h->sdp = g_strdup (info->sdp);
  h->interface = g_strdup (info->interface);
  h->multicast = info->multicast;
  h->rate_n = info->rate_n;
  h->rate_d = info->rate_d;
  h->ep = *info->endpoint;
  h->ep.staged.transport_file = g_strdup (info->endpoint->staged.
      transport_file);
  h->ep.active.transport_file = g_strdup (info->endpoint->active.
      transport_file);
  h->activate = info->activate;
  h->status = info->status;
  h->user_data = info->user_data;

  g_mutex_lock (&node->lock);
#define RES(r, type, what) \
  name = g_strdup_printf ("%s:%s:%s", node->node.id, info->identity, what); \
  resource_init (r, type, name); \
  g_free (name);
  if (h->role == VMI_NMOS_SENDER) {
    RES (&h->source, RES_SOURCE, "source");
    RES (&h->flow, RES_FLOW, "flow");
    RES (&h->sender, RES_SENDER, "sender");
  } else {
    RES (&h->receiver, RES_RECEIVER, "receiver");
    /* interface_ip: one of the host's addresses; auto is the node's */
    for (l = 0; l < h->ep.n_legs; l++) {
      VmiNmosConstraint *c = &h->ep.constraints[l][VMI_NMOS_P_INTERFACE_IP];
      if (c->n_enum == 0)
        for (i = 0; i < node->ipv4->len && i < VMI_NMOS_MAX_ENUM; i++)
          vmi_nmos_value_set_string (&c->enum_values[c->n_enum++],
              g_ptr_array_index (node->ipv4, i));
      vmi_nmos_value_set_string (&h->ep.auto_values[l].v
          [VMI_NMOS_P_INTERFACE_IP], node->host);
    }
  }
  /* the active parameters are resolved ones */
  for (l = 0; l < h->ep.n_legs; l++)
    for (i = 0; i < VMI_NMOS_N_PARAMS; i++)
      if (h->ep.active.legs[l].v[i].type == VMI_NMOS_V_AUTO
          && h->ep.auto_values[l].v[i].type != VMI_NMOS_V_UNSET)
        h->ep.active.legs[l].v[i] = h->ep.auto_values[l].v[i];
#undef RES
  g_ptr_array_add (node->handles, h);
  resource_bump (node, &node->device);
  if (h->status && node->reg_state != VMI_NMOS_REG_NONE)
    h->status (h->user_data, node->reg_state, node->reg_url,
        node->reg_detail);
  g_mutex_unlock (&node->lock);
  return h;
}

static void
queue_delete (VmiNmosNode * node, const Resource * r)
{
  g_queue_push_tail (&node->deletes, g_memdup2 (r, sizeof (*r)));
}

void
vmi_nmos_node_remove (VmiNmosNode * node, VmiNmosHandle * h)
{
  g_mutex_lock (&node->lock);
  cancel_timer (h);
  g_ptr_array_remove (node->handles, h);
  if (h->role == VMI_NMOS_SENDER) {
    queue_delete (node, &h->sender);
    queue_delete (node, &h->flow);
    queue_delete (node, &h->source);
  } else {
    queue_delete (node, &h->receiver);
  }
  resource_bump (node, &node->device);
  g_mutex_unlock (&node->lock);

  vmi_nmos_endpoint_clear (&h->ep);
  g_free (h->label);
  g_free (h->sdp);
  g_free (h->interface);
  g_free (h);
}

void
vmi_nmos_node_set_grain_rate (VmiNmosNode * node, VmiNmosHandle * h,
    gint rate_n, gint rate_d)
{
  g_mutex_lock (&node->lock);
  if (h->rate_n != rate_n || h->rate_d != rate_d) {
    h->rate_n = rate_n;
    h->rate_d = rate_d;
    resource_bump (node, &h->source);
    resource_bump (node, &h->flow);
  }
  g_mutex_unlock (&node->lock);
}
