/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * Unit tests of the DNS-SD core (gst/nmos/vmi-dnssd.c): query bytes,
 * responses with compression, hostile packets (pointer loops, forward
 * pointers, truncation, oversized names), TXT keys, a browse over several
 * packets, and IS-04's ordering and filtering of Registration APIs.
 */

#include <string.h>
#include <gst/check/gstcheck.h>

#include "vmi-dnssd.h"

/* --- a small response writer (the test's own, not the core's) ----------- */

typedef struct
{
  guint8 b[2048];
  gsize n;
  guint16 an;
} Pkt;

static void
put8 (Pkt * p, guint v)
{
  p->b[p->n++] = (guint8) v;
}

static void
put16 (Pkt * p, guint v)
{
  put8 (p, v >> 8);
  put8 (p, v & 0xff);
}

static void
put32 (Pkt * p, guint32 v)
{
  put16 (p, v >> 16);
  put16 (p, v & 0xffff);
}

/* uncompressed dotted name, no escapes */
static gsize
put_name (Pkt * p, const gchar * name)
{
  gsize at = p->n;
  gchar **l = g_strsplit (name, ".", -1);
  guint i;

  for (i = 0; l[i]; i++) {
    put8 (p, strlen (l[i]));
    memcpy (p->b + p->n, l[i], strlen (l[i]));
    p->n += strlen (l[i]);
  }
  put8 (p, 0);
  g_strfreev (l);
  return at;
}

static void
pkt_init (Pkt * p, guint16 id)
{
  memset (p, 0, sizeof (*p));
  put16 (p, id);
  put16 (p, 0x8400);            /* response, authoritative */
  put16 (p, 0);
  put16 (p, 0);
  put16 (p, 0);
  put16 (p, 0);
}

static void
pkt_finish (Pkt * p)
{
  p->b[6] = p->an >> 8;
  p->b[7] = p->an & 0xff;
}

/* header of a record whose name is at @name_at (compressed) or written */
static gsize
rr_head (Pkt * p, const gchar * name, gsize name_at, guint type,
    guint32 ttl)
{
  gsize rdlen_at;

  if (name)
    put_name (p, name);
  else
    put16 (p, 0xc000 | name_at);
  put16 (p, type);
  put16 (p, 0x8001);            /* cache-flush, IN */
  put32 (p, ttl);
  rdlen_at = p->n;
  put16 (p, 0);
  p->an++;
  return rdlen_at;
}

static void
rr_end (Pkt * p, gsize rdlen_at)
{
  gsize l = p->n - rdlen_at - 2;
  p->b[rdlen_at] = l >> 8;
  p->b[rdlen_at + 1] = l & 0xff;
}

static void
put_txt (Pkt * p, const gchar * const *kv)
{
  for (; *kv; kv++) {
    put8 (p, strlen (*kv));
    memcpy (p->b + p->n, *kv, strlen (*kv));
    p->n += strlen (*kv);
  }
}

#define REG "_nmos-register._tcp.local"

/* One registry advertised as zeroconf does: PTR answer, SRV, TXT, A in the
 * additional section, names compressed against the PTR's */
static void
advert (Pkt * p, const gchar * inst, const gchar * host, guint port,
    const guint8 a[4], const gchar * const *txt)
{
  gsize type_at, inst_at, host_at, l;
  gchar *full = g_strdup_printf ("%s." REG, inst);

  type_at = p->n;
  put_name (p, REG);
  put16 (p, VMI_DNSSD_TYPE_PTR);
  put16 (p, 1);
  put32 (p, 4500);
  l = p->n;
  put16 (p, 0);
  p->an++;
  inst_at = p->n;
  put8 (p, strlen (inst));
  memcpy (p->b + p->n, inst, strlen (inst));
  p->n += strlen (inst);
  put16 (p, 0xc000 | type_at);
  rr_end (p, l);

  l = rr_head (p, NULL, inst_at, VMI_DNSSD_TYPE_SRV, 120);
  put16 (p, 0);
  put16 (p, 0);
  put16 (p, port);
  host_at = put_name (p, host);
  rr_end (p, l);
  l = rr_head (p, NULL, inst_at, VMI_DNSSD_TYPE_TXT, 4500);
  put_txt (p, txt);
  rr_end (p, l);
  l = rr_head (p, NULL, host_at, VMI_DNSSD_TYPE_A, 120);
  put8 (p, a[0]);
  put8 (p, a[1]);
  put8 (p, a[2]);
  put8 (p, a[3]);
  rr_end (p, l);
  g_free (full);
}

