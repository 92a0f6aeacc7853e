#!/usr/bin/env bash
# Consumer side of the zero-copy inter-process demo: maps the frames of a
# running pipelines/vmi-producer.sh read-only (no copy), converts them to
# 8 bit and shows them, or counts them when there is no display. Survives a
# producer restart (vmisrc reconnects; see the vmisrc-connection messages).
#
# Usage: pipelines/vmi-consumer.sh [SOCKET]      (default: /tmp/vmi.sock)
# Environment (all optional):
#   SINK=...          video sink (default: autovideosink with a display,
#                     fakesink otherwise)
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

SOCKET=${1:-/tmp/vmi.sock}
if [ -z "${SINK:-}" ]; then
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    SINK="videoconvert ! autovideosink"
  else
    SINK="fpsdisplaysink video-sink=fakesink text-overlay=false sync=false"
  fi
fi

# shellcheck disable=SC2086  # SINK is a pipeline fragment
exec gst-launch-1.0 -m \
  vmisrc socket-path="$SOCKET" ! vmi10to8 ! queue max-size-buffers=2 ! $SINK
