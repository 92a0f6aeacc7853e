/* gst-vmi: raw-network core (Ethernet II, IPv4, UDP, ARP, IGMPv3)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-rawnet.h"

#include <string.h>

#define ARP_LEN 28
#define IP_PROTO_IGMP 2
#define IP_PROTO_UDP 17
#define IGMP_QUERY 0x11
#define IGMPV3_REPORT 0x22

/* RFC 3376 §4.2.12 group record types */
enum
{
  MODE_IS_INCLUDE = 1,
  MODE_IS_EXCLUDE = 2,
  CHANGE_TO_INCLUDE_MODE = 3,
  CHANGE_TO_EXCLUDE_MODE = 4,
  ALLOW_NEW_SOURCES = 5,
  BLOCK_OLD_SOURCES = 6,
};

static const guint8 broadcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static inline guint16
rd16 (const guint8 * p)
{
  return (guint16) ((p[0] << 8) | p[1]);
}

static inline void
wr16 (guint8 * p, guint v)
{
  p[0] = (v >> 8) & 0xff;
  p[1] = v & 0xff;
}

/* addresses stay in network order: copy the bytes as they are */
static inline guint32
rd_addr (const guint8 * p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return v;
}

static inline void
wr_addr (guint8 * p, guint32 v)
{
  memcpy (p, &v, 4);
}

static int
hexval (gchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

gboolean
vmi_rawnet_parse_mac (const gchar * str, guint8 mac[6])
{
  guint8 out[6];
  guint i;
  gchar sep = 0;

  if (str == NULL || strlen (str) != 17)
    return FALSE;
  for (i = 0; i < 6; i++) {
    const gchar *p = str + 3 * i;
    int hi = hexval (p[0]), lo = hexval (p[1]);

    if (hi < 0 || lo < 0)
      return FALSE;
    out[i] = (guint8) (hi << 4 | lo);
    if (i < 5) {
      if (p[2] != ':' && p[2] != '-')
        return FALSE;
      if (sep && p[2] != sep)
        return FALSE;
      sep = p[2];
    }
  }
  memcpy (mac, out, 6);
  return TRUE;
}

void
vmi_rawnet_multicast_mac (guint32 group_be, guint8 mac[6])
{
  guint32 g = GUINT32_FROM_BE (group_be);

  mac[0] = 0x01;
  mac[1] = 0x00;
  mac[2] = 0x5e;
  mac[3] = (g >> 16) & 0x7f;
  mac[4] = (g >> 8) & 0xff;
  mac[5] = g & 0xff;
}

/* ones' complement sum of @len bytes added to @sum, folded to 16 bits,
 * complemented: the checksum field value */
static guint16
checksum_from (guint64 sum, const guint8 * data, gsize len)
{
  gsize i;

  for (i = 0; i + 1 < len; i += 2)
    sum += rd16 (data + i);
  if (len & 1)
    sum += (guint) data[len - 1] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) ~sum;
}

guint16
vmi_rawnet_checksum (const guint8 * data, gsize len)
{
  return checksum_from (0, data, len);
}

static void
write_eth (guint8 * p, const guint8 dst[6], const guint8 src[6], guint type)
{
  memcpy (p, dst, 6);
  memcpy (p + 6, src, 6);
  wr16 (p + 12, type);
}

/* IPv4 header of @hlen bytes (20, or 24 with the Router Alert option) */
static void
write_ipv4 (guint8 * ip, guint hlen, guint tos, guint total_len, guint ttl,
    guint proto, guint32 src, guint32 dst)
{
  ip[0] = 0x40 | (hlen / 4);
  ip[1] = tos;
  wr16 (ip + 2, total_len);
  wr16 (ip + 4, 0);             /* identification: atomic datagram */
  wr16 (ip + 6, 0x4000);        /* DF, offset 0 */
  ip[8] = ttl;
  ip[9] = proto;
  wr16 (ip + 10, 0);
  wr_addr (ip + 12, src);
  wr_addr (ip + 16, dst);
  if (hlen == 24) {
    /* Router Alert (RFC 2113), which RFC 3376 §4 requires on IGMPv3 */
    ip[20] = 0x94;
    ip[21] = 0x04;
    ip[22] = 0;
    ip[23] = 0;
  }
  wr16 (ip + 10, vmi_rawnet_checksum (ip, hlen));
}

