#!/usr/bin/env bash
# Desktop benchmark: cold start of heddle-desktop to a drawn workflow, and the idle memory of
# the app with its WebKit processes, under Xvfb (what the timings and "drawn" mean is at the
# top of scripts/bench-desktop.mjs). Targets: under 1.5 s and under 150 MB.
#
#   scripts/bench-desktop.sh [--runs N] [--app BINARY] [--workflow FILE] [--compositing] [--files]
#
# --compositing keeps WebKit's compositing on where the app would turn it off (a machine with no
# GPU, see src-tauri/src/compositing.rs): the app as it was before, and as the smoke test runs it.
# --files also lists, for each process, the mappings taking the most memory at the idle
# measurement (the shared libraries, the app's binary, its heap), to see what the PSS is made of.
#
# The app defaults to the release build in the target dir (`cargo build --release -p
# heddle-desktop` after `npm --prefix ui run build`), else the debug build; /usr/bin/heddle-desktop
# measures the installed package. The workflow defaults to examples/plan-implement-test.dot.
# Figures go to test-output/bench/desktop-<release|debug|installed>.json.
# Needs what scripts/desktop-smoke.sh needs: xvfb-run, WebKitWebDriver, tauri-driver, Node.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
fail() { echo "bench-desktop: $*" >&2; exit 1; }

runs=5
app=""
compositing=""
workflow="$repo/examples/plan-implement-test.dot"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --app) app="$2"; shift ;;
    --workflow) workflow="$2"; shift ;;
    --compositing) compositing=0 ;;
    --files) export HEDDLE_BENCH_FILES=1 ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) fail "unknown argument: $1 (see --help)" ;;
  esac
  shift
done

target="${CARGO_TARGET_DIR:-target}"
[[ "$target" = /* ]] || target="$repo/$target"
if [[ -z "$app" ]]; then
  for candidate in "$target/release/heddle-desktop" "$target/debug/heddle-desktop"; do
    if [[ -x "$candidate" ]]; then app="$candidate"; break; fi
  done
fi
[[ -n "$app" && -x "$app" ]] || fail "no heddle-desktop binary: build one or pass --app"
case "$app" in
  */release/*) label=release ;;
  */debug/*) label=debug ;;
  /usr/bin/*) label=installed ;;
  *) label=app ;;
esac

export PATH="$PATH:$HOME/.cargo/bin"
command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"
command -v WebKitWebDriver >/dev/null || fail "WebKitWebDriver not found (apt-get install webkit2gtk-driver)"
command -v tauri-driver >/dev/null || fail "tauri-driver not found (cargo install tauri-driver --locked --version ^2)"

# The smoke test's display set-up (see scripts/desktop-smoke.sh), except that compositing is
# left to the app unless --compositing (the smoke test keeps it on for WebDriver's screenshots).
export LIBGL_ALWAYS_SOFTWARE=1
unset WEBKIT_DISABLE_DMABUF_RENDERER WEBKIT_DISABLE_COMPOSITING_MODE
if [[ -n "$compositing" ]]; then
  export WEBKIT_DISABLE_COMPOSITING_MODE=0
  label="$label-compositing"
fi
export NO_AT_BRIDGE=1
export GTK_USE_PORTAL=0

export HEDDLE_DESKTOP_BIN="$app" HEDDLE_BENCH_WORKFLOW="$workflow" HEDDLE_BENCH_RUNS="$runs"
export HEDDLE_BENCH_LABEL="$label"
xvfb-run -a --server-args="-screen 0 1600x1000x24 -nolisten tcp" node scripts/bench-desktop.mjs
