/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "vmi-dnssd.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CLASS_IN 1
#define HEADER_LEN 12
/* RFC 1035 §2.3.4 */
#define LABEL_MAX 63
#define WIRE_NAME_MAX 255
/* more pointers than a 255-octet name can need: a loop */
#define MAX_HOPS 128

static uint16_t
rd16 (const uint8_t * p)
{
  return (uint16_t) ((p[0] << 8) | p[1]);
}

static uint32_t
rd32 (const uint8_t * p)
{
  return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
      ((uint32_t) p[2] << 8) | p[3];
}

static void
wr16 (uint8_t * p, uint16_t v)
{
  p[0] = v >> 8;
  p[1] = v & 0xff;
}

/* --- names -------------------------------------------------------------- */

/* Appends label bytes to the dotted form, escaping what would make it
 * ambiguous ('.', '\\') or end the C string (NUL, as \000): instance names
 * are free text (RFC 6763 §4.3). false when it does not fit. */
static bool
append_label (char *out, size_t size, size_t * o, const uint8_t * l,
    unsigned n)
{
  unsigned i;

  if (*o > 0) {
    if (*o + 1 >= size)
      return false;
    out[(*o)++] = '.';
  }
  for (i = 0; i < n; i++) {
    uint8_t c = l[i];
    if (c == '.' || c == '\\') {
      if (*o + 2 >= size)
        return false;
      out[(*o)++] = '\\';
      out[(*o)++] = (char) c;
    } else if (c == 0) {
      if (*o + 4 >= size)
        return false;
      memcpy (out + *o, "\\000", 4);
      *o += 4;
    } else {
      if (*o + 1 >= size)
        return false;
      out[(*o)++] = (char) c;
    }
  }
  out[*o] = '\0';
  return true;
}

/* Reads the name at @off of @pkt into @out (dotted, escaped). Compression
 * pointers must each point before the previous one's target (so a chain
 * always ends), labels must stay inside the packet, the whole name within
 * 255 octets. The offset after the name in the record, -1 when malformed;
 * @fits false when it is valid but its dotted form is longer than @size. */
static long
read_name (const uint8_t * pkt, size_t len, size_t off, char *out,
    size_t size, bool * fits)
{
  size_t pos = off, limit = off, o = 0;
  long end = -1;
  unsigned hops = 0, wire = 1;

  *fits = true;
  out[0] = '\0';
  for (;;) {
    uint8_t c;

    if (pos >= len)
      return -1;
    c = pkt[pos];
    if (c == 0) {
      if (end < 0)
        end = (long) pos + 1;
      return end;
    }
    if ((c & 0xc0) == 0xc0) {
      size_t ptr;
      if (pos + 1 >= len)
        return -1;
      ptr = ((size_t) (c & 0x3f) << 8) | pkt[pos + 1];
      if (ptr >= limit || ++hops > MAX_HOPS)
        return -1;
      if (end < 0)
        end = (long) pos + 2;
      pos = limit = ptr;
      continue;
    }
    if (c & 0xc0)               /* 0x40, 0x80: extended and reserved types */
      return -1;
    if (pos + 1 + c > len)
      return -1;
    wire += 1 + c;
    if (wire > WIRE_NAME_MAX)
      return -1;
    if (*fits && !append_label (out, size, &o, pkt + pos + 1, c))
      *fits = false;
    pos += 1 + c;
  }
}

/* Writes dotted, escaped @name in wire form; its length, 0 when malformed
 * or it does not fit in @size. */
static size_t
write_name (uint8_t * buf, size_t size, const char *name)
{
  size_t o = 0;
  const char *p = name;

  if (*p == '\0' || strcmp (p, ".") == 0) {
    if (size < 1)
      return 0;
    buf[0] = 0;
    return 1;
  }
  while (*p) {
    size_t lp = o;              /* the length octet */
    unsigned n = 0;

    if (o + 1 > size)
      return 0;
    o++;
    while (*p && *p != '.') {
      unsigned char c = (unsigned char) *p++;
      if (c == '\\') {
        if (p[0] >= '0' && p[0] <= '9' && p[1] >= '0' && p[1] <= '9'
            && p[2] >= '0' && p[2] <= '9') {
          unsigned v = (p[0] - '0') * 100 + (p[1] - '0') * 10 + (p[2] - '0');
          if (v > 255)
            return 0;
          c = (unsigned char) v;
          p += 3;
        } else if (*p) {
          c = (unsigned char) *p++;
        } else {
          return 0;
        }
      }
      if (n >= LABEL_MAX || o + 1 > size)
        return 0;
      buf[o++] = c;
      n++;
    }
    if (n == 0)
      return 0;
    buf[lp] = (uint8_t) n;
    if (*p == '.') {
      p++;
      if (*p == '\0')           /* a trailing dot: the root */
        break;
    }
  }
  if (o + 1 > size || o + 1 > WIRE_NAME_MAX)
    return 0;
  buf[o++] = 0;
  return o;
}

