/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:gstvmibufferpool
 * @title: GstVmiBufferPool
 * @short_description: bounded video frame pool in shareable memory
 *
 * A #GstVideoBufferPool (so %GST_BUFFER_POOL_OPTION_VIDEO_META and
 * %GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT work as usual) whose frames come
 * from the #GstVmiAllocator, whatever allocator the configuration names:
 * every frame is a sealed memfd that `vmisink` can hand to another process.
 *
 * The pool is always bounded: max-buffers 0 ("unlimited") becomes
 * MAX (min-buffers, %GST_VMI_BUFFER_POOL_DEFAULT_MAX_BUFFERS).
 *
 * Live sources must never stall on an exhausted pool (a consumer holding
 * frames must turn into counted loss at ingress, not into back-pressure on
 * a socket). The rule: a live source acquires with
 * %GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT (or calls
 * gst_vmi_buffer_pool_acquire_live(), which does it for any pool), and
 * treats "no free frame" as a dropped frame it counts and reports. A vMI
 * pool can also be switched to non-blocking for every caller with
 * gst_vmi_buffer_pool_set_nonblocking(); it counts its exhaustions
 * (gst_vmi_buffer_pool_get_exhausted()).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "pool/gstvmibufferpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_vmi_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_vmi_buffer_pool_debug

struct _GstVmiBufferPool
{
  GstVideoBufferPool parent;

  gint nonblocking;             /* atomic */
  guint64 exhausted;            /* atomic */
};

G_DEFINE_TYPE_WITH_CODE (GstVmiBufferPool, gst_vmi_buffer_pool,
    GST_TYPE_VIDEO_BUFFER_POOL,
    GST_DEBUG_CATEGORY_INIT (gst_vmi_buffer_pool_debug, "vmibufferpool", 0,
        "vMI buffer pool"));

static gboolean
gst_vmi_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstAllocator *allocator = NULL;
  GstAllocationParams params;
  GstCaps *caps;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max))
    return FALSE;

  if (max == 0) {
    max = MAX (min, GST_VMI_BUFFER_POOL_DEFAULT_MAX_BUFFERS);
    GST_DEBUG_OBJECT (pool, "bounding unlimited pool to %u buffers", max);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
  }

  gst_buffer_pool_config_get_allocator (config, &allocator, &params);
  if (allocator == NULL || !GST_IS_VMI_ALLOCATOR (allocator)) {
    GstAllocator *vmi = gst_vmi_allocator_get ();

    if (allocator)
      GST_DEBUG_OBJECT (pool, "replacing allocator %" GST_PTR_FORMAT,
          allocator);
    gst_buffer_pool_config_set_allocator (config, vmi, &params);
    gst_object_unref (vmi);
  }

  return GST_BUFFER_POOL_CLASS (gst_vmi_buffer_pool_parent_class)->set_config
      (pool, config);
}

static GstFlowReturn
gst_vmi_buffer_pool_acquire_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstVmiBufferPool *self = GST_VMI_BUFFER_POOL (pool);
  GstBufferPoolAcquireParams p = { 0, };
  GstFlowReturn ret;

  if (params)
    p = *params;
  if (g_atomic_int_get (&self->nonblocking))
    p.flags |= GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;

  ret = GST_BUFFER_POOL_CLASS (gst_vmi_buffer_pool_parent_class)->acquire_buffer
      (pool, buffer, &p);

  /* DONTWAIT on an exhausted pool reports EOS (gstbufferpool.c) */
  if (ret == GST_FLOW_EOS && (p.flags & GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT)) {
    guint64 n = __atomic_add_fetch (&self->exhausted, 1, __ATOMIC_RELAXED);
    if (n == 1 || n % 100 == 0)
      GST_INFO_OBJECT (pool, "pool exhausted (%" G_GUINT64_FORMAT " times): "
          "frames are still held downstream", n);
  }
  return ret;
}

static void
gst_vmi_buffer_pool_class_init (GstVmiBufferPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  pool_class->set_config = GST_DEBUG_FUNCPTR (gst_vmi_buffer_pool_set_config);
  pool_class->acquire_buffer =
      GST_DEBUG_FUNCPTR (gst_vmi_buffer_pool_acquire_buffer);
}

static void
gst_vmi_buffer_pool_init (GstVmiBufferPool * self)
{
}

