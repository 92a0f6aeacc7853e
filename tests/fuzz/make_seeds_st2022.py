#!/usr/bin/env python3
# gst-vmi: seed inputs for fuzz_st2022_depacketizer (see docs/st2022-6.md,
# "Fuzzing").  Usage: make_seeds_st2022.py tests/fuzz/corpus/st2022_depacketizer
#
# Input layout (see the fuzz target): byte 0 bit 0 = UYVP target, bit 4 =
# v210 target (when bit 0 is clear), bit 5 = a blanking buffer, bit 6 = a
# padded stride, bits 1-3 = decline every n-th frame start; byte 1 = reorder window - 1; byte 2
# unused; then records.  A structured record is 9 bytes: op (bits 0-2 != 0;
# bit 3 marker, bit 4 SSRC, bit 5 no video timestamp, bits 6-7 == 3: flip a
# header bit), format index, seq (big endian), FRCount, RTP ts, VTS (2 B),
# flip byte.  Whole frames need large inputs: run with -max_len=65536.
import os
import sys

FMT_720P60 = 13  # index in the core's format table
N_720P = 2249    # datagrams per 720p60 frame
FMT_720P25 = 14        # 750 x 3960
N_720P25 = 5397
FMT_1080PSF2997 = 20   # FRAME 0x22, the interlaced raster
N_1080PSF2997 = 4497
FMT_2048P24 = 23       # FRAME 0x23, 2048 active samples
N_2048P24 = 5621
FMT_525I = 34          # SD: 4-word EAV/SAV, no LN/CRC
N_525I = 819
FMT_625I = 35
N_625I = 982
FMT_720P2398 = 36      # 4125 samples: lines of 10,312.5 bytes
FMT_720P24 = 37
N_720P24 = 5621


def stream(fidx, n, frames, seq0, fr0, drop=(), flags=0):
    out = bytearray([flags, 31, 0])
    seq = seq0
    for f in range(frames):
        for i in range(n):
            op = 1 | ((i == n - 1) << 3)
            if (f, i) not in drop:
                out += bytes([op, fidx, (seq >> 8) & 255, seq & 255,
                              (fr0 + f) & 255, f & 255, 0, 0, 0])
            seq = (seq + 1) & 0xffff
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_seeds.py OUTDIR")
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    seeds = {
        # two whole frames, sequence number wrapping inside the first
        "720p_2frames": stream(FMT_720P60, N_720P, 2, 65000, 250),
        # joining mid-frame
        "720p_mid": stream(FMT_720P60, N_720P, 3, 100, 1)[3 + 9 * 1000:],
        # loss of a datagram and of a marker, UYVP target
        "720p_loss_uyvp": stream(FMT_720P60, N_720P, 2, 5, 7,
                                 drop={(0, 5), (1, N_720P - 1)}, flags=1),
        # a short start: the hunt for a frame start
        "720p_start": stream(FMT_720P60, N_720P, 1, 0, 0)[:3 + 9 * 100],
        # the other HD rasters: a PsF frame into UYVP, 2048 samples with
        # a lost datagram, 720p25's wide blanking joined mid-frame
        "1080psf2997_frame_uyvp": stream(FMT_1080PSF2997, N_1080PSF2997, 1,
                                         300, 9, flags=1),
        "2048p24_loss": stream(FMT_2048P24, N_2048P24, 1, 65500, 0,
                               drop={(0, 1000)}),
        "720p25_mid": stream(FMT_720P25, N_720P25, 2, 7, 3)[3 + 9 * 5000:],
        # v210 (flags bit 4): a whole frame; with loss, a blanking buffer
        # (bit 5) and a padded stride (bit 6); short starts of each kind
        "720p_frame_v210": stream(FMT_720P60, N_720P, 1, 40, 2, flags=0x10),
        "720p_loss_v210_blank_pad": stream(FMT_720P60, N_720P, 2, 65530, 4,
                                           drop={(0, 7), (0, 8), (1, 100)},
                                           flags=0x70),
        "720p_start_v210": stream(FMT_720P60, N_720P, 1, 0, 0,
                                  flags=0x10)[:3 + 9 * 300],
        "720p_start_uyvp_blank_pad": stream(FMT_720P60, N_720P, 1, 0, 0,
                                            flags=0x61)[:3 + 9 * 300],
        "2048p24_v210_start": stream(FMT_2048P24, N_2048P24, 1, 9, 0,
                                     flags=0x50)[:3 + 9 * 400],
        # SD: two 525 frames wrapping the sequence number, 625 with loss
        "525i_2frames_uyvp": stream(FMT_525I, N_525I, 2, 65300, 1, flags=1),
        "625i_loss": stream(FMT_625I, N_625I, 2, 9, 0,
                            drop={(0, 3), (1, N_625I - 1)}),
        "525i_v210_blank": stream(FMT_525I, N_525I, 1, 3, 0, flags=0x30),
        # lines not whole bytes: the wire layout assembled and converted
        # at frame end (raster, UYVP with loss, v210 with a blanking
        # buffer, joined mid-frame)
        "720p24_raster": stream(FMT_720P24, N_720P24, 1, 65000, 0),
        "720p24_loss_uyvp": stream(FMT_720P24, N_720P24, 2, 11, 5,
                                   drop={(0, 2605), (1, N_720P24 - 1)},
                                   flags=1),
        "720p2398_v210_blank_mid": stream(FMT_720P2398, N_720P24, 2, 3, 1,
                                          flags=0x30)[3 + 9 * 4000:],
    }
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
