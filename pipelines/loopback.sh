#!/usr/bin/env bash
# The main demo: a 1080i59.94 test pattern sent as SMPTE ST 2022-6 over
# loopback UDP (kernel sockets, software pacing), received, converted to
# 8-bit and encoded to H.264 in an MP4. Prints both ends' st2022-stats,
# what the elements warned about, and where the file is; exits non-zero
# when anything fails.
#
# Usage: pipelines/loopback.sh [OUTPUT.mp4]      (default: out/loopback.mp4)
# Environment (all optional):
#   FRAMES=150        frames to record (the sender sends 60 more, so a
#                     receiver that locks on late or drops one still ends)
#   PORT=5004         UDP port on 127.0.0.1
#   FORMAT=UYVP|v210  10-bit format fed to st2022sink
#   PRESET=ultrafast  x264enc speed-preset
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
#
# Sender and receiver run in one gst-launch pipeline (both branches live):
# st2022src binds its socket when the pipeline goes to PAUSED, and
# st2022sink sends nothing before PLAYING, so the receiver is always
# listening first. The receiving branch's sink has async=false: it cannot
# preroll before the sender sends, and the sender is only released once the
# whole pipeline is PLAYING. The receiver
# asks for a 64 MiB socket buffer (several frames), so a busy machine delays
# frames instead of losing datagrams; the queue lets x264enc run at its own
# pace without holding up reception. The colour bars are rendered once and
# repeated live by imagefreeze: rendering 10-bit 1080 bars costs ~16 ms a
# frame, half the frame period on this kind of machine. The queue before
# st2022sink gives its processing deadline the buffering the latency query
# asks for (without one, the sink warns "Pipeline construction is invalid,
# please add queues" and shortens its deadline).
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

OUTPUT=${1:-$VMI_ROOT/out/loopback.mp4}
FRAMES=${FRAMES:-150}
PORT=${PORT:-5004}
FORMAT=${FORMAT:-UYVP}
PRESET=${PRESET:-ultrafast}
EXTRA=60
mkdir -p "$(dirname "$OUTPUT")"
rm -f "$OUTPUT"
LOG=$(mktemp /tmp/vmi-loopback.XXXXXX)
trap 'rm -f "$LOG"' EXIT

# 8-bit conversion: vmi10to8 when the build has it, videoconvert otherwise
if gst-inspect-1.0 vmi10to8 >/dev/null 2>&1; then
  CONVERT="vmi10to8"
else
  CONVERT="videoconvert"
fi

CAPS="video/x-raw,format=$FORMAT,width=1920,height=1080,framerate=30000/1001,interlace-mode=interleaved"
echo "loopback: $FRAMES frames of 1080i59.94 $FORMAT -> st2022sink -> udp://127.0.0.1:$PORT -> st2022src -> $CONVERT -> x264enc -> $OUTPUT"

set +e
timeout 120 gst-launch-1.0 -e -m \
  st2022src name=rx address=127.0.0.1 port="$PORT" num-buffers="$FRAMES" \
  ! "$CONVERT" ! video/x-raw,format=I420 \
  ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 \
  ! x264enc speed-preset="$PRESET" tune=zerolatency bitrate=20000 \
  ! h264parse ! mp4mux ! filesink location="$OUTPUT" async=false \
  videotestsrc num-buffers=1 pattern=smpte ! "$CAPS" \
  ! imagefreeze is-live=true num-buffers=$((FRAMES + EXTRA)) ! queue \
  ! st2022sink name=tx host=127.0.0.1 port="$PORT" \
  >"$LOG" 2>&1
rc=$?
set -e

last_stats () {
  grep -E "from element \"$1\" \(element\): st2022-stats" "$LOG" | tail -n 1 |
    sed -e 's/.*st2022-stats, //' -e 's/(guint64)//g' -e 's/;$//' || true
}
field () {
  echo "$1" | tr ',' '\n' | sed -n "s/^ *$2=//p"
}

TX=$(last_stats tx)
RX=$(last_stats rx)
echo "sender   st2022-stats: ${TX:-none}"
echo "receiver st2022-stats: ${RX:-none}"

fail () {
  echo "loopback: FAILED: $*" >&2
  grep -E "ERROR|WARN|error" "$LOG" | head -n 20 >&2 || true
  exit 1
}

[ $rc -eq 0 ] || fail "gst-launch-1.0 exited with $rc"
[ -n "$RX" ] && [ -n "$TX" ] || fail "no st2022-stats from both ends"
[ "$(field "$RX" frames)" = "$FRAMES" ] ||
  fail "receiver output $(field "$RX" frames) frames, wanted $FRAMES"
[ -s "$OUTPUT" ] || fail "$OUTPUT is missing or empty"
lost=$(field "$RX" packets-lost)
corrupted=$(field "$RX" frames-corrupted)
if [ "$lost" != 0 ] || [ "$corrupted" != 0 ]; then
  echo "loopback: note: $lost datagrams lost, $corrupted frames concealed" \
    "(machine too busy?)"
fi
# the receiver's statistics when its EOS left (the first with all its
# frames pushed): what it dropped before that was dropped while recording
AT_EOS=$(grep -E 'from element "rx" \(element\): st2022-stats' "$LOG" |
  sed -e 's/.*st2022-stats, //' -e 's/(guint64)//g' -e 's/;$//' |
  while read -r l; do
    [ "$(field "$l" frames)" = "$FRAMES" ] && { echo "$l"; break; }
  done || true)
drop_rec=$(field "${AT_EOS:-$RX}" frames-dropped)
drop_all=$(field "$RX" frames-dropped)
echo "loopback: what the figures say:"
echo "  sender frames=$(field "$TX" frames): the $FRAMES to record and up to" \
  "$EXTRA more, so that a receiver that locks on late still reaches its count"
echo "  receiver frames=$(field "$RX" frames): frames pushed to the encoder" \
  "(num-buffers=$FRAMES, then EOS)"
echo "  receiver frames-dropped=$drop_all: $drop_rec while recording (the" \
  "encoder too slow: the receiver serves the newest frame), $((drop_all - drop_rec))" \
  "after its EOS (the sender's extra frames: nobody takes them, nothing lost)"
echo "  receiver packets-lost=$lost, frames-corrupted=$corrupted: datagrams that" \
  "never arrived, frames concealed (0 unless the machine is overloaded)"
# what the elements warned about and went on (for a user who is not root,
# a receive buffer capped by net.core.rmem_max: README.md): a warning can
# explain a figure above, and the log that holds it is gone at exit
WARNINGS=$(sed -n 's/^WARNING: from element [^ ]*:\([A-Za-z0-9_-]*\): /\1: /p' \
  "$LOG" | sort -u)
if [ -n "$WARNINGS" ]; then
  echo "loopback: the elements warned:"
  echo "$WARNINGS" | sed 's/^/  /'
fi
echo "loopback: wrote $OUTPUT ($(stat -c %s "$OUTPUT") bytes)"
