/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* DNS-SD discovery of IS-04 Registration APIs for the node's registration
 * thread: a one-shot multicast DNS browse (RFC 6762 §5.1) of
 * _nmos-register._tcp and the legacy _nmos-registration._tcp from an
 * ephemeral port, so it needs no daemon and works beside one (Avahi,
 * mDNSResponder) that holds port 5353. The packets are the pure-C core's
 * (vmi-dnssd.h); this file only does the sockets. */

#ifndef __VMI_NMOS_DISCOVERY_H__
#define __VMI_NMOS_DISCOVERY_H__

#include <glib.h>

G_BEGIN_DECLS

/* Browses for at most about 2 s (sooner when @stop becomes non-zero) on
 * every up, multicast-capable IPv4 interface and fills @urls (gchar *,
 * "http://192.0.2.1:8235") with the usable Registration APIs in IS-04's
 * order (TXT pri lowest first, random among equals, pri >= 100 only with
 * @allow_development, api_ver with v1.3, api_proto http(s), api_auth not
 * true). Returns the number of advertisements seen, usable or not. */
guint vmi_nmos_discover_registries (GPtrArray * urls,
    gboolean allow_development, const gint * stop);

G_END_DECLS

#endif /* __VMI_NMOS_DISCOVERY_H__ */
