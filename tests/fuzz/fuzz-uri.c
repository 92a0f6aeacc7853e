/* gst-vmi: libFuzzer target for st2022:// URIs (gst/st2022-elements/gstst2022uri.c)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Input: a URI. It goes to gst_st2022_uri_parse() and, through the
 * GstURIHandler st2022src uses (gst_st2022_src_uri_handler_init()), to an
 * element whose properties have each kind of type a query can set: string,
 * int and unsigned ranges, 64-bit, boolean, enum, double, a read-only one.
 * Checks besides the sanitizers (and no GLib critical, which aborts): a
 * parsed URI has a host and a port <= 65535 and no NULL query name or
 * value; a refused URI says why and changes nothing; an accepted one reads
 * back (get_uri) as a URI that parses to the same host and port. */

#include <stdint.h>
#include <string.h>
#include <gst/gst.h>

#include "../../gst/st2022-elements/gstst2022uri.h"

typedef enum
{
  FUZZ_MODE_A, FUZZ_MODE_B, FUZZ_MODE_C
} FuzzMode;

static GType
fuzz_mode_get_type (void)
{
  static GType t = 0;
  static const GEnumValue values[] = {
    {FUZZ_MODE_A, "A", "a"}, {FUZZ_MODE_B, "B", "b"}, {FUZZ_MODE_C, "C", "c"},
    {0, NULL, NULL}
  };
  if (t == 0)
    t = g_enum_register_static ("FuzzUriMode", values);
  return t;
}

enum
{
  PROP_0, PROP_ADDRESS, PROP_PORT, PROP_TIMEOUT, PROP_PT, PROP_SSRC,
  PROP_DROP, PROP_MODE, PROP_RATIO, PROP_STATS
};

typedef struct
{
  GstElement parent;
  gchar *address;
  gint port;
  guint64 timeout;
  guint pt, ssrc;
  gboolean drop;
  gint mode;
  gdouble ratio;
} FuzzUriSrc;

typedef struct
{
  GstElementClass parent_class;
} FuzzUriSrcClass;

static GType fuzz_uri_src_get_type (void);
G_DEFINE_TYPE_WITH_CODE (FuzzUriSrc, fuzz_uri_src, GST_TYPE_ELEMENT,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_st2022_src_uri_handler_init));

static void
fuzz_uri_src_set_property (GObject * o, guint id, const GValue * v,
    GParamSpec * ps)
{
  FuzzUriSrc *s = (FuzzUriSrc *) o;

  switch (id) {
    case PROP_ADDRESS:
      g_free (s->address);
      s->address = g_value_dup_string (v);
      break;
    case PROP_PORT:
      s->port = g_value_get_int (v);
      break;
    case PROP_TIMEOUT:
      s->timeout = g_value_get_uint64 (v);
      break;
    case PROP_PT:
      s->pt = g_value_get_uint (v);
      break;
    case PROP_SSRC:
      s->ssrc = g_value_get_uint (v);
      break;
    case PROP_DROP:
      s->drop = g_value_get_boolean (v);
      break;
    case PROP_MODE:
      s->mode = g_value_get_enum (v);
      break;
    case PROP_RATIO:
      s->ratio = g_value_get_double (v);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (o, id, ps);
  }
}

static void
fuzz_uri_src_get_property (GObject * o, guint id, GValue * v,
    GParamSpec * ps)
{
  FuzzUriSrc *s = (FuzzUriSrc *) o;

  switch (id) {
    case PROP_ADDRESS:
      g_value_set_string (v, s->address);
      break;
    case PROP_PORT:
      g_value_set_int (v, s->port);
      break;
    case PROP_STATS:
      g_value_take_boxed (v, gst_structure_new_empty ("stats"));
      break;
    default:
      g_value_reset (v);
      break;
  }
}

static void
fuzz_uri_src_finalize (GObject * o)
{
  g_free (((FuzzUriSrc *) o)->address);
  G_OBJECT_CLASS (fuzz_uri_src_parent_class)->finalize (o);
}

