//! Rolling a stopped run back to any checkpoint. The work tree is scanned; files changed
//! outside the run since its last checkpoint stop the rollback unless forced. Then two
//! sides are done at once: the work tree's (a recovery snapshot committed first,
//! `refs/heddle/recovery/{run}/{n}`, so nothing is lost; the files restored, and whatever
//! was in their way that the run does not own moved into the recovery area
//! `{run_dir}/recovery/{n}/`, named in the report and in a `warning` event) and the run's
//! (a new timeline branch at the target, checkpoint.json the target's, every earlier
//! timeline left as it was; journaled by [`crate::rollback_journal`] so a kill between
//! its renames is finished later). `heddle rollback` and the API's `rollback_run` both
//! call [`rollback`].

use std::path::{Path, PathBuf};

use git2::{Oid, Repository};
use heddle_engine::atomic_file::replace_files;
use heddle_engine::emitter::append_run_event;
use heddle_engine::event::Event;
use heddle_engine::runlock::RunLock;
use heddle_engine::{EngineError, RunDir, SeededEntropy};
use serde::Serialize;

use crate::error::{CheckpointError, Result};
use crate::history::{checkpoint_text_at, resolve};
use crate::integrity::open_run;
use crate::metadata::commit_metadata;
use crate::recovery::RecoveryScan;
use crate::repo::{commit, compare_and_swap, signature, tip};
use crate::rollback_journal;
use crate::state::{GitState, Mode, timeline_branch};
use crate::tree_diff;

/// What a rollback did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RollbackReport {
    /// Full sha of the checkpoint restored.
    pub target: String,
    /// The recovery snapshot of the state before (ref and commit).
    pub recovery_ref: String,
    /// Full sha of the snapshot commit `recovery_ref` points at.
    pub recovery_sha: String,
    /// The new timeline branch the run continues on.
    pub timeline: String,
    /// Paths relative to the work tree written (added or changed) by the restore.
    pub written: Vec<String>,
    /// Paths relative to the work tree deleted (present before, absent in the target).
    pub deleted: Vec<String>,
    /// Entries that were in the way of the target's files and not the run's (ignored or
    /// oversized files, nested repositories, links, folders holding them), moved into
    /// `moved_aside_to` at the same relative paths.
    pub moved_aside: Vec<String>,
    /// The recovery area they were moved into (`None` when nothing was).
    pub moved_aside_to: Option<String>,
    /// The node the run resumes at (`None`: from the start).
    pub next_node: Option<String>,
}

