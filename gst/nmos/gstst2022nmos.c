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

#include "gstst2022nmos.h"

#include <string.h>

#include "st2022-elements/gstst2022common.h"
#include "st2022-elements/gstst2022sink.h"
#include "st2022-elements/gstst2022src.h"

#ifdef HAVE_NMOS
#include "st2022-sdp.h"
#include "vmi-nmos-node.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_st2022_nmos_debug);
#define GST_CAT_DEFAULT gst_st2022_nmos_debug

#define DEFAULT_PROP_NMOS FALSE
#define DEFAULT_PROP_NMOS_REGISTRY NULL
#define DEFAULT_PROP_NMOS_NODE_PORT 0
#define DEFAULT_PROP_NMOS_LABEL NULL

struct _GstSt2022Nmos
{
  GstElement *element;          /* not a reference: it owns us */
  gboolean is_sink;

  /* properties, under the element's object lock */
  gboolean enabled;
  gchar *registry;
  gint node_port;
  gchar *label;

  /* start .. stop */
#ifdef HAVE_NMOS
  VmiNmosNode *node;
  VmiNmosHandle *handle;
#endif
  /* sink: IS-05 master_enable && rtp_enabled (atomic) */
  gint sending;
  /* src, node thread: it has a transport, bound to @port */
  gboolean receiving;
  guint port;
  /* src with ST 2022-7, node thread: what the second path receives now */
  gchar *address2, *source2;
  gint port2;
};

