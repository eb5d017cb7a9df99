#!/usr/bin/env bash
# The floor of scripts/bench-desktop.sh's figures: what a bare WebKitGTK window (no Tauri, no
# app) takes on this machine, under the same Xvfb set-up. Each run starts
# scripts/bench-desktop-floor.c's window on about:blank, prints when the page finished loading,
# then after IDLE seconds (default 5) the proportional set size (Pss in smaps_rollup) of the
# window's process and each WebKit process below it, and their sum.
#
#   scripts/bench-desktop-floor.sh [--runs N] [--no-compositing] [--knobs LIST] [--files]
#
# --no-compositing: the view never composites on the GPU (with no GPU, Mesa's llvmpipe does
# that work in software); the same as --knobs no-compositing.
# --knobs LIST: WebKit's memory knobs to turn on, comma-separated (no-compositing, cache-model,
# no-page-cache, no-features, memory-pressure, late-no-compositing; no-window for a bare GTK window without a web
# view), described at the top of scripts/bench-desktop-floor.c. Extra environment (JSC_*,
# WEBKIT_*) reaches the window and its WebKit processes as it is.
# --files: also the mapped files taking the most PSS, summed over the processes (what the
# shared libraries and data files cost, which no WebKit setting changes).
# Needs gcc, pkg-config, libwebkit2gtk-4.1-dev, xvfb-run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "bench-desktop-floor: $*" >&2; exit 1; }

runs=3
knobs=""
files=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --no-compositing) knobs="$knobs,no-compositing" ;;
    --knobs) knobs="$knobs,$2"; shift ;;
    --files) files=1 ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) fail "unknown argument: $1 (see --help)" ;;
  esac
  shift
done
command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"
pkg-config --exists webkit2gtk-4.1 || fail "webkit2gtk-4.1 not found (apt-get install libwebkit2gtk-4.1-dev)"

target="${CARGO_TARGET_DIR:-$repo/target}"
mkdir -p "$target/bench-floor"
bin="$target/bench-floor/webkit-floor"
# shellcheck disable=SC2046 # pkg-config prints several flags
gcc -O2 -o "$bin" "$repo/scripts/bench-desktop-floor.c" $(pkg-config --cflags --libs webkit2gtk-4.1)

# The same display set-up as the benchmark (see scripts/desktop-smoke.sh).
export LIBGL_ALWAYS_SOFTWARE=1 NO_AT_BRIDGE=1 GTK_USE_PORTAL=0
unset WEBKIT_DISABLE_DMABUF_RENDERER WEBKIT_DISABLE_COMPOSITING_MODE
export HEDDLE_FLOOR_BIN="$bin" HEDDLE_FLOOR_RUNS="$runs" HEDDLE_FLOOR_IDLE="${IDLE:-5}"
export HEDDLE_FLOOR_KNOBS="${knobs#,}" HEDDLE_FLOOR_FILES="$files"
echo "knobs: ${HEDDLE_FLOOR_KNOBS:-none}"

# Each run: start the window, wait for its load to finish (up to a minute), idle, measure.
measure=$(cat <<'SCRIPT'
tree() { echo "$1"; for task in /proc/"$1"/task/*; do for child in $(cat "$task/children" 2>/dev/null); do tree "$child"; done; done; }
kib() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$2/smaps_rollup"; }
for run in $(seq "$HEDDLE_FLOOR_RUNS"); do
  out=$(mktemp)
  "$HEDDLE_FLOOR_BIN" >"$out" 2>/dev/null &
  pid=$!
  for _ in $(seq 600); do grep -q loaded "$out" && break; sleep 0.1; done
  echo "run $run: $(cat "$out")"
  sleep "$HEDDLE_FLOOR_IDLE"
  total=0; line=""
  for p in $(tree "$pid"); do
    pss=$(kib Pss "$p"); total=$((total + pss))
    line+=" $(cat /proc/"$p"/comm) $((pss / 1024)) (anon $(($(kib Pss_Anon "$p") / 1024)), file $(($(kib Pss_File "$p") / 1024)));"
  done
  echo "run $run: idle PSS $((total / 1024)) MB:$line load $(cut -d" " -f1 /proc/loadavg)"
  if [[ -n "$HEDDLE_FLOOR_FILES" ]]; then
    for p in $(tree "$pid"); do
      awk -v proc="$(cat /proc/"$p"/comm)" '
        /^[0-9a-f]+-[0-9a-f]+ / { file = $6 == "" ? "[anon]" : $6 }
        /^Pss:/ { pss[file] += $2 }
        END { for (f in pss) if (pss[f] >= 1024) printf "  %6.1f MB %s %s\n", pss[f] / 1024, proc, f }' /proc/"$p"/smaps |
        sort -rn | head -8
    done
  fi
  kill "$pid"; wait 2>/dev/null || true
  rm -f "$out"
done
SCRIPT
)
xvfb-run -a --server-args="-screen 0 1600x1000x24 -nolisten tcp" bash -c "$measure"
