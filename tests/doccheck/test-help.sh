#!/usr/bin/env bash
# Every script a user may run (scripts/, pipelines/, bench/, tools/,
# examples/) answers --help: exit 0, a description on stdout, and nothing
# started (it runs in an empty directory, which must stay empty, within
# 20 s). Sourced helpers (bench/net/common.sh) are not run.
set -u
ROOT=${VMI_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT"
fail=0
n=0
for f in $(git ls-files scripts pipelines bench tools examples 2>/dev/null ||
    find scripts pipelines bench tools examples -type f); do
  case "$f" in
    bench/net/common.sh) continue ;;
    *.sh|scripts/*) run=bash ;;
    *.py) run=/usr/bin/python3 ;;
    *) continue ;;
  esac
  case "$f" in scripts/*.*) case "$f" in *.sh) ;; *) continue ;; esac ;; esac
  dir=$(mktemp -d)
  out=$(cd "$dir" && timeout 20 $run "$ROOT/$f" --help </dev/null 2>&1)
  rc=$?
  n=$((n + 1))
  if [ $rc -ne 0 ]; then
    echo "FAIL $f --help: exit $rc: $(printf '%s' "$out" | head -3)"
    fail=1
  elif [ -z "$out" ]; then
    echo "FAIL $f --help: printed nothing"
    fail=1
  elif [ -n "$(ls -A "$dir")" ]; then
    echo "FAIL $f --help: wrote $(ls -A "$dir" | head -3 | tr '\n' ' ')"
    fail=1
  else
    echo "ok   $f: $(printf '%s' "$out" | head -1 | cut -c1-60)"
  fi
  rm -rf "$dir"
done
echo "$n scripts"
[ $n -gt 10 ] || { echo "FAIL: only $n scripts found"; fail=1; }
exit $fail