void
gst_st2022_nmos_install_properties (GObjectClass * klass, guint first_id)
{
  if (gst_st2022_nmos_debug == NULL)
    GST_DEBUG_CATEGORY_INIT (gst_st2022_nmos_debug, "st2022nmos", 0,
        "NMOS IS-04/IS-05 for st2022sink and st2022src");
  /**
   * GstSt2022Sink:nmos:
   *
   * Make the element an NMOS resource of the process's node: registered
   * in an IS-04 registry, connectable through IS-05 (see docs/nmos.md).
   * The first element with nmos=true starts the node; the last one that
   * stops ends it.
   */
  /**
   * GstSt2022Src:nmos:
   *
   * Make the element an NMOS receiver of the process's node: registered
   * in an IS-04 registry; an IS-05 activation retargets it while it plays
   * (see docs/nmos.md).
   */
  g_object_class_install_property (klass, first_id + GST_ST2022_NMOS_PROP_NMOS,
      g_param_spec_boolean ("nmos", "NMOS",
          "Announce the element on the process's NMOS node (IS-04) and "
          "accept IS-05 connections", DEFAULT_PROP_NMOS, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:nmos-registry:
   *
   * IS-04 Registration API base URL(s), e.g. `http://192.0.2.1:8235`;
   * several, comma-separated, are tried in that order (fail-over). Empty:
   * DNS-SD discovery (multicast DNS, `_nmos-register._tcp`, IS-04's
   * priorities). `none`: no registration (the node serves its Node API
   * only, peer-to-peer). The node's first element sets it for the process.
   * The element message `nmos-registration` (`state` registered,
   * searching or unreachable, `registry`, `detail`) tells where it
   * registers; a warning while no registry takes it.
   */
  /**
   * GstSt2022Src:nmos-registry:
   *
   * As st2022sink's.
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_NMOS_PROP_REGISTRY,
      g_param_spec_string ("nmos-registry", "NMOS registry",
          "IS-04 Registration API URL(s), comma-separated in priority "
          "order (empty = DNS-SD discovery, none = no registration)",
          DEFAULT_PROP_NMOS_REGISTRY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:nmos-node-port:
   *
   * TCP port of the node's HTTP server (Node API and Connection API). 0:
   * an ephemeral port, written back to this property at start
   * (notify::nmos-node-port).
   */
  /**
   * GstSt2022Src:nmos-node-port:
   *
   * As st2022sink's.
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_NMOS_PROP_NODE_PORT,
      g_param_spec_int ("nmos-node-port", "NMOS node port",
          "HTTP port of the NMOS Node and Connection APIs (0 = ephemeral, "
          "read back after start)", 0, 65535, DEFAULT_PROP_NMOS_NODE_PORT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:nmos-label:
   *
   * Label of the element's NMOS resources (NULL: the element's name).
   */
  /**
   * GstSt2022Src:nmos-label:
   *
   * Label of the element's NMOS receiver (NULL: the element's name).
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_NMOS_PROP_LABEL,
      g_param_spec_string ("nmos-label", "NMOS label",
          "Label of the element's NMOS resources (NULL = the element's name)",
          DEFAULT_PROP_NMOS_LABEL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
          | GST_PARAM_MUTABLE_READY));
}

GstSt2022Nmos *
gst_st2022_nmos_new (GstElement * element)
{
  GstSt2022Nmos *n = g_new0 (GstSt2022Nmos, 1);

  n->element = element;
  n->is_sink = GST_IS_ST2022_SINK (element);
  n->enabled = DEFAULT_PROP_NMOS;
  n->registry = g_strdup (DEFAULT_PROP_NMOS_REGISTRY);
  n->node_port = DEFAULT_PROP_NMOS_NODE_PORT;
  n->label = g_strdup (DEFAULT_PROP_NMOS_LABEL);
  n->sending = 1;
  return n;
}

void
gst_st2022_nmos_free (GstSt2022Nmos * n)
{
  if (n == NULL)
    return;
  g_free (n->registry);
  g_free (n->label);
  g_free (n->address2);
  g_free (n->source2);
  g_free (n);
}

gboolean
gst_st2022_nmos_set_property (GstSt2022Nmos * n, guint first_id,
    guint prop_id, const GValue * value)
{
  if (prop_id < first_id || prop_id >= first_id + GST_ST2022_NMOS_N_PROPS)
    return FALSE;
  switch (prop_id - first_id) {
    case GST_ST2022_NMOS_PROP_NMOS:
      n->enabled = g_value_get_boolean (value);
      break;
    case GST_ST2022_NMOS_PROP_REGISTRY:
      g_free (n->registry);
      n->registry = g_value_dup_string (value);
      break;
    case GST_ST2022_NMOS_PROP_NODE_PORT:
      n->node_port = g_value_get_int (value);
      break;
    case GST_ST2022_NMOS_PROP_LABEL:
      g_free (n->label);
      n->label = g_value_dup_string (value);
      break;
  }
  return TRUE;
}

gboolean
gst_st2022_nmos_get_property (GstSt2022Nmos * n, guint first_id,
    guint prop_id, GValue * value)
{
  if (prop_id < first_id || prop_id >= first_id + GST_ST2022_NMOS_N_PROPS)
    return FALSE;
  switch (prop_id - first_id) {
    case GST_ST2022_NMOS_PROP_NMOS:
      g_value_set_boolean (value, n->enabled);
      break;
    case GST_ST2022_NMOS_PROP_REGISTRY:
      g_value_set_string (value, n->registry);
      break;
    case GST_ST2022_NMOS_PROP_NODE_PORT:
      g_value_set_int (value, n->node_port);
      break;
    case GST_ST2022_NMOS_PROP_LABEL:
      g_value_set_string (value, n->label);
      break;
  }
  return TRUE;
}

gboolean
gst_st2022_nmos_sink_enabled (GstSt2022Nmos * n)
{
  return g_atomic_int_get (&n->sending) != 0;
}

#ifdef HAVE_NMOS

static gboolean
leg_enabled (const VmiNmosState * st)
{
  const VmiNmosValue *rtp = &st->legs[0].v[VMI_NMOS_P_RTP_ENABLED];

  return st->master_enable && (rtp->type != VMI_NMOS_V_BOOL || rtp->b);
}

/* IS-05 activation of a sender: addresses are the sink's properties (the
 * constraints allow only them), so what changes is whether it sends. */
static gboolean
sink_activate (gpointer user_data, const VmiNmosState * active, guint n_legs,
    GError ** error)
{
  GstSt2022Nmos *n = user_data;
  gboolean on = leg_enabled (active);

  GST_INFO_OBJECT (n->element, "IS-05: sending %s", on ? "on" : "off");
  g_atomic_int_set (&n->sending, on);
  return TRUE;
}

/* What a receiver leg of an activation says to receive */
static void
leg_target (const VmiNmosLeg * leg, const gchar ** address,
    const gchar ** source, gint * port)
{
  const VmiNmosValue *mc = &leg->v[VMI_NMOS_P_MULTICAST_IP];
  const VmiNmosValue *src = &leg->v[VMI_NMOS_P_SOURCE_IP];
  const VmiNmosValue *p = &leg->v[VMI_NMOS_P_DESTINATION_PORT];

  *address = mc->type == VMI_NMOS_V_STRING ? mc->s : "0.0.0.0";
  *source = src->type == VMI_NMOS_V_STRING ? src->s : NULL;
  *port = p->type == VMI_NMOS_V_INT ? p->i : 0;
}

static VmiTransport *
open_leg (const gchar * address, const gchar * source, gint port,
    const gchar * iface, gint buffer_size, GError ** error)
{
  VmiTransportConfig cfg = { 0 };

  if (port <= 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "destination_port must be a UDP port");
    return NULL;
  }
  cfg.direction = VMI_TRANSPORT_DIR_RECEIVE;
  cfg.address = address;
  cfg.port = (guint16) port;
  cfg.multicast_iface = iface;
  cfg.source_address = source;
  cfg.buffer_size = buffer_size;
  return vmi_transport_lookup (VMI_TRANSPORT_KIND_SOCKET)->open (&cfg, error);
}

/* IS-05 activation of a receiver: a new socket for the new address, port
 * and source filter (with ST 2022-7 also for the second leg, when it
 * moves), handed to the playing element's receive thread, which takes them
 * between two frames (gst_st2022_src_swap_transports()). */
static gboolean
src_activate (gpointer user_data, const VmiNmosState * active, guint n_legs,
    GError ** error)
{
  GstSt2022Nmos *n = user_data;
  const gchar *address, *source, *address2 = NULL, *source2 = NULL;
  gint port, port2 = 0, buffer_size;
  GstSt2022Transport kind;
  VmiTransport *t = NULL, *t2 = NULL;
  gchar *iface = NULL, *iface2 = NULL;

  leg_target (&active->legs[0], &address, &source, &port);
  if (n_legs == 2)
    leg_target (&active->legs[1], &address2, &source2, &port2);
  g_object_get (n->element, "transport", &kind, "multicast-iface", &iface,
      "buffer-size", &buffer_size, NULL);
  if (n_legs == 2)
    g_object_get (n->element, "secondary-multicast-iface", &iface2, NULL);
  if (kind != GST_ST2022_TRANSPORT_SOCKET) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
        "live retarget needs transport=socket (this receiver has "
        "transport=%s)", gst_st2022_transport_nick (kind));
    goto refused;
  }
  if (leg_enabled (active)) {
    t = open_leg (address, source, port, iface, buffer_size, error);
    if (t == NULL && port > 0 && n->receiving && (guint) port == n->port) {
      /* the old socket holds the port: give it up first (the switch is
       * then not between two frames, the port is the same) */
      g_clear_error (error);
      gst_st2022_src_swap_transport (GST_ST2022_SRC (n->element), NULL);
      n->receiving = FALSE;
      t = open_leg (address, source, port, iface, buffer_size, error);
    }
    if (t == NULL)
      goto refused;
    /* the second path gets a socket only when it moves: a controller
     * activating the same parameters again keeps it (and its port) */
    if (n_legs == 2 && (port2 != n->port2 || g_strcmp0 (address2,
                n->address2) != 0 || g_strcmp0 (source2, n->source2) != 0)) {
      t2 = open_leg (address2, source2, port2, iface2, buffer_size, error);
      if (t2 == NULL) {
        g_prefix_error (error, "second leg: ");
        vmi_transport_close (t);
        goto refused;
      }
    }
  }
  g_free (iface);
  g_free (iface2);
  if (!gst_st2022_src_swap_transports (GST_ST2022_SRC (n->element), t, t2)) {
    vmi_transport_close (t);
    vmi_transport_close (t2);
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "the receiver is not running");
    return FALSE;
  }
  n->receiving = t != NULL;
  if (t)
    n->port = port;
  GST_INFO_OBJECT (n->element, "IS-05: receiving %s%s",
      t ? "(retargeted)" : "nothing (disabled)",
      t2 ? ", second path retargeted" : "");
  if (t)
    g_object_set (n->element, "address", address, "port", port,
        "source-address", source, NULL);
  if (t2) {
    g_free (n->address2);
    g_free (n->source2);
    n->address2 = g_strdup (address2);
    n->source2 = g_strdup (source2);
    n->port2 = port2;
    g_object_set (n->element, "secondary-address", address2,
        "secondary-port", port2, "secondary-source-address", source2, NULL);
  }
  return TRUE;

