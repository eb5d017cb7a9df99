#!/usr/bin/env bash
# Builds Heddle's Debian package with the Tauri CLI (`tauri bundle`, the npm package
# @tauri-apps/cli, a devDependency of ui/): the desktop app /usr/bin/heddle-desktop, the
# `heddle` command, the desktop entry (opens .dot and .fabro files), icons, the MIME type of
# .fabro, shell completions for bash, zsh and fish, and the manual pages.
#
#   scripts/package-deb.sh             release build (what a user installs)
#   scripts/package-deb.sh --debug     debug build (CI: reuses the build the tests made)
#   scripts/package-deb.sh --no-build  package the binaries already in the target dir
#
# Prints the package's path as its last line of output. Environment: CARGO_TARGET_DIR
# (default target/). The package metadata (name, Depends, file associations, icons) is the
# `bundle` section of tauri.conf.json; the files this script adds (heddle, completions, man
# pages) are passed to the CLI at packaging time, as they live in the target dir.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

fail() { echo "package-deb: $*" >&2; exit 1; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

profile=release
build=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --debug) profile=debug ;;
    --no-build) build=0 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; fail "unknown argument: $1" ;;
  esac
  shift
done

target="${CARGO_TARGET_DIR:-target}"
[[ "$target" = /* ]] || target="$repo/$target"
export CARGO_TARGET_DIR="$target"
out="$target/$profile"

tauri="$repo/ui/node_modules/.bin/tauri"
[[ -x "$tauri" ]] || fail "the Tauri CLI is missing: run \`npm --prefix ui ci\` (@tauri-apps/cli is a devDependency of ui/)"
command -v dpkg-deb >/dev/null || fail "dpkg-deb not found: packaging needs a Debian system"

if [[ "$build" = 1 ]]; then
  # Both binaries embed ui/dist. A release package always gets a fresh UI.
  if [[ "$profile" = release || ! -f ui/dist/index.html ]]; then
    [[ -d ui/node_modules ]] || npm --prefix ui ci
    npm --prefix ui run build
  fi
  cargo_flags=(--locked -p heddle-desktop -p heddle-cli)
  [[ "$profile" = release ]] && cargo_flags+=(--release)
  cargo build "${cargo_flags[@]}"
fi
for bin in heddle heddle-desktop; do
  [[ -x "$out/$bin" ]] || fail "$out/$bin not found: build it first or drop --no-build"
done

# Files generated from the `heddle` binary: completions and manual pages.
extra="$out/deb-extra"
rm -rf "$extra"
mkdir -p "$extra/completions" "$extra/man1"
"$out/heddle" completions bash >"$extra/completions/heddle.bash"
"$out/heddle" completions zsh >"$extra/completions/_heddle"
"$out/heddle" completions fish >"$extra/completions/heddle.fish"
"$out/heddle" man --out-dir "$extra/man1" >/dev/null
gzip -9n "$extra"/man1/*.1

# The Tauri CLI looks for the app's crate by its config: src-tauri/tauri.conf.json is a link
# to the repository root's. It reads paths in the config relative to src-tauri/, so every
# path it needs is given here, absolute.
node --input-type=module - "$repo" "$out" "$extra" >"$extra/tauri.deb.json" <<'EOF'
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
const [repo, out, extra] = process.argv.slice(2);
const config = JSON.parse(readFileSync(resolve(repo, 'tauri.conf.json'), 'utf8'));
const files = {
  '/usr/bin/heddle': `${out}/heddle`,
  '/usr/share/bash-completion/completions/heddle': `${extra}/completions/heddle.bash`,
  '/usr/share/zsh/vendor-completions/_heddle': `${extra}/completions/_heddle`,
  '/usr/share/fish/vendor_completions.d/heddle.fish': `${extra}/completions/heddle.fish`,
  '/usr/share/man/man1': `${extra}/man1`,
  '/usr/share/mime/packages/heddle.xml': `${repo}/packaging/deb/heddle-mime.xml`,
};
const bundle = {
  icon: config.bundle.icon.map((icon) => resolve(repo, icon)),
  linux: { deb: { files, desktopTemplate: `${repo}/packaging/deb/heddle.desktop.hbs` } },
};
process.stdout.write(JSON.stringify({ bundle }, null, 2));
EOF

rm -f "$out"/bundle/deb/*.deb
flags=(bundle --ci --bundles deb --config "$extra/tauri.deb.json")
[[ "$profile" = debug ]] && flags+=(--debug)
TAURI_APP_PATH="$repo/src-tauri" "$tauri" "${flags[@]}" >&2

debs=("$out"/bundle/deb/*.deb)
[[ -f "${debs[0]}" ]] || fail "tauri bundle made no .deb in $out/bundle/deb"
echo "${debs[0]}"
