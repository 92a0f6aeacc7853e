#!/usr/bin/env bash
# Standard definition over ST 2022-6: a 525i59.94 (or 625i50) 10-bit test
# pattern sent by st2022sink over loopback UDP and received by st2022src,
# which rebuilds 720x486 (720x576) interlaced pictures, BT.601, 4:3 pixels,
# from the 1716 (1728) words of each SDI line. Prints both ends'
# st2022-stats; exits non-zero when anything fails.
#
# Usage: pipelines/sd-loopback.sh
# Environment (all optional):
#   FORMAT=525i59.94|625i50   (default 525i59.94)
#   PIXELS=UYVP|v210          10-bit format fed to st2022sink
#   FRAMES=100                frames to receive (the sender sends 30 more)
#   PORT=5004                 UDP port on 127.0.0.1
#   VMI_BUILD=...             build directory holding the plugin
#
# 525 lines: field 2 (line 283) is the top row, so the caps say
# field-order=bottom-field-first; 625 lines are top field first.
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

FORMAT=${FORMAT:-525i59.94}
PIXELS=${PIXELS:-UYVP}
FRAMES=${FRAMES:-100}
PORT=${PORT:-5004}
EXTRA=30

case "$FORMAT" in
  525i59.94) GEOM="width=720,height=486,framerate=30000/1001,interlace-mode=interleaved,field-order=bottom-field-first,pixel-aspect-ratio=10/11,colorimetry=bt601" ;;
  625i50)    GEOM="width=720,height=576,framerate=25/1,interlace-mode=interleaved,field-order=top-field-first,pixel-aspect-ratio=12/11,colorimetry=bt601" ;;
  *) echo "sd-loopback: unknown FORMAT '$FORMAT'" >&2; exit 2 ;;
esac

echo "sd-loopback: $FRAMES frames of $FORMAT $PIXELS -> st2022sink -> udp://127.0.0.1:$PORT -> st2022src"
LOG=$(mktemp /tmp/vmi-sd-loopback.XXXXXX)
trap 'rm -f "$LOG"' EXIT

# Both branches in one pipeline: st2022src binds at PAUSED, the sink sends
# from PLAYING, so the receiver listens first (see loopback.sh).
set +e
timeout 60 gst-launch-1.0 -e -m \
  st2022src name=rx address=127.0.0.1 port="$PORT" num-buffers="$FRAMES" \
  ! "video/x-raw,format=$PIXELS" ! fakesink sync=false async=false \
  videotestsrc is-live=true pattern=smpte num-buffers=$((FRAMES + EXTRA)) \
  ! "video/x-raw,format=$PIXELS,$GEOM" \
  ! st2022sink name=tx host=127.0.0.1 port="$PORT" pacing=software \
  > "$LOG" 2>&1
rc=$?
set -e
grep -E "st2022-stats|ERROR|WARNING" "$LOG" | tail -n 4
if [ $rc -ne 0 ] || grep -q "ERROR" "$LOG"; then
  echo "sd-loopback: FAILED (exit $rc)" >&2
  exit 1
fi
echo "sd-loopback: ok"
