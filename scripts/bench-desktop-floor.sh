#!/usr/bin/env bash
# The floor of scripts/bench-desktop.sh's figures: what a bare WebKitGTK window (no Tauri, no
# app) takes on this machine, under the same Xvfb set-up. Each run starts
# scripts/bench-desktop-floor.c's window on about:blank, prints when the page finished loading,
# then after IDLE seconds (default 5) the proportional set size (Pss in smaps_rollup) of the
# window's process and each WebKit process below it, and their sum.
#
#   scripts/bench-desktop-floor.sh [--runs N] [--no-compositing]
#
# --no-compositing: the view never composites on the GPU (with no GPU, Mesa's llvmpipe does
# that work in software). Needs gcc, pkg-config, libwebkit2gtk-4.1-dev, xvfb-run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "bench-desktop-floor: $*" >&2; exit 1; }

runs=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --no-compositing) export HEDDLE_FLOOR_NO_COMPOSITING=1 ;;
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

xvfb-run -a --server-args="-screen 0 1600x1000x24 -nolisten tcp" bash -c '
  tree() { echo "$1"; for task in /proc/"$1"/task/*; do for child in $(cat "$task/children" 2>/dev/null); do tree "$child"; done; done; }
  kib() { awk -v f="$1:" "\$1 == f { print \$2 }" "/proc/$2/smaps_rollup"; }
  for run in $(seq "$HEDDLE_FLOOR_RUNS"); do
    "$HEDDLE_FLOOR_BIN" 2>/dev/null | sed -u "s/^/run $run: /" &
    sleep 0.2
    pid=$(pgrep -n -f "^$HEDDLE_FLOOR_BIN")
    sleep "$HEDDLE_FLOOR_IDLE"
    total=0; line=""
    for p in $(tree "$pid"); do
      pss=$(kib Pss "$p"); total=$((total + pss))
      line+=" $(cat /proc/"$p"/comm) $((pss / 1024)) (anon $(($(kib Pss_Anon "$p") / 1024)), file $(($(kib Pss_File "$p") / 1024)));"
    done
    echo "run $run: idle PSS $((total / 1024)) MB:$line load $(cut -d" " -f1 /proc/loadavg)"
    kill "$pid"; wait 2>/dev/null || true
  done'
