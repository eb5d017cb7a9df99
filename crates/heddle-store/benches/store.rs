//! Benchmarks of the run index on synthetic but realistic run folders (a real manifest,
//! conclusion and progress.jsonl in the engine's envelope format):
//!
//! - `ingest/100k_events`: ingesting one run of 100,000 events into a fresh database
//!   (target: above 50,000 events/s);
//! - `list_runs/first_page_of_10k`: the first page (50) of 10,000 indexed runs, unfiltered
//!   and filtered by status and label (target: under 20 ms);
//! - `timeline/10k_events`: the timeline of a run with 10,000 events (target: under 50 ms).
//!
//! `cargo bench -p heddle-store --bench store`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use heddle_engine::event::Stream;
use heddle_engine::{Envelope, Event, Manifest, RunDir, StageStatus};
use heddle_store::{PageRequest, RunFilter, RunStatus, Store};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn start_time(n: usize) -> String {
    let day = 1 + (n / 1440) % 28;
    let minute = n % 1440;
    format!(
        "2026-02-{day:02}T{:02}:{:02}:00.000Z",
        minute / 60,
        minute % 60
    )
}

fn run_id(n: usize) -> String {
    format!("01BENCH{n:019}")
}

/// Writes a run folder: manifest, conclusion (by `n`: success, fail, cancelled) and about
/// `events` events: stages with command output, some retried, some in parallel lanes.
fn write_run(runs: &Path, n: usize, events: usize) -> PathBuf {
    let id = run_id(n);
    let start = start_time(n);
    let folder = runs.join(RunDir::folder_name(&start, &id));
    let dir = RunDir::create(&folder).unwrap();
    let labels = BTreeMap::from([
        (
            "team".to_string(),
            ["core", "web", "data"][n % 3].to_string(),
        ),
        ("n".to_string(), n.to_string()),
    ]);
    let manifest = Manifest {
        run_id: id.clone(),
        workflow_name: format!("workflow{}", n % 7),
        workflow_path: format!("/work/workflow{}.dot", n % 7),
        goal: Some("keep the build green".into()),
        start_time: start.clone(),
        node_count: 12,
        edge_count: 14,
        base_sha: None,
        run_branch: None,
        labels,
        inputs: Default::default(),
        checkpoint_mode: "none".into(),
        work_dir: "/work".into(),
        workspace: None,
        dry_run: false,
        parent_run_id: None,
        heddle_version: "0.1.0".into(),
    };
    heddle_engine::rundir::write_json(&dir.manifest(), &manifest, false).unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(dir.progress()).unwrap());
    let mut seq = 0u64;
    let mut emit = |node: Option<&str>, event: Event| -> u64 {
        seq += 1;
        let envelope = Envelope {
            id: format!("01EV{n:06}{seq:016}"),
            ts: format!("{}{:03}Z", &start[..20], seq % 1000),
            run_id: id.clone(),
            seq,
            node_id: node.map(str::to_string),
            event,
        };
        serde_json::to_writer(&mut file, &envelope).unwrap();
        file.write_all(b"\n").unwrap();
        seq
    };
    let mut last = emit(
        None,
        Event::RunStarted {
            workflow: manifest.workflow_name.clone(),
            goal: manifest.goal.clone(),
            work_dir: "/work".into(),
            run_dir: folder.to_string_lossy().into_owned(),
            dry_run: false,
            resumed: false,
            max_cost_usd: None,
            max_tokens: None,
        },
    );
    let mut stage = 0usize;
    while (last as usize) < events.saturating_sub(2) {
        stage += 1;
        let node = format!("node{}", stage % 40);
        let visit = u32::try_from(1 + stage / 40).unwrap();
        let branch = stage
            .is_multiple_of(5)
            .then(|| format!("lane{}", stage % 3));
        let attempts = if stage.is_multiple_of(11) { 2 } else { 1 };
        let stage_dir = heddle_engine::RunDir::stage_dir_name(&node, visit);
        for attempt in 1..=attempts {
            emit(
                Some(&node),
                Event::StageStarted {
                    kind: "command".into(),
                    visit,
                    attempt,
                    branch: branch.clone(),
                    stage_dir: Some(stage_dir.clone()),
                },
            );
            for line in 0..20 {
                emit(
                    Some(&node),
                    Event::CommandOutput {
                        stream: Stream::Stdout,
                        text: format!("compiling unit {line} of stage {stage}\n"),
                    },
                );
            }
            if attempt < attempts {
                emit(
                    Some(&node),
                    Event::StageRetrying {
                        attempt,
                        max_attempts: attempts,
                        delay_ms: 200,
                        reason: "transient".into(),
                    },
                );
            }
        }
        emit(
            Some(&node),
            Event::StageCompleted {
                status: StageStatus::Success,
                duration_ms: 812,
                visit,
                attempts,
                notes: "exit 0".into(),
                branch,
                stage_dir: Some(stage_dir),
                usage: None,
                cost_usd: None,
            },
        );
        last = emit(
            Some(&node),
            Event::CheckpointSaved {
                next_node_id: Some(format!("node{}", (stage + 1) % 40)),
                git_commit_sha: None,
            },
        );
    }
    emit(
        None,
        Event::RunCompleted {
            duration_ms: 60_000,
            stages: stage,
        },
    );
    file.flush().unwrap();
    let status = ["success", "fail", "cancelled"][n % 3];
    let conclusion = serde_json::json!({
        "run_id": id, "status": status, "duration_ms": 60000,
        "failure_reason": if status == "success" { None } else { Some("it broke") },
        "final_git_commit_sha": null, "completed_at": start, "stages": stage,
        "artifact_count": 0
    });
    std::fs::write(dir.conclusion(), conclusion.to_string()).unwrap();
    folder
}

