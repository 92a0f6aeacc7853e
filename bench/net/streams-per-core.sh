#!/usr/bin/env bash
# The thesis's full-pipeline figure: how many 1080-line streams one core
# takes in, converts to 8 bits and encodes with x264, for gst-vmi's
# `st2022src ! vmi10to8 ! x264enc` next to GStreamer's own
# `udpsrc ! rtpvrawdepay ! videoconvert ! x264enc`, measured in one run.
#
# One stream per process. The sender is pinned to CPU 0, the receiving
# pipeline (all its stages: one core is all a 2-CPU machine has left for
# them) to CPU 1. Every element that can spread over threads is held to
# one (vmi10to8 n-threads=1, videoconvert n-threads=1, x264enc threads=1),
# so the receiver's CPU time (user + system, GNU time) is one core's work.
# Streams per core = frames handled / (CPU seconds x frame rate): how many
# such streams that core would carry at real time. Two stages are reported:
#   ingest  receive + depacketize + 10 -> 8 bit 4:2:0 conversion
#   encode  the same, then x264enc (ultrafast, zerolatency)
# The frames: UYVP 1920x1080 at 29.97 fps, progressive (1080i59.94's raster,
# datagram count and packet rate; rtpvrawdepay refuses interlaced caps, and
# both paths must carry the same frames).
#
# Environment: FRAMES (default 300), REPEAT (default 2: the least CPU of
# REPEAT runs is kept), PORT (default 5700), VMI_BUILD.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
vmi_help "$@"
bench_tmp vmi-streams

FRAMES=${FRAMES:-300}
REPEAT=${REPEAT:-2}
PORT=${PORT:-5700}
X264="x264enc speed-preset=ultrafast tune=zerolatency threads=1 ! fakesink"

for tool in taskset x264enc; do
  if [ "$tool" = x264enc ]; then
    gst-inspect-1.0 x264enc >/dev/null 2>&1 && continue
  else
    command -v "$tool" >/dev/null && continue
  fi
  echo "streams-per-core: SKIP: $tool is missing (scripts/install-deps installs it)"
  exit 0
done
if [ "$(nproc)" -lt 2 ]; then
  echo "streams-per-core: SKIP: needs 2 CPUs (sender and receiver each pinned), have $(nproc)"
  exit 0
fi

# $1: receiver pipeline (ends after FRAMES frames), $2: sender pipeline.
# Prints the receiver's CPU seconds: the least of REPEAT runs.
recv_cpu () {
  local best="" i port=$3
  for i in $(seq "$REPEAT"); do
    ( /usr/bin/time -f "%U %S" -o "$TMP/rtime" taskset -c 1 timeout 180 \
        gst-launch-1.0 -q ${1//@PORT@/$port} >"$TMP/rout" 2>&1 ) &
    local rx=$!
    # the receiver binds before the sender starts; a sender's first frames
    # lost to a late bind would only delay the count
    sleep 0.5
    taskset -c 0 timeout 180 gst-launch-1.0 -q ${2//@PORT@/$port} \
      >"$TMP/sout" 2>&1 || true
    wait $rx || { echo "streams-per-core: receiver failed:" >&2;
      tail -5 "$TMP/rout" >&2; exit 1; }
    best=$(least_cpu "$TMP/rtime" "$best")
    port=$((port + 1))
  done
  echo "$best"
}
streams () { awk -v c="$1" -v n="$FRAMES" -v fn=$FPS_N -v fd=$FPS_D 'BEGIN { printf "%.2f", n / (c * fn / fd) }'; }
ms () { awk -v c="$1" -v n="$FRAMES" 'BEGIN { printf "%.2f", c * 1000 / n }'; }

# moving pictures (the bars scroll 8 pixels a frame), so the encoder works
# as on real content rather than on one frozen picture; the sender sends
# more than the receiver counts: a receiver that starts a little late or
# drops a frame for a busy encoder still reaches FRAMES
LIVE="videotestsrc is-live=true pattern=smpte horizontal-speed=8 num-buffers=$((FRAMES * 3)) ! $CAPS"
OURS_TX="$LIVE ! st2022sink host=127.0.0.1 port=@PORT@ stats-interval=0"
THEIRS_TX="$LIVE ! rtpvrawpay mtu=1400 ! udpsink host=127.0.0.1 port=@PORT@"
OURS_RX="st2022src port=@PORT@ buffer-size=67108864 num-buffers=$FRAMES stats-interval=0 ! vmi10to8 n-threads=1 ! video/x-raw,format=I420"
THEIRS_RX="udpsrc port=@PORT@ buffer-size=67108864 caps=$RTPCAPS ! rtpvrawdepay ! identity eos-after=$FRAMES ! videoconvert n-threads=1 ! video/x-raw,format=I420"

echo "streams-per-core: $FRAMES frames of 1920x1080 UYVP at 29.97 fps per run, least of $REPEAT runs, receiver pinned to CPU 1, sender to CPU 0; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
p=$PORT
for stage in ingest encode; do
  tail="! fakesink"
  [ $stage = encode ] && tail="! $X264"
  o=$(recv_cpu "$OURS_RX $tail" "$OURS_TX" $p); p=$((p + REPEAT))
  t=$(recv_cpu "$THEIRS_RX $tail" "$THEIRS_TX" $p); p=$((p + REPEAT))
  echo "$stage st2022src ! vmi10to8: $(ms "$o") ms CPU/frame, $(streams "$o") streams/core | udpsrc ! rtpvrawdepay ! videoconvert: $(ms "$t") ms CPU/frame, $(streams "$t") streams/core | ratio $(awk -v a="$(streams "$o")" -v b="$(streams "$t")" 'BEGIN { printf "%.2f", a / b }')x"
done