void
vmi_rawnet_build_udp_header (guint8 hdr[VMI_RAWNET_UDP_HDR_LEN],
    const VmiRawnetFlow * flow, guint payload_len)
{
  guint8 *udp = hdr + VMI_RAWNET_ETH_HDR_LEN + VMI_RAWNET_IPV4_HDR_LEN;

  write_eth (hdr, flow->dst_mac, flow->src_mac, VMI_RAWNET_ETHERTYPE_IPV4);
  write_ipv4 (hdr + VMI_RAWNET_ETH_HDR_LEN, VMI_RAWNET_IPV4_HDR_LEN,
      (flow->dscp & 0x3f) << 2,
      VMI_RAWNET_IPV4_HDR_LEN + VMI_RAWNET_UDP_LEN + payload_len, flow->ttl,
      IP_PROTO_UDP, flow->src_ip, flow->dst_ip);
  wr16 (udp, flow->src_port);
  wr16 (udp + 2, flow->dst_port);
  wr16 (udp + 4, VMI_RAWNET_UDP_LEN + payload_len);
  wr16 (udp + 6, 0);
}

/* UDP checksum with the IPv4 pseudo header (RFC 768) over @udp_len bytes;
 * 0 when it verifies (or was computed as 0xffff from a true 0) */
static guint16
udp_checksum_residue (const guint8 * ip, const guint8 * udp, guint udp_len)
{
  guint64 pseudo = (guint64) rd16 (ip + 12) + rd16 (ip + 14) + rd16 (ip + 16)
      + rd16 (ip + 18) + IP_PROTO_UDP + udp_len;

  return checksum_from (pseudo, udp, udp_len);
}

static gboolean
arp_is_ipv4_ether (const guint8 * arp)
{
  return rd16 (arp) == 1 && rd16 (arp + 2) == VMI_RAWNET_ETHERTYPE_IPV4
      && arp[4] == 6 && arp[5] == 4;
}

static gboolean
mac_is_zero (const guint8 mac[6])
{
  static const guint8 zero[6];
  return memcmp (mac, zero, 6) == 0;
}

#define OUT(kind, p, l) \
  G_STMT_START { \
    if (payload) *payload = (p); \
    if (payload_len) *payload_len = (l); \
    return (kind); \
  } G_STMT_END

