/* gst-vmi: element registration declarations (one line per element). */
#ifndef __GST_VMI_ELEMENTS_H__
#define __GST_VMI_ELEMENTS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* area: net */
/* area: convert */
/* area: pool */

G_END_DECLS

#endif /* __GST_VMI_ELEMENTS_H__ */
