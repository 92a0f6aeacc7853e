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

#include "gstst2022common.h"
#include "st2022/st2022.h"

#include <string.h>

G_DEFINE_ENUM_TYPE (GstSt2022Transport, gst_st2022_transport,
    G_DEFINE_ENUM_VALUE (GST_ST2022_TRANSPORT_SOCKET, "socket"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_TRANSPORT_PACKET, "packet"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_TRANSPORT_DPDK, "dpdk"));

G_DEFINE_ENUM_TYPE (GstSt2022Pacing, gst_st2022_pacing,
    G_DEFINE_ENUM_VALUE (GST_ST2022_PACING_NONE, "none"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_PACING_SOFTWARE, "software"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_PACING_PA_FREE_RUNNING,
        "pa-free-running"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_PACING_PA_CONTROLLED, "pa-controlled"));

G_DEFINE_ENUM_TYPE (GstSt2022GapFrame, gst_st2022_gap_frame,
    G_DEFINE_ENUM_VALUE (GST_ST2022_GAP_FRAME_MAC_CONTROL, "mac-control"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_GAP_FRAME_PAUSE, "pause"));

G_DEFINE_ENUM_TYPE (GstSt2022Underrun, gst_st2022_underrun,
    G_DEFINE_ENUM_VALUE (GST_ST2022_UNDERRUN_REPEAT, "repeat"),
    G_DEFINE_ENUM_VALUE (GST_ST2022_UNDERRUN_GAP, "gap"));

#define DEFAULT_PROP_TRANSPORT GST_ST2022_TRANSPORT_SOCKET
#define DEFAULT_PROP_IFACE NULL
#define DEFAULT_PROP_DPDK_EAL_ARGS NULL
#define DEFAULT_PROP_DPDK_PORT 0
#define DEFAULT_PROP_STATS_INTERVAL 1000

void
gst_st2022_common_install_properties (GObjectClass * klass, guint first_id)
{
  /**
   * GstSt2022Sink:transport:
   *
   * How datagrams leave the host: `socket` (kernel UDP, works everywhere),
   * `packet` (AF_PACKET raw frames on `iface`, root or CAP_NET_RAW), `dpdk`
   * (kernel bypass, when built with DPDK). A transport this build lacks
   * fails the state change with an error saying what to use.
   */
  /**
   * GstSt2022Src:transport:
   *
   * How datagrams reach the element: `socket` (kernel UDP, works
   * everywhere), `packet` (AF_PACKET on `iface`, root or CAP_NET_RAW),
   * `dpdk` (kernel bypass, when built with DPDK). A transport this build
   * lacks fails the state change with an error saying what to use.
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_COMMON_PROP_TRANSPORT,
      g_param_spec_enum ("transport", "Transport",
          "How datagrams move: socket (kernel UDP), packet (AF_PACKET), dpdk",
          GST_TYPE_ST2022_TRANSPORT, DEFAULT_PROP_TRANSPORT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:iface:
   *
   * Network interface of the `packet` transport.
   */
  /**
   * GstSt2022Src:iface:
   *
   * Network interface of the `packet` transport.
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_COMMON_PROP_IFACE,
      g_param_spec_string ("iface", "Interface",
          "transport=packet: network interface (eth0); transport=dpdk: DPDK "
          "device name of the port (net_ring0, 0000:01:00.0), instead of "
          "dpdk-port", DEFAULT_PROP_IFACE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:dpdk-eal-args:
   *
   * DPDK EAL arguments (transport=dpdk).
   */
  /**
   * GstSt2022Src:dpdk-eal-args:
   *
   * DPDK EAL arguments (transport=dpdk).
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_COMMON_PROP_DPDK_EAL_ARGS,
      g_param_spec_string ("dpdk-eal-args", "DPDK EAL arguments",
          "DPDK EAL arguments (transport=dpdk)", DEFAULT_PROP_DPDK_EAL_ARGS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:dpdk-port:
   *
   * DPDK port id (transport=dpdk).
   */
  /**
   * GstSt2022Src:dpdk-port:
   *
   * DPDK port id (transport=dpdk).
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_COMMON_PROP_DPDK_PORT,
      g_param_spec_int ("dpdk-port", "DPDK port",
          "transport=dpdk: DPDK port id (iface names the port instead)", 0,
          G_MAXUINT16, DEFAULT_PROP_DPDK_PORT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  /**
   * GstSt2022Sink:stats-interval:
   *
   * Interval in ms between `st2022-stats` element messages (0 = only at
   * EOS).
   */
  /**
   * GstSt2022Src:stats-interval:
   *
   * Interval in ms between `st2022-stats` element messages (0 = only at
   * EOS).
   */
  g_object_class_install_property (klass,
      first_id + GST_ST2022_COMMON_PROP_STATS_INTERVAL,
      g_param_spec_uint ("stats-interval", "Statistics interval",
          "Milliseconds between st2022-stats messages (0 = only at EOS)", 0,
          G_MAXUINT, DEFAULT_PROP_STATS_INTERVAL, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS));
}

