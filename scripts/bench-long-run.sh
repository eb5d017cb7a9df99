#!/usr/bin/env bash
# Long-run benchmark: runs chains of no-op conditional nodes (diamonds) through a `heddle`
# binary and prints, per chain length and checkpoint mode, the wall time, the engine's
# overhead per stage, the bytes it wrote per stage, the run folder's size, and the size of the
# git repository (the shadow repository) after the run. Issue 24's targets: overhead per
# stage at 20,000 stages within 1.2x of that at 500; under 1 ms without git, under 5 ms with
# shadow checkpoints; a 1,000-stage shadow run leaves a repository under 5 MB.
#
# Usage: scripts/bench-long-run.sh [HEDDLE_BIN] [STAGES...]
#   HEDDLE_BIN  a release build (default: $CARGO_TARGET_DIR/release/heddle)
#   STAGES      chain lengths (default: 500 5000 20000)
# Env: MODES (default "none shadow"), BENCH_DIR (scratch folder, default a new temp dir).
# Output: one Markdown table row per (stages, mode) on stdout.
set -euo pipefail

bin="${1:-${CARGO_TARGET_DIR:-target}/release/heddle}"
shift || true
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(500 5000 20000)
modes=(${MODES:-none shadow})
scratch="${BENCH_DIR:-$(mktemp -d)}"
mkdir -p "$scratch"
if [ ! -x "$bin" ]; then
  echo "no heddle binary at $bin (build one: cargo build --release -p heddle-cli)" >&2
  exit 1
fi

# A chain of `n` diamonds between start and exit.
chain() {
  local n=$1 i
  echo "digraph Chain {"
  echo "  start [shape=Mdiamond];"
  echo "  exit [shape=Msquare];"
  for ((i = 0; i < n; i++)); do echo "  n$i [shape=diamond];"; done
  echo "  start -> n0;"
  for ((i = 1; i < n; i++)); do echo "  n$((i - 1)) -> n$i;"; done
  echo "  n$((n - 1)) -> exit;"
  echo "}"
}

bytes_of() { du -sb "$1" 2>/dev/null | cut -f1; }

echo "| stages | checkpoints | total s | ms/stage | bytes written/stage | run folder | repository | loose objects |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for n in "${stages[@]}"; do
  for mode in "${modes[@]}"; do
    case_dir="$scratch/$n-$mode"
    rm -rf "$case_dir"
    mkdir -p "$case_dir/work" "$case_dir/home"
    chain "$n" >"$case_dir/work/chain.dot"
    echo "one file" >"$case_dir/work/file.txt"
    start=$(date +%s.%N)
    # The shell's own I/O counters take in the child's once it is reaped: `wchar` is every
    # byte heddle (and git inside it) handed to write(2), events on stdout included.
    if ! written=$(cd "$case_dir/work" && HEDDLE_HOME="$case_dir/home" bash -c '
      "$0" run chain.dot --checkpoints "$1" --trust --json >"$2/events.jsonl" 2>"$2/stderr.log" ||
        exit $?
      awk "/^wchar/ {print \$2}" /proc/$$/io' "$bin" "$mode" "$case_dir"); then
      echo "heddle failed on $n stages with --checkpoints $mode; $case_dir/stderr.log ends:" >&2
      tail -n 5 "$case_dir/stderr.log" >&2
      exit 1
    fi
    end=$(date +%s.%N)
    written=$((written - $(bytes_of "$case_dir/events.jsonl")))
    total=$(echo "$end - $start" | bc -l)
    run_dir=$(ls -d "$case_dir"/home/runs/*/ | head -1)
    run_bytes=$(bytes_of "$run_dir")
    repo="-"
    loose="-"
    if [ -d "$case_dir/home/shadow" ]; then
      repo=$(bytes_of "$case_dir/home/shadow")
      loose=$(find "$case_dir/home/shadow" -path '*/objects/??/*' -type f | wc -l)
    fi
    # Stages: the chain plus start and exit.
    per_stage=$(echo "$total * 1000 / ($n + 2)" | bc -l)
    printf "| %s | %s | %.2f | %.3f | %d | %d | %s | %s |\n" "$n" "$mode" "$total" "$per_stage" \
      $((written / (n + 2))) "$run_bytes" "$repo" "$loose"
  done
done
