/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMI_10TO8_H__
#define __GST_VMI_10TO8_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "convert/vmi-convert.h"

G_BEGIN_DECLS

/**
 * GstVmi10to8Rounding:
 * @GST_VMI_10TO8_ROUNDING_TRUNCATE: drop the two least significant bits
 * @GST_VMI_10TO8_ROUNDING_NEAREST: round half up, (v + 2) >> 2, saturated
 *   at 255
 *
 * How a 10-bit sample becomes an 8-bit one.
 */
typedef enum
{
  GST_VMI_10TO8_ROUNDING_TRUNCATE = VMI_CONV_ROUND_TRUNCATE,
  GST_VMI_10TO8_ROUNDING_NEAREST = VMI_CONV_ROUND_NEAREST,
} GstVmi10to8Rounding;

#define GST_TYPE_VMI_10TO8_ROUNDING (gst_vmi_10to8_rounding_get_type ())
GType gst_vmi_10to8_rounding_get_type (void);

#define GST_TYPE_VMI_10TO8 (gst_vmi_10to8_get_type ())
G_DECLARE_FINAL_TYPE (GstVmi10to8, gst_vmi_10to8, GST, VMI_10TO8,
    GstVideoFilter)

struct _GstVmi10to8
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  GstVmi10to8Rounding rounding;
  guint n_threads;

  /* streaming */
  VmiWorkers *workers;
  VmiConvFormat in_format;
  VmiConvFormat out_format;
  gboolean in_place_formats;    /* the format pair can convert in place */
  gboolean downstream_video_meta;
};

G_END_DECLS

#endif /* __GST_VMI_10TO8_H__ */
