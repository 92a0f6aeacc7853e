/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstst2022meta.h"

#include <gst/video/video.h>


GType
gst_st2022_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR, NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstSt2022MetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
gst_st2022_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstSt2022Meta *m = (GstSt2022Meta *) meta;

  m->rtp_timestamp = 0;
  m->ssrc = 0;
  m->first_seq = 0;
  m->last_seq = 0;
  m->frcount = 0;
  m->video_timestamp = 0;
  m->packets = 0;
  m->packets_missing = 0;
  return TRUE;
}

/* The facts belong to the frame, so they survive copies and in-place
 * conversions (vmi10to8) but not scaling or cropping. */
static gboolean
gst_st2022_meta_transform (GstBuffer * dest, GstMeta * meta,
    GstBuffer * buffer, GQuark type, gpointer data)
{
  GstSt2022Meta *src = (GstSt2022Meta *) meta, *dst;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;

  dst = gst_buffer_add_st2022_meta (dest);
  if (!dst)
    return FALSE;
  dst->rtp_timestamp = src->rtp_timestamp;
  dst->ssrc = src->ssrc;
  dst->first_seq = src->first_seq;
  dst->last_seq = src->last_seq;
  dst->frcount = src->frcount;
  dst->video_timestamp = src->video_timestamp;
  dst->packets = src->packets;
  dst->packets_missing = src->packets_missing;
  return TRUE;
}

const GstMetaInfo *
gst_st2022_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_register (GST_ST2022_META_API_TYPE,
        "GstSt2022Meta", sizeof (GstSt2022Meta), gst_st2022_meta_init,
        NULL, gst_st2022_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

/**
 * gst_buffer_add_st2022_meta:
 * @buffer: a writable #GstBuffer
 *
 * Returns: (transfer none): the new #GstSt2022Meta, zeroed.
 */
GstSt2022Meta *
gst_buffer_add_st2022_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (gst_buffer_is_writable (buffer), NULL);
  return (GstSt2022Meta *) gst_buffer_add_meta (buffer,
      GST_ST2022_META_INFO, NULL);
}
