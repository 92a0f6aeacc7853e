#!/usr/bin/env python3
# Seeds for tests/fuzz/fuzz-anc.c: byte 0 = format index, then packed
# 10-bit words (C/Y interleaved) as they start a line's HANC.
import os

def word(v):
    p = bin(v).count('1') & 1
    return v | p << 8 | (p ^ 1) << 9

def packet(did, sdid, data):
    w = [0x000, 0x3ff, 0x3ff, word(did), word(sdid), word(len(data))]
    w += [word(b) for b in data]
    s = sum(x & 0x1ff for x in w[3:]) & 0x1ff
    w.append(s | (0 if s & 0x100 else 0x200))
    return w

def interleave(y=None, c=None, n=None):
    y = y or []
    c = c or []
    n = n or max(len(y), len(c)) + 4
    n += (-n) % 2
    out = []
    for i in range(n):
        out.append(c[i] if i < len(c) else 0x200)
        out.append(y[i] if i < len(y) else 0x040)
    out += [0x200, 0x040] * ((-len(out)) % 4 // 2)
    return out

def pack(words):
    bits = ''.join(format(w, '010b') for w in words)
    bits += '0' * ((-len(bits)) % 8)
    return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))

def aes(sample, ch, z=0):
    """ST 272: one AES3 subframe (20 audio bits) in 3 words"""
    a = sample & 0xfffff
    w0 = z | ch << 1 | (a & 0x3f) << 3
    w1 = (a >> 6) & 0x1ff
    w2 = (a >> 15) & 0x1f
    p = (bin(w0).count('1') + bin(w1).count('1') + bin(w2).count('1')) & 1
    w2 |= p << 8
    return [x | (0 if x & 0x100 else 0x200) for x in (w0, w1, w2)]

def sd_audio_lines():
    """525i (format 34): ST 272 packets at the HANC start (word 4) of lines
    2-5, data block numbers 1, 2, 4, 5 (packet 3 lost); the input lands at
    byte 20 of the raster (word 16), a 525 line is 1716 words"""
    out = [0] * (1716 + 4 - 16)
    for line, dbn in enumerate((1, 2, 4, 5)):
        udw = []
        for s in range(4):
            udw += aes(0x12345 + s + 4 * line, 0, int(line == 0 and s == 0))
            udw += aes(0x54321 - s, 1)
        pk = packet(0xff, dbn, [])[:5] + [word(len(udw))] + udw
        cs = sum(x & 0x1ff for x in pk[3:]) & 0x1ff
        pk.append(cs | (0 if cs & 0x100 else 0x200))
        out += pk + [0x200, 0x040] * ((1716 - len(pk)) // 2)
    # the target gives the receiver a frame's expected sample count (the
    # loss path) when the input after byte 0 is a multiple of 3 bytes
    while len(pack(out)) % 3:
        out += [0x200, 0x040, 0x200, 0x040]
    return out

here = os.path.dirname(os.path.abspath(__file__))
seeds = {
    'st352': (0, interleave(y=packet(0x41, 0x01, [0x85, 0x06, 0x00, 0x01]))),
    'atc': (11, interleave(y=packet(0x60, 0x60, [0x90, 0x08, 0x20, 0, 0x60,
                                                 0, 0x50, 0, 0x40, 0, 0x30,
                                                 0, 0x20, 0, 0x10, 0]))),
    'audio': (0, interleave(c=packet(0xe7, 1, list(range(24))) * 2)),
    'control': (0, interleave(y=packet(0xe3, 1, [1, 0, 3] + [0] * 8))),
    'sd_audio': (34, sd_audio_lines()),
    'cdp': (12, interleave(y=packet(0x61, 0x01, [0x96, 0x69, 13, 0x4f, 0x43,
                                                 0, 1, 0x72, 0xe0, 0x74, 0,
                                                 1, 0x4a]))),
}
for name, (fmt, words) in seeds.items():
    with open(os.path.join(here, name), 'wb') as f:
        f.write(bytes([fmt]) + pack(words))
