//! What an external agent changed in its work folder. Such an agent edits files itself, so
//! Heddle compares the folder's changed files before and after each turn. The engine
//! defines the trait; heddle-checkpoint implements it with git's status (so ignored files
//! are left out), and heddle-api hands it to the LLM backend.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::Path;

/// The changed files under a work folder at one moment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkTreeSnapshot {
    /// Path relative to the work folder (`/`-separated) → the git blob id of its content
    /// (hex), or `None` where the path is changed because the file is gone.
    pub files: BTreeMap<String, Option<String>>,
}

/// Takes [`WorkTreeSnapshot`]s of work folders and compares them.
pub trait WorkTreeWatch: Send + Sync + Debug {
    /// The changed files under `work_dir` now (against its repository's HEAD, the index
    /// included, plus untracked files that are not ignored); `None` outside a repository.
    fn snapshot(&self, work_dir: &Path) -> Option<WorkTreeSnapshot>;

    /// The files under `work_dir` touched since `before` (taken of the same folder; `None`
    /// when it could not be taken), sorted: new in the changed set, changed content, or
    /// gone from the set with different content (reverted, deleted). Empty outside a
    /// repository.
    fn touched_since(&self, before: Option<&WorkTreeSnapshot>, work_dir: &Path) -> Vec<String>;
}
