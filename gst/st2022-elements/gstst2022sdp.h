/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The SDP properties of st2022sink (`sdp` read-only, `sdp-file` written at
 * start) and st2022src (`sdp` text or `sdp-file` path, configuring address,
 * port, source-address and payload-type at start), over gst/sdp. */

#ifndef __GST_ST2022_SDP_H__
#define __GST_ST2022_SDP_H__

#include <gst/gst.h>

#include "gstst2022common.h"

G_BEGIN_DECLS

typedef enum
{
  GST_ST2022_SDP_PROP_SDP,
  GST_ST2022_SDP_PROP_SDP_FILE,
  GST_ST2022_SDP_N_PROPS,
} GstSt2022SdpProp;

/* under the element's object lock */
typedef struct
{
  gchar *sdp;                   /* sink: what it sends (from start on) */
  gchar *sdp_file;
  /* sink: set before sink_start by an element on PTP
   * (gst_st2022_clock_ts_refclk()); NULL = not on PTP */
  gchar *ts_refclk;
} GstSt2022SdpSettings;

void gst_st2022_sdp_install_properties (GObjectClass * klass, guint first_id,
    gboolean is_sink);
void gst_st2022_sdp_settings_clear (GstSt2022SdpSettings * s);
/* FALSE when @prop_id is not one of ours */
gboolean gst_st2022_sdp_set_property (GstSt2022SdpSettings * s,
    guint first_id, guint prop_id, const GValue * value);
gboolean gst_st2022_sdp_get_property (const GstSt2022SdpSettings * s,
    guint first_id, guint prop_id, GValue * value);

/* Sink start: builds the SDP of what @config sends (its source address and
 * MAC found the way the kernel will route), stores it in @s->sdp and writes
 * it to @s->sdp_file if set. FALSE after a GST_ELEMENT_ERROR. Takes the
 * object lock. */
gboolean gst_st2022_sdp_sink_start (GstElement * sink,
    GstSt2022SdpSettings * s, const VmiTransportConfig * config,
    const VmiTransportConfig * secondary, guint payload_type,
    GstSt2022Pacing pacing);

/* Src start: if `sdp` or `sdp-file` is set, parses it and sets the
 * element's address, port, source-address and payload-type from it. FALSE
 * after a GST_ELEMENT_ERROR quoting the offending line. Call without the
 * object lock. */
gboolean gst_st2022_sdp_src_configure (GstElement * src,
    GstSt2022SdpSettings * s);

G_END_DECLS

#endif /* __GST_ST2022_SDP_H__ */
