/* gst-vmi: raw-network core (Ethernet II, IPv4, UDP, ARP, IGMPv3)
 *
 * What a transport that writes whole Ethernet frames itself (AF_PACKET,
 * DPDK) needs to be a well-behaved IPv4 host for one UDP stream: build the
 * 42-byte Ethernet/IPv4/UDP header of every datagram, classify what arrives
 * (our stream, ARP for us, IGMP queries, everything else, malformed),
 * answer and send ARP, join and leave groups with IGMPv3.
 *
 * Pure C on GLib types: no sockets, no GObject, no DPDK. Addresses are
 * IPv4 in network byte order (as in struct in_addr), ports in host order.
 * Every builder writes into a caller's buffer and returns the frame length
 * (without FCS), 0 when the buffer is too small or the input is invalid.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_RAWNET_H__
#define __VMI_RAWNET_H__

#include <glib.h>

G_BEGIN_DECLS

#define VMI_RAWNET_ETH_HDR_LEN 14
#define VMI_RAWNET_IPV4_HDR_LEN 20
#define VMI_RAWNET_UDP_LEN 8
/* Ethernet 14 + IPv4 20 (no options) + UDP 8 */
#define VMI_RAWNET_UDP_HDR_LEN 42
/* shortest Ethernet frame without FCS; builders pad ARP/IGMP to it */
#define VMI_RAWNET_MIN_FRAME_LEN 60
/* buffer size that fits every ARP / IGMP frame the builders write */
#define VMI_RAWNET_CTRL_FRAME_MAX 64
/* largest UDP payload in one 1500-byte-MTU Ethernet frame */
#define VMI_RAWNET_MAX_UDP_PAYLOAD (1500 - 28)

#define VMI_RAWNET_ETHERTYPE_IPV4 0x0800
#define VMI_RAWNET_ETHERTYPE_ARP 0x0806
#define VMI_RAWNET_ETHERTYPE_VLAN 0x8100

/* One UDP flow as the transmitter writes it. */
typedef struct
{
  guint8 dst_mac[6], src_mac[6];
  guint32 src_ip, dst_ip;       /* network order */
  guint16 src_port, dst_port;   /* host order */
  guint8 ttl, dscp;             /* dscp: 0...63, written as TOS = dscp << 2 */
} VmiRawnetFlow;

/* What the receiver accepts as its stream. */
typedef struct
{
  guint32 local_ip;             /* ours; ARP requests for it are ARP_REQUEST;
                                 * unicast streams must be sent to it
                                 * (0: any destination when @group is 0) */
  guint32 group;                /* multicast group joined, 0 = unicast */
  guint32 source;               /* SSM source, 0 = any; network order */
  guint16 port;                 /* UDP destination port, host order */
  guint8 local_mac[6];          /* unicast frames must be sent to it
                                 * (all zero: not checked) */
  gboolean check_udp_checksum;  /* verify a non-zero UDP checksum (costs a
                                 * pass over the payload; the Ethernet FCS
                                 * already protects each hop) */
} VmiRawnetFilter;

typedef enum
{
  VMI_RAWNET_RX_OURS = 0,       /* payload = UDP payload, src_ip = sender */
  VMI_RAWNET_RX_ARP_REQUEST,    /* who-has local_ip; payload = ARP packet */
  VMI_RAWNET_RX_ARP_REPLY,      /* any ARP reply; payload = ARP packet */
  VMI_RAWNET_RX_IGMP_QUERY,     /* IGMP membership query (any version);
                                 * payload = IGMP message */
  VMI_RAWNET_RX_OTHER,          /* well-formed, not for us */
  VMI_RAWNET_RX_MALFORMED,      /* truncated, bad lengths or checksum */
} VmiRawnetRxKind;

/* "aa:bb:cc:dd:ee:ff" (or '-' separated), two hex digits per byte. */
gboolean vmi_rawnet_parse_mac (const gchar * str, guint8 mac[6]);

static inline gboolean
vmi_rawnet_is_multicast (guint32 ip_be)
{
  return (GUINT32_FROM_BE (ip_be) >> 28) == 0xe;
}

/* 01:00:5e + the low 23 bits of the group (RFC 1112 §6.4). */
void vmi_rawnet_multicast_mac (guint32 group_be, guint8 mac[6]);

/* RFC 1071 Internet checksum of @len bytes (the value to store, in
 * network order as two bytes: buf[0] = result >> 8). */
