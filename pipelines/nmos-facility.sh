#!/usr/bin/env bash
# An NMOS facility in network namespaces: a registry and two hosts on one
# switch (a bridge in a namespace of its own). Host A sends an ST 2022-6
# stream to a multicast group with nmos=true; host B runs an st2022src with
# nmos=true listening on nothing in particular. Both register with the
# registry (IS-04). Then a controller does what a broadcast controller
# does: finds the sender and the receiver in the registry, fetches the
# sender's SDP from its manifest_href, and PATCHes the receiver's IS-05
# staged endpoint with it (activate_immediate). The receiver, playing all
# along, retargets and receives FRAMES frames. Needs root (ip netns) and a
# build with NMOS (the registry is build/tests/nmos/nmos-registry).
#
# Usage: pipelines/nmos-facility.sh [--help]
# Environment (all optional):
#   FRAMES=50         frames the receiver must receive after the connection
#   GROUP=239.26.0.1  PORT=5004
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

FRAMES=${FRAMES:-50}
GROUP=${GROUP:-239.26.0.1}
PORT=${PORT:-5004}
BUILD=${VMI_BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build}
REGISTRY_BIN=$BUILD/tests/nmos/nmos-registry
CAPS="video/x-raw,format=UYVP,width=1280,height=720,framerate=50/1"
if [ "$(id -u)" != 0 ]; then
  echo "nmos-facility: needs root for 'ip netns' (network namespaces)" >&2
  exit 77
fi
if [ ! -x "$REGISTRY_BIN" ]; then
  echo "nmos-facility: $REGISTRY_BIN not built (needs -Dnmos and -Dtests)" >&2
  exit 77
fi

# Under the test suite's sanitizer tier LD_PRELOAD carries the ASan
# runtime, which the ASan-built plugin needs in gst-launch-1.0 but which
# deadlocks curl at start: only the pipelines get it.
GST_PRELOAD=${LD_PRELOAD:-}
unset LD_PRELOAD
# a request that gets no answer fails instead of waiting for ever
CURL=(curl -sf --max-time 10)

SW=vminsw$$ REG=vminreg$$ HA=vmina$$ HB=vminb$$
LOGS=$(mktemp -d /tmp/vmi-nmos-facility.XXXXXX)
PIDS=()
cleanup () {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for ns in "$HA" "$HB" "$REG" "$SW"; do ip netns del "$ns" 2>/dev/null || true; done
  rm -rf "$LOGS"
}
trap cleanup EXIT

# the switch, and each host on it with eth0 at 10.126.0.<n>
ip netns add "$SW"
ip -n "$SW" link add br0 type bridge
ip -n "$SW" link set br0 up
n=1
for ns in "$REG" "$HA" "$HB"; do
  ip netns add "$ns"
  ip link add "vmin$n$$" netns "$SW" type veth peer name eth0 netns "$ns"
  ip -n "$SW" link set "vmin$n$$" master br0 up
  ip -n "$ns" addr add "10.126.0.$n/24" dev eth0
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
  ip -n "$ns" route add 224.0.0.0/4 dev eth0
  n=$((n + 1))
done
REGISTRY=http://10.126.0.1:8235
NODE_A=http://10.126.0.2:3212
NODE_B=http://10.126.0.3:3212

in_ns () {
  local ns=$1; shift
  ip netns exec "$ns" env PATH="$PATH" GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH_1_0" \
    GST_REGISTRY_1_0="$GST_REGISTRY_1_0" "$@"
}
# in the background, its pid (ip execs env, env execs the program) kept
# for the cleanup; output to file $1
in_ns_bg () {
  local log=$1 ns=$2; shift 2
  ip netns exec "$ns" env PATH="$PATH" GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH_1_0" \
    GST_REGISTRY_1_0="$GST_REGISTRY_1_0" ${GST_PRELOAD:+LD_PRELOAD="$GST_PRELOAD"} \
    "$@" >"$log" 2>&1 &
  PIDS+=($!)
}
# waits until "$@" succeeds (at most 20 s)
until_ok () {
  local i
  for i in $(seq 200); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "nmos-facility: timed out waiting for: $*" >&2
  return 1
}

