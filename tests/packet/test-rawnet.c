/* gst-vmi: unit tests of the raw-network core (gst/transport/vmi-rawnet.[ch]).
 *
 * The expected frames below were written byte by byte from the RFCs
 * (Ethernet II, RFC 791, 768, 826, 1112, 2113, 3376) by a separate
 * generator, not by the code under test; the variants it edits get their
 * checksums from the tests' own pkt_csum().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <arpa/inet.h>
#include <string.h>

#include "vmi-rawnet.h"
#include "packet-common.h"

static const guint8 udp_mc_hdr[42] = {
  0x01, 0x00, 0x5e, 0x01, 0x02, 0x03, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x45, 0x88, 0x05, 0x90, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
  0x7b, 0x9e, 0xc0, 0xa8, 0x07, 0x0a, 0xef, 0x81, 0x02, 0x03, 0x13, 0x8c,
  0x4e, 0x20, 0x05, 0x7c, 0x00, 0x00,
};
static const guint8 udp_uc_hdr[42] = {
  0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x45, 0x00, 0x00, 0x1d, 0x00, 0x00, 0x40, 0x00, 0x01, 0x11,
  0x65, 0xce, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02, 0x00, 0x01,
  0xff, 0xff, 0x00, 0x09, 0x00, 0x00,
};
static const guint8 arp_req[60] = {
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01, 0x02, 0x11,
  0x22, 0x33, 0x44, 0x55, 0x0a, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x0a, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const guint8 arp_rep[60] = {
  0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x02, 0x66, 0x77, 0x88, 0x99, 0xaa,
  0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02, 0x02, 0x66,
  0x77, 0x88, 0x99, 0xaa, 0x0a, 0x00, 0x00, 0x02, 0x02, 0x11, 0x22, 0x33,
  0x44, 0x55, 0x0a, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const guint8 igmp_asm_join[60] = {
  0x01, 0x00, 0x5e, 0x00, 0x00, 0x16, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x28, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x3c, 0x47, 0xc0, 0xa8, 0x07, 0x0a, 0xe0, 0x00, 0x00, 0x16, 0x94, 0x04,
  0x00, 0x00, 0x22, 0x00, 0xe8, 0x79, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00,
  0x00, 0x00, 0xef, 0x81, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const guint8 igmp_asm_leave[60] = {
  0x01, 0x00, 0x5e, 0x00, 0x00, 0x16, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x28, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x3c, 0x47, 0xc0, 0xa8, 0x07, 0x0a, 0xe0, 0x00, 0x00, 0x16, 0x94, 0x04,
  0x00, 0x00, 0x22, 0x00, 0xe9, 0x79, 0x00, 0x00, 0x00, 0x01, 0x03, 0x00,
  0x00, 0x00, 0xef, 0x81, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const guint8 igmp_ssm_join[60] = {
  0x01, 0x00, 0x5e, 0x00, 0x00, 0x16, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x2c, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x3c, 0x43, 0xc0, 0xa8, 0x07, 0x0a, 0xe0, 0x00, 0x00, 0x16, 0x94, 0x04,
  0x00, 0x00, 0x22, 0x00, 0x26, 0xed, 0x00, 0x00, 0x00, 0x01, 0x05, 0x00,
  0x00, 0x01, 0xe8, 0x01, 0x02, 0x03, 0xc0, 0xa8, 0x07, 0x63, 0x00, 0x00,
};
static const guint8 igmp_ssm_leave[60] = {
  0x01, 0x00, 0x5e, 0x00, 0x00, 0x16, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x2c, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x3c, 0x43, 0xc0, 0xa8, 0x07, 0x0a, 0xe0, 0x00, 0x00, 0x16, 0x94, 0x04,
  0x00, 0x00, 0x22, 0x00, 0x25, 0xed, 0x00, 0x00, 0x00, 0x01, 0x06, 0x00,
  0x00, 0x01, 0xe8, 0x01, 0x02, 0x03, 0xc0, 0xa8, 0x07, 0x63, 0x00, 0x00,
};
static const guint8 igmp_asm_state[60] = {
  0x01, 0x00, 0x5e, 0x00, 0x00, 0x16, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x28, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x3c, 0x47, 0xc0, 0xa8, 0x07, 0x0a, 0xe0, 0x00, 0x00, 0x16, 0x94, 0x04,
  0x00, 0x00, 0x22, 0x00, 0xea, 0x79, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00,
  0x00, 0x00, 0xef, 0x81, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const guint8 igmp_ssm_state[60] = {
  0x01, 0x00, 0x5e, 0x00, 0x00, 0x16, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x2c, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x3c, 0x43, 0xc0, 0xa8, 0x07, 0x0a, 0xe0, 0x00, 0x00, 0x16, 0x94, 0x04,
  0x00, 0x00, 0x22, 0x00, 0x2a, 0xed, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00,
  0x00, 0x01, 0xe8, 0x01, 0x02, 0x03, 0xc0, 0xa8, 0x07, 0x63, 0x00, 0x00,
};
static const guint8 igmp_query_general[60] = {
  0x01, 0x00, 0x5e, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x24, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x3c, 0x69, 0xc0, 0xa8, 0x07, 0x01, 0xe0, 0x00, 0x00, 0x01, 0x94, 0x04,
  0x00, 0x00, 0x11, 0x64, 0xec, 0x1e, 0x00, 0x00, 0x00, 0x00, 0x02, 0x7d,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const guint8 igmp_query_group[60] = {
  0x01, 0x00, 0x5e, 0x01, 0x02, 0x03, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
  0x08, 0x00, 0x46, 0xc0, 0x00, 0x20, 0x00, 0x00, 0x40, 0x00, 0x01, 0x02,
  0x2a, 0xea, 0xc0, 0xa8, 0x07, 0x01, 0xef, 0x81, 0x02, 0x03, 0x94, 0x04,
  0x00, 0x00, 0x11, 0x64, 0xfd, 0x16, 0xef, 0x81, 0x02, 0x03, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const guint8 smac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const guint8 omac[6] = { 0x02, 0x66, 0x77, 0x88, 0x99, 0xaa };

static guint32
ip4 (const gchar * s)
{
  struct in_addr a;
  fail_unless (inet_pton (AF_INET, s, &a) == 1);
  return a.s_addr;
}

static void
fix_ip_csum (guint8 * frame)
{
  guint8 *ip = frame + 14;
  guint ihl = (ip[0] & 0xf) * 4;
  guint16 c;

  ip[10] = ip[11] = 0;
  c = pkt_csum (ip, ihl);
  ip[10] = c >> 8;
  ip[11] = c & 0xff;
}

static void
assert_bytes (const guint8 * got, const guint8 * exp, gsize n)
{
  gsize i;

  for (i = 0; i < n; i++)
    fail_unless (got[i] == exp[i], "byte %" G_GSIZE_FORMAT ": 0x%02x, "
        "expected 0x%02x", i, got[i], exp[i]);
}

GST_START_TEST (test_parse_mac)
{
  guint8 m[6] = { 9, 9, 9, 9, 9, 9 };
  const guint8 exp[6] = { 0xaa, 0xbb, 0x0c, 0xd0, 0x00, 0xff };

  fail_unless (vmi_rawnet_parse_mac ("aa:bb:0c:d0:00:ff", m));
  assert_bytes (m, exp, 6);
  memset (m, 0, 6);
  fail_unless (vmi_rawnet_parse_mac ("AA-BB-0C-D0-00-FF", m));
  assert_bytes (m, exp, 6);

  memset (m, 7, 6);
  fail_if (vmi_rawnet_parse_mac (NULL, m));
  fail_if (vmi_rawnet_parse_mac ("", m));
  fail_if (vmi_rawnet_parse_mac ("aa:bb:cc:dd:ee", m));
  fail_if (vmi_rawnet_parse_mac ("aa:bb:cc:dd:ee:ff:", m));
  fail_if (vmi_rawnet_parse_mac ("aa:bb-cc:dd:ee:ff", m));
  fail_if (vmi_rawnet_parse_mac ("aa:bb:cc:dd:ee:fg", m));
  fail_if (vmi_rawnet_parse_mac ("aa.bb.cc.dd.ee.ff", m));
  fail_if (vmi_rawnet_parse_mac ("a:bb:cc:dd:ee:fff", m));
  /* a failed parse leaves the output alone */
  fail_unless (m[0] == 7 && m[5] == 7);
}

