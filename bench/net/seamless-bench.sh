#!/usr/bin/env bash
# ST 2022-7: receive CPU per frame of st2022src with two paths (both copies
# of every datagram received, merged) next to one path, on loopback
# sockets, the sender (st2022sink, software pacing) at 1080i59.94's rate.
# The figure is the receiving process's CPU time (user + system, GNU time)
# over the frames it pushed, the least of REPEAT runs (the machine is
# shared).
#
# Environment: FRAMES (default 150), REPEAT (default 3), PORT (default
# 5700), VMI_BUILD.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
vmi_help "$@"
bench_tmp vmi-seamless-bench

FRAMES=${FRAMES:-150}
REPEAT=${REPEAT:-3}
PORT=${PORT:-5700}

# $1: receiver pipeline, $2: sender pipeline; prints the receiver's CPU
# seconds, the least of REPEAT runs
recv_cpu () {
  local best="" i
  for i in $(seq "$REPEAT"); do
    ( /usr/bin/time -f "%U %S" -o "$TMP/rtime" timeout 120 gst-launch-1.0 -q $1 \
        >"$TMP/rout" 2>&1 ) &
    local rx=$!
    sleep 0.5
    timeout 120 gst-launch-1.0 -q $2 >"$TMP/sout" 2>&1 || true
    wait $rx || { echo "seamless-bench: receiver failed:" >&2; tail -5 "$TMP/rout" >&2; exit 1; }
    best=$(least_cpu "$TMP/rtime" "$best")
  done
  echo "$best"
}
per_frame_ms () { awk -v c="$1" -v n="$2" 'BEGIN { printf "%.2f", c * 1000 / n }'; }

echo "seamless-bench: $FRAMES frames of 1920x1080 UYVP at 29.97 fps (4497 datagrams a frame), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
LIVE="videotestsrc num-buffers=1 pattern=smpte ! $CAPS ! imagefreeze is-live=true num-buffers=$((FRAMES + 45))"
one=$(recv_cpu "st2022src port=$PORT num-buffers=$FRAMES ! fakesink" \
  "$LIVE ! st2022sink host=127.0.0.1 port=$PORT")
two=$(recv_cpu "st2022src port=$PORT secondary-address=127.0.0.1 secondary-port=$((PORT + 2)) num-buffers=$FRAMES ! fakesink" \
  "$LIVE ! st2022sink host=127.0.0.1 port=$PORT secondary-host=127.0.0.1 secondary-port=$((PORT + 2))")
o=$(per_frame_ms "$one" "$FRAMES")
t=$(per_frame_ms "$two" "$FRAMES")
echo "receive st2022src one path: $o ms CPU/frame | two paths: $t ms CPU/frame | ratio $(awk -v a="$t" -v b="$o" 'BEGIN { printf "%.2f", a / b }') (target <= 1.3)"
