#!/usr/bin/env python3
# gst-vmi: writes the seed corpus of the dnssd fuzz target
# (tests/fuzz/corpus/dnssd/): DNS-SD responses as an mDNS responder sends
# them to a one-shot querier (PTR answer, SRV/TXT/A additional, names
# compressed), one record per packet, and damaged ones (a pointer loop, a
# forward pointer, truncation, a 64-octet label).
# Usage: make_seeds_dnssd.py CORPUS-DIR. The files are kept in the tree.
import os
import struct
import sys

REG = "_nmos-register._tcp.local"


def name(n):
    out = b""
    for label in n.split("."):
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def header(an, qd=0, id_=0):
    return struct.pack("!HHHHHH", id_, 0x8400, qd, an, 0, 0)


def rr(nm, typ, ttl, rdata):
    return nm + struct.pack("!HHIH", typ, 0x8001, ttl, len(rdata)) + rdata


def txt(kv):
    return b"".join(bytes([len(s)]) + s.encode() for s in kv)


def advert(inst="reg1", pri="0", ver="v1.2,v1.3", proto="http", port=8235):
    h = header(4)
    type_at = len(h)
    ptr_rr = rr(name(REG), 12, 4500, bytes([len(inst)]) + inst.encode()
                + struct.pack("!H", 0xc000 | type_at))
    inst_at = type_at + len(name(REG)) + 10
    srv = rr(struct.pack("!H", 0xc000 | inst_at), 33, 120,
             struct.pack("!HHH", 0, 0, port) + name("host.local"))
    host_at = len(h) + len(ptr_rr) + 2 + 10 + 6
    t = rr(struct.pack("!H", 0xc000 | inst_at), 16, 4500,
           txt(["api_proto=" + proto, "api_ver=" + ver, "api_auth=false",
                "pri=" + pri]))
    a = rr(struct.pack("!H", 0xc000 | host_at), 1, 120, bytes([10, 0, 0, 1]))
    return h + ptr_rr + srv + t + a


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    seeds = {
        "advert": advert(),
        "advert_dev": advert("dev", pri="100"),
        "advert_https": advert("s", proto="https", ver="v1.3"),
        "ptr_only": header(1) + rr(name(REG), 12, 4500, name("x." + REG)),
        "goodbye": header(1) + rr(name(REG), 12, 0, name("x." + REG)),
        "with_question": header(1, qd=1) + name(REG) + struct.pack("!HH", 12, 1)
        + rr(struct.pack("!H", 0xc00c), 12, 10, name("q." + REG)),
        "loop": header(1) + struct.pack("!H", 0xc00c) + struct.pack("!HHIH", 1, 1, 1, 4) + b"\0" * 4,
        "forward": header(1) + struct.pack("!H", 0xc020) + struct.pack("!HHIH", 1, 1, 1, 4) + b"\0" * 4,
        "truncated": advert()[:70],
        "long_label": header(1) + bytes([64]) + b"a" * 64 + b"\0" + struct.pack("!HHIH", 1, 1, 1, 4) + b"\0" * 4,
    }
    for k, v in seeds.items():
        with open(os.path.join(d, k), "wb") as f:
            f.write(v)


main()
