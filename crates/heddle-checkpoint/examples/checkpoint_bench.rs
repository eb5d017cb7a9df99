//! The checkpoint benchmark's driver (see `benches/checkpoint.sh`).
//!
//! For each tree size it builds a git repository of that many small files (about 100 per
//! folder, three levels deep), packs it, and copies it (`cp -a`) for the baseline. Heddle
//! sets a worktree-mode run up on the original and opens its session with the watcher on;
//! one warm-up checkpoint (always a full scan) follows. Then, interleaved, each iteration
//! edits the same 10 files on both sides and times one full Heddle checkpoint
//! (`Session::checkpoint`: watcher barrier, index update, tree, diff.patch, metadata
//! commit, run-branch commit) against `git add -A && git commit -q -m x` run as one
//! `sh -c` in the copy, whose index is warm (`git status` ran first). Medians are
//! reported. Both sides must end on the same tree, or the run fails.
//!
//! Rollback, on the stopped run: `heddle_checkpoint::rollback::rollback` back to the
//! warm-up checkpoint (recovery snapshot of the work tree, files restored, new timeline
//! branch, checkpoint.json and metadata commit) against `git checkout -f -q` of the same
//! commit in the copy; each is undone, untimed, before the next. Heddle's side runs in this
//! process, git's includes starting git, so the time of a git command that does nothing
//! is printed too: it is what the comparison gives Heddle for free.
//!
//! Usage: `checkpoint_bench [--sizes 1000,10000,100000] [--iterations 7] [--rollbacks 3]
//! [--dir DIR]`. Everything lives in one temporary folder (under DIR, else `$TMPDIR`)
//! deleted at the end.

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use heddle_checkpoint::rollback::rollback;
use heddle_checkpoint::session::Session;
use heddle_checkpoint::setup::{ModeChoice, SetupContext, set_up};
use heddle_checkpoint::state::DEFAULT_SIZE_CAP;
use heddle_engine::checkpoint::{CHECKPOINT_VERSION, NodeOutcome};
use heddle_engine::clock::rfc3339;
use heddle_engine::{Checkpoint, Manifest, RunDir, StageRecord, StageStatus};
use heddle_workflow::HandlerKind;

type Res<T> = Result<T, Box<dyn Error>>;

/// Files edited per iteration.
const CHANGED: usize = 10;
/// Files per folder.
const PER_DIR: usize = 100;
/// The 100k-file target for one checkpoint.
const TARGET_MS: f64 = 100.0;

struct Options {
    sizes: Vec<usize>,
    iterations: usize,
    rollbacks: usize,
    dir: Option<PathBuf>,
}

/// One size's medians, in milliseconds.
struct Row {
    files: usize,
    full_scan: f64,
    heddle: f64,
    git: f64,
    heddle_restore: f64,
    git_restore: f64,
    /// Starting git for a command that does nothing (`git rev-parse HEAD`): part of every
    /// git figure, none of Heddle's (which runs in-process).
    git_start: f64,
    /// The flushes a rollback waits for, alone ([`durable_writes`]): none of git's.
    flushes: f64,
}

fn main() -> Res<()> {
    let options = parse_args()?;
    let mut builder = tempfile::Builder::new();
    builder.prefix("heddle-checkpoint-bench.");
    // One folder for every size, deleted only at the end: ext4 allocates inodes slowly for
    // a while after many were freed, which would slow whatever is measured next.
    let tmp = match &options.dir {
        Some(dir) => builder.tempdir_in(dir)?,
        None => builder.tempdir()?,
    };
    eprintln!("working in {}", tmp.path().display());
    let mut rows = Vec::new();
    for &files in &options.sizes {
        eprintln!("== {files} files");
        let root = tmp.path().join(files.to_string());
        std::fs::create_dir(&root)?;
        rows.push(bench_size(files, &root, &options)?);
    }
    print!("{}", report(&rows, options.iterations, options.rollbacks));
    Ok(())
}

