#!/usr/bin/env bash
# Checkpoint benchmark: trees of 1k, 10k and 100k files, 10 files changed, one full Heddle
# checkpoint (watcher barrier, index update, tree, metadata commit, run-branch commit) vs
# the baseline `git add -A && git commit -q` (warm index) on an identical copy, measured in
# the same run, interleaved, median of the iterations. Also rollback (`heddle_checkpoint::
# rollback::rollback`) vs `git checkout -f`. The driver is examples/checkpoint_bench.rs.
#
# Usage: benches/checkpoint.sh [--sizes 1000,10000,100000] [--iterations 7] [--rollbacks 3]
#                              [--dir DIR]
# Targets: checkpoint <= 1.0x the baseline at every size, and under 100 ms at 100k files.
#
# The 100k size needs about 2.5 GB of disk and a few minutes (building the trees, and
# deleting them at the end, dominates). On ext4 without a journal, inodes freed in the last
# minutes are skipped when new ones are allocated, so file creation (both sides' object
# writes) is slower right after a large deletion: leave a few minutes between runs.
set -euo pipefail

CRATE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORKSPACE_DIR=$(cd "$CRATE_DIR/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$WORKSPACE_DIR/target}

cd "$CRATE_DIR"
cargo run --quiet --release -p heddle-checkpoint --example checkpoint_bench -- "$@"
