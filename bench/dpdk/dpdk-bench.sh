#!/usr/bin/env bash
# Packets/s per core, side by side in one run (docs/benchmarks.md):
#   send: st2022 packetize + send_burst, dpdk on net_null vs socket (UDP to
#         127.0.0.1, nobody reading: the kernel's full send path)
#   receive: recv_burst + reassembly, dpdk on net_ring (a producer thread
#         on the other core sends into the ring) vs socket on loopback
#   floor: dpdk-testpmd io forwarding on a net_null pair, one core
# Usage: dpdk-bench.sh [seconds per run, default 5]
set -u
B=${VMI_BUILD:-$(dirname "$0")/../../build}
S=${1:-5}
BIN=$B/bench/dpdk/bench-dpdk
EAL="--no-huge --no-pci -m 1024 -l 0,1 --log-level=lib.eal:warning"
tag=vmibench-$$

run() { "$BIN" "$@" 2>/dev/null | grep -E '^(tx|rx) '; }

echo "== dpdk-bench: $S s per run, $(nproc) CPUs, $(date -u +%FT%TZ)"
run tx dpdk "$EAL --file-prefix $tag-a --vdev net_null0" "$S"
run tx socket 127.0.0.1 "$S"
run rx dpdk "$EAL --file-prefix $tag-b --vdev net_ring0" "$S"
run rx socket 127.0.0.1 "$S"

if command -v dpdk-testpmd > /dev/null; then
  # io forwarding net_null0 -> net_null1 on one forwarding core (lcore 1)
  out=$(timeout -s INT $((S + 3)) dpdk-testpmd $EAL --file-prefix $tag-c \
      --vdev net_null0 --vdev net_null1 -- --forward-mode=io --nb-cores=1 \
      --stats-period=1 --burst=64 < /dev/null 2>/dev/null)
  pps=$(echo "$out" | grep -E 'Rx-pps:' | awk '{print $2}' | sort -n | tail -1)
  echo "testpmd io net_null mpps_per_core=$(awk -v p="${pps:-0}" 'BEGIN{printf "%.3f", p/2/1e6}') (rx-pps of one port, both ports forwarded by one core: ${pps:-?} x 2 packets/s)"
else
  echo "testpmd: not installed (Debian package dpdk)"
fi
