//! The run-index ingest benchmark's driver (see `benches/ingest.sh`).
//!
//! For each shape (`loop`: a test → fix loop, two nodes visited over and over; `chain`: one
//! node per stage) and each size, it writes a synthetic run folder in the engine's real
//! formats (manifest, progress.jsonl in the event envelope, artifact manifests, conclusion)
//! and indexes it into a fresh database with the real checkpoint and artifact readers:
//!
//! - `finished`: the whole run written first, then one [`Store::ingest_run`];
//! - `live`: the run written in batches of `--batch` stages (each stage's artifact manifest
//!   before its events, as the engine does), [`Store::ingest_run`] after each batch, as the
//!   watcher does, then the conclusion and a last ingest. Only the ingests are timed.
//!
//! Each stage is five events (started, one output line, completed, edge, checkpoint saved),
//! as in tests/browser/runs-long.test.mjs; every tenth stage also captures one file (an
//! `artifact.captured` event and its manifest). The index must then hold every stage and
//! artifact, or the run fails. Reported per stage in microseconds: the whole ingest, and for
//! `live` the last tenth of the batches, whose cost would grow with the run if ingesting a
//! batch re-read what earlier batches had.
//!
//! With `--git full,incremental` each run also keeps git checkpoints (a shadow repository,
//! one checkpoint commit per stage, named by its `checkpoint.saved` event), read with the
//! real [`heddle_checkpoint::GitHistory`] (`incremental`: a live ingest lists only the
//! checkpoints made since the last one) or with a reader that lists the whole history at
//! every ingest (`full`, the index before it appended checkpoints); `none` (the default)
//! keeps none. The index must then also hold every checkpoint.
//!
//! Usage: `ingest_bench [--sizes 500,5000,20000] [--shapes loop,chain] [--batch 20]
//! [--live-up-to N] [--git none,full,incremental] [--dir DIR]` (`--live-up-to`: measure
//! `live` only up to N stages, since an ingest that grows with the run takes hours there).
//! Everything lives in one temporary folder (under DIR, else `$TMPDIR`).

mod git_history;

use std::error::Error;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use heddle_engine::event::{EdgeReason, Stream};
use heddle_engine::{Envelope, Event, Manifest, RunDir, StageStatus};
use heddle_store::{RunReaders, Store};

use crate::git_history::{FullListing, GitRun};

type Res<T> = Result<T, Box<dyn Error>>;

/// Every this many stages captures a file.
const ARTIFACT_EVERY: usize = 10;

struct Options {
    sizes: Vec<usize>,
    shapes: Vec<String>,
    batch: usize,
    live_up_to: usize,
    /// How checkpoints are kept and listed: `none`, `full`, `incremental`.
    git: Vec<String>,
    dir: Option<PathBuf>,
}

fn options() -> Res<Options> {
    let mut options = Options {
        sizes: vec![500, 5_000, 20_000],
        shapes: vec!["loop".into(), "chain".into()],
        batch: 20,
        live_up_to: usize::MAX,
        git: vec!["none".into()],
        dir: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--sizes" => {
                options.sizes = value.split(',').map(str::parse).collect::<Result<_, _>>()?;
            }
            "--shapes" => options.shapes = value.split(',').map(str::to_string).collect(),
            "--batch" => options.batch = value.parse()?,
            "--live-up-to" => options.live_up_to = value.parse()?,
            "--git" => options.git = value.split(',').map(str::to_string).collect(),
            "--dir" => options.dir = Some(PathBuf::from(value)),
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    Ok(options)
}

/// One stage of the run: its node, visit and status.
struct Stage {
    node: String,
    visit: u32,
    status: StageStatus,
}

fn stages(shape: &str, count: usize) -> Res<Vec<Stage>> {
    Ok(match shape {
        "loop" => (0..count)
            .map(|i| {
                let test = i % 2 == 0;
                Stage {
                    node: if test { "test" } else { "fix" }.into(),
                    visit: u32::try_from(i / 2 + 1).unwrap_or(u32::MAX),
                    status: if test && i + 1 < count {
                        StageStatus::Fail
                    } else {
                        StageStatus::Success
                    },
                }
            })
            .collect(),
        "chain" => (0..count)
            .map(|i| Stage {
                node: format!("n{i}"),
                visit: 1,
                status: StageStatus::Success,
            })
            .collect(),
        other => return Err(format!("unknown shape {other} (loop, chain)").into()),
    })
}

/// Writes a run's files: manifest and empty progress.jsonl; its folder.
fn create_run(runs: &Path, id: &str) -> Res<RunDir> {
    let start = "2026-11-23T01:00:00.000Z";
    let run = RunDir::create(runs.join(RunDir::folder_name(start, id)))?;
    let manifest = Manifest {
        run_id: id.into(),
        workflow_name: "bench".into(),
        workflow_path: "/work/bench.dot".into(),
        goal: None,
        start_time: start.into(),
        node_count: 4,
        edge_count: 4,
        base_sha: None,
        run_branch: None,
        labels: Default::default(),
        inputs: Default::default(),
        checkpoint_mode: "none".into(),
        work_dir: "/work".into(),
        workspace: None,
        dry_run: false,
        parent_run_id: None,
        heddle_version: "0.1.0".into(),
    };
    heddle_engine::rundir::write_json(&run.manifest(), &manifest, false)?;
    std::fs::write(run.progress(), b"")?;
    Ok(run)
}