refused:
  GST_WARNING_OBJECT (n->element, "IS-05 activation refused: %s",
      (*error)->message);
  g_free (iface);
  g_free (iface2);
  return FALSE;
}

static gboolean
is_multicast (const gchar * a)
{
  guint b0 = a ? (guint) g_ascii_strtoull (a, NULL, 10) : 0;

  return b0 >= 224 && b0 <= 239;
}

static void
enum_one (VmiNmosConstraint * c, const VmiNmosValue * v)
{
  c->n_enum = 1;
  c->enum_values[0] = *v;
}

static void
sender_leg (VmiNmosLeg * leg, const gchar * source, const gchar * dest,
    guint source_port, guint dest_port)
{
  vmi_nmos_value_set_string (&leg->v[VMI_NMOS_P_SOURCE_IP],
      source ? source : "0.0.0.0");
  vmi_nmos_value_set_string (&leg->v[VMI_NMOS_P_DESTINATION_IP], dest);
  vmi_nmos_value_set_int (&leg->v[VMI_NMOS_P_SOURCE_PORT],
      source_port ? source_port : dest_port);
  vmi_nmos_value_set_int (&leg->v[VMI_NMOS_P_DESTINATION_PORT], dest_port);
  vmi_nmos_value_set_bool (&leg->v[VMI_NMOS_P_RTP_ENABLED], TRUE);
}