void
gst_st2022_common_settings_init (GstSt2022CommonSettings * s)
{
  s->transport = DEFAULT_PROP_TRANSPORT;
  s->iface = g_strdup (DEFAULT_PROP_IFACE);
  s->dpdk_eal_args = g_strdup (DEFAULT_PROP_DPDK_EAL_ARGS);
  s->dpdk_port = DEFAULT_PROP_DPDK_PORT;
  s->stats_interval = DEFAULT_PROP_STATS_INTERVAL;
}

void
gst_st2022_common_settings_clear (GstSt2022CommonSettings * s)
{
  g_clear_pointer (&s->iface, g_free);
  g_clear_pointer (&s->dpdk_eal_args, g_free);
}

gboolean
gst_st2022_common_set_property (GstSt2022CommonSettings * s, guint first_id,
    guint prop_id, const GValue * value)
{
  if (prop_id < first_id)
    return FALSE;
  switch (prop_id - first_id) {
    case GST_ST2022_COMMON_PROP_TRANSPORT:
      s->transport = g_value_get_enum (value);
      break;
    case GST_ST2022_COMMON_PROP_IFACE:
      g_free (s->iface);
      s->iface = g_value_dup_string (value);
      break;
    case GST_ST2022_COMMON_PROP_DPDK_EAL_ARGS:
      g_free (s->dpdk_eal_args);
      s->dpdk_eal_args = g_value_dup_string (value);
      break;
    case GST_ST2022_COMMON_PROP_DPDK_PORT:
      s->dpdk_port = g_value_get_int (value);
      break;
    case GST_ST2022_COMMON_PROP_STATS_INTERVAL:
      s->stats_interval = g_value_get_uint (value);
      break;
    default:
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_st2022_common_get_property (const GstSt2022CommonSettings * s,
    guint first_id, guint prop_id, GValue * value)
{
  if (prop_id < first_id)
    return FALSE;
  switch (prop_id - first_id) {
    case GST_ST2022_COMMON_PROP_TRANSPORT:
      g_value_set_enum (value, s->transport);
      break;
    case GST_ST2022_COMMON_PROP_IFACE:
      g_value_set_string (value, s->iface);
      break;
    case GST_ST2022_COMMON_PROP_DPDK_EAL_ARGS:
      g_value_set_string (value, s->dpdk_eal_args);
      break;
    case GST_ST2022_COMMON_PROP_DPDK_PORT:
      g_value_set_int (value, s->dpdk_port);
      break;
    case GST_ST2022_COMMON_PROP_STATS_INTERVAL:
      g_value_set_uint (value, s->stats_interval);
      break;
    default:
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_st2022_common_stats_due (GstElement * element,
    const GstSt2022CommonSettings * s, GstClockTime * last_post,
    GstClockTime now)
{
  guint interval;

  GST_OBJECT_LOCK (element);
  interval = s->stats_interval;
  GST_OBJECT_UNLOCK (element);

  if (interval == 0 || !GST_CLOCK_TIME_IS_VALID (now))
    return FALSE;
  if (!GST_CLOCK_TIME_IS_VALID (*last_post) || now < *last_post) {
    *last_post = now;
    return FALSE;
  }
  if (now - *last_post < interval * GST_MSECOND)
    return FALSE;
  *last_post = now;
  return TRUE;
}

GstStructure *
gst_st2022_stats_to_structure (const GstSt2022Stats * s, gboolean is_sink)
{
  GstStructure *st;

  /* each element reports what it can know: a sender loses, reorders or
   * conceals nothing, so those fields are the receiver's only */
  if (is_sink)
    return gst_structure_new (GST_ST2022_STATS_NAME,
        "packets", G_TYPE_UINT64, s->packets,
        "frames", G_TYPE_UINT64, s->frames,
        "bytes", G_TYPE_UINT64, s->bytes,
        "frames-late", G_TYPE_UINT64, s->frames_late,
        "underruns", G_TYPE_UINT64, s->underruns,
        "frames-repeated", G_TYPE_UINT64, s->frames_repeated,
        "gap-frames", G_TYPE_UINT64, s->gap_frames,
        "gap-bytes", G_TYPE_UINT64, s->gap_bytes,
        "zerocopy-done", G_TYPE_UINT64, s->zerocopy_done,
        "zerocopy-copied", G_TYPE_UINT64, s->zerocopy_copied, NULL);
  st = gst_structure_new (GST_ST2022_STATS_NAME,
      "packets", G_TYPE_UINT64, s->packets,
      "packets-lost", G_TYPE_UINT64, s->packets_lost,
      "packets-reordered", G_TYPE_UINT64, s->packets_reordered,
      "packets-duplicate", G_TYPE_UINT64, s->packets_duplicate,
      "packets-invalid", G_TYPE_UINT64, s->packets_invalid,
      "frames", G_TYPE_UINT64, s->frames,
      "frames-corrupted", G_TYPE_UINT64, s->frames_corrupted,
      "frames-dropped", G_TYPE_UINT64, s->frames_dropped,
      "bytes", G_TYPE_UINT64, s->bytes, NULL);
  return st;
}

VmiTransport *
gst_st2022_transport_open (GstElement * element, GstSt2022Transport kind,
    const VmiTransportConfig * config, guint required_caps,
    const gchar * required_by)
{
  return gst_st2022_transport_try_open (element, kind, config, required_caps,
      required_by, NULL);
}

VmiTransport *
gst_st2022_transport_try_open (GstElement * element, GstSt2022Transport kind,
    const VmiTransportConfig * config, guint required_caps,
    const gchar * required_by, GError ** link_error)
{
  const VmiTransportClass *klass;
  const gchar *name, *warning;
  VmiTransport *t;
  GError *err = NULL;

  name = gst_st2022_transport_nick (kind);
  klass = vmi_transport_lookup ((VmiTransportKind) kind);
  if (klass == NULL)
    goto not_built;
  if (!vmi_transport_class_has_caps (klass, required_caps))
    goto lacks_caps;

  t = klass->open (config, &err);
  if (t == NULL)
    goto open_failed;
  warning = vmi_transport_get_warning (t);
  if (warning)
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS, ("%s", warning),
        ("transport %s", klass->name));
  return t;

  /* ERRORS */
not_built:
  {
    if (kind == GST_ST2022_TRANSPORT_DPDK)
      GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
          ("transport=dpdk is not in this build: install libdpdk-dev and "
              "rebuild with -Ddpdk=enabled, or use transport=packet "
              "(AF_PACKET) or transport=socket"), (NULL));
    else
      GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
          ("transport=%s is not in this build; use transport=socket", name),
          (NULL));
    return NULL;
  }
lacks_caps:
  {
    guint missing = required_caps & ~klass->caps;
    GString *with = g_string_new (NULL);
    guint i;

    for (i = 0; i < 3; i++) {
      const VmiTransportClass *c = vmi_transport_lookup (i);
      if (vmi_transport_class_has_caps (c, required_caps))
        g_string_append_printf (with, "%stransport=%s", with->len ? " or " :
            "", c->name);
    }
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        ("%s needs a transport that %s; transport=%s cannot: use %s",
            required_by, (missing & VMI_TRANSPORT_CAP_GAP_FRAMES) ?
            "sends raw Ethernet frames back to back (gap frames)" :
            "lets the network device read the frames in place (zero-copy "
            "send)", name, with->len ? with->str :
            "another combination of settings (no transport in this build "
            "has all of them)"), (NULL));
    g_string_free (with, TRUE);
    return NULL;
  }
open_failed:
  {
    if (link_error && err->code == VMI_TRANSPORT_ERROR_LINK) {
      g_propagate_error (link_error, err);
      return NULL;
    }
    if (err->code == VMI_TRANSPORT_ERROR_ADDRESS
        || err->code == VMI_TRANSPORT_ERROR_LINK)
      GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
          ("%s", err->message), ("transport %s", klass->name));
    else if (err->code == VMI_TRANSPORT_ERROR_BUSY)
      GST_ELEMENT_ERROR (element, RESOURCE, BUSY,
          ("%s", err->message), ("transport %s", klass->name));
    else if (err->code == VMI_TRANSPORT_ERROR_PERMISSION)
      GST_ELEMENT_ERROR (element, RESOURCE, NOT_AUTHORIZED,
          ("%s", err->message), ("transport %s", klass->name));
    else if (config->direction == VMI_TRANSPORT_DIR_SEND)
      GST_ELEMENT_ERROR (element, RESOURCE, OPEN_WRITE,
          ("%s", err->message), ("transport %s", klass->name));
    else
      GST_ELEMENT_ERROR (element, RESOURCE, OPEN_READ,
          ("%s", err->message), ("transport %s", klass->name));
    g_clear_error (&err);
    return NULL;
  }
}

