#!/usr/bin/env python3
# gst-vmi test: tshark with tools/st2022-6.lua decodes every HBRMT field of a
# captured st2022sink stream to the values sent.
#
# st2022sink sends 720p59.94 UYVP (payload type 111, a fixed SSRC) on the
# loopback of a private network namespace whose lo cannot do UDP GSO, so the
# capture holds the datagrams as they are on a wire (not 13-datagram GSO
# aggregates). dumpcap keeps the first N; the test decodes the capture
# itself (RTP + HBRMT from the bytes) and requires tshark's fields to equal
# that decode and the values the sender was set up with, packet by packet.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SKIP = 77
N = 400                         # datagrams kept
PT = 111
SSRC = 0x12345678
ROOT = os.environ.get("VMI_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
LUA = os.path.join(ROOT, "tools", "st2022-6.lua")

FIELDS = ["rtp.seq", "rtp.p_type", "rtp.ssrc", "rtp.marker",
          "st2022_6.ext", "st2022_6.f", "st2022_6.vsid", "st2022_6.frcount",
          "st2022_6.r", "st2022_6.s", "st2022_6.fec", "st2022_6.cf",
          "st2022_6.reserved", "st2022_6.map", "st2022_6.frame",
          "st2022_6.frate", "st2022_6.sample", "st2022_6.reserved2",
          "st2022_6.timestamp", "st2022_6.payload_length"]


def skip(why):
    print("SKIP:", why)
    sys.exit(SKIP)


def decode(udp):
    """Our own reading of one UDP payload: RTP then HBRMT (docs/st2022-6.md)."""
    b0, b1, seq, ts, ssrc = struct.unpack(">BBHII", udp[:12])
    h = udp[12:20]
    cf = ((h[2] & 0x01) << 3) | (h[3] >> 5)
    off = 20
    vts = None
    if cf:
        vts = struct.unpack(">I", udp[20:24])[0]
        off = 24
    return {
        "rtp.seq": seq, "rtp.p_type": b1 & 0x7F, "rtp.ssrc": ssrc,
        "rtp.marker": b1 >> 7,
        "st2022_6.ext": h[0] >> 4, "st2022_6.f": (h[0] >> 3) & 1,
        "st2022_6.vsid": h[0] & 7, "st2022_6.frcount": h[1],
        "st2022_6.r": h[2] >> 6, "st2022_6.s": (h[2] >> 4) & 3,
        "st2022_6.fec": (h[2] >> 1) & 7, "st2022_6.cf": cf,
        "st2022_6.reserved": h[3] & 0x1F, "st2022_6.map": h[4] >> 4,
        "st2022_6.frame": ((h[4] & 0xF) << 4) | (h[5] >> 4),
        "st2022_6.frate": ((h[5] & 0xF) << 4) | (h[6] >> 4),
        "st2022_6.sample": h[6] & 0xF, "st2022_6.reserved2": h[7],
        "st2022_6.timestamp": vts, "st2022_6.payload_length": len(udp) - off,
    }


def read_pcap(path, port):
    data = open(path, "rb").read()
    magic, = struct.unpack("<I", data[:4])
    assert magic == 0xA1B2C3D4, "not a little-endian pcap"
    link, = struct.unpack("<I", data[20:24])
    l2 = {1: 14, 113: 16, 276: 20}[link]
    pos, out = 24, []
    while pos < len(data):
        _, _, incl, orig = struct.unpack("<IIII", data[pos:pos + 16])
        pkt = data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
        assert incl == orig, "truncated capture"
        ip = pkt[l2:]
        assert ip[0] >> 4 == 4
        ihl = (ip[0] & 0xF) * 4
        sport, dport, ulen = struct.unpack(">HHH", ip[ihl:ihl + 6])
        assert dport == port
        out.append(decode(ip[ihl + 8:ihl + ulen]))
    return out


def main():
    for tool in ("tshark", "dumpcap", "ip", "gst-launch-1.0"):
        if shutil.which(tool) is None:
            skip(f"{tool} not installed (scripts/install-deps installs it)")
    if os.geteuid() != 0:
        skip("needs root: the capture runs in a private network namespace")
    ns = f"vmi-sdp-{os.getpid()}"
    if subprocess.run(["ip", "netns", "add", ns]).returncode != 0:
        skip("cannot create a network namespace")
    tmp = tempfile.mkdtemp(prefix="vmi-dissector-")
    cap = os.path.join(tmp, "st2022.pcap")
    port = 5004
    dump = None
    try:
        nsx = ["ip", "netns", "exec", ns]
        subprocess.run(nsx + ["ip", "link", "set", "lo", "up"], check=True)
        # no UDP GSO on this lo: the kernel segments before the capture tap
        subprocess.run(nsx + ["ip", "link", "set", "dev", "lo",
                              "gso_max_segs", "1"], check=True)
        dump = subprocess.Popen(nsx + ["dumpcap", "-i", "lo", "-P", "-q",
                                       "-f", f"udp dst port {port}",
                                       "-c", str(N), "-B", "64", "-w", cap],
                                stderr=subprocess.PIPE, text=True)
        # dumpcap says when it captures; nothing is sent before
        for line in dump.stderr:
            if line.startswith("Capturing on"):
                break
        else:
            sys.exit(f"dumpcap did not start: {dump.wait()}")
        send = nsx + ["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=2",
                      "!", "video/x-raw,format=UYVP,width=1280,height=720,"
                      "framerate=60000/1001", "!", "st2022sink",
                      "host=127.0.0.1", f"port={port}",
                      f"payload-type={PT}", f"ssrc={SSRC}"]
        for _ in range(20):     # until dumpcap has its N datagrams
            subprocess.run(send, check=True)
            if dump.poll() is not None:
                break
        assert dump.wait() == 0, "dumpcap failed"

        ours = read_pcap(cap, port)
        assert len(ours) == N, len(ours)
        out = subprocess.run(
            ["tshark", "-X", f"lua_script:{LUA}", "-o", f"st2022_6.pt:{PT}",
             "-d", f"udp.port=={port},rtp", "-r", cap, "-T", "fields",
             "-E", "separator=,", "-E", "occurrence=f"] +
            sum((["-e", f] for f in FIELDS), []),
            check=True, capture_output=True, text=True).stdout
        rows = [r.split(",") for r in out.strip().split("\n")]
        assert len(rows) == N, len(rows)
        for i, (row, mine) in enumerate(zip(rows, ours)):
            for name, text in zip(FIELDS, row):
                want = mine[name]
                got = int(text, 0) if text not in ("", "True", "False") else \
                    {"": None, "True": 1, "False": 0}[text]
                assert got == want, f"packet {i + 1}: {name} = {text}, sent {want}"
            # what the sender was told to send, and the stream's format
            assert mine["rtp.p_type"] == PT and mine["rtp.ssrc"] == SSRC
            assert (mine["st2022_6.ext"], mine["st2022_6.f"],
                    mine["st2022_6.vsid"], mine["st2022_6.r"],
                    mine["st2022_6.s"], mine["st2022_6.fec"],
                    mine["st2022_6.cf"], mine["st2022_6.map"],
                    mine["st2022_6.frame"], mine["st2022_6.frate"],
                    mine["st2022_6.sample"], mine["st2022_6.reserved"],
                    mine["st2022_6.reserved2"]) == \
                (0, 1, 0, 0, 0, 0, 3, 0, 0x30, 0x11, 1, 0, 0), mine
            assert mine["st2022_6.payload_length"] == 1376
        # each datagram's video timestamp counts the words of the frame's
        # raster before it (whole C/Y pairs: 1376 bytes = 1100.8 words per
        # datagram). The capture normally begins with the frame's first
        # datagram, but on a loaded machine it may miss the first few: the
        # offsets repeat every 5 datagrams (5 x 1100.8 = 5504 words), so
        # exactly one phase k0 (the first captured datagram's index, mod 5)
        # must explain every timestamp; datagrams are placed by sequence
        # number, so one the capture missed in between is no matter.
        def offset(k):
            words = -(-(k * 1376 * 8) // 10)
            return words + (words & 1)

        first = ours[0]["st2022_6.timestamp"]
        frame0 = [m for m in ours
                  if m["st2022_6.frcount"] == ours[0]["st2022_6.frcount"]]
        phases = [k0 for k0 in range(5)
                  if all((m["st2022_6.timestamp"] - first) & 0xFFFFFFFF ==
                         offset(k0 + ((m["rtp.seq"] - ours[0]["rtp.seq"])
                                      & 0xFFFF)) - offset(k0)
                         for m in frame0)]
        assert len(phases) == 1, \
            ("video timestamps fit no single datagram phase", phases,
             [(m["st2022_6.timestamp"] - first) & 0xFFFFFFFF
              for m in frame0[:8]])

        verbose = subprocess.run(
            ["tshark", "-X", f"lua_script:{LUA}", "-o", f"st2022_6.pt:{PT}",
             "-d", f"udp.port=={port},rtp", "-r", cap, "-c", "1", "-V"],
            check=True, capture_output=True, text=True).stdout
        for text in ("SMPTE ST 2022-6 (HBRMT)",
                     "F: Format fields valid (1)", "VSID: Primary stream (0)",
                     "R: Not locked (0)", "S: Not scrambled (0)",
                     "FEC: No FEC (0)", "CF: 148.5/1.001 MHz (3)",
                     "MAP: Direct sample structure (0)",
                     "FRAME: 1280x720 progressive (720p) (0x30)",
                     "FRATE: 59.94 fps (0x11)", "SAMPLE: 4:2:2 10-bit (0x1)",
                     f"Video timestamp: {first}", "[Payload length: 1376]"):
            assert text in verbose, f"'{text}' not in tshark -V:\n{verbose}"
        print(f"ok: {N} datagrams, every HBRMT field as sent")
    finally:
        # a failed sender must not leave dumpcap waiting for its datagrams
        if dump is not None and dump.poll() is None:
            dump.kill()
            dump.wait()
        subprocess.run(["ip", "netns", "del", ns])
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
