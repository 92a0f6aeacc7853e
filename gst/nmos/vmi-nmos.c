/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "vmi-nmos.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>

/* The gst-vmi name space of name-based UUIDs (a random v4 UUID, fixed
 * forever: changing it changes every resource id). */
static const guint8 vmi_nmos_namespace[16] = {
  0x6f, 0x3c, 0x2a, 0x1e, 0x8b, 0x47, 0x4d, 0x52,
  0x9e, 0x0d, 0x55, 0x7a, 0xc3, 0x19, 0x84, 0x2b,
};

/* leap seconds TAI - UTC since 2017-01-01 */
#define TAI_UTC_OFFSET 37

void
vmi_nmos_uuid_from_name (const gchar * name, gchar out[VMI_NMOS_UUID_LEN])
{
  GChecksum *sha1 = g_checksum_new (G_CHECKSUM_SHA1);
  guint8 digest[20];
  gsize len = sizeof (digest);

  g_checksum_update (sha1, vmi_nmos_namespace, sizeof (vmi_nmos_namespace));
  g_checksum_update (sha1, (const guchar *) name, strlen (name));
  g_checksum_get_digest (sha1, digest, &len);
  g_checksum_free (sha1);
  /* RFC 4122 §4.3: version 5, variant 10 */
  digest[6] = (digest[6] & 0x0f) | 0x50;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  g_snprintf (out, VMI_NMOS_UUID_LEN,
      "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
      "%02x%02x%02x%02x%02x%02x", digest[0], digest[1], digest[2], digest[3],
      digest[4], digest[5], digest[6], digest[7], digest[8], digest[9],
      digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]);
}

gboolean
vmi_nmos_uuid_valid (const gchar * s)
{
  guint i;

  if (s == NULL || strlen (s) != 36)
    return FALSE;
  for (i = 0; i < 36; i++) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-')
        return FALSE;
    } else if (!g_ascii_isxdigit (s[i])) {
      return FALSE;
    }
  }
  return TRUE;
}

VmiNmosTime
vmi_nmos_tai_now (void)
{
  struct timex tx = { 0 };
  struct timespec ts;
  VmiNmosTime t;
  gboolean kernel_tai = adjtimex (&tx) >= 0 && tx.tai > 0;

  clock_gettime (kernel_tai ? CLOCK_TAI : CLOCK_REALTIME, &ts);
  t.sec = (guint64) ts.tv_sec + (kernel_tai ? 0 : TAI_UTC_OFFSET);
  t.nsec = (guint32) ts.tv_nsec;
  return t;
}

void
vmi_nmos_time_format (VmiNmosTime t, gchar out[VMI_NMOS_TIME_LEN])
{
  g_snprintf (out, VMI_NMOS_TIME_LEN, "%" G_GUINT64_FORMAT ":%u", t.sec,
      t.nsec);
}

gboolean
vmi_nmos_time_parse (const gchar * s, VmiNmosTime * t)
{
  const gchar *colon;
  guint64 sec, nsec;
  gchar *end;

  if (s == NULL || !g_ascii_isdigit (s[0]))
    return FALSE;
  colon = strchr (s, ':');
  if (colon == NULL || !g_ascii_isdigit (colon[1]) || colon - s > 19
      || strlen (colon + 1) > 9)
    return FALSE;
  sec = g_ascii_strtoull (s, &end, 10);
  if (end != colon)
    return FALSE;
  nsec = g_ascii_strtoull (colon + 1, &end, 10);
  if (*end != '\0' || nsec >= 1000000000)
    return FALSE;
  t->sec = sec;
  t->nsec = (guint32) nsec;
  return TRUE;
}

gint
vmi_nmos_time_compare (VmiNmosTime a, VmiNmosTime b)
{
  if (a.sec != b.sec)
    return a.sec < b.sec ? -1 : 1;
  if (a.nsec != b.nsec)
    return a.nsec < b.nsec ? -1 : 1;
  return 0;
}

VmiNmosTime
vmi_nmos_time_add (VmiNmosTime a, VmiNmosTime b)
{
  VmiNmosTime r;

  r.sec = a.sec + b.sec;
  r.nsec = a.nsec + b.nsec;
  if (r.nsec >= 1000000000) {
    r.nsec -= 1000000000;
    r.sec++;
  }
  return r;
}

guint64
vmi_nmos_time_until_ns (VmiNmosTime now, VmiNmosTime t)
{
  guint64 d;

  if (vmi_nmos_time_compare (t, now) <= 0)
    return 0;
  /* beyond ~584 years the caller's timer saturates anyway */
  if (t.sec - now.sec > G_MAXUINT64 / 1000000000 - 1)
    return G_MAXUINT64;
  d = (t.sec - now.sec) * 1000000000;
  return d + t.nsec - now.nsec;
}

