/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * The tests' IS-04 Registration API (see nmos-registry.h). Built with
 * NMOS_REGISTRY_MAIN it is also a program (pipelines/nmos-facility.sh):
 *   nmos-registry [--port N] [--any]   prints its URL, serves until killed
 * It also answers GET /x-nmos/query/v1.3/<type>s (every resource of the
 * type, no query parameters) and /<type>s/<id>, so a controller (and AMWA's
 * testing tool, docs/nmos.md) can find resources through it.
 */

#include "nmos-registry.h"

#include <string.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

typedef struct
{
  gchar *type;
  gchar *data;
} Entry;

struct _NmosRegistry
{
  GMutex lock;
  GCond cond;
  GHashTable *resources;        /* id -> Entry */
  guint heartbeats;
  guint node_posts;

  GMainContext *ctx;
  GMainLoop *loop;
  SoupServer *server;
  GThread *thread;
  guint port;
};

static void
entry_free (gpointer p)
{
  Entry *e = p;

  g_free (e->type);
  g_free (e->data);
  g_free (e);
}

static void
reply (SoupServerMessage * msg, guint status, const gchar * body)
{
  soup_server_message_set_status (msg, status, NULL);
  if (body)
    soup_server_message_set_response (msg, "application/json",
        SOUP_MEMORY_COPY, body, strlen (body));
}

/* A Query API subset for a controller (pipelines/nmos-facility.sh):
 * GET /x-nmos/query/v1.3/<type>s lists the registered resources of that
 * type, no filters, no paging. */
static void
serve_query (NmosRegistry * r, SoupServerMessage * msg, const gchar * what)
{
  GString *out = g_string_new ("[");
  gchar *type = g_strdup (what);
  gsize len = strlen (type);
  GHashTableIter it;
  gpointer k, v;
  gboolean first = TRUE;

  gchar *id = NULL;

  while (len > 0 && type[len - 1] == '/')
    type[--len] = '\0';
  /* <type>s/<id>: that one resource */
  if ((id = strchr (type, '/'))) {
    Entry *e;

    *id++ = '\0';
    g_mutex_lock (&r->lock);
    e = g_hash_table_lookup (r->resources, id);
    if (e && g_str_has_prefix (type, e->type))
      reply (msg, 200, e->data);
    else
      reply (msg, 404, "{\"code\":404,\"error\":\"not found\","
          "\"debug\":null}");
    g_mutex_unlock (&r->lock);
    g_string_free (out, TRUE);
    g_free (type);
    return;
  }
  len = strlen (type);
  if (len > 0 && type[len - 1] == 's')
    type[--len] = '\0';
  g_mutex_lock (&r->lock);
  g_hash_table_iter_init (&it, r->resources);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    Entry *e = v;
    if (strcmp (e->type, type) != 0)
      continue;
    if (!first)
      g_string_append_c (out, ',');
    g_string_append (out, e->data);
    first = FALSE;
  }
  g_mutex_unlock (&r->lock);
  g_string_append_c (out, ']');
  reply (msg, 200, out->str);
  g_string_free (out, TRUE);
  g_free (type);
}

