#!/usr/bin/env bash
# Receives an ST 2022-6 stream with embedded audio and timecode (e.g. from
# pipelines/send-anc.sh) and records picture (H.264), sound (PCM, all the
# embedded channels) and timecode (a QuickTime timecode track, from the
# GstVideoTimeCodeMeta st2022src attaches) into one .mov file.
#
# Usage: pipelines/receive-anc.sh [OUT.mov] [PORT]   (default out/anc.mov 5004)
# Environment (all optional):
#   FRAMES=300        frames to record
#   CLOCK=tai         st2022src clock-source: tai (or ptp) stamps each frame
#                     with the sender's time (its RTP timestamp), which a
#                     sender on the same clock (send-anc.sh, CLOCK=tai; a
#                     PTP facility: ptp) gives; pipeline: arrival times
#   PRESET=ultrafast  x264enc speed-preset
#                     (on a host whose clock PTP does not discipline, tai
#                     warns that the kernel's TAI offset is 0: frames are
#                     not on the true SMPTE epoch, which a recording on
#                     this host does not need)
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
#
# A slow or busy machine must not cost sync. With CLOCK=tai a frame that
# arrives late keeps its place in time (its PTS is the sender's RTP
# timestamp, not its arrival), and the audio, counted in samples from the
# first frame with silence where frames went missing, stays under the
# picture it came with; with arrival times a starved receive thread
# stretches the video and the two drift apart. x264enc's ultrafast preset
# (4:2:0: Constrained Baseline, Main when interlaced; PRESET=superfast or
# slower: High) costs about 6 ms of CPU per 720p frame, a third of a core
# at 50 fps. The queue
# before it has no limit: with a limit, a queue that filled while the
# encoder lagged held Ctrl-C's EOS behind qtmux, which waited for it, and
# the recorder hung with an unfinished file (seen on 1080i59.94 on a busy
# machine); without one, a lagging encoder costs memory (3 MB a 1080 frame)
# until it catches up. Frames st2022src cannot hand on are dropped and
# counted in the st2022-stats printed at the end (frames-dropped, their
# audio as silence: audio-gap-samples).
#
# On a machine shared with other work, give the recorder real-time
# priority (root, or an rtprio limit):  chrt -f 5 pipelines/receive-anc.sh
# Measured (tests/examples/test-av-record.py: 720p50 + stereo, 10 s, a
# busy loop pinned to each of 2 cores, load average ~15 from other jobs):
# under chrt -f 5, 500 of 500 frames, no datagram lost, latency 1.4 ms mean
# / 18 ms max, every frame's audio under it; under nice -n -10 the kernel
# dropped 12889 to 276782 datagrams (4 to 94 frames dropped, latency up to
# 2 s).
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

OUT=${1:-out/anc.mov}
PORT=${2:-5004}
FRAMES=${FRAMES:-300}
CLOCK=${CLOCK:-tai}
PRESET=${PRESET:-ultrafast}
mkdir -p "$(dirname "$OUT")"

echo "receive-anc: udp port $PORT -> $OUT ($FRAMES frames, clock-source=$CLOCK)"
gst-launch-1.0 -e -m \
  st2022src port="$PORT" num-buffers="$FRAMES" clock-source="$CLOCK" name=src \
  ! vmi10to8 ! video/x-raw,format=I420 \
  ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 \
  ! x264enc speed-preset="$PRESET" tune=zerolatency \
  ! h264parse \
  ! queue ! qtmux name=mux ! filesink location="$OUT" \
  src.audio ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 \
  ! audioconvert ! mux. \
  | grep --line-buffered -E "st2022-stats|ERROR|WARNING|EOS"
