/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * Unit tests of the NMOS core (gst/nmos/vmi-nmos.c): UUID derivation,
 * TAI times and versions, the IS-05 staged/active state machine.
 */

#include <string.h>
#include <gst/check/gstcheck.h>

#include "vmi-nmos.h"

/* RFC 4122 v5 of "node:studio-a:3212" in the gst-vmi namespace, as Python's
 * uuid.uuid5(UUID('6f3c2a1e-8b47-4d52-9e0d-557ac319842b'), ...) gives it */
GST_START_TEST (test_uuid)
{
  gchar a[VMI_NMOS_UUID_LEN], b[VMI_NMOS_UUID_LEN];

  vmi_nmos_uuid_from_name ("node:studio-a:3212", a);
  fail_unless_equals_string (a, "4df5efcc-6370-5df9-be41-45d7500f5ce1");
  vmi_nmos_uuid_from_name ("node:studio-a:3212", b);
  fail_unless_equals_string (a, b);
  vmi_nmos_uuid_from_name ("node:studio-b:3212", b);
  fail_if (strcmp (a, b) == 0);
  fail_unless (vmi_nmos_uuid_valid (a));
  fail_unless (vmi_nmos_uuid_valid ("4DF5EFCC-6370-5DF9-BE41-45D7500F5CE1"));
  fail_if (vmi_nmos_uuid_valid ("4df5efcc-6370-5df9-be41-45d7500f5ce"));
  fail_if (vmi_nmos_uuid_valid ("4df5efcc-6370-5df9-be41+45d7500f5ce1"));
  fail_if (vmi_nmos_uuid_valid ("4df5efcc-6370-5df9-be41-45d7500f5cez"));
  fail_if (vmi_nmos_uuid_valid (NULL));
}

GST_END_TEST;

GST_START_TEST (test_time)
{
  VmiNmosTime t, u, one_ns = { 0, 1 };
  gchar s[VMI_NMOS_TIME_LEN];

  fail_unless (vmi_nmos_time_parse ("1700000000:999999999", &t));
  fail_unless_equals_uint64 (t.sec, 1700000000);
  fail_unless_equals_int (t.nsec, 999999999);
  vmi_nmos_time_format (t, s);
  fail_unless_equals_string (s, "1700000000:999999999");
  u = vmi_nmos_time_add (t, one_ns);
  vmi_nmos_time_format (u, s);
  fail_unless_equals_string (s, "1700000001:0");
  fail_unless_equals_uint64 (vmi_nmos_time_until_ns (t, u), 1);
  fail_unless_equals_uint64 (vmi_nmos_time_until_ns (u, t), 0);
  fail_unless (vmi_nmos_time_compare (t, u) < 0);

  fail_if (vmi_nmos_time_parse ("1:1000000000", &t));
  fail_if (vmi_nmos_time_parse ("1:", &t));
  fail_if (vmi_nmos_time_parse (":1", &t));
  fail_if (vmi_nmos_time_parse ("-1:0", &t));
  fail_if (vmi_nmos_time_parse ("1:0x", &t));
  fail_if (vmi_nmos_time_parse ("99999999999999999999:0", &t));
  fail_if (vmi_nmos_time_parse (NULL, &t));

  /* versions only go forward, even within one clock tick */
  t = vmi_nmos_next_version ((VmiNmosTime) {
      0, 0});
  u = vmi_nmos_next_version (t);
  fail_unless (vmi_nmos_time_compare (t, u) < 0);
  /* a previous version in the future still gets a later one */
  t.sec += 1000;
  u = vmi_nmos_next_version (t);
  fail_unless_equals_uint64 (u.sec, t.sec);
  fail_unless_equals_int (u.nsec, t.nsec + 1);
  /* TAI is UTC + 37 s here or the kernel's TAI */
  fail_unless (vmi_nmos_tai_now ().sec >= (guint64) g_get_real_time () /
      G_USEC_PER_SEC + 37 - 1);
}

GST_END_TEST;

/* a receiver on 239.1.1.1:5004, enabled */
static void
receiver_init (VmiNmosEndpoint * ep)
{
  VmiNmosLeg leg = { 0 };

  vmi_nmos_value_set_null (&leg.v[VMI_NMOS_P_SOURCE_IP]);
  vmi_nmos_value_set_string (&leg.v[VMI_NMOS_P_MULTICAST_IP], "239.1.1.1");
  vmi_nmos_value_set_auto (&leg.v[VMI_NMOS_P_INTERFACE_IP]);
  vmi_nmos_value_set_int (&leg.v[VMI_NMOS_P_DESTINATION_PORT], 5004);
  vmi_nmos_value_set_bool (&leg.v[VMI_NMOS_P_RTP_ENABLED], TRUE);
  vmi_nmos_endpoint_init (ep, VMI_NMOS_RECEIVER, 1, &leg, TRUE);
  vmi_nmos_value_set_string (&ep->auto_values[0].v[VMI_NMOS_P_INTERFACE_IP],
      "192.0.2.10");
  ep->constraints[0][VMI_NMOS_P_INTERFACE_IP].n_enum = 1;
  vmi_nmos_value_set_string (&ep->constraints[0][VMI_NMOS_P_INTERFACE_IP].
      enum_values[0], "192.0.2.10");
  ep->constraints[0][VMI_NMOS_P_DESTINATION_PORT].has_min = TRUE;
  ep->constraints[0][VMI_NMOS_P_DESTINATION_PORT].min = 1024;
}