/* --- tests -------------------------------------------------------------- */

GST_START_TEST (test_query)
{
  static const guint8 expect[] = {
    0x12, 0x34, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
    19, '_', 'n', 'm', 'o', 's', '-', 'r', 'e', 'g', 'i', 's', 't', 'e', 'r',
    '-', 'x', 'y', 'z', '1',
    4, '_', 't', 'c', 'p', 5, 'l', 'o', 'c', 'a', 'l', 0, 0, 12, 0, 1,
    3, 'a', '.', 'b', 1, 'c', 0, 0, 33, 0, 1,
  };
  VmiDnssdQuestion q[] = {
    {"_nmos-register-xyz1._tcp.local.", VMI_DNSSD_TYPE_PTR},
    {"a\\.b.c", VMI_DNSSD_TYPE_SRV},
  };
  guint8 buf[512];
  gchar label[80];

  fail_unless_equals_int (vmi_dnssd_build_query (buf, sizeof (buf), 0x1234,
          q, 2), sizeof (expect));
  fail_unless (memcmp (buf, expect, sizeof (expect)) == 0);
  /* too small: nothing */
  fail_unless_equals_int (vmi_dnssd_build_query (buf, sizeof (expect) - 1,
          0x1234, q, 2), 0);
  /* a label of 64 octets, an empty label */
  memset (label, 'x', 64);
  label[64] = '\0';
  q[0].name = label;
  fail_unless_equals_int (vmi_dnssd_build_query (buf, sizeof (buf), 1, q, 1),
      0);
  label[63] = '\0';
  fail_unless_equals_int (vmi_dnssd_build_query (buf, sizeof (buf), 1, q, 1),
      12 + 65 + 4);
  q[0].name = "a..local";
  fail_unless_equals_int (vmi_dnssd_build_query (buf, sizeof (buf), 1, q, 1),
      0);
}

GST_END_TEST;

typedef struct
{
  GPtrArray *seen;
} Seen;

static bool
collect (const VmiDnssdRecord * r, void *user)
{
  Seen *s = user;
  gchar *t;

  if (r->type == VMI_DNSSD_TYPE_SRV)
    t = g_strdup_printf ("SRV %s %u %s", r->name, r->srv_port, r->target);
  else if (r->type == VMI_DNSSD_TYPE_A)
    t = g_strdup_printf ("A %s %u.%u.%u.%u", r->name, r->a[0], r->a[1],
        r->a[2], r->a[3]);
  else if (r->type == VMI_DNSSD_TYPE_TXT)
    t = g_strdup_printf ("TXT %s %zu", r->name, r->txt_len);
  else
    t = g_strdup_printf ("PTR %s %s ttl %u", r->name, r->target, r->ttl);
  g_ptr_array_add (s->seen, t);
  return true;
}

GST_START_TEST (test_parse)
{
  static const gchar *txt[] = { "api_proto=http", "pri=10", "api_ver=v1.2,v1.3",
    "api_auth=false", NULL
  };
  static const guint8 a[4] = { 10, 1, 2, 3 };
  Seen s = { g_ptr_array_new_with_free_func (g_free) };
  gchar v[16];
  uint16_t id = 0;
  Pkt p;

  pkt_init (&p, 77);
  advert (&p, "reg one", "host-a.local", 8235, a, txt);
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, &id, collect, &s), 4);
  fail_unless_equals_int (id, 77);
  fail_unless_equals_string (g_ptr_array_index (s.seen, 0),
      "PTR " REG " reg one." REG " ttl 4500");
  fail_unless_equals_string (g_ptr_array_index (s.seen, 1),
      "SRV reg one." REG " 8235 host-a.local");
  fail_unless_equals_string (g_ptr_array_index (s.seen, 2),
      "TXT reg one." REG " 55");
  fail_unless_equals_string (g_ptr_array_index (s.seen, 3),
      "A host-a.local 10.1.2.3");

  /* every truncation is refused or reads only whole records */
  {
    gsize n;
    for (n = 0; n < p.n; n++) {
      int r = vmi_dnssd_parse (p.b, n, NULL, NULL, NULL);
      fail_unless (r == -1, "truncated at %zu of %zu: %d", n, p.n, r);
    }
  }
  /* a query (QR clear) is not a response */
  p.b[2] &= 0x7f;
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* TXT */
  {
    static const guint8 t[] = { 5, 'p', 'r', 'i', '=', '7', 5, 'P', 'R', 'I',
      '=', '9', 4, 'f', 'l', 'a', 'g', 4, 'x', '=', 0, 'y', 9, 'a'
    };
    fail_unless (vmi_dnssd_txt_get (t, sizeof (t), "pri", v, sizeof (v)));
    fail_unless_equals_string (v, "7");
    fail_if (vmi_dnssd_txt_get (t, sizeof (t), "flag", v, sizeof (v)));
    /* a NUL in a value is refused; a string past the end stops the walk */
    fail_if (vmi_dnssd_txt_get (t, sizeof (t), "x", v, sizeof (v)));
    fail_if (vmi_dnssd_txt_get (t, sizeof (t), "a", v, sizeof (v)));
  }
  g_ptr_array_unref (s.seen);
}

