/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The transport classes, for the registry in vmi-transport.c only: the
 * elements reach a transport through vmi_transport_lookup(). */

#ifndef __VMI_TRANSPORT_PRIVATE_H__
#define __VMI_TRANSPORT_PRIVATE_H__

#include "vmi-transport.h"

G_BEGIN_DECLS

extern const VmiTransportClass vmi_transport_socket_class;
extern const VmiTransportClass vmi_transport_packet_class;
/* gst/transport/dpdk/vmi-transport-dpdk.c, when HAVE_DPDK */
extern const VmiTransportClass vmi_transport_dpdk_class;

G_END_DECLS

#endif /* __VMI_TRANSPORT_PRIVATE_H__ */
