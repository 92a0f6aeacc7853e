#!/usr/bin/env python3
# gst-vmi: writes the seed corpora of tests/fuzz/corpus/ for the
# vmi_protocol and pcap targets (the st2022_depacketizer seeds come from
# make_seeds_st2022.py). Usage: make_seeds.py CORPUS-DIR
# The files are kept in the tree; rerun only when a layout changes.
import os
import struct
import sys

MAGIC = 0x31494d56
HELLO, CAPS, MEMORY, FORGET, FRAME, EOS, RELEASE = range(1, 8)


def msg(t, body):
    return struct.pack('<IHHII', MAGIC, t, 1, 16 + len(body), 0) + body


def caps(s):
    b = s.encode() + b'\0'
    b += b'\0' * (-len(b) % 8)
    return msg(CAPS, struct.pack('<II', len(s), 0) + b)


def frame(seq, mems, planes=()):
    po = [p[0] for p in planes] + [0] * (4 - len(planes))
    ps = [p[1] for p in planes] + [0] * (4 - len(planes))
    body = struct.pack('<7QIIII', seq, 0, 2**64 - 1, 33366666, 2**64 - 1,
                       seq, seq + 1, 0, len(mems), len(planes), 0)
    body += struct.pack('<4Q4i', *po, *ps)
    for m in mems:
        body += struct.pack('<3Q', *m)
    return msg(FRAME, body)


def rec(direction, m, pages=0, seal=True):
    ctl = direction | ((2 | (4 if seal else 0) | pages << 3) if pages else 0)
    return bytes([ctl]) + struct.pack('<H', len(m)) + m


def protocol(d):
    uyvy = 'video/x-raw,format=UYVY,width=32,height=16,framerate=30/1'
    hello = rec(0, msg(HELLO, struct.pack('<II', 1, 1234)))
    seeds = {
        # a whole session: hello, caps, memory, frames, release, forget, EOS
        'session': hello + rec(0, caps(uyvy))
        + rec(0, msg(MEMORY, struct.pack('<QQ', 1, 8192)), pages=2)
        + rec(0, frame(1, [(1, 0, 1024)], [(0, 64)]))
        + rec(1, msg(RELEASE, struct.pack('<Q', 1)))
        + rec(0, frame(2, [(1, 4096, 1024)]))
        + rec(0, msg(FORGET, struct.pack('<Q', 1)))
        + rec(0, msg(EOS, b'')),
        # the sequence that once crashed vmisrc (issue 16)
        'meta_not_video': hello + rec(0, caps('application/x-foo'))
        + rec(0, msg(MEMORY, struct.pack('<QQ', 1, 4096)), pages=1)
        + rec(0, frame(1, [(1, 0, 4096)], [(0, 64)])),
        # an unsealed memfd, and a size that lies
        'bad_memory': hello
        + rec(0, msg(MEMORY, struct.pack('<QQ', 1, 4096)), pages=1, seal=False)
        + rec(0, msg(MEMORY, struct.pack('<QQ', 2, 8192)), pages=1),
        # several memories in one frame, offsets at the edges
        'multi_mem': hello + rec(0, caps(uyvy))
        + rec(0, msg(MEMORY, struct.pack('<QQ', 1, 4096)), pages=1)
        + rec(0, msg(MEMORY, struct.pack('<QQ', 2, 4096)), pages=1)
        + rec(0, frame(3, [(1, 0, 4096), (2, 4095, 1), (2, 2**64 - 8, 16)])),
    }
    for name, data in seeds.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)


def udp_packet(dport, seq, l2='eth', vlan=False, v6=False):
    rtp = struct.pack('!BBHII', 0x80, 98, seq, 0, 0x1234) + bytes(8)
    udp = struct.pack('!HHHH', 5000, dport, 8 + len(rtp), 0) + rtp
    if v6:
        ip = struct.pack('!IHBB', 6 << 28, len(udp), 17, 64) + bytes(32) + udp
        et = 0x86dd
    else:
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0, 64,
                         17, 0, bytes([10, 0, 0, 1]), bytes([239, 0, 0, 1]))
        ip += udp
        et = 0x0800
    if l2 == 'raw':
        return ip
    if l2 == 'sll':
        return struct.pack('!HHH8sH', 0, 1, 6, bytes(8), et) + ip
    tag = struct.pack('!HH', 0x8100, 10) if vlan else b''
    return bytes(6) + bytes(6) + tag + struct.pack('!H', et) + ip


def pcap(d):
    def classic(linktype, pkts, magic=0xa1b23c4d):
        out = struct.pack('<IHHiIII', magic, 2, 4, 0, 0, 65535, linktype)
        for i, p in enumerate(pkts):
            out += struct.pack('<IIII', 1, i * 7400, len(p), len(p)) + p
        return out

    def block(t, body):
        body += b'\0' * (-len(body) % 4)
        n = 12 + len(body)
        return struct.pack('<II', t, n) + body + struct.pack('<I', n)

    seeds = {
        'eth_ns': classic(1, [udp_packet(5004, s) for s in (1, 2, 4, 3)]),
        'vlan_v6_us': classic(1, [udp_packet(5004, 7, vlan=True),
                                  udp_packet(5004, 8, v6=True)], 0xa1b2c3d4),
        'sll': classic(113, [udp_packet(5004, 1, 'sll')]),
        'raw_truncated': classic(101, [udp_packet(5004, 9, 'raw')])[:-10],
        'pcapng': block(0x0A0D0D0A, struct.pack('<IHHq', 0x1A2B3C4D, 1, 0,
                                                -1))
        + block(1, struct.pack('<HHI', 1, 0, 0))
        + b''.join(block(6, struct.pack('<IIIII', 0, 0, i, len(p), len(p)) + p)
                   for i, p in enumerate([udp_packet(5004, 1),
                                          udp_packet(5004, 2)])),
    }
    for name, data in seeds.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: make_seeds.py CORPUS-DIR')
    for name, fn in (('vmi_protocol', protocol), ('pcap', pcap)):
        d = os.path.join(sys.argv[1], name)
        os.makedirs(d, exist_ok=True)
        fn(d)


if __name__ == '__main__':
    main()
