//! What a command stage records in its folder besides its logs: `script_invocation.json`
//! when it starts (written again once the pid is known) and `script_timing.json` when it
//! ends. An invocation without a timing marks a command a crashed run may have left running.

use serde::Serialize;

/// The invocation file of a stage folder.
pub(super) const INVOCATION: &str = "script_invocation.json";
/// The timing file of a stage folder.
pub(super) const TIMING: &str = "script_timing.json";

/// The content of [`INVOCATION`].
#[derive(Serialize)]
pub(super) struct Invocation<'a> {
    pub(super) node_id: &'a str,
    pub(super) command: &'a str,
    pub(super) language: &'static str,
    pub(super) argv: [&'a str; 3],
    pub(super) work_dir: String,
    pub(super) timeout_ms: Option<u64>,
    pub(super) pid: Option<u32>,
    pub(super) started_at: String,
}

/// The content of [`TIMING`].
#[derive(Serialize)]
pub(super) struct Timing {
    pub(super) duration_ms: u64,
    pub(super) exit_code: Option<i32>,
    pub(super) signal: Option<i32>,
    pub(super) timed_out: bool,
    pub(super) cancelled: bool,
    pub(super) finished_at: String,
    /// Every byte the script wrote to stdout.
    pub(super) stdout_bytes: u64,
    /// Every byte the script wrote to stderr.
    pub(super) stderr_bytes: u64,
    /// Bytes past the log limit, read and counted but not kept in the logs.
    pub(super) not_logged_bytes: u64,
}
