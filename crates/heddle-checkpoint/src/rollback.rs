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

use git2::{Oid, Repository};
use heddle_engine::emitter::append_run_event;
use heddle_engine::event::Event;
use heddle_engine::runlock::RunLock;
use heddle_engine::{EngineError, RunDir, SeededEntropy};
use serde::Serialize;

use crate::error::{CheckpointError, Result};
use crate::history::resolve;
use crate::integrity::open_run;
use crate::recovery::RecoveryScan;
use crate::repo::{commit, compare_and_swap, tip};
use crate::restore::changes_between;
use crate::rollback_journal;
use crate::run_files::{MoveTo, record_run_files};
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
    let (state, repo) = open_run(run_dir)?;
    // A rollback or resume killed while writing a ref left its lock; the run's lock is ours.
    crate::reopen::remove_stale_locks(&state);
    let target_oid = resolve(&repo, &state, target)?;
    let head = tip(&repo, &state.branch)?.ok_or_else(|| CheckpointError::NotFound {
        what: format!("run branch {}", state.branch),
        repo: state.git_dir.clone(),
    })?;
    let target_tree = commit(&repo, target_oid)?.tree_id();
    let head_tree = commit(&repo, head)?.tree_id();
    // A new timeline, from the target; the old ones stay.
    let mut moved = state.clone();
    moved.branch = timeline_branch(&state.run_id, state.timelines.len() + 1);
    moved.timelines.push(moved.branch.clone());
    // The run's side (new branch, run files, metadata commit) and the work tree's side
    // (scan, recovery snapshot, restore, index) run at once: neither reads what the other
    // writes. The run's side prepares (its files built and flushed under temporary names,
    // its metadata objects written) while the work tree is scanned, and moves nothing
    // until the scan says the rollback goes ahead. Each side keeps its own order, so a
    // crash anywhere leaves the run either where it was or on the target, and the work
    // tree either untouched or with its recovery snapshot committed; resuming restores
    // the files the run owns to the checkpoint the run files name, after a snapshot of
    // its own.
    let (work_tree, run_side) = std::thread::scope(|scope| {
        let (go, wait) = std::sync::mpsc::sync_channel::<bool>(1);
        // Borrowed by every side; only `go` is moved into the work tree's.
        let (state, repo) = (&state, &repo);
        let run_side = scope.spawn(|| {
            // No word (the scan failed, and dropped `go`) is a no.
            switch_run(run_dir, &moved, target_oid, now, move || {
                Ok(wait.recv().unwrap_or(false))
            })
        });
        // What the restore will change, when the scan finds the work tree as the last
        // checkpoint left it (the usual case): found on a handle of its own meanwhile.
        let planned = scope.spawn(|| {
            let repo = crate::repo::open(state)?;
            changes_between(&repo, head_tree, target_tree)
        });
        let work_tree = (move || {
            let scan = RecoveryScan::scan(repo, state)?;
            let why = format!("rollback to {target}");
            let scan_tree = scan.tree;
            if scan_tree != head_tree && !force {
                let _ = go.send(false);
                let changed = changed_paths(repo, head_tree, scan.tree)?;
                let mut recovery = scan.commit(repo, state, run_dir, head, &why, now)?;
                recovery.save_index()?;
                return Err(CheckpointError::ChangedOutside { files: changed });
            }
            if let Some(message) = finished {
                // Before the run's side appends `run.rolled_back`.
                let warning = Event::Warning { message };
                let recorded = record_rollback(run_dir, &state.run_id, now, target_oid, 2, warning);
                if let Err(e) = recorded {
                    let _ = go.send(false);
                    return Err(e);
                }
            }
            let _ = go.send(true);
            let mut recovery = scan.commit(repo, state, run_dir, head, &why, now)?;
            // The comparison made meanwhile, when it stands for this snapshot and it could
            // be made (else it is made here, on this handle).
            let changes = (scan_tree == head_tree)
                .then(|| planned.join().ok().and_then(Result::ok))
                .flatten();
            let restored = match changes {
                Some(changes) => recovery.restore_changes(repo, state, changes, target_tree)?,
                None => recovery.restore_files(repo, state, target_tree)?,
            };
            recovery.save_restored_index(repo, &restored)?;
            Ok::<_, CheckpointError>((recovery, restored))
        })();
        let run_side = run_side
            .join()
            .unwrap_or_else(|_| Err(interrupted(run_dir, "writing the run's files")));
        (work_tree, run_side)
    });
    let (recovery, restored) = work_tree?;
    // The work tree's side went ahead, so the run's did too.
    let next_node = run_side?.flatten();
    let moved_aside_to = (!restored.moved_aside.is_empty())
        .then(|| recovery.aside.root().to_string_lossy().into_owned());
    if let Some(area) = &moved_aside_to {
        record_rollback(
            run_dir,
            &moved.run_id,
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
    Ok(RollbackReport {
        target: target_oid.to_string(),
        recovery_ref: recovery.reference.clone(),
        recovery_sha: recovery.commit.to_string(),
        timeline: GitState::short(&moved.branch).to_string(),
        written: restored.written,
        deleted: restored.deleted,
        moved_aside: restored.moved_aside,
        moved_aside_to,
        next_node,
    })
}

/// Moves the run in `state` (its new timeline branch already named there) onto that
/// branch, made at checkpoint `target` (and the worktree's HEAD with it), makes the
/// run's files those of the target and records them in its metadata history
/// ([`record_run_files`]), then appends the `run.rolled_back` event; through a handle on
/// the repository of its own, so it can run beside the work on the work tree. Everything
/// is prepared before `go` is asked; when it says no, nothing moves and the result is
/// `None`. Else the node the run resumes at (itself `None`: from the start).
fn switch_run(
    run_dir: &RunDir,
    state: &GitState,
    target: Oid,
    now: &str,
    go: impl FnOnce() -> Result<bool>,
) -> Result<Option<Option<String>>> {
    let repo = crate::repo::open(state)?;
    let journal = (
        rollback_journal::path(run_dir),
        rollback_journal::bytes(target, state)?,
    );
    let why = format!("rollback to {target}");
    let to = MoveTo {
        target,
        journal: Some(journal),
        why: &why,
        now,
    };
    let recorded = record_run_files(run_dir, &repo, state, to, || {
        let ahead = go()?;
        if ahead {
            take_branch(&repo, state, target)?;
        }
        Ok(ahead)
    })?;
    let Some((next_node, completed_nodes)) = recorded else {
        return Ok(None);
    };
    record_rollback(
        run_dir,
        &state.run_id,
        now,
        target,
        0,
        Event::RunRolledBack {
            to: target.to_string(),
            timeline: GitState::short(&state.branch).to_string(),
            next_node_id: next_node.clone(),
            completed_nodes,
        },
    )?;
    Ok(Some(next_node))
}

/// Points the run's new branch (named in `state`) at `target`, and a worktree's HEAD at
/// the branch.
fn take_branch(repo: &Repository, state: &GitState, target: Oid) -> Result<()> {
    // A rollback killed before its run files named this timeline may have left the
    // branch, or a lock on it: no timeline of the run is on it and the run's lock is
    // ours, so both are taken over.
    let _ = std::fs::remove_file(state.git_dir.join(format!("{}.lock", state.branch)));
    let leftover = tip(repo, &state.branch)?;
    compare_and_swap(
        repo,
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
    Ok(())
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