/* --- queries, responses ------------------------------------------------- */

size_t
vmi_dnssd_build_query (uint8_t * buf, size_t size, uint16_t id,
    const VmiDnssdQuestion * q, unsigned n)
{
  size_t o = HEADER_LEN;
  unsigned i;

  if (size < HEADER_LEN || n > 0xffff)
    return 0;
  memset (buf, 0, HEADER_LEN);
  wr16 (buf, id);
  wr16 (buf + 4, (uint16_t) n);
  for (i = 0; i < n; i++) {
    size_t l = write_name (buf + o, size - o, q[i].name);
    if (l == 0 || o + l + 4 > size)
      return 0;
    o += l;
    wr16 (buf + o, q[i].type);
    wr16 (buf + o + 2, CLASS_IN);
    o += 4;
  }
  return o;
}

int
vmi_dnssd_parse (const uint8_t * pkt, size_t len, uint16_t * id,
    VmiDnssdRecordFunc func, void *user)
{
  char scratch[VMI_DNSSD_NAME_MAX];
  unsigned qd, nrr, i;
  size_t pos = HEADER_LEN;
  int count = 0;
  VmiDnssdRecord r;

  if (len < HEADER_LEN)
    return -1;
  /* a response (QR), standard query (opcode 0) */
  if (!(pkt[2] & 0x80) || (pkt[2] & 0x78) != 0)
    return -1;
  if (id)
    *id = rd16 (pkt);
  qd = rd16 (pkt + 4);
  nrr = (unsigned) rd16 (pkt + 6) + rd16 (pkt + 8) + rd16 (pkt + 10);

  for (i = 0; i < qd; i++) {
    bool fits;
    long e = read_name (pkt, len, pos, scratch, sizeof (scratch), &fits);
    if (e < 0 || (size_t) e + 4 > len)
      return -1;
    pos = (size_t) e + 4;
  }
  for (i = 0; i < nrr; i++) {
    bool fits, tfits = true;
    long e = read_name (pkt, len, pos, r.name, sizeof (r.name), &fits);
    size_t rd, rdlen;
    bool want = true;

    if (e < 0 || (size_t) e + 10 > len)
      return -1;
    pos = (size_t) e;
    r.type = rd16 (pkt + pos);
    r.rclass = rd16 (pkt + pos + 2) & 0x7fff;
    r.ttl = rd32 (pkt + pos + 4);
    rdlen = rd16 (pkt + pos + 8);
    rd = pos + 10;
    if (rd + rdlen > len)
      return -1;
    pos = rd + rdlen;
    r.target[0] = '\0';
    r.txt = NULL;
    r.txt_len = 0;
    r.srv_priority = r.srv_weight = r.srv_port = 0;
    memset (r.a, 0, sizeof (r.a));

    switch (r.type) {
      case VMI_DNSSD_TYPE_PTR:{
        /* the name is read from the whole packet (pointers lead back),
         * but must end inside the record's data */
        long te = read_name (pkt, rd + rdlen, rd, r.target,
            sizeof (r.target), &tfits);
        if (te < 0 || (size_t) te != rd + rdlen)
          return -1;
        break;
      }
      case VMI_DNSSD_TYPE_SRV:{
        long te;
        if (rdlen < 7)
          return -1;
        r.srv_priority = rd16 (pkt + rd);
        r.srv_weight = rd16 (pkt + rd + 2);
        r.srv_port = rd16 (pkt + rd + 4);
        te = read_name (pkt, rd + rdlen, rd + 6, r.target,
            sizeof (r.target), &tfits);
        if (te < 0 || (size_t) te != rd + rdlen)
          return -1;
        break;
      }
      case VMI_DNSSD_TYPE_TXT:
        r.txt = pkt + rd;
        r.txt_len = rdlen;
        break;
      case VMI_DNSSD_TYPE_A:
        if (rdlen != 4)
          return -1;
        memcpy (r.a, pkt + rd, 4);
        break;
      default:
        want = false;
        break;
    }
    /* a name longer than our buffers (escapes) is skipped, not misread */
    if (!want || r.rclass != CLASS_IN || !fits || !tfits)
      continue;
    count++;
    if (func && !func (&r, user))
      return count;
  }
  return count;
}

