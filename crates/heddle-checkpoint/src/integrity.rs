//! Checking a run's saved state against its repository before anything builds on it: the
//! base commit, every timeline branch, the metadata history and the commit checkpoint.json
//! names must all be there and readable. A missing object is a "not found" error, an
//! unreadable one a storage error, so a person knows whether to look for a lost ref or to
//! repair the repository; nothing is written either way. The one exception: the commit
//! checkpoint.json names may be missing when it is not the run branch's tip, since a
//! session publishes the checkpoints of quiet stages together ([`crate::grouping`]) and a
//! killed process leaves those it still held unwritten; resuming records it again.

use git2::{Oid, Repository};
use heddle_engine::{Checkpoint, RunDir};

use crate::error::{CheckpointError, Result};
use crate::repo::{open, tip};
use crate::state::GitState;

/// The git state of the run in `run_dir` (an error when it has none) and its repository,
/// verified ([`verify_run`]).
pub fn open_run(run_dir: &RunDir) -> Result<(GitState, Repository)> {
    let state = GitState::require(run_dir)?;
    let repo = open_verified(run_dir, &state)?;
    Ok((state, repo))
}

/// Opens the repository of the run in `run_dir` and verifies it ([`verify_run`]).
pub fn open_verified(run_dir: &RunDir, state: &GitState) -> Result<Repository> {
    let repo = open(state)?;
    verify_run(&repo, run_dir, state)?;
    Ok(repo)
}

/// Verifies every sha the run in `run_dir` names (git.json and checkpoint.json).
pub fn verify_run(repo: &Repository, run_dir: &RunDir, state: &GitState) -> Result<()> {
    let path = run_dir.checkpoint();
    let named = if path.exists() {
        Checkpoint::load(&path)?.git_commit_sha
    } else {
        None
    };
    verify(repo, state, named.as_deref())
}

/// Verifies `state` against `repo`, and that `checkpoint_sha` (the commit checkpoint.json
/// names, if any) is on the branch the run continues on.
pub fn verify(repo: &Repository, state: &GitState, checkpoint_sha: Option<&str>) -> Result<()> {
    let base = parse(state, &state.base_sha, "git.json's base_sha")?;
    readable_commit(repo, state, base, "the run's base commit")?;
    if !state.timelines.contains(&state.branch) {
        return Err(inconsistent(
            state,
            format!(
                "git.json's branch {} is not one of its timelines ({})",
                state.branch,
                state.timelines.join(", ")
            ),
        ));
    }
    for branch in &state.timelines {
        let head = required_ref(repo, state, branch, "run branch")?;
        readable_commit(repo, state, head, &format!("the tip of {branch}"))?;
    }
    // A checkpoint its session held, not yet published, when the process stopped
    // (crate::grouping): resuming records it again. It is never the branch's tip.
    let head = required_ref(repo, state, &state.branch, "run branch")?;
    let named = match checkpoint_sha {
        Some(sha) => Some(parse(state, sha, "checkpoint.json's git_commit_sha")?),
        None => None,
    };
    let unpublished = match named {
        Some(oid) if oid != head => !has_object(repo, state, oid)?,
        _ => false,
    };
    // The metadata history starts with the first checkpoint: a run stopped before it has
    // none yet, and its branch is still at the base.
    let started = tip(repo, &state.metadata_ref)?.is_some()
        || head != base
        || (named.is_some() && !unpublished);
    if started {
        let metadata = required_ref(repo, state, &state.metadata_ref, "metadata history")?;
        readable_commit(repo, state, metadata, "the tip of the metadata history")?;
    }
    if let Some(oid) = named.filter(|_| !unpublished) {
        readable_commit(repo, state, oid, "the commit checkpoint.json names")?;
        let on_branch = oid == head
            || repo
                .graph_descendant_of(head, oid)
                .map_err(|e| CheckpointError::git(&state.git_dir, "walk the run branch", &e))?;
        if !on_branch {
            return Err(inconsistent(
                state,
                format!(
                    "checkpoint.json names commit {oid}, which is not on the run branch {} \
                     (tip {head}); the branch was moved outside Heddle. Roll back to a \
                     checkpoint listed by `heddle checkpoints {}`",
                    GitState::short(&state.branch),
                    state.run_id
                ),
            ));
        }
    }
    Ok(())
}

/// Whether `repo` has object `oid` (read or not).
pub fn has_object(repo: &Repository, state: &GitState, oid: Oid) -> Result<bool> {
    let odb = repo
        .odb()
        .map_err(|e| CheckpointError::git(&state.git_dir, "object database", &e))?;
    Ok(odb.exists(oid))
}

fn parse(state: &GitState, sha: &str, what: &str) -> Result<Oid> {
    Oid::from_str(sha).map_err(|_| inconsistent(state, format!("{what} `{sha}` is not a sha")))
}

/// The commit `reference` points at; "not found" when the ref is gone.
fn required_ref(repo: &Repository, state: &GitState, reference: &str, what: &str) -> Result<Oid> {
    tip(repo, reference)?.ok_or_else(|| CheckpointError::NotFound {
        what: format!("{what} {reference}"),
        repo: state.git_dir.clone(),
    })
}

/// Reads commit `oid` and its root tree; "not found" when an object is missing, a storage
/// error when one cannot be read.
fn readable_commit(repo: &Repository, state: &GitState, oid: Oid, what: &str) -> Result<()> {
    let described = format!("{what} ({oid})");
    let error = |what: &str, e: &git2::Error| match CheckpointError::git(&state.git_dir, what, e) {
        CheckpointError::Storage { path, message } => CheckpointError::Storage {
            message: format!(
                "{message}. Nothing was changed; check the repository with \
                 `git --git-dir={} fsck`",
                path.display()
            ),
            path,
        },
        other => other,
    };
    let commit = repo.find_commit(oid).map_err(|e| error(&described, &e))?;
    commit
        .tree()
        .map_err(|e| error(&format!("the tree of {described}"), &e))?;
    Ok(())
}

fn inconsistent(state: &GitState, message: String) -> CheckpointError {
    CheckpointError::Inconsistent {
        path: state.git_dir.clone(),
        message,
    }
}
