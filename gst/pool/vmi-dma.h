/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frame memory a device can DMA, without a hard dependency on the code
 * that makes it so: a transport that sends straight out of frame memory
 * (the DPDK one, for a PCI NIC) installs a pair of hooks once, and from then
 * on every frame the vmi allocator (and the sink's rasters) allocates is
 * registered through them; memory allocated before, or memory the hook
 * refused, stays plain, and such a transport copies out of it.
 *
 * Regions are whole mappings (page-aligned start and length). Registration
 * happens when memory is allocated, never per frame. Thread-safe. */

#ifndef __VMI_DMA_H__
#define __VMI_DMA_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  /* Makes [mem, mem + size) usable for DMA (page-aligned; @page_size is the
   * size of the pages behind it). FALSE with a newly allocated *@reason
   * when it cannot. */
  gboolean (*register_memory) (gpointer mem, gsize size, gsize page_size,
      gpointer user_data, gchar ** reason);
  /* Undoes a registration that succeeded, before the memory is unmapped. */
  void (*unregister_memory) (gpointer mem, gsize size, gpointer user_data);
} VmiDmaHooks;

typedef struct
{
  guint regions;                /* registered now */
  guint64 bytes;                /* registered now */
  guint64 registrations;        /* successful, ever */
  guint64 failures;             /* refused by the hook, ever */
} VmiDmaStats;

/* Installs @hooks (copied; NULL removes them: memory registered so far is
 * still unregistered through the old hooks when it is freed). */
void vmi_dma_set_hooks (const VmiDmaHooks * hooks, gpointer user_data);
gboolean vmi_dma_has_hooks (void);

/* Registers a mapping through the hooks. TRUE when it is registered now;
 * FALSE without hooks or when they refused (counted, and the first
 * refusal's reason kept for vmi_dma_get_failure()). */
gboolean vmi_dma_register (gpointer mem, gsize size, gsize page_size);
/* Unregisters @mem if vmi_dma_register() registered it; else nothing. */
void vmi_dma_unregister (gpointer mem);
/* TRUE when [p, p + len) lies inside one registered region. */
gboolean vmi_dma_contains (gconstpointer p, gsize len);

/* Page-aligned anonymous memory of at least @size bytes, zeroed, registered
 * when hooks are installed (*@registered, may be NULL). NULL on failure. */
gpointer vmi_dma_alloc (gsize size, gboolean * registered);
void vmi_dma_free (gpointer mem, gsize size);

void vmi_dma_get_stats (VmiDmaStats * stats);
/* The first refusal's reason since the process started (NULL: none);
 * owned by the module. */
const gchar *vmi_dma_get_failure (void);

G_END_DECLS

#endif /* __VMI_DMA_H__ */
