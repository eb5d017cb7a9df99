#!/usr/bin/env bash
# Desktop smoke test: builds what is missing, then runs tests/desktop/ (the real Tauri window
# driven by tauri-driver + WebKitWebDriver) on a private Xvfb display. The screenshot lands in
# test-output/desktop/.
#
# Needs: xvfb (xvfb-run), webkit2gtk-driver (WebKitWebDriver), tauri-driver
# (`cargo install tauri-driver --locked --version ^2`), Node 20+, and the Tauri build deps.
#
# Environment:
#   CARGO_TARGET_DIR    where cargo builds (default: target/); the binary is taken from there
#   HEDDLE_DESKTOP_BIN  use this binary instead of building one, e.g. the installed app:
#                       HEDDLE_DESKTOP_BIN=/usr/bin/heddle-desktop HEDDLE_BIN=/usr/bin/heddle
#   HEDDLE_BIN          the `heddle` CLI the run tests use (default: debug/heddle in the target dir)
#   HEDDLE_SKIP_BUILD=1 do not run `cargo build` (the binary must exist)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

fail() { echo "desktop-smoke: $*" >&2; exit 1; }

export PATH="$PATH:$HOME/.cargo/bin"
command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"
command -v WebKitWebDriver >/dev/null || fail "WebKitWebDriver not found (apt-get install webkit2gtk-driver)"
command -v tauri-driver >/dev/null \
  || fail "tauri-driver not found (cargo install tauri-driver --locked --version ^2)"

# The binary embeds ui/dist at compile time, so the UI is built first (a given binary has its own).
if [[ -z "${HEDDLE_DESKTOP_BIN:-}" && ! -f ui/dist/index.html ]]; then
  echo "desktop-smoke: ui/dist missing; building the UI" >&2
  [[ -d ui/node_modules ]] || npm --prefix ui ci
  npm --prefix ui run build
fi

if [[ -z "${HEDDLE_DESKTOP_BIN:-}" && "${HEDDLE_SKIP_BUILD:-0}" != 1 ]]; then
  # The CLI too: the run-timeline test leaves a finished run for the window to open.
  cargo build -p heddle-desktop -p heddle-cli ${CI:+--locked}
fi

# Xvfb has no GPU: Mesa renders in software. Do NOT set WEBKIT_DISABLE_DMABUF_RENDERER, and
# keep compositing on (WEBKIT_DISABLE_COMPOSITING_MODE=0; without it the app turns compositing
# off on a machine with no GPU, see src-tauri/src/compositing.rs): with WebKitGTK 2.50 either
# one makes WebDriver's screenshot hang, while the window draws fine without them.
export LIBGL_ALWAYS_SOFTWARE=1
unset WEBKIT_DISABLE_DMABUF_RENDERER
export WEBKIT_DISABLE_COMPOSITING_MODE=0
# No session bus on a CI machine; keep GTK from trying accessibility and portals over it.
export NO_AT_BRIDGE=1
export GTK_USE_PORTAL=0

mkdir -p test-output/desktop
xvfb-run -a --server-args="-screen 0 1600x1000x24 -nolisten tcp" \
  node --test --test-reporter=spec tests/desktop/
