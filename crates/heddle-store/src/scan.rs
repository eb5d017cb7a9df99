//! Reading one run folder from disk (blocking): manifest, conclusion, whether a process is
//! running it, the new part of progress.jsonl, and, when they may have changed, the git
//! checkpoints and the captured artifacts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use heddle_engine::run_records::{HistoryAfter, HistoryMark, ListedArtifact, ListedHistory};
use heddle_engine::runlock::RunLock;
use heddle_engine::{Conclusion, Event, Manifest, RunDir};

use crate::error::{Result, StoreError};
use crate::progress::{ParsedEvent, Tail, read_tail};
use crate::readers::RunReaders;
use crate::types::RunStatus;

/// Where the previous ingest of the folder stopped.
#[derive(Debug, Clone, Default)]
pub(crate) struct Position {
    pub offset: u64,
    pub lines: u64,
    /// git.json's signature when the checkpoints were last read.
    pub git_signature: Option<String>,
    /// Where the last listing of the checkpoints ended (`None`: list them all).
    pub checkpoint_mark: Option<HistoryMark>,
    /// The folder was never ingested (or is being rebuilt).
    pub fresh: bool,
}

/// What the checkpoints read gave.
#[derive(Debug)]
pub(crate) enum GitRead {
    /// Nothing suggests they changed.
    Unchanged,
    /// Read again, all of them (none when the run has no git checkpoints).
    Read(ListedHistory),
    /// Only those made since the last listing, which follow the indexed ones.
    Appended {
        history: ListedHistory,
        /// The checkpoint that was current no longer is.
        tip_moved: bool,
    },
    /// Reading failed: `run {id}: {git error}`.
    Failed(String),
}

/// One run folder as read now.
#[derive(Debug)]
pub(crate) struct Scan {
    pub manifest: Manifest,
    pub conclusion: Option<Conclusion>,
    pub status: RunStatus,
    pub tail: Tail,
    pub git: GitRead,
    pub git_signature: Option<String>,
    pub manifest_signature: Option<String>,
    /// Read again when events suggest they changed.
    pub artifacts: ArtifactRead,
}

/// What the artifact manifests read gave.
#[derive(Debug)]
pub(crate) enum ArtifactRead {
    /// Nothing suggests they changed.
    Unchanged,
    /// Every stage folder's, read again.
    All(Vec<ListedArtifact>),
    /// Those of the stage folders `stages` (under `artifacts/`), read again; the others'
    /// stay as indexed.
    Stages {
        stages: Vec<String>,
        listed: Vec<ListedArtifact>,
    },
}

/// Which artifact folders the new events may have added to: `None` when every folder is read
/// again (the run ended, or an event names a folder in a way not understood), else the
/// folders of the stages that captured or ended (empty: none).
fn artifact_stages(events: &[ParsedEvent]) -> Option<Vec<String>> {
    let mut stages = BTreeSet::new();
    for event in events {
        let envelope = &event.envelope;
        let folder = match &envelope.event {
            Event::StageCompleted {
                visit, stage_dir, ..
            }
            | Event::StageFailed {
                visit, stage_dir, ..
            } => {
                // Captures go to `artifacts/{the stage folder's name}`.
                let dir = match (stage_dir, &envelope.node_id) {
                    (Some(dir), _) => dir.clone(),
                    (None, Some(node)) => RunDir::stage_dir_name(node, *visit),
                    (None, None) => return None,
                };
                Path::new(&dir)
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
            }
            // `artifacts/{stage folder}/retry_{n}/{file}`
            Event::ArtifactCaptured { path, .. } => path
                .strip_prefix("artifacts/")
                .and_then(|rest| rest.split_once('/'))
                .map(|(folder, _)| folder.to_string()),
            event if event.ends_run() => return None,
            _ => continue,
        };
        stages.insert(folder.filter(|f| !f.is_empty() && f != "." && f != "..")?);
    }
    Some(stages.into_iter().collect())
}