VmiRawnetRxKind
vmi_rawnet_classify (const guint8 * frame, gsize len,
    const VmiRawnetFilter * f, const guint8 ** payload, gsize * payload_len,
    guint32 * src_ip)
{
  const guint8 *ip, *l4;
  guint type, ihl, total, frag, l4_len;
  guint32 src, dst;

  if (len < VMI_RAWNET_ETH_HDR_LEN)
    return VMI_RAWNET_RX_MALFORMED;
  type = rd16 (frame + 12);

  if (type == VMI_RAWNET_ETHERTYPE_ARP) {
    const guint8 *arp = frame + VMI_RAWNET_ETH_HDR_LEN;
    guint op;

    if (len < VMI_RAWNET_ETH_HDR_LEN + ARP_LEN)
      return VMI_RAWNET_RX_MALFORMED;
    if (!arp_is_ipv4_ether (arp))
      return VMI_RAWNET_RX_OTHER;
    op = rd16 (arp + 6);
    if (op == 1 && f->local_ip != 0 && rd_addr (arp + 24) == f->local_ip)
      OUT (VMI_RAWNET_RX_ARP_REQUEST, arp, ARP_LEN);
    if (op == 2)
      OUT (VMI_RAWNET_RX_ARP_REPLY, arp, ARP_LEN);
    return VMI_RAWNET_RX_OTHER;
  }
  if (type != VMI_RAWNET_ETHERTYPE_IPV4)
    return VMI_RAWNET_RX_OTHER;

  ip = frame + VMI_RAWNET_ETH_HDR_LEN;
  len -= VMI_RAWNET_ETH_HDR_LEN;
  if (len < VMI_RAWNET_IPV4_HDR_LEN || (ip[0] >> 4) != 4)
    return VMI_RAWNET_RX_MALFORMED;
  ihl = (ip[0] & 0xf) * 4;
  total = rd16 (ip + 2);
  if (ihl < VMI_RAWNET_IPV4_HDR_LEN || total < ihl || total > len)
    return VMI_RAWNET_RX_MALFORMED;
  if (vmi_rawnet_checksum (ip, ihl) != 0)
    return VMI_RAWNET_RX_MALFORMED;
  frag = rd16 (ip + 6);
  if (frag & 0x3fff)            /* MF or a fragment offset */
    return VMI_RAWNET_RX_OTHER;
  src = rd_addr (ip + 12);
  dst = rd_addr (ip + 16);
  l4 = ip + ihl;
  l4_len = total - ihl;

  if (ip[9] == IP_PROTO_IGMP) {
    if (l4_len < 8)
      return VMI_RAWNET_RX_MALFORMED;
    if (vmi_rawnet_checksum (l4, l4_len) != 0)
      return VMI_RAWNET_RX_MALFORMED;
    if (l4[0] == IGMP_QUERY)
      OUT (VMI_RAWNET_RX_IGMP_QUERY, l4, l4_len);
    return VMI_RAWNET_RX_OTHER;
  }
  if (ip[9] != IP_PROTO_UDP)
    return VMI_RAWNET_RX_OTHER;
  if (l4_len < VMI_RAWNET_UDP_LEN)
    return VMI_RAWNET_RX_MALFORMED;
  {
    guint udp_len = rd16 (l4 + 4);

    if (udp_len < VMI_RAWNET_UDP_LEN || udp_len > l4_len)
      return VMI_RAWNET_RX_MALFORMED;
    if (rd16 (l4 + 2) != f->port)
      return VMI_RAWNET_RX_OTHER;
    if (f->group != 0) {
      guint8 mac[6];

      if (dst != f->group)
        return VMI_RAWNET_RX_OTHER;
      vmi_rawnet_multicast_mac (f->group, mac);
      if (memcmp (frame, mac, 6) != 0)
        return VMI_RAWNET_RX_OTHER;
    } else {
      if (f->local_ip != 0 && dst != f->local_ip)
        return VMI_RAWNET_RX_OTHER;
      if (!mac_is_zero (f->local_mac) && memcmp (frame, f->local_mac, 6) != 0)
        return VMI_RAWNET_RX_OTHER;
    }
    if (f->source != 0 && src != f->source)
      return VMI_RAWNET_RX_OTHER;
    if (f->check_udp_checksum && rd16 (l4 + 6) != 0
        && udp_checksum_residue (ip, l4, udp_len) != 0)
      return VMI_RAWNET_RX_MALFORMED;
    if (src_ip)
      *src_ip = src;
    OUT (VMI_RAWNET_RX_OURS, l4 + VMI_RAWNET_UDP_LEN,
        udp_len - VMI_RAWNET_UDP_LEN);
  }
}

#undef OUT

static void
write_arp (guint8 * buf, const guint8 eth_dst[6], guint op,
    const guint8 sha[6], guint32 spa, const guint8 tha[6], guint32 tpa)
{
  guint8 *arp = buf + VMI_RAWNET_ETH_HDR_LEN;

  memset (buf, 0, VMI_RAWNET_MIN_FRAME_LEN);
  write_eth (buf, eth_dst, sha, VMI_RAWNET_ETHERTYPE_ARP);
  wr16 (arp, 1);                /* Ethernet */
  wr16 (arp + 2, VMI_RAWNET_ETHERTYPE_IPV4);
  arp[4] = 6;
  arp[5] = 4;
  wr16 (arp + 6, op);
  memcpy (arp + 8, sha, 6);
  wr_addr (arp + 14, spa);
  memcpy (arp + 18, tha, 6);
  wr_addr (arp + 24, tpa);
}

gsize
vmi_rawnet_build_arp_request (guint8 * buf, gsize len,
    const guint8 src_mac[6], guint32 src_ip, guint32 target_ip)
{
  static const guint8 zero[6];

  if (len < VMI_RAWNET_MIN_FRAME_LEN)
    return 0;
  /* RFC 826: the target hardware address of a request is unknown, 0 */
  write_arp (buf, broadcast_mac, 1, src_mac, src_ip, zero, target_ip);
  return VMI_RAWNET_MIN_FRAME_LEN;
}

gsize
vmi_rawnet_build_arp_reply (guint8 * buf, gsize len,
    const guint8 * request, gsize request_len, const guint8 our_mac[6],
    guint32 our_ip)
{
  const guint8 *arp = request + VMI_RAWNET_ETH_HDR_LEN;
  guint8 sha[6];
  guint32 spa;

  if (len < VMI_RAWNET_MIN_FRAME_LEN
      || request_len < VMI_RAWNET_ETH_HDR_LEN + ARP_LEN
      || rd16 (request + 12) != VMI_RAWNET_ETHERTYPE_ARP
      || !arp_is_ipv4_ether (arp) || rd16 (arp + 6) != 1
      || rd_addr (arp + 24) != our_ip)
    return 0;
  /* copy first: @buf may be @request */
  memcpy (sha, arp + 8, 6);
  spa = rd_addr (arp + 14);
  write_arp (buf, sha, 2, our_mac, our_ip, sha, spa);
  return VMI_RAWNET_MIN_FRAME_LEN;
}

