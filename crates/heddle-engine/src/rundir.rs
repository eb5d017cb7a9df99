//! The run directory: where each file of a run lives, atomic writes, the manifest and the
//! conclusion, and telling a live run from a crashed one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use crate::atomic_file::replace_file;
use crate::error::EngineError;

/// The files of one run (`runs/YYYYMMDD-{ulid}/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    /// The default folder name of run `run_id` started at `start` (RFC 3339):
    /// `YYYYMMDD-{run_id}`.
    pub fn folder_name(start: &str, run_id: &str) -> String {
        let date: String = start
            .chars()
            .take(10)
            .filter(char::is_ascii_digit)
            .collect();
        format!("{date}-{run_id}")
    }

    /// The run directory at `root` (nothing is created).
    pub fn at(root: impl Into<PathBuf>) -> Self {
        RunDir { root: root.into() }
    }

    /// Creates the folder (and its parents), failing with the path when it cannot.
    pub fn create(root: impl Into<PathBuf>) -> Result<Self, EngineError> {
        let dir = RunDir::at(root);
        std::fs::create_dir_all(dir.nodes_dir()).map_err(|e| EngineError::io(&dir.root, &e))?;
        // Fail now, with the folder's name, rather than after the first stage.
        crate::atomic_file::check_writable(&dir.root)
            .map_err(|e| EngineError::io(&dir.root, &e))?;
        Ok(dir)
    }

    /// The run's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `manifest.json`: what the run is ([`Manifest`]).
    pub fn manifest(&self) -> PathBuf {
        self.root.join("manifest.json")
    }

    /// `graph.dot`: the workflow as parsed.
    pub fn graph(&self) -> PathBuf {
        self.root.join("graph.dot")
    }

    /// `run.pid`: the id of the process running it, while one does.
    pub fn pid(&self) -> PathBuf {
        self.root.join("run.pid")
    }

    /// `progress.jsonl`: the run's events, one JSON envelope a line.
    pub fn progress(&self) -> PathBuf {
        self.root.join("progress.jsonl")
    }

    /// `live.json`: the latest event, replaced as the run goes, for quick status reads.
    pub fn live(&self) -> PathBuf {
        self.root.join("live.json")
    }

    /// `checkpoint.json`: what resuming needs ([`crate::Checkpoint`]).
    pub fn checkpoint(&self) -> PathBuf {
        self.root.join("checkpoint.json")
    }

    /// `timeline.jsonl`: the run's stages and log lines, appended after each stage
    /// ([`crate::timeline_file`]).
    pub fn timeline(&self) -> PathBuf {
        self.root.join(crate::timeline_file::TIMELINE_FILE)
    }

    /// `conclusion.json`: how the run ended ([`Conclusion`]); absent until it does.
    pub fn conclusion(&self) -> PathBuf {
        self.root.join("conclusion.json")
    }

    /// `final.patch`: the run's whole change, base to last checkpoint (git checkpoints).
    pub fn final_patch(&self) -> PathBuf {
        self.root.join("final.patch")
    }

    /// `git.json`: where the run's git checkpoints live (absent without them).
    pub fn git_state(&self) -> PathBuf {
        self.root.join("git.json")
    }

    /// `worktree/`: the run's own git worktree (worktree checkpoints only).
    pub fn worktree(&self) -> PathBuf {
        self.root.join("worktree")
    }

    /// `artifacts/`: test artifacts captured after stages.
    pub fn artifacts(&self) -> PathBuf {
        self.root.join("artifacts")
    }

    /// `nodes/`: one folder per stage visit (prompts, responses, logs, status.json).
    pub fn nodes_dir(&self) -> PathBuf {
        self.root.join("nodes")
    }

    /// The folder of one stage visit, relative to the run directory: `nodes/{node}` for the
    /// first visit, `nodes/{node}-visit_{N}` after.
    pub fn stage_dir_name(node: &str, visit: u32) -> String {
        if visit <= 1 {
            format!("nodes/{node}")
        } else {
            format!("nodes/{node}-visit_{visit}")
        }
    }

    /// The absolute folder of one stage visit.
    pub fn stage_dir(&self, node: &str, visit: u32) -> PathBuf {
        self.root.join(Self::stage_dir_name(node, visit))
    }

    /// The folder (relative to the run directory) a stage visit runs in, never one holding a
    /// finished stage: [`RunDir::stage_dir_name`] when that folder is free, else
    /// `{that}-rerun_{k}` for the smallest k >= 2 that is. A folder is free when it has no
    /// `status.json` (it does not exist yet, or an attempt of this same stage was interrupted
    /// there and is being resumed) or its `status.json` records a cancelled stage (the run
    /// was stopped there, and a resume continues that same visit). A folder whose stage
    /// finished (on a timeline abandoned by a rollback, say) is left as it is.
    pub fn choose_stage_dir(&self, node: &str, visit: u32) -> String {
        let base = Self::stage_dir_name(node, visit);
        if self.stage_dir_is_free(&base) {
            return base;
        }
        (2..=u32::MAX)
            .map(|k| format!("{base}-rerun_{k}"))
            .find(|name| self.stage_dir_is_free(name))
            .unwrap_or(base)
    }

    /// Whether the stage folder `name` (relative) can take a stage: see
    /// [`RunDir::choose_stage_dir`].
    fn stage_dir_is_free(&self, name: &str) -> bool {
        let status = self.root.join(name).join("status.json");
        match std::fs::read(&status) {
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
            Ok(bytes) => serde_json::from_slice::<serde_json::Value>(&bytes)
                .is_ok_and(|s| s["failure_class"] == "cancelled"),
        }
    }

    /// The manifest, when readable.
    pub fn read_manifest(&self) -> Result<Manifest, EngineError> {
        read_json(&self.manifest())
    }

    /// The conclusion, if the run ended.
    pub fn read_conclusion(&self) -> Option<Conclusion> {
        read_json(&self.conclusion()).ok()
    }

    /// The process id in `run.pid`, if present.
    pub fn read_pid(&self) -> Option<i32> {
        std::fs::read_to_string(self.pid())
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Where the run stands, from its files alone.
    pub fn status(&self) -> RunStatus {
        if let Some(conclusion) = self.read_conclusion() {
            return conclusion.status;
        }
        if self.pid().exists() && crate::runlock::RunLock::is_held(self) {
            RunStatus::Running
        } else {
            RunStatus::Interrupted
        }
    }
}

