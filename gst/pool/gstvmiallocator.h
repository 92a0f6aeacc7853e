/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMI_ALLOCATOR_H__
#define __GST_VMI_ALLOCATOR_H__

#include <gst/gst.h>
#include <gst/allocators/allocators.h>

G_BEGIN_DECLS

/**
 * GST_VMI_ALLOCATOR_NAME:
 *
 * Name under which the #GstVmiAllocator is registered with
 * gst_allocator_register() (find it with gst_allocator_find()).
 */
#define GST_VMI_ALLOCATOR_NAME "vmimemory"

#define GST_TYPE_VMI_ALLOCATOR (gst_vmi_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstVmiAllocator, gst_vmi_allocator, GST, VMI_ALLOCATOR,
    GstFdAllocator)

GstAllocator * gst_vmi_allocator_get     (void);

gboolean       gst_is_vmi_memory         (GstMemory * mem);

guint64        gst_vmi_memory_get_id     (GstMemory * mem);

gboolean       gst_vmi_memory_is_hugetlb (GstMemory * mem);

G_END_DECLS

#endif /* __GST_VMI_ALLOCATOR_H__ */