GST_END_TEST;

GST_START_TEST (test_hostile)
{
  Pkt p;
  gsize l;

  /* a PTR whose target points at itself */
  pkt_init (&p, 0);
  l = rr_head (&p, REG, 0, VMI_DNSSD_TYPE_PTR, 10);
  put16 (&p, 0xc000 | (p.n));
  rr_end (&p, l);
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* two names pointing at each other: A -> B, B -> A */
  pkt_init (&p, 0);
  put_name (&p, "x.local");     /* filler at 12 */
  l = p.n;
  put8 (&p, 1);
  put8 (&p, 'a');
  put16 (&p, 0xc000 | (l + 4));
  put16 (&p, 0xc000 | l);       /* at l + 4: back to l */
  p.b[4] = 0;
  /* record whose name starts at l + 4 is not reachable by itself; make a
   * record name pointing at l + 4 */
  p.n = 12;
  put16 (&p, 0xc000 | 14);      /* the record name -> offset 14 */
  put16 (&p, VMI_DNSSD_TYPE_A);
  put16 (&p, 1);
  put32 (&p, 10);
  put16 (&p, 4);
  put32 (&p, 0);
  /* bytes 14..: a label then a pointer forward to itself-ish */
  p.b[14] = 1;
  p.b[15] = 'a';
  p.b[16] = 0xc0;
  p.b[17] = 14;
  p.an = 1;
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* a forward pointer */
  pkt_init (&p, 0);
  put16 (&p, 0xc000 | 20);
  put16 (&p, VMI_DNSSD_TYPE_A);
  put16 (&p, 1);
  put32 (&p, 10);
  put16 (&p, 4);
  put32 (&p, 0);
  p.an = 1;
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* a name over 255 octets: 5 labels of 63 */
  pkt_init (&p, 0);
  {
    guint i;
    for (i = 0; i < 5; i++) {
      put8 (&p, 63);
      memset (p.b + p.n, 'z', 63);
      p.n += 63;
    }
    put8 (&p, 0);
  }
  put16 (&p, VMI_DNSSD_TYPE_A);
  put16 (&p, 1);
  put32 (&p, 10);
  put16 (&p, 4);
  put32 (&p, 0);
  p.an = 1;
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* rdlength past the end; an A of 5 octets; an SRV too short */
  pkt_init (&p, 0);
  l = rr_head (&p, "h.local", 0, VMI_DNSSD_TYPE_A, 10);
  put32 (&p, 0);
  rr_end (&p, l);
  p.b[l + 1] = 40;
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);
  pkt_init (&p, 0);
  l = rr_head (&p, "h.local", 0, VMI_DNSSD_TYPE_A, 10);
  put32 (&p, 0);
  put8 (&p, 0);
  rr_end (&p, l);
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);
  pkt_init (&p, 0);
  l = rr_head (&p, "s.local", 0, VMI_DNSSD_TYPE_SRV, 10);
  put32 (&p, 0);
  rr_end (&p, l);
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* a PTR target running past its rdata */
  pkt_init (&p, 0);
  l = rr_head (&p, REG, 0, VMI_DNSSD_TYPE_PTR, 10);
  put8 (&p, 3);
  put8 (&p, 'a');
  rr_end (&p, l);
  put8 (&p, 'b');
  put8 (&p, 'c');
  put8 (&p, 0);
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* label type 0x40 */
  pkt_init (&p, 0);
  put8 (&p, 0x41);
  put8 (&p, 0);
  pkt_finish (&p);
  p.an = 1;
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, NULL, NULL), -1);

  /* a label with a dot and a NUL comes out escaped, and a query for it
   * writes the same label back */
  {
    Seen s = { g_ptr_array_new_with_free_func (g_free) };
    VmiDnssdQuestion q;
    guint8 buf[128];
    static const guint8 lab[] = { 5, 'a', '.', 0, '\\', 'b' };
    gsize qn;
    gchar *name;

    pkt_init (&p, 0);
    memcpy (p.b + p.n, lab, sizeof (lab));
    p.n += sizeof (lab);
    put_name (&p, "local");
    put16 (&p, VMI_DNSSD_TYPE_A);
    put16 (&p, 1);
    put32 (&p, 10);
    put16 (&p, 4);
    put32 (&p, 0x01020304);
    p.an = 1;
    pkt_finish (&p);
    fail_unless_equals_int (vmi_dnssd_parse (p.b, p.n, NULL, collect, &s), 1);
    fail_unless_equals_string (g_ptr_array_index (s.seen, 0),
        "A a\\.\\000\\\\b.local 1.2.3.4");
    name = g_strdup ((gchar *) g_ptr_array_index (s.seen, 0) + 2);
    *strchr (name, ' ') = '\0';
    q.name = name;
    q.type = 1;
    qn = vmi_dnssd_build_query (buf, sizeof (buf), 0, &q, 1);
    fail_unless_equals_int (qn, 12 + 6 + 7 + 4);
    fail_unless (memcmp (buf + 12, lab, sizeof (lab)) == 0);
    g_free (name);
    g_ptr_array_unref (s.seen);
  }
}