/**
 * gst_vmi_buffer_pool_new:
 *
 * Returns: (transfer full): a new, unconfigured #GstVmiBufferPool. Configure
 * it like any #GstVideoBufferPool (video caps in set_config).
 */
GstBufferPool *
gst_vmi_buffer_pool_new (void)
{
  GstBufferPool *pool = g_object_new (GST_TYPE_VMI_BUFFER_POOL, NULL);

  gst_object_ref_sink (pool);
  return pool;
}

/**
 * gst_is_vmi_buffer_pool:
 * @pool: a #GstBufferPool
 *
 * Returns: %TRUE when @pool is a #GstVmiBufferPool.
 */
gboolean
gst_is_vmi_buffer_pool (GstBufferPool * pool)
{
  return pool != NULL && GST_IS_VMI_BUFFER_POOL (pool);
}

/**
 * gst_vmi_buffer_pool_set_nonblocking:
 * @pool: a #GstVmiBufferPool
 * @nonblocking: %TRUE to make every acquire non-blocking
 *
 * When set, gst_buffer_pool_acquire_buffer() on an exhausted pool returns
 * %GST_FLOW_EOS at once (as with %GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT)
 * instead of waiting for a frame to come back, and the pool counts it.
 */
void
gst_vmi_buffer_pool_set_nonblocking (GstBufferPool * pool, gboolean nonblocking)
{
  g_return_if_fail (GST_IS_VMI_BUFFER_POOL (pool));
  g_atomic_int_set (&GST_VMI_BUFFER_POOL (pool)->nonblocking, ! !nonblocking);
}

/**
 * gst_vmi_buffer_pool_get_nonblocking:
 * @pool: a #GstVmiBufferPool
 *
 * Returns: whether @pool never blocks in acquire.
 */
gboolean
gst_vmi_buffer_pool_get_nonblocking (GstBufferPool * pool)
{
  g_return_val_if_fail (GST_IS_VMI_BUFFER_POOL (pool), FALSE);
  return g_atomic_int_get (&GST_VMI_BUFFER_POOL (pool)->nonblocking);
}

/**
 * gst_vmi_buffer_pool_get_exhausted:
 * @pool: a #GstVmiBufferPool
 *
 * Returns: how many non-blocking acquires found the pool empty.
 */
guint64
gst_vmi_buffer_pool_get_exhausted (GstBufferPool * pool)
{
  g_return_val_if_fail (GST_IS_VMI_BUFFER_POOL (pool), 0);
  return __atomic_load_n (&GST_VMI_BUFFER_POOL (pool)->exhausted,
      __ATOMIC_RELAXED);
}

/**
 * gst_vmi_buffer_pool_acquire_live:
 * @pool: an active #GstBufferPool (any pool, not only vMI ones)
 * @buffer: (out): the acquired buffer, or %NULL when the pool is exhausted
 * @exhausted: (out) (optional): set to %TRUE when no frame was free
 *
 * The acquire a live source should use: it never waits for a frame to be
 * returned. An exhausted pool gives %GST_FLOW_OK with *@buffer = %NULL and
 * *@exhausted = %TRUE: drop the incoming frame and count it. Flushing and
 * errors are returned as they are.
 *
 * Returns: %GST_FLOW_OK, %GST_FLOW_FLUSHING or %GST_FLOW_ERROR.
 */
GstFlowReturn
gst_vmi_buffer_pool_acquire_live (GstBufferPool * pool, GstBuffer ** buffer,
    gboolean * exhausted)
{
  GstBufferPoolAcquireParams params = { 0, };
  GstFlowReturn ret;

  g_return_val_if_fail (GST_IS_BUFFER_POOL (pool), GST_FLOW_ERROR);
  g_return_val_if_fail (buffer != NULL, GST_FLOW_ERROR);

  *buffer = NULL;
  if (exhausted)
    *exhausted = FALSE;
  params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  ret = gst_buffer_pool_acquire_buffer (pool, buffer, &params);
  if (ret == GST_FLOW_EOS) {
    *buffer = NULL;
    if (exhausted)
      *exhausted = TRUE;
    return GST_FLOW_OK;
  }
  return ret;
}

/**
 * gst_vmi_buffer_is_shareable:
 * @buf: a #GstBuffer
 * @max_mems: the most memories a frame may have
 *
 * Returns: %TRUE when @buf has 1 to @max_mems memories and all of them are
 * vMI memory (a file descriptor another process can map).
 */
