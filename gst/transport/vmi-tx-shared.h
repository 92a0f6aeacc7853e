/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Shared transmit engines (pure C, GLib only): transmit engines
 * (vmi-tx-engine.h) of one process that name the same engine (st2022sink
 * `shared-engine`) have their frames sent by one thread. Each engine keeps
 * its rasters, packetizer and transport; the thread merges the streams'
 * pacing deadlines (gst/pacing/vmi-tx-sched.h) and sends whichever
 * stream's run of datagrams is due first, so every stream stays paced on
 * its own frame period.
 *
 * Joining and leaving are requests the thread carries out between two
 * runs, so its hot loop takes no lock (a frame's start and end take its
 * engine's lock, as a thread of the engine's own does); an engine joins or
 * leaves while the others send. Once vmi_tx_shared_leave() has returned
 * the thread never touches that engine again. The last engine to leave
 * stops the thread. */

#ifndef __VMI_TX_SHARED_H__
#define __VMI_TX_SHARED_H__

#include "vmi-tx-engine.h"

G_BEGIN_DECLS

/* engines one shared engine serves */
#define VMI_TX_SHARED_MAX_STREAMS 64

typedef struct _VmiTxSharedMember VmiTxSharedMember;

/* Joins @e to the shared engine @name (started on first use, its thread
 * pinned to @cpu when >= 0). The engine sends on one port: @port_index /
 * @port_name (as VmiTransportConfig's dpdk_port / iface) must be the
 * first engine's. *@warning (may be NULL): advice for the user (another
 * tx-cpu than the engine's, no real-time priority for its thread). */
VmiTxSharedMember *vmi_tx_shared_join (const gchar * name, VmiTxEngine * e,
    gint port_index, const gchar * port_name, gint cpu, gchar ** warning,
    GError ** error);

/* Never from the shared thread */
void vmi_tx_shared_leave (VmiTxSharedMember * m);

/* @m's engine queued a frame (any thread: the one that wrote the raster).
 * When the engine is pinned, the calling thread is taken off the engine's
 * CPU the first time (unless it may run nowhere else), so the writers do
 * not compete with the engine for it. */
void vmi_tx_shared_kick (VmiTxSharedMember * m);

G_END_DECLS

#endif /* __VMI_TX_SHARED_H__ */
