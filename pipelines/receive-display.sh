#!/usr/bin/env bash
# Receives an ST 2022-6 stream and shows it in a window (autovideosink),
# printing the receiver's st2022-stats every second.
#
# Usage: pipelines/receive-display.sh [PORT] [ADDRESS]   (default 5004 0.0.0.0)
# Environment (all optional):
#   IFACE=eth0        interface to join a multicast ADDRESS on
#   SOURCE=10.0.0.1   source-specific multicast: only this sender
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_gst_env

PORT=${1:-5004}
ADDRESS=${2:-0.0.0.0}
OPTS=()
[ -n "${IFACE:-}" ] && OPTS+=("multicast-iface=$IFACE")
[ -n "${SOURCE:-}" ] && OPTS+=("source-address=$SOURCE")

echo "receive-display: udp://$ADDRESS:$PORT -> vmi10to8 -> autovideosink"
exec gst-launch-1.0 -m \
  st2022src address="$ADDRESS" port="$PORT" "${OPTS[@]}" \
  ! vmi10to8 ! video/x-raw,format=I420 ! queue leaky=downstream max-size-buffers=4 \
  ! videoconvert ! autovideosink sync=false \
  | grep --line-buffered -E "st2022-stats|ERROR|WARNING|EOS"