static VmiNmosPatchResult
patch_one (VmiNmosEndpoint * ep, VmiNmosParam p, const VmiNmosValue * v,
    gchar ** err)
{
  VmiNmosPatch patch = { 0 };

  patch.n_legs = 1;
  patch.legs[0].v[p] = *v;
  return vmi_nmos_endpoint_patch (ep, &patch, (VmiNmosTime) {
      1000, 0}, err);
}

GST_START_TEST (test_patch_validation)
{
  VmiNmosEndpoint ep;
  VmiNmosValue v;
  VmiNmosPatch patch = { 0 };
  gchar *err;

  receiver_init (&ep);

  /* wrong types, addresses, ranges, constraints: 400, nothing staged */
  vmi_nmos_value_set_int (&v, 5);
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_MULTICAST_IP, &v, &err),
      VMI_NMOS_PATCH_BAD_REQUEST);
  fail_unless_equals_string (err, "multicast_ip cannot be an integer");
  g_free (err);
  vmi_nmos_value_set_string (&v, "10.0.0.1");
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_MULTICAST_IP, &v, &err),
      VMI_NMOS_PATCH_BAD_REQUEST);
  fail_unless_equals_string (err,
      "multicast_ip \"10.0.0.1\" is not an IPv4 multicast address");
  g_free (err);
  vmi_nmos_value_set_string (&v, "300.1.1.1");
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_SOURCE_IP, &v, &err),
      VMI_NMOS_PATCH_BAD_REQUEST);
  g_free (err);
  vmi_nmos_value_set_auto (&v);
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_SOURCE_IP, &v, &err),
      VMI_NMOS_PATCH_BAD_REQUEST);
  fail_unless_equals_string (err, "source_ip cannot be \"auto\"");
  g_free (err);
  vmi_nmos_value_set_int (&v, 80);
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_DESTINATION_PORT, &v,
          &err), VMI_NMOS_PATCH_BAD_REQUEST);
  fail_unless_equals_string (err, "destination_port 80 is outside [1024, "
      "65535]");
  g_free (err);
  vmi_nmos_value_set_int (&v, 70000);
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_DESTINATION_PORT, &v,
          &err), VMI_NMOS_PATCH_BAD_REQUEST);
  g_free (err);
  vmi_nmos_value_set_string (&v, "192.0.2.11");
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_INTERFACE_IP, &v, &err),
      VMI_NMOS_PATCH_BAD_REQUEST);
  g_free (err);
  vmi_nmos_value_set_string (&v, "192.0.2.1");
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_DESTINATION_IP, &v,
          &err), VMI_NMOS_PATCH_BAD_REQUEST);
  fail_unless_equals_string (err, "destination_ip is not a parameter of a "
      "receiver");
  g_free (err);
  patch.n_legs = 2;
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch,
          (VmiNmosTime) {
          0, 0}, &err), VMI_NMOS_PATCH_BAD_REQUEST);
  g_free (err);
  /* immediate with a requested_time, scheduled without one */
  memset (&patch, 0, sizeof (patch));
  patch.has_activation = TRUE;
  patch.activation.mode = VMI_NMOS_ACTIVATE_IMMEDIATE;
  patch.activation.has_requested = TRUE;
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch,
          (VmiNmosTime) {
          0, 0}, &err), VMI_NMOS_PATCH_BAD_REQUEST);
  g_free (err);
  patch.activation.mode = VMI_NMOS_ACTIVATE_RELATIVE;
  patch.activation.has_requested = FALSE;
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch,
          (VmiNmosTime) {
          0, 0}, &err), VMI_NMOS_PATCH_BAD_REQUEST);
  g_free (err);

  /* nothing of the refused requests was staged */
  fail_unless_equals_string (ep.staged.legs[0].v[VMI_NMOS_P_MULTICAST_IP].s,
      "239.1.1.1");
  fail_unless_equals_int (ep.staged.legs[0].v[VMI_NMOS_P_DESTINATION_PORT].i,
      5004);
  fail_unless_equals_int (ep.staged.legs[0].v[VMI_NMOS_P_SOURCE_IP].type,
      VMI_NMOS_V_NULL);
  fail_unless_equals_int (ep.staged.activation.mode, VMI_NMOS_ACTIVATE_NONE);

  /* good values: staged, not active */
  vmi_nmos_value_set_int (&v, 6000);
  fail_unless_equals_int (patch_one (&ep, VMI_NMOS_P_DESTINATION_PORT, &v,
          &err), VMI_NMOS_PATCH_STAGED);
  fail_unless (err == NULL);
  fail_unless_equals_int (ep.staged.legs[0].v[VMI_NMOS_P_DESTINATION_PORT].i,
      6000);
  fail_unless_equals_int (ep.active.legs[0].v[VMI_NMOS_P_DESTINATION_PORT].i,
      5004);
  vmi_nmos_endpoint_clear (&ep);
}

