/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMI_SINK_H__
#define __GST_VMI_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_VMI_SINK (gst_vmi_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstVmiSink, gst_vmi_sink, GST, VMI_SINK, GstBaseSink)

G_END_DECLS

#endif /* __GST_VMI_SINK_H__ */
