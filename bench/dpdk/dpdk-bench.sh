#!/usr/bin/env bash
# Like-for-like DPDK rates, alternated in one run (docs/benchmarks.md,
# "DPDK transport"): each of our figures next to dpdk-testpmd doing the
# nearest job on the same virtual device, pinned to the same core, rounds
# alternating which goes first; min/median/max over the rounds and the
# load average are printed.
#
#   send:    bench-dpdk tx (packetize + zero-copy send_burst, 2 mbufs per
#            datagram) vs testpmd txonly --txpkts=66,1376 (2 mbufs per
#            packet, the same sizes), both on net_null
#   receive: bench-dpdk rx (poll + filter + reassembly into a raster) vs
#            testpmd rxonly, both on net_pcap infinite_rx replaying one
#            valid 1080p59.94 frame (loaded into memory up front: the source
#            is never the bottleneck)
#   whole elements: st2022sink transport=dpdk pacing=none on net_null,
#            st2022src transport=dpdk on the replay, 1080p59.94 and
#            1080p50, with the caps they negotiated, streams per core and
#            context switches per frame; the sink on pattern=smpte and, at
#            1080p59.94, on pattern=smpte75 (send-legal: no reserved values)
#
# CPU: ours from getrusage (the thread, or the whole process for the
# elements, between two frames); testpmd's from its forwarding thread's
# utime + stime in /proc/<pid>/task/<tid>/stat. Never wall clock.
#
# Usage: dpdk-bench.sh [seconds per run, default 3] [rounds, default 3]
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
B=${VMI_BUILD:-$HERE/../../build}
S=${1:-3}
R=${2:-3}
BIN=$B/bench/dpdk/bench-dpdk
ELEM=$B/bench/dpdk/bench-element
TAG=vmibench-$$
BENCH_CLEANUP="rm -rf /var/run/dpdk/$TAG-*"
. "$HERE/../net/common.sh"
vmi_help "$@"
bench_tmp vmi-dpdk-bench

# the core every measured thread runs on; testpmd's main lcore (it only
# prints) sits on core 0
CPU=1
[ "$(nproc)" -ge 2 ] || CPU=0
EAL="--no-huge --no-pci -m 512 --log-level=lib.eal:warning --log-level=pmd.net.pcap:warning"
HZ=$(getconf CLK_TCK)
# a --file-prefix per DPDK process (called in subshells: no counter)
prefix () { echo "--file-prefix $TAG-$RANDOM$RANDOM"; }
load () { cut -d' ' -f1-3 /proc/loadavg; }
field () { sed -n "s/.*[ ,]$1=\(([a-z0-9]*)\)\{0,1\}\([^ ,;]*\).*/\2/p"; }
# min / median / max of the numbers on stdin
mmm () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit }
  printf "%s / %s / %s", v[1], (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[NR] }'; }

command -v dpdk-testpmd >/dev/null || { echo "dpdk-bench: SKIP: no dpdk-testpmd (Debian package dpdk)"; exit 77; }

# datagrams per CPU-second (millions) of testpmd's forwarding thread:
# $1 forward mode, $2 vdev arguments, $3 extra testpmd arguments
testpmd_rate () {
  local pid tid="" t ticks=0 i pk
  taskset -c "0,$CPU" dpdk-testpmd $EAL -l "0,$CPU" $(prefix) $2 -- \
    --forward-mode="$1" --nb-cores=1 --stats-period=1 \
    --total-num-mbufs=16384 $3 >"$TMP/tp" 2>&1 </dev/null &
  pid=$!
  for i in $(seq 100); do
    grep -q 'Tx-pps\|Rx-pps' "$TMP/tp" && break
    sleep 0.1
  done
  sleep "$S"
  for t in /proc/$pid/task/*; do
    [ "$(cat "$t/comm" 2>/dev/null)" = "rte-worker-$CPU" ] && tid=$t
  done
  [ -n "$tid" ] && ticks=$(awk '{ print $14 + $15 }' "$tid/stat")
  kill -INT "$pid"
  wait "$pid"
  if [ "$1" = txonly ]; then
    pk=$(sed -n '/Accumulated/,/+++++$/s/.*TX-packets: *\([0-9]*\).*/\1/p' "$TMP/tp")
  else
    pk=$(sed -n '/Accumulated/,/+++++$/s/.*RX-packets: *\([0-9]*\).*/\1/p' "$TMP/tp")
  fi
  if [ -z "$pk" ] || [ "$ticks" = 0 ]; then
    echo "dpdk-bench: testpmd $1 gave no figure (forwarding thread ${tid:-not found}, ticks $ticks, packets ${pk:-none}):" >&2
    grep -v '^ *$' "$TMP/tp" | tail -12 >&2
    echo 0; return
  fi
  awk -v p="$pk" -v t="$ticks" -v hz="$HZ" 'BEGIN { printf "%.3f\n", p / (t / hz) / 1e6 }'
}

