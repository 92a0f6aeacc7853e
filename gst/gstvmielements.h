/* gst-vmi: element registration declarations (one line per element). */
#ifndef __GST_VMI_ELEMENTS_H__
#define __GST_VMI_ELEMENTS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

GST_ELEMENT_REGISTER_DECLARE (st2022sink);
GST_ELEMENT_REGISTER_DECLARE (st2022src);
GST_ELEMENT_REGISTER_DECLARE (vmi10to8);
GST_ELEMENT_REGISTER_DECLARE (vmisink);
GST_ELEMENT_REGISTER_DECLARE (vmisrc);

G_END_DECLS

#endif /* __GST_VMI_ELEMENTS_H__ */