gboolean
gst_vmi_buffer_is_shareable (GstBuffer * buf, guint max_mems)
{
  guint i, n = gst_buffer_n_memory (buf);

  if (n == 0 || n > max_mems)
    return FALSE;
  for (i = 0; i < n; i++)
    if (!gst_is_vmi_memory (gst_buffer_peek_memory (buf, i)))
      return FALSE;
  return TRUE;
}

static GstBuffer *
vmi_copy_video (GstBufferPool ** pool, const GstVideoInfo * info,
    GstBuffer * buf, gboolean * exhausted)
{
  GstVideoFrame src, dst;
  GstBuffer *out = NULL;
  gboolean ok = FALSE;

  if (*pool == NULL) {
    GstCaps *caps = gst_video_info_to_caps (info);
    GstStructure *config;

    *pool = gst_vmi_buffer_pool_new ();
    config = gst_buffer_pool_get_config (*pool);
    gst_buffer_pool_config_set_params (config, caps, info->size, 0, 0);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    gst_caps_unref (caps);
    if (!gst_buffer_pool_set_config (*pool, config) ||
        !gst_buffer_pool_set_active (*pool, TRUE)) {
      gst_clear_object (pool);
      return NULL;
    }
  }
  /* never wait for a frame to come back: a consumer that hangs on to one
   * would stall the stream (and the state change) */
  if (gst_vmi_buffer_pool_acquire_live (*pool, &out, exhausted) != GST_FLOW_OK
      || out == NULL)
    return NULL;

  if (gst_video_frame_map (&src, info, buf, GST_MAP_READ)) {
    if (gst_video_frame_map (&dst, info, out, GST_MAP_WRITE)) {
      ok = gst_video_frame_copy (&dst, &src);
      gst_video_frame_unmap (&dst);
    }
    gst_video_frame_unmap (&src);
  }
  if (!ok) {
    gst_buffer_unref (out);
    return NULL;
  }
  /* not the metas: the copy has the pool's own video meta (its own
   * strides); a copied upstream meta would describe upstream's layout */
  gst_buffer_copy_into (out, buf, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  return out;
}

/**
 * gst_vmi_buffer_copy_to_vmi:
 * @pool: (inout) (nullable): a vMI pool for the copies, made on first use
 *   (the caller deactivates and unrefs it)
 * @info: (nullable): the video layout of @buf, %NULL when it is not video
 * @buf: the buffer to copy
 * @exhausted: (out): set to %TRUE when every frame of @pool is in use
 *
 * The one copy for a buffer that is not in vMI memory (upstream did not
 * render into the proposed pool): a video frame goes into a frame of
 * @pool, laid out as @pool lays it out; anything else (or a frame that
 * cannot be mapped with @info) is copied byte for byte, metas and all.
 *
 * Returns: (transfer full) (nullable): the copy, or %NULL when @pool is
 * exhausted (*@exhausted is then %TRUE: drop the frame) or memory ran out.
 */
GstBuffer *
gst_vmi_buffer_copy_to_vmi (GstBufferPool ** pool, const GstVideoInfo * info,
    GstBuffer * buf, gboolean * exhausted)
{
  GstAllocator *alloc;
  GstBuffer *out;
  gsize size = gst_buffer_get_size (buf);

  *exhausted = FALSE;
  if (info) {
    out = vmi_copy_video (pool, info, buf, exhausted);
    if (out || *exhausted)
      return out;
  }

  /* not video (or odd buffers): copy the bytes as they are */
  alloc = gst_vmi_allocator_get ();
  out = gst_buffer_new_allocate (alloc, MAX (size, 1), NULL);
  gst_object_unref (alloc);
  if (!out)
    return NULL;
  gst_buffer_resize (out, 0, size);
  if (size > 0) {
    GstMapInfo map;

    if (!gst_buffer_map (out, &map, GST_MAP_WRITE)) {
      gst_buffer_unref (out);
      return NULL;
    }
    gst_buffer_extract (buf, 0, map.data, size);
    gst_buffer_unmap (out, &map);
  }
  /* same bytes, same layout: the metas still apply */
  gst_buffer_copy_into (out, buf, GST_BUFFER_COPY_METADATA, 0, -1);
  return out;
}
