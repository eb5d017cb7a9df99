#!/usr/bin/env bash
# Runs every test tier: formatting and lints, Rust tests (cargo nextest; the run index's
# tests twice, on SQLite and on a throwaway PostgreSQL server), UI unit tests
# (Vitest), the browser test (Playwright + Chromium against `heddle serve`), the Debian
# package (built from the debug build; in CI, or with HEDDLE_INSTALL_DEB=1, installed with
# dpkg -i) and the desktop smoke test (the real Tauri window under Xvfb through tauri-driver;
# the installed /usr/bin/heddle-desktop when the package was installed). Screenshots land in
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

step "Rust tests (cargo nextest), with throwaway PostgreSQL and S3 (moto) servers for the team's shared index and run files"
HEDDLE_TEST_POSTGRES_URL="$(scripts/postgres-for-tests.sh start)"
export HEDDLE_TEST_POSTGRES_URL
trap 'scripts/postgres-for-tests.sh stop || true; scripts/s3-for-tests.sh stop || true' EXIT
HEDDLE_TEST_S3_URL="$(scripts/s3-for-tests.sh start)"
export HEDDLE_TEST_S3_URL
cargo nextest run --workspace --locked --no-fail-fast

step "the run index's tests again, on PostgreSQL (HEDDLE_TEST_INDEX=postgres)"
HEDDLE_TEST_INDEX=postgres cargo nextest run -p heddle-store --locked --no-fail-fast

step "UI unit tests (Vitest)"
(cd ui && npm test)

step "browser tests (Playwright + Chromium against heddle serve)"
cargo build -p heddle-cli --locked
HEDDLE_BIN="$CARGO_TARGET_DIR/debug/heddle" node --test tests/browser/

step "desktop package: the .deb of the debug build (Tauri CLI), its contents"
cargo build -p heddle-desktop --locked
deb_started=$(date +%s)
deb="$(scripts/package-deb.sh --debug --no-build | tail -n 1)"
echo "packaged $deb in $(( $(date +%s) - deb_started ))s"
HEDDLE_DEB="$deb" node --test tests/package/deb-contents.test.mjs

# CI installs the package and drives the installed app; on a developer's machine that would
# replace an installed Heddle, so it happens there only when asked (HEDDLE_INSTALL_DEB=1).
if [ -n "${CI:-}" ] || [ "${HEDDLE_INSTALL_DEB:-0}" = 1 ]; then
  step "desktop package: dpkg -i, then the installed heddle"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  # Installing over an earlier run's package (same version) is a reinstall. Missing
  # dependencies leave it unconfigured; apt then brings them and finishes the install.
  if ! $SUDO dpkg -i "$deb"; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -f -y -qq --no-install-recommends
  fi
  HEDDLE_DEB="$deb" node --test tests/package/deb-installed.test.mjs

  step "desktop smoke test against the installed app (Tauri window under Xvfb)"
  HEDDLE_DESKTOP_BIN=/usr/bin/heddle-desktop HEDDLE_BIN=/usr/bin/heddle scripts/desktop-smoke.sh
else
  step "desktop smoke test (Tauri window under Xvfb)"
  scripts/desktop-smoke.sh
fi

step "all tiers passed in $(( $(date +%s) - started ))s"
