#!/usr/bin/env bash
# Capture-scan benchmark: `snapshot` over a generated 100k-file tree vs `find` with the same
# prunes, measured in the same run, best of 5 each (after one warm-up run of each).
# Usage: benches/capture_scan.sh [FILES]   (default 100000). Target: ratio <= 1.0x.
set -euo pipefail

FILES=${1:-100000}
RUNS=5
CRATE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORKSPACE_DIR=$(cd "$CRATE_DIR/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$WORKSPACE_DIR/target}

(cd "$CRATE_DIR" && cargo build --quiet --release -p heddle-artifacts --example scan)
BIN=$TARGET_DIR/release/examples/scan

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TREE=$TMP/tree
"$BIN" gen "$TREE" "$FILES"

run_find() {
  find "$TREE" \( -name node_modules -o -name .git -o -name target -o -name .heddle \
    -o -path '*/.cache/ms-playwright' -o -path '*/.yarn/cache' \) -prune \
    -o -type f -print > /dev/null
}
run_scan() {
  "$BIN" snapshot "$TREE" > /dev/null
}

# best_of NAME: runs NAME $RUNS times, prints the fastest wall time in nanoseconds.
best_of() {
  local best=0 start end took
  "$1"
  for _ in $(seq "$RUNS"); do
    start=$(date +%s%N)
    "$1"
    end=$(date +%s%N)
    took=$((end - start))
    if [ "$best" -eq 0 ] || [ "$took" -lt "$best" ]; then best=$took; fi
  done
  echo "$best"
}

echo "scan output: $("$BIN" snapshot "$TREE")"
echo "find visits: $(find "$TREE" \( -name node_modules -o -name .git -o -name target -o -name .heddle \
  -o -path '*/.cache/ms-playwright' -o -path '*/.yarn/cache' \) -prune -o -type f -print | wc -l) files"

# Interleave the two measurements so both see the same cache state.
FIND_NS=$(best_of run_find)
SCAN_NS=$(best_of run_scan)
FIND_NS2=$(best_of run_find)
SCAN_NS2=$(best_of run_scan)
[ "$FIND_NS2" -lt "$FIND_NS" ] && FIND_NS=$FIND_NS2
[ "$SCAN_NS2" -lt "$SCAN_NS" ] && SCAN_NS=$SCAN_NS2

awk -v s="$SCAN_NS" -v f="$FIND_NS" -v n="$FILES" 'BEGIN {
  printf "tree: %d files\n", n
  printf "find (same prunes): %8.2f ms  (best of 2x5)\n", f / 1e6
  printf "snapshot scan:      %8.2f ms  (best of 2x5)\n", s / 1e6
  printf "ratio scan/find:    %8.2fx  (target <= 1.0x)\n", s / f
}'
