/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frame memory a device can DMA: the hook table (see vmi-dma.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-dma.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct
{
  guint8 *mem;
  gsize size;
  VmiDmaHooks hooks;            /* the ones that registered it */
  gpointer user_data;
} Region;

static GMutex lock;
static gboolean have_hooks;
static VmiDmaHooks hooks;
static gpointer hooks_data;
/* few (one per frame buffer): a linear scan is cheaper than a tree, and
 * lookups happen per frame, not per datagram */
static GArray *regions;
static VmiDmaStats stats;
static gchar *first_failure;

void
vmi_dma_set_hooks (const VmiDmaHooks * h, gpointer user_data)
{
  g_mutex_lock (&lock);
  have_hooks = h != NULL;
  if (h)
    hooks = *h;
  else
    memset (&hooks, 0, sizeof (hooks));
  hooks_data = user_data;
  g_mutex_unlock (&lock);
}

gboolean
vmi_dma_has_hooks (void)
{
  gboolean r;

  g_mutex_lock (&lock);
  r = have_hooks;
  g_mutex_unlock (&lock);
  return r;
}

gboolean
vmi_dma_register (gpointer mem, gsize size, gsize page_size)
{
  gchar *reason = NULL;
  Region r;
  gboolean ok;

  g_return_val_if_fail (mem != NULL && size > 0, FALSE);
  g_mutex_lock (&lock);
  if (!have_hooks || hooks.register_memory == NULL) {
    g_mutex_unlock (&lock);
    return FALSE;
  }
  /* under the lock: DPDK's registration is not reentrant for one range,
   * and the table must agree with what the hook holds */
  ok = hooks.register_memory (mem, size, page_size, hooks_data, &reason);
  if (ok) {
    if (regions == NULL)
      regions = g_array_new (FALSE, FALSE, sizeof (Region));
    r.mem = mem;
    r.size = size;
    r.hooks = hooks;
    r.user_data = hooks_data;
    g_array_append_val (regions, r);
    stats.regions++;
    stats.bytes += size;
    stats.registrations++;
  } else {
    stats.failures++;
    if (first_failure == NULL)
      first_failure = reason ? reason : g_strdup ("refused");
    else
      g_free (reason);
  }
  g_mutex_unlock (&lock);
  return ok;
}

void
vmi_dma_unregister (gpointer mem)
{
  guint i;

  g_mutex_lock (&lock);
  for (i = 0; regions && i < regions->len; i++) {
    Region *r = &g_array_index (regions, Region, i);

    if (r->mem != mem)
      continue;
    if (r->hooks.unregister_memory)
      r->hooks.unregister_memory (r->mem, r->size, r->user_data);
    stats.regions--;
    stats.bytes -= r->size;
    g_array_remove_index_fast (regions, i);
    break;
  }
  g_mutex_unlock (&lock);
}

gboolean
vmi_dma_contains (gconstpointer p, gsize len)
{
  const guint8 *b = p;
  gboolean found = FALSE;
  guint i;

  g_mutex_lock (&lock);
  for (i = 0; regions && i < regions->len && !found; i++) {
    Region *r = &g_array_index (regions, Region, i);
    found = b >= r->mem && len <= r->size && (gsize) (b - r->mem) <=
        r->size - len;
  }
  g_mutex_unlock (&lock);
  return found;
}

static gsize
page_round (gsize size)
{
  gsize pg = (gsize) sysconf (_SC_PAGESIZE);

  return (size + pg - 1) / pg * pg;
}

gpointer
vmi_dma_alloc (gsize size, gboolean * registered)
{
  gsize len = page_round (MAX (size, 1));
  gpointer mem = mmap (NULL, len, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  gboolean reg;

  if (mem == MAP_FAILED)
    return NULL;
  reg = vmi_dma_register (mem, len, (gsize) sysconf (_SC_PAGESIZE));
  if (registered)
    *registered = reg;
  return mem;
}

void
vmi_dma_free (gpointer mem, gsize size)
{
  if (mem == NULL)
    return;
  vmi_dma_unregister (mem);
  munmap (mem, page_round (MAX (size, 1)));
}

void
vmi_dma_get_stats (VmiDmaStats * s)
{
  g_mutex_lock (&lock);
  *s = stats;
  g_mutex_unlock (&lock);
}

const gchar *
vmi_dma_get_failure (void)
{
  const gchar *f;

  g_mutex_lock (&lock);
  f = first_failure;
  g_mutex_unlock (&lock);
  return f;
}