void
gst_st2022_transport_config_own_strings (VmiTransportConfig * cfg)
{
  vmi_transport_config_own_strings (cfg);
}

void
gst_st2022_transport_config_clear (VmiTransportConfig * cfg)
{
  vmi_transport_config_clear (cfg);
}

const gchar *
gst_st2022_transport_nick (GstSt2022Transport kind)
{
  GEnumClass *k = g_type_class_ref (GST_TYPE_ST2022_TRANSPORT);
  GEnumValue *v = g_enum_get_value (k, kind);
  const gchar *nick = v ? v->value_nick : "?";

  g_type_class_unref (k);
  return nick;
}

GstStructure *
gst_st2022_format_structure (const St2022Format * fmt)
{
  GstStructure *s;
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;

  g_value_init (&list, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_STRING);
  /* UYVP first: it is the wire's own packing, the preferred choice */
  g_value_set_static_string (&v, "UYVP");
  gst_value_list_append_value (&list, &v);
  g_value_set_static_string (&v, "v210");
  gst_value_list_append_value (&list, &v);
  g_value_unset (&v);

  s = gst_structure_new ("video/x-raw",
      "width", G_TYPE_INT, (gint) fmt->width,
      "height", G_TYPE_INT, (gint) fmt->height,
      "framerate", GST_TYPE_FRACTION, fmt->fps_n, fmt->fps_d, NULL);
  gst_structure_take_value (s, "format", &list);
  /* PsF: interleaved rows of one progressive picture, so no field order */
  if (fmt->bottom_field_first)
    gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "interleaved",
        "field-order", G_TYPE_STRING, "bottom-field-first", NULL);
  else if (fmt->psf)
    gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "interleaved",
        NULL);
  else if (fmt->interlaced)
    gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "interleaved",
        "field-order", G_TYPE_STRING, "top-field-first", NULL);
  else
    gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
        NULL);
  return s;
}

