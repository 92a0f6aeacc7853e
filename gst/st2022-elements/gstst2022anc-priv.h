/* gst-vmi: what the sender's and the receiver's halves of the ancillary
 * data glue (gstst2022anc.c, gstst2022ancrx.c) share
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_ST2022_ANC_PRIV_H__
#define __GST_ST2022_ANC_PRIV_H__

#include <glib.h>

G_BEGIN_DECLS

/* audio samples per channel one frame carries at most */
#define MAX_FRAME_SAMPLES 2048

/* the "st2022anc" debug category, once */
void gst_st2022_anc_debug_init (void);

G_END_DECLS

#endif /* __GST_ST2022_ANC_PRIV_H__ */
