/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * The NMOS node of st2022sink / st2022src, end to end on loopback: what it
 * registers with a registry run here (including a 404 heartbeat after a
 * registry restart and the deregistration at stop), the Node and
 * Connection APIs with exact bodies, malformed requests, and an IS-05
 * activation that retargets a playing st2022src from one sender to another
 * with the frames of both counted.
 */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "st2022-elements/gstst2022meta.h"
#include "nmos-registry.h"
#include "vmi-nmos.h"

#define CAPS_720P50 "video/x-raw,format=UYVP,width=1280,height=720," \
    "framerate=50/1,interlace-mode=progressive"

static SoupSession *session;

/* a request to the node; the body returned, @status set */
static gchar *
http (const gchar * method, guint port, const gchar * path,
    const gchar * body, guint * status)
{
  gchar *url = g_strdup_printf ("http://127.0.0.1:%u%s", port, path);
  SoupMessage *msg = soup_message_new (method, url);
  GError *err = NULL;
  GBytes *resp;
  gchar *out;

  fail_unless (msg != NULL, "bad URL %s", url);
  if (body) {
    GBytes *b = g_bytes_new (body, strlen (body));
    soup_message_set_request_body_from_bytes (msg, "application/json", b);
    g_bytes_unref (b);
  }
  resp = soup_session_send_and_read (session, msg, NULL, &err);
  fail_unless (resp != NULL, "%s %s: %s", method, url, err ? err->message :
      "?");
  *status = soup_message_get_status (msg);
  out = g_strndup (g_bytes_get_data (resp, NULL), g_bytes_get_size (resp));
  g_bytes_unref (resp);
  g_object_unref (msg);
  g_free (url);
  return out;
}

static gchar *
http_ok (const gchar * method, guint port, const gchar * path,
    const gchar * body, guint want)
{
  guint status;
  gchar *out = http (method, port, path, body, &status);

  fail_unless (status == want, "%s %s -> %u (not %u) %s", method, path,
      status, want, out);
  return out;
}

static JsonObject *
parse_object (const gchar * text)
{
  JsonNode *n = json_from_string (text, NULL);
  JsonObject *o;

  fail_unless (n && JSON_NODE_HOLDS_OBJECT (n), "not an object: %s", text);
  o = json_object_ref (json_node_get_object (n));
  json_node_unref (n);
  return o;
}

/* the UUID the node derives for an element's resource (docs/nmos.md) */
static gchar *
expected_id (const gchar * node_id, GstElement * e, const gchar * what)
{
  gchar *path = gst_object_get_path_string (GST_OBJECT (e));
  gchar *name = g_strdup_printf ("%s:%s:%s", node_id, path, what);
  gchar id[VMI_NMOS_UUID_LEN];

  vmi_nmos_uuid_from_name (name, id);
  g_free (name);
  g_free (path);
  return g_strdup (id);
}

/* the node's host address: the one its API endpoint names */
static gchar *
node_host (guint node_port)
{
  guint status;
  gchar *self = http ("GET", node_port, "/x-nmos/node/v1.3/self", NULL,
      &status);
  JsonNode *n = json_from_string (self, NULL);
  JsonObject *o = json_node_get_object (n);
  JsonObject *ep = json_array_get_object_element (json_object_get_array_member
      (json_object_get_object_member (o, "api"), "endpoints"), 0);
  gchar *host = g_strdup (json_object_get_string_member (ep, "host"));

  json_node_unref (n);
  g_free (self);
  return host;
}

static gchar *
expected_node_id (guint node_port, guint configured_port)
{
  gchar *host = node_host (node_port);
  gchar *name = g_strdup_printf ("node:%s:%s:%u", g_get_host_name (), host,
      configured_port);
  gchar id[VMI_NMOS_UUID_LEN];

  vmi_nmos_uuid_from_name (name, id);
  g_free (name);
  g_free (host);
  return g_strdup (id);
}

static void
play (GstElement * p)
{
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (p, NULL, NULL, 10 * GST_SECOND) !=
      GST_STATE_CHANGE_FAILURE);
}

static void
stop (GstElement * p)
{
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

/* Waits for an element message named @name from @from, failing on an
 * error. */
static void
wait_element_message (GstElement * pipe, GstElement * from,
    const gchar * name, guint timeout_s)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  for (;;) {
    gint64 left = end - g_get_monotonic_time ();
    GstMessage *m;

    fail_unless (left > 0, "no %s message within %u s", name, timeout_s);
    m = gst_bus_timed_pop_filtered (bus, left * GST_USECOND,
        GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR);
    fail_unless (m != NULL, "no %s message within %u s", name, timeout_s);
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err;
      gst_message_parse_error (m, &err, NULL);
      fail ("error: %s", err->message);
    }
    if (GST_MESSAGE_SRC (m) == GST_OBJECT (from)
        && gst_structure_has_name (gst_message_get_structure (m), name)) {
      gst_message_unref (m);
      break;
    }
    gst_message_unref (m);
  }
  gst_object_unref (bus);
}

/* Drops the bus's pending messages (failing on an error): what is waited
 * for next happens after this point. */
static void
drain_bus (GstElement * pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *m;

  while ((m = gst_bus_pop (bus))) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err;
      gst_message_parse_error (m, &err, NULL);
      fail ("error: %s", err->message);
    }
    gst_message_unref (m);
  }
  gst_object_unref (bus);
}

static void
no_error (GstElement * pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (m) {
    GError *err;
    gst_message_parse_error (m, &err, NULL);
    fail ("error: %s", err->message);
  }
  gst_object_unref (bus);
}

static GstElement *
sender_pipeline (guint port, guint ssrc, const gchar * registry,
    GstElement ** sink)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true ! " CAPS_720P50
      " ! st2022sink name=sink host=127.0.0.1 port=%u ssrc=%u nmos=true "
      "nmos-registry=\"%s\"", port, ssrc, registry ? registry : "none");
  GstElement *p = gst_parse_launch (desc, NULL);

  fail_unless (p != NULL);
  g_free (desc);
  *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_object_unref (*sink);
  return p;
}