VmiNmosTime
vmi_nmos_next_version (VmiNmosTime prev)
{
  VmiNmosTime now = vmi_nmos_tai_now ();
  VmiNmosTime tick = { 0, 1 };

  if (vmi_nmos_time_compare (now, prev) <= 0)
    now = vmi_nmos_time_add (prev, tick);
  return now;
}

/* --- IS-05 ------------------------------------------------------------- */

typedef struct
{
  const gchar *name;
  guint roles;                  /* 1 << VmiNmosRole */
  /* allowed value types, 1 << VmiNmosValueType, per role */
  guint types[2];
} ParamInfo;

#define R(r) (1u << (r))
#define T(t) (1u << (t))
#define IP_OR_AUTO (T (VMI_NMOS_V_STRING) | T (VMI_NMOS_V_AUTO))
#define IP_OR_NULL (T (VMI_NMOS_V_STRING) | T (VMI_NMOS_V_NULL))
#define PORT (T (VMI_NMOS_V_INT) | T (VMI_NMOS_V_AUTO))

static const ParamInfo params[VMI_NMOS_N_PARAMS] = {
  [VMI_NMOS_P_SOURCE_IP] = {"source_ip", R (VMI_NMOS_SENDER) |
        R (VMI_NMOS_RECEIVER), {IP_OR_AUTO, IP_OR_NULL}},
  [VMI_NMOS_P_DESTINATION_IP] = {"destination_ip", R (VMI_NMOS_SENDER),
      {IP_OR_AUTO, 0}},
  [VMI_NMOS_P_MULTICAST_IP] = {"multicast_ip", R (VMI_NMOS_RECEIVER),
      {0, IP_OR_NULL}},
  [VMI_NMOS_P_INTERFACE_IP] = {"interface_ip", R (VMI_NMOS_RECEIVER),
      {0, IP_OR_AUTO}},
  [VMI_NMOS_P_SOURCE_PORT] = {"source_port", R (VMI_NMOS_SENDER),
      {PORT, 0}},
  [VMI_NMOS_P_DESTINATION_PORT] = {"destination_port", R (VMI_NMOS_SENDER) |
        R (VMI_NMOS_RECEIVER), {PORT, PORT}},
  [VMI_NMOS_P_RTP_ENABLED] = {"rtp_enabled", R (VMI_NMOS_SENDER) |
        R (VMI_NMOS_RECEIVER), {T (VMI_NMOS_V_BOOL), T (VMI_NMOS_V_BOOL)}},
};

const gchar *
vmi_nmos_param_name (VmiNmosParam p)
{
  return p < VMI_NMOS_N_PARAMS ? params[p].name : NULL;
}

gboolean
vmi_nmos_param_of_role (VmiNmosRole role, VmiNmosParam p)
{
  return p < VMI_NMOS_N_PARAMS && (params[p].roles & R (role)) != 0;
}

gint
vmi_nmos_param_lookup (const gchar * name)
{
  guint i;

  for (i = 0; i < VMI_NMOS_N_PARAMS; i++)
    if (g_strcmp0 (params[i].name, name) == 0)
      return (gint) i;
  return -1;
}

void
vmi_nmos_value_set_string (VmiNmosValue * v, const gchar * s)
{
  memset (v, 0, sizeof (*v));
  v->type = VMI_NMOS_V_STRING;
  g_strlcpy (v->s, s, sizeof (v->s));
}

void
vmi_nmos_value_set_int (VmiNmosValue * v, gint64 i)
{
  memset (v, 0, sizeof (*v));
  v->type = VMI_NMOS_V_INT;
  v->i = i;
}

void
vmi_nmos_value_set_bool (VmiNmosValue * v, gboolean b)
{
  memset (v, 0, sizeof (*v));
  v->type = VMI_NMOS_V_BOOL;
  v->b = b != FALSE;
}

void
vmi_nmos_value_set_auto (VmiNmosValue * v)
{
  memset (v, 0, sizeof (*v));
  v->type = VMI_NMOS_V_AUTO;
}

void
vmi_nmos_value_set_null (VmiNmosValue * v)
{
  memset (v, 0, sizeof (*v));
  v->type = VMI_NMOS_V_NULL;
}

gboolean
vmi_nmos_value_equal (const VmiNmosValue * a, const VmiNmosValue * b)
{
  if (a->type != b->type)
    return FALSE;
  switch (a->type) {
    case VMI_NMOS_V_STRING:
      return strcmp (a->s, b->s) == 0;
    case VMI_NMOS_V_INT:
      return a->i == b->i;
    case VMI_NMOS_V_BOOL:
      return a->b == b->b;
    default:
      return TRUE;
  }
}

