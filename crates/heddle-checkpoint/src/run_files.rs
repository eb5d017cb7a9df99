//! Making a run's own files those of one of its checkpoints, as a rollback does (and as
//! [`crate::rollback_journal`] does again for a rollback that was killed): timeline.jsonl
//! and checkpoint.json the target's (checkpoint.json removed when the target is the run's
//! base), git.json naming the run's new branch, manifest.json naming it too, and
//! conclusion.json dropped so the run can resume; then a metadata commit recording them.
//!
//! The files are built in memory from git, written under temporary names and flushed on a
//! thread of their own while the caller's other git work and the metadata commit's objects
//! are written; only then are they renamed into place (one wait for the disk) and the
//! metadata ref moved. A crash before the renames leaves the run as it was; between two of
//! them, the rollback's journal (renamed first, removed last) has the next lock holder
//! finish the move.

use std::path::{Path, PathBuf};

use git2::{Oid, Repository};
use heddle_engine::RunDir;
use heddle_engine::atomic_file::stage_files;

use crate::error::{CheckpointError, Result};
use crate::history::checkpoint_text_at;
use crate::metadata::{RootFileBytes, commit_metadata_bytes};
use crate::repo::{signature, tip};
use crate::state::GitState;

/// The node the run resumes at (`None`: from the start) and the nodes it completed.
pub type Resumes = (Option<String>, Vec<String>);

/// A run's files as a checkpoint has them, built in memory.
struct FilesAt {
    /// Each file and its new bytes, in the order they are renamed into place.
    files: Vec<(PathBuf, Vec<u8>)>,
    /// Where the journal is, among `files` (renamed first, removed last).
    journal: Option<PathBuf>,
    /// Where checkpoint.json and timeline.jsonl are among `files` (`None`: the target is
    /// the run's base, which has neither).
    checkpoint: Option<(usize, usize)>,
    /// Where manifest.json is among `files`.
    manifest: usize,
    resumes: Resumes,
}

/// Where a run's files move to, and how the move is recorded.
pub(crate) struct MoveTo<'a> {
    /// The checkpoint commit.
    pub target: Oid,
    /// The rollback's journal, path and bytes (see [`crate::rollback_journal`]): renamed
    /// into place first and removed last.
    pub journal: Option<(PathBuf, Vec<u8>)>,
    /// Ends the metadata commit's subject, `heddle({run}) {why}`.
    pub why: &'a str,
    /// Dates the metadata commit (RFC 3339).
    pub now: &'a str,
}

/// Makes the run files of the run in `run_dir` (`state` naming its new branch) those of
/// checkpoint `to.target` and commits them to the run's metadata ref. `go` runs once the
/// metadata commit's objects are written, while the files flush and before any is renamed
/// into place: a rollback waits there for its scan of the work tree and makes the branch.
/// When `go` says no, nothing of the run moves (the temporary files are removed) and the
/// result is `None`.
pub(crate) fn record_run_files(
    run_dir: &RunDir,
    repo: &Repository,
    state: &GitState,
    to: MoveTo<'_>,
    go: impl FnOnce() -> Result<bool>,
) -> Result<Option<Resumes>> {
    let MoveTo {
        target,
        journal,
        why,
        now,
    } = to;
    let at = FilesAt::build(run_dir, repo, state, target, journal)?;
    let parent = tip(repo, &state.metadata_ref)?;
    let batch: Vec<(&Path, &[u8])> = at
        .files
        .iter()
        .map(|(path, bytes)| (path.as_path(), bytes.as_slice()))
        .collect();
    let message = format!("heddle({}) {why}\n", state.run_id);
    let (staged, commit) = std::thread::scope(|scope| {
        let staging = scope.spawn(|| stage_files(&batch));
        let files = RootFileBytes {
            manifest: &at.files[at.manifest].1,
            checkpoint: at
                .checkpoint
                .map(|(head, history)| (&*at.files[head].1, &*at.files[history].1)),
        };
        let commit = signature(now)
            .and_then(|sig| commit_metadata_bytes(repo, run_dir, parent, files, &message, &sig))
            .and_then(|commit| Ok(go()?.then_some(commit)));
        let staged = staging
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the flush thread panicked")));
        (staged, commit)
    });
    let staged = staged.map_err(|e| CheckpointError::io(run_dir.root(), &e))?;
    // Called off: dropping `staged` removes its temporary files.
    let Some(commit) = commit? else {
        return Ok(None);
    };
    staged
        .put_in_place()
        .map_err(|e| CheckpointError::io(run_dir.root(), &e))?;
    if at.checkpoint.is_none() {
        remove_if_present(&run_dir.checkpoint())?;
    }
    remove_if_present(&run_dir.conclusion())?;
    commit.move_ref(repo, &state.metadata_ref)?;
    if let Some(journal) = &at.journal {
        remove_if_present(journal)?;
    }
    Ok(Some(at.resumes))
}

impl FilesAt {
    /// The run files of checkpoint `target` for the run `state` describes (its new branch
    /// named), with `journal` first.
    fn build(
        run_dir: &RunDir,
        repo: &Repository,
        state: &GitState,
        target: Oid,
        journal: Option<(PathBuf, Vec<u8>)>,
    ) -> Result<FilesAt> {
        let json = |path: &Path, bytes: serde_json::Result<Vec<u8>>| {
            bytes.map_err(|e| CheckpointError::Io {
                path: path.to_path_buf(),
                message: e.to_string(),
            })
        };
        let checkpoint_json = run_dir.checkpoint();
        let manifest_json = run_dir.manifest();
        let mut manifest = run_dir.read_manifest()?;
        manifest.run_branch = Some(GitState::short(&state.branch).to_string());
        // The journal first: a crash between any two renames leaves it there to finish.
        let journaled = journal.as_ref().map(|(path, _)| path.clone());
        let mut files: Vec<(PathBuf, Vec<u8>)> = journal.into_iter().collect();
        let (checkpoint, resumes) = match checkpoint_text_at(repo, target)? {
            Some((mut checkpoint, text)) => {
                checkpoint.git_commit_sha = Some(target.to_string());
                checkpoint.run_id = state.run_id.clone();
                let (head, history) = match text {
                    // Byte for byte as the metadata tree has it.
                    Some(text) => {
                        checkpoint.history_bytes = Some(text.len() as u64);
                        (checkpoint.head_bytes(&checkpoint_json)?, text)
                    }
                    None => checkpoint.to_files(&checkpoint_json)?,
                };
                // timeline.jsonl first: a crash before checkpoint.json is replaced leaves
                // the old checkpoint over the target's shorter history, never the reverse.
                files.push((run_dir.timeline(), history));
                files.push((checkpoint_json.clone(), head));
                let resumes = (checkpoint.next_node_id, checkpoint.completed_nodes);
                (Some((files.len() - 1, files.len() - 2)), resumes)
            }
            None => (None, Resumes::default()),
        };
        files.push((GitState::path(run_dir), state.to_json()?));
        let manifest = json(&manifest_json, serde_json::to_vec_pretty(&manifest))?;
        files.push((manifest_json, manifest));
        Ok(FilesAt {
            manifest: files.len() - 1,
            files,
            journal: journaled,
            checkpoint,
            resumes,
        })
    }
}

fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CheckpointError::io(path, &e)),
        _ => Ok(()),
    }
}