GST_END_TEST;

GST_START_TEST (test_multicast_mac)
{
  guint8 m[6];
  const guint8 e1[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
  const guint8 e2[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
  const guint8 e3[6] = { 0x01, 0x00, 0x5e, 0x7f, 0xff, 0xff };

  /* bit 23 of the group is dropped */
  vmi_rawnet_multicast_mac (ip4 ("239.129.2.3"), m);
  assert_bytes (m, e1, 6);
  vmi_rawnet_multicast_mac (ip4 ("224.128.0.1"), m);
  assert_bytes (m, e2, 6);
  vmi_rawnet_multicast_mac (ip4 ("239.255.255.255"), m);
  assert_bytes (m, e3, 6);
  fail_unless (vmi_rawnet_is_multicast (ip4 ("224.0.0.0")));
  fail_unless (vmi_rawnet_is_multicast (ip4 ("239.255.255.255")));
  fail_if (vmi_rawnet_is_multicast (ip4 ("223.255.255.255")));
  fail_if (vmi_rawnet_is_multicast (ip4 ("240.0.0.0")));
}

GST_END_TEST;

GST_START_TEST (test_checksum)
{
  /* RFC 1071 §3 example: sum ddf2, checksum 220d */
  const guint8 b[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
  const guint8 odd[3] = { 0x12, 0x34, 0x56 };

  fail_unless_equals_int (vmi_rawnet_checksum (b, 8), 0x220d);
  /* odd length: the last byte is the high half of a padded word */
  fail_unless_equals_int (vmi_rawnet_checksum (odd, 3),
      (~(0x1234 + 0x5600)) & 0xffff);
  fail_unless_equals_int (vmi_rawnet_checksum (b, 0), 0xffff);
}

GST_END_TEST;

static void
flow_mc (VmiRawnetFlow * fl)
{
  memset (fl, 0, sizeof (*fl));
  vmi_rawnet_multicast_mac (ip4 ("239.129.2.3"), fl->dst_mac);
  memcpy (fl->src_mac, smac, 6);
  fl->src_ip = ip4 ("192.168.7.10");
  fl->dst_ip = ip4 ("239.129.2.3");
  fl->src_port = 5004;
  fl->dst_port = 20000;
  fl->ttl = 64;
  fl->dscp = 34;
}

GST_START_TEST (test_udp_header)
{
  VmiRawnetFlow fl;
  guint8 h[VMI_RAWNET_UDP_HDR_LEN];
  const guint8 dmac[6] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };

  flow_mc (&fl);
  memset (h, 0x5a, sizeof (h));
  vmi_rawnet_build_udp_header (h, &fl, 1396);
  assert_bytes (h, udp_mc_hdr, 42);
  fail_unless_equals_int (pkt_csum (h + 14, 20), 0);

  memset (&fl, 0, sizeof (fl));
  memcpy (fl.dst_mac, dmac, 6);
  memcpy (fl.src_mac, smac, 6);
  fl.src_ip = ip4 ("10.0.0.1");
  fl.dst_ip = ip4 ("10.0.0.2");
  fl.src_port = 1;
  fl.dst_port = 65535;
  fl.ttl = 1;
  /* the two ECN bits stay 0 whatever is passed */
  fl.dscp = 0;
  vmi_rawnet_build_udp_header (h, &fl, 1);
  assert_bytes (h, udp_uc_hdr, 42);
  fl.dscp = 0xff;
  vmi_rawnet_build_udp_header (h, &fl, 1);
  fail_unless_equals_int (h[15], 0xfc);
  fail_unless_equals_int (pkt_csum (h + 14, 20), 0);
}

GST_END_TEST;

/* header + @plen payload bytes (i & 0xff), padded to 60 */
static gsize
make_frame (guint8 * buf, const VmiRawnetFlow * fl, guint plen)
{
  guint i;
  gsize n = 42 + plen;

  memset (buf, 0, 2048);
  vmi_rawnet_build_udp_header (buf, fl, plen);
  for (i = 0; i < plen; i++)
    buf[42 + i] = i & 0xff;
  return MAX (n, 60);
}

static void
filter_mc (VmiRawnetFilter * f)
{
  memset (f, 0, sizeof (*f));
  f->local_ip = ip4 ("192.168.7.20");
  f->group = ip4 ("239.129.2.3");
  f->port = 20000;
}

GST_START_TEST (test_classify_udp)
{
  static guint8 fr[2048];
  VmiRawnetFlow fl;
  VmiRawnetFilter f;
  const guint8 *p = NULL;
  gsize plen = 0, n;
  guint32 src = 0;

  flow_mc (&fl);
  filter_mc (&f);
  n = make_frame (fr, &fl, 1396);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OURS);
  fail_unless (p == fr + 42);
  fail_unless_equals_int (plen, 1396);
  fail_unless_equals_int (src, ip4 ("192.168.7.10"));
  /* outputs are optional */
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);

  /* Ethernet padding after a short datagram is not payload */
  n = make_frame (fr, &fl, 3);
  fail_unless_equals_int (n, 60);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OURS);
  fail_unless_equals_int (plen, 3);
  n = make_frame (fr, &fl, 0);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OURS);
  fail_unless_equals_int (plen, 0);

  /* SSM source */
  n = make_frame (fr, &fl, 100);
  f.source = ip4 ("192.168.7.10");
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OURS);
  f.source = ip4 ("192.168.7.11");
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OTHER);
  f.source = 0;
  /* other port, other group, group sent to the wrong MAC */
  f.port = 20002;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OTHER);
  f.port = 20000;
  f.group = ip4 ("239.129.2.4");
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OTHER);
  f.group = ip4 ("239.129.2.3");
  fr[5] = 0x04;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OTHER);
  fr[5] = 0x03;
  /* not UDP */
  fr[14 + 9] = 6;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OTHER);
  fr[14 + 9] = 17;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, &src),
      VMI_RAWNET_RX_OURS);
}