/* --- registration ------------------------------------------------------- */

GST_START_TEST (test_registration)
{
  NmosRegistry *reg = nmos_registry_new (0, FALSE);
  gchar *live = nmos_registry_url (reg), *url;
  guint dead_port;
  GSocket *sock;

  /* the first registry listed is down: the node fails over to the second */
  {
    sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
        G_SOCKET_PROTOCOL_TCP, NULL);
    GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
    GSocketAddress *sa = g_inet_socket_address_new (lo, 0), *bound;

    fail_unless (g_socket_bind (sock, sa, FALSE, NULL));
    bound = g_socket_get_local_address (sock, NULL);
    dead_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS
        (bound));
    g_object_unref (bound);
    g_object_unref (sa);
    g_object_unref (lo);
    /* bound, never listening: connections are refused */
    url = g_strdup_printf ("http://127.0.0.1:%u, %s", dead_port, live);
  }
  GstElement *pipe, *sink, *src;
  gchar *desc, *node_id, *sender_id, *receiver_id, *s, *api, *sdp, *path;
  JsonObject *o;
  guint port, posts;
  gint node_port;

  desc = g_strdup_printf ("videotestsrc is-live=true ! " CAPS_720P50
      " ! st2022sink name=sink host=127.0.0.1 port=5004 nmos=true "
      "nmos-registry=\"%s\" nmos-label=camera-1 "
      "st2022src name=src port=0 nmos=true nmos-registry=\"%s\" ! fakesink",
      url, url);
  pipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  /* the sink sends to the src's ephemeral port: bind it first */
  fail_unless (gst_element_set_state (src, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (src, "port", &port, NULL);
  g_object_set (sink, "port", port, NULL);
  play (pipe);

  /* node, device, source, flow, sender, receiver */
  fail_unless (nmos_registry_wait_count (reg, "node", 1, 10));
  fail_unless (nmos_registry_wait_count (reg, "device", 1, 10));
  fail_unless (nmos_registry_wait_count (reg, "source", 1, 10));
  fail_unless (nmos_registry_wait_count (reg, "flow", 1, 10));
  fail_unless (nmos_registry_wait_count (reg, "sender", 1, 10));
  fail_unless (nmos_registry_wait_count (reg, "receiver", 1, 10));
  fail_unless_equals_int (nmos_registry_count (reg), 6);

  /* stable ids: host + configured port, then each element's path */
  g_object_get (sink, "nmos-node-port", &node_port, NULL);
  fail_unless (node_port > 0);
  node_id = expected_node_id (node_port, 0);
  sender_id = expected_id (node_id, sink, "sender");
  receiver_id = expected_id (node_id, src, "receiver");
  s = nmos_registry_get (reg, node_id);
  fail_unless (s != NULL, "node %s not registered", node_id);
  g_free (s);

  /* the registered sender is what the Node API serves */
  s = nmos_registry_get (reg, sender_id);
  fail_unless (s != NULL);
  path = g_strdup_printf ("/x-nmos/node/v1.3/senders/%s", sender_id);
  api = http_ok ("GET", node_port, path, NULL, 200);
  fail_unless_equals_string (api, s);
  g_free (path);
  o = parse_object (s);
  fail_unless_equals_string (json_object_get_string_member (o, "label"),
      "camera-1");
  fail_unless_equals_string (json_object_get_string_member (o, "transport"),
      "urn:x-nmos:transport:rtp.ucast");
  /* the manifest is the sink's SDP, byte for byte */
  {
    const gchar *href = json_object_get_string_member (o, "manifest_href");
    gchar *expect = g_strdup_printf ("/x-nmos/connection/v1.1/single/"
        "senders/%s/transportfile", sender_id);
    fail_unless (g_str_has_suffix (href, expect), "%s", href);
    g_object_get (sink, "sdp", &sdp, NULL);
    g_free (api);
    api = http_ok ("GET", node_port, expect, NULL, 200);
    fail_unless_equals_string (api, sdp);
    g_free (sdp);
    g_free (expect);
  }
  json_object_unref (o);
  g_free (api);
  g_free (s);

  /* flow: mux, video/SMPTE2022-6, the grain rate of the caps */
  {
    GPtrArray *ids = nmos_registry_ids (reg, "flow");
    gchar *p = g_strdup_printf ("/x-nmos/node/v1.3/flows/%s",
        (gchar *) g_ptr_array_index (ids, 0));
    JsonObject *rate;

    api = http_ok ("GET", node_port, p, NULL, 200);
    o = parse_object (api);
    fail_unless_equals_string (json_object_get_string_member (o, "format"),
        "urn:x-nmos:format:mux");
    fail_unless_equals_string (json_object_get_string_member (o,
            "media_type"), "video/SMPTE2022-6");
    rate = json_object_get_object_member (o, "grain_rate");
    fail_unless (rate != NULL);
    fail_unless_equals_int (json_object_get_int_member (rate, "numerator"),
        50);
    fail_unless_equals_int (json_object_get_int_member (rate,
            "denominator"), 1);
    json_object_unref (o);
    g_free (api);
    g_free (p);
    g_ptr_array_unref (ids);
  }

  /* receiver: mux, caps video/SMPTE2022-6, not subscribed */
  s = nmos_registry_get (reg, receiver_id);
  fail_unless (s != NULL);
  o = parse_object (s);
  fail_unless_equals_string (json_object_get_string_member (o, "format"),
      "urn:x-nmos:format:mux");
  fail_unless_equals_string (json_node_get_string (json_array_get_element
          (json_object_get_array_member (json_object_get_object_member (o,
                      "caps"), "media_types"), 0)), "video/SMPTE2022-6");
  fail_unless (json_object_get_null_member (json_object_get_object_member (o,
              "subscription"), "sender_id"));
  json_object_unref (o);
  g_free (s);

  /* the registry restarts empty: the next heartbeat gets 404 and the node
   * registers everything again */
  posts = nmos_registry_node_posts (reg);
  nmos_registry_restart (reg);
  fail_unless (nmos_registry_wait_node_posts (reg, posts + 1, 15));
  fail_unless (nmos_registry_wait_count (reg, "sender", 1, 10));
  fail_unless (nmos_registry_wait_count (reg, "receiver", 1, 10));
  fail_unless (nmos_registry_wait_count (reg, NULL, 6, 10));
  fail_unless (nmos_registry_heartbeats (reg) >= 2);

  /* stopping deregisters everything before the state change returns */
  no_error (pipe);
  gst_object_unref (sink);
  gst_object_unref (src);
  stop (pipe);
  fail_unless_equals_int (nmos_registry_count (reg), 0);

  g_free (node_id);
  g_free (sender_id);
  g_free (receiver_id);
  g_free (url);
  g_free (live);
  g_object_unref (sock);
  nmos_registry_free (reg);
}

GST_END_TEST;

/* --- the APIs, exact bodies and malformed requests ---------------------- */

GST_START_TEST (test_connection_api)
{
  GstElement *pipe, *tx, *sink, *src;
  gchar *node_id, *sender_id, *receiver_id, *path, *body, *expect, *staged;
  gchar *active;
  gint node_port, port, source_port;
  guint i, status;
  static const struct
  {
    const gchar *body;
    guint status;
    const gchar *error;
  } bad[] = {
    {"not json", 400, "the body must be JSON"},
    {"[1,2]", 400, "the body must be a JSON object"},
    {"{\"foo\":1}", 400, "unknown member foo"},
    {"{\"master_enable\":\"yes\"}", 400, "master_enable must be a boolean"},
    {"{\"sender_id\":\"x\"}", 400, "sender_id must be a UUID or null"},
    {"{\"transport_params\":{}}", 400, "transport_params must be an array"},
    {"{\"transport_params\":[]}", 400, "transport_params has 0 legs"},
    {"{\"transport_params\":[{},{},{}]}", 400, "transport_params has 3 legs"},
    {"{\"transport_params\":[{},{}]}", 400,
        "transport_params has 2 legs; this receiver has 1"},
    {"{\"transport_params\":[{\"fec_enabled\":true}]}", 400,
        "transport parameter fec_enabled is not supported"},
    {"{\"transport_params\":[{\"destination_port\":1.5}]}", 400,
        "destination_port has a value of the wrong type"},
    {"{\"transport_params\":[{\"destination_port\":0}]}", 400,
        "destination_port 0 is outside [1, 65535]"},
    {"{\"transport_params\":[{\"destination_port\":99999999999}]}", 400,
        "destination_port 99999999999 is not a UDP port"},
    {"{\"transport_params\":[{\"multicast_ip\":\"10.1.1.1\"}]}", 400,
        "multicast_ip \"10.1.1.1\" is not an IPv4 multicast address"},
    {"{\"transport_params\":[{\"source_ip\":[1]}]}", 400,
        "source_ip has a value of the wrong type"},
    {"{\"activation\":{\"mode\":\"now\"}}", 400,
        "activation: bad or unknown member mode"},
    {"{\"activation\":{\"mode\":\"activate_scheduled_relative\"}}", 400,
        "a scheduled activation needs requested_time"},
    {"{\"activation\":{\"mode\":\"activate_scheduled_absolute\","
          "\"requested_time\":\"1:1000000000\"}}", 400,
        "activation: bad or unknown member requested_time"},
    {"{\"transport_file\":{\"data\":\"v=0\",\"type\":\"text/plain\"}}", 400,
        "transport_file type must be application/sdp"},
    {"{\"transport_file\":{\"data\":5,\"type\":\"application/sdp\"}}", 400,
        "transport_file data must be a string or null"},
  };

  /* the receiver receives the sender: a silence is then IS-05's doing */
  pipe = gst_pipeline_new ("rx");
  src = gst_element_factory_make ("st2022src", "src");
  g_object_set (src, "port", 0, "nmos", TRUE, NULL);
  gst_bin_add (GST_BIN (pipe), src);
  {
    GstElement *fs = gst_element_factory_make ("fakesink", NULL);
    gst_bin_add (GST_BIN (pipe), fs);
    fail_unless (gst_element_link (src, fs));
  }
  play (pipe);
  g_object_get (src, "nmos-node-port", &node_port, "port", &port, NULL);
  tx = sender_pipeline (port, 1, NULL, &sink);
  play (tx);
  node_id = expected_node_id (node_port, 0);
  sender_id = expected_id (node_id, sink, "sender");
  receiver_id = expected_id (node_id, src, "receiver");

  /* the API trees */
  body = http_ok ("GET", node_port, "/", NULL, 200);
  fail_unless_equals_string (body, "[\"x-nmos/\"]");
  g_free (body);
  body = http_ok ("GET", node_port, "/x-nmos/", NULL, 200);
  fail_unless_equals_string (body, "[\"node/\",\"connection/\"]");
  g_free (body);
  body = http_ok ("GET", node_port, "/x-nmos/node/v1.3", NULL, 200);
  fail_unless_equals_string (body, "[\"self/\",\"sources/\",\"flows/\","
      "\"devices/\",\"senders/\",\"receivers/\"]");
  g_free (body);
  body = http_ok ("GET", node_port, "/x-nmos/connection/v1.1/", NULL, 200);
  fail_unless_equals_string (body, "[\"bulk/\",\"single/\"]");
  g_free (body);
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/senders/%s/",
      sender_id);
  body = http_ok ("GET", node_port, path, NULL, 200);
  fail_unless_equals_string (body, "[\"constraints/\",\"staged/\","
      "\"active/\",\"transportfile/\",\"transporttype/\"]");
  g_free (body);
  g_free (path);

  /* the sender's constraints: exactly what its properties send */
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/senders/%s/"
      "constraints", sender_id);
  body = http_ok ("GET", node_port, path, NULL, 200);
  {
    /* the source port the kernel gave the sender's socket */
    gchar *apath = g_strdup_printf ("/x-nmos/connection/v1.1/single/"
        "senders/%s/active", sender_id);
    gchar *a = http_ok ("GET", node_port, apath, NULL, 200);
    JsonObject *o = parse_object (a);
    JsonObject *leg = json_array_get_object_element
        (json_object_get_array_member (o, "transport_params"), 0);

    source_port = json_object_get_int_member (leg, "source_port");
    fail_unless (source_port > 0 && source_port != port);
    json_object_unref (o);
    g_free (a);
    g_free (apath);
  }
  expect = g_strdup_printf ("[{\"source_ip\":{\"enum\":[\"127.0.0.1\"]},"
      "\"destination_ip\":{\"enum\":[\"127.0.0.1\"]},\"source_port\":"
      "{\"enum\":[%d]},\"destination_port\":{\"enum\":[%d]},"
      "\"rtp_enabled\":{}}]", source_port, port);
  fail_unless_equals_string (body, expect);
  g_free (expect);
  g_free (body);
  g_free (path);

  /* the receiver's staged and active state */
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/receivers/%s/"
      "staged", receiver_id);
  staged = http_ok ("GET", node_port, path, NULL, 200);
  expect = g_strdup_printf ("{\"sender_id\":null,\"master_enable\":true,"
      "\"activation\":{\"mode\":null,\"requested_time\":null,"
      "\"activation_time\":null},\"transport_file\":{\"data\":null,"
      "\"type\":null},\"transport_params\":[{\"source_ip\":null,"
      "\"multicast_ip\":null,\"interface_ip\":\"auto\","
      "\"destination_port\":%d,\"rtp_enabled\":true}]}", port);
  fail_unless_equals_string (staged, expect);
  g_free (expect);
  {
    gchar *apath = g_strdup_printf ("/x-nmos/connection/v1.1/single/"
        "receivers/%s/active", receiver_id);
    active = http_ok ("GET", node_port, apath, NULL, 200);
    fail_unless (strstr (active, "\"interface_ip\":\"auto\"") == NULL,
        "active has unresolved auto: %s", active);
    /* read-only */
    body = http_ok ("PUT", node_port, apath, "{}", 405);
    fail_unless_equals_string (body, "{\"code\":405,\"error\":\"method not "
        "allowed here\",\"debug\":null}");
    g_free (body);
    g_free (apath);
  }

  /* every malformed PATCH: its error, and nothing changed */
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    body = http ("PATCH", node_port, path, bad[i].body, &status);
    fail_unless (status == bad[i].status, "%s -> %u %s", bad[i].body,
        status, body);
    {
      JsonObject *o = parse_object (body);
      fail_unless (g_strcmp0 (json_object_get_string_member (o, "error"),
              bad[i].error) == 0, "%s -> %s", bad[i].body, body);
      fail_unless_equals_int (json_object_get_int_member (o, "code"),
          bad[i].status);
      fail_unless (json_object_get_null_member (o, "debug"));
      json_object_unref (o);
    }
    g_free (body);
  }
  /* binary garbage */
  for (i = 0; i < 50; i++) {
    GRand *rand = g_rand_new_with_seed (i);
    gchar junk[64];
    guint k;

    for (k = 0; k < sizeof (junk) - 1; k++)
      junk[k] = (gchar) g_rand_int_range (rand, 1, 256);
    junk[sizeof (junk) - 1] = '\0';
    body = http ("PATCH", node_port, path, junk, &status);
    fail_unless_equals_int (status, 400);
    g_free (body);
    g_rand_free (rand);
  }
  body = http_ok ("GET", node_port, path, NULL, 200);
  fail_unless_equals_string (body, staged);
  g_free (body);
  {
    gchar *apath = g_strdup_printf ("/x-nmos/connection/v1.1/single/"
        "receivers/%s/active", receiver_id);
    body = http_ok ("GET", node_port, apath, NULL, 200);
    fail_unless_equals_string (body, active);
    g_free (body);
    g_free (apath);
  }

  /* a pending scheduled activation locks the staged parameters (423)
   * until cancelled */
  body = http_ok ("PATCH", node_port, path, "{\"activation\":{\"mode\":"
      "\"activate_scheduled_relative\",\"requested_time\":\"100:0\"}}", 202);
  fail_unless (strstr (body, "\"mode\":\"activate_scheduled_relative\"") !=
      NULL, "%s", body);
  g_free (body);
  body = http_ok ("PATCH", node_port, path, "{\"master_enable\":false}", 423);
  fail_unless_equals_string (body, "{\"code\":423,\"error\":\"a scheduled "
      "activation is pending: cancel it first (activation mode null)\","
      "\"debug\":null}");
  g_free (body);
  body = http_ok ("PATCH", node_port, path, "{\"activation\":{\"mode\":null}}",
      200);
  fail_unless_equals_string (body, staged);
  g_free (body);

  /* unknown ids and paths */
  body = http_ok ("GET", node_port, "/x-nmos/connection/v1.1/single/"
      "receivers/4df5efcc-6370-5df9-be41-45d7500f5ce1/staged", NULL, 404);
  fail_unless_equals_string (body, "{\"code\":404,\"error\":\"no such "
      "resource\",\"debug\":null}");
  g_free (body);
  body = http_ok ("GET", node_port, "/x-nmos/node/v9.9/self", NULL, 404);
  g_free (body);
  /* bulk: one good, one unknown */
  {
    gchar *req = g_strdup_printf ("[{\"id\":\"%s\",\"params\":{}},"
        "{\"id\":\"4df5efcc-6370-5df9-be41-45d7500f5ce1\",\"params\":{}}]",
        receiver_id);
    body = http_ok ("POST", node_port, "/x-nmos/connection/v1.1/bulk/"
        "receivers", req, 200);
    expect = g_strdup_printf ("[{\"id\":\"%s\",\"code\":200},{\"id\":"
        "\"4df5efcc-6370-5df9-be41-45d7500f5ce1\",\"code\":404,\"error\":"
        "\"no such id\",\"debug\":null}]", receiver_id);
    fail_unless_equals_string (body, expect);
    g_free (expect);
    g_free (body);
    g_free (req);
  }

  /* activating the port the receiver is on re-binds it (the old socket
   * holds it until the switch), twice in a row */
  for (i = 0; i < 2; i++) {
    body = http_ok ("PATCH", node_port, path, "{\"transport_params\":[{"
        "\"destination_port\":\"auto\"}],\"activation\":{\"mode\":"
        "\"activate_immediate\"}}", 200);
    g_free (body);
  }

  /* a relative scheduled activation disabling the receiver takes effect
   * on its own: the receiver goes silent */
  g_object_set (src, "timeout", (guint64) 300 * GST_MSECOND, NULL);
  drain_bus (pipe);
  body = http_ok ("PATCH", node_port, path, "{\"master_enable\":false,"
      "\"activation\":{\"mode\":\"activate_scheduled_relative\","
      "\"requested_time\":\"0:200000000\"}}", 202);
  g_free (body);
  wait_element_message (pipe, src, "st2022-timeout", 10);
  {
    gchar *apath = g_strdup_printf ("/x-nmos/connection/v1.1/single/"
        "receivers/%s/active", receiver_id);
    body = http_ok ("GET", node_port, apath, NULL, 200);
    fail_unless (strstr (body, "\"master_enable\":false,\"activation\":"
            "{\"mode\":\"activate_scheduled_relative\",\"requested_time\":"
            "\"0:200000000\"") != NULL, "%s", body);
    g_free (body);
    g_free (apath);
  }
  /* and the receiver is still there, the pipeline playing */
  no_error (pipe);
  no_error (tx);
  stop (tx);

  g_free (active);
  g_free (staged);
  g_free (path);
  g_free (node_id);
  g_free (sender_id);
  g_free (receiver_id);
  stop (pipe);
}

