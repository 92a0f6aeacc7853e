/* gst-vmi: libFuzzer target for the raw-network receive parser
 * (gst/transport/vmi-rawnet.c), which sorts every Ethernet frame the packet and
 * dpdk transports receive.
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Input: one control byte, then an Ethernet frame (without FCS) of any
 * length. The control byte picks the receiver: multicast or unicast, with
 * or without an SSM source, a local MAC and UDP checksum checks; the
 * addresses are the seeds' (239.1.2.3:5004 from 192.168.1.10 to
 * 192.168.1.20). Whatever the frame, the result is one of the kinds, every
 * payload handed out lies inside the frame, and what the transports do
 * next with it (answer an ARP request, read an ARP reply, read a query's
 * group) stays inside it too. */

#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include "vmi-rawnet.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  static const guint8 our_mac[6] = { 0x02, 0, 0, 0, 0, 0x20 };
  VmiRawnetFilter f = { 0 };
  const guint8 *frame, *payload = NULL;
  gsize len, payload_len = 0;
  guint32 src_ip = 0;
  VmiRawnetRxKind kind;
  guint8 c, out[VMI_RAWNET_CTRL_FRAME_MAX], mac[6];

  if (size < 1)
    return 0;
  c = data[0];
  frame = data + 1;
  len = size - 1;
  f.local_ip = inet_addr ("192.168.1.20");
  f.port = 5004;
  if (c & 1)
    f.group = inet_addr ("239.1.2.3");
  if (c & 2)
    f.source = inet_addr ("192.168.1.10");
  if (c & 4)
    memcpy (f.local_mac, our_mac, 6);
  f.check_udp_checksum = (c & 8) != 0;

  kind = vmi_rawnet_classify (frame, len, &f, &payload, &payload_len,
      &src_ip);
  if (kind > VMI_RAWNET_RX_MALFORMED)
    __builtin_trap ();
  if (kind == VMI_RAWNET_RX_OTHER || kind == VMI_RAWNET_RX_MALFORMED)
    return 0;
  if (payload == NULL || payload < frame || payload_len > len
      || (gsize) (payload - frame) > len - payload_len)
    __builtin_trap ();
  /* read every byte handed out: ASan sees any that is not the frame's */
  {
    volatile guint8 sum = 0;
    gsize i;
    for (i = 0; i < payload_len; i++)
      sum ^= payload[i];
    (void) sum;
  }
  switch (kind) {
    case VMI_RAWNET_RX_OURS:
      if (f.source && src_ip != f.source)
        __builtin_trap ();
      break;
    case VMI_RAWNET_RX_ARP_REQUEST:
      if (vmi_rawnet_build_arp_reply (out, sizeof (out), frame, len, our_mac,
              f.local_ip) > sizeof (out))
        __builtin_trap ();
      break;
    case VMI_RAWNET_RX_ARP_REPLY:
      vmi_rawnet_parse_arp_reply (frame, len, inet_addr ("192.168.1.10"),
          mac);
      break;
    case VMI_RAWNET_RX_IGMP_QUERY:
      vmi_rawnet_igmp_query_group (payload, payload_len);
      break;
    default:
      break;
  }
  return 0;
}
