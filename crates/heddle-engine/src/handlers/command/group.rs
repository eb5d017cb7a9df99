//! The process group of a command: stopping it once the script is done (SIGTERM, then
//! SIGKILL after a grace), killing it if the stage future is dropped, and killing what a
//! crashed run left running ([`kill_orphaned_commands`]). Processes are found through /proc.

use std::path::Path;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use tokio::process::Child;

use super::GRACE;
use super::record::{INVOCATION, TIMING};
use crate::rundir::read_json;

/// Kills the group if dropped while armed (a cancelled or dropped stage future).
pub(super) struct GroupGuard(pub(super) Option<Pid>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pgid) = self.0 {
            let _ = killpg(pgid, Signal::SIGKILL);
        }
    }
}

/// Stops the group: SIGTERM, then SIGKILL unless within [`GRACE`] the child has exited,
/// `readers_done` holds and no process of the group is left. Returns the child's status
/// (`status`, if it was already known).
pub(super) async fn stop_group(
    pgid: Pid,
    child: &mut Child,
    mut status: Option<ExitStatus>,
    readers_done: impl Fn() -> bool,
) -> Option<ExitStatus> {
    let _ = killpg(pgid, Signal::SIGTERM);
    let limit = Instant::now() + GRACE;
    loop {
        if status.is_none() {
            status = child.try_wait().ok().flatten();
        }
        if status.is_some() && readers_done() && !group_alive(pgid) {
            break;
        }
        if Instant::now() >= limit {
            let _ = killpg(pgid, Signal::SIGKILL);
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    if status.is_none() {
        status = child.wait().await.ok();
    }
    status
}

/// A process of the system: pid, state letter, process group.
struct Proc {
    pid: i32,
    state: char,
    pgrp: i32,
}

/// Every process listed in /proc (empty where there is no /proc).
fn processes() -> Vec<Proc> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
            let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
            let state = fields.next()?.chars().next()?;
            let pgrp = fields.nth(1)?.parse().ok()?;
            Some(Proc { pid, state, pgrp })
        })
        .collect()
}

/// Whether a process of the group is still running (zombies do not count).
pub(super) fn group_alive(pgid: Pid) -> bool {
    if !Path::new("/proc/self/stat").exists() {
        return killpg(pgid, None).is_ok();
    }
    processes()
        .iter()
        .any(|p| p.pgrp == pgid.as_raw() && p.state != 'Z')
}

/// Whether process `pid`'s environment holds `entry` (`KEY=value`).
fn environ_has(pid: i32, entry: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|b| *b == 0).any(|item| item == entry.as_bytes()))
}

/// Kills commands a crashed run left running (found through their script_invocation.json):
/// for each stage folder with an invocation and no `script_timing.json`, every live process
/// of the recorded process group whose environment holds `HEDDLE_RUN_ID={run_id}` gets
/// SIGKILL. A process without that variable is never touched (its pid may have been reused).
/// Needs /proc (Linux); elsewhere it kills nothing. Returns a note per stage cleaned up.
pub fn kill_orphaned_commands(run_dir: &crate::RunDir, run_id: &str) -> Vec<String> {
    let marker = format!("HEDDLE_RUN_ID={run_id}");
    let own = i32::try_from(std::process::id()).unwrap_or(0);
    let mut notes = Vec::new();
    let Ok(entries) = std::fs::read_dir(run_dir.nodes_dir()) else {
        return notes;
    };
    for dir in entries.flatten().map(|e| e.path()) {
        let invocation = dir.join(INVOCATION);
        if !invocation.is_file() || dir.join(TIMING).exists() {
            continue;
        }
        let Some(pgid) = read_json::<serde_json::Value>(&invocation)
            .ok()
            .and_then(|v| v.get("pid")?.as_i64())
            .and_then(|p| i32::try_from(p).ok())
            .filter(|p| *p > 1)
        else {
            continue;
        };
        let mut killed = Vec::new();
        // Again after a pause, for children forked while the first signals went out.
        for _ in 0..3 {
            let targets: Vec<i32> = processes()
                .into_iter()
                .filter(|p| {
                    p.pgrp == pgid && p.state != 'Z' && p.pid != own && !killed.contains(&p.pid)
                })
                .filter(|p| environ_has(p.pid, &marker))
                .map(|p| p.pid)
                .collect();
            if targets.is_empty() {
                break;
            }
            for pid in targets {
                if kill(Pid::from_raw(pid), Signal::SIGKILL).is_ok() {
                    killed.push(pid);
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if !killed.is_empty() {
            let stage = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            notes.push(format!(
                "killed {} process(es) of stage {stage} left running by run {run_id} (process group {pgid}, pids {killed:?})",
                killed.len()
            ));
        }
    }
    notes
}