/// Writes the events (and artifact manifests, and checkpoint commits) of stages `range` of
/// `all`, appending.
struct Writer<'a> {
    run: &'a RunDir,
    id: String,
    seq: u64,
    git: Option<GitRun>,
}

impl Writer<'_> {
    fn line(&mut self, out: &mut Vec<u8>, node: Option<&str>, event: Event) -> Res<()> {
        self.seq += 1;
        let ms = self.seq * 3;
        let envelope = Envelope {
            id: format!("01EV{:022}", self.seq),
            ts: format!(
                "2026-11-23T{:02}:{:02}:{:02}.{:03}Z",
                1 + ms / 3_600_000,
                (ms / 60_000) % 60,
                (ms / 1000) % 60,
                ms % 1000
            ),
            run_id: self.id.clone(),
            seq: self.seq,
            node_id: node.map(str::to_string),
            event,
        };
        serde_json::to_writer(&mut *out, &envelope)?;
        out.push(b'\n');
        Ok(())
    }

    fn stages(&mut self, all: &[Stage], range: std::ops::Range<usize>) -> Res<()> {
        let mut out = Vec::new();
        for i in range {
            let stage = &all[i];
            let node = stage.node.as_str();
            let dir = RunDir::stage_dir_name(node, stage.visit);
            let started = Event::StageStarted {
                kind: "command".into(),
                visit: stage.visit,
                attempt: 1,
                branch: None,
                stage_dir: Some(dir.clone()),
            };
            self.line(&mut out, Some(node), started)?;
            let output = Event::CommandOutput {
                stream: Stream::Stdout,
                text: format!("line 0 of {node}\n"),
            };
            self.line(&mut out, Some(node), output)?;
            if i % ARTIFACT_EVERY == 0 {
                let path = self.capture(&dir)?;
                let captured = Event::ArtifactCaptured {
                    path,
                    kind: "junit".into(),
                    media_type: "application/xml".into(),
                    size: 42,
                };
                self.line(&mut out, Some(node), captured)?;
            }
            let completed = Event::StageCompleted {
                status: stage.status,
                duration_ms: 6,
                visit: stage.visit,
                attempts: 1,
                notes: String::new(),
                branch: None,
                stage_dir: Some(dir),
                usage: None,
                cost_usd: None,
            };
            self.line(&mut out, Some(node), completed)?;
            let next = all.get(i + 1).map(|s| s.node.clone());
            if let Some(to) = &next {
                let edge = Event::EdgeSelected {
                    from: node.into(),
                    to: to.clone(),
                    label: None,
                    condition: None,
                    reason: EdgeReason::Weight,
                };
                self.line(&mut out, None, edge)?;
            }
            let git_commit_sha = match &mut self.git {
                Some(git) => Some(git.checkpoint(node, stage.status.as_str())?),
                None => None,
            };
            let saved = Event::CheckpointSaved {
                next_node_id: next,
                git_commit_sha,
            };
            self.line(&mut out, Some(node), saved)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(self.run.progress())?;
        file.write_all(&out)?;
        Ok(())
    }

    /// Writes the manifest of one captured report for the stage in `dir`; the event's path.
    fn capture(&self, dir: &str) -> Res<String> {
        let folder = dir.rsplit('/').next().unwrap_or(dir);
        let dest = self.run.artifacts().join(folder).join("retry_0");
        std::fs::create_dir_all(&dest)?;
        let manifest = serde_json::json!({
            "artifacts": [{
                "path": "junit.xml", "size": 42, "sha256": "0".repeat(64),
                "media_type": "application/xml", "kind": "junit"
            }],
            "skipped": [], "bytes": 42
        });
        std::fs::write(
            dest.join(heddle_artifacts::capture::MANIFEST_FILE),
            manifest.to_string(),
        )?;
        Ok(format!("artifacts/{folder}/retry_0/junit.xml"))
    }
}

fn conclude(run: &RunDir, id: &str, stages: usize) -> Res<()> {
    let conclusion = serde_json::json!({
        "run_id": id, "status": "success", "duration_ms": 1000, "failure_reason": null,
        "final_git_commit_sha": null, "completed_at": "2026-11-23T09:00:00.000Z",
        "stages": stages, "artifact_count": stages.div_ceil(ARTIFACT_EVERY)
    });
    std::fs::write(run.root().join("conclusion.json"), conclusion.to_string())?;
    Ok(())
}

/// The readers, listing checkpoints as `git` says.
fn readers(git: &str) -> RunReaders {
    let checkpoints: Arc<dyn heddle_engine::run_records::CheckpointHistory> = match git {
        "full" => Arc::new(FullListing),
        _ => Arc::new(heddle_checkpoint::GitHistory),
    };
    RunReaders {
        checkpoints,
        artifacts: Arc::new(heddle_artifacts::ArtifactManifests),
    }
}