GST_END_TEST;

/* --- live retarget ------------------------------------------------------ */

typedef struct
{
  GMutex lock;
  GCond cond;
  GArray *ssrc;                 /* per frame pushed */
  GArray *frcount;
  guint corrupted;
} Frames;

static void
frames_init (Frames * f)
{
  g_mutex_init (&f->lock);
  g_cond_init (&f->cond);
  f->ssrc = g_array_new (FALSE, FALSE, sizeof (guint));
  f->frcount = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
frames_clear (Frames * f)
{
  g_array_unref (f->ssrc);
  g_array_unref (f->frcount);
  g_mutex_clear (&f->lock);
  g_cond_clear (&f->cond);
}

static GstPadProbeReturn
count_frame (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Frames *f = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstSt2022Meta *m = (GstSt2022Meta *) gst_buffer_get_meta (buf,
      g_type_from_name ("GstSt2022MetaAPI"));
  guint ssrc = m ? m->ssrc : 0, fc = m ? m->frcount : 0;

  g_mutex_lock (&f->lock);
  g_array_append_val (f->ssrc, ssrc);
  g_array_append_val (f->frcount, fc);
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED))
    f->corrupted++;
  g_cond_broadcast (&f->cond);
  g_mutex_unlock (&f->lock);
  return GST_PAD_PROBE_OK;
}

