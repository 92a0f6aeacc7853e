#!/usr/bin/env bash
# Sends a live 10-bit test pattern as SMPTE ST 2022-6 until interrupted,
# printing the sender's st2022-stats every second.
#
# Usage: pipelines/send-testsrc.sh [HOST] [PORT]   (default 127.0.0.1 5004)
# Environment (all optional):
#   FORMAT=1080i59.94|1080i50|720p59.94|720p50|1080p25|...  (default 1080i59.94)
#   PIXELS=UYVP|v210   PATTERN=smpte (videotestsrc pattern)
#   PACING=software|none   IFACE=eth0 (multicast-iface)   TTL=1
#   NUM_BUFFERS=-1     frames to send (-1: until Ctrl-C)
#   VMI_BUILD=...      build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

HOST=${1:-127.0.0.1}
PORT=${2:-5004}
FORMAT=${FORMAT:-1080i59.94}
PIXELS=${PIXELS:-UYVP}
PATTERN=${PATTERN:-smpte}
PACING=${PACING:-software}
TTL=${TTL:-1}
NUM_BUFFERS=${NUM_BUFFERS:--1}

case "$FORMAT" in
  1080i59.94) GEOM="width=1920,height=1080,framerate=30000/1001,interlace-mode=interleaved" ;;
  1080i60)    GEOM="width=1920,height=1080,framerate=30/1,interlace-mode=interleaved" ;;
  1080i50)    GEOM="width=1920,height=1080,framerate=25/1,interlace-mode=interleaved" ;;
  1080p23.98) GEOM="width=1920,height=1080,framerate=24000/1001" ;;
  1080p24)    GEOM="width=1920,height=1080,framerate=24/1" ;;
  1080p25)    GEOM="width=1920,height=1080,framerate=25/1" ;;
  1080p29.97) GEOM="width=1920,height=1080,framerate=30000/1001" ;;
  1080p30)    GEOM="width=1920,height=1080,framerate=30/1" ;;
  1080p50)    GEOM="width=1920,height=1080,framerate=50/1" ;;
  1080p59.94) GEOM="width=1920,height=1080,framerate=60000/1001" ;;
  1080p60)    GEOM="width=1920,height=1080,framerate=60/1" ;;
  720p50)     GEOM="width=1280,height=720,framerate=50/1" ;;
  720p59.94)  GEOM="width=1280,height=720,framerate=60000/1001" ;;
  720p60)     GEOM="width=1280,height=720,framerate=60/1" ;;
  *) echo "send-testsrc: unknown FORMAT '$FORMAT'" >&2; exit 2 ;;
esac

MCAST=""
[ -n "${IFACE:-}" ] && MCAST="multicast-iface=$IFACE"

echo "send-testsrc: $FORMAT $PIXELS -> udp://$HOST:$PORT (pacing=$PACING)"
exec gst-launch-1.0 -e -m \
  videotestsrc is-live=true pattern="$PATTERN" num-buffers="$NUM_BUFFERS" \
  ! "video/x-raw,format=$PIXELS,$GEOM" \
  ! st2022sink host="$HOST" port="$PORT" pacing="$PACING" ttl-mc="$TTL" $MCAST \
  | grep --line-buffered -E "st2022-stats|ERROR|WARNING|EOS"
