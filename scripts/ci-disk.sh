#!/usr/bin/env bash
# Keeps a CI machine's disk from filling up across runs. The shared cargo target dir outlives
# every clone and gathers stale artifacts (incremental data, old builds of changed crates);
# a full disk then fails tests with ENOSPC and stops the test runner from writing its
# report. This removes incremental data, empties the target dir when it has grown past
# TARGET_LIMIT_GIB or free space is under FREE_MIN_GIB, and prints what it found.
# Usage: scripts/ci-disk.sh TARGET_DIR
set -euo pipefail
target="${1:?usage: scripts/ci-disk.sh TARGET_DIR}"
TARGET_LIMIT_GIB="${TARGET_LIMIT_GIB:-30}"
FREE_MIN_GIB="${FREE_MIN_GIB:-8}"

mkdir -p "$target"
rm -rf "$target/debug/incremental" "$target/release/incremental"

gib() { echo $(( $1 / 1024 / 1024 )); }
free_kib() { df -Pk "$target" | awk 'NR == 2 { print $4 }'; }
target_kib=$(du -sk "$target" | cut -f1)
free=$(free_kib)
echo "==> disk: $(gib "$free") GiB free; $target holds $(gib "$target_kib") GiB"
if [ "$target_kib" -gt $(( TARGET_LIMIT_GIB * 1024 * 1024 )) ] \
  || [ "$free" -lt $(( FREE_MIN_GIB * 1024 * 1024 )) ]; then
  echo "==> emptying $target (over ${TARGET_LIMIT_GIB} GiB, or under ${FREE_MIN_GIB} GiB free)"
  find "$target" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  echo "==> disk: $(gib "$(free_kib)") GiB free after emptying"
fi
