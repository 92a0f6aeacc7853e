/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMI_BUFFER_POOL_H__
#define __GST_VMI_BUFFER_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideopool.h>

#include "pool/gstvmiallocator.h"

G_BEGIN_DECLS

/**
 * GST_VMI_BUFFER_POOL_DEFAULT_MAX_BUFFERS:
 *
 * A #GstVmiBufferPool is always bounded: a configuration asking for an
 * unlimited pool (max-buffers 0) gets MAX (min-buffers, this) instead.
 */
#define GST_VMI_BUFFER_POOL_DEFAULT_MAX_BUFFERS 16

#define GST_TYPE_VMI_BUFFER_POOL (gst_vmi_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstVmiBufferPool, gst_vmi_buffer_pool, GST,
    VMI_BUFFER_POOL, GstVideoBufferPool)

GstBufferPool * gst_vmi_buffer_pool_new                (void);

gboolean        gst_is_vmi_buffer_pool                 (GstBufferPool * pool);

void            gst_vmi_buffer_pool_set_nonblocking    (GstBufferPool * pool,
                                                        gboolean nonblocking);

gboolean        gst_vmi_buffer_pool_get_nonblocking    (GstBufferPool * pool);

guint64         gst_vmi_buffer_pool_get_exhausted      (GstBufferPool * pool);

GstFlowReturn   gst_vmi_buffer_pool_acquire_live       (GstBufferPool * pool,
                                                        GstBuffer ** buffer,
                                                        gboolean * exhausted);

gboolean        gst_vmi_buffer_is_shareable            (GstBuffer * buf,
                                                        guint max_mems);

GstBuffer *     gst_vmi_buffer_copy_to_vmi             (GstBufferPool ** pool,
                                                        const GstVideoInfo * info,
                                                        GstBuffer * buf,
                                                        gboolean * exhausted);

G_END_DECLS

#endif /* __GST_VMI_BUFFER_POOL_H__ */
