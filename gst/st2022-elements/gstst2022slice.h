/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022sink's raster writing: the sliced writer where it applies (the
 * element writes the lines its ancillary data goes into, the transmit
 * engine the rest just before it sends them), else the whole raster. */

#ifndef __GST_ST2022_SLICE_H__
#define __GST_ST2022_SLICE_H__

#include <gst/video/video.h>

#include "st2022/st2022.h"
#include "transport/vmi-tx-engine.h"

G_BEGIN_DECLS

/* Lines from the top that st2022sink writes itself for sliced writing:
 * every line its ancillary data (payload ID, ATC, captions) goes into and
 * the line after each (a VANC packet changes the next line's CRC words),
 * all before the first active line. 0: not sliced (SD, or a format whose
 * ancillary lines reach the picture, 1080i's second field). */
guint gst_st2022_slice_head_lines (const St2022Format * fmt);

/* Writes @buffer's picture as the raster of @job: lines 1..@head with
 * @head_writer now and the rest by the engine with @tail_writer (its own
 * writer: the two threads never share one) when @head is not 0 and the
 * engine takes it, else the whole raster with @head_writer now. The
 * picture stays mapped (and @buffer referenced) until the engine is done
 * with it. *@mapped: FALSE when the buffer could not be mapped. */
int gst_st2022_slice_write (VmiTxEngine * engine, VmiTxBuffer * job,
    St2022RasterWriter * head_writer, St2022RasterWriter * tail_writer,
    guint head, St2022PixelFormat pixfmt, const GstVideoInfo * vinfo,
    GstBuffer * buffer, gboolean * mapped);

G_END_DECLS

#endif /* __GST_ST2022_SLICE_H__ */
