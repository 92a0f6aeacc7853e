#!/usr/bin/env bash
# Multicast (optionally source-specific) between two network namespaces
# joined by a veth pair: a sender in one, a receiver in the other, as on two
# hosts. Needs root (ip netns). Prints both ends' final st2022-stats.
#
# Usage: pipelines/multicast.sh [GROUP] [PORT]     (default 239.1.1.1 5004)
# Environment (all optional):
#   FRAMES=60         frames to receive (the sender sends 30 more)
#   FORMAT=720p59.94  (see send-testsrc.sh) — only 1080i59.94 and 720p59.94 here
#   SSM=1             receive with source-address=<sender> (IGMPv3 SSM)
#   VMI_BUILD=...     build directory holding the plugin (default: build/)
set -euo pipefail

. "$(dirname "$0")/../scripts/env.sh"
vmi_help "$@"
vmi_gst_env

GROUP=${1:-239.1.1.1}
PORT=${2:-5004}
FRAMES=${FRAMES:-60}
FORMAT=${FORMAT:-720p59.94}
case "$FORMAT" in
  1080i59.94) GEOM="width=1920,height=1080,framerate=30000/1001,interlace-mode=interleaved" ;;
  720p59.94)  GEOM="width=1280,height=720,framerate=60000/1001" ;;
  *) echo "multicast: FORMAT must be 1080i59.94 or 720p59.94" >&2; exit 2 ;;
esac
if [ "$(id -u)" != 0 ]; then
  echo "multicast: needs root for 'ip netns' (network namespaces)" >&2
  exit 2
fi

TX=vmimctx$$ RX=vmimcrx$$ VA=vmimca$(( $$ % 10000 )) VB=vmimcb$(( $$ % 10000 ))
cleanup () {
  ip netns del "$TX" 2>/dev/null || true
  ip netns del "$RX" 2>/dev/null || true
  rm -f "${RXLOG:-}" "${TXLOG:-}"
}
trap cleanup EXIT
ip netns add "$TX"
ip netns add "$RX"
ip link add "$VA" netns "$TX" type veth peer name "$VB" netns "$RX"
ip -n "$TX" addr add 10.99.0.1/24 dev "$VA"
ip -n "$RX" addr add 10.99.0.2/24 dev "$VB"
for ns in "$TX" "$RX"; do ip -n "$ns" link set lo up; done
ip -n "$TX" link set "$VA" up
ip -n "$RX" link set "$VB" up

SSM_OPT=""
[ "${SSM:-0}" = 1 ] && SSM_OPT="source-address=10.99.0.1"
RXLOG=$(mktemp /tmp/vmi-mc-rx.XXXXXX)
TXLOG=$(mktemp /tmp/vmi-mc-tx.XXXXXX)

echo "multicast: $FORMAT to $GROUP:$PORT, sender 10.99.0.1 ($VA in $TX) ->" \
  "receiver ($VB in $RX)${SSM_OPT:+, SSM}"
# receiver first: it joins the group before anything is sent
ip netns exec "$RX" env PATH="$PATH" GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH_1_0" \
  GST_REGISTRY_1_0="$GST_REGISTRY_1_0" \
  timeout 60 gst-launch-1.0 -m st2022src name=rx address="$GROUP" port="$PORT" \
  multicast-iface="$VB" $SSM_OPT num-buffers="$FRAMES" ! fakesink \
  >"$RXLOG" 2>&1 &
RXPID=$!
sleep 1
ip netns exec "$TX" env PATH="$PATH" GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH_1_0" \
  GST_REGISTRY_1_0="$GST_REGISTRY_1_0" \
  timeout 60 gst-launch-1.0 -m videotestsrc is-live=true num-buffers=$((FRAMES + 30)) \
  ! "video/x-raw,format=UYVP,$GEOM" \
  ! st2022sink name=tx host="$GROUP" port="$PORT" multicast-iface="$VA" ttl-mc=1 \
  >"$TXLOG" 2>&1 || true
rc=0
wait $RXPID || rc=$?

last () { grep -E "\"$2\" \(element\): st2022-stats" "$1" | tail -n 1 |
  sed -e 's/.*st2022-stats, //' -e 's/(guint64)//g' -e 's/;$//' || true; }
echo "sender   st2022-stats: $(last "$TXLOG" tx)"
echo "receiver st2022-stats: $(last "$RXLOG" rx)"
if [ $rc -ne 0 ]; then
  echo "multicast: FAILED (receiver exited with $rc)" >&2
  grep -E "ERROR|WARN" "$RXLOG" "$TXLOG" | head >&2 || true
  exit 1
fi
echo "multicast: OK"
