/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Shared receive engines (pure C, GLib only): receivers of one process
 * that name the same engine (st2022src `shared-engine`) share one receive
 * thread and one transport opened with VmiTransportConfig.demux; the
 * transport tells each datagram's stream (VmiRxSlot.stream) and the
 * thread hands each receiver its datagrams, in the order they came.
 *
 * Joining and leaving are requests the engine thread carries out between
 * two bursts, so its hot loop takes no lock; a receiver joins or leaves
 * while the others receive. Once vmi_rx_engine_leave() has returned the
 * engine never calls that receiver again. The last receiver to leave
 * stops the thread and closes the transport. */

#ifndef __VMI_RX_ENGINE_H__
#define __VMI_RX_ENGINE_H__

#include "vmi-transport.h"

G_BEGIN_DECLS

/* receivers one engine serves */
#define VMI_RX_ENGINE_MAX_STREAMS 64
/* the longest a receiver waits for a call: its clock for timeouts and
 * statistics while its stream is silent */
#define VMI_RX_ENGINE_TICK_US 20000

/* Called on the engine thread with @n datagrams of the receiver's stream
 * (valid until it returns), with @n = 0 at least every
 * VMI_RX_ENGINE_TICK_US, or with @error set (the transport failed: the
 * engine receives nothing more). @t: the engine's transport (statistics). */
typedef void (*VmiRxEngineFunc) (gpointer user_data, VmiTransport * t,
    const VmiRxSlot * slots, guint n, const GError * error);

typedef struct _VmiRxEngineMember VmiRxEngineMember;

/* Joins the engine @name (created on first use: @klass opened with @cfg
 * and `demux`, its thread pinned to @cpu when >= 0, then at SCHED_FIFO
 * priority 10 where allowed, sleeping 20 us whenever it finds nothing to
 * receive) with the stream @cfg
 * describes. Fails when @klass has no VMI_TRANSPORT_CAP_DEMUX, when the
 * engine runs another transport, or when the transport cannot take the
 * stream (the same address and port twice, ...). *@warning (may be NULL):
 * advice for the user (another rx-cpu than the engine's, a pinned engine
 * without real-time priority, the transport's warning). */
VmiRxEngineMember *vmi_rx_engine_join (const gchar * name,
    const VmiTransportClass * klass, const VmiTransportConfig * cfg,
    gint cpu, VmiRxEngineFunc func, gpointer user_data, gchar ** warning,
    GError ** error);

/* Never from the engine thread (a VmiRxEngineFunc) */
void vmi_rx_engine_leave (VmiRxEngineMember * m);

/* Once per member, from a thread whose locks the member's VmiRxEngineFunc
 * takes (the receiver's streaming thread): takes the CPU of a pinned
 * real-time engine out of the calling thread's affinity (when it has
 * others). On that CPU the engine would preempt the thread while it holds
 * such a lock, then block on it while the scheduler runs any other thread
 * first: every stream's datagrams wait for milliseconds. */
void vmi_rx_engine_keep_off_cpu (VmiRxEngineMember * m);

/* Receivers the engine @name serves now (0: no such engine) */
guint vmi_rx_engine_count (const gchar * name);

G_END_DECLS

#endif /* __VMI_RX_ENGINE_H__ */
