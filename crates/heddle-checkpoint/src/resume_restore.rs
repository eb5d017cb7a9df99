//! Putting an interrupted run's work tree back to its last checkpoint before it resumes.
//! A process killed mid-stage leaves that stage's partial output in the work tree, and the
//! resume runs the stage again; without this, the stage would run on top of what it had
//! already written. The work tree as it is is committed as a recovery snapshot first
//! (`refs/heddle/recovery/{run}/{n}`), so nothing is lost; then only the files the run's
//! checkpoints own are restored (see [`restore_tree`]).

use git2::{Oid, Repository};
use heddle_engine::hooks::WorkTreeRecovery;
use heddle_engine::{Checkpoint, RunDir};

use crate::error::{CheckpointError, Result};
use crate::recovery::commit_recovery;
use crate::repo::{commit, tip};
use crate::restore::restore_tree;
use crate::session::Session;
use crate::set_aside::SetAside;
use crate::snapshot::scan_work_tree;
use crate::state::GitState;

/// Restores the work tree of the interrupted run in `run_dir` to its last checkpoint, after
/// a recovery snapshot dated `now` (RFC 3339); `None` when it already matched.
pub fn restore_interrupted(
    run_dir: &RunDir,
    state: &GitState,
    repo: &Repository,
    now: &str,
) -> Result<Option<WorkTreeRecovery>> {
    let target = last_checkpoint(run_dir, state, repo)?;
    let head = tip(repo, &state.branch)?.ok_or_else(|| CheckpointError::NotFound {
        what: format!("run branch {}", state.branch),
        repo: state.git_dir.clone(),
    })?;
    let (mut index, now_tree, _) = scan_work_tree(repo, state)?;
    let target_tree = commit(repo, target)?.tree_id();
    if now_tree == target_tree {
        return Ok(None);
    }
    let short = &target.to_string()[..12];
    let (recovery_ref, recovery_sha, n) = commit_recovery(
        repo,
        state,
        now_tree,
        head,
        &format!("resuming from checkpoint {short}"),
        now,
    )?;
    let mut aside = SetAside::new(&state.work_tree, &SetAside::area(run_dir, n));
    let restored = restore_tree(
        repo,
        &mut index,
        &state.work_tree,
        now_tree,
        target_tree,
        &mut aside,
    )?;
    let moved_aside_to =
        (!restored.moved_aside.is_empty()).then(|| aside.root().display().to_string());
    Ok(Some(WorkTreeRecovery {
        checkpoint: target.to_string(),
        recovery_ref,
        recovery_sha: recovery_sha.to_string(),
        written: restored.written,
        deleted: restored.deleted,
        moved_aside: restored.moved_aside,
        moved_aside_to,
    }))
}

/// The commit the run's next stage started from: the one checkpoint.json names, or the
/// branch tip (the base) before the first checkpoint. A checkpoint.json without a commit
/// was being recorded when the process died, after its stage had completed (the next stage
/// starts only once the commit is recorded), so the work tree holds exactly that stage's
/// effect: the commit is made now, as the checkpoint would have made it, so the next crash
/// has a checkpoint to go back to. The same goes for a commit checkpoint.json names that is
/// not in the repository: its session held it, unpublished, when the process died, and
/// only nodes that leave the work tree alone ran after it ([`crate::grouping`]).
fn last_checkpoint(run_dir: &RunDir, state: &GitState, repo: &Repository) -> Result<Oid> {
    let path = run_dir.checkpoint();
    if !path.exists() {
        return tip(repo, &state.branch)?.ok_or_else(|| CheckpointError::NotFound {
            what: format!("run branch {}", state.branch),
            repo: state.git_dir.clone(),
        });
    }
    let mut checkpoint = Checkpoint::load(&path)?;
    if let Some(sha) = &checkpoint.git_commit_sha {
        let named = Oid::from_str(sha)
            .map_err(|e| CheckpointError::git(&path, "checkpoint.json's git_commit_sha", &e))?;
        if crate::integrity::has_object(repo, state, named)? {
            return Ok(named);
        }
        tracing::info!(
            run = %state.run_id,
            commit = %named,
            "the last checkpoint was not yet written when the run stopped; recording it again"
        );
    }
    let mut session = Session::open(run_dir, state.clone(), false)?;
    let recorded = session.checkpoint(&checkpoint)?;
    checkpoint.git_commit_sha = Some(recorded.sha.clone());
    checkpoint.save(&path)?;
    Oid::from_str(&recorded.sha)
        .map_err(|e| CheckpointError::git(&path, "the checkpoint just recorded", &e))
}
