#!/usr/bin/env bash
# CPU per frame of st2022sink / st2022src next to GStreamer's own raw-video
# RTP path (rtpvrawpay ! udpsink, udpsrc ! rtpvrawdepay) on the same UYVP
# 1080i59.94 frames, measured in one run; then the highest packet rate one
# receiving core takes without loss.
#
# Each pipeline runs in its own gst-launch-1.0 process; its CPU time
# (user + system, GNU time) divided by the frames it handled is the figure.
# A "baseline" process (same source, fakesink) is subtracted on the send
# side, so the numbers are the sending elements' own cost (plus the kernel's,
# which on loopback includes delivering to the receiving socket).
#
# Environment: FRAMES (default 90), PORT (default 5600), VMI_BUILD.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
DRAIN_PID=""
BENCH_CLEANUP='[ -n "$DRAIN_PID" ] && kill "$DRAIN_PID" 2>/dev/null || true'
. "$HERE/common.sh"
vmi_help "$@"
bench_tmp vmi-net-bench

FRAMES=${FRAMES:-150}
REPEAT=${REPEAT:-3}
PORT=${PORT:-5600}

# CPU seconds (user + sys) of one command: the least of REPEAT runs (the
# machine is shared; the least is the one the others disturbed least)
cpu () {
  local best="" i
  for i in $(seq "$REPEAT"); do
    /usr/bin/time -f "%U %S" -o "$TMP/time" "$@" >"$TMP/out" 2>&1 || {
      echo "net-bench: '$*' failed:" >&2; tail -5 "$TMP/out" >&2; exit 1; }
    best=$(least_cpu "$TMP/time" "$best")
  done
  echo "$best"
}
per_frame_ms () { awk -v c="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f", (c - b) * 1000 / n }'; }
ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "net-bench: $FRAMES frames of 1920x1080 UYVP at 29.97 fps (1080i59.94's rate and size), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# --- send side: as fast as possible into a socket nobody reads ----------
# (a bound socket, so the kernel drops instead of answering with ICMP)
python3 -c "import socket,time; s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.bind(('127.0.0.1',$PORT)); time.sleep(3600)" &
DRAIN_PID=$!
sleep 0.3
# imagefreeze takes its output frame rate from downstream, not from its
# input: without the caps filter after it the sink fixated its own first
# rate (1080p23.98, 5621 datagrams per frame, not the frames intended)
SRC="videotestsrc num-buffers=1 pattern=smpte ! $CAPS ! imagefreeze num-buffers=$FRAMES ! $CAPS"
base=$(cpu gst-launch-1.0 -q $SRC ! fakesink sync=false)
ours=$(cpu gst-launch-1.0 -q $SRC ! st2022sink pacing=none sync=false host=127.0.0.1 port=$PORT stats-interval=0)
theirs=$(cpu gst-launch-1.0 -q $SRC ! rtpvrawpay mtu=1400 ! udpsink sync=false host=127.0.0.1 port=$PORT)
# MSG_ZEROCOPY over loopback: the kernel copies at delivery anyway, so this
# is what zerocopy costs where it cannot help (a real NIC is where it pays)
zc=$(cpu gst-launch-1.0 -q $SRC ! st2022sink pacing=none sync=false zerocopy=true host=127.0.0.1 port=$PORT stats-interval=0)
kill "$DRAIN_PID"; DRAIN_PID=""
o=$(per_frame_ms "$ours" "$base" "$FRAMES")
t=$(per_frame_ms "$theirs" "$base" "$FRAMES")
z=$(per_frame_ms "$zc" "$base" "$FRAMES")
echo "send    st2022sink pacing=none: $o ms CPU/frame | rtpvrawpay ! udpsink: $t ms CPU/frame | ratio $(ratio "$o" "$t") (baseline source $(per_frame_ms "$base" 0 "$FRAMES") ms/frame subtracted)"
echo "send    st2022sink pacing=none zerocopy=true over loopback (copied at delivery): $z ms CPU/frame, $(ratio "$z" "$o")x of zerocopy=false"

# --- send side into a device: no loopback delivery ------------------------
# On loopback the sender's CPU time includes the kernel delivering every
# datagram to the receiving socket (for GSO sends: cutting them up again).
# An ifb device in a private network namespace drops what it is sent after
# the whole transmit path (qdisc, driver entry) and takes GSO messages
# whole, as a NIC with UDP segmentation offload does: this is what a sender
# costs in front of a real NIC, without the NIC. MSG_ZEROCOPY completes
# there without a copy (zerocopy-copied stays 0), so its real cost shows.
NS=vmi-bench-$$
if [ "$(id -u)" = 0 ] && ip netns add "$NS" 2>/dev/null; then
  BENCH_CLEANUP="$BENCH_CLEANUP; ip netns del $NS 2>/dev/null || true"
  if ip -n "$NS" link add ifb0 type ifb 2>/dev/null; then
    ip -n "$NS" link set ifb0 up
    ip -n "$NS" addr add 10.99.0.1/24 dev ifb0
    base=$(cpu ip netns exec "$NS" gst-launch-1.0 -q $SRC ! fakesink sync=false)
    ours=$(cpu ip netns exec "$NS" gst-launch-1.0 -q $SRC ! st2022sink pacing=none sync=false host=10.99.0.2 port=$PORT stats-interval=0)
    theirs=$(cpu ip netns exec "$NS" gst-launch-1.0 -q $SRC ! rtpvrawpay mtu=1400 ! udpsink sync=false host=10.99.0.2 port=$PORT)
    zc=$(cpu ip netns exec "$NS" gst-launch-1.0 -q $SRC ! st2022sink pacing=none sync=false zerocopy=true host=10.99.0.2 port=$PORT stats-interval=0)
    o=$(per_frame_ms "$ours" "$base" "$FRAMES")
    t=$(per_frame_ms "$theirs" "$base" "$FRAMES")
    z=$(per_frame_ms "$zc" "$base" "$FRAMES")
    echo "send    into a device (ifb): st2022sink pacing=none: $o ms CPU/frame | rtpvrawpay ! udpsink: $t ms CPU/frame | ratio $(ratio "$o" "$t")"
    echo "send    into a device (ifb): st2022sink zerocopy=true (not copied): $z ms CPU/frame, $(ratio "$z" "$o")x of zerocopy=false"
  else
    echo "send    into a device: SKIP: cannot create an ifb device (module missing)"
  fi
  ip netns del "$NS" 2>/dev/null || true