guint16 vmi_rawnet_checksum (const guint8 * data, gsize len);

/* Writes the Ethernet/IPv4/UDP header for @payload_len bytes of UDP
 * payload. IPv4: no options, DF set, identification 0, header checksum
 * filled; UDP checksum 0. Why: every datagram is a DF "atomic datagram",
 * whose identification RFC 6864 §4.1 lets the source set to any value
 * (a constant 0 keeps the header a pure function of the flow and length);
 * and IPv4 lets UDP carry no checksum (RFC 768) - the Ethernet FCS guards
 * each hop, ST 2022-6 senders and receivers do not rely on it, and
 * computing it would make the CPU read every payload byte, which zero-copy
 * transmission from frame memory avoids. */
void vmi_rawnet_build_udp_header (guint8 hdr[VMI_RAWNET_UDP_HDR_LEN],
    const VmiRawnetFlow * flow, guint payload_len);

/* Sorts one received Ethernet frame (without FCS). For OURS, @payload and
 * @payload_len give the UDP payload and @src_ip the sender (network
 * order); for ARP_* the ARP packet, for IGMP_QUERY the IGMP message; all
 * three outputs may be NULL. Rules:
 * - VLAN-tagged frames (0x8100 / 0x88a8 on the wire) are OTHER: a stream
 *   on a VLAN is received on that VLAN's interface (AF_PACKET) or on a
 *   port whose NIC strips the tag;
 * - IPv4 with a bad version/IHL/total length, a header checksum that does
 *   not verify, or a UDP length beyond the IP datagram is MALFORMED;
 *   Ethernet padding after the datagram is ignored;
 * - fragments (MF set or offset != 0) are OTHER: ST 2022-6 datagrams are
 *   never fragmented, and reassembly is not a receiver's job here;
 * - OURS needs: UDP, destination port @port, destination @group (and the
 *   group's MAC) or, when @group is 0, @local_ip (and @local_mac, if set),
 *   and source @source when that is not 0. */
VmiRawnetRxKind vmi_rawnet_classify (const guint8 * frame, gsize len,
    const VmiRawnetFilter * f, const guint8 ** payload, gsize * payload_len,
    guint32 * src_ip);

/* Broadcast who-has @target_ip (60 bytes). */
gsize vmi_rawnet_build_arp_request (guint8 * buf, gsize len,
    const guint8 src_mac[6], guint32 src_ip, guint32 target_ip);

/* The reply to @request (an Ethernet frame holding an ARP request for
 * @our_ip), sent to the requester (60 bytes); 0 when @request is not an
 * Ethernet/IPv4 ARP request for @our_ip. */
gsize vmi_rawnet_build_arp_reply (guint8 * buf, gsize len,
    const guint8 * request, gsize request_len, const guint8 our_mac[6],
    guint32 our_ip);

/* TRUE and the sender's MAC in @mac_out when @frame is an Ethernet/IPv4
 * ARP reply from @ip. */
gboolean vmi_rawnet_parse_arp_reply (const guint8 * frame, gsize len,
    guint32 ip, guint8 mac_out[6]);

/* IGMPv3 state-change report (RFC 3376 §4.2, §5.1) for @group, to
 * 224.0.0.22 with TTL 1, TOS 0xc0 and the IP Router Alert option (60
 * bytes with the Ethernet padding). Any-source (@source 0): join =
 * CHANGE_TO_EXCLUDE_MODE {}, leave = CHANGE_TO_INCLUDE_MODE {}.
 * Source-specific: join = ALLOW_NEW_SOURCES {source}, leave =
 * BLOCK_OLD_SOURCES {source}. */
gsize vmi_rawnet_build_igmpv3_report (guint8 * buf, gsize len,
    const guint8 src_mac[6], guint32 src_ip, guint32 group, guint32 source,
    gboolean join);

/* IGMPv3 current-state report, the answer to a query while joined:
 * MODE_IS_EXCLUDE {} (any source) or MODE_IS_INCLUDE {source}. */
gsize vmi_rawnet_build_igmpv3_state_report (guint8 * buf, gsize len,
    const guint8 src_mac[6], guint32 src_ip, guint32 group, guint32 source);

/* For an IGMP_QUERY payload: the group queried (0 = general query). */
guint32 vmi_rawnet_igmp_query_group (const guint8 * igmp, gsize len);

G_END_DECLS

#endif /* __VMI_RAWNET_H__ */
