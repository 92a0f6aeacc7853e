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
      gchar *eq = strchr (*i, '='), *k, *v;
      if (**i == '\0')
        continue;
      if (eq)
        *eq = '\0';
      /* NULL: a broken %xx, or %00 (a name or value cannot hold a NUL) */
      k = g_uri_unescape_string (*i, NULL);
      v = g_uri_unescape_string (eq ? eq + 1 : "", NULL);
      if (k == NULL || v == NULL || *k == '\0') {
        if (eq)
          *eq = '=';
        g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
            "'%s': query parameter '%s': %s", uri, *i, k && v ?
            "no name: write ?name=value" : "bad percent-encoding (a %xx "
            "that is not hex, or %00)");
        g_free (k);
        g_free (v);
        g_strfreev (kv);
        g_clear_pointer (query, g_hash_table_unref);
        g_clear_pointer (host, g_free);
        return FALSE;
      }
      g_hash_table_insert (*query, k, v);
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

/* What @pspec accepts, for an error message. */
static gchar *
describe_range (GParamSpec * pspec)
{
  if (G_IS_PARAM_SPEC_INT (pspec)) {
    GParamSpecInt *p = G_PARAM_SPEC_INT (pspec);
    return g_strdup_printf ("a number %d-%d", p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_UINT (pspec)) {
    GParamSpecUInt *p = G_PARAM_SPEC_UINT (pspec);
    return g_strdup_printf ("a number %u-%u", p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_INT64 (pspec)) {
    GParamSpecInt64 *p = G_PARAM_SPEC_INT64 (pspec);
    return g_strdup_printf ("a number %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
        p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_UINT64 (pspec)) {
    GParamSpecUInt64 *p = G_PARAM_SPEC_UINT64 (pspec);
    return g_strdup_printf ("a number %" G_GUINT64_FORMAT "-%"
        G_GUINT64_FORMAT, p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_DOUBLE (pspec)) {
    GParamSpecDouble *p = G_PARAM_SPEC_DOUBLE (pspec);
    return g_strdup_printf ("a number %g-%g", p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_BOOLEAN (pspec)) {
    return g_strdup ("true or false");
  } else if (G_IS_PARAM_SPEC_ENUM (pspec)) {
    GEnumClass *e = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    GString *s = g_string_new ("one of");
    guint i;
    for (i = 0; i < e->n_values; i++)
      g_string_append_printf (s, "%s %s", i ? "," : "",
          e->values[i].value_nick);
    return g_string_free (s, FALSE);
  }
  return g_strdup_printf ("a %s", g_type_name (pspec->value_type));
}

static gboolean
unsigned_type (GType t)
{
  return t == G_TYPE_UINT || t == G_TYPE_UINT64 || t == G_TYPE_ULONG
      || t == G_TYPE_UCHAR;
}

static void
uri_value_clear (gpointer p)
{
  g_value_unset (&((GstSt2022UriValue *) p)->value);
}

gboolean
gst_st2022_uri_query_values (GObjectClass * klass, const gchar * uri,
    GHashTable * query, GArray ** values, GError ** error)
{
  GHashTableIter it;
  gpointer k, v;

  *values = g_array_new (FALSE, TRUE, sizeof (GstSt2022UriValue));
  g_array_set_clear_func (*values, uri_value_clear);
  if (query == NULL)
    return TRUE;
  g_hash_table_iter_init (&it, query);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    GParamSpec *ps = g_object_class_find_property (klass, k);
    GstSt2022UriValue pv = { NULL, G_VALUE_INIT };
    gchar *want;

    if (ps == NULL || !(ps->flags & G_PARAM_WRITABLE)
        || (ps->flags & G_PARAM_CONSTRUCT_ONLY)) {
      g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
          "'%s': %s has no writable property '%s'", uri,
          g_type_name (G_OBJECT_CLASS_TYPE (klass)), (gchar *) k);
      goto fail;
    }
    pv.name = ps->name;
    g_value_init (&pv.value, ps->value_type);
    /* g_param_value_validate() TRUE: the value had to be clamped, so it
     * was outside what the property takes; GStreamer's number parser wraps
     * "-1" to the largest unsigned value: in a URI that is a typo */
    if (!gst_value_deserialize_with_pspec (&pv.value, v, ps)
        || g_param_value_validate (ps, &pv.value)
        || (unsigned_type (ps->value_type) && strchr (v, '-'))) {
      want = describe_range (ps);
      g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
          "'%s': query parameter '%s': '%s' is not %s", uri, (gchar *) k,
          (gchar *) v, want);
      g_free (want);
      g_value_unset (&pv.value);
      goto fail;
    }
    g_array_append_val (*values, pv);
  }
  return TRUE;

fail:
  g_clear_pointer (values, g_array_unref);
  return FALSE;
}

static gboolean
uri_set (GstURIHandler * handler, const gchar * host_prop, const gchar * uri,
    GError ** error)
{
  GObject *obj = G_OBJECT (handler);
  GHashTable *query;
  GArray *values;
  gchar *host;
  guint port, i;
  gboolean ok;

  if (GST_STATE (handler) > GST_STATE_READY) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE,
        "the URI can only be changed in the NULL or READY state");
    return FALSE;
  }
  if (!gst_st2022_uri_parse (uri, &host, &port, &query, error))
    return FALSE;
  /* check all before setting any: a bad URI changes nothing */
  ok = gst_st2022_uri_query_values (G_OBJECT_GET_CLASS (obj), uri, query,
      &values, error);
  if (query)
    g_hash_table_unref (query);
  if (!ok) {
    g_free (host);
    return FALSE;
  }
  g_object_freeze_notify (obj);
  g_object_set (obj, host_prop, host, "port", (gint) port, NULL);
  for (i = 0; i < values->len; i++) {
    GstSt2022UriValue *pv = &g_array_index (values, GstSt2022UriValue, i);
    g_object_set_property (obj, pv->name, &pv->value);
  }
  g_object_thaw_notify (obj);
  g_array_unref (values);
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