bool
vmi_dnssd_txt_get (const uint8_t * txt, size_t len, const char *key,
    char *val, size_t size)
{
  size_t pos = 0, klen = strlen (key);

  while (pos < len) {
    size_t n = txt[pos];
    const uint8_t *s = txt + pos + 1;

    if (pos + 1 + n > len)
      return false;
    pos += 1 + n;
    if (n < klen || strncasecmp ((const char *) s, key, klen) != 0)
      continue;
    if (n == klen)
      return false;             /* a boolean attribute: no value */
    if (s[klen] != '=')
      continue;
    {
      size_t vl = n - klen - 1;
      size_t i;
      if (size == 0)
        return false;
      if (vl > size - 1)
        vl = size - 1;
      for (i = 0; i < vl; i++) {
        if (s[klen + 1 + i] == 0) /* a NUL would cut the value: refuse */
          return false;
        val[i] = (char) s[klen + 1 + i];
      }
      val[vl] = '\0';
      return true;
    }
  }
  return false;
}

/* --- browse ------------------------------------------------------------- */

void
vmi_dnssd_browse_init (VmiDnssdBrowse * b, const char *const *types,
    unsigned n_types)
{
  unsigned i;

  memset (b, 0, sizeof (*b));
  for (i = 0; i < n_types && i < VMI_DNSSD_MAX_TYPES; i++)
    snprintf (b->types[b->n_types++], VMI_DNSSD_NAME_MAX, "%s", types[i]);
}

static VmiDnssdService *
find_service (VmiDnssdBrowse * b, const char *instance)
{
  unsigned i;

  for (i = 0; i < b->n_services; i++)
    if (strcasecmp (b->services[i].instance, instance) == 0)
      return &b->services[i];
  return NULL;
}

static VmiDnssdHost *
find_host (const VmiDnssdBrowse * b, const char *name)
{
  unsigned i;

  for (i = 0; i < b->n_hosts; i++)
    if (strcasecmp (b->hosts[i].name, name) == 0)
      return (VmiDnssdHost *) & b->hosts[i];
  return NULL;
}

typedef struct
{
  VmiDnssdBrowse *b;
  int pass;
} BrowsePass;

/* Pass 0 takes PTRs, 1 SRV and TXT, 2 A: the records of one packet may
 * come in any order. */
static bool
browse_record (const VmiDnssdRecord * r, void *user)
{
  BrowsePass *bp = user;
  VmiDnssdBrowse *b = bp->b;
  VmiDnssdService *s;
  unsigned i;

  if (r->ttl == 0)              /* a goodbye (RFC 6762 §10.1) */
    return true;
  if (bp->pass == 0 && r->type == VMI_DNSSD_TYPE_PTR) {
    for (i = 0; i < b->n_types; i++) {
      if (strcasecmp (r->name, b->types[i]) != 0)
        continue;
      if (find_service (b, r->target) == NULL
          && b->n_services < VMI_DNSSD_MAX_SERVICES) {
        s = &b->services[b->n_services++];
        memset (s, 0, sizeof (*s));
        memcpy (s->instance, r->target, sizeof (s->instance));
        s->type_index = i;
      }
    }
  } else if (bp->pass == 1 && r->type == VMI_DNSSD_TYPE_SRV) {
    if ((s = find_service (b, r->name))) {
      s->has_srv = true;
      memcpy (s->target, r->target, sizeof (s->target));
      s->port = r->srv_port;
      s->srv_priority = r->srv_priority;
    }
  } else if (bp->pass == 1 && r->type == VMI_DNSSD_TYPE_TXT) {
    if ((s = find_service (b, r->name))) {
      s->has_txt = true;
      if (!vmi_dnssd_txt_get (r->txt, r->txt_len, "pri", s->pri,
              sizeof (s->pri)))
        s->pri[0] = '\0';
      if (!vmi_dnssd_txt_get (r->txt, r->txt_len, "api_proto", s->api_proto,
              sizeof (s->api_proto)))
        s->api_proto[0] = '\0';
      if (!vmi_dnssd_txt_get (r->txt, r->txt_len, "api_ver", s->api_ver,
              sizeof (s->api_ver)))
        s->api_ver[0] = '\0';
      if (!vmi_dnssd_txt_get (r->txt, r->txt_len, "api_auth", s->api_auth,
              sizeof (s->api_auth)))
        s->api_auth[0] = '\0';
    }
  } else if (bp->pass == 2 && r->type == VMI_DNSSD_TYPE_A) {
    VmiDnssdHost *h = find_host (b, r->name);
    bool wanted = false;

    for (i = 0; i < b->n_services && !wanted; i++)
      wanted = b->services[i].has_srv
          && strcasecmp (b->services[i].target, r->name) == 0;
    if (!wanted)
      return true;
    if (h == NULL && b->n_hosts < VMI_DNSSD_MAX_HOSTS) {
      h = &b->hosts[b->n_hosts++];
      memcpy (h->name, r->name, sizeof (h->name));
    }
    if (h)
      memcpy (h->a, r->a, 4);
  }
  return true;
}

