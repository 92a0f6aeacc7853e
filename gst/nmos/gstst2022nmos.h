/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* NMOS for st2022sink and st2022src: the `nmos`, `nmos-registry`,
 * `nmos-node-port` and `nmos-label` properties, and the element's
 * resources on the process's node (gst/nmos/vmi-nmos-node.h) from start to
 * stop. Without the nmos Meson feature the properties exist and
 * `nmos=true` fails the start saying so. */

#ifndef __GST_ST2022_NMOS_H__
#define __GST_ST2022_NMOS_H__

#include <gst/gst.h>

#include "transport/vmi-transport.h"

G_BEGIN_DECLS

typedef enum
{
  GST_ST2022_NMOS_PROP_NMOS,
  GST_ST2022_NMOS_PROP_REGISTRY,
  GST_ST2022_NMOS_PROP_NODE_PORT,
  GST_ST2022_NMOS_PROP_LABEL,
  GST_ST2022_NMOS_N_PROPS,
} GstSt2022NmosProp;

typedef struct _GstSt2022Nmos GstSt2022Nmos;

void gst_st2022_nmos_install_properties (GObjectClass * klass,
    guint first_id);
GstSt2022Nmos *gst_st2022_nmos_new (GstElement * element);
void gst_st2022_nmos_free (GstSt2022Nmos * n);
/* Under the element's object lock; FALSE when @prop_id is not ours. */
gboolean gst_st2022_nmos_set_property (GstSt2022Nmos * n, guint first_id,
    guint prop_id, const GValue * value);
gboolean gst_st2022_nmos_get_property (GstSt2022Nmos * n, guint first_id,
    guint prop_id, GValue * value);

/* End of the element's start (the sink's `sdp` built, the src's port
 * bound): with nmos=true, joins the node and adds the element's
 * resources. FALSE after a GST_ELEMENT_ERROR. */
gboolean gst_st2022_nmos_start (GstSt2022Nmos * n);
/* Removes the resources (deregistered) and leaves the node. */
void gst_st2022_nmos_stop (GstSt2022Nmos * n);

/* sink: the frame rate is known (caps) */
void gst_st2022_nmos_sink_caps (GstSt2022Nmos * n, gint fps_n, gint fps_d);
/* sink: FALSE while IS-05 says master_enable=false (or rtp_enabled=false):
 * frames are dropped, nothing is sent */
gboolean gst_st2022_nmos_sink_enabled (GstSt2022Nmos * n);

G_END_DECLS

#endif /* __GST_ST2022_NMOS_H__ */
