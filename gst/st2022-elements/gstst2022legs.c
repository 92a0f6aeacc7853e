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

#include "gstst2022legs.h"
#include "transport/vmi-transport-dual.h"
#include "st2022/st2022-seamless.h"

GST_DEBUG_CATEGORY (gst_st2022_legs_debug);
#define GST_CAT_DEFAULT gst_st2022_legs_debug

#define DEFAULT_PROP_PORT -1
#define DEFAULT_PROP_DPDK_PORT -1
#define DEFAULT_PROP_SEAMLESS_WINDOW ST2022_SEAMLESS_DEFAULT_WINDOW_MS

static const gchar *const path_names[2] = { "primary", "secondary" };

const gchar *
gst_st2022_legs_path_name (guint path)
{
  return path_names[path];
}

static void
legs_debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_st2022_legs_debug, "st2022legs", 0,
        "ST 2022-7 paths");
    g_once_init_leave (&done, 1);
  }
}

/* --- properties ---------------------------------------------------------- */

void
gst_st2022_legs_install_properties (GObjectClass * klass, guint first_id,
    gboolean is_sink)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  legs_debug_init ();
  if (is_sink) {
    /**
     * GstSt2022Sink:secondary-host:
     *
     * ST 2022-7: the destination of the second path. When set, every
     * datagram goes to both `host` and this, identical (SSRC, sequence
     * numbers, timestamps, payload), each path on its own socket or port.
     * NULL: one path.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_LEGS_PROP_ADDRESS,
        g_param_spec_string ("secondary-host", "Secondary host",
            "ST 2022-7: destination of the second path (NULL = one path)",
            NULL, rw));
  } else {
    /**
     * GstSt2022Src:secondary-address:
     *
     * ST 2022-7: the local address (a multicast group is joined) of the
     * second path. When set, the element receives both paths and merges
     * them: the first copy of each datagram wins. NULL: one path.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_LEGS_PROP_ADDRESS,
        g_param_spec_string ("secondary-address", "Secondary address",
            "ST 2022-7: address of the second path (NULL = one path)",
            NULL, rw));
  }
  /**
   * GstSt2022Sink:secondary-port:
   *
   * UDP port of the second path; -1: the same as `port`.
   */
  /**
   * GstSt2022Src:secondary-port:
   *
   * UDP port of the second path; -1: the same as `port`; 0: an ephemeral
   * port (socket transport), read back after start (notify).
   */
  g_object_class_install_property (klass, first_id + GST_ST2022_LEGS_PROP_PORT,
      g_param_spec_int ("secondary-port", "Secondary port",
          "UDP port of the second path (-1 = port)", -1, 65535,
          DEFAULT_PROP_PORT, rw));
  /**
   * GstSt2022Sink:secondary-multicast-iface:
   *
   * Interface for the second path's multicast (NULL: the routing table's).
   */
  /**
   * GstSt2022Src:secondary-multicast-iface:
   *
   * Interface to join the second path's group on (NULL: the routing
   * table's).
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_LEGS_PROP_MULTICAST_IFACE,
      g_param_spec_string ("secondary-multicast-iface",
          "Secondary multicast interface",
          "Network interface of the second path's multicast", NULL, rw));
  /**
   * GstSt2022Sink:secondary-iface:
   *
   * transport=packet: the second path's network interface (required with
   * a second path).
   */
  /**
   * GstSt2022Src:secondary-iface:
   *
   * transport=packet: the second path's network interface (required with
   * a second path).
   */
  g_object_class_install_property (klass, first_id + GST_ST2022_LEGS_PROP_IFACE,
      g_param_spec_string ("secondary-iface", "Secondary interface",
          "transport=packet: network interface of the second path", NULL,
          rw));
  /**
   * GstSt2022Sink:secondary-dpdk-port:
   *
   * transport=dpdk: the second path's port in the same EAL; -1: `dpdk-port`
   * + 1.
   */
  /**
   * GstSt2022Src:secondary-dpdk-port:
   *
   * transport=dpdk: the second path's port in the same EAL; -1: `dpdk-port`
   * + 1.
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_LEGS_PROP_DPDK_PORT,
      g_param_spec_int ("secondary-dpdk-port", "Secondary DPDK port",
          "transport=dpdk: port of the second path (-1 = dpdk-port + 1)", -1,
          G_MAXUINT16, DEFAULT_PROP_DPDK_PORT, rw));
  if (is_sink) {
    /**
     * GstSt2022Sink:secondary-bind-address:
     *
     * The second path's source IPv4 (raw transports) or local bind address
     * (sockets); NULL: the interface's own.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_LEGS_PROP_BIND_ADDRESS,
        g_param_spec_string ("secondary-bind-address",
            "Secondary bind address",
            "Source address of the second path (NULL = the interface's)",
            NULL, rw));
    /**
     * GstSt2022Sink:secondary-destination-mac:
     *
     * Raw transports, unicast: the second path's next-hop MAC; NULL or "":
     * resolved by ARP on that port.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_LEGS_PROP_DESTINATION_MAC,
        g_param_spec_string ("secondary-destination-mac",
            "Secondary destination MAC",
            "Raw transports: MAC of the second path's next hop (NULL = ARP)",
            NULL, rw));
  } else {
    /**
     * GstSt2022Src:secondary-source-address:
     *
     * Source-specific multicast on the second path (NULL: any source).
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_LEGS_PROP_SOURCE_ADDRESS,
        g_param_spec_string ("secondary-source-address",
            "Secondary source address",
            "Sender address for source-specific multicast on the second path",
            NULL, rw));
    /**
     * GstSt2022Src:seamless-window:
     *
     * The largest path differential (ms) the merge absorbs: a datagram one
     * path misses is waited for this long on the other. Datagrams arriving
     * later than that behind their first copy are counted out of window.
     * Also bounded by 32768 datagrams (about 240 ms at 1080i59.94): a
     * sequence number cannot say more.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_LEGS_PROP_SEAMLESS_WINDOW,
        g_param_spec_uint ("seamless-window", "Seamless window",
            "ST 2022-7: largest path differential absorbed, ms", 1,
            ST2022_SEAMLESS_MAX_WINDOW_MS, DEFAULT_PROP_SEAMLESS_WINDOW, rw));
  }
}

void
gst_st2022_legs_settings_init (GstSt2022LegsSettings * s, gboolean is_sink)
{
  memset (s, 0, sizeof (*s));
  s->is_sink = is_sink;
  s->port = DEFAULT_PROP_PORT;
  s->dpdk_port = DEFAULT_PROP_DPDK_PORT;
  s->window_ms = DEFAULT_PROP_SEAMLESS_WINDOW;
}

void
gst_st2022_legs_settings_clear (GstSt2022LegsSettings * s)
{
  g_clear_pointer (&s->address, g_free);
  g_clear_pointer (&s->multicast_iface, g_free);
  g_clear_pointer (&s->iface, g_free);
  g_clear_pointer (&s->bind_address, g_free);
  g_clear_pointer (&s->destination_mac, g_free);
  g_clear_pointer (&s->source_address, g_free);
}

static gchar **
legs_string (GstSt2022LegsSettings * s, guint prop)
{
  switch (prop) {
    case GST_ST2022_LEGS_PROP_ADDRESS:
      return &s->address;
    case GST_ST2022_LEGS_PROP_MULTICAST_IFACE:
      return &s->multicast_iface;
    case GST_ST2022_LEGS_PROP_IFACE:
      return &s->iface;
    case GST_ST2022_LEGS_PROP_BIND_ADDRESS:
      return &s->bind_address;
    case GST_ST2022_LEGS_PROP_DESTINATION_MAC:
      return &s->destination_mac;
    case GST_ST2022_LEGS_PROP_SOURCE_ADDRESS:
      return &s->source_address;
    default:
      return NULL;
  }
}

gboolean
gst_st2022_legs_set_property (GstSt2022LegsSettings * s, guint first_id,
    guint prop_id, const GValue * value)
{
  guint prop = prop_id - first_id;
  gchar **str;

  if (prop_id < first_id || prop >= GST_ST2022_LEGS_N_PROPS)
    return FALSE;
  str = legs_string (s, prop);
  if (str) {
    g_free (*str);
    *str = g_value_dup_string (value);
  } else if (prop == GST_ST2022_LEGS_PROP_PORT) {
    s->port = g_value_get_int (value);
  } else if (prop == GST_ST2022_LEGS_PROP_DPDK_PORT) {
    s->dpdk_port = g_value_get_int (value);
  } else {
    s->window_ms = g_value_get_uint (value);
  }
  return TRUE;
}

gboolean
gst_st2022_legs_get_property (const GstSt2022LegsSettings * s,
    guint first_id, guint prop_id, GValue * value)
{
  guint prop = prop_id - first_id;
  gchar **str;

  if (prop_id < first_id || prop >= GST_ST2022_LEGS_N_PROPS)
    return FALSE;
  str = legs_string ((GstSt2022LegsSettings *) s, prop);
  if (str)
    g_value_set_string (value, *str);
  else if (prop == GST_ST2022_LEGS_PROP_PORT)
    g_value_set_int (value, s->port);
  else if (prop == GST_ST2022_LEGS_PROP_DPDK_PORT)
    g_value_set_int (value, s->dpdk_port);
  else
    g_value_set_uint (value, s->window_ms);
  return TRUE;
}

gboolean
gst_st2022_legs_config (const GstSt2022LegsSettings * s,
    const VmiTransportConfig * primary, VmiTransportConfig * out)
{
  if (s->address == NULL || *s->address == '\0')
    return FALSE;
  *out = *primary;
  out->address = s->address;
  if (s->port >= 0)
    out->port = s->port;
  out->multicast_iface = s->multicast_iface;
  out->iface = s->iface;
  out->dpdk_port = s->dpdk_port >= 0 ? s->dpdk_port : primary->dpdk_port + 1;
  out->prop_prefix = "secondary-";
  if (s->is_sink) {
    out->bind_address = s->bind_address;
    out->destination_mac = s->destination_mac;
  } else {
    out->source_address = s->source_address;
  }
  gst_st2022_transport_config_own_strings (out);
  return TRUE;
}

/* The second path of a raw transport needs its own interface. */
gboolean
gst_st2022_legs_check_iface (GstElement * element, GstSt2022Transport kind,
    const VmiTransportConfig * cfg2)
{
  if (kind == GST_ST2022_TRANSPORT_PACKET && (cfg2->iface == NULL
          || *cfg2->iface == '\0')) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        ("a second path on transport=packet needs secondary-iface: set it "
            "to the network interface of the second path"), (NULL));
    return FALSE;
  }
  return TRUE;
}

