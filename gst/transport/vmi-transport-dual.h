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
 * A path that cannot send is counted and marked down; the other goes on.
 * A path whose queue stalls (no carrier) or whose send fails for want of
 * a route is tried again with every burst.  A path whose interface went
 * down or away (VMI_TRANSPORT_ERROR_LINK: ENETDOWN, ENODEV, ENXIO) or that
 * could not open at all (its interface missing or down at start, its
 * address not on the host) has its transport closed and opened again in
 * the background
 * (vmi-transport-reopen.h); the sending thread takes the new one with one
 * atomic read at its next burst.  Only when both fail does send_burst()
 * fail. */

#ifndef __VMI_TRANSPORT_DUAL_H__
#define __VMI_TRANSPORT_DUAL_H__

#include "vmi-transport.h"

G_BEGIN_DECLS

/* the retry period of a path that is being opened again (µs) */
#define VMI_TRANSPORT_DUAL_RETRY_US (250 * 1000)

typedef struct
{
  gboolean up;                  /* its last send worked */
  gboolean open;                /* it has a transport (not reopening) */
  guint64 sent;                 /* datagrams (gap entries too) sent */
  guint64 failed;               /* datagrams not sent: its send failed,
                                 * or it had no transport */
  guint64 failures;             /* times it went down */
  guint64 reopens;              /* times its transport was opened again */
} VmiTransportDualLeg;

/* Takes @primary (SEND, opened) and @secondary (opened, or NULL when it
 * could not open: it starts down, @secondary_error says why, and is opened
 * in the background). @klass and @cfg (both paths' settings, copied)
 * reopen a path. NULL-safe close closes both. */
VmiTransport *vmi_transport_dual_new (VmiTransport * primary,
    VmiTransport * secondary, const VmiTransportClass * klass,
    const VmiTransportConfig * cfg_primary,
    const VmiTransportConfig * cfg_secondary, const gchar * secondary_error);

/* TRUE when @t is a dual transport */
gboolean vmi_transport_is_dual (VmiTransport * t);

/* The path @leg (0 primary, 1 secondary) of @t (any thread); @error_msg
 * (optional, free it) gets the last send or open error of that path. */
void vmi_transport_dual_get_leg (VmiTransport * t, guint leg,
    VmiTransportDualLeg * out, gchar ** error_msg);

/* The local UDP port path @leg sends from (any thread; 0 while it has no
 * transport, or its transport cannot tell).  A path opened again keeps
 * the port it first had when the transport can bind it. */
guint16 vmi_transport_dual_get_local_port (VmiTransport * t, guint leg);

G_END_DECLS

#endif /* __VMI_TRANSPORT_DUAL_H__ */