/// Reads and parses a JSON file, naming the file (and line:column) on failure.
pub fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, EngineError> {
    let text = std::fs::read_to_string(path).map_err(|e| EngineError::io(path, &e))?;
    serde_json::from_str(&text).map_err(|e| EngineError::Io {
        path: path.to_path_buf(),
        message: format!("line {} column {}: {e}", e.line(), e.column()),
    })
}

/// [`replace_file`], with the error as an [`EngineError`] naming `path`.
pub fn atomic_write(path: &Path, bytes: &[u8], sync: bool) -> Result<(), EngineError> {
    replace_file(path, bytes, sync).map_err(|e| EngineError::io(path, &e))
}

/// Writes `value` as pretty JSON with [`atomic_write`].
pub fn write_json<T: Serialize>(path: &Path, value: &T, sync: bool) -> Result<(), EngineError> {
    let bytes = serde_json::to_vec_pretty(value).map_err(|e| EngineError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    atomic_write(path, &bytes, sync)
}

/// How a run stands: the one status every part of Heddle (the engine, the run index, the
/// CLI and the UI) uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// No conclusion yet and a process holds the run's lock.
    Running,
    /// It reached an exit.
    Success,
    /// It failed.
    Fail,
    /// It was cancelled.
    Cancelled,
    /// No conclusion and no live process: it crashed, was killed or was stopped; it can be
    /// resumed. (Older Heddles wrote `crashed` for a run whose process died.)
    #[serde(alias = "crashed")]
    Interrupted,
}

impl RunStatus {
    /// The snake_case name (also what the run index stores).
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Success => "success",
            RunStatus::Fail => "fail",
            RunStatus::Cancelled => "cancelled",
            RunStatus::Interrupted => "interrupted",
        }
    }

    /// The status a stored name stands for (unknown names read as interrupted).
    pub fn parse(name: &str) -> RunStatus {
        match name {
            "running" => RunStatus::Running,
            "success" => RunStatus::Success,
            "fail" => RunStatus::Fail,
            "cancelled" => RunStatus::Cancelled,
            _ => RunStatus::Interrupted,
        }
    }
}

