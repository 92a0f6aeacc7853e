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

#include "gstst2022uri.h"

#include <string.h>

gboolean
gst_st2022_uri_parse (const gchar * uri, gchar ** host, guint * port,
    GHashTable ** query, GError ** error)
{
  const gchar *loc, *q, *at, *end, *colon = NULL;
  guint64 p = GST_ST2022_URI_DEFAULT_PORT;

  *host = NULL;
  *query = NULL;
  if (uri == NULL || g_ascii_strncasecmp (uri, GST_ST2022_URI_PROTOCOL "://",
          strlen (GST_ST2022_URI_PROTOCOL "://")) != 0)
    goto not_ours;
  loc = uri + strlen (GST_ST2022_URI_PROTOCOL "://");
  q = strchr (loc, '?');
  end = q ? q : loc + strlen (loc);
  /* udpsrc (and VLC): whatever is before an '@' is not the address */
  at = g_strstr_len (loc, end - loc, "@");
  if (at)
    loc = at + 1;
  if (*loc == '[') {
    const gchar *close = g_strstr_len (loc, end - loc, "]");
    if (close == NULL)
      goto bad_host;
    *host = g_strndup (loc + 1, close - loc - 1);
    if (close + 1 < end && close[1] != ':')
      goto bad_host;
    colon = close + 1 < end ? close + 1 : NULL;
  } else {
    const gchar *c;
    for (c = loc; c < end; c++)
      if (*c == ':')
        colon = c;
    *host = g_strndup (loc, (colon ? colon : end) - loc);
  }
  if (**host == '\0')
    goto bad_host;
  if (colon) {
    gchar *ps = g_strndup (colon + 1, end - colon - 1);
    gboolean ok = g_ascii_string_to_unsigned (ps, 10, 0, 65535, &p, NULL);
    g_free (ps);
    if (!ok)
      goto bad_port;
  }
  *port = p;
  if (q && q[1]) {
    gchar **kv = g_strsplit (q + 1, "&", -1), **i;

    *query = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    for (i = kv; *i; i++) {
      gchar *eq = strchr (*i, '=');
      if (**i == '\0')
        continue;
      if (eq)
        *eq = '\0';
      g_hash_table_insert (*query, g_uri_unescape_string (*i, NULL),
          g_uri_unescape_string (eq ? eq + 1 : "", NULL));
    }
    g_strfreev (kv);
  }
  return TRUE;

  /* ERRORS */
not_ours:
  {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_UNSUPPORTED_PROTOCOL,
        "'%s' is not an st2022:// URI", GST_STR_NULL (uri));
    return FALSE;
  }
bad_host:
  {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "'%s' has no host: write st2022://host:port, st2022://@group:port "
        "or st2022://[ipv6]:port", uri);
    g_clear_pointer (host, g_free);
    return FALSE;
  }
bad_port:
  {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "'%s': the port is not a number 0-65535", uri);
    g_clear_pointer (host, g_free);
    return FALSE;
  }
}

static gboolean
uri_set (GstURIHandler * handler, const gchar * host_prop, const gchar * uri,
    GError ** error)
{
  GObject *obj = G_OBJECT (handler);
  GObjectClass *klass = G_OBJECT_GET_CLASS (obj);
  GHashTableIter it;
  gpointer k, v;
  GHashTable *query;
  gchar *host;
  guint port;

  if (GST_STATE (handler) > GST_STATE_READY) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE,
        "the URI can only be changed in the NULL or READY state");
    return FALSE;
  }
  if (!gst_st2022_uri_parse (uri, &host, &port, &query, error))
    return FALSE;
  /* check all before setting any: a bad URI changes nothing */
  if (query) {
    g_hash_table_iter_init (&it, query);
    while (g_hash_table_iter_next (&it, &k, NULL)) {
      GParamSpec *ps = g_object_class_find_property (klass, k);
      if (ps == NULL || !(ps->flags & G_PARAM_WRITABLE)) {
        g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
            "'%s': %s has no writable property '%s'", uri,
            G_OBJECT_TYPE_NAME (obj), (gchar *) k);
        g_hash_table_unref (query);
        g_free (host);
        return FALSE;
      }
    }
  }
  g_object_set (obj, host_prop, host, "port", (gint) port, NULL);
  if (query) {
    g_hash_table_iter_init (&it, query);
    while (g_hash_table_iter_next (&it, &k, &v))
      gst_util_set_object_arg (obj, k, v);
    g_hash_table_unref (query);
  }
  g_free (host);
  return TRUE;
}

static gchar *
uri_get (GstURIHandler * handler, const gchar * host_prop)
{
  gchar *host = NULL, *uri;
  gint port = 0;

  g_object_get (handler, host_prop, &host, "port", &port, NULL);
  if (host && strchr (host, ':'))
    uri = g_strdup_printf (GST_ST2022_URI_PROTOCOL "://[%s]:%d", host, port);
  else
    uri = g_strdup_printf (GST_ST2022_URI_PROTOCOL "://%s:%d",
        GST_STR_NULL (host), port);
  g_free (host);
  return uri;
}

static const gchar *const *
uri_get_protocols (GType type)
{
  static const gchar *protocols[] = { GST_ST2022_URI_PROTOCOL, NULL };
  return protocols;
}

static GstURIType
src_get_type (GType type)
{
  return GST_URI_SRC;
}

static GstURIType
sink_get_type (GType type)
{
  return GST_URI_SINK;
}

static gchar *
src_get_uri (GstURIHandler * handler)
{
  return uri_get (handler, "address");
}

static gchar *
sink_get_uri (GstURIHandler * handler)
{
  return uri_get (handler, "host");
}

static gboolean
src_set_uri (GstURIHandler * handler, const gchar * uri, GError ** error)
{
  return uri_set (handler, "address", uri, error);
}

static gboolean
sink_set_uri (GstURIHandler * handler, const gchar * uri, GError ** error)
{
  return uri_set (handler, "host", uri, error);
}

void
gst_st2022_src_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = g_iface;

  iface->get_type = src_get_type;
  iface->get_protocols = uri_get_protocols;
  iface->get_uri = src_get_uri;
  iface->set_uri = src_set_uri;
}

void
gst_st2022_sink_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = g_iface;

  iface->get_type = sink_get_type;
  iface->get_protocols = uri_get_protocols;
  iface->get_uri = sink_get_uri;
  iface->set_uri = sink_set_uri;
}
