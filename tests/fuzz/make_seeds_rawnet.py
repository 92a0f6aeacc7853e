#!/usr/bin/env python3
# gst-vmi: writes the seed corpus of the rawnet fuzz target
# (tests/fuzz/corpus/rawnet/): one control byte (see fuzz-rawnet.c), then
# an Ethernet frame — our multicast and unicast streams, ARP requests and
# replies, IGMP queries, a VLAN frame, a fragment, damaged ones.
# Usage: make_seeds_rawnet.py CORPUS-DIR. The files are kept in the tree.
import os
import socket
import struct
import sys

SRC_MAC = bytes([2, 0, 0, 0, 0, 0x10])
OUR_MAC = bytes([2, 0, 0, 0, 0, 0x20])
SRC_IP = socket.inet_aton("192.168.1.10")
OUR_IP = socket.inet_aton("192.168.1.20")
GROUP = socket.inet_aton("239.1.2.3")
GROUP_MAC = bytes([1, 0, 0x5e, 1, 2, 3])


def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(src, dst, proto, payload, flags_frag=0, ttl=64, opts=b''):
    ihl = 5 + len(opts) // 4
    h = struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, 0, 20 + len(opts) +
                    len(payload), 1, flags_frag, ttl, proto, 0, src, dst) + opts
    h = h[:10] + struct.pack('!H', csum(h)) + h[12:]
    return h + payload


def udp(src, dst, sport, dport, payload, checksum=True):
    u = struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload
    if checksum:
        ph = src + dst + struct.pack('!BBH', 0, 17, len(u))
        c = csum(ph + u) or 0xffff
        u = u[:6] + struct.pack('!H', c) + u[8:]
    return u


def eth(dst, src, etype, payload):
    f = dst + src + struct.pack('!H', etype) + payload
    return f + b'\0' * max(0, 60 - len(f))


def arp(op, smac, sip, tmac, tip):
    return struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, op, smac, sip,
                       tmac, tip)


def main(out):
    os.makedirs(out, exist_ok=True)
    rtp = bytes([0x80, 98, 0, 1]) + bytes(20) + bytes(range(256)) * 5 + \
        bytes(96)
    seeds = {
        'mcast_stream': (1, eth(GROUP_MAC, SRC_MAC, 0x0800, ipv4(
            SRC_IP, GROUP, 17, udp(SRC_IP, GROUP, 5004, 5004, rtp)))),
        'mcast_ssm_csum': (1 | 2 | 8, eth(GROUP_MAC, SRC_MAC, 0x0800, ipv4(
            SRC_IP, GROUP, 17, udp(SRC_IP, GROUP, 5004, 5004, rtp[:64])))),
        'unicast_stream': (4 | 8, eth(OUR_MAC, SRC_MAC, 0x0800, ipv4(
            SRC_IP, OUR_IP, 17, udp(SRC_IP, OUR_IP, 5004, 5004, rtp[:200])))),
        'unicast_no_csum': (0, eth(OUR_MAC, SRC_MAC, 0x0800, ipv4(
            SRC_IP, OUR_IP, 17, udp(SRC_IP, OUR_IP, 5004, 5004, rtp[:40],
                                   checksum=False)))),
        'arp_request': (0, eth(b'\xff' * 6, SRC_MAC, 0x0806, arp(
            1, SRC_MAC, SRC_IP, bytes(6), OUR_IP))),
        'arp_reply': (0, eth(OUR_MAC, SRC_MAC, 0x0806, arp(
            2, SRC_MAC, SRC_IP, OUR_MAC, OUR_IP))),
        'igmp_general_query': (1, eth(bytes([1, 0, 0x5e, 0, 0, 1]), SRC_MAC,
            0x0800, ipv4(SRC_IP, socket.inet_aton("224.0.0.1"), 2,
                         struct.pack('!BBH4sBBH', 0x11, 100, 0, bytes(4), 2,
                                     125, 0), ttl=1,
                         opts=bytes([0x94, 4, 0, 0])))),
        'igmp_group_query': (1, eth(GROUP_MAC, SRC_MAC, 0x0800, ipv4(
            SRC_IP, GROUP, 2, struct.pack('!BBH4s', 0x11, 100, 0, GROUP),
            ttl=1))),
        'vlan': (1, eth(GROUP_MAC, SRC_MAC, 0x8100, struct.pack('!HH', 5,
            0x0800) + ipv4(SRC_IP, GROUP, 17, udp(SRC_IP, GROUP, 5004, 5004,
                                                  rtp[:32])))),
        'fragment': (1, eth(GROUP_MAC, SRC_MAC, 0x0800, ipv4(
            SRC_IP, GROUP, 17, udp(SRC_IP, GROUP, 5004, 5004, rtp[:32]),
            flags_frag=0x2000))),
        'truncated_ip': (1, eth(GROUP_MAC, SRC_MAC, 0x0800, ipv4(
            SRC_IP, GROUP, 17, udp(SRC_IP, GROUP, 5004, 5004, rtp)))[:40]),
        'runt': (0, bytes(13)),
    }
    for name, (ctl, frame) in seeds.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(bytes([ctl]) + frame)


if __name__ == '__main__':
    main(sys.argv[1])
