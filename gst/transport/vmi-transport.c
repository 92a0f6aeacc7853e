/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The one table of transports this build has. A transport adds its class
 * here (behind its build condition) and nowhere else. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-transport.h"
#include "vmi-transport-private.h"

G_DEFINE_QUARK (vmi-transport-error-quark, vmi_transport_error);

static const VmiTransportClass *const transports[] = {
  &vmi_transport_socket_class,
  &vmi_transport_packet_class,
#ifdef HAVE_DPDK
  &vmi_transport_dpdk_class,
#endif
};

const VmiTransportClass *
vmi_transport_lookup (VmiTransportKind kind)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (transports); i++)
    if (transports[i]->kind == kind)
      return transports[i];
  return NULL;
}

const VmiTransportClass *
vmi_transport_lookup_by_name (const gchar * name)
{
  guint i;

  for (i = 0; name && i < G_N_ELEMENTS (transports); i++)
    if (g_strcmp0 (transports[i]->name, name) == 0)
      return transports[i];
  return NULL;
}

void
vmi_transport_config_own_strings (VmiTransportConfig * cfg)
{
  cfg->address = g_strdup (cfg->address);
  cfg->multicast_iface = g_strdup (cfg->multicast_iface);
  cfg->source_address = g_strdup (cfg->source_address);
  cfg->iface = g_strdup (cfg->iface);
  cfg->dpdk_eal_args = g_strdup (cfg->dpdk_eal_args);
  cfg->bind_address = g_strdup (cfg->bind_address);
  cfg->destination_mac = g_strdup (cfg->destination_mac);
}

void
vmi_transport_config_clear (VmiTransportConfig * cfg)
{
  g_free ((gchar *) cfg->address);
  g_free ((gchar *) cfg->multicast_iface);
  g_free ((gchar *) cfg->source_address);
  g_free ((gchar *) cfg->iface);
  g_free ((gchar *) cfg->dpdk_eal_args);
  g_free ((gchar *) cfg->bind_address);
  g_free ((gchar *) cfg->destination_mac);
  memset (cfg, 0, sizeof (*cfg));
}