static guint
frames_of (Frames * f, guint ssrc)
{
  guint i, n = 0;

  for (i = 0; i < f->ssrc->len; i++)
    n += g_array_index (f->ssrc, guint, i) == ssrc;
  return n;
}

static void
wait_frames (Frames * f, guint ssrc, guint n)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_mutex_lock (&f->lock);
  while (frames_of (f, ssrc) < n)
    fail_unless (g_cond_wait_until (&f->cond, &f->lock, end),
        "%u of %u frames of %08x", frames_of (f, ssrc), n, ssrc);
  g_mutex_unlock (&f->lock);
}

#define SSRC_A 0xaaaa0001
#define SSRC_B 0xbbbb0002

GST_START_TEST (test_retarget)
{
  GstElement *rx, *src, *fs, *pa, *pb, *sink_a, *sink_b;
  Frames f = { 0 };
  GstPad *pad;
  gchar *node_id, *sender_b, *receiver_id, *path, *sdp_b, *body, *req;
  gint node_port, port_a, port_b, port;
  guint i, a_frames, first_b;
  JsonBuilder *jb;
  JsonGenerator *gen;
  GSocket *hold_b;

  frames_init (&f);

  /* the receiver on an ephemeral port, sender A sending to it */
  rx = gst_pipeline_new ("rx");
  src = gst_element_factory_make ("st2022src", "src");
  fs = gst_element_factory_make ("fakesink", NULL);
  g_object_set (src, "port", 0, "nmos", TRUE, "timeout",
      (guint64) 300 * GST_MSECOND, NULL);
  g_object_set (fs, "sync", FALSE, NULL);
  gst_bin_add_many (GST_BIN (rx), src, fs, NULL);
  fail_unless (gst_element_link (src, fs));
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, &f, NULL);
  gst_object_unref (pad);
  play (rx);
  g_object_get (src, "port", &port_a, "nmos-node-port", &node_port, NULL);

  pa = sender_pipeline (port_a, SSRC_A, NULL, &sink_a);
  play (pa);
  wait_frames (&f, SSRC_A, 10);

  /* sender B on another port; the controller connects the receiver to it
   * with B's own SDP */
  {
    GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
    GSocketAddress *sa = g_inet_socket_address_new (lo, 0), *bound;

    hold_b = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
        G_SOCKET_PROTOCOL_UDP, NULL);
    fail_unless (g_socket_bind (hold_b, sa, FALSE, NULL));
    bound = g_socket_get_local_address (hold_b, NULL);
    /* a free port, held (B's datagrams wait there unread) until just
     * before st2022src binds it: another socket of the machine cannot take
     * it in between */
    port_b = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
    g_object_unref (bound);
    g_object_unref (sa);
    g_object_unref (lo);
  }
  pb = sender_pipeline (port_b, SSRC_B, NULL, &sink_b);
  play (pb);
  node_id = expected_node_id (node_port, 0);
  sender_b = expected_id (node_id, sink_b, "sender");
  receiver_id = expected_id (node_id, src, "receiver");
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/senders/%s/"
      "transportfile", sender_b);
  sdp_b = http_ok ("GET", node_port, path, NULL, 200);
  g_free (path);

  jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "sender_id");
  json_builder_add_string_value (jb, sender_b);
  json_builder_set_member_name (jb, "master_enable");
  json_builder_add_boolean_value (jb, TRUE);
  json_builder_set_member_name (jb, "activation");
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "mode");
  json_builder_add_string_value (jb, "activate_immediate");
  json_builder_end_object (jb);
  json_builder_set_member_name (jb, "transport_file");
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "data");
  json_builder_add_string_value (jb, sdp_b);
  json_builder_set_member_name (jb, "type");
  json_builder_add_string_value (jb, "application/sdp");
  json_builder_end_object (jb);
  json_builder_end_object (jb);
  gen = json_generator_new ();
  json_generator_set_root (gen, json_builder_get_root (jb));
  req = json_generator_to_data (gen, NULL);
  g_object_unref (gen);
  g_object_unref (jb);

  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/receivers/%s/"
      "staged", receiver_id);
  g_clear_object (&hold_b);
  body = http_ok ("PATCH", node_port, path, req, 200);
  {
    gchar *want = g_strdup_printf ("\"destination_port\":%d", port_b);
    fail_unless (strstr (body, want) != NULL, "%s", body);
    fail_unless (strstr (body, "\"mode\":\"activate_immediate\"") != NULL);
    g_free (want);
  }
  g_free (body);
  wait_frames (&f, SSRC_B, 20);
  no_error (rx);
  g_object_get (src, "port", &port, NULL);
  fail_unless_equals_int (port, port_b);

  /* what the receiver pushed: A's frames without a gap, then B's, never
   * A again: the switch lost no frame of A before it and took B from its
   * next whole frame */
  g_mutex_lock (&f.lock);
  a_frames = frames_of (&f, SSRC_A);
  for (i = 0; i < a_frames; i++)
    fail_unless_equals_int_hex (g_array_index (f.ssrc, guint, i), SSRC_A);
  for (i = 1; i < a_frames; i++)
    fail_unless (((g_array_index (f.frcount, guint, i - 1) + 1) & 0xff) ==
        g_array_index (f.frcount, guint, i),
        "frame %u of A missing (corrupted frames: %u)", i, f.corrupted);
  first_b = a_frames;
  for (i = first_b; i < f.ssrc->len; i++)
    fail_unless_equals_int_hex (g_array_index (f.ssrc, guint, i), SSRC_B);
  for (i = first_b + 1; i < f.ssrc->len; i++)
    fail_unless (((g_array_index (f.frcount, guint, i - 1) + 1) & 0xff) ==
        g_array_index (f.frcount, guint, i), "frame %u of B missing",
        i - first_b);
  GST_INFO ("%u frames of A, then %u of B, %u corrupted", a_frames,
      f.ssrc->len - a_frames, f.corrupted);
  g_mutex_unlock (&f.lock);
  stop (pa);

  /* IS-04 shows the subscription */
  {
    gchar *p = g_strdup_printf ("/x-nmos/node/v1.3/receivers/%s",
        receiver_id);
    gchar *want = g_strdup_printf ("\"subscription\":{\"sender_id\":\"%s\","
        "\"active\":true}", sender_b);
    body = http_ok ("GET", node_port, p, NULL, 200);
    fail_unless (strstr (body, want) != NULL, "%s", body);
    g_free (body);
    g_free (want);
    g_free (p);
  }

  /* master_enable=false on the sender: B goes silent, both pipelines
   * keep playing; true again: frames flow again */
  {
    gchar *p = g_strdup_printf ("/x-nmos/connection/v1.1/single/senders/%s/"
        "staged", sender_b);
    drain_bus (rx);
    body = http_ok ("PATCH", node_port, p, "{\"master_enable\":false,"
        "\"activation\":{\"mode\":\"activate_immediate\"}}", 200);
    g_free (body);
    wait_element_message (rx, src, "st2022-timeout", 10);
    body = http_ok ("PATCH", node_port, p, "{\"master_enable\":true,"
        "\"activation\":{\"mode\":\"activate_immediate\"}}", 200);
    g_free (body);
    g_mutex_lock (&f.lock);
    i = frames_of (&f, SSRC_B);
    g_mutex_unlock (&f.lock);
    wait_frames (&f, SSRC_B, i + 5);
    g_free (p);
  }
  no_error (pb);
  no_error (rx);

  stop (pb);
  stop (rx);
  g_free (req);
  g_free (path);
  g_free (sdp_b);
  g_free (node_id);
  g_free (sender_b);
  g_free (receiver_id);
  frames_clear (&f);
}

