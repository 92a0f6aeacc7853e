#!/usr/bin/env bash
# Achieved inter-packet timing of st2022sink on loopback: pacing=software
# next to pacing=none, 1080i59.94, each captured with kernel receive
# timestamps (vmi-net-capture) and analysed by tools/vmi-analyze.
# Environment: FRAMES (default 60), PORT (default 5700), VMI_BUILD,
# VMI_NET_CAPTURE (path of the capture tool).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
vmi_help "$@"
bench_tmp vmi-net-pacing

FRAMES=${FRAMES:-90}
PORT=${PORT:-5700}
CAPTURE=${VMI_NET_CAPTURE:-$VMI_BUILD/bench/net/vmi-net-capture}
ANALYZE=$VMI_BUILD/tools/vmi-analyze
CAPS="video/x-raw,format=UYVP,width=1920,height=1080,framerate=30000/1001,interlace-mode=interleaved"

echo "net-pacing: $FRAMES frames of 1080i59.94 (4497 datagrams/frame, nominal 134775/s) on loopback, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for pacing in software none; do
  # the first 15 frames are start-up, not steady state: not analysed
  "$CAPTURE" "$PORT" $(( (FRAMES - 20) * 4497 )) "$TMP/$pacing.pcap" 60 $((15 * 4497)) \
    >"$TMP/cap.out" 2>"$TMP/cap.err" &
  cap=$!
  while ! grep -q capturing "$TMP/cap.out" 2>/dev/null; do sleep 0.05; done
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! "$CAPS" \
    ! imagefreeze is-live=true num-buffers=$((FRAMES + 10)) \
    ! st2022sink host=127.0.0.1 port="$PORT" pacing="$pacing" >/dev/null 2>&1 &
  snd=$!
  wait $cap || { echo "net-pacing: capture incomplete: $(cat "$TMP/cap.err")" >&2; }
  wait $snd || true
  echo "--- pacing=$pacing"
  if [ -x "$ANALYZE" ]; then
    "$ANALYZE" -f 1080i59.94 "$TMP/$pacing.pcap" || true
  else
    echo "(tools/vmi-analyze not built: capture kept only)"
  fi
done