/// manifest.json: what the run is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The run id (a ULID).
    pub run_id: String,
    /// The workflow's name (its `digraph` id).
    pub workflow_name: String,
    /// The workflow file the run started from.
    pub workflow_path: String,
    /// The goal (graph attribute, or `--goal`).
    pub goal: Option<String>,
    /// When the run started (RFC 3339).
    pub start_time: String,
    /// How many nodes the workflow has.
    pub node_count: usize,
    /// How many edges the workflow has.
    pub edge_count: usize,
    /// Git commit the run started from (git checkpoints only).
    pub base_sha: Option<String>,
    /// The run's git branch (git checkpoints only).
    pub run_branch: Option<String>,
    /// `--label K=V` pairs.
    pub labels: BTreeMap<String, String>,
    /// The `inputs.NAME` values the run was given (`-V`, run.toml, the Start-run form).
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
    /// `worktree`, `shadow` or `none`.
    pub checkpoint_mode: String,
    /// Where stages run (the workspace, or the run's git worktree).
    pub work_dir: String,
    /// The folder the run was started for (the user's workspace), when it differs from
    /// `work_dir`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    /// LLM stages are simulated.
    pub dry_run: bool,
    /// The run supervising this one (manager loop children).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    /// The Heddle version that started it.
    pub heddle_version: String,
}

/// conclusion.json: how the run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conclusion {
    /// The run's id (a ULID).
    pub run_id: String,
    /// `success`, `fail` or `cancelled`.
    pub status: RunStatus,
    /// Wall time from start (or the last resume) to end, in milliseconds.
    pub duration_ms: u64,
    /// Why it failed or was cancelled, in words; `None` on success.
    pub failure_reason: Option<String>,
    /// The last checkpoint's run-branch commit (40 hex digits); `None` without git.
    pub final_git_commit_sha: Option<String>,
    /// When it ended (RFC 3339).
    pub completed_at: String,
    /// How many stages ran (the timeline's length).
    pub stages: usize,
    /// How many test artifacts were captured over the run.
    #[serde(default)]
    pub artifact_count: usize,
    /// How a successful run ended when it is not at an exit: it stopped at a stage no edge
    /// out of which holds (the Attractor spec's rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{RunDir, RunStatus};

    fn finished(dir: &RunDir, name: &str, status: &str) {
        std::fs::create_dir_all(dir.root().join(name)).unwrap();
        std::fs::write(dir.root().join(name).join("status.json"), status).unwrap();
    }

    #[test]
    fn a_new_visit_gets_the_plain_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::at(tmp.path());
        assert_eq!(dir.choose_stage_dir("unit", 1), "nodes/unit");
        assert_eq!(dir.choose_stage_dir("unit", 3), "nodes/unit-visit_3");
    }

    #[test]
    fn an_interrupted_or_cancelled_attempt_is_resumed_in_its_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::at(tmp.path());
        std::fs::create_dir_all(dir.stage_dir("unit", 1)).unwrap();
        std::fs::write(dir.stage_dir("unit", 1).join("stdout.log"), "half").unwrap();
        assert_eq!(dir.choose_stage_dir("unit", 1), "nodes/unit");
        finished(
            &dir,
            "nodes/unit",
            r#"{"status":"fail","failure_class":"cancelled"}"#,
        );
        assert_eq!(dir.choose_stage_dir("unit", 1), "nodes/unit");
    }

    #[test]
    fn a_finished_stage_keeps_its_folder_and_the_rerun_gets_the_next_free_one() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::at(tmp.path());
        finished(&dir, "nodes/unit", r#"{"status":"success"}"#);
        assert_eq!(dir.choose_stage_dir("unit", 1), "nodes/unit-rerun_2");
        finished(
            &dir,
            "nodes/unit-rerun_2",
            r#"{"status":"fail","failure_class":"deterministic"}"#,
        );
        assert_eq!(dir.choose_stage_dir("unit", 1), "nodes/unit-rerun_3");
        // An interrupted rerun is resumed where it was.
        std::fs::create_dir_all(dir.root().join("nodes/unit-rerun_3")).unwrap();
        assert_eq!(dir.choose_stage_dir("unit", 1), "nodes/unit-rerun_3");
        // Later visits the same way; an unreadable status.json counts as finished.
        finished(&dir, "nodes/unit-visit_2", "not json");
        assert_eq!(
            dir.choose_stage_dir("unit", 2),
            "nodes/unit-visit_2-rerun_2"
        );
    }

    /// Events and conclusions older Heddles wrote with `crashed` still read, as interrupted,
    /// and every status names itself as it serializes.
    #[test]
    fn one_status_reads_old_names_and_round_trips() {
        let old: RunStatus = serde_json::from_str("\"crashed\"").unwrap();
        assert_eq!(old, RunStatus::Interrupted);
        for status in [
            RunStatus::Running,
            RunStatus::Success,
            RunStatus::Fail,
            RunStatus::Cancelled,
            RunStatus::Interrupted,
        ] {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.as_str()));
            assert_eq!(RunStatus::parse(status.as_str()), status);
        }
    }
}
