/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The properties st2022sink and st2022src share, installed after their own
 * as one range of ids from `first`: common (transport, iface, dpdk-*,
 * stats-interval), SDP, NMOS, ST 2022-7 legs (secondary-*), clock
 * (clock-source, ptp-*), each kept by its own helper. */

#ifndef __GST_ST2022_HELPERS_H__
#define __GST_ST2022_HELPERS_H__

#include <gst/gst.h>

#include "gstst2022common.h"
#include "gstst2022sdp.h"
#include "gstst2022legs.h"
#include "gstst2022clock.h"
#include "nmos/gstst2022nmos.h"

G_BEGIN_DECLS

#define GST_ST2022_HELPERS_N_PROPS (GST_ST2022_COMMON_N_PROPS + \
    GST_ST2022_SDP_N_PROPS + GST_ST2022_NMOS_N_PROPS + \
    GST_ST2022_LEGS_N_PROPS + GST_ST2022_CLOCK_N_PROPS)

/* the element's settings of each helper */
typedef struct
{
  GstSt2022CommonSettings *common;
  GstSt2022SdpSettings *sdp;
  GstSt2022Nmos *nmos;
  GstSt2022LegsSettings *legs;
  GstSt2022Clock *clock;
} GstSt2022Helpers;

void gst_st2022_helpers_install_properties (GObjectClass * klass,
    guint first_id, gboolean is_sink);
/* Under the element's object lock; FALSE when @prop_id is none of theirs */
gboolean gst_st2022_helpers_set_property (const GstSt2022Helpers * h,
    guint first_id, guint prop_id, const GValue * value);
gboolean gst_st2022_helpers_get_property (const GstSt2022Helpers * h,
    guint first_id, guint prop_id, GValue * value);

G_END_DECLS

#endif /* __GST_ST2022_HELPERS_H__ */
