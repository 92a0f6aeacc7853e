# Shared set-up of the bench/net scripts (sourced, not run): the build's
# GStreamer environment, a temporary directory removed on exit, the frames
# both paths carry, and the "least CPU of several runs" rule.
# shellcheck shell=bash

. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
vmi_gst_env

# $1: name for the temporary directory; sets TMP. BENCH_CLEANUP (a
# command) runs before the directory goes, for the caller's own helpers.
BENCH_CLEANUP=${BENCH_CLEANUP:-true}
bench_tmp () {
  TMP=$(mktemp -d "/tmp/$1.XXXXXX")
  trap 'eval "$BENCH_CLEANUP"; rm -rf "$TMP"' EXIT
}

# 1080p29.97 UYVP: the raster, datagram count (4497) and packet rate of
# 1080i59.94, but progressive, because rtpvrawdepay refuses interlaced caps
# ("interlaced formats not supported yet") and both paths must carry the
# same frames. RTPCAPS: what udpsrc must be told for rtpvrawdepay.
FPS_N=30000
FPS_D=1001
CAPS="video/x-raw,format=UYVP,width=1920,height=1080,framerate=$FPS_N/$FPS_D,interlace-mode=progressive"
RTPCAPS="application/x-rtp,media=(string)video,clock-rate=(int)90000,encoding-name=(string)RAW,sampling=(string)YCbCr-4:2:2,depth=(string)10,width=(string)1920,height=(string)1080,colorimetry=(string)BT709-2,payload=(int)96"

# $1: a GNU time "%U %S" file, $2: the least CPU seconds so far (or "").
# Prints the lesser: of several runs the one the shared machine disturbed
# least is kept.
least_cpu () {
  awk -v b="$2" '{ c = $1 + $2; if (b == "" || c < b) b = c; printf "%.3f", b }' "$1"
}
