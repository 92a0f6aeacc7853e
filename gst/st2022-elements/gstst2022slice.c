/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022sink's raster writing (see gstst2022slice.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstst2022slice.h"
#include "vmi-anc.h"

guint
gst_st2022_slice_head_lines (const St2022Format * fmt)
{
  guint lines[2], n, i, last, first_active = 0, line;

  /* half_byte_lines: whole rasters, converted to the wire layout */
  if (fmt == NULL || fmt->sd || fmt->half_byte_lines)
    return 0;
  n = vmi_anc_st352_lines (fmt, lines);
  last = vmi_anc_caption_line (fmt);
  last = MAX (last, vmi_anc_atc_line (fmt, VMI_ANC_ATC_VITC1));
  last = MAX (last, vmi_anc_atc_line (fmt, VMI_ANC_ATC_VITC2));
  for (i = 0; i < n; i++)
    last = MAX (last, lines[i]);
  for (line = 1; line <= fmt->total_lines && first_active == 0; line++)
    if (st2022_format_line_to_row (fmt, line) >= 0)
      first_active = line;
  /* the line after the last one carries its CRC */
  return last + 1 < first_active ? last + 1 : 0;
}

static void
picture_done (gpointer data)
{
  GstVideoFrame *frame = data;

  gst_video_frame_unmap (frame);
  g_free (frame);
}

int
gst_st2022_slice_write (VmiTxEngine * engine, VmiTxBuffer * job,
    St2022RasterWriter * head_writer, St2022RasterWriter * tail_writer,
    guint head, St2022PixelFormat pixfmt, const GstVideoInfo * vinfo,
    GstBuffer * buffer, gboolean * mapped)
{
  GstVideoFrame *frame = g_new (GstVideoFrame, 1);
  St2022RasterCursor cur;
  const guint8 *pic;
  gsize stride;
  int rc;

  *mapped = gst_video_frame_map (frame, vinfo, buffer, GST_MAP_READ);
  if (!*mapped) {
    g_free (frame);
    return ST2022_ERROR_INVALID_ARGUMENT;
  }
  pic = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  if (head > 0 && tail_writer != NULL) {
    rc = st2022_raster_writer_begin (head_writer, &cur, job->raster, 0, 0,
        pixfmt, pic, stride);
    if (rc == ST2022_OK) {
      st2022_raster_writer_lines (head_writer, &cur, head);
      if (vmi_tx_engine_set_lines (engine, job, tail_writer, &cur,
              picture_done, frame))
        return ST2022_OK;
      /* the engine writes whole rasters: the rest here */
      st2022_raster_writer_lines (head_writer, &cur, G_MAXUINT);
      picture_done (frame);
      return ST2022_OK;
    }
  }
  rc = st2022_raster_writer_write (head_writer, job->raster, job->size,
      pixfmt, pic, stride);
  picture_done (frame);
  return rc;
}