GST_END_TEST;

GST_START_TEST (test_classify_unicast)
{
  static guint8 fr[2048];
  VmiRawnetFlow fl;
  VmiRawnetFilter f;
  const guint8 lmac[6] = { 0x02, 0, 0, 0, 0, 0x20 };
  gsize n;

  flow_mc (&fl);
  fl.dst_ip = ip4 ("192.168.7.20");
  memcpy (fl.dst_mac, lmac, 6);
  n = make_frame (fr, &fl, 1396);
  memset (&f, 0, sizeof (f));
  f.port = 20000;
  /* no local address: any destination */
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
  f.local_ip = ip4 ("192.168.7.20");
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
  memcpy (f.local_mac, lmac, 6);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
  f.local_mac[5] = 0x21;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OTHER);
  f.local_mac[5] = 0x20;
  f.local_ip = ip4 ("192.168.7.21");
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OTHER);
  /* a multicast stream is not ours when we receive unicast */
  flow_mc (&fl);
  n = make_frame (fr, &fl, 1396);
  f.local_ip = ip4 ("192.168.7.20");
  memset (f.local_mac, 0, 6);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OTHER);
}

GST_END_TEST;

GST_START_TEST (test_classify_malformed)
{
  static guint8 fr[2048];
  VmiRawnetFlow fl;
  VmiRawnetFilter f;
  gsize n;
  guint i;

  flow_mc (&fl);
  filter_mc (&f);
  n = make_frame (fr, &fl, 1396);
  fail_unless_equals_int (vmi_rawnet_classify (fr, 13, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  fail_unless_equals_int (vmi_rawnet_classify (fr, 33, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  /* truncated: IP total length beyond the frame */
  fail_unless_equals_int (vmi_rawnet_classify (fr, n - 1, &f, NULL, NULL,
          NULL), VMI_RAWNET_RX_MALFORMED);
  /* every single-bit flip of the IPv4 header is caught (checksum, version,
   * IHL or lengths), never taken as ours */
  for (i = 0; i < 20 * 8; i++) {
    VmiRawnetRxKind k;

    fr[14 + i / 8] ^= 1 << (i % 8);
    k = vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL);
    fail_unless (k == VMI_RAWNET_RX_MALFORMED, "bit %u: kind %d", i, k);
    fr[14 + i / 8] ^= 1 << (i % 8);
  }
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
  /* IHL below 5, with a valid checksum */
  fr[14] = 0x44;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  fr[14] = 0x45;
  /* total length below the header */
  fr[16] = 0;
  fr[17] = 19;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  /* total length leaves no room for the UDP header */
  fr[17] = 27;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  fr[16] = (1424 >> 8);
  fr[17] = 1424 & 0xff;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
  /* UDP length beyond the datagram, or below 8 */
  fr[38] = (1405 >> 8);
  fr[39] = 1405 & 0xff;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  fr[38] = 0;
  fr[39] = 7;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  /* a UDP length shorter than the IP datagram is the payload length */
  {
    gsize plen = 0;
    const guint8 *p;

    fr[38] = 0;
    fr[39] = 18;
    fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, &p, &plen, NULL),
        VMI_RAWNET_RX_OURS);
    fail_unless_equals_int (plen, 10);
  }
}

GST_END_TEST;

GST_START_TEST (test_classify_fragments_vlan)
{
  static guint8 fr[2048];
  VmiRawnetFlow fl;
  VmiRawnetFilter f;
  gsize n;

  flow_mc (&fl);
  filter_mc (&f);
  n = make_frame (fr, &fl, 1396);
  /* MF */
  fr[20] = 0x20;
  fr[21] = 0;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OTHER);
  /* last fragment: offset only */
  fr[20] = 0x00;
  fr[21] = 0xb9;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OTHER);
  /* DF alone, or no flags at all: whole datagrams */
  fr[20] = 0x00;
  fr[21] = 0x00;
  fix_ip_csum (fr);
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);

  /* the same frame with an 802.1Q tag */
  memmove (fr + 16, fr + 12, n - 12);
  fr[12] = 0x81;
  fr[13] = 0x00;
  fr[14] = 0x00;
  fr[15] = 0x64;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n + 4, &f, NULL, NULL,
          NULL), VMI_RAWNET_RX_OTHER);
  /* IPv6 and other EtherTypes */
  fr[12] = 0x86;
  fr[13] = 0xdd;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n + 4, &f, NULL, NULL,
          NULL), VMI_RAWNET_RX_OTHER);
}

