//! `heddle dump`: a run's outputs laid out for reading, one folder per stage visit in the
//! order they ran (`stages/{rank:03}-{node}@{visit}/`), with the stage's files and the test
//! artifacts it left, plus the run's manifest, graph, checkpoint and conclusion.

use std::path::{Path, PathBuf};

use heddle_engine::{Checkpoint, RunDir};

/// What a dump wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DumpReport {
    /// Stage folders written.
    pub stages: usize,
    /// Files copied.
    pub files: usize,
}

/// A dump that could not be made; names the path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DumpError {
    /// The output folder already holds something; nothing was written.
    #[error("{}: is not empty; choose a new folder for the dump", path.display())]
    NotEmpty {
        /// The output folder.
        path: PathBuf,
    },
    /// The output path is a file, not a folder; nothing was written.
    #[error("{}: is a file; choose a new folder for the dump", path.display())]
    NotAFolder {
        /// The output path.
        path: PathBuf,
    },
    /// The run's checkpoint is missing or damaged.
    #[error(transparent)]
    Checkpoint(heddle_engine::EngineError),
    /// Reading the run or writing the dump failed (permissions, a full disk).
    #[error("{}: {message}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

fn io(path: &Path, error: &std::io::Error) -> DumpError {
    DumpError::Io {
        path: path.to_path_buf(),
        message: heddle_engine::describe_io(error),
    }
}

/// Writes the dump of `run` into `out` (created; it must be empty or missing, so nothing
/// of the person's is overwritten).
pub fn dump_run(run: &RunDir, out: &Path) -> Result<DumpReport, DumpError> {
    if out.exists() && !out.is_dir() {
        return Err(DumpError::NotAFolder {
            path: out.to_path_buf(),
        });
    }
    if out.exists()
        && std::fs::read_dir(out)
            .map_err(|e| io(out, &e))?
            .next()
            .is_some()
    {
        return Err(DumpError::NotEmpty {
            path: out.to_path_buf(),
        });
    }
    std::fs::create_dir_all(out).map_err(|e| io(out, &e))?;
    let mut report = DumpReport::default();
    for name in [
        "manifest.json",
        "graph.dot",
        "checkpoint.json",
        "timeline.jsonl",
        "conclusion.json",
    ] {
        let from = run.root().join(name);
        if from.is_file() {
            copy(&from, &out.join(name))?;
            report.files += 1;
        }
    }
    let checkpoint = Checkpoint::load(&run.checkpoint()).map_err(DumpError::Checkpoint)?;
    for (rank, stage) in checkpoint.timeline.iter().enumerate() {
        let folder =
            out.join("stages")
                .join(format!("{:03}-{}@{}", rank + 1, stage.node_id, stage.visit));
        std::fs::create_dir_all(&folder).map_err(|e| io(&folder, &e))?;
        report.stages += 1;
        let source = run.root().join(&stage.stage_dir);
        report.files += copy_tree(&source, &folder, &["child"])?;
        let stage_folder = Path::new(&stage.stage_dir)
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        let artifacts = run.artifacts().join(stage_folder);
        if artifacts.is_dir() {
            report.files += copy_tree(&artifacts, &folder.join("artifacts"), &[])?;
        }
    }
    Ok(report)
}

fn copy(from: &Path, to: &Path) -> Result<(), DumpError> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io(parent, &e))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| io(from, &e))
}

/// Copies the regular files under `from` into `to`, keeping relative paths; folders named
/// in `skip` (at the top) are left out. Symlinks are not followed.
fn copy_tree(from: &Path, to: &Path, skip: &[&str]) -> Result<usize, DumpError> {
    let Ok(entries) = std::fs::read_dir(from) else {
        return Ok(0);
    };
    let mut copied = 0;
    for entry in entries {
        let entry = entry.map_err(|e| io(from, &e))?;
        let name = entry.file_name();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        let kind = entry.file_type().map_err(|e| io(&entry.path(), &e))?;
        if kind.is_dir() {
            copied += copy_tree(&entry.path(), &to.join(&name), &[])?;
        } else if kind.is_file() {
            copy(&entry.path(), &to.join(&name))?;
            copied += 1;
        }
    }
    Ok(copied)
}