GST_END_TEST;

/* --- ST 2022-7: two legs ----------------------------------------------- */

GST_START_TEST (test_two_legs)
{
  GstElement *pipe, *sink, *src;
  gchar *desc, *node_id, *sender_id, *receiver_id, *path, *body, *expect;
  gint node_port, port, port2;
  JsonObject *o;
  JsonArray *legs;

  pipe = gst_parse_launch ("st2022src name=src port=0 secondary-address="
      "127.0.0.1 secondary-port=0 nmos=true nmos-registry=none ! fakesink",
      NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  play (pipe);
  g_object_get (src, "nmos-node-port", &node_port, "port", &port,
      "secondary-port", &port2, NULL);
  desc = g_strdup_printf ("videotestsrc is-live=true ! " CAPS_720P50
      " ! st2022sink name=sink host=127.0.0.1 port=%d secondary-host="
      "127.0.0.1 secondary-port=%d nmos=true nmos-registry=none", port, port2);
  {
    GstElement *tx = gst_parse_launch (desc, NULL);

    sink = gst_bin_get_by_name (GST_BIN (tx), "sink");
    play (tx);
    node_id = expected_node_id (node_port, 0);
    sender_id = expected_id (node_id, sink, "sender");
    receiver_id = expected_id (node_id, src, "receiver");

    /* the sender: both paths, fixed */
    path = g_strdup_printf ("/x-nmos/connection/v1.1/single/senders/%s/"
        "active", sender_id);
    body = http_ok ("GET", node_port, path, NULL, 200);
    o = parse_object (body);
    legs = json_object_get_array_member (o, "transport_params");
    fail_unless_equals_int (json_array_get_length (legs), 2);
    fail_unless_equals_int (json_object_get_int_member
        (json_array_get_object_element (legs, 0), "destination_port"), port);
    fail_unless_equals_int (json_object_get_int_member
        (json_array_get_object_element (legs, 1), "destination_port"), port2);
    json_object_unref (o);
    g_free (body);
    g_free (path);
    stop (tx);
    gst_object_unref (sink);
  }

  /* the receiver's second leg: retargetable like the first */
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/receivers/%s/"
      "constraints", receiver_id);
  body = http_ok ("GET", node_port, path, NULL, 200);
  expect = g_strdup ("\"destination_port\":{\"minimum\":1,\"maximum\":"
      "65535},\"rtp_enabled\":{\"enum\":[true]}}]");
  fail_unless (g_str_has_suffix (body, expect), "%s", body);
  g_free (expect);
  g_free (body);
  g_free (path);
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/receivers/%s/"
      "staged", receiver_id);
  body = http_ok ("PATCH", node_port, path, "{\"transport_params\":[{},"
      "{\"rtp_enabled\":false}]}", 400);
  g_free (body);
  g_free (path);
  no_error (pipe);
  gst_object_unref (src);
  stop (pipe);
  g_free (desc);
  g_free (node_id);
  g_free (sender_id);
  g_free (receiver_id);
}