/// Rolls the run in `run_dir` back to `target` (see [`resolve`] for the forms); `force`
/// goes ahead over files changed outside the run; `now` (RFC 3339) dates the commits and
/// the `run.rolled_back` event appended to progress.jsonl.
pub fn rollback(run_dir: &RunDir, target: &str, force: bool, now: &str) -> Result<RollbackReport> {
    let manifest = run_dir.read_manifest()?;
    let _lock = RunLock::acquire(run_dir, &manifest.run_id).map_err(|e| match e {
        EngineError::NotResumable { .. } => CheckpointError::Busy {
            run_id: manifest.run_id.clone(),
            pid: run_dir.read_pid().unwrap_or(0),
        },
        other => other.into(),
    })?;
    let finished = rollback_journal::finish_pending(run_dir, now)?;
    let (mut state, repo) = open_run(run_dir)?;
    // A rollback or resume killed while writing a ref left its lock; the run's lock is ours.
    crate::reopen::remove_stale_locks(&state);
    let target_oid = resolve(&repo, &state, target)?;
    let head = tip(&repo, &state.branch)?.ok_or_else(|| CheckpointError::NotFound {
        what: format!("run branch {}", state.branch),
        repo: state.git_dir.clone(),
    })?;
    let scan = RecoveryScan::scan(&repo, &state)?;
    let why = format!("rollback to {target}");
    let head_tree = commit(&repo, head)?.tree_id();
    if scan.tree != head_tree && !force {
        let changed = changed_paths(&repo, head_tree, scan.tree)?;
        let mut recovery = scan.commit(&repo, &state, run_dir, head, &why, now)?;
        recovery.save_index()?;
        return Err(CheckpointError::ChangedOutside { files: changed });
    }
    let target_tree = commit(&repo, target_oid)?.tree_id();
    // A new timeline, from the target; the old ones stay.
    let branch = timeline_branch(&state.run_id, state.timelines.len() + 1);
    state.branch = branch.clone();
    state.timelines.push(branch.clone());
    // The run's side (new branch, run files, metadata commit) and the work tree's side
    // (recovery snapshot, restore, index) are done at once: neither reads what the other
    // writes. Each side keeps its own order, so a crash anywhere leaves the run either
    // where it was or on the target, and the work tree either untouched or with its
    // recovery snapshot committed; resuming restores the files the run owns to the
    // checkpoint the run files name, after a snapshot of its own.
    let (work_tree, run_side) = std::thread::scope(|scope| {
        let run_side = scope.spawn(|| switch_run(run_dir, &state, target_oid, now));
        let work_tree = (|| {
            let mut recovery = scan.commit(&repo, &state, run_dir, head, &why, now)?;
            let restored = recovery.restore_files(&repo, &state, target_tree)?;
            recovery.save_restored_index(&repo, &restored)?;
            Ok::<_, CheckpointError>((recovery, restored))
        })();
        let run_side = run_side
            .join()
            .unwrap_or_else(|_| Err(interrupted(run_dir, "writing the run's files")));
        (work_tree, run_side)
    });
    let (recovery, restored) = work_tree?;
    let (next_node, completed_nodes) = run_side?;
    let moved_aside_to = (!restored.moved_aside.is_empty())
        .then(|| recovery.aside.root().to_string_lossy().into_owned());
    if let Some(message) = finished {
        record_rollback(
            run_dir,
            &state.run_id,
            now,
            target_oid,
            2,
            Event::Warning { message },
        )?;
    }
    if let Some(area) = &moved_aside_to {
        record_rollback(
            run_dir,
            &state.run_id,
            now,
            target_oid,
            1,
            Event::Warning {
                message: format!(
                    "rollback moved what was in the way of the checkpoint's files and is not \
                     the run's into {area}: {}",
                    restored.moved_aside.join(", ")
                ),
            },
        )?;
    }
    record_rollback(
        run_dir,
        &state.run_id,
        now,
        target_oid,
        0,
        Event::RunRolledBack {
            to: target_oid.to_string(),
            timeline: GitState::short(&branch).to_string(),
            next_node_id: next_node.clone(),
            completed_nodes,
        },
    )?;
    Ok(RollbackReport {
        target: target_oid.to_string(),
        recovery_ref: recovery.reference.clone(),
        recovery_sha: recovery.commit.to_string(),
        timeline: GitState::short(&branch).to_string(),
        written: restored.written,
        deleted: restored.deleted,
        moved_aside: restored.moved_aside,
        moved_aside_to,
        next_node,
    })
}

/// Moves the run in `state` (its new timeline branch already named there) onto that
/// branch, made at checkpoint `target` (and the worktree's HEAD with it), makes the
/// run's files those of the target ([`restore_run_files`]) and commits them to the run's
/// metadata ref; through a handle on the repository of its own, so it can run beside
/// the work on the work tree. The node the run resumes at and the nodes completed.
fn switch_run(
    run_dir: &RunDir,
    state: &GitState,
    target: Oid,
    now: &str,
) -> Result<(Option<String>, Vec<String>)> {
    let repo = crate::repo::open(state)?;
    // A rollback killed before its run files named this timeline may have left the
    // branch, or a lock on it: no timeline of the run is on it and the run's lock is
    // ours, so both are taken over.
    let _ = std::fs::remove_file(state.git_dir.join(format!("{}.lock", state.branch)));
    let leftover = tip(&repo, &state.branch)?;
    compare_and_swap(
        &repo,
        &state.branch,
        leftover,
        target,
        "heddle: rollback timeline",
    )?;
    if state.mode == Mode::Worktree {
        // `repo` is the worktree's own repository (see `repo::open`).
        repo.set_head(&state.branch).map_err(|e| {
            CheckpointError::git(&state.work_tree, "switch the worktree's branch", &e)
        })?;
    }
    let journal = (
        rollback_journal::path(run_dir),
        rollback_journal::bytes(target, state)?,
    );
    record_run_files(
        run_dir,
        &repo,
        state,
        target,
        Some(journal),
        &format!("rollback to {target}"),
        now,
    )
}

/// [`restore_run_files`], then the metadata commit recording them, its subject
/// `heddle({run}) {why}`, dated `now` (RFC 3339); the node the run resumes at and the
/// nodes completed.
pub(crate) fn record_run_files(
    run_dir: &RunDir,
    repo: &Repository,
    state: &GitState,
    target: Oid,
    journal: Option<(PathBuf, Vec<u8>)>,
    why: &str,
    now: &str,
) -> Result<(Option<String>, Vec<String>)> {
    let resumes = restore_run_files(run_dir, repo, state, target, journal)?;
    commit_metadata(
        repo,
        run_dir,
        &state.metadata_ref,
        &[],
        &format!("heddle({}) {why}\n", state.run_id),
        &signature(now)?,
    )?;
    Ok(resumes)
}

