/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Demultiplexing table of a shared receive engine (pure C, GLib only):
 * which stream a datagram belongs to, by its destination IPv4 address and
 * UDP port. A stream registered with address 0 takes its port on any
 * address (a unicast receiver bound to 0.0.0.0) unless a stream has that
 * exact address and port.
 *
 * Open addressing in a fixed array: a lookup is a hash, a compare and
 * (rarely) a probe, with no allocation and no lock. The table belongs to
 * one thread (the engine's); adding and removing happen there too,
 * between bursts (a removal rebuilds the table: joins and leaves are rare,
 * lookups are per datagram). */

#ifndef __VMI_RX_DEMUX_H__
#define __VMI_RX_DEMUX_H__

#include <glib.h>

G_BEGIN_DECLS

/* streams one table holds; the slots are twice as many */
#define VMI_RX_DEMUX_MAX 64
#define VMI_RX_DEMUX_SLOTS (2 * VMI_RX_DEMUX_MAX)
#define VMI_RX_DEMUX_NONE G_MAXUINT

typedef struct
{
  guint32 addr;                 /* network order; 0 = any address */
  guint16 port;                 /* host order */
  guint16 used;                 /* 0 free, 1 used */
  guint id;
} VmiRxDemuxEntry;

typedef struct
{
  VmiRxDemuxEntry e[VMI_RX_DEMUX_SLOTS];
  guint n;                      /* streams in the table */
  guint n_any;                  /* of them, with address 0 */
} VmiRxDemux;

void vmi_rx_demux_init (VmiRxDemux * d);

/* FALSE when @addr:@port is taken already (by any id) or the table is
 * full */
gboolean vmi_rx_demux_add (VmiRxDemux * d, guint32 addr, guint16 port,
    guint id);

/* Removes the stream @id (every entry of it); FALSE when there was none */
gboolean vmi_rx_demux_remove (VmiRxDemux * d, guint id);

static inline guint
vmi_rx_demux_slot (guint32 addr, guint16 port)
{
  guint32 h = (addr ^ ((guint32) port << 16 | port)) * 0x9e3779b1u;
  return h >> 25;               /* 7 bits: VMI_RX_DEMUX_SLOTS */
}

static inline guint
vmi_rx_demux_find_exact (const VmiRxDemux * d, guint32 addr, guint16 port)
{
  guint i = vmi_rx_demux_slot (addr, port), k;

  for (k = 0; k < VMI_RX_DEMUX_SLOTS; k++) {
    const VmiRxDemuxEntry *e = &d->e[(i + k) & (VMI_RX_DEMUX_SLOTS - 1)];

    if (e->used == 0)
      return VMI_RX_DEMUX_NONE;
    if (e->addr == addr && e->port == port)
      return e->id;
  }
  return VMI_RX_DEMUX_NONE;
}

/* The stream of a datagram to @addr:@port, or VMI_RX_DEMUX_NONE */
static inline guint
vmi_rx_demux_lookup (const VmiRxDemux * d, guint32 addr, guint16 port)
{
  guint id = vmi_rx_demux_find_exact (d, addr, port);

  if (G_UNLIKELY (id == VMI_RX_DEMUX_NONE) && d->n_any > 0)
    id = vmi_rx_demux_find_exact (d, 0, port);
  return id;
}

G_END_DECLS

#endif /* __VMI_RX_DEMUX_H__ */
