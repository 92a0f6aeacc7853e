#!/usr/bin/env bash
# Receives an ST 2022-6 stream and shows it in a window (autovideosink;
# fakesink when there is no display),
# printing the receiver's st2022-stats every second.
#
# Usage: pipelines/receive-display.sh [PORT] [ADDRESS]   (default 5004 0.0.0.0)
# Environment (all optional):
#   IFACE=eth0        interface to join a multicast ADDRESS on
#   SOURCE=10.0.0.1   source-specific multicast: only this sender
#   SINK=...          video sink (default: autovideosink with a display;
#                     fakesink without one, where autovideosink may pick a
#                     sink that crashes, e.g. DirectFB)
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

PORT=${1:-5004}
ADDRESS=${2:-0.0.0.0}
OPTS=()
[ -n "${IFACE:-}" ] && OPTS+=("multicast-iface=$IFACE")
[ -n "${SOURCE:-}" ] && OPTS+=("source-address=$SOURCE")

if [ -z "${SINK:-}" ]; then
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    SINK="videoconvert ! autovideosink sync=false"
  else
    SINK="fakesink sync=false"
  fi
fi

echo "receive-display: udp://$ADDRESS:$PORT -> vmi10to8 -> $SINK"
# shellcheck disable=SC2086  # SINK is a pipeline fragment
exec gst-launch-1.0 -m \
  st2022src address="$ADDRESS" port="$PORT" "${OPTS[@]}" \
  ! vmi10to8 ! video/x-raw,format=I420 ! queue leaky=downstream max-size-buffers=4 \
  ! $SINK \
  | grep --line-buffered -E "st2022-stats|ERROR|WARNING|EOS"
