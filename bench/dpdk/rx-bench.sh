#!/usr/bin/env bash
# Receive on DPDK, like for like (docs/benchmarks.md "DPDK receive, whole
# element"): the whole st2022src element (bench-dpdk-rx) against
# dpdk-testpmd rxonly, both fed by the same source, both with their
# polling thread on the same core, alternated <rounds> times.
# Sources (VMI_RX_SOURCE):
#   gen   (default) the generator of rx-gen.c, loaded into both processes
#         with LD_PRELOAD: a thread on the other core puts N continuous
#         1080p59.94 streams, interleaved datagram by datagram, on a
#         net_ring port, each datagram an mbuf built once (the receiver
#         pays a ring dequeue and a reference drop, not a copy). Each
#         line says how often the generator found the ring nearly empty
#         (source_low: a receiver that may have polled in vain, which
#         counts as its CPU time)
#   pcap  a net_pcap infinite_rx replay of one frame
#         per stream (net_pcap copies every datagram into a fresh mbuf in
#         the receiver's thread: about 260 ns, the bottleneck)
# The frame is written by st2022sink (4497 datagrams).
# Rate = datagrams / CPU time of the polling thread (/proc/<pid>/task/<tid>
# utime + stime), so time the shared core gave to others does not count.
# A/B of the element alone (VMI_RX_AB, a list of settings, each one or
# more NAME=VALUE joined by commas):
# each round runs st2022src once per setting, in the order given, instead
# of element and testpmd, then prints min/median/max per setting and of
# the per-round ratio last / first; e.g. the payload copy by ordinary and
# by streaming stores (gst/st2022/st2022-copy.c):
#   VMI_RX_AB="VMI_RX_COPY=memcpy VMI_RX_COPY=avx2" rx-bench.sh 4 8 1
# or without and with both the streaming stores and the payload prefetch:
#   VMI_RX_AB="VMI_RX_COPY=memcpy,VMI_RX_PREFETCH=0 VMI_RX_COPY=avx2" ...
# The decomposition (VMI_RX_FLOOR=1, gen source, one stream): each round
# runs bench-rx-floor (rx-floor.c: rx_burst and free, + classify and
# header parse, + the streaming copy, + the stream lock, + the
# depacketizer on a raster, a UYVP picture, and with the ANC side buffer,
# <s> CPU-seconds each) and then the whole element, then prints ns per
# datagram min / median / max per loop and the median's step; VMI_RX_FLOOR
# may instead list the loops ("copy blank").
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
SRC=${VMI_RX_SOURCE:-gen}
GEN=$B/tests/dpdk/libvmi-rxgen.so
EAL="--no-huge --no-pci -m 1024 --log-level=lib.eal:warning --log-level=pmd.net.pcap:error"
tag=vmirxb-$$
dir=$(mktemp -d /tmp/vmi-rxbench-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"; rm -rf /var/run/dpdk/$tag-*' EXIT
export GST_PLUGIN_PATH=$B/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
export GST_REGISTRY_1_0=$dir/registry.bin
HZ=$(getconf CLK_TCK)

# one frame of each of N streams (239.1.2.<1+i>), interleaved datagram by
# datagram when N > 1 (what a switch merging N senders gives)
# (the generator's streams go to one unicast address, ports 5004, 5006, ...
# as bench-dpdk-rx's sources expect: the receiver then sends nothing on
# net_ring's single-producer ring, no IGMP)
for i in $(seq 1 "$N"); do
  if [ "$SRC" = gen ]; then
    dst="10.0.0.2 destination-mac=02:00:00:00:00:02"; port=$(( 5002 + 2 * i ))
  else dst=239.1.2.$i; port=5004; fi
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! \
    video/x-raw,format=UYVP,width=1920,height=1080,framerate=60000/1001 ! \
    st2022sink transport=dpdk host=$dst port=$port bind-address=10.0.0.1 \
    dpdk-eal-args="$EAL -l $CPU --file-prefix $tag-w$i --vdev net_pcap0,tx_pcap=$dir/s$i.pcap" \
    > /dev/null 2>&1 || { echo "cannot write the replay"; exit 1; }
done
if [ "$N" -gt 1 ]; then
  python3 "$(dirname "$0")/pcap-interleave.py" "$dir" "$N"
else
  mv "$dir/s1.pcap" "$dir/replay.pcap"
fi
PCAP=$dir/replay.pcap
MBUFS=$(( N * 4497 + 8192 ))
if [ "$SRC" = gen ]; then
  # LD_PRELOAD, not the EAL's -d: the EAL refuses a library below a
  # world-writable directory (a clone under /tmp)
  VDEV="--vdev net_ring0"
  PRELOAD=$GEN
  export VMI_RXGEN_PCAP=$PCAP VMI_RXGEN_CPU=$OTHER VMI_RXGEN_FIFO=${VMI_RXGEN_FIFO-10}
else
  VDEV="--vdev net_pcap0,rx_pcap=$PCAP,infinite_rx=1"
  PRELOAD=
fi

# the generator's count of bursts that found the ring nearly empty, as a
# percentage of its bursts (file $1)
source_low() {
  [ "$SRC" = gen ] || return 0
  awk -F'[ =]' '{ printf " source_low=%.2f%%", ($2 > 0 ? 100 * $6 * 32 / $2 : 100) }' "$1" 2>/dev/null
}

thread_ticks() { # pid name -> utime+stime ticks of that thread
  for t in /proc/$1/task/*; do
    if [ "$(cat "$t/comm" 2>/dev/null)" = "$2" ]; then
      awk '{ sub(/.*\) /, ""); print $12 + $13 }' "$t/stat"; return; fi
  done; echo 0
}

testpmd_run() {
  local fifo=$dir/in out=$dir/tp.out pid c0 c1 p0 p1
  rm -f "$fifo"; mkfifo "$fifo"
  env ${PRELOAD:+LD_PRELOAD=$PRELOAD} stdbuf -oL taskset -c $OTHER,$CPU dpdk-testpmd $EAL -l $OTHER,$CPU --main-lcore $OTHER \
    --file-prefix $tag-t$1 $VDEV -- -i \
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
    printf "testpmd-rxonly packets=%d cpu_s=%.2f mdgps_per_cpu_s=%.3f", p, cpu, r }'
  source_low "$dir/gen.stats"; echo
}

echo "== rx-bench: $S s x $R rounds, core $CPU, $N source(s)${ENG:+ on shared-engine=$ENG}, $(nproc) CPUs, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "source: $SRC, $(( N * 4497 )) datagrams (one 1080p59.94 frame per stream), $PCAP"
# min / median / max of the arguments
mmm() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  printf "%s / %s / %s", v[1], v[int((NR + 1) / 2)], v[NR] }'; }

# one run of the element (round $1, extra environment $2...): its line
element_run() {
  local r=$1; shift
  rm -f "$dir/gen.stats"
  env ${PRELOAD:+LD_PRELOAD=$PRELOAD} "$@" VMI_RXGEN_STATS=$dir/gen.stats taskset -c $CPU "$B/bench/dpdk/bench-dpdk-rx" \
      "$([ "$SRC" = gen ] && echo gen || echo "$PCAP")" "$S" \
      "$EAL -l $CPU --file-prefix $tag-o$r" \
      "$N" $ENG 2>/dev/null | grep '^rx-element'
}

if [ -n "${VMI_RX_FLOOR:-}" ]; then
  [ "$SRC" = gen ] && [ "$N" = 1 ] || { echo "VMI_RX_FLOOR needs the gen source and one stream"; exit 1; }
  loops=""; [ "$VMI_RX_FLOOR" = 1 ] || loops=$VMI_RX_FLOOR
  declare -A fl
  order=""
  for r in $(seq 1 "$R"); do
    rm -f "$dir/gen.stats"
    # shellcheck disable=SC2086
    out=$(env LD_PRELOAD="$PRELOAD" VMI_RXGEN_STATS=$dir/gen.stats taskset -c $CPU \
      "$B/bench/dpdk/bench-rx-floor" "$S" 1 "$EAL -l $CPU --file-prefix $tag-f$r $VDEV" $loops 2>/dev/null | grep '^rx-floor round=')
    echo "$out"
    while read -r line; do
      lp=$(echo "$line" | grep -o 'loop=[a-z/0]*' | cut -d= -f2)
      [ "$r" = 1 ] && order+=" $lp"
      fl[$lp]+=" $(echo "$line" | grep -o 'ns_per_datagram=[0-9.]*' | cut -d= -f2)"
    done <<< "$out"
    ours=$(element_run "$r")
    echo "${ours/ caps=/$(source_low "$dir/gen.stats") caps=}"
    [ "$r" = 1 ] && order+=" element"
    fl[element]+=" $(echo "$ours" | grep -o 'mdgps_per_cpu_s=[0-9.]*' | cut -d= -f2 | awk '{ printf "%.1f", ($1 > 0 ? 1e3 / $1 : 0) }')"
  done
  prev=0
  echo "decomposition, ns of the polling thread's CPU per datagram (min / median / max over $R rounds, step: the median's over the loop before; load $(cut -d' ' -f1-3 /proc/loadavg)):"
  for lp in $order; do
    # shellcheck disable=SC2086
    med=$(printf '%s\n' ${fl[$lp]} | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    # shellcheck disable=SC2086
    printf '  %-8s %s  step %+.1f  (%.2f M datagrams/CPU-s)\n' "$lp" "$(mmm ${fl[$lp]})" "$(awk -v a="$med" -v b="$prev" 'BEGIN { print a - b }')" "$(awk -v a="$med" 'BEGIN { print (a > 0 ? 1e3 / a : 0) }')"
    prev=$med
  done
  exit 0
fi

if [ -n "${VMI_RX_AB:-}" ]; then
  read -r -a ab <<< "$VMI_RX_AB"
  declare -A got
  for r in $(seq 1 "$R"); do
    for a in "${ab[@]}"; do
      IFS=, read -r -a set <<< "$a"
      ours=$(element_run "$r" "${set[@]}")
      echo "[$a] ${ours/ caps=/$(source_low "$dir/gen.stats") caps=}"
      got[$a]+=" $(echo "$ours" | grep -o 'mdgps_per_cpu_s=[0-9.]*' | cut -d= -f2)"
    done
  done
  for a in "${ab[@]}"; do
    # shellcheck disable=SC2086
    echo "[$a] st2022src: $(mmm ${got[$a]}) M datagrams/CPU-s = $(mmm $(printf '%s\n' ${got[$a]} | awk '{ printf "%.1f\n", $1 * 1e6 / 269550.3 }')) streams of 1080p59.94 per core"
  done
  first=${ab[0]}; last=${ab[${#ab[@]}-1]}
  # shellcheck disable=SC2086
  echo "ratio [$last] / [$first] per round: $(mmm $(paste -d' ' <(printf '%s\n' ${got[$last]}) <(printf '%s\n' ${got[$first]}) | awk '{ printf "%.3f\n", ($2 > 0 ? $1 / $2 : 0) }')) (min / median / max, load $(cut -d' ' -f1-3 /proc/loadavg))"
  exit 0
fi

ratios=(); ours_r=(); tp_r=()
for r in $(seq 1 "$R"); do
  ours=$(element_run "$r")
  low=$(source_low "$dir/gen.stats")
  echo "${ours/ caps=/$low caps=}"
  rm -f "$dir/gen.stats"
  tp=$(VMI_RXGEN_STATS=$dir/gen.stats testpmd_run "$r")
  echo "$tp"
  a=$(echo "$ours" | grep -o 'mdgps_per_cpu_s=[0-9.]*' | cut -d= -f2)
  b=$(echo "$tp" | grep -o 'mdgps_per_cpu_s=[0-9.]*' | cut -d= -f2)
  ratios+=("$(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')")
  ours_r+=("${a:-0}"); tp_r+=("${b:-0}")
done
echo "st2022src: $(mmm "${ours_r[@]}") M datagrams/CPU-s = $(mmm $(printf '%s\n' "${ours_r[@]}" | awk '{ printf "%.1f\n", $1 * 1e6 / 269550.3 }')) streams of 1080p59.94 per core (21 needs 5.66) | testpmd rxonly: $(mmm "${tp_r[@]}") (source $SRC; min / median / max)"
printf '%s\n' "${ratios[@]}" | sort -n | awk -v l="$(cut -d' ' -f1-3 /proc/loadavg)" '
  { v[NR] = $1 } END { printf "ratio element/testpmd: min=%s median=%s max=%s (load %s)\n", v[1], v[int((NR + 1) / 2)], v[NR], l }'