# one valid frame of $1 (format name) with caps $2, as st2022sink sends it
make_replay () {
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! "$2" \
    ! st2022sink transport=dpdk host=239.1.2.3 port=5004 pacing=none \
      sync=false stats-interval=0 \
      dpdk-eal-args="$EAL -l $CPU $(prefix) --vdev net_pcap0,tx_pcap=$TMP/$1.pcap" \
    >"$TMP/mk" 2>&1 || { echo "dpdk-bench: cannot write the $1 replay:" >&2; tail -5 "$TMP/mk" >&2; exit 1; }
}

C5994="video/x-raw,format=UYVP,width=1920,height=1080,framerate=60000/1001,interlace-mode=progressive"
C50="video/x-raw,format=UYVP,width=1920,height=1080,framerate=50/1,interlace-mode=progressive"
make_replay 1080p59.94 "$C5994"
make_replay 1080p50 "$C50"
REPLAY="net_pcap0,rx_pcap=$TMP/1080p59.94.pcap,infinite_rx=1"

echo "== dpdk-bench: $R rounds of $S s per figure, $(nproc) CPUs, pinned to core $CPU, load $(load), $(date -u +%FT%TZ)"

# --- transport level, against testpmd ---------------------------------------
for r in $(seq "$R"); do
  for side in tx rx; do
    if [ "$side" = tx ]; then
      vdev="--vdev net_null0"; mode=txonly; extra="--txpkts=66,1376"
    else
      vdev="--vdev $REPLAY"; mode=rxonly; extra=""
    fi
    for who in $( [ $((r % 2)) = 1 ] && echo "ours testpmd" || echo "testpmd ours"); do
      if [ "$who" = ours ]; then
        out=$(taskset -c "$CPU" "$BIN" "$side" dpdk "$EAL -l $CPU $(prefix) $vdev" "$S" 2>"$TMP/err") \
          || { echo "dpdk-bench: bench-dpdk $side failed:" >&2; tail -5 "$TMP/err" >&2; exit 1; }
        echo "$out" >>"$TMP/log"
        echo "$out" | field mpps_per_cpu_s >"$TMP/$side.ours.$r"
      else
        # once more if a run gave nothing (it happens on a loaded machine)
        testpmd_rate "$mode" "$vdev" "$extra" >"$TMP/$side.testpmd.$r"
        [ "$(cat "$TMP/$side.testpmd.$r")" != 0 ] \
          || testpmd_rate "$mode" "$vdev" "$extra" >"$TMP/$side.testpmd.$r"
      fi
    done
    awk -v a="$(cat "$TMP/$side.ours.$r")" -v b="$(cat "$TMP/$side.testpmd.$r")" \
      'BEGIN { printf "%.2f\n", (b > 0 ? a / b : 0) }' >"$TMP/$side.ratio.$r"
  done
done
rx_frames=$(grep '^rx ' "$TMP/log" | field frames | paste -sd+ | bc)
rx_lost=$(grep '^rx ' "$TMP/log" | field lost | paste -sd+ | bc)
echo "send    packetize + send_burst (net_null, 1080p59.94): $(cat "$TMP"/tx.ours.* | mmm) M datagrams/CPU-s | testpmd txonly --txpkts=66,1376: $(cat "$TMP"/tx.testpmd.* | mmm) | ratio $(cat "$TMP"/tx.ratio.* | mmm)"
echo "receive recv_burst + reassembly (net_pcap replay):    $(cat "$TMP"/rx.ours.* | mmm) M datagrams/CPU-s | testpmd rxonly: $(cat "$TMP"/rx.testpmd.* | mmm) | ratio $(cat "$TMP"/rx.ratio.* | mmm) (frames $rx_frames, lost $rx_lost)"
echo "        (min / median / max of $R rounds; load now $(load))"

