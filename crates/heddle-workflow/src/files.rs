//! File access for `@file` references, behind a trait so tests use an in-memory fake.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// Reads the files a workflow refers to (`prompt="@prompts/plan.md"`). `Sync` because
/// validation runs its rules on more than one thread.
pub trait FileSource: Sync {
    /// The file's content as UTF-8 text.
    fn read_to_string(&self, path: &Path) -> std::io::Result<String>;
    /// Whether a file exists at `path`.
    fn exists(&self, path: &Path) -> bool;
    /// `path` with every symlink followed, when it exists (the path itself for sources
    /// without symlinks).
    fn real_path(&self, path: &Path) -> Option<PathBuf> {
        Some(path.to_path_buf())
    }
}

/// The real filesystem.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsFiles;

impl FileSource for OsFiles {
    fn read_to_string(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }

    fn exists(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn real_path(&self, path: &Path) -> Option<PathBuf> {
        std::fs::canonicalize(path).ok()
    }
}

/// Files held in memory, keyed by path; for tests and for callers that have the files
/// already (an editor buffer, a git tree).
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles {
    files: BTreeMap<PathBuf, String>,
}

impl MemoryFiles {
    /// No files.
    pub fn new() -> Self {
        MemoryFiles::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl Into<PathBuf>, content: impl Into<String>) -> &mut Self {
        self.files.insert(path.into(), content.into());
        self
    }

    /// Adds a file, builder style.
    pub fn with(mut self, path: impl Into<PathBuf>, content: impl Into<String>) -> Self {
        self.insert(path, content);
        self
    }
}

impl FileSource for MemoryFiles {
    fn read_to_string(&self, path: &Path) -> std::io::Result<String> {
        self.files.get(path).cloned().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, path.display().to_string())
        })
    }

    fn exists(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }
}

/// Where `@reference` points for a workflow at `workflow_path`: relative to its directory
/// (absolute references stay as they are).
pub fn resolve_reference(workflow_path: &Path, reference: &str) -> PathBuf {
    let reference = Path::new(reference);
    let joined = if reference.is_absolute() {
        reference.to_path_buf()
    } else {
        match workflow_path.parent() {
            Some(dir) => dir.join(reference),
            None => reference.to_path_buf(),
        }
    };
    normalize(&joined)
}

/// Removes `.` and folds `dir/..` without touching the filesystem.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}