void
gst_st2022_legs_post_path (GstElement * element, guint path, gboolean up,
    const gchar * why)
{
  gst_element_post_message (element,
      gst_message_new_element (GST_OBJECT (element),
          gst_structure_new ("st2022-path", "path", G_TYPE_STRING,
              path_names[path], "state", G_TYPE_STRING, up ? "up" : "down",
              NULL)));
  if (up)
    GST_ELEMENT_INFO (element, RESOURCE, FAILED,
        ("ST 2022-7: the %s path is back", path_names[path]), (NULL));
  else
    GST_ELEMENT_WARNING (element, RESOURCE, FAILED,
        ("ST 2022-7: the %s path is down (%s); the stream goes on on the %s "
            "path alone", path_names[path], why, path_names[1 - path]),
        (NULL));
}

/* --- st2022sink ---------------------------------------------------------- */

VmiTransport *
gst_st2022_legs_sink_open (GstElement * sink, VmiTransport * t,
    GstSt2022Transport kind, const VmiTransportConfig * cfg,
    const VmiTransportConfig * cfg2, guint required_caps,
    const gchar * required_by, gboolean * path_up)
{
  VmiTransport *t2;
  GError *link_err = NULL;

  if (!gst_st2022_legs_check_iface (sink, kind, cfg2))
    goto failed;
  /* a second path whose link is not there yet does not stop the sink: it
   * sends on the primary, and the second path opens in the background */
  t2 = gst_st2022_transport_try_open (sink, kind, cfg2, required_caps,
      required_by, &link_err);
  if (t2 == NULL && link_err == NULL)
    goto failed;
  path_up[0] = TRUE;
  path_up[1] = t2 != NULL;
  if (t2) {
    GST_INFO_OBJECT (sink, "second path to %s:%u", cfg2->address, cfg2->port);
  } else {
    GST_INFO_OBJECT (sink, "second path to %s:%u not open: %s",
        cfg2->address, cfg2->port, link_err->message);
    gst_st2022_legs_post_path (sink, 1, FALSE, link_err->message);
  }
  t = vmi_transport_dual_new (t, t2,
      vmi_transport_lookup ((VmiTransportKind) kind), cfg, cfg2,
      link_err ? link_err->message : NULL);
  g_clear_error (&link_err);
  return t;

failed:
  vmi_transport_close (t);
  return NULL;
}