fn parse_args() -> Res<Options> {
    let mut options = Options {
        sizes: vec![1_000, 10_000, 100_000],
        iterations: 7,
        rollbacks: 3,
        dir: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--sizes" => {
                options.sizes = value()?
                    .split(',')
                    .map(|s| s.trim().parse::<usize>())
                    .collect::<Result<_, _>>()?;
            }
            "--iterations" => options.iterations = value()?.parse()?,
            "--rollbacks" => options.rollbacks = value()?.parse()?,
            "--dir" => options.dir = Some(PathBuf::from(value()?)),
            _ => {
                return Err(format!(
                    "unknown argument {arg}; usage: checkpoint_bench [--sizes 1000,10000,100000] \
                     [--iterations N] [--rollbacks N] [--dir DIR]"
                )
                .into());
            }
        }
    }
    if options.iterations == 0 || options.rollbacks == 0 || options.sizes.is_empty() {
        return Err("need at least one size, iteration and rollback".into());
    }
    Ok(options)
}

fn bench_size(files: usize, root: &Path, options: &Options) -> Res<Row> {
    let repo = root.join("repo");
    let copy = root.join("baseline");
    let started = Instant::now();
    generate(&repo, files)?;
    git(&repo, &["init", "-q", "-b", "main"])?;
    git(&repo, &["add", "-A"])?;
    // No automatic gc in the baseline (it would pack in the background while measured).
    git(&repo, &["config", "gc.auto", "0"])?;
    git(&repo, &["commit", "-q", "-m", "base"])?;
    // Packed like a real repository. The loose objects stay (no `-d`, which deletes
    // them): ext4 without a journal skips inodes freed in the last minutes when it
    // allocates new ones, which would slow both sides' object writes for a while.
    git(&repo, &["repack", "-a", "-q"])?;
    run(Command::new("cp").arg("-a").arg(&repo).arg(&copy))?;
    eprintln!("   tree and copy ready in {:.1?}", started.elapsed());

    // Heddle: a worktree-mode run on the original.
    let run_id = format!("bench-{files}");
    let run_dir = RunDir::create(root.join("run"))?;
    write_run_files(&run_dir, &run_id)?;
    let now = rfc3339(SystemTime::now());
    let context = SetupContext {
        heddle_home: &root.join("home"),
        user_home: None,
        choice: ModeChoice::Worktree,
        size_cap: DEFAULT_SIZE_CAP,
        now: &now,
    };
    let started = Instant::now();
    let setup = set_up(&context, &run_id, &run_dir, &repo, "bench", Vec::new())?;
    let work_tree = setup.state.work_tree.clone();
    let mut session = Session::open(&run_dir, setup.state, true)?;
    eprintln!(
        "   run set up (worktree checked out) in {:.1?}",
        started.elapsed()
    );
    let mut checkpoint = new_checkpoint(&run_id);
    let started = Instant::now();
    let warm_up = session.checkpoint(&checkpoint)?;
    let full_scan = ms(started.elapsed());
    eprintln!("   warm-up checkpoint (full scan) {full_scan:.1} ms");
    // The baseline's index, warm.
    git(&copy, &["status", "--porcelain"])?;

    let targets: Vec<usize> = (0..CHANGED).map(|k| k * files / CHANGED + 7).collect();
    let mut heddle_times = Vec::new();
    let mut git_times = Vec::new();
    let mut tip = warm_up.sha.clone();
    for iteration in 1..=options.iterations {
        edit(&work_tree, &targets, files, iteration)?;
        next_node(&run_dir, &mut checkpoint, iteration)?;
        let started = Instant::now();
        let made = session.checkpoint(&checkpoint)?;
        let heddle = ms(started.elapsed());
        if made.files_touched.len() != CHANGED {
            return Err(format!(
                "checkpoint {iteration} saw {} changed files, not {CHANGED}",
                made.files_touched.len()
            )
            .into());
        }
        tip = made.sha;

        edit(&copy, &targets, files, iteration)?;
        let started = Instant::now();
        run(Command::new("sh")
            .args(["-c", "git add -A && git commit -q -m x"])
            .current_dir(&copy)
            .envs(identity()))?;
        let baseline = ms(started.elapsed());
        eprintln!("   iteration {iteration}: heddle {heddle:.1} ms, git {baseline:.1} ms");
        heddle_times.push(heddle);
        git_times.push(baseline);
    }
    same_tree(&copy, &git2::Repository::open(&work_tree)?, &tip)?;
    let started = Instant::now();

    // Rollback, on the stopped run (as `heddle rollback` does): back to the warm-up
    // checkpoint (timed), then forward to the last one again (untimed).
    drop(session);
    let git_old = format!("HEAD~{}", options.iterations);
    let git_new = git_output(&copy, &["rev-parse", "HEAD"])?;
    let mut heddle_restores = Vec::new();
    let mut git_restores = Vec::new();
    let mut git_starts = Vec::new();
    let mut flushes = Vec::new();
    for _ in 0..options.rollbacks {
        let now = rfc3339(SystemTime::now());
        let started = Instant::now();
        let report = rollback(&run_dir, &warm_up.sha, false, &now)?;
        heddle_restores.push(ms(started.elapsed()));
        if report.written.len() != CHANGED {
            return Err(format!(
                "rollback wrote {} files, not {CHANGED}",
                report.written.len()
            )
            .into());
        }
        rollback(&run_dir, &tip, false, &now)?;

        let started = Instant::now();
        git(&copy, &["checkout", "-f", "-q", &git_old])?;
        git_restores.push(ms(started.elapsed()));
        let started = Instant::now();
        git_output(&copy, &["rev-parse", "HEAD"])?;
        git_starts.push(ms(started.elapsed()));
        flushes.push(durable_writes(root)?);
        git(&copy, &["checkout", "-f", "-q", &git_new])?;
    }
    eprintln!("   rollbacks done in {:.1?}", started.elapsed());
    Ok(Row {
        files,
        full_scan,
        heddle: median(heddle_times),
        git: median(git_times),
        heddle_restore: median(heddle_restores),
        git_restore: median(git_restores),
        git_start: median(git_starts),
        flushes: median(flushes),
    })
}

