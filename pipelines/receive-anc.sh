#!/usr/bin/env bash
# Receives an ST 2022-6 stream with embedded audio and timecode (e.g. from
# pipelines/send-anc.sh) and records picture (H.264), sound (PCM, all the
# embedded channels) and timecode (a QuickTime timecode track, from the
# GstVideoTimeCodeMeta st2022src attaches) into one .mov file.
#
# Usage: pipelines/receive-anc.sh [OUT.mov] [PORT]   (default out/anc.mov 5004)
# Environment (all optional):
#   FRAMES=300        frames to record
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_gst_env

OUT=${1:-out/anc.mov}
PORT=${2:-5004}
FRAMES=${FRAMES:-300}
mkdir -p "$(dirname "$OUT")"

echo "receive-anc: udp port $PORT -> $OUT ($FRAMES frames)"
gst-launch-1.0 -e -m \
  st2022src port="$PORT" num-buffers="$FRAMES" name=src \
  ! queue ! vmi10to8 ! video/x-raw,format=I420 ! x264enc tune=zerolatency \
  ! video/x-h264,profile=high ! h264parse \
  ! queue ! qtmux name=mux ! filesink location="$OUT" \
  src.audio ! queue ! audioconvert ! mux. \
  | grep --line-buffered -E "st2022-stats|ERROR|WARNING|EOS"