in_ns_bg "$LOGS/registry" "$REG" "$REGISTRY_BIN" --port 8235 --any
until_ok in_ns "$REG" "${CURL[@]}" "$REGISTRY/x-nmos/query/v1.3/nodes"

echo "nmos-facility: host A (10.126.0.2) sends to $GROUP:$PORT"
in_ns_bg "$LOGS/sender" "$HA" gst-launch-1.0 videotestsrc is-live=true ! "$CAPS" \
  ! st2022sink host="$GROUP" port="$PORT" multicast-iface=eth0 \
  nmos=true nmos-registry="$REGISTRY" nmos-node-port=3212 nmos-label=camera-A
echo "nmos-facility: host B (10.126.0.3) receives, not connected yet"
in_ns_bg "$LOGS/receiver" "$HB" gst-launch-1.0 -m st2022src name=rx port=5999 \
  multicast-iface=eth0 nmos=true nmos-registry="$REGISTRY" nmos-node-port=3212 \
  nmos-label=monitor-B num-buffers="$FRAMES" ! fakesink
RXPID=${PIDS[-1]}

# the controller (in the registry's namespace): discovery through the
# registry's Query API
q () { in_ns "$REG" "${CURL[@]}" "$REGISTRY/x-nmos/query/v1.3/$1"; }
count_is () { test "$(q "$1" | jq length)" = "$2"; }
until_ok count_is senders 1
until_ok count_is receivers 1
SENDER=$(q senders | jq -r '.[0].id')
MANIFEST=$(q senders | jq -r '.[0].manifest_href')
RECEIVER=$(q receivers | jq -r '.[0].id')
echo "nmos-facility: registry holds sender $SENDER ($(q senders | jq -r '.[0].transport'))"
echo "nmos-facility: registry holds receiver $RECEIVER ($(q receivers | jq -c '.[0].caps'))"
SDP=$(in_ns "$REG" "${CURL[@]}" "$MANIFEST")
echo "nmos-facility: sender's SDP from $MANIFEST:"
echo "$SDP" | sed 's/^/    /'

# IS-05: connect B's receiver to A's sender
BODY=$(jq -n --arg s "$SENDER" --arg sdp "$SDP" '{sender_id: $s,
  master_enable: true, activation: {mode: "activate_immediate"},
  transport_file: {data: $sdp, type: "application/sdp"}}')
echo "nmos-facility: PATCH $NODE_B/x-nmos/connection/v1.1/single/receivers/$RECEIVER/staged"
in_ns "$REG" "${CURL[@]}" -X PATCH -H 'Content-Type: application/json' -d "$BODY" \
  "$NODE_B/x-nmos/connection/v1.1/single/receivers/$RECEIVER/staged" |
  jq -c '{activation, transport_params}'
subscribed () { test "$(q receivers | jq -r '.[0].subscription.sender_id')" = "$SENDER"; }
until_ok subscribed
echo "nmos-facility: registry shows the subscription: $(q receivers | jq -c '.[0].subscription')"

rc=0
timeout 30 tail --pid=$RXPID -f /dev/null || rc=$?
wait $RXPID || rc=$?
stats=$(grep -E '"rx" \(element\): st2022-stats' "$LOGS/receiver" | tail -n 1 |
  sed -e 's/.*st2022-stats, //' -e 's/(guint64)//g' || true)
echo "receiver st2022-stats: $stats"
if [ $rc -ne 0 ] || ! echo "$stats" | grep -q "frames=$FRAMES,"; then
  echo "nmos-facility: FAILED (receiver exit $rc)" >&2
  grep -E "ERROR|WARN" "$LOGS/receiver" "$LOGS/sender" | head >&2 || true
  exit 1
fi
echo "nmos-facility: OK ($FRAMES frames received after the IS-05 connection)"