/// Reads `folder` from `position`; `None` when it has no manifest (yet).
pub(crate) fn scan(
    folder: &Path,
    position: &Position,
    readers: &RunReaders,
) -> Result<Option<Scan>> {
    let run = RunDir::at(folder);
    let manifest_path = run.manifest();
    if !manifest_path.is_file() {
        return Ok(None);
    }
    let manifest_signature = signature(&manifest_path);
    let manifest = run.read_manifest().map_err(|e| StoreError::Io {
        path: manifest_path.clone(),
        message: e.to_string(),
    })?;
    // Status before events: a run that ends now is read as running, and its last events and
    // conclusion arrive with the next change.
    let (status, conclusion) = status_of(&run);
    let (offset, lines) = if position.fresh {
        (0, 0)
    } else {
        (position.offset, position.lines)
    };
    let tail = read_tail(&run.progress(), offset, lines)?;
    let fresh = position.fresh || tail.restarted;
    let git_signature = signature(&run.git_state());
    let checkpoint_saved = tail
        .events
        .iter()
        .any(|e| matches!(e.envelope.event, Event::CheckpointSaved { .. }));
    let git = if fresh || checkpoint_saved || git_signature != position.git_signature {
        let known = position.checkpoint_mark.as_ref().filter(|_| !fresh);
        read_checkpoints(&run, known, readers)
            .unwrap_or_else(|e| GitRead::Failed(format!("run {}: {e}", manifest.run_id)))
    } else {
        GitRead::Unchanged
    };
    let artifacts = match (fresh, artifact_stages(&tail.events)) {
        (false, Some(stages)) if stages.is_empty() => ArtifactRead::Unchanged,
        (false, Some(stages)) => ArtifactRead::Stages {
            listed: readers.artifacts.list_stages(&run, &stages),
            stages,
        },
        _ => ArtifactRead::All(readers.artifacts.list(&run)),
    };
    Ok(Some(Scan {
        manifest,
        conclusion,
        status,
        tail,
        git,
        git_signature,
        manifest_signature,
        artifacts,
    }))
}

/// The run's checkpoints: only those after `known` when the history just grew from there,
/// else all of them.
fn read_checkpoints(
    run: &RunDir,
    known: Option<&HistoryMark>,
    readers: &RunReaders,
) -> std::result::Result<GitRead, heddle_engine::run_records::HistoryReadError> {
    if let Some(known) = known
        && let HistoryAfter::Appended {
            entries,
            mark,
            tip_moved,
        } = readers.checkpoints.list_after(run, known)?
    {
        return Ok(GitRead::Appended {
            history: ListedHistory {
                entries,
                mark: Some(mark),
            },
            tip_moved,
        });
    }
    Ok(GitRead::Read(readers.checkpoints.list(run)?))
}

/// How the run stands from its files, with its conclusion: the conclusion's status; else
/// running while a process holds its lock; else interrupted (crashed, killed, or stopped
/// before concluding).
pub(crate) fn status_of(run: &RunDir) -> (RunStatus, Option<Conclusion>) {
    if let Some(conclusion) = run.read_conclusion() {
        return (conclusion.status, Some(conclusion));
    }
    if run.pid().exists() && RunLock::is_held(run) {
        return (RunStatus::Running, None);
    }
    // It may have concluded between the two reads.
    match run.read_conclusion() {
        Some(conclusion) => (conclusion.status, Some(conclusion)),
        None => (RunStatus::Interrupted, None),
    }
}

/// Whether a process still runs the run in `folder` (its lock is held).
pub(crate) fn is_live(folder: &Path) -> bool {
    status_of(&RunDir::at(folder)).0 == RunStatus::Running
}

/// Size and modification time of `path` (`None` when absent).
fn signature(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Some(format!("{}:{modified}", meta.len()))
}

/// Run folders directly under `runs_root` (those with a manifest, and those still being
/// created: any folder), sorted.
pub(crate) fn run_folders(runs_root: &Path) -> Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(runs_root) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::io(runs_root, &e)),
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(std::result::Result::ok)
        // A run kept elsewhere (`--run-dir`) is a link to its folder.
        .filter(|e| e.path().is_dir())
        .map(|e| e.path())
        .collect();
    folders.sort();
    Ok(folders)
}

/// Child runs of manager loops inside `folder` (`nodes/*/child`), recursively, parents
/// before children.
pub(crate) fn child_runs(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(folder.join("nodes")) else {
        return found;
    };
    let mut children: Vec<PathBuf> = entries
        .filter_map(std::result::Result::ok)
        .map(|e| e.path().join("child"))
        .filter(|child| child.join("manifest.json").is_file())
        .collect();
    children.sort();
    for child in children {
        let grandchildren = child_runs(&child);
        found.push(child);
        found.extend(grandchildren);
    }
    found
}
