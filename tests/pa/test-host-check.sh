#!/bin/sh
# tools/vmi-host-check runs here and reports every item, each with what this
# host has (and a fix when a requirement is not met); --strict turns unmet
# requirements into exit status 1; a bad interface is reported, not a crash.
set -u
tool=$1
out=$("$tool" --cpu 0 --iface lo) || { echo "exit status $?"; exit 1; }
echo "$out"
for item in "isolated core" "nohz_full" "rcu_nocbs" "real-time throttling" \
    "IRQ affinity" "irqbalance" "hugepages" "memlock" "CPU frequency" \
    "NIC " "NIC flow control" "MAC-control TX" "host jitter" "timer wake-up" \
    "requirement"; do
  echo "$out" | grep -q "$item" || { echo "missing: $item"; exit 1; }
done
# every unmet requirement comes with its fix
warns=$(echo "$out" | grep -c '^\[warn\]')
fixes=$(echo "$out" | grep -A1 '^\[warn\]' | grep -c 'fix:')
[ "$warns" = "$fixes" ] || { echo "$warns warnings, $fixes fixes"; exit 1; }
echo "$out" | grep -q "^$warns requirement" || { echo "count line wrong"; exit 1; }
# --strict: status 1 exactly when something is not met
"$tool" --cpu 0 --iface lo --strict >/dev/null; rc=$?
if [ "$warns" -gt 0 ]; then [ $rc = 1 ] || exit 1; else [ $rc = 0 ] || exit 1; fi
# --measure: 10^5 iterations of vmi-jitter's dummy loop on the core
m=$("$tool" --cpu 0 --measure) || exit 1
echo "$m" | grep -q "^\[\(ok\|warn\)\] host jitter *dummy loop on core 0, 99999 x 7.41 us: p99.9 .* receiver needs [0-9]* datagrams" ||
  { echo "no measurement: $m"; exit 1; }
# and 20,000 timer sleeps 50 us apart, with the CPU each wake-up cost
echo "$m" | grep -q "^\[\(ok\|warn\)\] timer wake-up *20000 sleeps of 50 us on core 0: [0-9.]* us of CPU each (.* late p99 [0-9.]* us, max [0-9.]* us" ||
  { echo "no wake-up measurement: $m"; exit 1; }
bad=$("$tool" --iface nosuch0) || exit 1
echo "$bad" | grep -q "no interface named 'nosuch0'" || { echo "bad iface"; exit 1; }
exit 0
