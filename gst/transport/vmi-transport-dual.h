/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* ST 2022-7 sending: one VmiTransport made of two (the primary and the
 * secondary path), so the transmit engine sends every burst, gap entries
 * included, on both and each path's device paces its own copy.
 *
 * A path whose send fails (link down, network unreachable) is counted and
 * marked down; the other goes on, and the failing one is tried again with
 * every burst.  Only when both fail does send_burst() fail. */

#ifndef __VMI_TRANSPORT_DUAL_H__
#define __VMI_TRANSPORT_DUAL_H__

#include "vmi-transport.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean up;                  /* its last send worked */
  guint64 sent;                 /* datagrams (gap entries too) sent */
  guint64 failed;               /* datagrams not sent: its send failed */
  guint64 failures;             /* times it went down */
} VmiTransportDualLeg;

/* Takes both transports (SEND, opened); NULL-safe close closes both. */
VmiTransport *vmi_transport_dual_new (VmiTransport * primary,
    VmiTransport * secondary);

/* TRUE when @t is a dual transport */
gboolean vmi_transport_is_dual (VmiTransport * t);

/* The path @leg (0 primary, 1 secondary) of @t (any thread); @error_msg
 * (optional, free it) gets the last send error of that path. */
void vmi_transport_dual_get_leg (VmiTransport * t, guint leg,
    VmiTransportDualLeg * out, gchar ** error_msg);

/* The transport of path @leg (borrowed) */
VmiTransport *vmi_transport_dual_leg (VmiTransport * t, guint leg);

G_END_DECLS

#endif /* __VMI_TRANSPORT_DUAL_H__ */
