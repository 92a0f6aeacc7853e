#!/usr/bin/env bash
# ST 2022-7: receive CPU per frame of st2022src with two paths (both copies
# of every datagram received, merged) next to one path, the sender
# (st2022sink, software pacing) at 1080i59.94's rate. The figure is the
# receiving process's CPU time (user + system, GNU time) over the frames it
# pushed, the least of REPEAT runs (the machine is shared), with its user
# and system parts per datagram: system time is the kernel's (the copy to
# user space, the receive calls), which no receiver on kernel sockets
# avoids. One and two paths are measured alternately, run by run.
#
# TRANSPORT=socket (default): loopback UDP sockets. TRANSPORT=packet
# (root): AF_PACKET, in a network namespace of the script's own holding two
# veth pairs (one per path; the sender on one end, the receiver on the
# other), removed on exit.
#
# Environment: FRAMES (default 150), REPEAT (default 3), PORT (default
# 5700), TRANSPORT, VMI_BUILD.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
vmi_help "$@"

FRAMES=${FRAMES:-150}
REPEAT=${REPEAT:-3}
PORT=${PORT:-5700}
TRANSPORT=${TRANSPORT:-socket}
DGRAMS=4497
NS=""
BENCH_CLEANUP='[ -z "$NS" ] || ip netns del "$NS" 2>/dev/null || true'
bench_tmp vmi-seamless-bench

RUN=""
case "$TRANSPORT" in
  socket)
    RX1="st2022src port=$PORT"
    RX2="$RX1 secondary-address=127.0.0.1 secondary-port=$((PORT + 2))"
    TX1="st2022sink host=127.0.0.1 port=$PORT"
    TX2="$TX1 secondary-host=127.0.0.1 secondary-port=$((PORT + 2))" ;;
  packet)
    NS=vmisb$$
    ip netns add "$NS"
    ip -n "$NS" link add sa type veth peer name ra
    ip -n "$NS" link add sb type veth peer name rb
    ip -n "$NS" link set ra address 02:5e:00:00:00:0a
    ip -n "$NS" link set rb address 02:5e:00:00:00:0b
    ip -n "$NS" addr add 10.91.0.1/24 dev sa; ip -n "$NS" addr add 10.91.0.2/24 dev ra
    ip -n "$NS" addr add 10.92.0.1/24 dev sb; ip -n "$NS" addr add 10.92.0.2/24 dev rb
    for l in lo sa ra sb rb; do ip -n "$NS" link set "$l" up; done
    RUN="ip netns exec $NS"
    RX1="st2022src transport=packet iface=ra address=10.91.0.2 port=$PORT"
    RX2="$RX1 secondary-iface=rb secondary-address=10.92.0.2 secondary-port=$PORT"
    TX1="st2022sink transport=packet iface=sa host=10.91.0.2 port=$PORT destination-mac=02:5e:00:00:00:0a"
    TX2="$TX1 secondary-iface=sb secondary-host=10.92.0.2 secondary-port=$PORT secondary-destination-mac=02:5e:00:00:00:0b" ;;
  *) echo "seamless-bench: TRANSPORT is socket or packet" >&2; exit 2 ;;
esac

# $1: receiver pipeline, $2: sender pipeline; prints the receiver's user
# and system CPU seconds of its least-CPU run
recv_cpu () {
  # shellcheck disable=SC2086
  ( $RUN /usr/bin/time -f "%U %S" -o "$TMP/rtime" timeout 120 gst-launch-1.0 -q $1 \
      >"$TMP/rout" 2>&1 ) &
  local rx=$!
  sleep 0.5
  # shellcheck disable=SC2086
  $RUN timeout 120 gst-launch-1.0 -q $2 >"$TMP/sout" 2>&1 || true
  wait $rx || { echo "seamless-bench: receiver failed:" >&2; tail -5 "$TMP/rout" >&2; exit 1; }
  cat "$TMP/rtime"
}

echo "seamless-bench: $FRAMES frames of 1920x1080 UYVP at 29.97 fps ($DGRAMS datagrams a frame), transport=$TRANSPORT, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
LIVE="videotestsrc num-buffers=1 pattern=smpte ! $CAPS ! imagefreeze is-live=true num-buffers=$((FRAMES + 45))"
: >"$TMP/one"; : >"$TMP/two"
for i in $(seq "$REPEAT"); do
  recv_cpu "$RX1 num-buffers=$FRAMES ! fakesink" "$LIVE ! $TX1" >>"$TMP/one"
  recv_cpu "$RX2 num-buffers=$FRAMES ! fakesink" "$LIVE ! $TX2" >>"$TMP/two"
done
# the least-CPU run of each: ms per frame, user and system ns per datagram
# received (two paths receive every datagram twice)
summary () {
  sort -g -k3 <(awk '{ print $1, $2, $1 + $2 }' "$1") | head -1 |
    awk -v n="$FRAMES" -v d="$DGRAMS" -v p="$2" '{
      printf "%.2f %.0f %.0f %.0f\n", $3 * 1000 / n, $1 * 1e9 / (n * d * p),
        $2 * 1e9 / (n * d * p), ($1 + $2) * 1e9 / (n * d) }'
}
read -r o ou os _ < <(summary "$TMP/one" 1)
read -r t tu ts _ < <(summary "$TMP/two" 2)
echo "one path:  $o ms CPU/frame; per datagram received: user $ou ns, system $os ns"
echo "two paths: $t ms CPU/frame; per datagram received: user $tu ns, system $ts ns"
echo "runs (user system s): one [$(tr '\n' ';' <"$TMP/one")] two [$(tr '\n' ';' <"$TMP/two")]"
echo "receive ratio two/one $(awk -v a="$t" -v b="$o" 'BEGIN { printf "%.2f", a / b }') (target <= 1.3)"
