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
    "NIC " "NIC flow control" "MAC-control TX" "requirement"; do
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
bad=$("$tool" --iface nosuch0) || exit 1
echo "$bad" | grep -q "no interface named 'nosuch0'" || { echo "bad iface"; exit 1; }
exit 0
