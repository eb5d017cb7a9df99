//! Which files a checkpoint stores. Ignored and excluded files are not the run's; nested
//! git repositories, Git LFS files, files over the size cap and names that are not UTF-8
//! are skipped and reported (never renamed or changed).

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use git2::{AttrCheckFlags, Pathspec, PathspecFlags, Repository};

/// What to do with one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Store it.
    Store,
    /// Not the run's (ignored, excluded, Heddle's own folder): leave it alone, silently.
    Leave,
    /// Skipped, with a warning for the user.
    Skip(String),
}

/// The rules for one work tree.
pub struct Filters {
    work_tree: PathBuf,
    exclude: Option<Pathspec>,
    skip_prefixes: Vec<PathBuf>,
    size_cap: u64,
    /// Nested repositories reported already (once per scan is enough).
    reported: BTreeSet<PathBuf>,
}

impl Filters {
    /// Rules for `work_tree`: `exclude` globs, folders Heddle keeps its own data in, and the
    /// size cap.
    pub fn new(
        work_tree: &Path,
        exclude: &[String],
        skip_prefixes: Vec<PathBuf>,
        size_cap: u64,
    ) -> Self {
        let exclude = (!exclude.is_empty())
            .then(|| Pathspec::new(exclude.iter().map(String::as_str)).ok())
            .flatten();
        Filters {
            work_tree: work_tree.to_path_buf(),
            exclude,
            skip_prefixes,
            size_cap,
            reported: BTreeSet::new(),
        }
    }

    /// The rules a run's state names.
    pub fn for_state(state: &crate::state::GitState) -> Self {
        Filters::new(
            &state.work_tree,
            &state.exclude,
            state.skip_prefixes.clone(),
            state.size_cap,
        )
    }

    /// Forgets what was reported (a new scan starts).
    pub fn new_scan(&mut self) {
        self.reported.clear();
    }

    /// Whether `relative` lies in a `.git` folder or in Heddle's own data.
    pub fn is_private(&self, relative: &Path) -> bool {
        relative
            .components()
            .any(|c| matches!(c, Component::Normal(n) if n == ".git"))
            || self.skip_prefixes.iter().any(|p| relative.starts_with(p))
    }

    /// Whether the user excluded `relative` from checkpoints.
    pub fn is_excluded(&self, relative: &Path) -> bool {
        self.exclude
            .as_ref()
            .is_some_and(|spec| spec.matches_path(relative, PathspecFlags::DEFAULT))
    }

    /// The nested repository `relative` lies in (or is), if any.
    pub fn nested_repo(&self, relative: &Path) -> Option<PathBuf> {
        let mut prefix = PathBuf::new();
        for component in relative.components() {
            prefix.push(component);
            if self.work_tree.join(&prefix).join(".git").exists() {
                return Some(prefix);
            }
        }
        None
    }

    /// The verdict on `relative`, a file (or link) of the work tree; `tracked` when the
    /// run's index already holds it (tracked files are kept even where ignored, as git does).
    pub fn verdict(&mut self, repo: &Repository, relative: &Path, tracked: bool) -> Verdict {
        if self.is_private(relative) || self.is_excluded(relative) {
            return Verdict::Leave;
        }
        if relative.to_str().is_none() {
            return Verdict::Skip(format!(
                "`{}`: the file name is not valid UTF-8; it is not checkpointed (rename it to keep it in checkpoints)",
                relative.to_string_lossy()
            ));
        }
        if let Some(nested) = self.nested_repo(relative) {
            return self.nested(&nested);
        }
        if !tracked && repo.is_path_ignored(relative).unwrap_or(false) {
            return Verdict::Leave;
        }
        if repo
            .get_attr(relative, "filter", AttrCheckFlags::FILE_THEN_INDEX)
            .ok()
            .flatten()
            == Some("lfs")
        {
            return Verdict::Skip(format!(
                "`{}` is a Git LFS file; checkpoints do not store it",
                relative.display()
            ));
        }
        match std::fs::symlink_metadata(self.work_tree.join(relative)) {
            Ok(meta) if meta.is_file() && meta.len() > self.size_cap => Verdict::Skip(format!(
                "`{}` is {} MB, over the {} MB checkpoint limit; it is not checkpointed",
                relative.display(),
                meta.len() / (1024 * 1024),
                self.size_cap / (1024 * 1024)
            )),
            _ => Verdict::Store,
        }
    }

    /// The verdict on a nested repository: skipped, reported once.
    pub fn nested(&mut self, nested: &Path) -> Verdict {
        if self.reported.insert(nested.to_path_buf()) {
            Verdict::Skip(format!(
                "`{}` is a nested git repository; its files are not checkpointed (it is left as it is)",
                nested.display()
            ))
        } else {
            Verdict::Leave
        }
    }
}
