#!/usr/bin/env bash
# One harness over its seed corpus and then RUNS mutated inputs (a number of runs, not a time, so
# the check is the same on every machine), in a scratch copy of the corpus. Exit 77 (the test
# SKIPs) when the fuzz build tree was not made. Usage: run_bounded.sh HARNESS CORPUS RUNS
set -euo pipefail
harness=$1; corpus=$2; runs=$3
if [[ ! -x "$harness" ]]; then
  echo "skipped: $harness is not built (scripts/build makes build/fuzz with clang and libFuzzer)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$corpus" "$tmp/corpus"
"$harness" -runs="$runs" -seed=1 -max_len=4096 -artifact_prefix="$tmp/" "$tmp/corpus" > "$tmp/log" 2>&1 || {
  cat "$tmp/log"
  for crash in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-*; do
    [[ -e "$crash" ]] && { echo "--- the input that broke it ($crash):"; od -c "$crash" | head -20; }
  done
  exit 1
}
grep -E "DONE" "$tmp/log"
