/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022src's caps, allocation and latency: the caps are the stream's
 * (from its HBRMT header), the output pool is downstream's video pool or
 * a bounded GstVmiBufferPool. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstst2022src-priv.h"
#include "pool/gstvmibufferpool.h"

#define GST_CAT_DEFAULT gst_st2022_src_debug

/* The stream's caps: what the sink accepts for @fmt, plus what the wire
 * implies (SDI HD is square-pixel BT.709, SD BT.601 with 4:3 pixels). */
static GstCaps *
gst_st2022_src_format_caps (const St2022Format * fmt)
{
  GstStructure *s = gst_st2022_format_structure (fmt);

  gst_st2022_format_set_colorimetry (s, fmt);
  return gst_caps_new_full (s, NULL);
}

GstCaps *
gst_st2022_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);
  GstCaps *caps;

  if (self->stream_fmt)
    caps = gst_st2022_src_format_caps (self->stream_fmt);
  else
    caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (bsrc));

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, caps,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = tmp;
  }
  return caps;
}

/* The caps are the stream's: nothing to negotiate before its first header
 * (the base class asks once before the first create()). */
gboolean
gst_st2022_src_negotiate (GstBaseSrc * bsrc)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  if (self->stream_fmt == NULL)
    return TRUE;
  return gst_st2022_src_parent_base_class ()->negotiate (bsrc);
}

GstCaps *
gst_st2022_src_fixate (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  /* the format list's first entry that downstream kept: UYVP unless
   * downstream only takes v210 */
  caps = gst_caps_truncate (caps);
  caps = gst_caps_make_writable (caps);
  gst_structure_fixate_field_string (gst_caps_get_structure (caps, 0),
      "format", "UYVP");
  /* PsF has no field order, but a peer that also takes 1080i at that size
   * and rate (st2022sink) lends the intersection 1080i's */
  if (self->stream_fmt != NULL && self->stream_fmt->psf)
    gst_structure_remove_field (gst_caps_get_structure (caps, 0),
        "field-order");
  return gst_st2022_src_parent_base_class ()->fixate (bsrc, caps);
}

gboolean
gst_st2022_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  g_mutex_lock (&self->lock);
  self->vinfo = info;
  self->v210 = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_v210;
  self->fmt = self->stream_fmt;
  g_mutex_unlock (&self->lock);
  GST_INFO_OBJECT (self, "stream %s as %" GST_PTR_FORMAT,
      self->fmt ? self->fmt->name : "?", caps);
  return TRUE;
}

gboolean
gst_st2022_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  GstCaps *caps;
  GstVideoInfo info;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size, min, max;
  gboolean update;

  gst_query_parse_allocation (query, &caps, NULL);
  /* the base class asks before the stream has told us its format */
  if (caps == NULL)
    return TRUE;
  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    update = TRUE;
  } else {
    size = info.size;
    min = max = 0;
    update = FALSE;
  }
  /* only video pools know strides: anything else gets ours */
  if (pool && !GST_IS_VIDEO_BUFFER_POOL (pool))
    gst_clear_object (&pool);
  if (pool == NULL)
    pool = gst_vmi_buffer_pool_new ();

  size = MAX (size, (guint) info.size);
  /* two frames being assembled, the concealment reference and one being
   * pushed */
  min = MAX (min, 4);
  /* bounded, so a stalled consumer turns into counted drops, not memory */
  if (max == 0)
    max = MAX (min, 16);
  max = MAX (max, min);

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min,
            max) || !gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      GST_ELEMENT_ERROR (bsrc, RESOURCE, SETTINGS,
          ("could not configure the output buffer pool"), (NULL));
      return FALSE;
    }
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_get_params (config, NULL, &size, &min, &max);
    gst_structure_free (config);
  }

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);

  return gst_st2022_src_parent_base_class ()->decide_allocation (bsrc, query);
}

gboolean
gst_st2022_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstSt2022Src *self = GST_ST2022_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    const St2022Format *fmt = self->stream_fmt;
    GstClockTime frame = fmt ? gst_util_uint64_scale_int (GST_SECOND,
        fmt->fps_d, fmt->fps_n) : 40 * GST_MSECOND;

    /* a frame is pushed when its last datagram arrived, one frame after
     * its PTS, plus scheduling jitter; the socket buffer can hold frames
     * for as long as downstream needs */
    gst_query_set_latency (query, TRUE, frame + 10 * GST_MSECOND,
        GST_CLOCK_TIME_NONE);
    return TRUE;
  }
  return gst_st2022_src_parent_base_class ()->query (bsrc, query);
}
