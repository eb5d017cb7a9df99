//! Command nodes: run `script` with `sh` or `python3` in the work dir. (stub; being written)

use std::path::PathBuf;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::clock::Clock;
use crate::emitter::NodeEvents;
use crate::outcome::Outcome;

/// The interpreter of a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// `sh -c`.
    Shell,
    /// `python3 -c`.
    Python,
}

/// One command stage to run.
#[derive(Debug, Clone)]
pub struct CommandSpec {
    /// The node.
    pub node_id: String,
    /// The script.
    pub script: String,
    /// Its interpreter.
    pub language: Language,
    /// Time limit.
    pub timeout: Option<Duration>,
    /// Where it runs.
    pub work_dir: PathBuf,
    /// The stage folder (logs, invocation, timing).
    pub stage_dir: PathBuf,
    /// The complete environment of the process.
    pub env: Vec<(String, String)>,
}

/// Runs the command and reports its outcome.
pub async fn run_command(
    spec: &CommandSpec,
    events: &NodeEvents,
    cancel: &CancellationToken,
    clock: &dyn Clock,
) -> Outcome {
    let _ = (spec, events, cancel, clock);
    Outcome::success()
}

/// Kills commands a crashed run left running (found through their script_invocation.json).
pub fn kill_orphaned_commands(run_dir: &crate::RunDir, run_id: &str) -> Vec<String> {
    let _ = (run_dir, run_id);
    Vec::new()
}