/// Times the flushes a rollback waits for, with nothing else: five files of a run's
/// size written under temporary names and flushed side by side, renamed into place,
/// their folder flushed, then one line appended to a log and flushed. Git's checkout
/// flushes nothing, so at a small size this alone can exceed its whole time.
fn durable_writes(root: &Path) -> Res<f64> {
    let folder = root.join("flushes");
    std::fs::create_dir_all(&folder)?;
    let names: Vec<PathBuf> = ["a.json", "b.jsonl", "c.json", "d.json", "e.json"]
        .iter()
        .map(|name| folder.join(name))
        .collect();
    let bytes = vec![b'x'; 2048];
    let files: Vec<(&Path, &[u8])> = names.iter().map(|p| (p.as_path(), &bytes[..])).collect();
    let started = Instant::now();
    heddle_engine::atomic_file::stage_files(&files)?.put_in_place()?;
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(folder.join("log.jsonl"))?;
    std::io::Write::write_all(&mut log, b"{\"event\":\"x\"}\n")?;
    log.sync_data()?;
    Ok(ms(started.elapsed()))
}

/// Writes `count` small files, [`PER_DIR`] to a folder, three folder levels deep.
fn generate(root: &Path, count: usize) -> Res<()> {
    for i in 0..count {
        let path = root.join(file_path(i));
        if i % PER_DIR == 0
            && let Some(parent) = path.parent()
        {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, content(i, 0))?;
    }
    Ok(())
}

fn file_path(i: usize) -> String {
    let leaf = i / PER_DIR;
    format!(
        "d{}/d{}/d{}/f{:03}.txt",
        leaf / 100,
        (leaf / 10) % 10,
        leaf % 10,
        i % PER_DIR
    )
}

fn content(i: usize, edit: usize) -> String {
    let mut text = format!("file {i}\n");
    for line in 0..8 {
        let _ = writeln!(text, "line {line} of a small text file");
    }
    if edit > 0 {
        let _ = writeln!(text, "edit {edit}");
    }
    text
}

/// Edits the files `targets` (indices below `files`) in `root`.
fn edit(root: &Path, targets: &[usize], files: usize, iteration: usize) -> Res<()> {
    for &i in targets {
        let i = i % files;
        std::fs::write(root.join(file_path(i)), content(i, iteration))?;
    }
    Ok(())
}