GST_END_TEST;

/* An unused UDP port of 127.0.0.1 (bound, read back, released) */
static gint
free_port (void)
{
  GSocket *s = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
      G_SOCKET_PROTOCOL_UDP, NULL);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *sa = g_inet_socket_address_new (lo, 0), *bound;
  gint port;

  fail_unless (g_socket_bind (s, sa, FALSE, NULL));
  bound = g_socket_get_local_address (s, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_object_unref (bound);
  g_object_unref (sa);
  g_object_unref (lo);
  g_object_unref (s);
  return port;
}

/* TRUE when 127.0.0.1:@port can be bound (nothing holds it) */
static gboolean
port_free (gint port)
{
  GSocket *s = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
      G_SOCKET_PROTOCOL_UDP, NULL);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *sa = g_inet_socket_address_new (lo, port);
  gboolean ok = g_socket_bind (s, sa, FALSE, NULL);

  g_object_unref (sa);
  g_object_unref (lo);
  g_object_unref (s);
  return ok;
}

/* The datagrams each path received: exactly what was sent to it; on a
 * loaded machine a socket may drop some (the kernel tells,
 * `overflow-events`; the other path has them): every datagram sent is then
 * received or in a gap counted in datagrams, `packets-overflow` */
static void
check_paths (GstElement * e, guint64 primary, guint64 secondary)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  GstStructure *st = NULL;
  guint64 p, s, dropped, gaps, lost;
  gboolean done;
  gchar *all;

  /* the receive thread updates the stats now and then: the last
   * datagrams of the path that lags come in after the frame is out */
  for (;;) {
    g_object_get (e, "stats", &st, NULL);
    all = gst_structure_to_string (st);
    fail_unless (gst_structure_get (st, "packets-primary", G_TYPE_UINT64, &p,
            "packets-secondary", G_TYPE_UINT64, &s, "overflow-events",
            G_TYPE_UINT64, &dropped, "packets-overflow", G_TYPE_UINT64,
            &gaps, "packets-lost", G_TYPE_UINT64, &lost, NULL), "%s", all);
    gst_structure_free (st);
    done = dropped == 0 ? p == primary && s == secondary :
        p + s + gaps == primary + secondary;
    if (done || g_get_monotonic_time () > end)
      break;
    g_free (all);
    g_usleep (20000);
  }
  fail_unless_equals_uint64 (lost, 0);
  if (dropped > 0)
    GST_WARNING ("the kernel dropped %" G_GUINT64_FORMAT " datagrams",
        dropped);
  fail_unless (done, "%s", all);
  GST_INFO ("%s", all);
  g_free (all);
}