GST_END_TEST;

GST_START_TEST (test_activation)
{
  VmiNmosEndpoint ep;
  VmiNmosPatch patch = { 0 };
  VmiNmosState pending;
  VmiNmosTime when, now = { 2000, 500 };
  gchar *err;

  receiver_init (&ep);

  /* immediate: the caller applies, then commits; auto is resolved */
  patch.has_master_enable = TRUE;
  patch.master_enable = TRUE;
  patch.has_peer = TRUE;
  g_strlcpy (patch.peer_id, "4df5efcc-6370-5df9-be41-45d7500f5ce1",
      sizeof (patch.peer_id));
  patch.has_transport_file = TRUE;
  patch.transport_file = (gchar *) "v=0\r\n";
  patch.has_activation = TRUE;
  patch.activation.mode = VMI_NMOS_ACTIVATE_IMMEDIATE;
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch, now, &err),
      VMI_NMOS_PATCH_ACTIVATE_NOW);
  vmi_nmos_endpoint_pending (&ep, now, &pending);
  fail_unless_equals_string (pending.legs[0].v[VMI_NMOS_P_INTERFACE_IP].s,
      "192.0.2.10");
  fail_unless_equals_string (pending.peer_id,
      "4df5efcc-6370-5df9-be41-45d7500f5ce1");
  fail_unless_equals_string (pending.transport_file, "v=0\r\n");
  vmi_nmos_endpoint_commit (&ep, &pending);
  fail_unless_equals_int (ep.active.activation.mode,
      VMI_NMOS_ACTIVATE_IMMEDIATE);
  fail_unless (ep.active.activation.has_activation);
  fail_unless_equals_uint64 (ep.active.activation.activation.sec, 2000);
  /* staged keeps "auto"; its activation is null again */
  fail_unless_equals_int (ep.staged.legs[0].v[VMI_NMOS_P_INTERFACE_IP].type,
      VMI_NMOS_V_AUTO);
  fail_unless_equals_int (ep.staged.activation.mode, VMI_NMOS_ACTIVATE_NONE);
  fail_if (vmi_nmos_endpoint_scheduled (&ep, NULL));

  /* relative: due at now + requested; everything else is locked */
  memset (&patch, 0, sizeof (patch));
  patch.has_activation = TRUE;
  patch.activation.mode = VMI_NMOS_ACTIVATE_RELATIVE;
  patch.activation.has_requested = TRUE;
  patch.activation.requested = (VmiNmosTime) {
  1, 999999999};
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch, now, &err),
      VMI_NMOS_PATCH_SCHEDULED);
  fail_unless (vmi_nmos_endpoint_scheduled (&ep, &when));
  fail_unless_equals_uint64 (when.sec, 2002);
  fail_unless_equals_int (when.nsec, 499);
  memset (&patch, 0, sizeof (patch));
  patch.has_master_enable = TRUE;
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch, now, &err),
      VMI_NMOS_PATCH_LOCKED);
  g_free (err);
  /* cancelled by mode null */
  patch.has_activation = TRUE;
  patch.activation.mode = VMI_NMOS_ACTIVATE_NONE;
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch, now, &err),
      VMI_NMOS_PATCH_STAGED);
  fail_if (vmi_nmos_endpoint_scheduled (&ep, NULL));

  /* absolute in the past: due at once */
  memset (&patch, 0, sizeof (patch));
  patch.has_activation = TRUE;
  patch.activation.mode = VMI_NMOS_ACTIVATE_ABSOLUTE;
  patch.activation.has_requested = TRUE;
  patch.activation.requested = (VmiNmosTime) {
  10, 0};
  fail_unless_equals_int (vmi_nmos_endpoint_patch (&ep, &patch, now, &err),
      VMI_NMOS_PATCH_SCHEDULED);
  fail_unless (vmi_nmos_endpoint_scheduled (&ep, &when));
  fail_unless_equals_int (vmi_nmos_time_compare (when, now), 0);
  /* a failed activation leaves the active state, clears the schedule */
  vmi_nmos_endpoint_abort (&ep);
  fail_if (vmi_nmos_endpoint_scheduled (&ep, NULL));
  fail_unless_equals_uint64 (ep.active.activation.activation.sec, 2000);
  vmi_nmos_endpoint_clear (&ep);
}

GST_END_TEST;

static Suite *
nmos_core_suite (void)
{
  Suite *s = suite_create ("nmos-core");
  TCase *tc = tcase_create ("core");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_uuid);
  tcase_add_test (tc, test_time);
  tcase_add_test (tc, test_patch_validation);
  tcase_add_test (tc, test_activation);
  return s;
}

GST_CHECK_MAIN (nmos_core);