/// manifest.json, graph.dot and checkpoint.json, as the engine leaves them before a
/// checkpoint.
fn write_run_files(run_dir: &RunDir, run_id: &str) -> Res<()> {
    let manifest = Manifest {
        run_id: run_id.to_string(),
        workflow_name: "bench".into(),
        workflow_path: "bench.dot".into(),
        goal: None,
        start_time: rfc3339(SystemTime::now()),
        node_count: 3,
        edge_count: 2,
        base_sha: None,
        run_branch: None,
        labels: Default::default(),
        inputs: Default::default(),
        checkpoint_mode: "worktree".into(),
        work_dir: run_dir.worktree().to_string_lossy().into_owned(),
        workspace: None,
        dry_run: true,
        parent_run_id: None,
        heddle_version: env!("CARGO_PKG_VERSION").into(),
    };
    std::fs::write(run_dir.manifest(), serde_json::to_vec_pretty(&manifest)?)?;
    std::fs::write(
        run_dir.graph(),
        "digraph bench {\n  start [shape=Mdiamond]\n  edit [label=\"Edit\"]\n  \
         exit [shape=Msquare]\n  start -> edit -> exit\n}\n",
    )?;
    new_checkpoint(run_id).save_with(&run_dir.checkpoint(), false)?;
    Ok(())
}

fn new_checkpoint(run_id: &str) -> Checkpoint {
    Checkpoint {
        version: CHECKPOINT_VERSION,
        run_id: run_id.to_string(),
        timestamp: rfc3339(SystemTime::now()),
        current_node: Some("start".into()),
        next_node_id: Some("edit".into()),
        completed_nodes: vec!["start".into()],
        node_retries: Default::default(),
        node_visits: Default::default(),
        node_outcomes: Default::default(),
        context_values: Default::default(),
        logs: Vec::new(),
        git_commit_sha: None,
        loop_failure_signatures: Default::default(),
        restart_failure_signatures: Default::default(),
        timeline: Vec::new(),
        restarts: 0,
        branches: Vec::new(),
        stages: 0,
        history_bytes: None,
    }
}

/// What the engine does before the hook: the stage's files and checkpoint.json for visit
/// `visit` of node `edit` (untimed: the engine's cost, not the checkpoint's).
fn next_node(run_dir: &RunDir, checkpoint: &mut Checkpoint, visit: usize) -> Res<()> {
    let visit = u32::try_from(visit)?;
    let stage = run_dir.stage_dir("edit", visit);
    std::fs::create_dir_all(&stage)?;
    std::fs::write(stage.join("prompt.md"), "Edit ten files.\n")?;
    std::fs::write(stage.join("response.md"), "Edited ten files.\n")?;
    std::fs::write(stage.join("status.json"), "{\"status\":\"success\"}\n")?;
    let now = rfc3339(SystemTime::now());
    checkpoint.timestamp.clone_from(&now);
    checkpoint.current_node = Some("edit".into());
    checkpoint.completed_nodes.push("edit".into());
    checkpoint.node_visits.insert("edit".into(), visit);
    checkpoint.node_outcomes.insert(
        "edit".into(),
        NodeOutcome {
            status: StageStatus::Success,
            preferred_label: None,
            failure_reason: None,
        },
    );
    checkpoint.timeline.push(StageRecord {
        node_id: "edit".into(),
        kind: HandlerKind::Agent,
        visit,
        attempts: 1,
        status: StageStatus::Success,
        stage_dir: RunDir::stage_dir_name("edit", visit),
        started_at: now.clone(),
        ended_at: now,
        duration_ms: 1,
        branch: None,
        failure_reason: None,
        failure_class: None,
        notes: String::new(),
        preferred_label: None,
        model: None,
        usage: None,
        cost_usd: None,
        files_touched: Vec::new(),
        script: None,
        simulated: true,
        artifacts: 0,
        junit: None,
        blobs: Default::default(),
    });
    checkpoint.save_with(&run_dir.checkpoint(), false)?;
    Ok(())
}

/// Fails unless Heddle's last checkpoint and the baseline's HEAD hold the same tree.
fn same_tree(copy: &Path, repo: &git2::Repository, tip: &str) -> Res<()> {
    let ours = repo
        .find_commit(git2::Oid::from_str(tip)?)?
        .tree_id()
        .to_string();
    let theirs = git_output(copy, &["rev-parse", "HEAD^{tree}"])?;
    if ours == theirs {
        Ok(())
    } else {
        Err(format!("trees differ: heddle {ours}, git {theirs}").into())
    }
}

