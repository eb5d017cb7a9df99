//! The difference between two checkpoints: files changed (with binary detection and line
//! counts) and the patch text.

use git2::{Delta, DiffOptions, Oid, Patch, Repository};
use serde::Serialize;

use crate::error::{CheckpointError, Result};
use crate::history::resolve;
use crate::repo::{commit, tip};
use crate::state::GitState;
use crate::tree_diff::{diff_trees, patch_bytes};

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FileChange {
    /// Its path (the new one for renames).
    pub path: String,
    /// Its path before, when it moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// `added`, `deleted`, `modified`, `renamed`, `typechange`.
    pub status: &'static str,
    /// Binary content (no line counts, no text patch).
    pub binary: bool,
    /// Lines added.
    pub additions: usize,
    /// Lines removed.
    pub deletions: usize,
}

/// The diff between two checkpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckpointDiff {
    /// From.
    pub from: String,
    /// To.
    pub to: String,
    /// Files changed.
    pub files: Vec<FileChange>,
    /// The patch (binary files appear as "Binary files differ").
    pub patch: String,
}

/// The diff between the checkpoints `from` and `to` name (any form [`resolve`] takes);
/// without `to`, up to the tip of the timeline the run continues on.
pub fn diff_targets(
    repo: &Repository,
    state: &GitState,
    from: &str,
    to: Option<&str>,
) -> Result<CheckpointDiff> {
    let from = resolve(repo, state, from)?;
    let to = match to {
        Some(target) => resolve(repo, state, target)?,
        None => tip(repo, &state.branch)?.ok_or_else(|| CheckpointError::NoSuchCheckpoint {
            target: "latest".into(),
            hint: "; the run has no checkpoints yet".into(),
        })?,
    };
    diff(repo, from, to)
}

/// The diff from checkpoint `from` to checkpoint `to`.
pub fn diff(repo: &Repository, from: Oid, to: Oid) -> Result<CheckpointDiff> {
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), &format!("diff {from}..{to}"), e);
    let old = commit(repo, from)?.tree().map_err(|e| git(&e))?;
    let new = commit(repo, to)?.tree().map_err(|e| git(&e))?;
    let Some(mut diff) =
        diff_trees(repo, &old, &new, &mut DiffOptions::new()).map_err(|e| git(&e))?
    else {
        return Ok(CheckpointDiff {
            from: from.to_string(),
            to: to.to_string(),
            files: Vec::new(),
            patch: String::new(),
        });
    };
    diff.find_similar(None).map_err(|e| git(&e))?;
    let mut files = Vec::new();
    for i in 0..diff.deltas().len() {
        let Some(delta) = diff.get_delta(i) else {
            continue;
        };
        let patch = Patch::from_diff(&diff, i).map_err(|e| git(&e))?;
        let binary = delta.flags().is_binary() || patch.is_none();
        let (additions, deletions) = match &patch {
            Some(p) if !binary => p.line_stats().map(|(_, a, d)| (a, d)).unwrap_or((0, 0)),
            _ => (0, 0),
        };
        let path = |f: git2::DiffFile<'_>| f.path().map(|p| p.to_string_lossy().into_owned());
        let new_path = path(delta.new_file());
        let old_path = path(delta.old_file());
        files.push(FileChange {
            path: new_path
                .clone()
                .or_else(|| old_path.clone())
                .unwrap_or_default(),
            old_path: (delta.status() == Delta::Renamed)
                .then_some(old_path)
                .flatten(),
            status: match delta.status() {
                Delta::Added => "added",
                Delta::Deleted => "deleted",
                Delta::Renamed => "renamed",
                Delta::Typechange => "typechange",
                _ => "modified",
            },
            binary,
            additions,
            deletions,
        });
    }
    let (patch, _) = patch_bytes(&diff, usize::MAX).map_err(|e| git(&e))?;
    Ok(CheckpointDiff {
        from: from.to_string(),
        to: to.to_string(),
        files,
        patch: String::from_utf8_lossy(&patch).into_owned(),
    })
}
