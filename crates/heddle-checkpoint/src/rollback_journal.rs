//! A rollback's note that it is moving the run to another checkpoint:
//! `{run_dir}/rollback.pending.json`, naming the target commit and the run's new git.json.
//! It is flushed with the run files the rollback replaces and renamed into place before
//! any of them, and removed once they all are. git.json and checkpoint.json are two files:
//! a rollback killed between their renames would leave a checkpoint that is not on the
//! branch git.json names, and a run that no longer opens. Whoever next holds the run's lock
//! (a rollback, or a resume before it reads checkpoint.json) finds the note and finishes
//! the move: every run file is written again, whole, from git.

use std::path::PathBuf;

use git2::Oid;
use heddle_engine::RunDir;
use serde::{Deserialize, Serialize};

use crate::error::{CheckpointError, Result};
use crate::repo::open;
use crate::run_files::{MoveTo, record_run_files};
use crate::state::GitState;

/// The note's file name in the run folder.
pub const PENDING_FILE: &str = "rollback.pending.json";

/// What a rollback in progress is moving the run to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingRollback {
    /// The checkpoint commit the run moves to.
    pub target: String,
    /// The run's git.json once moved (its new timeline branch exists already).
    pub state: GitState,
}

/// Where the note of the run in `run_dir` lives.
pub fn path(run_dir: &RunDir) -> PathBuf {
    run_dir.root().join(PENDING_FILE)
}

/// The note's bytes for a rollback to `target` leaving the run as `state` says.
pub fn bytes(target: Oid, state: &GitState) -> Result<Vec<u8>> {
    let pending = PendingRollback {
        target: target.to_string(),
        state: state.clone(),
    };
    serde_json::to_vec_pretty(&pending).map_err(|e| CheckpointError::Io {
        path: PathBuf::from(PENDING_FILE),
        message: e.to_string(),
    })
}

/// Finishes the rollback a killed process left half done in `run_dir`, if any: its run
/// files written again from checkpoint `target` and committed to the metadata ref,
/// dated `now` (RFC 3339). The caller holds the run's lock. A warning saying what was
/// done, or `None` when no rollback was pending.
pub fn finish_pending(run_dir: &RunDir, now: &str) -> Result<Option<String>> {
    let file = path(run_dir);
    let text = match std::fs::read(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CheckpointError::io(&file, &e)),
    };
    let damaged = |message: String| CheckpointError::Inconsistent {
        path: file.clone(),
        message,
    };
    let pending: PendingRollback = serde_json::from_slice(&text).map_err(|e| {
        damaged(format!(
            "an interrupted rollback's note cannot be read: {e}"
        ))
    })?;
    let target = Oid::from_str(&pending.target)
        .map_err(|e| damaged(format!("target `{}`: {}", pending.target, e.message())))?;
    // The process that left the note may have left a lock on a ref too (an earlier
    // checkpoint's on the metadata ref, say); the run's lock is ours.
    let removed = crate::reopen::remove_stale_locks(&pending.state);
    let repo = open(&pending.state)?;
    let why = format!("rollback to {target}, finished after an interruption");
    let to = MoveTo {
        target,
        journal: None,
        why: &why,
        now,
    };
    record_run_files(run_dir, &repo, &pending.state, to, || Ok(true))?;
    std::fs::remove_file(&file).map_err(|e| CheckpointError::io(&file, &e))?;
    let mut message = format!(
        "a rollback to {target} was interrupted; it was finished: the run continues on {}",
        GitState::short(&pending.state.branch)
    );
    for warning in removed {
        message.push_str("; ");
        message.push_str(&warning);
    }
    Ok(Some(message))
}