void
vmi_nmos_endpoint_init (VmiNmosEndpoint * ep, VmiNmosRole role,
    guint n_legs, const VmiNmosLeg * initial, gboolean enabled)
{
  guint i;

  memset (ep, 0, sizeof (*ep));
  ep->role = role;
  ep->n_legs = CLAMP (n_legs, 1, VMI_NMOS_MAX_LEGS);
  for (i = 0; i < ep->n_legs; i++) {
    ep->staged.legs[i] = initial[i];
    ep->active.legs[i] = initial[i];
    ep->auto_values[i] = initial[i];
  }
  ep->staged.master_enable = ep->active.master_enable = enabled;
}

void
vmi_nmos_state_clear (VmiNmosState * s)
{
  g_clear_pointer (&s->transport_file, g_free);
}

void
vmi_nmos_state_copy (const VmiNmosState * src, VmiNmosState * dst)
{
  *dst = *src;
  dst->transport_file = g_strdup (src->transport_file);
}

void
vmi_nmos_endpoint_clear (VmiNmosEndpoint * ep)
{
  vmi_nmos_state_clear (&ep->staged);
  vmi_nmos_state_clear (&ep->active);
}

static gboolean
ip_valid (const gchar * s, gboolean multicast)
{
  struct in_addr a;

  if (inet_pton (AF_INET, s, &a) != 1)
    return FALSE;
  return !multicast || (ntohl (a.s_addr) >> 28) == 0xe;
}

static const gchar *
type_name (VmiNmosValueType t)
{
  static const gchar *names[] = { "unset", "null", "\"auto\"", "a string",
    "an integer", "a boolean"
  };
  return names[t];
}

/* NULL when @v is acceptable for @p of @ep's leg @leg; else why not */
static gchar *
check_value (const VmiNmosEndpoint * ep, guint leg, VmiNmosParam p,
    const VmiNmosValue * v)
{
  const VmiNmosConstraint *c = &ep->constraints[leg][p];
  const gchar *name = params[p].name;
  guint i;

  if (!vmi_nmos_param_of_role (ep->role, p))
    return g_strdup_printf ("%s is not a parameter of a %s", name,
        ep->role == VMI_NMOS_SENDER ? "sender" : "receiver");
  if ((params[p].types[ep->role] & T (v->type)) == 0)
    return g_strdup_printf ("%s cannot be %s", name, type_name (v->type));
  if (v->type == VMI_NMOS_V_STRING && !ip_valid (v->s,
          p == VMI_NMOS_P_MULTICAST_IP))
    return g_strdup_printf ("%s \"%s\" is not an IPv4 %saddress", name, v->s,
        p == VMI_NMOS_P_MULTICAST_IP ? "multicast " : "");
  if (v->type == VMI_NMOS_V_INT && (v->i < 0 || v->i > 65535))
    return g_strdup_printf ("%s %" G_GINT64_FORMAT " is not a UDP port", name,
        v->i);
  /* "auto" and null are always within constraints (IS-05) */
  if (v->type == VMI_NMOS_V_AUTO || v->type == VMI_NMOS_V_NULL)
    return NULL;
  if (c->n_enum > 0) {
    for (i = 0; i < c->n_enum; i++)
      if (vmi_nmos_value_equal (&c->enum_values[i], v))
        return NULL;
    return g_strdup_printf ("%s of leg %u is not one of the values its "
        "constraints list", name, leg);
  }
  if (v->type == VMI_NMOS_V_INT && ((c->has_min && v->i < c->min)
          || (c->has_max && v->i > c->max)))
    return g_strdup_printf ("%s %" G_GINT64_FORMAT " is outside [%"
        G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", name, v->i,
        c->has_min ? c->min : 0, c->has_max ? c->max : 65535);
  return NULL;
}

gboolean
vmi_nmos_endpoint_scheduled (const VmiNmosEndpoint * ep, VmiNmosTime * when)
{
  const VmiNmosActivation *a = &ep->staged.activation;

  if (a->mode != VMI_NMOS_ACTIVATE_ABSOLUTE
      && a->mode != VMI_NMOS_ACTIVATE_RELATIVE)
    return FALSE;
  if (when)
    *when = a->activation;
  return TRUE;
}

