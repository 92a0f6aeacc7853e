/* gst-vmi: UDP payload of a captured packet (see vmi-capture.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pcap/pcap.h>

#include "vmi-capture.h"

/* Captures for timing are often cut short (tcpdump -s 96): lengths from the
 * headers are checked for consistency, but only the bytes we read (UDP
 * header, RTP sequence number) must have been captured. */
static gboolean
parse_udp (const guint8 * p, guint caplen, guint16 * dport,
    const guint8 ** pl, guint * pl_len)
{
  guint16 ulen;
  if (caplen < 8)
    return FALSE;
  *dport = (p[2] << 8) | p[3];
  ulen = (p[4] << 8) | p[5];
  if (ulen < 8)
    return FALSE;
  *pl = p + 8;
  *pl_len = MIN ((guint) ulen, caplen) - 8;
  return TRUE;
}

/* IPv4/IPv6 -> UDP payload; FALSE if not a first-fragment UDP datagram */
static gboolean
parse_ip (guint16 ethertype, const guint8 * p, guint caplen, guint16 * dport,
    const guint8 ** pl, guint * pl_len)
{
  if (ethertype == 0x0800) {
    guint ihl, tot;
    if (caplen < 20 || (p[0] >> 4) != 4)
      return FALSE;
    ihl = (p[0] & 0xf) * 4;
    tot = (p[2] << 8) | p[3];
    if (ihl < 20 || tot < ihl + 8 || caplen < ihl || p[9] != 17)
      return FALSE;
    if (((p[6] << 8) | p[7]) & 0x1fff)  /* not the first fragment */
      return FALSE;
    return parse_udp (p + ihl, MIN (tot, caplen) - ihl, dport, pl, pl_len);
  } else if (ethertype == 0x86dd) {
    guint plen;
    if (caplen < 40 || (p[0] >> 4) != 6 || p[6] != 17)
      return FALSE;
    plen = (p[4] << 8) | p[5];
    return parse_udp (p + 40, MIN (plen, caplen - 40), dport, pl, pl_len);
  }
  return FALSE;
}

static gboolean
frame_to_ip (int dlt, const guint8 * p, guint len, guint16 * ethertype,
    const guint8 ** ip, guint * ip_len)
{
  guint off;
  guint16 et;

  switch (dlt) {
    case DLT_EN10MB:
      if (len < 14)
        return FALSE;
      et = (p[12] << 8) | p[13];
      off = 14;
      while (et == 0x8100 || et == 0x88a8 || et == 0x9100) {
        if (len < off + 4)
          return FALSE;
        et = (p[off + 2] << 8) | p[off + 3];
        off += 4;
      }
      break;
    case DLT_LINUX_SLL:
      if (len < 16)
        return FALSE;
      et = (p[14] << 8) | p[15];
      off = 16;
      break;
#ifdef DLT_LINUX_SLL2
    case DLT_LINUX_SLL2:
      if (len < 20)
        return FALSE;
      et = (p[0] << 8) | p[1];
      off = 20;
      break;
#endif
    case DLT_RAW:
#ifdef DLT_IPV4
    case DLT_IPV4:
#endif
#ifdef DLT_IPV6
    case DLT_IPV6:
#endif
      if (len < 1)
        return FALSE;
      et = (p[0] >> 4) == 6 ? 0x86dd : 0x0800;
      off = 0;
      break;
    default:
      return FALSE;
  }
  *ethertype = et;
  *ip = p + off;
  *ip_len = len - off;
  return TRUE;
}

/**
 * vmi_capture_udp:
 * @dlt: the capture's link type (pcap_datalink())
 * @p: (array length=caplen): the captured bytes of one packet
 *
 * Finds the UDP payload of a first-fragment IPv4/IPv6 datagram in Ethernet
 * (802.1Q/802.1ad tags), Linux cooked SLL/SLL2 or raw IP framing. The
 * payload returned lies inside @p.
 *
 * Returns: %FALSE for anything else (not UDP, truncated, unknown framing).
 */
gboolean
vmi_capture_udp (int dlt, const guint8 * p, guint caplen, guint16 * dport,
    const guint8 ** payload, guint * payload_len)
{
  guint16 et;
  const guint8 *ip;
  guint ip_len;

  return frame_to_ip (dlt, p, caplen, &et, &ip, &ip_len)
      && parse_ip (et, ip, ip_len, dport, payload, payload_len);
}
