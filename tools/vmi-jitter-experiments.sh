#!/bin/sh
# The experiments of "Chasing Linux Jitter Sources for Uncompressed Video"
# (and thesis ch. 2) on this host, with vmi-jitter (docs/jitter.md):
#
#   dummy loop: idle core, loaded core, SCHED_FIFO, not pinned
#   packet sink: poll vs block on socket (st2022sink paced in software on
#     loopback), on AF_PACKET and on DPDK (net_af_packet vdev) over a veth
#     pair between two network namespaces fed by st2022sink on AF_PACKET
#     paced in software and by the Pacing-Assistant; with --trace
#
#   tools/vmi-jitter-experiments.sh OUTDIR [ITERATIONS] [SECONDS]
#
# Needs root (namespaces, AF_PACKET, tracefs, SCHED_FIFO), vmi-jitter and
# gst-launch-1.0 with the vmi plugin (in a build tree: . scripts/env.sh &&
# vmi_gst_env; VMI_JITTER=build/tools/vmi-jitter). Writes OUTDIR/NAME.json
# and OUTDIR/jitter-NAME.png per experiment and prints a Markdown table.
set -eu
case "${1:-}" in
  -h|--help) sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
out=${1:?usage: $0 OUTDIR [ITERATIONS] [SECONDS]}
iters=${2:-1000000}
secs=${3:-5}
jit=${VMI_JITTER:-vmi-jitter}
cpu=$(($(nproc) - 1))
frames=$((secs * 30))
# 1080i59.94: 4497 datagrams a frame at 30000/1001 frames/s
count=$((frames * 4497))
caps="video/x-raw,format=UYVP,width=1920,height=1080,framerate=30000/1001,interlace-mode=interleaved"
src="videotestsrc num-buffers=1 pattern=smpte ! $caps ! imagefreeze is-live=true num-buffers=$frames"
mkdir -p "$out"
nsa=vjA$$ nsb=vjB$$ va=vja$$ vb=vjb$$
hog=

