/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Ring memory of the sliced raster writer (plain C, GLib): @size bytes
 * mapped twice back to back, so that any range of up to @size bytes from
 * anywhere in the first copy is contiguous. A raster line or a datagram
 * payload that wraps around the ring's end is then one piece for the
 * writer, the packetizer and the NIC. */

#ifndef __VMI_TX_RING_H__
#define __VMI_TX_RING_H__

#include <glib.h>

G_BEGIN_DECLS

/* @size: a multiple of the page size. NULL with @error when the kernel
 * refuses (no memfd_create, no address space). */
guint8 *vmi_tx_ring_map (gsize size, GError ** error);
void vmi_tx_ring_unmap (guint8 * base, gsize size);

G_END_DECLS

#endif /* __VMI_TX_RING_H__ */