/// A run's writer, with git checkpoints unless `git` is `none`.
fn new_writer<'a>(run: &'a RunDir, id: &str, git: &str) -> Res<Writer<'a>> {
    let git = match git {
        "none" => None,
        "full" | "incremental" => Some(GitRun::create(run, id)?),
        other => return Err(format!("unknown --git {other} (none, full, incremental)").into()),
    };
    Ok(Writer {
        run,
        id: id.into(),
        seq: 0,
        git,
    })
}

/// Checks the index holds every stage and artifact of the run, and every checkpoint when
/// it keeps them.
async fn check(store: &Store, id: &str, stages: usize, git: &str) -> Res<()> {
    let timeline = store.timeline(id).await?;
    let artifacts = store.artifacts(id).await?;
    let checkpoints = store.checkpoints(id).await?.len();
    let want = stages.div_ceil(ARTIFACT_EVERY);
    let want_checkpoints = if git == "none" { 0 } else { stages };
    if timeline.stages.len() != stages || artifacts.len() != want || checkpoints != want_checkpoints
    {
        return Err(format!(
            "run {id}: {} stages, {} artifacts and {checkpoints} checkpoints indexed, \
             expected {stages}, {want} and {want_checkpoints}",
            timeline.stages.len(),
            artifacts.len()
        )
        .into());
    }
    Ok(())
}

/// One size of one shape: (finished total, live total and last tenth per stage, when
/// measured).
async fn measure(
    root: &Path,
    shape: &str,
    size: usize,
    batch: usize,
    live: bool,
    git: &str,
) -> Res<(Duration, Option<(Duration, f64)>)> {
    let all = stages(shape, size)?;
    let home = root.join(format!("{shape}-{size}-{git}"));
    let runs = home.join("runs");

    let id = format!("01FIN{shape:>5}{size:016}");
    let run = create_run(&runs, &id)?;
    let mut writer = new_writer(&run, &id, git)?;
    writer.stages(&all, 0..size)?;
    conclude(&run, &id, size)?;
    let store = Store::open(&home.join("finished.db"), readers(git)).await?;
    let began = Instant::now();
    store.ingest_run(run.root()).await?;
    let finished = began.elapsed();
    check(&store, &id, size, git).await?;
    if !live {
        std::fs::remove_dir_all(&home)?;
        return Ok((finished, None));
    }

    let id = format!("01LIV{shape:>5}{size:016}");
    let run = create_run(&runs, &id)?;
    let mut writer = new_writer(&run, &id, git)?;
    let store = Store::open(&home.join("live.db"), readers(git)).await?;
    let mut live = Duration::ZERO;
    let mut tail = Duration::ZERO;
    let tail_from = size - size / 10;
    let mut tail_stages = 0usize;
    for start in (0..size).step_by(batch.max(1)) {
        let end = (start + batch.max(1)).min(size);
        writer.stages(&all, start..end)?;
        let began = Instant::now();
        store.ingest_run(run.root()).await?;
        let took = began.elapsed();
        live += took;
        if start >= tail_from {
            tail += took;
            tail_stages += end - start;
        }
    }
    conclude(&run, &id, size)?;
    let began = Instant::now();
    store.ingest_run(run.root()).await?;
    live += began.elapsed();
    check(&store, &id, size, git).await?;
    std::fs::remove_dir_all(&home)?;
    let tail_per_stage = tail.as_secs_f64() * 1e6 / tail_stages.max(1) as f64;
    Ok((finished, Some((live, tail_per_stage))))
}

fn main() -> Res<()> {
    let options = options()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let root = match &options.dir {
        Some(dir) => tempfile::tempdir_in(dir)?,
        None => tempfile::tempdir()?,
    };
    println!(
        "{:<6} {:<11} {:>7} {:>13} {:>14} {:>11} {:>14} {:>19}",
        "shape",
        "git",
        "stages",
        "finished ms",
        "finished µs/st",
        "live ms",
        "live µs/st",
        "live last 10% µs/st"
    );
    for shape in &options.shapes {
        for git in &options.git {
            for &size in &options.sizes {
                let live = size <= options.live_up_to;
                let (finished, live) = runtime.block_on(measure(
                    root.path(),
                    shape,
                    size,
                    options.batch,
                    live,
                    git,
                ))?;
                let per = |d: Duration| d.as_secs_f64() * 1e6 / size as f64;
                let live = match live {
                    Some((live, tail)) => format!(
                        "{:>11.0} {:>14.1} {tail:>19.1}",
                        live.as_secs_f64() * 1e3,
                        per(live)
                    ),
                    None => format!("{:>11} {:>14} {:>19}", "-", "-", "-"),
                };
                println!(
                    "{shape:<6} {git:<11} {size:>7} {:>13.0} {:>14.1} {live}",
                    finished.as_secs_f64() * 1e3,
                    per(finished),
                );
            }
        }
    }
    Ok(())
}
