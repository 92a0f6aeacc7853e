/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * DNS-SD discovery of the registry (nmos-registry empty), end to end: the
 * test runs in a network namespace of its own (loopback, multicast on);
 * python3-zeroconf (tests/nmos/dnssd-advertise.py, the library AMWA's
 * testing tool advertises with) advertises registries of the test
 * (nmos-registry.c). The node says on the bus that it finds none, then
 * registers with the lowest usable pri (ignoring a wrong api_ver, a wrong
 * api_proto, a development pri), fails over to the next when that dies,
 * browses again when all found have failed and registers with one
 * advertised meanwhile under the legacy _nmos-registration._tcp, and
 * deregisters at stop. Needs root (a network namespace); SKIP otherwise.
 */

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gio/gio.h>
#include <gst/check/gstcheck.h>

#include "nmos-registry.h"

#define CAPS_720P50 "video/x-raw,format=UYVP,width=1280,height=720," \
    "framerate=50/1,interlace-mode=progressive"

typedef struct
{
  GSubprocess *proc;
  GOutputStream *in;
  GDataInputStream *out;
} Advertiser;

static gchar *
adv_line (Advertiser * a)
{
  gchar *l = g_data_input_stream_read_line (a->out, NULL, NULL, NULL);
  fail_unless (l != NULL, "the advertiser stopped");
  return l;
}

static void
adv_cmd (Advertiser * a, const gchar * expect, const gchar * fmt, ...)
{
  va_list ap;
  gchar *cmd, *line;

  va_start (ap, fmt);
  cmd = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  fail_unless (g_output_stream_write_all (a->in, cmd, strlen (cmd), NULL,
          NULL, NULL));
  g_output_stream_flush (a->in, NULL, NULL);
  line = adv_line (a);
  fail_unless_equals_string (line, expect);
  g_free (line);
  g_free (cmd);
}

static gboolean
adv_start (Advertiser * a)
{
  const gchar *script = g_getenv ("DNSSD_ADVERTISE");
  GError *err = NULL;
  gchar *line;

  fail_unless (script != NULL);
  a->proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
      G_SUBPROCESS_FLAGS_STDOUT_PIPE, &err, g_getenv ("DNSSD_PYTHON"), script,
      NULL);
  fail_unless (a->proc != NULL, "python3: %s", err ? err->message : "");
  a->in = g_subprocess_get_stdin_pipe (a->proc);
  a->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (a->proc));
  line = g_data_input_stream_read_line (a->out, NULL, NULL, NULL);
  if (g_strcmp0 (line, "ready") != 0) {
    g_free (line);
    return FALSE;
  }
  g_free (line);
  return TRUE;
}

static void
adv_stop (Advertiser * a)
{
  g_output_stream_close (a->in, NULL, NULL);
  g_subprocess_wait (a->proc, NULL, NULL);
  g_object_unref (a->out);
  g_object_unref (a->proc);
}

/* Waits for `nmos-registration` with @state (and @registry unless NULL)
 * from @from; counts the warnings seen meanwhile into @warnings. */
static void
wait_registration (GstElement * pipe, GstElement * from, const gchar * state,
    const gchar * registry, guint timeout_s, guint * warnings)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  for (;;) {
    gint64 left = end - g_get_monotonic_time ();
    const GstStructure *s;
    GstMessage *m;

    fail_unless (left > 0, "no nmos-registration %s %s within %u s", state,
        registry ? registry : "", timeout_s);
    m = gst_bus_timed_pop_filtered (bus, left * GST_USECOND,
        GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    fail_unless (m != NULL, "no nmos-registration %s %s within %u s", state,
        registry ? registry : "", timeout_s);
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err;
      gst_message_parse_error (m, &err, NULL);
      fail ("error: %s", err->message);
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING) {
      if (warnings)
        (*warnings)++;
      gst_message_unref (m);
      continue;
    }
    s = gst_message_get_structure (m);
    if (GST_MESSAGE_SRC (m) == GST_OBJECT (from)
        && gst_structure_has_name (s, "nmos-registration")) {
      GST_INFO ("nmos-registration %s %s (%s)", gst_structure_get_string (s,
              "state"), gst_structure_get_string (s, "registry"),
          gst_structure_get_string (s, "detail"));
      if (g_strcmp0 (gst_structure_get_string (s, "state"), state) == 0
          && (registry == NULL || g_strcmp0 (gst_structure_get_string (s,
                      "registry"), registry) == 0)) {
        gst_message_unref (m);
        break;
      }
    }
    gst_message_unref (m);
  }
  gst_object_unref (bus);
}

static guint
senders (NmosRegistry * r)
{
  GPtrArray *ids = nmos_registry_ids (r, "sender");
  guint n = ids->len;
  g_ptr_array_unref (ids);
  return n;
}

