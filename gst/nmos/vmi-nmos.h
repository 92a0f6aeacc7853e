/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* NMOS bookkeeping (pure C, GLib only, no GObject, no HTTP, no JSON):
 * stable resource UUIDs, IS-04 resource versions on TAI, and the IS-05
 * state of one sender or receiver: constraints, staged and active
 * parameters, PATCH validation, immediate and scheduled activation.
 *
 * The HTTP/JSON node (vmi-nmos-node.c) decodes a request body into a
 * VmiNmosPatch (type errors are its business), hands it to
 * vmi_nmos_endpoint_patch() (constraints, locking, scheduling are ours),
 * and encodes the endpoint's state back. Not thread-safe: the node calls
 * it under its own lock. */

#ifndef __VMI_NMOS_H__
#define __VMI_NMOS_H__

#include <glib.h>

G_BEGIN_DECLS

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" and its NUL */
#define VMI_NMOS_UUID_LEN 37
/* "<seconds>:<nanoseconds>" and its NUL */
#define VMI_NMOS_TIME_LEN 32
/* IS-05: at most two legs (ST 2022-7) */
#define VMI_NMOS_MAX_LEGS 2
#define VMI_NMOS_MAX_ENUM 16

/* RFC 4122 name-based UUID (version 5, SHA-1) of @name in the gst-vmi
 * namespace: the same name gives the same id on every run and host. */
void vmi_nmos_uuid_from_name (const gchar * name,
    gchar out[VMI_NMOS_UUID_LEN]);
/* TRUE when @s is a UUID in the IS-04 form (lower- or upper-case hex). */
gboolean vmi_nmos_uuid_valid (const gchar * s);

/* A TAI instant as IS-04/05 write it ("<s>:<ns>"). */
typedef struct
{
  guint64 sec;
  guint32 nsec;
} VmiNmosTime;

/* Now on TAI: CLOCK_TAI when the kernel knows the TAI offset (a host
 * disciplined by ptp4l/phc2sys or chrony), else CLOCK_REALTIME plus the 37
 * leap seconds in force since 2017. */
VmiNmosTime vmi_nmos_tai_now (void);
void vmi_nmos_time_format (VmiNmosTime t, gchar out[VMI_NMOS_TIME_LEN]);
/* Strict "<digits>:<digits>" with nanoseconds below 10^9. */
gboolean vmi_nmos_time_parse (const gchar * s, VmiNmosTime * t);
gint vmi_nmos_time_compare (VmiNmosTime a, VmiNmosTime b);
VmiNmosTime vmi_nmos_time_add (VmiNmosTime a, VmiNmosTime b);
/* ns from @now until @t (0 when @t has passed) */
guint64 vmi_nmos_time_until_ns (VmiNmosTime now, VmiNmosTime t);

/* IS-04 resource version: TAI now, but always later than @prev (two
 * changes within one clock tick still get two versions). */
VmiNmosTime vmi_nmos_next_version (VmiNmosTime prev);

/* --- IS-05 ------------------------------------------------------------- */

typedef enum
{
  VMI_NMOS_SENDER,
  VMI_NMOS_RECEIVER,
} VmiNmosRole;

/* The RTP transport parameters we support (IS-05 v1.1 rtp schemas, no FEC
 * or RTCP). */
typedef enum
{
  VMI_NMOS_P_SOURCE_IP,
  VMI_NMOS_P_DESTINATION_IP,    /* sender */
  VMI_NMOS_P_MULTICAST_IP,      /* receiver */
  VMI_NMOS_P_INTERFACE_IP,      /* receiver */
  VMI_NMOS_P_SOURCE_PORT,       /* sender */
  VMI_NMOS_P_DESTINATION_PORT,
  VMI_NMOS_P_RTP_ENABLED,
  VMI_NMOS_N_PARAMS,
} VmiNmosParam;

typedef enum
{
  VMI_NMOS_V_UNSET = 0,         /* not in a PATCH / not a parameter of the role */
  VMI_NMOS_V_NULL,
  VMI_NMOS_V_AUTO,
  VMI_NMOS_V_STRING,
  VMI_NMOS_V_INT,
  VMI_NMOS_V_BOOL,
} VmiNmosValueType;

typedef struct
{
  VmiNmosValueType type;
  gchar s[48];                  /* STRING: an IP address */
  gint64 i;                     /* INT */
  gboolean b;                   /* BOOL */
} VmiNmosValue;

typedef struct
{
  VmiNmosValue v[VMI_NMOS_N_PARAMS];
} VmiNmosLeg;

/* IS-05 constraint of one parameter: {} (anything the schema allows),
 * "enum", "minimum"/"maximum". */
typedef struct
{
  guint n_enum;
  VmiNmosValue enum_values[VMI_NMOS_MAX_ENUM];
  gboolean has_min, has_max;
  gint64 min, max;
} VmiNmosConstraint;

typedef enum
{
  VMI_NMOS_ACTIVATE_NONE,       /* null */
  VMI_NMOS_ACTIVATE_IMMEDIATE,
  VMI_NMOS_ACTIVATE_ABSOLUTE,
  VMI_NMOS_ACTIVATE_RELATIVE,
} VmiNmosActivationMode;