static void
handle (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  NmosRegistry *r = user_data;
  const gchar *method = soup_server_message_get_method (msg);
  const gchar *prefix = "/x-nmos/registration/v1.3/";
  gchar **parts;
  guint n;

  if (g_str_has_prefix (path, "/x-nmos/query/v1.3/")
      && strcmp (method, "GET") == 0) {
    serve_query (r, msg, path + strlen ("/x-nmos/query/v1.3/"));
    return;
  }
  if (!g_str_has_prefix (path, prefix)) {
    reply (msg, 404, "{\"code\":404,\"error\":\"not found\",\"debug\":null}");
    return;
  }
  parts = g_strsplit (path + strlen (prefix), "/", -1);
  n = g_strv_length (parts);
  g_mutex_lock (&r->lock);
  if (n == 1 && strcmp (parts[0], "resource") == 0
      && strcmp (method, "POST") == 0) {
    SoupMessageBody *b = soup_server_message_get_request_body (msg);
    gchar *text = g_strndup (b->data, b->length);
    JsonNode *root = json_from_string (text, NULL);
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT (root) ?
        json_node_get_object (root) : NULL;
    JsonNode *data = o ? json_object_get_member (o, "data") : NULL;
    const gchar *type = o && json_object_has_member (o, "type") ?
        json_object_get_string_member (o, "type") : NULL;
    const gchar *id = data && JSON_NODE_HOLDS_OBJECT (data) ?
        json_object_get_string_member (json_node_get_object (data), "id") :
        NULL;

    if (type == NULL || id == NULL) {
      reply (msg, 400, "{\"code\":400,\"error\":\"bad resource\","
          "\"debug\":null}");
    } else {
      Entry *e = g_new0 (Entry, 1);
      gboolean exists = g_hash_table_contains (r->resources, id);

      e->type = g_strdup (type);
      e->data = json_to_string (data, FALSE);
      if (strcmp (type, "node") == 0)
        r->node_posts++;
      g_hash_table_replace (r->resources, g_strdup (id), e);
      reply (msg, exists ? 200 : 201, e->data);
    }
    if (root)
      json_node_unref (root);
    g_free (text);
  } else if (n == 3 && strcmp (parts[0], "resource") == 0
      && strcmp (method, "DELETE") == 0) {
    if (g_hash_table_remove (r->resources, parts[2]))
      reply (msg, 204, NULL);
    else
      reply (msg, 404, "{\"code\":404,\"error\":\"not found\","
          "\"debug\":null}");
  } else if (n == 3 && strcmp (parts[0], "health") == 0
      && strcmp (parts[1], "nodes") == 0 && strcmp (method, "POST") == 0) {
    r->heartbeats++;
    if (g_hash_table_contains (r->resources, parts[2])) {
      gchar *body = g_strdup_printf ("{\"health\":\"%" G_GINT64_FORMAT "\"}",
          g_get_real_time () / G_USEC_PER_SEC);
      reply (msg, 200, body);
      g_free (body);
    } else {
      reply (msg, 404, "{\"code\":404,\"error\":\"node not registered\","
          "\"debug\":null}");
    }
  } else {
    reply (msg, 405, "{\"code\":405,\"error\":\"not allowed\","
        "\"debug\":null}");
  }
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  g_strfreev (parts);
}

static gpointer
run (gpointer data)
{
  NmosRegistry *r = data;

  g_main_context_push_thread_default (r->ctx);
  g_main_loop_run (r->loop);
  g_main_context_pop_thread_default (r->ctx);
  return NULL;
}

NmosRegistry *
nmos_registry_new (guint port, gboolean any)
{
  NmosRegistry *r = g_new0 (NmosRegistry, 1);
  GError *err = NULL;
  GSList *uris;
  gboolean ok;

  g_mutex_init (&r->lock);
  g_cond_init (&r->cond);
  r->resources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      entry_free);
  r->ctx = g_main_context_new ();
  r->loop = g_main_loop_new (r->ctx, FALSE);
  g_main_context_push_thread_default (r->ctx);
  r->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (r->server, NULL, handle, r, NULL);
  if (any) {
    ok = soup_server_listen_all (r->server, port,
        SOUP_SERVER_LISTEN_IPV4_ONLY, &err);
  } else {
    GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
    GSocketAddress *sa = g_inet_socket_address_new (lo, port);
    ok = soup_server_listen (r->server, sa, 0, &err);
    g_object_unref (sa);
    g_object_unref (lo);
  }
  g_main_context_pop_thread_default (r->ctx);
  if (!ok)
    g_error ("registry: cannot listen: %s", err->message);
  uris = soup_server_get_uris (r->server);
  r->port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  r->thread = g_thread_new ("test-registry", run, r);
  return r;
}

void
nmos_registry_free (NmosRegistry * r)
{
  g_main_loop_quit (r->loop);
  g_thread_join (r->thread);
  soup_server_disconnect (r->server);
  g_object_unref (r->server);
  g_main_loop_unref (r->loop);
  g_main_context_unref (r->ctx);
  g_hash_table_unref (r->resources);
  g_mutex_clear (&r->lock);
  g_cond_clear (&r->cond);
  g_free (r);
}

