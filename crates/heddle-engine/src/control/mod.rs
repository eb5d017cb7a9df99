//! A run's control channel: how any process on the machine reaches the process that
//! executes a run, through files in the run folder, so a run started in a terminal can be
//! answered or cancelled from the window and the reverse, and a request outlives a crash
//! of the process that made it.
//!
//! - `control/gates/{question_id}.json`: a human gate waiting for an answer (the
//!   [`Question`]), written by the executing process while it waits and removed once
//!   answered.
//! - `control/requests/{ulid}.json`: a [`ControlRequest`] from any process, written
//!   atomically under a name that sorts by time. The executing process takes each one
//!   within [`POLL`], applies it and removes it; requests left from before a run (re)starts
//!   are dropped then, since nothing was waiting for them.

mod board;
mod listener;

pub(crate) use board::Gated;
pub use board::{GateBoard, NoLocalPrompt};
pub(crate) use listener::listen;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::entropy::{Entropy, new_ulid};
use crate::error::EngineError;
use crate::interviewer::{Answer, Question};
use crate::rundir::{RunDir, read_json, write_json};

/// How often the executing process looks for requests.
pub const POLL: Duration = Duration::from_millis(150);

/// What another process asks of a running run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ControlRequest {
    /// Answer the waiting gate `question_id`.
    Answer {
        /// The gate's question id.
        question_id: String,
        /// A choice's key or free text, as the gate accepts it.
        answer: Answer,
    },
    /// Stop the run cleanly (as Ctrl-C does).
    Cancel {
        /// Why, for the conclusion.
        reason: String,
    },
}

/// `control/gates/` of a run.
pub fn gates_dir(run: &RunDir) -> PathBuf {
    run.root().join("control").join("gates")
}

/// `control/requests/` of a run.
pub fn requests_dir(run: &RunDir) -> PathBuf {
    run.root().join("control").join("requests")
}

/// Leaves `request` for the process executing `run`. The caller checks that one does (see
/// [`crate::runlock::RunLock::is_held`]); a request nobody takes is dropped when the run
/// next starts.
pub fn send_request(
    run: &RunDir,
    request: &ControlRequest,
    now: SystemTime,
    entropy: &dyn Entropy,
) -> Result<(), EngineError> {
    let dir = requests_dir(run);
    std::fs::create_dir_all(&dir).map_err(|e| EngineError::io(&dir, &e))?;
    let path = dir.join(format!("{}.json", new_ulid(now, entropy)));
    write_json(&path, request, true)
}

/// The gates of `run` waiting for an answer, oldest first, as its executing process wrote
/// them. A file that cannot be read (being replaced, or damaged) is left out.
pub fn waiting_gates(run: &RunDir) -> Vec<Question> {
    let mut gates: Vec<Question> = json_files(&gates_dir(run))
        .iter()
        .filter_map(|path| read_json(path).ok())
        .collect();
    gates.sort_by(|a: &Question, b: &Question| a.id.cmp(&b.id));
    gates
}

/// The `*.json` files of `dir` in name order (temporary files of a write under way, which
/// start with a dot, are not listed).
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    files
}