gboolean
vmi_rawnet_parse_arp_reply (const guint8 * frame, gsize len, guint32 ip,
    guint8 mac_out[6])
{
  const guint8 *arp = frame + VMI_RAWNET_ETH_HDR_LEN;

  if (len < VMI_RAWNET_ETH_HDR_LEN + ARP_LEN
      || rd16 (frame + 12) != VMI_RAWNET_ETHERTYPE_ARP
      || !arp_is_ipv4_ether (arp) || rd16 (arp + 6) != 2
      || rd_addr (arp + 14) != ip)
    return FALSE;
  memcpy (mac_out, arp + 8, 6);
  return TRUE;
}

static gsize
build_igmpv3 (guint8 * buf, gsize len, const guint8 src_mac[6],
    guint32 src_ip, guint32 group, guint record_type, guint32 source)
{
  /* 224.0.0.22, all IGMPv3-capable routers */
  const guint32 dst = GUINT32_TO_BE (0xe0000016);
  guint n_src = source != 0 ? 1 : 0;
  guint igmp_len = 8 + 8 + 4 * n_src;
  guint ip_len = 24 + igmp_len;
  gsize frame_len = MAX (VMI_RAWNET_ETH_HDR_LEN + ip_len,
      VMI_RAWNET_MIN_FRAME_LEN);
  guint8 mac[6], *igmp, *rec;

  if (len < frame_len || !vmi_rawnet_is_multicast (group))
    return 0;
  memset (buf, 0, frame_len);
  vmi_rawnet_multicast_mac (dst, mac);
  write_eth (buf, mac, src_mac, VMI_RAWNET_ETHERTYPE_IPV4);
  /* TOS 0xc0 (internetwork control) and TTL 1, as RFC 3376 §4 and every
   * host stack send reports */
  write_ipv4 (buf + VMI_RAWNET_ETH_HDR_LEN, 24, 0xc0, ip_len, 1,
      IP_PROTO_IGMP, src_ip, dst);
  igmp = buf + VMI_RAWNET_ETH_HDR_LEN + 24;
  igmp[0] = IGMPV3_REPORT;
  wr16 (igmp + 6, 1);           /* one group record */
  rec = igmp + 8;
  rec[0] = record_type;
  rec[1] = 0;                   /* aux data len */
  wr16 (rec + 2, n_src);
  wr_addr (rec + 4, group);
  if (n_src)
    wr_addr (rec + 8, source);
  wr16 (igmp + 2, vmi_rawnet_checksum (igmp, igmp_len));
  return frame_len;
}

gsize
vmi_rawnet_build_igmpv3_report (guint8 * buf, gsize len,
    const guint8 src_mac[6], guint32 src_ip, guint32 group, guint32 source,
    gboolean join)
{
  guint type;

  /* RFC 3376 §5.1: a filter change from INCLUDE {} to EXCLUDE {} (ASM
   * join) is TO_EX({}), back is TO_IN({}); adding or removing one source
   * of an INCLUDE filter (SSM) is ALLOW / BLOCK of that source */
  if (source == 0)
    type = join ? CHANGE_TO_EXCLUDE_MODE : CHANGE_TO_INCLUDE_MODE;
  else
    type = join ? ALLOW_NEW_SOURCES : BLOCK_OLD_SOURCES;
  return build_igmpv3 (buf, len, src_mac, src_ip, group, type, source);
}

gsize
vmi_rawnet_build_igmpv3_state_report (guint8 * buf, gsize len,
    const guint8 src_mac[6], guint32 src_ip, guint32 group, guint32 source)
{
  return build_igmpv3 (buf, len, src_mac, src_ip, group,
      source == 0 ? MODE_IS_EXCLUDE : MODE_IS_INCLUDE, source);
}

guint32
vmi_rawnet_igmp_query_group (const guint8 * igmp, gsize len)
{
  if (len < 8 || igmp[0] != IGMP_QUERY)
    return 0;
  return rd_addr (igmp + 4);
}