guint
nmos_registry_port (NmosRegistry * r)
{
  return r->port;
}

gchar *
nmos_registry_url (NmosRegistry * r)
{
  return g_strdup_printf ("http://127.0.0.1:%u", r->port);
}

gchar *
nmos_registry_get (NmosRegistry * r, const gchar * id)
{
  Entry *e;
  gchar *s;

  g_mutex_lock (&r->lock);
  e = g_hash_table_lookup (r->resources, id);
  s = e ? g_strdup (e->data) : NULL;
  g_mutex_unlock (&r->lock);
  return s;
}

static guint
count_type_unlocked (NmosRegistry * r, const gchar * type, GPtrArray * ids)
{
  GHashTableIter it;
  gpointer k, v;
  guint n = 0;

  g_hash_table_iter_init (&it, r->resources);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    Entry *e = v;
    if (type == NULL || strcmp (e->type, type) == 0) {
      n++;
      if (ids)
        g_ptr_array_add (ids, g_strdup (k));
    }
  }
  return n;
}

GPtrArray *
nmos_registry_ids (NmosRegistry * r, const gchar * type)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  g_mutex_lock (&r->lock);
  count_type_unlocked (r, type, ids);
  g_mutex_unlock (&r->lock);
  return ids;
}

guint
nmos_registry_count (NmosRegistry * r)
{
  guint n;

  g_mutex_lock (&r->lock);
  n = g_hash_table_size (r->resources);
  g_mutex_unlock (&r->lock);
  return n;
}

guint
nmos_registry_heartbeats (NmosRegistry * r)
{
  guint n;

  g_mutex_lock (&r->lock);
  n = r->heartbeats;
  g_mutex_unlock (&r->lock);
  return n;
}

guint
nmos_registry_node_posts (NmosRegistry * r)
{
  guint n;

  g_mutex_lock (&r->lock);
  n = r->node_posts;
  g_mutex_unlock (&r->lock);
  return n;
}

void
nmos_registry_restart (NmosRegistry * r)
{
  g_mutex_lock (&r->lock);
  g_hash_table_remove_all (r->resources);
  g_mutex_unlock (&r->lock);
}

gboolean
nmos_registry_wait_count (NmosRegistry * r, const gchar * type, guint n,
    guint timeout_s)
{
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  gboolean ok = TRUE;

  g_mutex_lock (&r->lock);
  while (count_type_unlocked (r, type, NULL) != n && ok)
    ok = g_cond_wait_until (&r->cond, &r->lock, end);
  g_mutex_unlock (&r->lock);
  return ok;
}

gboolean
nmos_registry_wait_node_posts (NmosRegistry * r, guint n, guint timeout_s)
{
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  gboolean ok = TRUE;

  g_mutex_lock (&r->lock);
  while (r->node_posts < n && ok)
    ok = g_cond_wait_until (&r->cond, &r->lock, end);
  g_mutex_unlock (&r->lock);
  return ok;
}

#ifdef NMOS_REGISTRY_MAIN
int
main (int argc, char **argv)
{
  gint port = 0;
  gboolean any = FALSE;
  GOptionEntry entries[] = {
    {"port", 0, 0, G_OPTION_ARG_INT, &port, "TCP port (0 = any)", "N"},
    {"any", 0, 0, G_OPTION_ARG_NONE, &any, "Listen on every IPv4 address",
        NULL},
    {NULL}
  };
  GOptionContext *oc = g_option_context_new ("- IS-04 registry for tests");
  GMainLoop *loop;
  NmosRegistry *r;

  g_option_context_add_main_entries (oc, entries, NULL);
  if (!g_option_context_parse (oc, &argc, &argv, NULL))
    return 2;
  g_option_context_free (oc);
  r = nmos_registry_new (port, any);
  g_print ("http://%s:%u\n", any ? "0.0.0.0" : "127.0.0.1",
      nmos_registry_port (r));
  loop = g_main_loop_new (NULL, FALSE);
  g_main_loop_run (loop);
  return 0;
}
#endif
