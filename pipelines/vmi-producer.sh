#!/usr/bin/env bash
# Producer side of the zero-copy inter-process demo: a live 1080p60 10-bit
# test pattern rendered straight into shareable vMI memory and offered to
# other processes by vmisink. Start one or more pipelines/vmi-consumer.sh
# in other terminals (in any order: vmisrc waits and reconnects). With -m
# the bus shows consumers connecting and leaving (vmisink-client messages).
#
# Usage: pipelines/vmi-producer.sh [SOCKET]      (default: /tmp/vmi.sock)
# Environment (all optional):
#   FRAMES=-1         frames to produce (-1: until Ctrl-C)
#   PATTERN=smpte     videotestsrc pattern (ball moves, black is cheapest)
#   MAX_CLIENTS=4     consumers allowed at once
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

SOCKET=${1:-/tmp/vmi.sock}
FRAMES=${FRAMES:--1}
PATTERN=${PATTERN:-smpte}
MAX_CLIENTS=${MAX_CLIENTS:-4}

exec gst-launch-1.0 -e -m \
  videotestsrc is-live=true pattern="$PATTERN" num-buffers="$FRAMES" ! \
  video/x-raw,format=UYVP,width=1920,height=1080,framerate=60/1 ! \
  vmisink socket-path="$SOCKET" max-clients="$MAX_CLIENTS"