cleanup () {
  [ -z "$hog" ] || kill "$hog" 2>/dev/null || true
  ip netns del "$nsa" 2>/dev/null || true
  ip netns del "$nsb" 2>/dev/null || true
  rm -rf "/var/run/dpdk/vmijit-$$"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

row () {
  # name, then the JSON's figures in µs
  awk -v name="$1" '
    function num(k,   m) { if (match($0, "\"" k "\": [-0-9.e+]+")) {
      m = substr($0, RSTART, RLENGTH); sub(/.*: /, "", m); return m } return "" }
    { lost = num("seq_lost"); if (lost == "") lost = "-"
      printf "| %s | %d | %s | %.2f | %.2f | %.2f | %.2f | %.1f | %d | %d |\n",
        name, num("count"), lost, num("mean_ns") / 1e3, num("stddev_ns") / 1e3,
        num("p99_ns") / 1e3, num("p999_ns") / 1e3, num("max_ns") / 1e3,
        num("spikes"), num("buffer_packets") }' "$out/$1.json"
}

dummy () {
  name=$1; shift
  "$jit" dummy --iterations "$iters" --json "$out/$name.json" \
    --plot "$out/jitter-$name.png" "$@" >"$out/$name.txt"
}

# sink NAME NETNS SENDER-NETNS "SINK PROPS" VMI-JITTER-ARGS...
sink () {
  name=$1 ns=$2 sns=$3 props=$4; shift 4
  ${ns:+ip netns exec "$ns"} "$jit" sink --count "$count" --idle-ms 2000 \
    --format 1080i59.94 --json "$out/$name.json" \
    --plot "$out/jitter-$name.png" "$@" >"$out/$name.txt" 2>"$out/$name.err" &
  pid=$!
  # the stream starts once the receiver says it listens (its socket bound;
  # DPDK: its EAL started), or has died (its error is in $name.err)
  for i in $(seq 300); do
    grep -q "listening on" "$out/$name.err" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  ${sns:+ip netns exec "$sns"} gst-launch-1.0 -q $src ! st2022sink $props \
    >"$out/$name.tx.log" 2>&1
  wait "$pid"
}

echo "load before: $(cat /proc/loadavg)" >"$out/load.txt"

# ---- dummy loop
dummy dummy-idle --cpu "$cpu"
sh -c 'while :; do :; done' & hog=$!
taskset -pc "$cpu" "$hog" >/dev/null
dummy dummy-loaded --cpu "$cpu"
kill "$hog"; hog=
dummy dummy-fifo --cpu "$cpu" --priority 1
dummy dummy-unpinned

# ---- packet sink on loopback, st2022sink paced in software
for m in poll block; do
  sink "socket-$m" "" "" "host=127.0.0.1 port=5600 pacing=software" \
    --port 5600 --mode "$m" --cpu "$cpu"
done
sink socket-poll-unpinned "" "" "host=127.0.0.1 port=5600 pacing=software" \
  --port 5600 --mode poll

# ---- a veth pair between two namespaces: the sender in A, the sink in B
ip netns add "$nsa"; ip netns add "$nsb"
ip link add "$va" type veth peer name "$vb"
ip link set "$va" netns "$nsa"; ip link set "$vb" netns "$nsb"
ip -n "$nsa" addr add 10.231.0.1/24 dev "$va"
ip -n "$nsb" addr add 10.231.0.2/24 dev "$vb"
ip -n "$nsa" link set "$va" up; ip -n "$nsb" link set "$vb" up
ip -n "$nsa" link set lo up; ip -n "$nsb" link set lo up
mac=$(ip -n "$nsb" -br link show "$vb" | awk '{print $3}')
raw="transport=packet iface=$va host=10.231.0.2 port=5600 destination-mac=$mac"

for m in poll block; do
  sink "packet-sw-$m" "$nsb" "$nsa" "$raw pacing=software" \
    --transport packet --iface "$vb" --address 10.231.0.2 --port 5600 \
    --mode "$m" --cpu "$cpu"
  sink "packet-pa-$m" "$nsb" "$nsa" "$raw pacing=pa-free-running line-rate=2000000000" \
    --transport packet --iface "$vb" --address 10.231.0.2 --port 5600 \
    --mode "$m" --cpu "$cpu"
done
# the kernel's view of the same stream: one netif_receive_skb per datagram
# (AF_PACKET sends no GSO bursts), only this veth's
sink socket-veth-trace "$nsb" "$nsa" "$raw pacing=software" \
  --address 10.231.0.2 --port 5600 --mode poll --cpu "$cpu" --trace \
  --iface "$vb"
eal="--no-huge --no-pci -m 512 -l $cpu --file-prefix vmijit-$$ --log-level=lib.eal:warning --vdev net_af_packet0,iface=$vb,framecnt=16384"
sink dpdk-pa "$nsb" "$nsa" "$raw pacing=pa-free-running line-rate=2000000000" \
  --transport dpdk --dpdk-eal-args "$eal" --address 10.231.0.2 --port 5600 \
  --cpu "$cpu"
sink dpdk-sw "$nsb" "$nsa" "$raw pacing=software" \
  --transport dpdk --dpdk-eal-args "$eal" --address 10.231.0.2 --port 5600 \
  --cpu "$cpu"

echo "load after: $(cat /proc/loadavg)" >>"$out/load.txt"
echo "| run | ΔT | lost | mean µs | σ µs | p99 µs | p99.9 µs | max µs | spikes | buffer |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in dummy-idle dummy-loaded dummy-fifo dummy-unpinned socket-poll \
    socket-block socket-poll-unpinned socket-veth-trace packet-sw-poll \
    packet-sw-block packet-pa-poll packet-pa-block dpdk-pa dpdk-sw; do
  [ -f "$out/$n.json" ] && row "$n"
done
cat "$out/load.txt"
