#!/usr/bin/env bash
# Runs every test tier: formatting and lints, Rust tests (cargo nextest), UI unit tests
# (Vitest), the browser test (Playwright + Chromium against `heddle serve`) and the desktop
# smoke test (the real Tauri window under Xvfb through tauri-driver). Screenshots land in
# test-output/. Installs missing dependencies first unless HEDDLE_SKIP_INSTALL=1.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

# A tool that leaves the shared stdout/stderr non-blocking (Node can, and so can the process
# that reads our output) makes a later writer fail with EAGAIN whenever it outpaces the
# reader: nextest then stops reporting and exits 110. Every step starts in blocking mode.
# perl-base is part of every Debian system.
blocking_stdio() {
  perl -MFcntl -e 'for my $fd (1, 2) { open(my $h, ">&=", $fd) or next; my $flags = fcntl($h, F_GETFL, 0) or next; fcntl($h, F_SETFL, $flags & ~O_NONBLOCK) }' || true
}
step() { blocking_stdio; printf '\n==> %s\n' "$*"; }
started=$(date +%s)

if [ "${HEDDLE_SKIP_INSTALL:-0}" != 1 ]; then
  step "dependencies"
  scripts/install-deps.sh
fi

step "UI: typecheck, lint and build (first: the heddle binary and the desktop app embed ui/dist)"
(cd ui && npm run typecheck && npm run lint && npm run build)

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "fuzz targets still compile (running them needs nightly; see crates/heddle-dot/README.md)"
cargo check --manifest-path fuzz/Cargo.toml --locked --quiet

step "Rust tests (cargo nextest)"
cargo nextest run --workspace --locked --no-fail-fast

step "UI unit tests (Vitest)"
(cd ui && npm test)

step "browser tests (Playwright + Chromium against heddle serve)"
cargo build -p heddle-cli --locked
HEDDLE_BIN="$CARGO_TARGET_DIR/debug/heddle" node --test tests/browser/

step "desktop smoke test (Tauri window under Xvfb)"
cargo build -p heddle-desktop --locked
scripts/desktop-smoke.sh

step "all tiers passed in $(( $(date +%s) - started ))s"
