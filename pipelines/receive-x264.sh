#!/usr/bin/env bash
# Receives an ST 2022-6 stream and records it as H.264 in an MP4
# (st2022src -> vmi10to8 -> x264enc), then prints the receiver's final
# st2022-stats.
#
# Usage: pipelines/receive-x264.sh [OUTPUT.mp4] [PORT] [ADDRESS]
#        (default out/receive.mp4 5004 0.0.0.0)
# Environment (all optional):
#   FRAMES=300        frames to record (st2022src num-buffers)
#   IFACE=eth0 SOURCE=10.0.0.1   multicast interface / SSM source
#   PRESET=veryfast   x264enc speed-preset
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

OUTPUT=${1:-$VMI_ROOT/out/receive.mp4}
PORT=${2:-5004}
ADDRESS=${3:-0.0.0.0}
FRAMES=${FRAMES:-300}
PRESET=${PRESET:-veryfast}
OPTS=()
[ -n "${IFACE:-}" ] && OPTS+=("multicast-iface=$IFACE")
[ -n "${SOURCE:-}" ] && OPTS+=("source-address=$SOURCE")
mkdir -p "$(dirname "$OUTPUT")"

echo "receive-x264: udp://$ADDRESS:$PORT, $FRAMES frames -> $OUTPUT"
gst-launch-1.0 -e -m \
  st2022src name=rx address="$ADDRESS" port="$PORT" num-buffers="$FRAMES" "${OPTS[@]}" \
  ! vmi10to8 ! video/x-raw,format=I420 \
  ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 \
  ! x264enc speed-preset="$PRESET" ! h264parse ! mp4mux \
  ! filesink location="$OUTPUT" \
  | grep --line-buffered -E "st2022-stats|ERROR|WARNING"
echo "receive-x264: wrote $OUTPUT"