fn interrupted(run_dir: &RunDir, what: &str) -> CheckpointError {
    CheckpointError::Inconsistent {
        path: run_dir.root().to_path_buf(),
        message: format!("the rollback stopped while {what}; run `heddle rollback` again"),
    }
}

fn changed_paths(repo: &Repository, from: Oid, to: Oid) -> Result<Vec<String>> {
    let git =
        |e: &git2::Error| CheckpointError::git(repo.path(), "compare with the last checkpoint", e);
    let old = repo.find_tree(from).map_err(|e| git(&e))?;
    let new = repo.find_tree(to).map_err(|e| git(&e))?;
    Ok(tree_diff::changed_paths(repo, Some(&old), Some(&new))
        .map_err(|e| git(&e))?
        .iter()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect())
}

/// Makes timeline.jsonl and checkpoint.json the target's (or removes checkpoint.json when
/// the target is the run's base), saves `state` (git.json) and manifest.json naming the new
/// branch, and drops conclusion.json so the run can resume; the node it resumes at and the
/// nodes completed. The files are replaced together ([`replace_files`]: flushed side by
/// side, then renamed in that order), so a crash leaves each one whole, and only one wait
/// for the disk. `journal` (path and bytes, see [`crate::rollback_journal`]) is renamed
/// first and removed last.
pub fn restore_run_files(
    run_dir: &RunDir,
    repo: &Repository,
    state: &GitState,
    target: Oid,
    journal: Option<(PathBuf, Vec<u8>)>,
) -> Result<(Option<String>, Vec<String>)> {
    let json = |path: &Path, bytes: serde_json::Result<Vec<u8>>| {
        bytes.map_err(|e| CheckpointError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    };
    let checkpoint_json = run_dir.checkpoint();
    let manifest_json = run_dir.manifest();
    let mut manifest = run_dir.read_manifest()?;
    manifest.run_branch = Some(GitState::short(&state.branch).to_string());
    // The journal first: a crash between any two renames leaves it there to finish.
    let journaled = journal.as_ref().map(|(path, _)| path.clone());
    let mut files: Vec<(PathBuf, Vec<u8>)> = journal.into_iter().collect();
    let checkpoint = checkpoint_text_at(repo, target)?;
    let next = match checkpoint {
        Some((mut checkpoint, text)) => {
            checkpoint.git_commit_sha = Some(target.to_string());
            checkpoint.run_id = state.run_id.clone();
            // timeline.jsonl first: a crash before checkpoint.json is replaced leaves the
            // old checkpoint over the target's shorter history, never the reverse.
            let (head, history) = match text {
                // Byte for byte as the metadata tree has it.
                Some(text) => {
                    checkpoint.history_bytes = Some(text.len() as u64);
                    (checkpoint.head_bytes(&checkpoint_json)?, text)
                }
                None => checkpoint.to_files(&checkpoint_json)?,
            };
            files.push((run_dir.timeline(), history));
            files.push((checkpoint_json.clone(), head));
            Some((checkpoint.next_node_id, checkpoint.completed_nodes))
        }
        None => None,
    };
    files.push((GitState::path(run_dir), state.to_json()?));
    files.push((
        manifest_json.clone(),
        json(&manifest_json, serde_json::to_vec_pretty(&manifest))?,
    ));
    let batch: Vec<(&Path, &[u8])> = files
        .iter()
        .map(|(path, bytes)| (path.as_path(), bytes.as_slice()))
        .collect();
    replace_files(&batch).map_err(|e| CheckpointError::io(run_dir.root(), &e))?;
    if next.is_none() {
        remove_if_present(&checkpoint_json)?;
    }
    remove_if_present(&run_dir.conclusion())?;
    if let Some(journal) = journaled {
        remove_if_present(&journal)?;
    }
    Ok(next.unwrap_or_default())
}

fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CheckpointError::io(path, &e)),
        _ => Ok(()),
    }
}

/// Appends `event` (the rollback's `nth` event) to the run's progress.jsonl, dated `now`;
/// its id's randomness comes from the target commit and `nth`, so the same rollback
/// always writes the same ids.
fn record_rollback(
    run_dir: &RunDir,
    run_id: &str,
    now: &str,
    target: Oid,
    nth: u64,
    event: Event,
) -> Result<()> {
    let at = humantime::parse_rfc3339_weak(now).map_err(|e| {
        CheckpointError::io(
            run_dir.progress(),
            &std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("time `{now}`: {e}"),
            ),
        )
    })?;
    let seed = target
        .as_bytes()
        .iter()
        .take(8)
        .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
        .wrapping_add(nth);
    append_run_event(run_dir, run_id, at, &SeededEntropy::new(seed), event)?;
    Ok(())
}
