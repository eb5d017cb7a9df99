#!/usr/bin/env bash
# Blob-store ingest benchmark: every file in ~BLOB_BENCH_MB megabytes of mixed files (many
# small, some large, pseudo-random content) put into a fresh store with `BlobStore::put_files`,
# vs the baseline `sha256sum` of every file + `cp` of the tree into a folder, measured in the
# same run on the same disk, interleaved, best of BLOB_BENCH_RUNS. Every store write is fsynced
# (file and folder); the baseline's are not. A loop of `put_file` calls is measured too, for
# information.
#
# Usage: benches/blob_ingest.sh
#   BLOB_BENCH_MB    data size in MB (default 1024)
#   BLOB_BENCH_RUNS  measurements of each, interleaved; the best counts (default 3)
#   BLOB_BENCH_DIR   where the temp dir goes (default $TMPDIR or /tmp)
# Target: store throughput >= 0.8x the baseline's.
set -euo pipefail

MB=${BLOB_BENCH_MB:-1024}
RUNS=${BLOB_BENCH_RUNS:-3}
CRATE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORKSPACE_DIR=$(cd "$CRATE_DIR/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$WORKSPACE_DIR/target}

(cd "$CRATE_DIR" && cargo build --quiet --release -p heddle-artifacts --example ingest)
BIN=$TARGET_DIR/release/examples/ingest

TMP=$(mktemp -d "${BLOB_BENCH_DIR:-${TMPDIR:-/tmp}}/blob-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
SRC=$TMP/src
"$BIN" generate "$SRC" "$MB"
FILES=$(find "$SRC" -type f | wc -l)
BYTES=$(find "$SRC" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
echo "data: $FILES files, $BYTES bytes in $TMP ($(df -T "$TMP" | awk 'NR==2 {print $2}'))"

now() { date +%s%N; }

# Each measurement writes to a new folder: deleting the previous one right before would leave
# thousands of just-freed inodes that ext4 skips over (for about 30 s) when allocating new
# ones, slowing whichever side runs next by a varying amount. Outputs are deleted at the end
# (needs about (1 + 3 * RUNS) * BLOB_BENCH_MB of free space). `sync` first, so no measurement
# pays for the previous one's dirty pages.
run_baseline() {
  local out=$TMP/copy.$1 start end
  mkdir "$out"
  sync
  start=$(now)
  (cd "$SRC" && find . -type f -print0 | xargs -0 sha256sum > "$TMP/sums.$1")
  cp -R "$SRC/." "$out/"
  end=$(now)
  echo $((end - start))
}
# run_store MODE RUN: MODE `put` (put_files) or `put-each` (put_file per file).
run_store() {
  local out=$TMP/blobs.$1.$2 start end
  sync
  start=$(now)
  "$BIN" "$1" "$out" "$SRC" > "$TMP/put.log"
  end=$(now)
  echo $((end - start))
}

min() { if [ "$1" -eq 0 ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

BASE_NS=0
STORE_NS=0
EACH_NS=0
for i in $(seq "$RUNS"); do
  b=$(run_baseline "$i")
  e=$(run_store put-each "$i")
  s=$(run_store put "$i")
  awk -v i="$i" -v b="$b" -v s="$s" -v e="$e" 'BEGIN {
    printf "run %d: baseline %.3fs, put_files %.3fs, put_file each %.3fs\n", i, b / 1e9, s / 1e9, e / 1e9
  }'
  BASE_NS=$(min "$BASE_NS" "$b")
  STORE_NS=$(min "$STORE_NS" "$s")
  EACH_NS=$(min "$EACH_NS" "$e")
done

# Sanity: the store holds one blob per distinct file content, named by the same digests.
STORE=$TMP/blobs.put.1
BLOBS=$(find "$STORE/sha256" -type f | wc -l)
DISTINCT=$(cut -d' ' -f1 "$TMP/sums.1" | sort -u | wc -l)
MISMATCH=$(cut -d' ' -f1 "$TMP/sums.1" | sort -u | while read -r h; do
  [ -f "$STORE/sha256/${h:0:2}/${h:2}" ] || echo "$h"; done | wc -l)
echo "store: $BLOBS blobs for $DISTINCT distinct digests, $MISMATCH missing"
[ "$MISMATCH" -eq 0 ] && [ "$BLOBS" -eq "$DISTINCT" ] || { echo "store content is wrong" >&2; exit 1; }

awk -v b="$BASE_NS" -v s="$STORE_NS" -v e="$EACH_NS" -v bytes="$BYTES" -v runs="$RUNS" 'BEGIN {
  printf "baseline sha256sum + cp:       %8.3f s  %8.1f MB/s  (best of %d)\n", b / 1e9, bytes / (b / 1e9) / 1e6, runs
  printf "blob store ingest (put_files): %8.3f s  %8.1f MB/s  (best of %d)\n", s / 1e9, bytes / (s / 1e9) / 1e6, runs
  printf "  for information, put_file each: %5.3f s  %8.1f MB/s  (%.2fx)\n", e / 1e9, bytes / (e / 1e9) / 1e6, b / e
  printf "throughput ratio store/baseline: %.2fx  (target >= 0.8x)\n", b / s
}'
