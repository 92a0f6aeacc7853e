/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* st2022:// URIs for st2022src and st2022sink (GstURIHandler), so playbin,
 * gst-play-1.0 and gst_element_make_from_uri() find them. The form is
 * udpsrc's udp://: `st2022://host:port`, `st2022://@group:port` (VLC's
 * "listen" form: anything up to the '@' is ignored), `st2022://[ff15::1]:5004`,
 * and `?name=value&...` setting any other property of the element, e.g.
 * `st2022://@232.1.2.3:5004?source-address=10.0.0.1&multicast-iface=eth0`. */

#ifndef __GST_ST2022_URI_H__
#define __GST_ST2022_URI_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_ST2022_URI_PROTOCOL "st2022"
#define GST_ST2022_URI_DEFAULT_PORT 5004

/* Splits @uri into host, port (default 5004) and the query's properties
 * (name -> value, percent-decoded; NULL when there is no query). A query
 * name or value with broken percent-encoding or a %00 fails, naming it. */
gboolean gst_st2022_uri_parse (const gchar * uri, gchar ** host, guint * port,
    GHashTable ** query, GError ** error);

/* One query parameter as the property value it sets. */
typedef struct
{
  const gchar *name;            /* the property's (static) name */
  GValue value;
} GstSt2022UriValue;

/* Each entry of @query (may be NULL) as a value of @klass's property of
 * that name, parsed and range-checked the way the property is: @values
 * (GstSt2022UriValue, g_array_unref() it) or FALSE with @error naming the
 * parameter, the value and what the property takes ("'?port=70000':
 * query parameter 'port': '70000' is not a number 0-65535"). */
gboolean gst_st2022_uri_query_values (GObjectClass * klass, const gchar * uri,
    GHashTable * query, GArray ** values, GError ** error);

/* GInterfaceInitFunc for G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER, ...):
 * the address goes to `address` (src) or `host` (sink). */
void gst_st2022_src_uri_handler_init (gpointer g_iface, gpointer iface_data);
void gst_st2022_sink_uri_handler_init (gpointer g_iface, gpointer iface_data);

G_END_DECLS

#endif /* __GST_ST2022_URI_H__ */
