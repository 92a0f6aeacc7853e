/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "vmi-rx-demux.h"

#include <string.h>

void
vmi_rx_demux_init (VmiRxDemux * d)
{
  memset (d, 0, sizeof (*d));
}

gboolean
vmi_rx_demux_add (VmiRxDemux * d, guint32 addr, guint16 port, guint id)
{
  guint i = vmi_rx_demux_slot (addr, port), k;

  if (d->n >= VMI_RX_DEMUX_MAX || id == VMI_RX_DEMUX_NONE
      || vmi_rx_demux_find_exact (d, addr, port) != VMI_RX_DEMUX_NONE)
    return FALSE;
  for (k = 0; k < VMI_RX_DEMUX_SLOTS; k++) {
    VmiRxDemuxEntry *e = &d->e[(i + k) & (VMI_RX_DEMUX_SLOTS - 1)];

    if (e->used == 0) {
      e->addr = addr;
      e->port = port;
      e->id = id;
      e->used = 1;
      d->n++;
      if (addr == 0)
        d->n_any++;
      return TRUE;
    }
  }
  return FALSE;
}

gboolean
vmi_rx_demux_remove (VmiRxDemux * d, guint id)
{
  VmiRxDemuxEntry keep[VMI_RX_DEMUX_SLOTS];
  guint i, n = 0;
  gboolean found = FALSE;

  for (i = 0; i < VMI_RX_DEMUX_SLOTS; i++) {
    if (d->e[i].used != 1)
      continue;
    if (d->e[i].id == id)
      found = TRUE;
    else
      keep[n++] = d->e[i];
  }
  if (!found)
    return FALSE;
  /* rebuilt from the others: no tombstone lengthens a probe chain, however
   * many streams came and went */
  vmi_rx_demux_init (d);
  for (i = 0; i < n; i++)
    vmi_rx_demux_add (d, keep[i].addr, keep[i].port, keep[i].id);
  return TRUE;
}