GST_END_TEST;

static const guint8 addr_a[4] = { 192, 0, 2, 10 };
static const guint8 addr_b[4] = { 192, 0, 2, 11 };

GST_START_TEST (test_browse)
{
  const gchar *types[] = { REG, "_nmos-registration._tcp.local" };
  static const gchar *t_ok0[] = { "api_proto=http", "api_ver=v1.2,v1.3",
    "api_auth=false", "pri=0", NULL
  };
  static const gchar *t_ok10[] = { "api_proto=http", "api_ver=v1.3",
    "api_auth=false", "pri=10", NULL
  };
  static const gchar *t_v9[] = { "api_proto=http", "api_ver=v9.0",
    "api_auth=false", "pri=0", NULL
  };
  static const gchar *t_proto[] = { "api_proto=invalid", "api_ver=v1.3",
    "api_auth=false", "pri=0", NULL
  };
  static const gchar *t_auth[] = { "api_proto=http", "api_ver=v1.3",
    "api_auth=true", "pri=0", NULL
  };
  static const gchar *t_dev[] = { "api_proto=http", "api_ver=v1.3",
    "api_auth=false", "pri=100", NULL
  };
  static const gchar *t_nopri[] = { "api_proto=http", "api_ver=v1.3",
    "api_auth=false", "pri=x1", NULL
  };
  static const gchar *t_v13x[] = { "api_proto=https", "api_ver=v1.30",
    "api_auth=false", "pri=0", NULL
  };
  VmiDnssdBrowse *b = g_new0 (VmiDnssdBrowse, 1);
  VmiDnssdCandidate c[8];
  guint8 q[1500];
  Pkt p;
  gsize l;
  guint n;

  vmi_dnssd_browse_init (b, types, 2);
  l = vmi_dnssd_browse_query (b, TRUE, q, sizeof (q), 5);
  fail_unless_equals_int (l, 12 + 27 + 4 + 31 + 4);

  pkt_init (&p, 5);
  advert (&p, "ten", "b.local", 9000, addr_b, t_ok10);
  advert (&p, "zero", "a.local", 8235, addr_a, t_ok0);
  advert (&p, "v9", "a.local", 1, addr_a, t_v9);
  advert (&p, "proto", "a.local", 2, addr_a, t_proto);
  advert (&p, "auth", "a.local", 3, addr_a, t_auth);
  advert (&p, "dev", "a.local", 4, addr_a, t_dev);
  advert (&p, "nopri", "a.local", 5, addr_a, t_nopri);
  advert (&p, "v130", "a.local", 6, addr_a, t_v13x);
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_browse_add_packet (b, p.b, p.n), 32);
  fail_unless_equals_int (b->n_services, 8);
  fail_unless_equals_int (b->n_hosts, 2);
  /* nothing is missing */
  fail_unless_equals_int (vmi_dnssd_browse_query (b, FALSE, q, sizeof (q),
          5), 0);

  n = vmi_dnssd_registry_candidates (b, "v1.3", FALSE, 1, c, 8);
  fail_unless_equals_int (n, 2);
  fail_unless_equals_string (c[0].url, "http://192.0.2.10:8235");
  fail_unless_equals_int (c[0].pri, 0);
  fail_unless_equals_string (c[1].url, "http://192.0.2.11:9000");
  fail_unless_equals_int (c[1].pri, 10);
  /* development priorities only when asked for */
  n = vmi_dnssd_registry_candidates (b, "v1.3", TRUE, 1, c, 8);
  fail_unless_equals_int (n, 3);
  fail_unless_equals_string (c[2].url, "http://192.0.2.10:4");
  /* v1.2 matches "v1.2,v1.3" only */
  n = vmi_dnssd_registry_candidates (b, "v1.2", FALSE, 1, c, 8);
  fail_unless_equals_int (n, 1);
  fail_unless_equals_string (c[0].url, "http://192.0.2.10:8235");
  g_free (b);
}

