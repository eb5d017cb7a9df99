#!/usr/bin/env bash
# Run-index ingest benchmark: synthetic run folders in the real formats (a test → fix loop
# and a chain, five events per stage, an artifact every tenth stage) of 500, 5,000 and
# 20,000 stages, indexed (a) once when finished and (b) live, in batches of stages as the
# watcher reads them. Reports time per stage; the driver is examples/ingest_bench/main.rs.
# `--git full,incremental` adds runs with git checkpoints (one commit per stage), their
# history listed whole at every ingest (`full`, as before checkpoints were appended) or only
# what a live ingest has not seen (`incremental`).
#
# Usage: benches/ingest.sh [--sizes 500,5000,20000] [--shapes loop,chain] [--batch 20]
#                          [--live-up-to N] [--git none,full,incremental] [--dir DIR]
# Target: per-stage cost flat from 500 to 20,000 stages, finished or live, with or without
# git checkpoints.
set -euo pipefail

CRATE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORKSPACE_DIR=$(cd "$CRATE_DIR/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$WORKSPACE_DIR/target}

cd "$CRATE_DIR"
cargo run --quiet --release -p heddle-store --example ingest_bench -- "$@"
