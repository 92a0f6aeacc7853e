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

#include "gstst2022helpers.h"

/* each helper's first id, from the range's */
#define SDP_FIRST(first) ((first) + GST_ST2022_COMMON_N_PROPS)
#define NMOS_FIRST(first) (SDP_FIRST (first) + GST_ST2022_SDP_N_PROPS)
#define LEGS_FIRST(first) (NMOS_FIRST (first) + GST_ST2022_NMOS_N_PROPS)
#define CLOCK_FIRST(first) (LEGS_FIRST (first) + GST_ST2022_LEGS_N_PROPS)

void
gst_st2022_helpers_install_properties (GObjectClass * klass, guint first_id,
    gboolean is_sink)
{
  gst_st2022_common_install_properties (klass, first_id);
  gst_st2022_sdp_install_properties (klass, SDP_FIRST (first_id), is_sink);
  gst_st2022_nmos_install_properties (klass, NMOS_FIRST (first_id));
  gst_st2022_legs_install_properties (klass, LEGS_FIRST (first_id), is_sink);
  gst_st2022_clock_install_properties (klass, CLOCK_FIRST (first_id),
      is_sink);
}

gboolean
gst_st2022_helpers_set_property (const GstSt2022Helpers * h, guint first_id,
    guint prop_id, const GValue * value)
{
  return gst_st2022_common_set_property (h->common, first_id, prop_id, value)
      || gst_st2022_sdp_set_property (h->sdp, SDP_FIRST (first_id), prop_id,
      value)
      || gst_st2022_nmos_set_property (h->nmos, NMOS_FIRST (first_id),
      prop_id, value)
      || gst_st2022_legs_set_property (h->legs, LEGS_FIRST (first_id),
      prop_id, value)
      || gst_st2022_clock_set_property (h->clock, CLOCK_FIRST (first_id),
      prop_id, value);
}

gboolean
gst_st2022_helpers_get_property (const GstSt2022Helpers * h, guint first_id,
    guint prop_id, GValue * value)
{
  return gst_st2022_common_get_property (h->common, first_id, prop_id, value)
      || gst_st2022_sdp_get_property (h->sdp, SDP_FIRST (first_id), prop_id,
      value)
      || gst_st2022_nmos_get_property (h->nmos, NMOS_FIRST (first_id),
      prop_id, value)
      || gst_st2022_legs_get_property (h->legs, LEGS_FIRST (first_id),
      prop_id, value)
      || gst_st2022_clock_get_property (h->clock, CLOCK_FIRST (first_id),
      prop_id, value);
}
