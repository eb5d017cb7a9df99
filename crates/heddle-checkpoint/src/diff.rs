//! The difference between two checkpoints: files changed with their hunks (see
//! [`crate::hunks`]), and the same difference as patch text for the CLI.

use git2::{DiffOptions, Oid, Repository};
use serde::Serialize;

use crate::error::{CheckpointError, Result};
use crate::history::resolve;
use crate::hunks::file_changes;
pub use crate::hunks::{DiffHunk, DiffLine, FileChange, FileStatus, LineKind, ModeChange};
use crate::repo::{commit, tip};
use crate::state::GitState;
use crate::tree_diff::{diff_trees, patch_bytes};

/// The diff between two checkpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckpointDiff {
    /// Full sha of the older checkpoint commit.
    pub from: String,
    /// Full sha of the newer checkpoint commit (the timeline's tip when none was named).
    pub to: String,
    /// Files changed, with their hunks.
    pub files: Vec<FileChange>,
}

/// The checkpoints `from` and `to` name (any form [`resolve`] takes); without `to`, the tip
/// of the timeline the run continues on.
fn resolve_pair(
    repo: &Repository,
    state: &GitState,
    from: &str,
    to: Option<&str>,
) -> Result<(Oid, Oid)> {
    let from = resolve(repo, state, from)?;
    let to = match to {
        Some(target) => resolve(repo, state, target)?,
        None => tip(repo, &state.branch)?.ok_or_else(|| CheckpointError::NoSuchCheckpoint {
            target: "latest".into(),
            hint: "; the run has no checkpoints yet".into(),
        })?,
    };
    Ok((from, to))
}

/// The diff between the checkpoints `from` and `to` name (any form [`resolve`] takes;
/// without `to`, up to the tip of the timeline the run continues on).
pub fn diff_targets(
    repo: &Repository,
    state: &GitState,
    from: &str,
    to: Option<&str>,
) -> Result<CheckpointDiff> {
    let (from, to) = resolve_pair(repo, state, from, to)?;
    diff(repo, from, to)
}

/// The same difference as patch text, as `git diff` prints it (binary files appear as
/// "Binary files differ").
pub fn patch_targets(
    repo: &Repository,
    state: &GitState,
    from: &str,
    to: Option<&str>,
) -> Result<String> {
    let (from, to) = resolve_pair(repo, state, from, to)?;
    let Some(diff) = renames_found(repo, from, to)? else {
        return Ok(String::new());
    };
    let (patch, _) = patch_bytes(&diff, usize::MAX).map_err(|e| diff_error(repo, from, to, &e))?;
    Ok(String::from_utf8_lossy(&patch).into_owned())
}

/// The diff from checkpoint `from` to checkpoint `to`.
pub fn diff(repo: &Repository, from: Oid, to: Oid) -> Result<CheckpointDiff> {
    let files = match renames_found(repo, from, to)? {
        Some(diff) => file_changes(&diff).map_err(|e| diff_error(repo, from, to, &e))?,
        None => Vec::new(),
    };
    Ok(CheckpointDiff {
        from: from.to_string(),
        to: to.to_string(),
        files,
    })
}

/// The git diff between the trees of commits `from` and `to`, renames found; `None` when
/// the trees are the same.
fn renames_found(repo: &Repository, from: Oid, to: Oid) -> Result<Option<git2::Diff<'_>>> {
    let git = |e: &git2::Error| diff_error(repo, from, to, e);
    let old = commit(repo, from)?.tree().map_err(|e| git(&e))?;
    let new = commit(repo, to)?.tree().map_err(|e| git(&e))?;
    let Some(mut diff) =
        diff_trees(repo, &old, &new, &mut DiffOptions::new()).map_err(|e| git(&e))?
    else {
        return Ok(None);
    };
    diff.find_similar(None).map_err(|e| git(&e))?;
    Ok(Some(diff))
}

fn diff_error(repo: &Repository, from: Oid, to: Oid, e: &git2::Error) -> CheckpointError {
    CheckpointError::git(repo.path(), &format!("diff {from}..{to}"), e)
}