static guint64
stat_u64 (GstElement * e, const gchar * name)
{
  GstStructure *st = NULL;
  guint64 v = G_MAXUINT64;

  g_object_get (e, "stats", &st, NULL);
  fail_unless (st != NULL);
  fail_unless (gst_structure_get_uint64 (st, name, &v), "no %s", name);
  gst_structure_free (st);
  return v;
}

/* Sends @n frames (720p50) on both paths and waits for their end */
static void
send_two_paths (gint port, gint port2, guint ssrc, guint n)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=%u ! "
      CAPS_720P50 " ! st2022sink host=127.0.0.1 port=%d ssrc=%u "
      "secondary-host=127.0.0.1 secondary-port=%d", n, port, ssrc, port2);
  GstElement *tx = gst_parse_launch (desc, NULL);
  GstBus *bus;
  GstMessage *m;

  fail_unless (tx != NULL);
  play (tx);
  bus = gst_element_get_bus (tx);
  m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  gst_object_unref (bus);
  stop (tx);
  g_free (desc);
}

#define SSRC_C 0xcccc0003
/* 720p50: 1980 samples x 750 lines x 20 bits, 1376 bytes a datagram */
#define DATAGRAMS_720P50 ((1980 * 750 * 5 / 2 + 1375) / 1376)
#define TWO_LEG_FRAMES 10