GST_END_TEST;

GST_START_TEST (test_classify_udp_checksum)
{
  static guint8 fr[2048];
  VmiRawnetFlow fl;
  VmiRawnetFilter f;
  guint8 pseudo[12 + 1404];
  guint16 c;
  gsize n;

  flow_mc (&fl);
  filter_mc (&f);
  n = make_frame (fr, &fl, 1396);
  /* pseudo header (src, dst, 0, 17, UDP length) + UDP datagram */
  memcpy (pseudo, fr + 26, 8);
  pseudo[8] = 0;
  pseudo[9] = 17;
  pseudo[10] = 1404 >> 8;
  pseudo[11] = 1404 & 0xff;
  memcpy (pseudo + 12, fr + 34, 1404);
  c = pkt_csum (pseudo, sizeof (pseudo));
  fr[40] = c >> 8;
  fr[41] = c & 0xff;
  f.check_udp_checksum = TRUE;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
  fr[1000] ^= 0x10;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_MALFORMED);
  /* not checked unless asked */
  f.check_udp_checksum = FALSE;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
  /* 0 = no checksum */
  f.check_udp_checksum = TRUE;
  fr[40] = fr[41] = 0;
  fail_unless_equals_int (vmi_rawnet_classify (fr, n, &f, NULL, NULL, NULL),
      VMI_RAWNET_RX_OURS);
}