# --- whole elements: picture to wire, wire to picture -------------------------
FRAMES=${FRAMES:-600}
WARM=60
element () {
  # $1 label, $2 pipeline; appends "fps datagrams_per_frame caps" to
  # $TMP/$1 and the process's context switches per frame to $TMP/$1.csw
  local out
  out=$(taskset -c "$CPU" "$ELEM" "$WARM" "$2" 2>"$TMP/err") \
    || { echo "dpdk-bench: $1 failed:" >&2; tail -5 "$TMP/err" >&2; exit 1; }
  echo "$out" >>"$TMP/elog"
  fps=$(echo "$out" | field fps_per_cpu_s)
  pk=$(echo "$out" | sed 's/.*stats=//' | field packets)
  fr=$(echo "$out" | sed 's/.*stats=//' | field frames)
  caps=$(echo "$out" | sed -e 's/^caps=//' -e 's/ frames=.*//')
  echo "$fps $((pk / fr)) $caps" >>"$TMP/$1"
  echo "$out" | field switches_per_frame >>"$TMP/$1.csw"
}
# send: pattern=smpte (a quarter of its rows hold the reserved value 0,
# which the writer clips on its slower path) and, at 1080p59.94, also
# "send-legal": pattern=smpte75, no reserved value, as real SDI video
send_pipe () {
  echo "videotestsrc num-buffers=1 pattern=$1 ! $2 ! imagefreeze num-buffers=$FRAMES ! $2 ! st2022sink name=count transport=dpdk host=239.1.2.3 port=5004 pacing=none sync=false stats-interval=0 dpdk-eal-args=\"$EAL -l $CPU $(prefix) --vdev net_null0\""
}
for r in $(seq "$R"); do
  for f in "1080p59.94 $C5994" "1080p50 $C50"; do
    set -- $f
    element "send-$1" "$(send_pipe smpte "$2")"
    [ "$1" = 1080p50 ] || element "send-legal-$1" "$(send_pipe smpte75 "$2")"
    element "receive-$1" "st2022src transport=dpdk address=239.1.2.3 port=5004 num-buffers=$FRAMES stats-interval=0 dpdk-eal-args=\"$EAL -l $CPU $(prefix) --vdev net_pcap0,rx_pcap=$TMP/$1.pcap,infinite_rx=1\" ! fakesink name=count sync=false"
  done
done
for f in "1080p59.94 59.94" "1080p50 50"; do
  set -- $f
  sides="send send-legal receive"
  [ "$1" = 1080p50 ] && sides="send receive"
  for side in $sides; do
    rate=$(awk '{ print $1 }' "$TMP/$side-$1" | mmm)
    spc=$(awk -v r="$2" '{ printf "%.1f\n", $1 / r }' "$TMP/$side-$1" | mmm)
    mdg=$(awk '{ printf "%.2f\n", $1 * $2 / 1e6 }' "$TMP/$side-$1" | mmm)
    echo "element $side $1: $rate frames/CPU-s = $mdg M datagrams/CPU-s = $spc streams per core, $(mmm <"$TMP/$side-$1.csw") context switches/frame ($(head -1 "$TMP/$side-$1" | cut -d' ' -f2) datagrams/frame; caps $(head -1 "$TMP/$side-$1" | cut -d' ' -f3-))"
  done
done
echo "        (whole process CPU between frame $WARM and frame $FRAMES, min / median / max of $R runs; load now $(load))"
grep -h 'stats=' "$TMP/elog" | grep -o 'packets-lost=([a-z0-9]*)[0-9]*\|frames-late=([a-z0-9]*)[0-9]*' | sort | uniq -c | sed 's/^/        counters over all element runs: /'

# --- many streams on one core: shared engines (st2022sink/st2022src
# shared-engine) ---------------------------------------------------------------
# Receive, one whole st2022src, then 8 st2022src on one shared engine,
# each against testpmd rxonly on the same source and core
# (bench/dpdk/rx-bench.sh, which also prints each round): the rx-gen
# generator on net_ring, on the other core, one stream or 8 interleaved
# datagram by datagram. The generator is not paced here: streams per core
# = datagrams per CPU-second of the receive thread / 269,550, the capacity
# of one core; the count held in real time is shared-bench.sh's.
echo "receive, whole st2022src on the rx-gen source, polling on core $CPU (rx-bench.sh $S $R $CPU 1):"
VMI_BUILD=$B "$HERE/rx-bench.sh" "$S" "$R" "$CPU" 1 2>&1 \
  | grep -E '^rx-element|^testpmd|^ratio|^st2022src' | sed -e 's/ caps=.*//' -e 's/^/        /'
echo "        the copy alone (bench-rx-copy: one frame of payloads into output frames taken in turn from a pool of N):"
taskset -c "$CPU" "$B/bench/dpdk/bench-rx-copy" "$S" | sed 's/^/        /'
if gst-inspect-1.0 st2022src 2>/dev/null | grep -q shared-engine; then
  echo "shared engine: receive, 8 st2022src on one engine pinned to core $CPU (rx-bench.sh $S $R $CPU 8 e0):"
  VMI_BUILD=$B "$HERE/rx-bench.sh" "$S" "$R" "$CPU" 8 e0 2>&1 \
    | grep -E '^rx-element|^testpmd|^ratio' | sed -e 's/ caps=.*//' -e 's/^/        /'
else
  echo "shared engine: receive: st2022src has no shared-engine in this build"
fi
echo "shared engines, streams per core (send: live sinks up to the first late frame; receive: sources up to the thread's capacity): benchmark dpdk-shared-engines, bench/dpdk/shared-bench.sh"
