/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_ST2022_SRC_H__
#define __GST_ST2022_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>

#include "transport/vmi-transport.h"

G_BEGIN_DECLS

#define GST_TYPE_ST2022_SRC (gst_st2022_src_get_type ())
G_DECLARE_FINAL_TYPE (GstSt2022Src, gst_st2022_src, GST, ST2022_SRC,
    GstPushSrc)

/* Makes the playing element receive from @t (taken; NULL: receive nothing)
 * instead of its transport, switching on its receive thread between two
 * frames (NMOS IS-05). FALSE when it is not running (@t is not taken). */
gboolean gst_st2022_src_swap_transport (GstSt2022Src * src, VmiTransport * t);
/* As gst_st2022_src_swap_transport(), and with ST 2022-7 the second path
 * receives from @t2 (taken) from the same moment on (NULL: it keeps its
 * transport). FALSE when it is not running (neither is taken). */
gboolean gst_st2022_src_swap_transports (GstSt2022Src * src,
    VmiTransport * t, VmiTransport * t2);

G_END_DECLS

#endif /* __GST_ST2022_SRC_H__ */