GST_END_TEST;

GST_START_TEST (test_arp)
{
  guint8 buf[VMI_RAWNET_CTRL_FRAME_MAX], mac[6];
  VmiRawnetFilter f;
  const guint8 *p = NULL;
  gsize plen = 0;

  memset (buf, 0x5a, sizeof (buf));
  fail_unless_equals_int (vmi_rawnet_build_arp_request (buf, 59, smac,
          ip4 ("10.0.0.1"), ip4 ("10.0.0.2")), 0);
  fail_unless_equals_int (vmi_rawnet_build_arp_request (buf, sizeof (buf),
          smac, ip4 ("10.0.0.1"), ip4 ("10.0.0.2")), 60);
  assert_bytes (buf, arp_req, 60);

  /* the reply by 10.0.0.2 */
  fail_unless_equals_int (vmi_rawnet_build_arp_reply (buf, sizeof (buf),
          arp_req, 60, omac, ip4 ("10.0.0.2")), 60);
  assert_bytes (buf, arp_rep, 60);
  /* in place */
  memcpy (buf, arp_req, 60);
  fail_unless_equals_int (vmi_rawnet_build_arp_reply (buf, sizeof (buf),
          buf, 60, omac, ip4 ("10.0.0.2")), 60);
  assert_bytes (buf, arp_rep, 60);
  /* not for us, not a request, truncated, no room */
  fail_unless_equals_int (vmi_rawnet_build_arp_reply (buf, sizeof (buf),
          arp_req, 60, omac, ip4 ("10.0.0.3")), 0);
  fail_unless_equals_int (vmi_rawnet_build_arp_reply (buf, sizeof (buf),
          arp_rep, 60, omac, ip4 ("10.0.0.1")), 0);
  fail_unless_equals_int (vmi_rawnet_build_arp_reply (buf, sizeof (buf),
          arp_req, 41, omac, ip4 ("10.0.0.2")), 0);
  fail_unless_equals_int (vmi_rawnet_build_arp_reply (buf, 59,
          arp_req, 60, omac, ip4 ("10.0.0.2")), 0);

  fail_unless (vmi_rawnet_parse_arp_reply (arp_rep, 60, ip4 ("10.0.0.2"),
          mac));
  assert_bytes (mac, omac, 6);
  fail_if (vmi_rawnet_parse_arp_reply (arp_rep, 60, ip4 ("10.0.0.1"), mac));
  fail_if (vmi_rawnet_parse_arp_reply (arp_rep, 41, ip4 ("10.0.0.2"), mac));
  fail_if (vmi_rawnet_parse_arp_reply (arp_req, 60, ip4 ("10.0.0.1"), mac));

  memset (&f, 0, sizeof (f));
  f.local_ip = ip4 ("10.0.0.2");
  fail_unless_equals_int (vmi_rawnet_classify (arp_req, 60, &f, &p, &plen,
          NULL), VMI_RAWNET_RX_ARP_REQUEST);
  fail_unless (p == arp_req + 14);
  fail_unless_equals_int (plen, 28);
  fail_unless_equals_int (vmi_rawnet_classify (arp_rep, 60, &f, &p, &plen,
          NULL), VMI_RAWNET_RX_ARP_REPLY);
  fail_unless (p == arp_rep + 14);
  fail_unless_equals_int (vmi_rawnet_classify (arp_req, 41, &f, NULL, NULL,
          NULL), VMI_RAWNET_RX_MALFORMED);
  /* a request for someone else */
  f.local_ip = ip4 ("10.0.0.3");
  fail_unless_equals_int (vmi_rawnet_classify (arp_req, 60, &f, NULL, NULL,
          NULL), VMI_RAWNET_RX_OTHER);
  /* ARP for another protocol */
  memcpy (buf, arp_req, 60);
  buf[16] = 0x86;
  buf[17] = 0xdd;
  f.local_ip = ip4 ("10.0.0.2");
  fail_unless_equals_int (vmi_rawnet_classify (buf, 60, &f, NULL, NULL,
          NULL), VMI_RAWNET_RX_OTHER);
  fail_if (vmi_rawnet_parse_arp_reply (buf, 60, ip4 ("10.0.0.1"), mac));
}