/// Git's identity for the baseline, and no system or user configuration.
fn identity() -> [(&'static str, &'static str); 6] {
    [
        ("GIT_AUTHOR_NAME", "b"),
        ("GIT_AUTHOR_EMAIL", "b@b"),
        ("GIT_COMMITTER_NAME", "b"),
        ("GIT_COMMITTER_EMAIL", "b@b"),
        ("GIT_CONFIG_NOSYSTEM", "1"),
        ("GIT_CONFIG_GLOBAL", "/dev/null"),
    ]
}

fn git(dir: &Path, args: &[&str]) -> Res<()> {
    run(Command::new("git")
        .args(args)
        .current_dir(dir)
        .envs(identity()))
}

fn git_output(dir: &Path, args: &[&str]) -> Res<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .envs(identity())
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(String::from_utf8(out.stdout)?.trim().to_string())
}

fn run(command: &mut Command) -> Res<()> {
    let status = command.status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed: {status}").into())
    }
}

fn ms(took: Duration) -> f64 {
    took.as_secs_f64() * 1000.0
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    }
}

/// One markdown table of (files, heddle ms, git ms) with the ratio.
fn table(out: &mut String, rows: impl Iterator<Item = (usize, f64, f64)>) {
    let _ = writeln!(out, "| size | heddle ms | git ms | ratio |");
    let _ = writeln!(out, "|---:|---:|---:|---:|");
    for (files, heddle, git) in rows {
        let _ = writeln!(
            out,
            "| {files} | {heddle:.1} | {git:.1} | {:.2}x |",
            heddle / git
        );
    }
}

/// The markdown tables and the verdicts.
fn report(rows: &[Row], iterations: usize, rollbacks: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nCheckpoint: {CHANGED} files changed, one full checkpoint (metadata + run-branch \
         commit) vs `git add -A && git commit -q` (warm index); median of {iterations}.\n"
    );
    table(&mut out, rows.iter().map(|r| (r.files, r.heddle, r.git)));
    let _ = writeln!(
        out,
        "\nFirst checkpoint of a run (full scan, for information): {}",
        rows.iter()
            .map(|r| format!("{} files {:.1} ms", r.files, r.full_scan))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        out,
        "\nRollback to the checkpoint {iterations} back ({CHANGED} files differ; Heddle: \
         `rollback::rollback`, recovery snapshot and new timeline included) vs \
         `git checkout -f`; median of {rollbacks}:\n"
    );
    table(
        &mut out,
        rows.iter()
            .map(|r| (r.files, r.heddle_restore, r.git_restore)),
    );
    let _ = writeln!(
        out,
        "\nStarting git (`git rev-parse HEAD`, part of each git figure; Heddle runs \
         in-process): {}",
        rows.iter()
            .map(|r| format!("{} files {:.1} ms", r.files, r.git_start))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        out,
        "\nFlushes alone (five run files flushed side by side, renamed, their folder \
         flushed, one event appended and flushed: what a rollback waits for the disk; \
         git's checkout flushes nothing): {}",
        rows.iter()
            .map(|r| format!("{} files {:.1} ms", r.files, r.flushes))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    let _ = writeln!(
        out,
        "\nCheckpoint target <= 1.0x at every size: {}",
        verdict(rows.iter().all(|r| r.heddle <= r.git))
    );
    let _ = writeln!(
        out,
        "Rollback target <= 1.0x at every size: {}",
        verdict(rows.iter().all(|r| r.heddle_restore <= r.git_restore))
    );
    match rows.iter().find(|r| r.files == 100_000) {
        Some(row) => {
            let _ = writeln!(
                out,
                "Target < {TARGET_MS:.0} ms at 100k files: {} ({:.1} ms)",
                if row.heddle < TARGET_MS {
                    "met"
                } else {
                    "NOT met"
                },
                row.heddle
            );
        }
        None => {
            let _ = writeln!(
                out,
                "Target < {TARGET_MS:.0} ms at 100k files: not measured (add 100000 to --sizes)"
            );
        }
    }
    out
}
