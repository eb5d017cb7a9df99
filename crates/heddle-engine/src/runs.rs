//! Finding runs on disk: listing a runs folder and resolving an id or unique prefix.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::EngineError;
use crate::rundir::{RunDir, RunStatus};

/// One run, as `heddle ps` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    /// The run id.
    pub run_id: String,
    /// Its folder.
    pub dir: PathBuf,
    /// The workflow's name.
    pub workflow_name: String,
    /// The workflow file.
    pub workflow_path: String,
    /// Where it stands.
    pub status: RunStatus,
    /// Start (RFC 3339).
    pub start_time: String,
    /// Duration, once concluded.
    pub duration_ms: Option<u64>,
    /// Why it failed.
    pub failure_reason: Option<String>,
    /// Labels.
    pub labels: BTreeMap<String, String>,
    /// Simulated LLM stages.
    pub dry_run: bool,
}

impl RunSummary {
    /// Reads the summary of the run in `dir` (`None` when it has no readable manifest).
    pub fn read(dir: &Path) -> Option<RunSummary> {
        let run = RunDir::at(dir);
        let manifest = run.read_manifest().ok()?;
        let conclusion = run.read_conclusion();
        // The conclusion read once serves both its fields and the status.
        let status = conclusion
            .as_ref()
            .map_or_else(|| run.status(), |c| c.status);
        Some(RunSummary {
            run_id: manifest.run_id,
            dir: dir.to_path_buf(),
            workflow_name: manifest.workflow_name,
            workflow_path: manifest.workflow_path,
            status,
            start_time: manifest.start_time,
            duration_ms: conclusion.as_ref().map(|c| c.duration_ms),
            failure_reason: conclusion.and_then(|c| c.failure_reason),
            labels: manifest.labels,
            dry_run: manifest.dry_run,
        })
    }
}

/// Every run under `runs_root`, newest first (folders without a manifest are skipped).
pub fn list_runs(runs_root: &Path) -> Vec<RunSummary> {
    let Ok(entries) = std::fs::read_dir(runs_root) else {
        return Vec::new();
    };
    let mut runs: Vec<RunSummary> = entries
        .filter_map(Result::ok)
        // A run kept elsewhere is listed through its link (see [`link_outside_run`]).
        .filter(|e| e.path().is_dir())
        .filter_map(|e| RunSummary::read(&e.path()))
        .collect();
    runs.sort_by(|a, b| {
        b.start_time
            .cmp(&a.start_time)
            .then_with(|| b.run_id.cmp(&a.run_id))
    });
    runs
}

/// Links the run folder `run_dir`, kept outside `runs_root` (`heddle run --run-dir`), from
/// `runs_root/{folder_name}`, so lookups by id, listings and the run index find it like any
/// other run. A folder directly in `runs_root` needs no link. The error says why the run is
/// not linked (the run goes on; it is found by its folder only).
pub fn link_outside_run(runs_root: &Path, run_dir: &Path, folder_name: &str) -> Result<(), String> {
    if run_dir.parent() == Some(runs_root) {
        return Ok(());
    }
    let link = runs_root.join(folder_name);
    let not_linked = |why: String| {
        format!(
            "the run in {} is not listed in {} ({why}); open it by its folder",
            run_dir.display(),
            runs_root.display()
        )
    };
    std::fs::create_dir_all(runs_root).map_err(|e| not_linked(crate::describe_io(&e)))?;
    if std::fs::symlink_metadata(&link).is_ok() {
        return Err(not_linked(format!("{} already exists", link.display())));
    }
    symlink_folder(run_dir, &link).map_err(|e| not_linked(crate::describe_io(&e)))
}

#[cfg(unix)]
fn symlink_folder(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink_folder(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}

/// The run `id` names: a path to a run folder, a full run id, a folder name, or any unique
/// prefix of a run id or folder name (without case).
pub fn find_run(runs_root: &Path, id: &str) -> Result<RunDir, EngineError> {
    let as_path = Path::new(id);
    if as_path.join("manifest.json").is_file() {
        return Ok(RunDir::at(as_path));
    }
    let wanted = id.trim().to_ascii_uppercase();
    if wanted.is_empty() {
        return Err(EngineError::RunLookup(
            "give a run id or a prefix of one".into(),
        ));
    }
    let entries = std::fs::read_dir(runs_root).map_err(|e| {
        EngineError::RunLookup(format!(
            "no runs folder at {} ({e}); is HEDDLE_HOME right?",
            runs_root.display()
        ))
    })?;
    let mut matches: Vec<PathBuf> = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().to_ascii_uppercase();
        let ulid = name.split_once('-').map_or(name.as_str(), |(_, u)| u);
        if ulid == wanted || name == wanted {
            return Ok(RunDir::at(entry.path()));
        }
        if ulid.starts_with(&wanted) || name.starts_with(&wanted) {
            matches.push(entry.path());
        }
    }
    match matches.len() {
        1 => Ok(RunDir::at(matches.remove(0))),
        0 => Err(EngineError::RunLookup(format!(
            "no run matches `{id}` in {}; `heddle ps -a` lists them",
            runs_root.display()
        ))),
        n => {
            matches.sort();
            let names: Vec<String> = matches
                .iter()
                .take(5)
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect();
            Err(EngineError::RunAmbiguous(format!(
                "`{id}` matches {n} runs ({}{}); give more characters",
                names.join(", "),
                if n > 5 { ", ..." } else { "" }
            )))
        }
    }
}