GST_END_TEST;

GST_START_TEST (test_igmp_reports)
{
  guint8 buf[VMI_RAWNET_CTRL_FRAME_MAX];
  const guint32 src = ip4 ("192.168.7.10");
  const guint32 asm_g = ip4 ("239.129.2.3");
  const guint32 ssm_g = ip4 ("232.1.2.3");
  const guint32 ssm_s = ip4 ("192.168.7.99");
  VmiRawnetFilter f;

  memset (buf, 0x5a, sizeof (buf));
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_report (buf, sizeof (buf),
          smac, src, asm_g, 0, TRUE), 60);
  assert_bytes (buf, igmp_asm_join, 60);
  memset (buf, 0x5a, sizeof (buf));
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_report (buf, sizeof (buf),
          smac, src, asm_g, 0, FALSE), 60);
  assert_bytes (buf, igmp_asm_leave, 60);
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_report (buf, sizeof (buf),
          smac, src, ssm_g, ssm_s, TRUE), 60);
  assert_bytes (buf, igmp_ssm_join, 60);
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_report (buf, sizeof (buf),
          smac, src, ssm_g, ssm_s, FALSE), 60);
  assert_bytes (buf, igmp_ssm_leave, 60);
  memset (buf, 0x5a, sizeof (buf));
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_state_report (buf,
          sizeof (buf), smac, src, asm_g, 0), 60);
  assert_bytes (buf, igmp_asm_state, 60);
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_state_report (buf,
          sizeof (buf), smac, src, ssm_g, ssm_s), 60);
  assert_bytes (buf, igmp_ssm_state, 60);

  /* no room; not a group */
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_report (buf, 59, smac, src,
          ssm_g, ssm_s, TRUE), 0);
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_report (buf, 59, smac, src,
          asm_g, 0, TRUE), 0);
  fail_unless_equals_int (vmi_rawnet_build_igmpv3_report (buf, sizeof (buf),
          smac, src, ip4 ("10.1.2.3"), 0, TRUE), 0);

  /* a report is not a query, and not our stream */
  filter_mc (&f);
  fail_unless_equals_int (vmi_rawnet_classify (igmp_asm_join, 60, &f, NULL,
          NULL, NULL), VMI_RAWNET_RX_OTHER);
}