static void
fuzz_uri_src_class_init (FuzzUriSrcClass * klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  oc->set_property = fuzz_uri_src_set_property;
  oc->get_property = fuzz_uri_src_get_property;
  oc->finalize = fuzz_uri_src_finalize;
  g_object_class_install_property (oc, PROP_ADDRESS,
      g_param_spec_string ("address", "a", "a", "0.0.0.0", rw));
  g_object_class_install_property (oc, PROP_PORT,
      g_param_spec_int ("port", "p", "p", 0, 65535, 5004, rw));
  g_object_class_install_property (oc, PROP_TIMEOUT,
      g_param_spec_uint64 ("timeout", "t", "t", 0, G_MAXUINT64, 1, rw));
  g_object_class_install_property (oc, PROP_PT,
      g_param_spec_uint ("payload-type", "pt", "pt", 0, 127, 0, rw));
  g_object_class_install_property (oc, PROP_SSRC,
      g_param_spec_uint ("ssrc", "s", "s", 0, G_MAXUINT, G_MAXUINT, rw));
  g_object_class_install_property (oc, PROP_DROP,
      g_param_spec_boolean ("drop-corrupted", "d", "d", FALSE, rw));
  g_object_class_install_property (oc, PROP_MODE,
      g_param_spec_enum ("mode", "m", "m", fuzz_mode_get_type (),
          FUZZ_MODE_A, rw));
  g_object_class_install_property (oc, PROP_RATIO,
      g_param_spec_double ("ratio", "r", "r", 0.0, 1.0, 0.5, rw));
  g_object_class_install_property (oc, PROP_STATS,
      g_param_spec_boxed ("stats", "st", "st", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
fuzz_uri_src_init (FuzzUriSrc * s)
{
  s->address = g_strdup ("0.0.0.0");
  s->port = 5004;
}

static GstElement *elem;

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static void
on_log (const gchar * domain, GLogLevelFlags level, const gchar * msg,
    gpointer user_data)
{
  /* a critical or warning is a bug of the URI code: abort, a finding */
  if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_FLAG_FATAL))
    __builtin_trap ();
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_setenv ("GST_REGISTRY_DISABLE", "yes", TRUE);
  gst_init (NULL, NULL);
  g_log_set_default_handler (on_log, NULL);
  elem = g_object_new (fuzz_uri_src_get_type (), NULL);
  /* one-time allocations (types, quarks, enum classes) before the leak
   * checker watches */
  gst_uri_handler_set_uri (GST_URI_HANDLER (elem),
      "st2022://@232.1.2.3:5006?mode=b&ratio=0.25&drop-corrupted=true&"
      "timeout=7&payload-type=99&ssrc=1&address=1.2.3.4", NULL);
  gst_uri_handler_set_uri (GST_URI_HANDLER (elem),
      "st2022://1.2.3.4?mode=x&ratio=2&port=70000", NULL);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  gchar *uri = g_strndup ((const gchar *) data, size);
  gchar *host = NULL, *before = NULL, *after = NULL, *back;
  GHashTable *query = NULL;
  GError *err = NULL;
  guint port;

  if (gst_st2022_uri_parse (uri, &host, &port, &query, &err)) {
    if (host == NULL || *host == '\0' || port > 65535)
      __builtin_trap ();
    if (query) {
      GHashTableIter it;
      gpointer k, v;

      g_hash_table_iter_init (&it, query);
      while (g_hash_table_iter_next (&it, &k, &v))
        if (k == NULL || v == NULL || *(gchar *) k == '\0')
          __builtin_trap ();
      g_hash_table_unref (query);
    }
    g_free (host);
  } else {
    if (err == NULL || err->message[0] == '\0' || host != NULL
        || query != NULL)
      __builtin_trap ();
    g_clear_error (&err);
  }

  before = gst_uri_handler_get_uri (GST_URI_HANDLER (elem));
  if (gst_uri_handler_set_uri (GST_URI_HANDLER (elem), uri, &err)) {
    gchar *h2 = NULL;
    guint p2;
    GHashTable *q2 = NULL;
    gint p;

    back = gst_uri_handler_get_uri (GST_URI_HANDLER (elem));
    g_object_get (elem, "port", &p, NULL);
    /* the URI read back parses (when its host is one a URI can carry) */
    if (((FuzzUriSrc *) elem)->address && !strpbrk (((FuzzUriSrc *)
                elem)->address, "?@[]/") && gst_st2022_uri_parse (back, &h2,
            &p2, &q2, NULL)) {
      if (p2 != (guint) p || g_strcmp0 (h2, ((FuzzUriSrc *) elem)->address))
        __builtin_trap ();
    }
    g_free (h2);
    if (q2)
      g_hash_table_unref (q2);
    g_free (back);
  } else {
    if (err == NULL || err->message[0] == '\0')
      __builtin_trap ();
    g_clear_error (&err);
    /* a refused URI changes nothing */
    after = gst_uri_handler_get_uri (GST_URI_HANDLER (elem));
    if (strcmp (before, after) != 0)
      __builtin_trap ();
  }
  g_free (before);
  g_free (after);
  g_free (uri);
  return 0;
}
