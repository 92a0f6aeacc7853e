/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_ST2022_SINK_H__
#define __GST_ST2022_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_ST2022_SINK (gst_st2022_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstSt2022Sink, gst_st2022_sink, GST, ST2022_SINK,
    GstBaseSink)

/* The UDP port path @leg (0 primary, 1 ST 2022-7 secondary) leaves from
 * (from start on; 0 when the transport cannot tell: raw transports send
 * from the destination port). */
guint16 gst_st2022_sink_get_source_port (GstSt2022Sink * sink, guint leg);

G_END_DECLS

#endif /* __GST_ST2022_SINK_H__ */