GST_END_TEST;

/* A PTR alone, then the SRV/TXT, then the A in later packets (a responder
 * that sends no additional records): the browse asks for each in turn;
 * equal priorities come in both orders over seeds */
GST_START_TEST (test_browse_incremental)
{
  const gchar *types[] = { REG };
  static const gchar *txt[] = { "api_proto=http", "api_ver=v1.3",
    "api_auth=false", "pri=20", NULL
  };
  VmiDnssdBrowse *b = g_new0 (VmiDnssdBrowse, 1);
  VmiDnssdCandidate c[4];
  Pkt p, full;
  guint8 q[512];
  gsize l, ptr_len;
  guint seed, first_a = 0, first_b = 0;

  vmi_dnssd_browse_init (b, types, 1);
  /* a full advert of two instances, cut into its records */
  pkt_init (&full, 0);
  advert (&full, "one", "a.local", 1000, addr_a, txt);
  ptr_len = full.n;
  pkt_finish (&full);

  /* the PTR only */
  pkt_init (&p, 0);
  put_name (&p, REG);
  put16 (&p, VMI_DNSSD_TYPE_PTR);
  put16 (&p, 1);
  put32 (&p, 4500);
  l = p.n;
  put16 (&p, 0);
  put_name (&p, "one." REG);
  rr_end (&p, l);
  p.an = 1;
  pkt_finish (&p);
  fail_unless_equals_int (vmi_dnssd_browse_add_packet (b, p.b, p.n), 1);
  fail_unless_equals_int (b->n_services, 1);
  /* asks SRV and TXT of it */
  l = vmi_dnssd_browse_query (b, FALSE, q, sizeof (q), 9);
  fail_unless_equals_int (q[5], 2);
  fail_unless_equals_int (l, 12 + 2 * (31 + 4));
  fail_unless_equals_int (vmi_dnssd_registry_candidates (b, "v1.3", FALSE,
          1, c, 4), 0);
  /* the full advert: complete */
  fail_unless (ptr_len > 0);
  fail_unless_equals_int (vmi_dnssd_browse_add_packet (b, full.b, full.n), 4);
  fail_unless_equals_int (vmi_dnssd_browse_query (b, FALSE, q, sizeof (q),
          9), 0);

  /* a second instance at the same pri, another host */
  pkt_init (&p, 0);
  advert (&p, "two", "b.local", 2000, addr_b, txt);
  pkt_finish (&p);
  vmi_dnssd_browse_add_packet (b, p.b, p.n);
  for (seed = 1; seed <= 64; seed++) {
    fail_unless_equals_int (vmi_dnssd_registry_candidates (b, "v1.3", FALSE,
            seed, c, 4), 2);
    if (c[0].url[16] == '0')
      first_a++;
    else
      first_b++;
  }
  fail_unless (first_a > 8 && first_b > 8, "%u %u", first_a, first_b);

  /* goodbye (TTL 0) records do not add */
  vmi_dnssd_browse_init (b, types, 1);
  pkt_init (&p, 0);
  put_name (&p, REG);
  put16 (&p, VMI_DNSSD_TYPE_PTR);
  put16 (&p, 1);
  put32 (&p, 0);
  l = p.n;
  put16 (&p, 0);
  put_name (&p, "gone." REG);
  rr_end (&p, l);
  p.an = 1;
  pkt_finish (&p);
  vmi_dnssd_browse_add_packet (b, p.b, p.n);
  fail_unless_equals_int (b->n_services, 0);
  g_free (b);
}

GST_END_TEST;

static Suite *
dnssd_core_suite (void)
{
  Suite *s = suite_create ("dnssd-core");
  TCase *tc = tcase_create ("core");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_query);
  tcase_add_test (tc, test_parse);
  tcase_add_test (tc, test_hostile);
  tcase_add_test (tc, test_browse);
  tcase_add_test (tc, test_browse_incremental);
  return s;
}

GST_CHECK_MAIN (dnssd_core);
