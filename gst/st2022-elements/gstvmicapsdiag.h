/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Where a caps negotiation ran out, in words a user can act on. */

#ifndef __GST_VMI_CAPS_DIAG_H__
#define __GST_VMI_CAPS_DIAG_H__

#include <gst/gst.h>

G_BEGIN_DECLS

gchar *gst_vmi_caps_refusal (GstPad * srcpad);

G_END_DECLS

#endif /* __GST_VMI_CAPS_DIAG_H__ */
