#!/usr/bin/env bash
# 10-bit 4:2:2 test frames -> vmi10to8 -> x264enc -> MP4, with no other
# converter in between (x264enc takes vmi10to8's I420 or Y42B directly).
#
# Usage: pipelines/convert-x264.sh [OUTPUT.mp4]        (default: convert-x264.mp4)
# Environment (all optional):
#   FORMAT=I420|Y42B   8-bit format for x264enc: I420 (4:2:0, plays anywhere,
#                      default) or Y42B (4:2:2, High 4:2:2 profile)
#   INPUT=UYVP|v210    10-bit format fed to vmi10to8 (default UYVP, the SDI
#                      active line as st2022src outputs it)
#   WIDTH=1920 HEIGHT=1080 FRAMERATE=30000/1001 NUM_BUFFERS=300
#   ROUNDING=truncate|nearest   PRESET=veryfast (x264enc speed-preset)
#   VMI_BUILD=...      build directory holding the plugin (default: build/)
# A live stream instead of test frames:
#   gst-launch-1.0 st2022src port=5004 ! vmi10to8 ! video/x-raw,format=Y42B ! \
#     x264enc ! mp4mux ! filesink location=out.mp4 -e
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

OUTPUT=${1:-convert-x264.mp4}
FORMAT=${FORMAT:-I420}
INPUT=${INPUT:-UYVP}
WIDTH=${WIDTH:-1920}
HEIGHT=${HEIGHT:-1080}
FRAMERATE=${FRAMERATE:-30000/1001}
NUM_BUFFERS=${NUM_BUFFERS:-300}
ROUNDING=${ROUNDING:-truncate}
PRESET=${PRESET:-veryfast}

if ! gst-inspect-1.0 vmi10to8 >/dev/null 2>&1; then
  echo "convert-x264: vmi10to8 not found in $VMI_BUILD/gst;" \
    "build first (meson setup $VMI_BUILD && meson compile -C $VMI_BUILD)" \
    "or set VMI_BUILD" >&2
  exit 1
fi

# -e: EOS on Ctrl-C so mp4mux writes a playable file
exec gst-launch-1.0 -e \
  videotestsrc num-buffers="$NUM_BUFFERS" pattern=smpte \
  ! "video/x-raw,format=$INPUT,width=$WIDTH,height=$HEIGHT,framerate=$FRAMERATE" \
  ! vmi10to8 rounding="$ROUNDING" \
  ! "video/x-raw,format=$FORMAT" \
  ! x264enc speed-preset="$PRESET" \
  ! mp4mux \
  ! filesink location="$OUTPUT"
