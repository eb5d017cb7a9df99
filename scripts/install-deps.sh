#!/usr/bin/env bash
# Installs what building and testing Heddle needs on Debian 12: system packages (WebKitGTK
# for the Tauri window, Xvfb and WebKitWebDriver for the desktop test, Chromium for the
# browser test, Graphviz as the parser's oracle, desktop-file-utils to check and register the
# .deb's desktop entry, PostgreSQL for the shared run index's tests, python3-venv for moto, the
# S3 server the shared run files' tests use, ssh-keygen/ssh-agent and openssl for the keys and
# certificate of the network remote tests), cargo tools, moto (from PyPI, in a virtualenv),
# and the UI's npm packages (with the Tauri CLI).
# Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

APT_PACKAGES=(
  build-essential pkg-config curl wget file git ca-certificates
  libwebkit2gtk-4.1-dev libxdo-dev libssl-dev libayatana-appindicator3-dev librsvg2-dev
  xvfb xauth webkit2gtk-driver chromium graphviz desktop-file-utils dbus
  postgresql python3-venv openssh-client openssl
)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "==> apt: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v cargo >/dev/null || { echo "error: cargo not found; install Rust with rustup first" >&2; exit 1; }
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
if ! cargo nextest --version >/dev/null 2>&1; then
  echo "==> cargo install cargo-nextest"
  cargo install cargo-nextest --locked
fi
if ! command -v tauri-driver >/dev/null 2>&1; then
  echo "==> cargo install tauri-driver"
  cargo install tauri-driver --locked --version '^2'
fi

scripts/s3-for-tests.sh install

command -v node >/dev/null || { echo "error: Node.js 20+ not found" >&2; exit 1; }
if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  echo "==> npm ci (ui/)"
  (cd ui && npm ci --no-audit --no-fund)
fi
