#!/usr/bin/env bash
# Sends a live test pattern with timecode and embedded audio as SMPTE ST
# 2022-6: videotestsrc ! timecodestamper ! st2022sink, audiotestsrc into the
# sink's `audio` pad (ST 299-1), ST 352 payload ID and ST 12-2 ATC in the
# blanking (docs/ancillary.md).
#
# Usage: pipelines/send-anc.sh [HOST] [PORT]   (default 127.0.0.1 5004)
# Environment (all optional):
#   FORMAT=1080i59.94|1080i50|720p59.94|720p50   (default 1080i59.94)
#   CHANNELS=2        audio channels (1-16)
#   NUM_BUFFERS=-1    frames to send (-1: until Ctrl-C)
#   CLOCK=tai         st2022sink clock-source: tai stamps frames on the SMPTE
#                     epoch, so receive-anc.sh (CLOCK=tai) keeps the
#                     sender's time (ptp on a PTP network; pipeline: none)
#                     (without PTP, tai warns that the kernel's TAI offset
#                     is 0: receive-anc.sh on the same clock is unaffected)
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

HOST=${1:-127.0.0.1}
PORT=${2:-5004}
FORMAT=${FORMAT:-1080i59.94}
CHANNELS=${CHANNELS:-2}
NUM_BUFFERS=${NUM_BUFFERS:--1}
CLOCK=${CLOCK:-tai}

case "$FORMAT" in
  1080i59.94) GEOM="width=1920,height=1080,framerate=30000/1001,interlace-mode=interleaved" ;;
  1080i50)    GEOM="width=1920,height=1080,framerate=25/1,interlace-mode=interleaved" ;;
  720p59.94)  GEOM="width=1280,height=720,framerate=60000/1001" ;;
  720p50)     GEOM="width=1280,height=720,framerate=50/1" ;;
  *) echo "send-anc: unknown FORMAT '$FORMAT'" >&2; exit 2 ;;
esac
MASK=""
[ "$CHANNELS" -gt 2 ] && MASK=",channel-mask=(bitmask)0"

echo "send-anc: $FORMAT + $CHANNELS audio channels + timecode -> udp://$HOST:$PORT"
exec gst-launch-1.0 -e -m \
  videotestsrc is-live=true num-buffers="$NUM_BUFFERS" \
  ! "video/x-raw,format=UYVP,$GEOM" ! timecodestamper \
  ! st2022sink name=sink host="$HOST" port="$PORT" clock-source="$CLOCK" \
  audiotestsrc is-live=true wave=sine freq=1000 \
  ! "audio/x-raw,format=S32LE,rate=48000,channels=$CHANNELS$MASK" \
  ! queue ! sink.audio \
  | grep --line-buffered -E "st2022-stats|ERROR|WARNING|EOS"
