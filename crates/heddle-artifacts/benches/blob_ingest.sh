#!/usr/bin/env bash
# Blob-store ingest benchmark: `BlobStore::put_file` of every file in ~BLOB_BENCH_MB megabytes
# of mixed files (many small, some large, pseudo-random content) into a fresh store, vs the
# baseline `sha256sum` of every file + `cp` of the tree into a folder, measured in the same run
# on the same disk (every store write is fsynced; the baseline's are not).
#
# Usage: benches/blob_ingest.sh
#   BLOB_BENCH_MB    data size in MB (default 1024)
#   BLOB_BENCH_RUNS  measurements of each, interleaved; the best counts (default 2)
#   BLOB_BENCH_DIR   where the temp dir goes (default $TMPDIR or /tmp)
# Target: store throughput >= 0.8x the baseline's.
set -euo pipefail

MB=${BLOB_BENCH_MB:-1024}
RUNS=${BLOB_BENCH_RUNS:-2}
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
BYTES=$(du -sb "$SRC" | cut -f1)
echo "data: $FILES files, $BYTES bytes in $TMP ($(df -T "$TMP" | awk 'NR==2 {print $2}'))"

now() { date +%s%N; }

# Each measurement starts from a fresh destination with no dirty pages pending.
run_baseline() {
  rm -rf "$TMP/copy" "$TMP/sums"
  mkdir "$TMP/copy"
  sync
  local start end
  start=$(now)
  (cd "$SRC" && find . -type f -print0 | xargs -0 sha256sum > "$TMP/sums")
  cp -R "$SRC/." "$TMP/copy/"
  end=$(now)
  echo $((end - start))
}
run_store() {
  rm -rf "$TMP/blobs"
  sync
  local start end
  start=$(now)
  "$BIN" put "$TMP/blobs" "$SRC" > "$TMP/put.log"
  end=$(now)
  echo $((end - start))
}

BASE_NS=0
STORE_NS=0
for i in $(seq "$RUNS"); do
  b=$(run_baseline)
  s=$(run_store)
  awk -v i="$i" -v b="$b" -v s="$s" \
    'BEGIN { printf "run %d: baseline %.3fs, store %.3fs\n", i, b / 1e9, s / 1e9 }'
  if [ "$BASE_NS" -eq 0 ] || [ "$b" -lt "$BASE_NS" ]; then BASE_NS=$b; fi
  if [ "$STORE_NS" -eq 0 ] || [ "$s" -lt "$STORE_NS" ]; then STORE_NS=$s; fi
done

# Sanity: the store holds one blob per distinct file content, named by the same digests.
BLOBS=$(find "$TMP/blobs/sha256" -type f | wc -l)
DISTINCT=$(cut -d' ' -f1 "$TMP/sums" | sort -u | wc -l)
MISMATCH=$(cut -d' ' -f1 "$TMP/sums" | sort -u | while read -r h; do
  [ -f "$TMP/blobs/sha256/${h:0:2}/${h:2}" ] || echo "$h"; done | wc -l)
echo "store: $BLOBS blobs for $DISTINCT distinct digests, $MISMATCH missing; $(cat "$TMP/put.log")"
[ "$MISMATCH" -eq 0 ] && [ "$BLOBS" -eq "$DISTINCT" ] || { echo "store content is wrong" >&2; exit 1; }

awk -v b="$BASE_NS" -v s="$STORE_NS" -v bytes="$BYTES" -v runs="$RUNS" 'BEGIN {
  printf "baseline sha256sum + cp: %8.3f s  %8.1f MB/s  (best of %d)\n", b / 1e9, bytes / (b / 1e9) / 1e6, runs
  printf "blob store ingest:       %8.3f s  %8.1f MB/s  (best of %d)\n", s / 1e9, bytes / (s / 1e9) / 1e6, runs
  printf "throughput ratio store/baseline: %.2fx  (target >= 0.8x)\n", b / s
}'
