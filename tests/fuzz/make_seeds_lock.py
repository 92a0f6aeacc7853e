#!/usr/bin/env python3
# gst-vmi: seed inputs for fuzz_st2022_lock and fuzz_uri.
# Usage: make_seeds_lock.py tests/fuzz/corpus
#
# fuzz_st2022_lock input: byte 0 = lock-datagrams - 1, then 4-byte records
# (op, a, b, c): op bits 0-1 stream, bit 2 other format, bit 3 marker,
# bits 4-5 sequence move (+1, +a, -a, absolute a<<8|b), c & 3 FRCount step;
# op bits 6-7 == 3: a % 3 = 0 reset, 1 note (b<<8|c) drops, 2 a runt.
import os
import sys


def rec(stream, move=0, a=0, b=0, fr=0, marker=0, fmt=0):
    return bytes([stream | (fmt << 2) | (marker << 3) | (move << 4), a, b, fr])


def lock_seeds():
    seeds = {}
    # a stray first, then stream 0 with a stray of stream 3 after each
    s = bytearray([15]) + rec(3, 3, 0x90, 0)
    for _ in range(40):
        s += rec(0) + rec(3, 1, 77)
    seeds["stray_first"] = s
    # stream 0 locked, stream 1 interleaved (never takes over), then only 1
    s = bytearray([3])
    for _ in range(20):
        s += rec(0) + rec(1)
    for _ in range(10):
        s += rec(1)
    seeds["two_streams"] = s
    # in-window spoofs of the locked SSRC (stream 2 shares stream 0's SSRC)
    s = bytearray([7])
    for i in range(60):
        s += rec(0, marker=int(i % 20 == 19), fr=int(i % 20 == 0 and i > 0))
        if i % 7 == 3:
            s += rec(2, 3, 0x03, 0xee + i % 8, fr=1)
    seeds["spoofs"] = s
    # signal loss, drops noted, a runt, a renumbering
    s = bytearray([1])
    for _ in range(10):
        s += rec(0)
    s += bytes([0xc0, 0, 0, 0]) + bytes([0xc0, 1, 1, 0]) + bytes([0xc0, 2, 0, 0])
    s += rec(0, 1, 200)
    for _ in range(10):
        s += rec(0)
    s += rec(0, 2, 100)
    for _ in range(10):
        s += rec(0, fmt=1)
    seeds["loss_drops_renumber"] = s
    return seeds


def uri_seeds():
    return {
        "listen": b"st2022://@232.1.2.3:5006?source-address=10.0.0.1&payload-type=99",
        "ipv6": b"st2022://me@[ff15::7]",
        "bad_values": b"st2022://10.0.0.1?port=70000&timeout=abc&ssrc=-1",
        "escapes": b"st2022://10.0.0.1?name=%00&%zz=1&=5&drop-corrupted=maybe",
        "kinds": b"st2022://10.0.0.1:5004?timeout=0&drop-corrupted=true&mode=b&address=1.2.3.4",
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_seeds_lock.py CORPUSDIR")
    for target, seeds in (("st2022_lock", lock_seeds()), ("uri", uri_seeds())):
        d = os.path.join(sys.argv[1], target)
        os.makedirs(d, exist_ok=True)
        for name, data in seeds.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
