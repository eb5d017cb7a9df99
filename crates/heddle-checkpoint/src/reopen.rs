//! Making a stopped run's checkpoints usable again: lock files a killed process left on the
//! run's refs and index, and a worktree that went missing (re-attached to the run branch).

use std::path::PathBuf;

use git2::{Repository, WorktreePruneOptions};
use heddle_engine::RunDir;

use crate::error::{CheckpointError, Result};
use crate::repo::{add_worktree, worktree_name};
use crate::state::{GitState, Mode};

/// Repairs what a crash can leave behind; warnings saying what was done. The caller holds
/// the run's lock, so no other Heddle process writes these refs now.
pub fn repair(run_dir: &RunDir, state: &GitState) -> Result<Vec<String>> {
    let mut warnings = remove_stale_locks(state);
    if state.mode == Mode::Worktree && !state.work_tree.join(".git").exists() {
        attach_worktree(state)?;
        warnings.push(format!(
            "re-attached the worktree {} to {}",
            state.work_tree.display(),
            GitState::short(&state.branch)
        ));
    }
    if state.mode == Mode::Worktree
        && let Some(warning) = follow_run_branch(state)?
    {
        warnings.push(warning);
    }
    let _ = run_dir;
    Ok(warnings)
}

/// Points the worktree's HEAD at the branch the run continues on when it names another
/// (a rollback killed between switching the two); the warning saying so.
fn follow_run_branch(state: &GitState) -> Result<Option<String>> {
    let git = |e: &git2::Error| CheckpointError::git(&state.work_tree, "the worktree's HEAD", e);
    let repo = crate::repo::open(state)?;
    let head = repo.find_reference("HEAD").map_err(|e| git(&e))?;
    if head.symbolic_target_bytes() == Some(state.branch.as_bytes()) {
        return Ok(None);
    }
    repo.set_head(&state.branch).map_err(|e| git(&e))?;
    Ok(Some(format!(
        "the worktree {} was switched back to {}, the branch the run continues on",
        state.work_tree.display(),
        GitState::short(&state.branch)
    )))
}

/// Removes the lock files a killed process left on the run's refs (timelines, metadata,
/// recovery snapshots), its index and its worktree's HEAD; a warning for each. Only for a
/// caller holding the
/// run's lock, so that no other Heddle process is writing them.
pub fn remove_stale_locks(state: &GitState) -> Vec<String> {
    let mut locks: Vec<PathBuf> = state
        .timelines
        .iter()
        .chain(std::iter::once(&state.metadata_ref))
        .map(|r| state.git_dir.join(format!("{r}.lock")))
        .collect();
    locks.push(PathBuf::from(format!("{}.lock", state.index.display())));
    // A worktree run's own HEAD (a rollback killed while switching the worktree's branch).
    if state.mode == Mode::Worktree {
        locks.push(
            state
                .git_dir
                .join("worktrees")
                .join(run_worktree(state))
                .join("HEAD.lock"),
        );
    }
    // Recovery refs are numbered; a lock may sit beside any of them.
    let recovery = state.git_dir.join(state.recovery_ref(0));
    if let Some(Ok(entries)) = recovery.parent().map(std::fs::read_dir) {
        locks.extend(
            entries
                .filter_map(std::result::Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "lock")),
        );
    }
    let mut warnings = Vec::new();
    for lock in locks {
        if lock.exists() && std::fs::remove_file(&lock).is_ok() {
            warnings.push(format!(
                "removed {} left by an interrupted checkpoint",
                lock.display()
            ));
        }
    }
    warnings
}

/// The name git knows the run's worktree by (runs set up before names were recorded use
/// the default one).
fn run_worktree(state: &GitState) -> String {
    state
        .worktree_name
        .clone()
        .unwrap_or_else(|| worktree_name(&state.run_id))
}

/// Adds the run's worktree again, on its current branch; its index file.
pub fn attach_worktree(state: &GitState) -> Result<PathBuf> {
    let repo =
        Repository::open(&state.git_dir).map_err(|e| crate::repo::damaged(&state.git_dir, &e))?;
    let name = run_worktree(state);
    if let Ok(old) = repo.find_worktree(&name) {
        old.prune(Some(
            WorktreePruneOptions::new().valid(true).working_tree(false),
        ))
        .map_err(|e| CheckpointError::git(&state.git_dir, "prune the old worktree entry", &e))?;
    }
    if let Some(parent) = state.work_tree.parent() {
        std::fs::create_dir_all(parent).map_err(|e| CheckpointError::io(parent, &e))?;
    }
    add_worktree(&repo, &name, &state.work_tree, &state.branch)
}
