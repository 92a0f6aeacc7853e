/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Named engines of a process (see vmi-engine-registry.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-engine-registry.h"

void
vmi_engine_registry_lock (VmiEngineRegistry * r)
{
  g_mutex_lock (&r->lock);
}

void
vmi_engine_registry_unlock (VmiEngineRegistry * r)
{
  g_mutex_unlock (&r->lock);
}

VmiEngineEntry *
vmi_engine_registry_find (VmiEngineRegistry * r, const gchar * name)
{
  return r->engines ? g_hash_table_lookup (r->engines, name) : NULL;
}

void
vmi_engine_registry_add (VmiEngineRegistry * r, VmiEngineEntry * engine)
{
  g_return_if_fail (engine->name != NULL);
  if (r->engines == NULL)
    r->engines = g_hash_table_new (g_str_hash, g_str_equal);
  engine->members = 0;
  engine->ids = 0;
  g_hash_table_insert (r->engines, engine->name, engine);
}

gint
vmi_engine_registry_join (VmiEngineRegistry * r, VmiEngineEntry * engine,
    guint max_ids)
{
  guint id;

  max_ids = MIN (max_ids, VMI_ENGINE_REGISTRY_MAX_IDS);
  for (id = 0; id < max_ids; id++)
    if (!(engine->ids & (G_GUINT64_CONSTANT (1) << id)))
      break;
  if (id == max_ids)
    return -1;
  engine->ids |= G_GUINT64_CONSTANT (1) << id;
  engine->members++;
  return (gint) id;
}

gboolean
vmi_engine_registry_leave (VmiEngineRegistry * r, VmiEngineEntry * engine,
    guint id)
{
  g_return_val_if_fail (id < VMI_ENGINE_REGISTRY_MAX_IDS
      && (engine->ids & (G_GUINT64_CONSTANT (1) << id)), FALSE);
  engine->ids &= ~(G_GUINT64_CONSTANT (1) << id);
  if (--engine->members > 0)
    return FALSE;
  g_hash_table_remove (r->engines, engine->name);
  if (r->free_engine)
    r->free_engine (engine);
  return TRUE;
}

guint
vmi_engine_registry_count (VmiEngineRegistry * r, const gchar * name)
{
  VmiEngineEntry *e;
  guint n;

  g_mutex_lock (&r->lock);
  e = vmi_engine_registry_find (r, name);
  n = e ? e->members : 0;
  g_mutex_unlock (&r->lock);
  return n;
}
