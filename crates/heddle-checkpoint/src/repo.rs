//! Opening the repositories checkpoints live in, and the fixed identity they are written
//! with. Heddle never runs hooks (libgit2 has none) or signs commits, and passes its own
//! signature, so no user or system git setting changes what a checkpoint records.

use std::path::{Path, PathBuf};

use git2::{Index, Oid, Repository, Signature, Time, WorktreeAddOptions};

use crate::error::{CheckpointError, Result};
use crate::state::GitState;

/// The author and committer of every checkpoint.
pub const IDENTITY_NAME: &str = "Heddle";
/// Its e-mail address.
pub const IDENTITY_EMAIL: &str = "heddle@localhost";

/// The checkpoint signature at `timestamp` (RFC 3339; the epoch when unreadable).
pub fn signature(timestamp: &str) -> Result<Signature<'static>> {
    let seconds = humantime::parse_rfc3339_weak(timestamp.trim_end_matches('Z'))
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    Signature::new(IDENTITY_NAME, IDENTITY_EMAIL, &Time::new(seconds, 0)).map_err(|e| {
        CheckpointError::Storage {
            path: ".".into(),
            message: format!("signature: {}", e.message()),
        }
    })
}

/// Opens the run's repository with its work tree: the worktree (worktree mode), or the
/// shadow repository with the workspace as work tree.
pub fn open(state: &GitState) -> Result<Repository> {
    let repo = match state.mode {
        crate::state::Mode::Worktree => Repository::open(&state.work_tree),
        crate::state::Mode::Shadow => Repository::open_bare(&state.git_dir),
    }
    .map_err(|e| damaged(&state.git_dir, &e))?;
    if state.mode == crate::state::Mode::Shadow {
        repo.set_workdir(&state.work_tree, false)
            .map_err(|e| damaged(&state.git_dir, &e))?;
    }
    Ok(repo)
}

/// The run's private index, attached to `repo` so paths resolve against its work tree.
pub fn open_index(repo: &Repository, state: &GitState) -> Result<Index> {
    let mut index = Index::open(&state.index).map_err(|e| CheckpointError::Storage {
        path: state.index.clone(),
        message: format!(
            "the run's index cannot be read ({}); delete it and resume: the next \
                 checkpoint rescans the work tree",
            e.message()
        ),
    })?;
    repo.set_index(&mut index)
        .map_err(|e| CheckpointError::git(&state.git_dir, "attach index", &e))?;
    Ok(index)
}

/// A repository that cannot be opened: said so, with what to do, and nothing touched.
pub fn damaged(path: &Path, error: &git2::Error) -> CheckpointError {
    CheckpointError::Storage {
        path: path.to_path_buf(),
        message: format!(
            "the repository cannot be opened ({}); it may be damaged. Nothing was changed: \
             move it aside to start over, or repair it with `git fsck`",
            error.message()
        ),
    }
}

/// The commit `reference` points at, if it exists.
pub fn tip(repo: &Repository, reference: &str) -> Result<Option<Oid>> {
    match repo.refname_to_id(reference) {
        Ok(oid) => Ok(Some(oid)),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(CheckpointError::git(repo.path(), reference, &e)),
    }
}

/// Moves `reference` from `expected` (`None`: it must not exist yet) to `new`, failing if
/// another writer moved it in between.
pub fn compare_and_swap(
    repo: &Repository,
    reference: &str,
    expected: Option<Oid>,
    new: Oid,
    log: &str,
) -> Result<()> {
    let result = match expected {
        Some(old) => repo.reference_matching(reference, new, true, old, log),
        None => repo.reference(reference, new, false, log),
    };
    result.map(|_| ()).map_err(|e| match e.code() {
        git2::ErrorCode::Modified | git2::ErrorCode::Exists => CheckpointError::RefMoved {
            reference: reference.to_string(),
            expected: expected.map_or_else(|| "no ref".to_string(), |o| o.to_string()),
        },
        _ => CheckpointError::git(repo.path(), reference, &e),
    })
}

/// A commit by sha.
pub fn commit<'r>(repo: &'r Repository, oid: Oid) -> Result<git2::Commit<'r>> {
    repo.find_commit(oid)
        .map_err(|e| CheckpointError::git(repo.path(), &format!("commit {oid}"), &e))
}

/// The name of run `run_id`'s worktree in its repository.
pub fn worktree_name(run_id: &str) -> String {
    format!("heddle-{run_id}")
}

/// Adds worktree `name` at `path`, checked out on `branch` (a full ref name); the
/// worktree's own index file, which is the run's private index.
pub fn add_worktree(repo: &Repository, name: &str, path: &Path, branch: &str) -> Result<PathBuf> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let reference = repo.find_reference(branch).map_err(|e| git(branch, &e))?;
    // libgit2 creates `worktrees/` without tolerating that another process (a second run
    // starting at the same moment) just did: make sure it exists first.
    let worktrees = repo.commondir().join("worktrees");
    std::fs::create_dir_all(&worktrees).map_err(|e| CheckpointError::io(&worktrees, &e))?;
    repo.worktree(
        name,
        path,
        Some(WorktreeAddOptions::new().reference(Some(&reference))),
    )
    .map_err(|e| git("add the run's worktree", &e))?;
    let worktree = Repository::open(path).map_err(|e| git("open the run's worktree", &e))?;
    Ok(worktree.path().join("index"))
}