typedef struct
{
  VmiNmosActivationMode mode;
  gboolean has_requested;
  VmiNmosTime requested;        /* as given (relative: an offset) */
  gboolean has_activation;
  VmiNmosTime activation;       /* when it takes / took effect */
} VmiNmosActivation;

/* One side (staged or active) of an endpoint. */
typedef struct
{
  gboolean master_enable;
  gchar peer_id[VMI_NMOS_UUID_LEN];     /* sender_id / receiver_id; "" = null */
  VmiNmosActivation activation;
  VmiNmosLeg legs[VMI_NMOS_MAX_LEGS];
  gchar *transport_file;        /* receiver: SDP text; NULL = null */
} VmiNmosState;

typedef struct
{
  VmiNmosRole role;
  guint n_legs;
  VmiNmosConstraint constraints[VMI_NMOS_MAX_LEGS][VMI_NMOS_N_PARAMS];
  /* what "auto" resolves to in the active parameters, per leg */
  VmiNmosLeg auto_values[VMI_NMOS_MAX_LEGS];
  VmiNmosState staged;
  VmiNmosState active;
} VmiNmosEndpoint;

/* A decoded PATCH body: every member says whether it was present. */
typedef struct
{
  gboolean has_master_enable;
  gboolean master_enable;
  gboolean has_peer;
  gchar peer_id[VMI_NMOS_UUID_LEN];     /* "" = null */
  gboolean has_activation;
  VmiNmosActivation activation; /* has_requested: requested_time not null */
  gboolean has_transport_file;
  gchar *transport_file;        /* NULL = null data (borrowed) */
  guint n_legs;                 /* transport_params legs given */
  VmiNmosLeg legs[VMI_NMOS_MAX_LEGS];
} VmiNmosPatch;

/* What vmi_nmos_endpoint_patch() asks of its caller. */
typedef enum
{
  VMI_NMOS_PATCH_STAGED,        /* 200: staged, nothing to activate */
  VMI_NMOS_PATCH_ACTIVATE_NOW,  /* apply vmi_nmos_endpoint_pending() now, then
                                 * vmi_nmos_endpoint_commit(); 200 */
  VMI_NMOS_PATCH_SCHEDULED,     /* 202: call vmi_nmos_endpoint_due() later */
  VMI_NMOS_PATCH_BAD_REQUEST,   /* 400 */
  VMI_NMOS_PATCH_LOCKED,        /* 423: a scheduled activation is pending */
} VmiNmosPatchResult;

/* The parameter's IS-05 name ("source_ip", ...). */
const gchar *vmi_nmos_param_name (VmiNmosParam p);
/* TRUE when @role has parameter @p. */
gboolean vmi_nmos_param_of_role (VmiNmosRole role, VmiNmosParam p);
/* The parameter named @name, or -1. */
gint vmi_nmos_param_lookup (const gchar * name);

/* Value helpers */
void vmi_nmos_value_set_string (VmiNmosValue * v, const gchar * s);
void vmi_nmos_value_set_int (VmiNmosValue * v, gint64 i);
void vmi_nmos_value_set_bool (VmiNmosValue * v, gboolean b);
void vmi_nmos_value_set_auto (VmiNmosValue * v);
void vmi_nmos_value_set_null (VmiNmosValue * v);
gboolean vmi_nmos_value_equal (const VmiNmosValue * a, const VmiNmosValue * b);

/* Starts an endpoint: every leg's staged and active parameters are
 * @initial (resolved values; active), master_enable @enabled; all
 * constraints {}. The caller then narrows constraints and sets
 * auto_values. */
void vmi_nmos_endpoint_init (VmiNmosEndpoint * ep, VmiNmosRole role,
    guint n_legs, const VmiNmosLeg * initial, gboolean enabled);
void vmi_nmos_endpoint_clear (VmiNmosEndpoint * ep);

/* Validates @patch against types, constraints and the pending activation,
 * and stages it (all or nothing). @now: TAI. On BAD_REQUEST / LOCKED,
 * @error tells why (free with g_free). */
VmiNmosPatchResult vmi_nmos_endpoint_patch (VmiNmosEndpoint * ep,
    const VmiNmosPatch * patch, VmiNmosTime now, gchar ** error);

/* The state an activation of the staged parameters would make active
 * ("auto" resolved, activation filled in with @now). Free with
 * vmi_nmos_state_clear(). */
void vmi_nmos_endpoint_pending (const VmiNmosEndpoint * ep, VmiNmosTime now,
    VmiNmosState * out);
/* Makes @pending (from vmi_nmos_endpoint_pending(), taken) the active
 * state and returns the staged activation to null. */
void vmi_nmos_endpoint_commit (VmiNmosEndpoint * ep, VmiNmosState * pending);
/* The activation failed: the staged activation returns to null, the active
 * state stays. */
void vmi_nmos_endpoint_abort (VmiNmosEndpoint * ep);
/* TRUE when a scheduled activation is pending; @when its TAI time. */
gboolean vmi_nmos_endpoint_scheduled (const VmiNmosEndpoint * ep,
    VmiNmosTime * when);

void vmi_nmos_state_copy (const VmiNmosState * src, VmiNmosState * dst);
void vmi_nmos_state_clear (VmiNmosState * s);

G_END_DECLS

#endif /* __VMI_NMOS_H__ */