void
gst_st2022_legs_sink_check (GstElement * sink, VmiTransport * t,
    gboolean * was_up)
{
  guint i;

  if (!vmi_transport_is_dual (t))
    return;
  for (i = 0; i < 2; i++) {
    VmiTransportDualLeg leg;
    gchar *msg = NULL;

    vmi_transport_dual_get_leg (t, i, &leg, &msg);
    if (leg.up != was_up[i]) {
      was_up[i] = leg.up;
      gst_st2022_legs_post_path (sink, i, leg.up, msg ? msg : "send failed");
    }
    g_free (msg);
  }
}

void
gst_st2022_legs_sink_add_stats (VmiTransport * t, GstStructure * s)
{
  VmiTransportDualLeg p, q;

  if (!vmi_transport_is_dual (t))
    return;
  vmi_transport_dual_get_leg (t, 0, &p, NULL);
  vmi_transport_dual_get_leg (t, 1, &q, NULL);
  gst_structure_set (s,
      "packets-primary", G_TYPE_UINT64, p.sent,
      "packets-secondary", G_TYPE_UINT64, q.sent,
      "packets-failed-primary", G_TYPE_UINT64, p.failed,
      "packets-failed-secondary", G_TYPE_UINT64, q.failed,
      "path-failures-primary", G_TYPE_UINT64, p.failures,
      "path-failures-secondary", G_TYPE_UINT64, q.failures,
      "path-reopens-primary", G_TYPE_UINT64, p.reopens,
      "path-reopens-secondary", G_TYPE_UINT64, q.reopens, NULL);
}
