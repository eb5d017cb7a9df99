#!/usr/bin/env bash
# Builds Heddle and opens its bundled example. With a display this is the desktop app;
# without one (a server over SSH) it serves the same UI to a browser on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
example="${1:-examples/hello.dot}"

scripts/install-deps.sh
(cd ui && npm run build)
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec cargo run -p heddle-desktop --release -- "$example"
else
  echo "No display found: serving the UI instead (open the URL printed below)."
  exec cargo run -p heddle-cli --release -- serve --workspace examples --file "$example"
fi