/* The sender's IS-05 state: what the sink sends (its SDP; with ST 2022-7
 * two legs, as the SDP's two m= sections), fixed. */
static gboolean
sink_endpoint (GstSt2022Nmos * n, VmiNmosEndpoint * ep, gchar ** sdp_out,
    gboolean * multicast)
{
  GstSt2022Sink *sink = GST_ST2022_SINK (n->element);
  VmiNmosLeg legs[VMI_NMOS_MAX_LEGS] = { {{{0}}} };
  St2022Sdp sdp;
  gchar *text = NULL;
  guint p, l, n_legs = 1;

  g_object_get (n->element, "sdp", &text, NULL);
  if (text == NULL || !st2022_sdp_parse (text, -1, &sdp, NULL)) {
    g_free (text);
    return FALSE;
  }
  sender_leg (&legs[0], sdp.origin_address, sdp.address,
      gst_st2022_sink_get_source_port (sink, 0), sdp.port);
  if (sdp.has_secondary) {
    /* the secondary m= section's source filter names its sender address */
    sender_leg (&legs[1], sdp.secondary_source_address ?
        sdp.secondary_source_address : sdp.origin_address,
        sdp.secondary_address, gst_st2022_sink_get_source_port (sink, 1),
        sdp.secondary_port);
    n_legs = 2;
  }
  *multicast = sdp.multicast;
  st2022_sdp_clear (&sdp);
  vmi_nmos_endpoint_init (ep, VMI_NMOS_SENDER, n_legs, legs, TRUE);
  /* rtp_enabled switches the sender on leg 0; a second leg is on while
   * the sender is */
  for (l = 0; l < n_legs; l++)
    for (p = 0; p < VMI_NMOS_N_PARAMS; p++)
      if ((l > 0 || p != VMI_NMOS_P_RTP_ENABLED)
          && legs[l].v[p].type != VMI_NMOS_V_UNSET)
        enum_one (&ep->constraints[l][p], &legs[l].v[p]);
  *sdp_out = text;
  return TRUE;
}

static void
receiver_leg (VmiNmosLeg * leg, const gchar * address, const gchar * source,
    gint port)
{
  if (is_multicast (address))
    vmi_nmos_value_set_string (&leg->v[VMI_NMOS_P_MULTICAST_IP], address);
  else
    vmi_nmos_value_set_null (&leg->v[VMI_NMOS_P_MULTICAST_IP]);
  vmi_nmos_value_set_auto (&leg->v[VMI_NMOS_P_INTERFACE_IP]);
  if (source && *source)
    vmi_nmos_value_set_string (&leg->v[VMI_NMOS_P_SOURCE_IP], source);
  else
    vmi_nmos_value_set_null (&leg->v[VMI_NMOS_P_SOURCE_IP]);
  vmi_nmos_value_set_int (&leg->v[VMI_NMOS_P_DESTINATION_PORT], port);
  vmi_nmos_value_set_bool (&leg->v[VMI_NMOS_P_RTP_ENABLED], TRUE);
}

/* The receiver's IS-05 state: what the src receives now. With ST 2022-7
 * (`secondary-address`) a second leg, the secondary path's: activations
 * retarget either path or both. */
