/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A transport opened again in the background: an ST 2022-7 path whose
 * interface is missing or down, or went away while in use.
 *
 * Opening can take long (a packet ring of tens of MB mapped and touched,
 * a second of ARP), so it never runs on the thread that uses the
 * transport (a receive thread, a pacing thread): a thread of its own
 * tries every @retry_us and leaves what it opened for that thread to take
 * with one atomic read, lock free while there is nothing (the hot loops'
 * cost).  One thread per VmiTransportReopen, made by new() (so it opens in
 * the network namespace of the thread that opened the first transport)
 * and idle between outages. */

#ifndef __VMI_TRANSPORT_REOPEN_H__
#define __VMI_TRANSPORT_REOPEN_H__

#include "vmi-transport.h"

G_BEGIN_DECLS

typedef struct _VmiTransportReopen VmiTransportReopen;

/* Opens @klass with @cfg (copied) when started; @thread_name names the
 * thread (at most 15 characters show). */
VmiTransportReopen *vmi_transport_reopen_new (const VmiTransportClass * klass,
    const VmiTransportConfig * cfg, gint64 retry_us,
    const gchar * thread_name);

/* Any thread: the settings later opens use (@cfg copied), e.g. the second
 * leg an IS-05 activation retargeted. */
void vmi_transport_reopen_set_config (VmiTransportReopen * r,
    const VmiTransportConfig * cfg);

/* Any thread: opening starts (a first try after @retry_us); @dead, the
 * transport that failed (or NULL), is closed on the opener's thread
 * first.  Starting while already started only hands over @dead. */
void vmi_transport_reopen_start (VmiTransportReopen * r, VmiTransport * dead);

/* Any thread: opening stops (until started again); a transport opened and
 * not taken is closed. */
void vmi_transport_reopen_cancel (VmiTransportReopen * r);

/* The transport once opened (the caller's from then on; opening stops
 * until started again), else NULL: one atomic read. */
VmiTransport *vmi_transport_reopen_take (VmiTransportReopen * r);

/* Why the last try failed (free it), NULL when none has */
gchar *vmi_transport_reopen_get_error (VmiTransportReopen * r);

/* Tries that failed since new (any thread) */
guint vmi_transport_reopen_get_tries (VmiTransportReopen * r);

/* Stops the thread; closes what was opened and not taken.  NULL-safe. */
void vmi_transport_reopen_free (VmiTransportReopen * r);

G_END_DECLS

#endif /* __VMI_TRANSPORT_REOPEN_H__ */