/* IS-05 moves both legs of a playing ST 2022-7 receiver: before, the
 * sender's second path goes to a port the receiver does not listen on (its
 * secondary counts nothing); after the PATCH both paths receive from their
 * new ports, the old ones are released, and every datagram of both paths
 * is counted; activating the same parameters again keeps the sockets */
GST_START_TEST (test_two_legs_retarget)
{
  GstElement *pipe, *src, *fs;
  Frames f = { 0 };
  GstPad *pad;
  gchar *node_id, *receiver_id, *path, *body, *req;
  gint node_port, port, port2, new_port, new_port2, v;
  const guint64 per_frame = DATAGRAMS_720P50;
  JsonObject *o;
  JsonArray *legs;

  frames_init (&f);

  pipe = gst_pipeline_new ("rx2");
  src = gst_element_factory_make ("st2022src", "src");
  fs = gst_element_factory_make ("fakesink", NULL);
  /* the widest window: a loaded machine delays one path by tens of ms */
  g_object_set (src, "port", 0, "secondary-address", "127.0.0.1",
      "secondary-port", 0, "seamless-window", 500, "nmos", TRUE,
      "nmos-registry", "none", NULL);
  g_object_set (fs, "sync", FALSE, NULL);
  gst_bin_add_many (GST_BIN (pipe), src, fs, NULL);
  fail_unless (gst_element_link (src, fs));
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, &f, NULL);
  gst_object_unref (pad);
  play (pipe);
  g_object_get (src, "nmos-node-port", &node_port, "port", &port,
      "secondary-port", &port2, NULL);
  node_id = expected_node_id (node_port, 0);
  receiver_id = expected_id (node_id, src, "receiver");
  new_port = free_port ();
  new_port2 = free_port ();
  fail_if (new_port == new_port2);

  /* before: the second path goes elsewhere */
  send_two_paths (port, new_port2, SSRC_A, TWO_LEG_FRAMES);
  wait_frames (&f, SSRC_A, TWO_LEG_FRAMES);
  check_paths (src, TWO_LEG_FRAMES * per_frame, 0);
  fail_unless_equals_uint64 (stat_u64 (src, "packets-secondary"), 0);

  /* both legs move */
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/receivers/%s/"
      "staged", receiver_id);
  req = g_strdup_printf ("{\"master_enable\":true,\"activation\":{\"mode\":"
      "\"activate_immediate\"},\"transport_params\":[{\"destination_port\":"
      "%d},{\"destination_port\":%d}]}", new_port, new_port2);
  body = http_ok ("PATCH", node_port, path, req, 200);
  g_free (body);
  g_free (path);
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/receivers/%s/"
      "active", receiver_id);
  body = http_ok ("GET", node_port, path, NULL, 200);
  o = parse_object (body);
  legs = json_object_get_array_member (o, "transport_params");
  fail_unless_equals_int (json_array_get_length (legs), 2);
  fail_unless_equals_int (json_object_get_int_member
      (json_array_get_object_element (legs, 0), "destination_port"), new_port);
  fail_unless_equals_int (json_object_get_int_member
      (json_array_get_object_element (legs, 1), "destination_port"),
      new_port2);
  json_object_unref (o);
  g_free (body);
  g_object_get (src, "port", &v, NULL);
  fail_unless_equals_int (v, new_port);
  g_object_get (src, "secondary-port", &v, NULL);
  fail_unless_equals_int (v, new_port2);
  /* the old sockets are gone */
  fail_unless (port_free (port));
  fail_unless (port_free (port2));

  /* after: both paths, every datagram of each */
  send_two_paths (new_port, new_port2, SSRC_B, TWO_LEG_FRAMES);
  wait_frames (&f, SSRC_B, TWO_LEG_FRAMES);
  check_paths (src, 2 * TWO_LEG_FRAMES * per_frame,
      TWO_LEG_FRAMES * per_frame);

  /* the same parameters again (as a controller re-activating does): the
   * sockets stay, and the second path still receives */
  path = g_strdup_printf ("/x-nmos/connection/v1.1/single/receivers/%s/"
      "staged", receiver_id);
  body = http_ok ("PATCH", node_port, path, req, 200);
  g_free (body);
  g_free (path);
  fail_if (port_free (new_port2));
  /* only the second path now: the frames come through it alone */
  send_two_paths (port, new_port2, SSRC_C, TWO_LEG_FRAMES);
  wait_frames (&f, SSRC_C, TWO_LEG_FRAMES);
  check_paths (src, 2 * TWO_LEG_FRAMES * per_frame,
      2 * TWO_LEG_FRAMES * per_frame);
  fail_unless_equals_int (f.corrupted, 0);

  no_error (pipe);
  stop (pipe);
  g_free (req);
  g_free (node_id);
  g_free (receiver_id);
  frames_clear (&f);
}

GST_END_TEST;

static Suite *
nmos_node_suite (void)
{
  Suite *s = suite_create ("nmos-node");
  TCase *tc = tcase_create ("node");

  session = soup_session_new_with_options ("timeout", 10, NULL);
  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 90);
  tcase_add_test (tc, test_registration);
  tcase_add_test (tc, test_connection_api);
  tcase_add_test (tc, test_retarget);
  tcase_add_test (tc, test_two_legs);
  tcase_add_test (tc, test_two_legs_retarget);
  return s;
}

GST_CHECK_MAIN (nmos_node);