int
vmi_dnssd_browse_add_packet (VmiDnssdBrowse * b, const uint8_t * pkt,
    size_t len)
{
  BrowsePass bp = { b, 0 };
  int ret = 0;

  for (bp.pass = 0; bp.pass < 3; bp.pass++)
    ret = vmi_dnssd_parse (pkt, len, NULL, browse_record, &bp);
  return ret;
}

size_t
vmi_dnssd_browse_query (const VmiDnssdBrowse * b, bool ptr_too,
    uint8_t * buf, size_t size, uint16_t id)
{
  VmiDnssdQuestion q[VMI_DNSSD_MAX_TYPES + 3 * VMI_DNSSD_MAX_SERVICES];
  unsigned n = 0, i;

  if (ptr_too)
    for (i = 0; i < b->n_types; i++)
      q[n++] = (VmiDnssdQuestion) {
      b->types[i], VMI_DNSSD_TYPE_PTR};
  for (i = 0; i < b->n_services; i++) {
    const VmiDnssdService *s = &b->services[i];
    if (!s->has_srv)
      q[n++] = (VmiDnssdQuestion) {
      s->instance, VMI_DNSSD_TYPE_SRV};
    if (!s->has_txt)
      q[n++] = (VmiDnssdQuestion) {
      s->instance, VMI_DNSSD_TYPE_TXT};
    if (s->has_srv && strcmp (s->target, "") != 0
        && find_host (b, s->target) == NULL)
      q[n++] = (VmiDnssdQuestion) {
      s->target, VMI_DNSSD_TYPE_A};
  }
  /* what does not fit (or has a name we cannot write) waits for the next
   * round */
  while (n > 0) {
    size_t l = vmi_dnssd_build_query (buf, size, id, q, n);
    if (l > 0)
      return l;
    n--;
  }
  return 0;
}

/* --- IS-04 -------------------------------------------------------------- */

/* an integer of at most 9 digits, nothing else */
static bool
parse_pri (const char *s, int *out)
{
  int v = 0, n = 0;

  for (; *s; s++, n++) {
    if (*s < '0' || *s > '9' || n >= 9)
      return false;
    v = v * 10 + (*s - '0');
  }
  if (n == 0)
    return false;
  *out = v;
  return true;
}

static bool
list_has (const char *list, const char *item)
{
  size_t il = strlen (item);
  const char *p = list;

  while (*p) {
    const char *c = strchr (p, ',');
    size_t l = c ? (size_t) (c - p) : strlen (p);
    if (l == il && strncmp (p, item, il) == 0)
      return true;
    if (!c)
      break;
    p = c + 1;
  }
  return false;
}

/* MurmurHash3's finaliser: neighbouring seeds give unrelated keys */
static uint32_t
mix32 (uint32_t x)
{
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}

unsigned
vmi_dnssd_registry_candidates (const VmiDnssdBrowse * b,
    const char *api_ver, bool allow_development, uint32_t seed,
    VmiDnssdCandidate * out, unsigned max)
{
  uint32_t keys[VMI_DNSSD_MAX_SERVICES];
  unsigned n = 0, i, j;

  for (i = 0; i < b->n_services; i++) {
    const VmiDnssdService *s = &b->services[i];
    const VmiDnssdHost *h;
    VmiDnssdCandidate c;
    int pri;
    bool dup = false;

    if (!s->has_srv || !s->has_txt || s->port == 0)
      continue;
    h = find_host (b, s->target);
    if (h == NULL)
      continue;
    if (strcmp (s->api_proto, "http") != 0
        && strcmp (s->api_proto, "https") != 0)
      continue;
    if (!list_has (s->api_ver, api_ver))
      continue;
    if (strcasecmp (s->api_auth, "true") == 0)
      continue;
    if (!parse_pri (s->pri, &pri))
      continue;
    if (pri >= 100 && !allow_development)
      continue;
    snprintf (c.url, sizeof (c.url), "%s://%u.%u.%u.%u:%u", s->api_proto,
        h->a[0], h->a[1], h->a[2], h->a[3], s->port);
    c.pri = pri;
    memcpy (c.instance, s->instance, sizeof (c.instance));
    for (j = 0; j < n; j++) {
      if (strcmp (out[j].url, c.url) == 0) {
        if (pri < out[j].pri)
          out[j] = c;
        dup = true;
      }
    }
    if (dup || n >= max)
      continue;
    out[n] = c;
    keys[n] = mix32 (seed + n * 0x9e3779b9u);
    n++;
  }
  /* insertion sort by (pri, random key) */
  for (i = 1; i < n; i++) {
    VmiDnssdCandidate c = out[i];
    uint32_t k = keys[i];
    for (j = i; j > 0 && (out[j - 1].pri > c.pri
            || (out[j - 1].pri == c.pri && keys[j - 1] > k)); j--) {
      out[j] = out[j - 1];
      keys[j] = keys[j - 1];
    }
    out[j] = c;
    keys[j] = k;
  }
  return n;
}
