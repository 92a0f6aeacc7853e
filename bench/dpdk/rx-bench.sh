#!/usr/bin/env bash
# Receive on DPDK, like for like (docs/benchmarks.md "DPDK receive, whole
# element"): the whole st2022src element (bench-dpdk-rx) against
# dpdk-testpmd rxonly, both fed by the same net_pcap infinite_rx replay of
# one 1080p59.94 frame (4497 datagrams, written by st2022sink), both with
# their polling thread on the same core, alternated <rounds> times.
# Rate = datagrams / CPU time of the polling thread (/proc/<pid>/task/<tid>
# utime + stime), so time the shared core gave to others does not count.
# Usage: rx-bench.sh [seconds per run, default 4] [rounds, default 3]
#                    [core, default 1] [sources, default 1] [shared-engine]
set -u
. "$(dirname "$0")/../../scripts/env.sh"
vmi_help "$@"
B=${VMI_BUILD:-$(dirname "$0")/../../build}
S=${1:-4}
R=${2:-3}
CPU=${3:-1}
N=${4:-1}
ENG=${5:-}
OTHER=$(( CPU == 0 ? 1 : 0 ))
EAL="--no-huge --no-pci -m 1024 --log-level=lib.eal:warning --log-level=pmd.net.pcap:error"
tag=vmirxb-$$
dir=$(mktemp -d /tmp/vmi-rxbench-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"; rm -rf /var/run/dpdk/$tag-*' EXIT
export GST_PLUGIN_PATH=$B/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
export GST_REGISTRY_1_0=$dir/registry.bin
HZ=$(getconf CLK_TCK)

# one frame of each of N streams (239.1.2.<1+i>), interleaved datagram by
# datagram when N > 1 (what a switch merging N senders gives)
for i in $(seq 1 "$N"); do
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! \
    video/x-raw,format=UYVP,width=1920,height=1080,framerate=60000/1001 ! \
    st2022sink transport=dpdk host=239.1.2.$i port=5004 bind-address=10.0.0.1 \
    dpdk-eal-args="$EAL -l $CPU --file-prefix $tag-w$i --vdev net_pcap0,tx_pcap=$dir/s$i.pcap" \
    > /dev/null 2>&1 || { echo "cannot write the replay"; exit 1; }
done
if [ "$N" -gt 1 ]; then
  python3 - "$dir" "$N" <<'EOF'
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
streams = []
for i in range(1, n + 1):
    b = open(f"{d}/s{i}.pcap", "rb").read()
    hdr, off, pk = b[:24], 24, []
    while off < len(b):
        incl = struct.unpack_from("<I", b, off + 8)[0]
        pk.append(b[off:off + 16 + incl]); off += 16 + incl
    streams.append(pk)
with open(f"{d}/replay.pcap", "wb") as f:
    f.write(hdr)
    for j in range(max(len(s) for s in streams)):
        for s in streams:
            if j < len(s): f.write(s[j])
EOF
else
  mv "$dir/s1.pcap" "$dir/replay.pcap"
fi
PCAP=$dir/replay.pcap
MBUFS=$(( N * 4497 + 8192 ))

thread_ticks() { # pid name -> utime+stime ticks of that thread
  for t in /proc/$1/task/*; do
    if [ "$(cat "$t/comm" 2>/dev/null)" = "$2" ]; then
      awk '{ sub(/.*\) /, ""); print $12 + $13 }' "$t/stat"; return; fi
  done; echo 0
}

testpmd_run() {
  local fifo=$dir/in out=$dir/tp.out pid c0 c1 p0 p1
  rm -f "$fifo"; mkfifo "$fifo"
  stdbuf -oL taskset -c $OTHER,$CPU dpdk-testpmd $EAL -l $OTHER,$CPU --main-lcore $OTHER \
    --file-prefix $tag-t$1 --vdev net_pcap0,rx_pcap=$PCAP,infinite_rx=1 -- -i \
    --forward-mode=rxonly --nb-cores=1 --total-num-mbufs=$MBUFS --burst=64 \
    < "$fifo" > "$out" 2>&1 &
  pid=$!
  exec 3> "$fifo"
  echo start >&3
  # loading the replay into mbufs takes a while on a busy machine: wait
  # for the first packets, then as long as the element is given to settle
  for _ in $(seq 1 120); do
    echo "show port stats 0" >&3; sleep 0.5
    p0=$(grep -o 'RX-packets: *[0-9]*' "$out" | tail -1 | awk '{print $2}')
    [ "${p0:-0}" -gt 0 ] && break
  done
  sleep 1
  echo "show port stats 0" >&3; sleep 0.3
  c0=$(thread_ticks $pid rte-worker-$CPU)
  p0=$(grep -o 'RX-packets: *[0-9]*' "$out" | tail -1 | awk '{print $2}')
  sleep "$S"
  echo "show port stats 0" >&3; sleep 0.3
  c1=$(thread_ticks $pid rte-worker-$CPU)
  p1=$(grep -o 'RX-packets: *[0-9]*' "$out" | tail -1 | awk '{print $2}')
  echo stop >&3; echo quit >&3; exec 3>&-
  wait $pid 2>/dev/null
  awk -v p="$((p1 - p0))" -v c="$((c1 - c0))" -v hz="$HZ" 'BEGIN {
    cpu = c / hz; r = cpu > 0 ? p / cpu / 1e6 : 0
    printf "testpmd-rxonly packets=%d cpu_s=%.2f mdgps_per_cpu_s=%.3f\n", p, cpu, r }'
}

echo "== rx-bench: $S s x $R rounds, core $CPU, $N source(s)${ENG:+ on shared-engine=$ENG}, $(nproc) CPUs, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "replay: $(( N * 4497 )) datagrams (one 1080p59.94 frame per stream), $PCAP"
ratios=()
for r in $(seq 1 "$R"); do
  ours=$(taskset -c $CPU "$B/bench/dpdk/bench-dpdk-rx" "$PCAP" "$S" \
      "$EAL -l $CPU --file-prefix $tag-o$r" "$N" $ENG 2>/dev/null | grep '^rx-element')
  echo "$ours"
  tp=$(testpmd_run "$r")
  echo "$tp"
  a=$(echo "$ours" | grep -o 'mdgps_per_cpu_s=[0-9.]*' | cut -d= -f2)
  b=$(echo "$tp" | grep -o 'mdgps_per_cpu_s=[0-9.]*' | cut -d= -f2)
  ratios+=("$(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')")
done
printf '%s\n' "${ratios[@]}" | sort -n | awk -v l="$(cut -d' ' -f1-3 /proc/loadavg)" '
  { v[NR] = $1 } END { printf "ratio element/testpmd: min=%s median=%s max=%s (load %s)\n", v[1], v[int((NR + 1) / 2)], v[NR], l }'