static void
src_endpoint (GstSt2022Nmos * n, VmiNmosEndpoint * ep)
{
  VmiNmosLeg legs[VMI_NMOS_MAX_LEGS] = { {{{0}}} };
  gchar *address = NULL, *source = NULL, *address2 = NULL, *source2 = NULL;
  const gchar *a2, *s2;
  gint port, port2 = -1;
  guint n_legs = 1;

  g_object_get (n->element, "address", &address, "port", &port,
      "source-address", &source, NULL);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (n->element),
          "secondary-address"))
    g_object_get (n->element, "secondary-address", &address2,
        "secondary-port", &port2, "secondary-source-address", &source2, NULL);
  receiver_leg (&legs[0], address, source, port);
  if (address2 && *address2) {
    receiver_leg (&legs[1], address2, source2, port2 >= 0 ? port2 : port);
    n_legs = 2;
  }
  vmi_nmos_endpoint_init (ep, VMI_NMOS_RECEIVER, n_legs, legs, TRUE);
  n->receiving = TRUE;
  n->port = port;
  /* "auto" port: the one the element started on (IS-05's 5004 is only a
   * default, and another receiver of the host may hold it) */
  vmi_nmos_value_set_int (&ep->auto_values[0].v
      [VMI_NMOS_P_DESTINATION_PORT], port);
  ep->constraints[0][VMI_NMOS_P_DESTINATION_PORT].has_min = TRUE;
  ep->constraints[0][VMI_NMOS_P_DESTINATION_PORT].min = 1;
  ep->constraints[0][VMI_NMOS_P_DESTINATION_PORT].has_max = TRUE;
  ep->constraints[0][VMI_NMOS_P_DESTINATION_PORT].max = 65535;
  g_free (n->address2);
  g_free (n->source2);
  n->address2 = n->source2 = NULL;
  n->port2 = 0;
  if (n_legs == 2) {
    leg_target (&legs[1], &a2, &s2, &n->port2);
    n->address2 = g_strdup (a2);
    n->source2 = g_strdup (s2);
    vmi_nmos_value_set_int (&ep->auto_values[1].v
        [VMI_NMOS_P_DESTINATION_PORT], n->port2);
    ep->constraints[1][VMI_NMOS_P_DESTINATION_PORT] =
        ep->constraints[0][VMI_NMOS_P_DESTINATION_PORT];
    /* the second path is switched on and off with the first
     * (master_enable, leg 0's rtp_enabled), not alone */
    enum_one (&ep->constraints[1][VMI_NMOS_P_RTP_ENABLED],
        &legs[1].v[VMI_NMOS_P_RTP_ENABLED]);
  }
  g_free (address);
  g_free (source);
  g_free (address2);
  g_free (source2);
}

/* Registration thread (node lock held): says on the bus where the node
 * registers, and warns while no registry takes it */
static void
reg_status (gpointer user_data, VmiNmosRegState state, const gchar * registry,
    const gchar * detail)
{
  GstSt2022Nmos *n = user_data;
  static const gchar *names[] = { "unknown", "registered", "searching",
    "unreachable"
  };
  GstStructure *s = gst_structure_new ("nmos-registration",
      "state", G_TYPE_STRING, names[state],
      "registry", G_TYPE_STRING, registry,
      "detail", G_TYPE_STRING, detail, NULL);

  if (state == VMI_NMOS_REG_SEARCHING || state == VMI_NMOS_REG_UNREACHABLE)
    GST_ELEMENT_WARNING (n->element, RESOURCE, NOT_FOUND, ("%s", detail),
        ("the element runs, unregistered, until a registry takes it"));
  gst_element_post_message (n->element,
      gst_message_new_element (GST_OBJECT (n->element), s));
}

