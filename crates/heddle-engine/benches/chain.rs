//! Engine overhead per node: a 500-node chain of conditional nodes (whose handler does
//! nothing) run end to end without git checkpointing, as a real run does it (checkpoint.json
//! fsynced after every node). Three variants: the run folder on the temp dir's disk, the same
//! without fsync, and on tmpfs (`/dev/shm`, when present), which leaves the engine's own CPU
//! cost. Divide the reported time by 502 (the chain plus start and exit) for the per-node
//! figure.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use heddle_engine::hooks::NoCheckpoints;
use heddle_engine::interviewer::AutoApprove;
use heddle_engine::llm::SimulatedBackend;
use heddle_engine::{
    Engine, EngineConfig, EngineEnv, OsEntropy, RunRequest, RunStatus, Services, SystemClock,
};

const NODES: usize = 500;

fn chain() -> String {
    let mut source =
        String::from("digraph Chain {\n  start [shape=Mdiamond];\n  exit [shape=Msquare];\n");
    for i in 0..NODES {
        source.push_str(&format!("  n{i} [shape=diamond];\n"));
    }
    source.push_str("  start -> n0;\n");
    for i in 1..NODES {
        source.push_str(&format!("  n{} -> n{i};\n", i - 1));
    }
    source.push_str(&format!("  n{} -> exit;\n}}\n", NODES - 1));
    source
}

fn engine(sync: bool) -> Engine {
    Engine::new(
        EngineEnv {
            clock: Arc::new(SystemClock::new()),
            entropy: Arc::new(OsEntropy::new()),
            env: Vec::new(),
        },
        Services {
            llm: Arc::new(SimulatedBackend),
            interviewer: Arc::new(AutoApprove),
            checkpoints: Arc::new(NoCheckpoints),
            artifacts: Arc::new(heddle_engine::hooks::NoArtifacts),
            blobs: Arc::new(heddle_engine::hooks::NoBlobs),
        },
    )
    .with_config(EngineConfig {
        sync_checkpoints: sync,
        ..EngineConfig::default()
    })
}

fn bench(c: &mut Criterion) {
    let source = chain();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    let shm = std::path::Path::new("/dev/shm");
    let mut variants = vec![
        ("chain_500_noop_nodes_disk", true, None),
        ("chain_500_noop_nodes_disk_no_fsync", false, None),
    ];
    if shm.is_dir() {
        variants.push(("chain_500_noop_nodes_tmpfs", true, Some(shm)));
    }
    for (name, sync, root) in variants {
        let engine = engine(sync);
        group.bench_function(name, |b| {
            b.iter_batched(
                || match root {
                    Some(root) => tempfile::tempdir_in(root).unwrap(),
                    None => tempfile::tempdir().unwrap(),
                },
                |dir| {
                    let request = RunRequest {
                        workflow_path: dir.path().join("chain.dot"),
                        source: Some(source.clone()),
                        goal: None,
                        labels: BTreeMap::new(),
                        inputs: Default::default(),
                        runs_root: dir.path().join("runs"),
                        run_dir: None,
                        work_dir: dir.path().to_path_buf(),
                        dry_run: true,
                        parent_run_id: None,
                    };
                    let prepared = engine.prepare(request).unwrap();
                    let conclusion = runtime.block_on(prepared.execute());
                    assert_eq!(conclusion.status, RunStatus::Success);
                    assert_eq!(conclusion.stages, NODES + 2);
                    dir
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
