/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* DNS-SD browsing (RFC 6763) over one-shot multicast DNS (RFC 6762 §5.1,
 * §6.7: queries from an ephemeral port, answered by unicast), pure C (no
 * GLib, no sockets): building queries, parsing answers (every length and
 * compression pointer checked: a packet is hostile until proven
 * otherwise), collecting the PTR/SRV/TXT/A records of a browse, and
 * ordering what was found the way IS-04 orders Registration APIs.
 * The node's registration thread does the sockets (vmi-nmos-node.c). */

#ifndef __VMI_DNSSD_H__
#define __VMI_DNSSD_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VMI_DNSSD_MDNS_GROUP "224.0.0.251"
#define VMI_DNSSD_MDNS_PORT 5353
/* an mDNS packet never exceeds this (RFC 6762 §17, jumbo frames) */
#define VMI_DNSSD_MAX_PACKET 9000
/* a name in dotted form, NUL included (RFC 1035: 255 octets on the wire) */
#define VMI_DNSSD_NAME_MAX 256
#define VMI_DNSSD_MAX_TYPES 2
#define VMI_DNSSD_MAX_SERVICES 32
#define VMI_DNSSD_MAX_HOSTS 32

typedef enum
{
  VMI_DNSSD_TYPE_A = 1,
  VMI_DNSSD_TYPE_PTR = 12,
  VMI_DNSSD_TYPE_TXT = 16,
  VMI_DNSSD_TYPE_SRV = 33,
} VmiDnssdType;

typedef struct
{
  const char *name;             /* dotted, "_nmos-register._tcp.local" */
  uint16_t type;
} VmiDnssdQuestion;

/* A query of @n questions (class IN, no QU bit) with @id into @buf; its
 * length, 0 when a name is malformed (a label over 63 octets, an empty
 * label, a name over 255) or it does not fit in @size. */
size_t vmi_dnssd_build_query (uint8_t * buf, size_t size, uint16_t id,
    const VmiDnssdQuestion * q, unsigned n);

typedef struct
{
  char name[VMI_DNSSD_NAME_MAX];
  uint16_t type;
  uint16_t rclass;              /* cache-flush bit cleared */
  uint32_t ttl;
  /* PTR target, SRV target */
  char target[VMI_DNSSD_NAME_MAX];
  uint16_t srv_priority, srv_weight, srv_port;
  /* TXT: the raw character-strings (inside the packet) */
  const uint8_t *txt;
  size_t txt_len;
  uint8_t a[4];
} VmiDnssdRecord;

/* Called for each resource record (answers, authority, additional) of a
 * type above; others are skipped. Return false to stop. */
typedef bool (*VmiDnssdRecordFunc) (const VmiDnssdRecord * r, void *user);

/* Parses a response (QR set, opcode 0). The number of records handed to
 * @func, -1 when the packet is not a response or is malformed: the records
 * before the malformed one were handed over, nothing after. */
int vmi_dnssd_parse (const uint8_t * pkt, size_t len, uint16_t * id,
    VmiDnssdRecordFunc func, void *user);

/* The value of @key in a TXT record's strings ("key=value", key compared
 * case-insensitively, RFC 6763 §6.4: the first occurrence wins) into
 * @val (NUL-terminated, truncated to @size - 1): false when absent or
 * without a value. */
bool vmi_dnssd_txt_get (const uint8_t * txt, size_t len, const char *key,
    char *val, size_t size);

/* --- a browse: what the answers to PTR, SRV, TXT, A queries told ---------- */

typedef struct
{
  char instance[VMI_DNSSD_NAME_MAX];    /* "reg1._nmos-register._tcp.local" */
  unsigned type_index;          /* which of the browsed types */
  bool has_srv, has_txt;
  char target[VMI_DNSSD_NAME_MAX];
  uint16_t port;
  uint16_t srv_priority;
  /* TXT keys IS-04 uses ("" when absent) */
  char pri[12];
  char api_proto[12];
  char api_ver[64];
  char api_auth[8];
} VmiDnssdService;

typedef struct
{
  char name[VMI_DNSSD_NAME_MAX];
  uint8_t a[4];
} VmiDnssdHost;

typedef struct
{
  char types[VMI_DNSSD_MAX_TYPES][VMI_DNSSD_NAME_MAX];
  unsigned n_types;
  VmiDnssdService services[VMI_DNSSD_MAX_SERVICES];
  unsigned n_services;
  VmiDnssdHost hosts[VMI_DNSSD_MAX_HOSTS];
  unsigned n_hosts;
} VmiDnssdBrowse;

/* Browses the service types @types ("_nmos-register._tcp.local"). */
void vmi_dnssd_browse_init (VmiDnssdBrowse * b, const char *const *types,
    unsigned n_types);
/* Takes what a response tells about the browsed types: PTRs of a browsed
 * type add instances; SRV, TXT of a known instance and A of a known SRV
 * target fill them in (a record with TTL 0, a goodbye, is ignored).
 * Returns vmi_dnssd_parse()'s result. */
int vmi_dnssd_browse_add_packet (VmiDnssdBrowse * b, const uint8_t * pkt,
    size_t len);
/* The query for what is still missing: the PTRs of the types when
 * @ptr_too, the SRV and TXT of instances without them, the A of targets
 * without an address. Its length; 0 when nothing is missing. */
size_t vmi_dnssd_browse_query (const VmiDnssdBrowse * b, bool ptr_too,
    uint8_t * buf, size_t size, uint16_t id);

/* --- IS-04's choice of Registration API --------------------------------- */

typedef struct
{
  char url[96];                 /* "http://192.0.2.1:8235" */
  int pri;
  char instance[VMI_DNSSD_NAME_MAX];
} VmiDnssdCandidate;

/* The complete services of @b that a node of API version @api_ver can use
 * (IS-04 "Discovery: Registered Operation"): TXT api_ver lists it,
 * api_proto is http or https, api_auth is not true (no IS-10 here), pri is
 * an integer of 0..99, or any when @allow_development (100+ is reserved
 * for development). Ordered by pri, lowest first, equal pri in a random
 * order drawn from @seed. Several advertisements of one URL (both service
 * types) keep the best. Returns how many were written to @out (at most
 * @max). */
unsigned vmi_dnssd_registry_candidates (const VmiDnssdBrowse * b,
    const char *api_ver, bool allow_development, uint32_t seed,
    VmiDnssdCandidate * out, unsigned max);

#ifdef __cplusplus
}
#endif

#endif /* __VMI_DNSSD_H__ */