GST_END_TEST;

GST_START_TEST (test_igmp_query)
{
  guint8 buf[VMI_RAWNET_CTRL_FRAME_MAX];
  VmiRawnetFilter f;
  const guint8 *p = NULL;
  gsize plen = 0;

  filter_mc (&f);
  fail_unless_equals_int (vmi_rawnet_classify (igmp_query_general,
          sizeof (igmp_query_general), &f, &p, &plen, NULL),
      VMI_RAWNET_RX_IGMP_QUERY);
  fail_unless (p == igmp_query_general + 14 + 24);
  fail_unless_equals_int (plen, 12);
  fail_unless_equals_int (vmi_rawnet_igmp_query_group (p, plen), 0);

  fail_unless_equals_int (vmi_rawnet_classify (igmp_query_group,
          sizeof (igmp_query_group), &f, &p, &plen, NULL),
      VMI_RAWNET_RX_IGMP_QUERY);
  fail_unless_equals_int (plen, 8);
  fail_unless_equals_int (vmi_rawnet_igmp_query_group (p, plen),
      ip4 ("239.129.2.3"));
  fail_unless_equals_int (vmi_rawnet_igmp_query_group (p, 7), 0);

  /* a bad IGMP checksum */
  memcpy (buf, igmp_query_group, 60);
  buf[14 + 24 + 1] ^= 1;
  fail_unless_equals_int (vmi_rawnet_classify (buf, 60, &f, NULL, NULL,
          NULL), VMI_RAWNET_RX_MALFORMED);
}

GST_END_TEST;

static Suite *
rawnet_suite (void)
{
  Suite *s = suite_create ("rawnet");
  TCase *tc = tcase_create ("core");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse_mac);
  tcase_add_test (tc, test_multicast_mac);
  tcase_add_test (tc, test_checksum);
  tcase_add_test (tc, test_udp_header);
  tcase_add_test (tc, test_classify_udp);
  tcase_add_test (tc, test_classify_unicast);
  tcase_add_test (tc, test_classify_malformed);
  tcase_add_test (tc, test_classify_fragments_vlan);
  tcase_add_test (tc, test_classify_udp_checksum);
  tcase_add_test (tc, test_arp);
  tcase_add_test (tc, test_igmp_reports);
  tcase_add_test (tc, test_igmp_query);
  return s;
}

GST_CHECK_MAIN (rawnet);
