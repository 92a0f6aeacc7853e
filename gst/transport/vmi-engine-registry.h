/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Named engines of a process (pure C, GLib only): the shared transmit
 * engines (vmi-tx-shared.c) and shared receive engines (vmi-rx-engine.c)
 * are found by name, created by their first member, joined by members
 * each holding an id of the engine's own, and freed (their thread
 * stopped) when the last member leaves.
 *
 * An engine embeds a VmiEngineEntry as its first member. One lock per
 * registry serialises the joins and leaves of all its engines; the
 * engines' threads never take it. Every call but
 * vmi_engine_registry_lock() and vmi_engine_registry_count() is made with
 * the lock held. */

#ifndef __VMI_ENGINE_REGISTRY_H__
#define __VMI_ENGINE_REGISTRY_H__

#include <glib.h>

G_BEGIN_DECLS

/* ids an engine hands out (a bit each) */
#define VMI_ENGINE_REGISTRY_MAX_IDS 64

typedef struct
{
  /* the engine's name, owned by the engine, set before it is added */
  gchar *name;
  /* under the registry's lock: members, and a bit per id in use */
  guint members;
  guint64 ids;
} VmiEngineEntry;

/* Stops the engine's thread and frees it (its last member has left) */
typedef void (*VmiEngineFreeFunc) (VmiEngineEntry * engine);

typedef struct
{
  GMutex lock;
  GHashTable *engines;
  VmiEngineFreeFunc free_engine;
} VmiEngineRegistry;

/* A registry in static storage: needs no other initialisation */
#define VMI_ENGINE_REGISTRY_INIT(free_func) { .free_engine = (free_func) }

void vmi_engine_registry_lock (VmiEngineRegistry * r);
void vmi_engine_registry_unlock (VmiEngineRegistry * r);

/* The engine named @name, or NULL */
VmiEngineEntry *vmi_engine_registry_find (VmiEngineRegistry * r,
    const gchar * name);

/* Adds @engine (its name set, no member yet) */
void vmi_engine_registry_add (VmiEngineRegistry * r, VmiEngineEntry * engine);

/* A member joins @engine: its lowest free id below @max_ids (at most
 * VMI_ENGINE_REGISTRY_MAX_IDS), or -1 when every one is taken */
gint vmi_engine_registry_join (VmiEngineRegistry * r, VmiEngineEntry * engine,
    guint max_ids);

/* The member holding @id leaves @engine; the last one out removes the
 * engine and frees it (the registry's free function). TRUE when it did. */
gboolean vmi_engine_registry_leave (VmiEngineRegistry * r,
    VmiEngineEntry * engine, guint id);

/* Members of the engine @name now (0: no such engine); takes the lock */
guint vmi_engine_registry_count (VmiEngineRegistry * r, const gchar * name);

G_END_DECLS

#endif /* __VMI_ENGINE_REGISTRY_H__ */