void
gst_st2022_format_set_colorimetry (GstStructure * s, const St2022Format * fmt)
{
  /* SD: BT.601 and 4:3 pictures of 720 samples (of which 704 are the 4:3
   * aperture): 10/11 at 525 lines, 12/11 at 625 */
  if (fmt->sd)
    gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION,
        fmt->total_lines == 525 ? 10 : 12, 11,
        "colorimetry", G_TYPE_STRING, "bt601", NULL);
  else
    gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
        "colorimetry", G_TYPE_STRING, "bt709", NULL);
}

GstCaps *
gst_st2022_supported_caps (void)
{
  static GstCaps *caps = NULL;

  if (g_once_init_enter (&caps)) {
    GstCaps *c = gst_caps_new_empty ();
    guint i;

    for (i = 0; i < st2022_format_count (); i++)
      c = gst_caps_merge_structure (c,
          gst_st2022_format_structure (st2022_format_get (i)));
    GST_MINI_OBJECT_FLAG_SET (c, GST_MINI_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&caps, c);
  }
  return gst_caps_ref (caps);
}

gchar *
gst_st2022_supported_formats_string (void)
{
  GString *str = g_string_new (NULL);
  guint i;

  for (i = 0; i < st2022_format_count (); i++) {
    const St2022Format *fmt = st2022_format_get (i);
    g_string_append_printf (str, "%s%s (%ux%u%s %d/%d)", i ? ", " : "",
        fmt->name, fmt->width, fmt->height,
        fmt->psf ? " PsF" : fmt->interlaced ? " interlaced" : "", fmt->fps_n,
        fmt->fps_d);
  }
  return g_string_free (str, FALSE);
}