VmiNmosPatchResult
vmi_nmos_endpoint_patch (VmiNmosEndpoint * ep, const VmiNmosPatch * patch,
    VmiNmosTime now, gchar ** error)
{
  VmiNmosState *st = &ep->staged;
  guint l, p;

  *error = NULL;
  if (vmi_nmos_endpoint_scheduled (ep, NULL) && !(patch->has_activation
          && patch->activation.mode == VMI_NMOS_ACTIVATE_NONE)) {
    *error = g_strdup ("a scheduled activation is pending: cancel it first "
        "(activation mode null)");
    return VMI_NMOS_PATCH_LOCKED;
  }
  if (patch->n_legs > ep->n_legs) {
    *error = g_strdup_printf ("transport_params has %u legs; this %s has %u",
        patch->n_legs, ep->role == VMI_NMOS_SENDER ? "sender" : "receiver",
        ep->n_legs);
    return VMI_NMOS_PATCH_BAD_REQUEST;
  }
  for (l = 0; l < patch->n_legs; l++) {
    for (p = 0; p < VMI_NMOS_N_PARAMS; p++) {
      if (patch->legs[l].v[p].type == VMI_NMOS_V_UNSET)
        continue;
      *error = check_value (ep, l, p, &patch->legs[l].v[p]);
      if (*error)
        return VMI_NMOS_PATCH_BAD_REQUEST;
    }
  }
  if (patch->has_activation) {
    const VmiNmosActivation *a = &patch->activation;
    gboolean scheduled = a->mode == VMI_NMOS_ACTIVATE_ABSOLUTE
        || a->mode == VMI_NMOS_ACTIVATE_RELATIVE;

    if (scheduled && !a->has_requested) {
      *error = g_strdup ("a scheduled activation needs requested_time");
      return VMI_NMOS_PATCH_BAD_REQUEST;
    }
    if (!scheduled && a->has_requested) {
      *error = g_strdup ("requested_time must be null unless the activation "
          "is scheduled");
      return VMI_NMOS_PATCH_BAD_REQUEST;
    }
  }

  /* valid: stage it all */
  for (l = 0; l < patch->n_legs; l++)
    for (p = 0; p < VMI_NMOS_N_PARAMS; p++)
      if (patch->legs[l].v[p].type != VMI_NMOS_V_UNSET)
        st->legs[l].v[p] = patch->legs[l].v[p];
  if (patch->has_master_enable)
    st->master_enable = patch->master_enable;
  if (patch->has_peer)
    g_strlcpy (st->peer_id, patch->peer_id, sizeof (st->peer_id));
  if (patch->has_transport_file) {
    g_free (st->transport_file);
    st->transport_file = g_strdup (patch->transport_file);
  }
  if (!patch->has_activation)
    return VMI_NMOS_PATCH_STAGED;

  memset (&st->activation, 0, sizeof (st->activation));
  st->activation.mode = patch->activation.mode;
  st->activation.has_requested = patch->activation.has_requested;
  st->activation.requested = patch->activation.requested;
  switch (patch->activation.mode) {
    case VMI_NMOS_ACTIVATE_NONE:
      return VMI_NMOS_PATCH_STAGED;
    case VMI_NMOS_ACTIVATE_IMMEDIATE:
      st->activation.has_activation = TRUE;
      st->activation.activation = now;
      return VMI_NMOS_PATCH_ACTIVATE_NOW;
    case VMI_NMOS_ACTIVATE_ABSOLUTE:
      st->activation.has_activation = TRUE;
      /* a time already past activates at once (IS-05) */
      st->activation.activation = vmi_nmos_time_compare (st->activation.
          requested, now) > 0 ? st->activation.requested : now;
      return VMI_NMOS_PATCH_SCHEDULED;
    case VMI_NMOS_ACTIVATE_RELATIVE:
      st->activation.has_activation = TRUE;
      st->activation.activation = vmi_nmos_time_add (now,
          st->activation.requested);
      return VMI_NMOS_PATCH_SCHEDULED;
  }
  return VMI_NMOS_PATCH_STAGED;
}

void
vmi_nmos_endpoint_pending (const VmiNmosEndpoint * ep, VmiNmosTime now,
    VmiNmosState * out)
{
  guint l, p;

  vmi_nmos_state_copy (&ep->staged, out);
  for (l = 0; l < ep->n_legs; l++) {
    for (p = 0; p < VMI_NMOS_N_PARAMS; p++) {
      VmiNmosValue *v = &out->legs[l].v[p];

      if (v->type == VMI_NMOS_V_AUTO
          && ep->auto_values[l].v[p].type != VMI_NMOS_V_UNSET)
        *v = ep->auto_values[l].v[p];
    }
  }
  out->activation.has_activation = TRUE;
  out->activation.activation = now;
}

void
vmi_nmos_endpoint_commit (VmiNmosEndpoint * ep, VmiNmosState * pending)
{
  vmi_nmos_state_clear (&ep->active);
  ep->active = *pending;
  memset (pending, 0, sizeof (*pending));
  memset (&ep->staged.activation, 0, sizeof (ep->staged.activation));
}

void
vmi_nmos_endpoint_abort (VmiNmosEndpoint * ep)
{
  memset (&ep->staged.activation, 0, sizeof (ep->staged.activation));
}
