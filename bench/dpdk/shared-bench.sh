#!/usr/bin/env bash
# Streams per core with shared engines (docs/benchmarks.md "Shared
# engines: streams per core"), 1080p59.94 on DPDK virtual devices:
#
#   send:    N live st2022sink (videotestsrc ! imagefreeze is-live=true,
#            pacing=software) on one shared-engine pinned to <core>, on
#            net_null (bench-tx-shared, tx-shared.c), N = 1, 2, 3, ... up
#            to the largest N; each N's counts over the measured seconds
#            are printed (frames sent of the N x seconds x 59.94 due, the
#            engine's engine-frames-late and engine-frames-behind, the
#            element's frames-late, the shared thread's CPU and runqueue
#            wait, wake-ups per second, and each late frame put down to
#            the CPU being away (a probe above the engine's priority woke
#            late: a VM stall), to run-queue wait, to frames queued late
#            (behind), or to the engine), and
#            the figure is the last N before the first one with a late
#            frame (engine-frames-late or frames-late, whatever the
#            cause). Each line also gives the shared thread's capacity, the
#            streams its CPU time per frame sent would carry on a core of
#            its own (engine_streams_per_core = frames / thread CPU seconds
#            / 59.94): on a machine whose other cores cannot write N
#            rasters in time the sinks fall behind before the engine does
#   receive: N st2022src on one shared-engine, fed by the generator of
#            rx-gen.c (LD_PRELOAD; on core <other> at SCHED_FIFO) with one
#            frame of each of N streams to 10.0.0.2:<5004+2i>, as
#            st2022sink writes them, interleaved datagram by datagram
#            (bench-dpdk-rx gen), N = 1, 2, 4, 6, 8, ...:
#            capacity: the generator unpaced (it waits for room, so it
#              loses nothing), the whole process on <core>: the streams
#              the receive thread's CPU time per datagram would carry on a
#              core of its own (streams_1080p5994), up to the first N
#              short of it
#            real time: the generator paced at N x 269,550 datagrams/s in
#              bursts of 32 behind a receive queue of 16,384 datagrams
#              (7.6 ms of 8 streams; a NIC's 4,096 descriptors hold 1.9
#              ms), the engine pinned to <core> (rx-cpu, so SCHED_FIFO):
#              the figure is the largest N with 0 datagrams lost by the
#              generator's queue and by the receivers over the measured
#              seconds and every frame whole (frames = N x seconds x
#              59.94, less one per stream at the window's edges)
#
# Usage: shared-bench.sh [seconds per run, default 3] [largest N, default
#                        16] [core, default 1]
# (VMI_SHARED_SEND_MAX=0: the receive part alone)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../scripts/env.sh"
vmi_help "$@"
B=${VMI_BUILD:-$HERE/../../build}
S=${1:-3}
MAX=${2:-16}
CPU=${3:-1}
[ "$(nproc)" -ge 2 ] || CPU=0
OTHER=$(( CPU == 0 ? 1 : 0 ))
[ "$(nproc)" -ge 2 ] || OTHER=0
EAL="--no-huge --no-pci --log-level=lib.eal:warning --log-level=pmd.net.pcap:error"
tag=vmishb-$$
dir=$(mktemp -d /tmp/vmi-sharedbench-XXXXXX)
trap 'rm -rf "$dir" /var/run/dpdk/$tag-*' EXIT
export GST_PLUGIN_PATH=$B/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
export GST_REGISTRY_1_0=$dir/registry.bin
load () { cut -d' ' -f1-3 /proc/loadavg; }
field () { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

echo "== shared-bench: 1080p59.94, $S s per run, N up to $MAX, engine on core $CPU, $(nproc) CPUs, load $(load), $(date -u +%FT%TZ)"

# --- send ----------------------------------------------------------------
held=0; first=0; caps=""
for n in $(seq 1 "${VMI_SHARED_SEND_MAX:-$MAX}"); do
  out=$("$B/bench/dpdk/bench-tx-shared" "$n" "$S" "$CPU" \
      "$EAL -m 512 -l $OTHER --file-prefix $tag-s$n --vdev net_null0" 2>"$dir/err" | grep '^tx-shared ')
  if [ -z "$out" ]; then
    echo "shared-bench: bench-tx-shared $n failed:" >&2; tail -5 "$dir/err" >&2; exit 1
  fi
  [ -n "$caps" ] || caps=$(echo "$out" | sed 's/.* caps=//')
  late=$(echo "$out" | field late); el=$(echo "$out" | field element_late)
  due=$(awk -v n="$n" -v s="$S" 'BEGIN { printf "%d", n * s * 60000 / 1001 }')
  fr=$(echo "$out" | field frames); tc=$(echo "$out" | field thread_cpu | tr -d %)
  esc=$(awk -v f="$fr" -v c="$tc" -v s="$S" 'BEGIN { printf "%.1f", (c > 0 ? f / (c / 100 * s) / (60000 / 1001) : 0) }')
  echo "$esc" >>"$dir/esc"
  echo "send    N=$n: $(echo "$out" | sed -e 's/^tx-shared streams=[0-9]* //' -e "s/ late=/ (of $due due) late=/" -e 's/ caps=.*//') engine_streams_per_core=$esc (load $(load))"
  if [ "$((late + el))" -gt 0 ]; then
    [ "$first" != 0 ] || first=$n
  elif [ "$first" = 0 ]; then
    held=$n
  fi
done
echo "send:    $held stream(s) of 1080p59.94 in real time from one shared engine on core $CPU ($([ "$first" = 0 ] && echo "none late up to N=$MAX" || echo "the first late frame at N=$first"); caps $caps)"
echo "send:    the shared thread's capacity, largest over the N: $(sort -g "$dir/esc" | tail -1) streams of 1080p59.94 per core (its CPU per frame sent)"

# --- receive ---------------------------------------------------------------
# one frame of each stream (10.0.0.2:<5004+2i>), as st2022sink writes it
for i in $(seq 1 "$MAX"); do
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! \
    video/x-raw,format=UYVP,width=1920,height=1080,framerate=60000/1001 ! \
    st2022sink transport=dpdk host=10.0.0.2 port=$(( 5002 + 2 * i )) \
    destination-mac=02:00:00:00:00:02 bind-address=10.0.0.1 \
    dpdk-eal-args="$EAL -m 512 -l $CPU --file-prefix $tag-w$i --vdev net_pcap0,tx_pcap=$dir/s$i.pcap" \
    >/dev/null 2>&1 || { echo "shared-bench: cannot write the replay" >&2; exit 1; }
done
# the first $1 streams interleaved datagram by datagram (a switch merging
# senders) into $dir/replay.pcap
interleave () { python3 "$HERE/pcap-interleave.py" "$dir" "$1"; }
# rx <n> <mode> <bench-dpdk-rx arguments after the EAL's...>: one run of
# bench-dpdk-rx on the generator, its line without the caps
rx () {
  local n=$1 mode=$2; shift 2
  rm -f "$dir/gen.stats"
  env LD_PRELOAD="$GEN" VMI_RXGEN_PCAP="$dir/replay.pcap" VMI_RXGEN_CPU=$OTHER \
    VMI_RXGEN_FIFO=10 VMI_RXGEN_STATS="$dir/gen.stats" \
    VMI_RXGEN_PACE=$([ "$mode" = paced ] && echo 60000/1001) \
    "$@" "$B/bench/dpdk/bench-dpdk-rx" gen "$S" \
    "$EAL -m $(( 512 + n * 24 )) -l $CPU --file-prefix $tag-r$n" "$n" e0 \
    $(( n * 4497 + 8192 )) $([ "$mode" = paced ] && echo "$CPU") \
    2>"$dir/err" | grep '^rx-element'
}
GEN=$B/tests/dpdk/libvmi-rxgen.so
held=0; last=0; rt=0; rtlast=0; rcaps=""
for n in 1 2 4 6 8 10 12 14 16; do
  [ "$n" -le "$MAX" ] || break
  interleave "$n"
  if [ "$last" = 0 ]; then
    out=$(rx "$n" unpaced taskset -c "$CPU")
    [ -n "$out" ] || { echo "shared-bench: bench-dpdk-rx $n failed:" >&2; tail -5 "$dir/err" >&2; exit 1; }
    [ -n "$rcaps" ] || rcaps=$(echo "$out" | sed 's/.* caps=//')
    cap=$(echo "$out" | field streams_1080p5994); lost=$(echo "$out" | field lost)
    echo "receive N=$n capacity:  $(echo "$out" | sed -e 's/^rx-element sources=[0-9]* //' -e 's/ caps=.*//') (load $(load))"
    if [ "$lost" != 0 ] || awk -v c="$cap" -v n="$n" 'BEGIN { exit !(c < n) }'; then
      last=$n
    else
      held=$n
    fi
  fi
  if [ "$rtlast" = 0 ]; then
    out=$(rx "$n" paced)
    [ -n "$out" ] || { echo "shared-bench: bench-dpdk-rx $n (paced) failed:" >&2; tail -5 "$dir/err" >&2; exit 1; }
    lost=$(echo "$out" | field lost); gl=$(echo "$out" | field gen_lost)
    fr=$(echo "$out" | field frames)
    due=$(awk -v n="$n" -v s="$S" 'BEGIN { printf "%d", n * s * 60000 / 1001 }')
    echo "receive N=$n real time: $(echo "$out" | sed -e 's/^rx-element sources=[0-9]* //' -e 's/ caps=.*//' -e "s/ frames=/ (of $due due) frames=/") (load $(load))"
    if [ "$lost" != 0 ] || [ "$gl" != 0 ] || [ "$fr" -lt $(( due - n )) ]; then
      rtlast=$n
    else
      rt=$n
    fi
  fi
  [ "$last" = 0 ] || [ "$rtlast" = 0 ] || break
done
echo "receive: $rt stream(s) of 1080p59.94 in real time on one shared engine on core $CPU (0 lost by the generator's queue and the receivers$([ "$rtlast" = 0 ] || echo "; N=$rtlast lost or fell short"); caps $rcaps)"
echo "receive: $held stream(s) of 1080p59.94 per core: the shared receive thread's capacity in CPU time$([ "$last" = 0 ] || echo " (N=$last short of it)")"
echo "        (load now $(load))"
