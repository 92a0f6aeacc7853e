#!/usr/bin/env python3
"""Interleaves single-stream captures datagram by datagram, as a switch
merging N senders gives them (the receive benchmarks' replay).

Usage: pcap-interleave.py DIR N
Reads DIR/s1.pcap ... DIR/sN.pcap (classic pcap, as net_pcap writes them)
and writes DIR/replay.pcap: the first datagram of each, then the second
of each, and so on."""
import struct
import sys


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    d, n = sys.argv[1], int(sys.argv[2])
    streams = []
    hdr = b""
    for i in range(1, n + 1):
        with open(f"{d}/s{i}.pcap", "rb") as f:
            b = f.read()
        hdr, off, pk = b[:24], 24, []
        while off < len(b):
            incl = struct.unpack_from("<I", b, off + 8)[0]
            pk.append(b[off:off + 16 + incl])
            off += 16 + incl
        streams.append(pk)
    with open(f"{d}/replay.pcap", "wb") as f:
        f.write(hdr)
        for j in range(max(len(s) for s in streams)):
            for s in streams:
                if j < len(s):
                    f.write(s[j])


if __name__ == "__main__":
    main()
