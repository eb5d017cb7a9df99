//! The process group of a `shell` command: it is killed whole (SIGKILL to the group) when
//! the command ends, times out or is cancelled, and when the call's future is dropped.

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// The process group led by a child started with `process_group(0)`; killed on drop
/// unless already killed.
pub(crate) struct ProcessGroup {
    pgid: Option<Pid>,
}

impl ProcessGroup {
    /// The group of the child with process id `pid`. No group is ever signalled for a
    /// missing pid or a pid of 0 or 1 (that would hit our own group or every process).
    pub(crate) fn led_by(pid: Option<u32>) -> Self {
        let pgid = pid
            .and_then(|p| i32::try_from(p).ok())
            .filter(|p| *p > 1)
            .map(Pid::from_raw);
        ProcessGroup { pgid }
    }

    /// Whether a group is known (the child had a pid).
    pub(crate) fn is_known(&self) -> bool {
        self.pgid.is_some()
    }

    /// Sends SIGKILL to every process of the group (the shell, its children and their
    /// background jobs). Only the first call signals.
    pub(crate) fn kill(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            // ESRCH (nothing left in the group) is fine.
            let _ = killpg(pgid, Signal::SIGKILL);
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}