else
  echo "send    into a device: SKIP: needs root and network namespaces"
fi

# --- receive side: a sender paced at the real frame rate -----------------
recv_cpu () {
  # $1: receiver pipeline, $2: sender pipeline; prints receiver CPU seconds
  ( /usr/bin/time -f "%U %S" -o "$TMP/rtime" timeout 120 gst-launch-1.0 -q $1 \
      >"$TMP/rout" 2>&1 ) &
  local rx=$!
  sleep 0.5
  timeout 120 gst-launch-1.0 -q $2 >"$TMP/sout" 2>&1 || true
  wait $rx || { echo "net-bench: receiver failed:" >&2; tail -5 "$TMP/rout" >&2; exit 1; }
  awk '{ printf "%.3f", $1 + $2 }' "$TMP/rtime"
}
LIVE="videotestsrc num-buffers=1 pattern=smpte ! $CAPS ! imagefreeze is-live=true num-buffers=$((FRAMES + 45)) ! $CAPS"
ours=$(recv_cpu "st2022src port=$((PORT + 1)) num-buffers=$FRAMES ! fakesink" \
  "$LIVE ! st2022sink host=127.0.0.1 port=$((PORT + 1))")
theirs=$(recv_cpu "udpsrc port=$((PORT + 2)) buffer-size=67108864 caps=$RTPCAPS ! rtpvrawdepay ! identity eos-after=$FRAMES ! fakesink" \
  "$LIVE ! rtpvrawpay mtu=1400 ! udpsink host=127.0.0.1 port=$((PORT + 2))")
o=$(per_frame_ms "$ours" 0 "$FRAMES")
t=$(per_frame_ms "$theirs" 0 "$FRAMES")
echo "receive st2022src: $o ms CPU/frame | udpsrc ! rtpvrawdepay: $t ms CPU/frame | ratio $(ratio "$o" "$t")"

# --- highest packet rate one receiving core takes without loss ------------
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  for f in "720p50 1280 720 50/1 progressive 2699" \
           "1080i59.94 1920 1080 30000/1001 interleaved 4497" \
           "1080p50 1920 1080 50/1 progressive 5397" \
           "1080p59.94 1920 1080 60000/1001 progressive 4497"; do
    set -- $f
    C="video/x-raw,format=UYVP,width=$2,height=$3,framerate=$4,interlace-mode=$5"
    n=$((FRAMES))
    ( taskset -c 1 timeout 60 gst-launch-1.0 -m st2022src name=rx port=$((PORT + 3)) \
        num-buffers=$n ! fakesink >"$TMP/rate" 2>&1 ) &
    rx=$!
    sleep 0.5
    /usr/bin/time -f "%e" -o "$TMP/stime" taskset -c 0 timeout 60 gst-launch-1.0 -m -v \
      videotestsrc num-buffers=1 ! "$C" \
      ! imagefreeze is-live=true num-buffers=$n ! "$C" \
      ! st2022sink name=tx host=127.0.0.1 port=$((PORT + 3)) >"$TMP/srate" 2>&1 || true
    wait $rx || true
    st=$(grep "st2022-stats" "$TMP/rate" | tail -1 | sed -e 's/.*st2022-stats, //' -e 's/(guint64)//g')
    pk=$(echo "$st" | tr ',' '\n' | sed -n 's/^ *packets=//p')
    lost=$(echo "$st" | tr ',' '\n' | sed -n 's/^ *packets-lost=//p')
    late=$(grep "st2022-stats" "$TMP/srate" | tail -1 | tr ',' '\n' | sed -n 's/^ *frames-late=(guint64)//p' | tr -d ';')
    nominal=$(awk -v p="$6" -v f="$4" 'BEGIN { split(f, a, "/"); printf "%.0f", p * a[1] / a[2] }')
    achieved=$(awk -v p="$6" -v n="$n" -v e="$(cat "$TMP/stime")" 'BEGIN { printf "%.0f", p * n / e }')
    neg=$(sed -n 's/.*tx\.GstPad:sink: caps = //p' "$TMP/srate" | head -1)
    echo "rate    $1: negotiated ${neg:-?}"
    echo "rate    $1: nominal $nominal datagrams/s (sender achieved >= $achieved/s, frames-late ${late:-?}/$n) into one pinned receiving core: ${pk:-0} datagrams, packets-lost=${lost:-?}"
  done
fi