gboolean
gst_st2022_nmos_start (GstSt2022Nmos * n)
{
  VmiNmosNodeConfig cfg = { 0 };
  VmiNmosResourceInfo info = { 0 };
  VmiNmosEndpoint ep;
  GError *err = NULL;
  gchar *warning = NULL, *registry, *label, *identity, *sdp = NULL;
  gchar *iface = NULL;
  gboolean enabled, multicast = FALSE;
  gint node_port;

  GST_OBJECT_LOCK (n->element);
  enabled = n->enabled;
  registry = g_strdup (n->registry);
  node_port = n->node_port;
  label = g_strdup (n->label && *n->label ? n->label :
      GST_OBJECT_NAME (n->element));
  GST_OBJECT_UNLOCK (n->element);
  g_atomic_int_set (&n->sending, 1);
  if (!enabled) {
    g_free (registry);
    g_free (label);
    return TRUE;
  }

  if (n->is_sink && !sink_endpoint (n, &ep, &sdp, &multicast))
    goto no_sdp;
  if (!n->is_sink)
    src_endpoint (n, &ep);

  cfg.registry = registry;
  cfg.port = (guint) node_port;
  n->node = vmi_nmos_node_acquire (&cfg, &warning, &err);
  if (n->node == NULL)
    goto node_failed;
  if (warning)
    GST_ELEMENT_WARNING (n->element, RESOURCE, SETTINGS, ("%s", warning),
        (NULL));
  if ((guint) node_port != vmi_nmos_node_get_port (n->node)) {
    GST_OBJECT_LOCK (n->element);
    n->node_port = vmi_nmos_node_get_port (n->node);
    GST_OBJECT_UNLOCK (n->element);
    g_object_notify (G_OBJECT (n->element), "nmos-node-port");
  }

  /* the element's place in its pipeline, stable across runs of the same
   * pipeline description */
  identity = gst_object_get_path_string (GST_OBJECT (n->element));
  g_object_get (n->element, "multicast-iface", &iface, NULL);
  info.identity = identity;
  info.label = label;
  info.sdp = sdp;
  info.multicast = multicast;
  info.interface = iface;
  info.endpoint = &ep;
  info.activate = n->is_sink ? sink_activate : src_activate;
  info.status = reg_status;
  info.user_data = n;
  n->handle = vmi_nmos_node_add (n->node, &info);
  GST_INFO_OBJECT (n->element, "NMOS %s %s on node %s (port %u)",
      n->is_sink ? "sender" : "receiver", vmi_nmos_handle_get_id (n->handle),
      vmi_nmos_node_get_id (n->node), vmi_nmos_node_get_port (n->node));
  vmi_nmos_endpoint_clear (&ep);
  g_free (identity);
  g_free (iface);
  g_free (sdp);
  g_free (warning);
  g_free (registry);
  g_free (label);
  return TRUE;

  /* ERRORS */
no_sdp:
  {
    GST_ELEMENT_ERROR (n->element, RESOURCE, SETTINGS,
        ("nmos=true: the sink has no SDP to announce"), (NULL));
    g_free (registry);
    g_free (label);
    return FALSE;
  }
node_failed:
  {
    GST_ELEMENT_ERROR (n->element, RESOURCE, OPEN_READ_WRITE,
        ("could not start the NMOS node on port %d: %s; set nmos-node-port "
            "to a free port (0 = any)", node_port, err->message), (NULL));
    g_clear_error (&err);
    vmi_nmos_endpoint_clear (&ep);
    g_free (sdp);
    g_free (registry);
    g_free (label);
    return FALSE;
  }
}

void
gst_st2022_nmos_stop (GstSt2022Nmos * n)
{
  if (n == NULL || n->node == NULL)
    return;
  if (n->handle)
    vmi_nmos_node_remove (n->node, n->handle);
  n->handle = NULL;
  vmi_nmos_node_release (n->node);
  n->node = NULL;
}

void
gst_st2022_nmos_sink_caps (GstSt2022Nmos * n, gint fps_n, gint fps_d)
{
  if (n->node && n->handle)
    vmi_nmos_node_set_grain_rate (n->node, n->handle, fps_n, fps_d);
}

#else /* !HAVE_NMOS */

gboolean
gst_st2022_nmos_start (GstSt2022Nmos * n)
{
  gboolean enabled;

  GST_OBJECT_LOCK (n->element);
  enabled = n->enabled;
  GST_OBJECT_UNLOCK (n->element);
  if (!enabled)
    return TRUE;
  GST_ELEMENT_ERROR (n->element, RESOURCE, SETTINGS,
      ("nmos=true: this build has no NMOS; install libsoup-3.0-dev and "
          "libjson-glib-dev and rebuild with -Dnmos=enabled"), (NULL));
  return FALSE;
}

void
gst_st2022_nmos_stop (GstSt2022Nmos * n)
{
}

void
gst_st2022_nmos_sink_caps (GstSt2022Nmos * n, gint fps_n, gint fps_d)
{
}

#endif /* HAVE_NMOS */