fn ingest(c: &mut Criterion) {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let folder = write_run(&dir.path().join("runs"), 0, 100_000);
    let lines = std::fs::read_to_string(folder.join("progress.jsonl"))
        .unwrap()
        .lines()
        .count();
    let mut group = c.benchmark_group("ingest");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(lines as u64));
    let mut n = 0;
    group.bench_function("100k_events", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                n += 1;
                let db = dir.path().join(format!("ingest{n}.db"));
                let store = rt.block_on(Store::open(&db, readers())).unwrap();
                let started = Instant::now();
                let report = rt.block_on(store.ingest_run(&folder)).unwrap();
                total += started.elapsed();
                assert_eq!(report.new_events as usize, lines);
                drop(store);
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(dir.path().join(format!("ingest{n}.db{suffix}")));
                }
            }
            total
        });
    });
    group.finish();
}

fn list_runs(c: &mut Criterion) {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    for n in 0..10_000 {
        write_run(&runs, n, 6);
    }
    let store = rt
        .block_on(Store::open(&dir.path().join("heddle.db"), readers()))
        .unwrap();
    let report = rt.block_on(store.reindex(&runs)).unwrap();
    assert_eq!(report.runs, 10_000);
    let mut group = c.benchmark_group("list_runs");
    let page = PageRequest::default();
    group.bench_function("first_page_of_10k", |b| {
        b.iter(|| {
            let listed = rt
                .block_on(store.list_runs(&RunFilter::default(), &page))
                .unwrap();
            assert_eq!((listed.items.len(), listed.total), (50, 10_000));
            black_box(listed)
        });
    });
    let filter = RunFilter {
        status: vec![RunStatus::Success],
        labels: BTreeMap::from([("team".to_string(), "core".to_string())]),
        ..RunFilter::default()
    };
    group.bench_function("first_page_of_10k_by_status_and_label", |b| {
        b.iter(|| {
            let listed = rt.block_on(store.list_runs(&filter, &page)).unwrap();
            assert_eq!(listed.items.len(), 50);
            black_box(listed)
        });
    });
    group.finish();
}

fn timeline(c: &mut Criterion) {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    write_run(&runs, 1, 10_000);
    let store = rt
        .block_on(Store::open(&dir.path().join("heddle.db"), readers()))
        .unwrap();
    rt.block_on(store.reindex(&runs)).unwrap();
    let id = run_id(1);
    let mut group = c.benchmark_group("timeline");
    group.bench_function("10k_events", |b| {
        b.iter(|| {
            let timeline = rt.block_on(store.timeline(&id)).unwrap();
            assert!(timeline.stages.len() > 300);
            black_box(timeline)
        });
    });
    group.finish();
}

criterion_group!(benches, ingest, list_runs, timeline);
criterion_main!(benches);

/// The real checkpoint and artifact readers, as heddle-api wires them.
fn readers() -> heddle_store::RunReaders {
    heddle_store::RunReaders {
        checkpoints: std::sync::Arc::new(heddle_checkpoint::GitHistory),
        artifacts: std::sync::Arc::new(heddle_artifacts::ArtifactManifests),
    }
}
