/* gst-vmi: libFuzzer target for the DNS-SD core (gst/nmos/vmi-dnssd.c)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Input: one DNS response as it arrives on the node's discovery socket
 * (any bytes: compression loops and forward pointers, truncated records,
 * lengths past the end, names over 255 octets, NULs in labels and TXT).
 * It goes through vmi_dnssd_parse() and a browse of both IS-04 service
 * types, then the follow-up query and the registry choice. Checks: every
 * record's strings are terminated and within their buffers; a name read
 * out of a packet is written back by vmi_dnssd_build_query() (or refused)
 * without overrunning; a TXT record lies inside the packet; a candidate
 * is a complete, allowed registry URL. */

#include <stdlib.h>
#include <string.h>
#include "vmi-dnssd.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

typedef struct
{
  const uint8_t *pkt;
  size_t len;
} Ctx;

static bool
check_record (const VmiDnssdRecord * r, void *user)
{
  const Ctx *c = user;
  uint8_t q[600];
  VmiDnssdQuestion qq = { r->name, r->type };
  char v[8];

  if (memchr (r->name, 0, sizeof (r->name)) == NULL
      || memchr (r->target, 0, sizeof (r->target)) == NULL)
    abort ();
  if (vmi_dnssd_build_query (q, sizeof (q), 1, &qq, 1) > sizeof (q))
    abort ();
  if (r->type == VMI_DNSSD_TYPE_TXT) {
    if (r->txt < c->pkt || r->txt + r->txt_len > c->pkt + c->len)
      abort ();
    if (vmi_dnssd_txt_get (r->txt, r->txt_len, "pri", v, sizeof (v))
        && strlen (v) >= sizeof (v))
      abort ();
  }
  return true;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  static const char *const types[] = { "_nmos-register._tcp.local",
    "_nmos-registration._tcp.local"
  };
  static VmiDnssdBrowse b;
  VmiDnssdCandidate c[VMI_DNSSD_MAX_SERVICES];
  Ctx ctx = { data, size };
  uint8_t q[VMI_DNSSD_MAX_PACKET];
  unsigned n, i;
  size_t ql;

  vmi_dnssd_parse (data, size, NULL, check_record, &ctx);

  vmi_dnssd_browse_init (&b, types, 2);
  vmi_dnssd_browse_add_packet (&b, data, size);
  ql = vmi_dnssd_browse_query (&b, true, q, sizeof (q), 7);
  if (ql > sizeof (q))
    abort ();
  for (i = 0; i < b.n_services; i++)
    if (memchr (b.services[i].api_ver, 0, sizeof (b.services[i].api_ver))
        == NULL)
      abort ();
  n = vmi_dnssd_registry_candidates (&b, "v1.3", size & 1, (uint32_t) size,
      c, VMI_DNSSD_MAX_SERVICES);
  if (n > b.n_services)
    abort ();
  for (i = 0; i < n; i++) {
    if (strncmp (c[i].url, "http://", 7) != 0
        && strncmp (c[i].url, "https://", 8) != 0)
      abort ();
    if (c[i].pri < 0 || (c[i].pri >= 100 && !(size & 1)))
      abort ();
    if (i > 0 && c[i].pri < c[i - 1].pri)
      abort ();
  }
  return 0;
}