GST_START_TEST (test_discovery)
{
  NmosRegistry *reg_a = nmos_registry_new (0, FALSE);
  NmosRegistry *reg_b = nmos_registry_new (0, FALSE);
  NmosRegistry *reg_d = nmos_registry_new (0, FALSE);
  /* a registry nobody should use: advertised with a wrong api_ver, a
   * wrong api_proto, a development pri */
  NmosRegistry *reg_x = nmos_registry_new (0, FALSE);
  gchar *url_a = nmos_registry_url (reg_a), *url_b = nmos_registry_url (reg_b);
  gchar *url_d = nmos_registry_url (reg_d);
  guint warnings = 0, px = nmos_registry_port (reg_x);
  GstElement *pipe, *sink;
  Advertiser adv;
  gchar *desc;

  fail_unless (adv_start (&adv), "the advertiser did not start");

  desc = g_strdup_printf ("videotestsrc is-live=true ! " CAPS_720P50
      " ! st2022sink name=sink host=127.0.0.1 port=5004 nmos=true "
      "nmos-registry=\"\"");
  pipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  /* nothing advertised: the node says so (a message and a warning) */
  wait_registration (pipe, sink, "searching", NULL, 10, &warnings);
  fail_unless (warnings >= 1);

  adv_cmd (&adv, "added x1", "add x1 register %u 0 v9.0 http\n", px);
  adv_cmd (&adv, "added x2", "add x2 register %u 0 v1.3 ftp\n", px);
  adv_cmd (&adv, "added x3", "add x3 register %u 100 v1.3 http\n", px);
  adv_cmd (&adv, "added b", "add b register %u 20 v1.2,v1.3 http\n",
      nmos_registry_port (reg_b));
  adv_cmd (&adv, "added a", "add a register %u 10 v1.3 http\n",
      nmos_registry_port (reg_a));
  /* the next browse (at most 4 s later: 1, 2, 4 s back-off) finds them */
  wait_registration (pipe, sink, "registered", url_a, 20, NULL);
  fail_unless (nmos_registry_wait_count (reg_a, "sender", 1, 5));
  fail_unless (nmos_registry_wait_count (reg_a, "node", 1, 5));
  fail_unless_equals_int (nmos_registry_count (reg_x), 0);
  fail_unless_equals_int (nmos_registry_count (reg_b), 0);

  /* the registry in use dies: fail-over to the next pri */
  nmos_registry_free (reg_a);
  reg_a = NULL;
  wait_registration (pipe, sink, "registered", url_b, 20, NULL);
  fail_unless (nmos_registry_wait_count (reg_b, "sender", 1, 5));
  fail_unless_equals_int (nmos_registry_count (reg_x), 0);

  /* every registry found dies; another appears (legacy service type): the
   * node browses again and registers there */
  adv_cmd (&adv, "removed a", "remove a\n");
  nmos_registry_free (reg_b);
  reg_b = NULL;
  wait_registration (pipe, sink, "searching", NULL, 20, NULL);
  adv_cmd (&adv, "added d", "add d registration %u 30 v1.3 http\n",
      nmos_registry_port (reg_d));
  wait_registration (pipe, sink, "registered", url_d, 40, NULL);
  fail_unless (nmos_registry_wait_count (reg_d, "sender", 1, 5));
  fail_unless_equals_int (nmos_registry_count (reg_x), 0);

  /* stop: deregistered from the registry in use */
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless_equals_int (senders (reg_d), 0);
  fail_unless_equals_int (nmos_registry_count (reg_d), 0);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  adv_stop (&adv);

  if (reg_a)
    nmos_registry_free (reg_a);
  if (reg_b)
    nmos_registry_free (reg_b);
  nmos_registry_free (reg_d);
  nmos_registry_free (reg_x);
  g_free (url_a);
  g_free (url_b);
  g_free (url_d);
}

GST_END_TEST;

static Suite *
nmos_dnssd_suite (void)
{
  Suite *s = suite_create ("nmos-dnssd");
  TCase *tc = tcase_create ("discovery");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_discovery);
  return s;
}

int
main (int argc, char **argv)
{
  /* a namespace of our own, before any thread exists: multicast DNS stays
   * inside it */
  if (geteuid () != 0 || unshare (CLONE_NEWNET) != 0) {
    g_print ("SKIP: needs root for a network namespace of its own\n");
    return 77;
  }
  if (system ("ip link set lo up && ip link set lo multicast on && "
          "ip route add 224.0.0.0/4 dev lo") != 0) {
    g_print ("SKIP: cannot set up loopback multicast (iproute2)\n");
    return 77;
  }
  gchar *check = g_strdup_printf ("'%s' -c 'import zeroconf' 2>/dev/null",
      g_getenv ("DNSSD_PYTHON") ? g_getenv ("DNSSD_PYTHON") : "python3");
  gint rc = system (check);

  g_free (check);
  if (rc != 0) {
    g_print ("SKIP: python3-zeroconf is not installed (scripts/install-deps)"
        "\n");
    return 77;
  }
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (nmos_dnssd_suite (), "nmos-dnssd", __FILE__);
}
