//! The patch files a session writes into the run folder (each stage's diff.patch, the
//! run's final.patch), and the session's end.

use git2::{DiffOptions, Oid};

use super::{OpenSession, PATCH_LIMIT};
use crate::error::{CheckpointError, Result};
use crate::repo::{commit, tip};
use crate::tree_diff::{diff_trees, patch_bytes};

impl OpenSession<'_> {
    /// Writes `nodes/{stage}/diff.patch` for the change from `old` to `new`; the paths.
    pub(super) fn write_stage_diff(
        &self,
        old: &git2::Tree<'_>,
        new: &git2::Tree<'_>,
        stage_dir: Option<&str>,
    ) -> Result<Vec<String>> {
        let git = |e: &git2::Error| CheckpointError::git(&self.kept.state.git_dir, "diff", e);
        let diff = diff_trees(self.repo, old, new, DiffOptions::new().show_binary(false))
            .map_err(|e| git(&e))?;
        let Some(diff) = diff else {
            return Ok(Vec::new());
        };
        let files: Vec<String> = diff
            .deltas()
            .filter_map(|d| d.new_file().path().or_else(|| d.old_file().path()))
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let Some(stage) = stage_dir.filter(|_| !files.is_empty()) else {
            return Ok(files);
        };
        let (mut patch, cut) = patch_bytes(&diff, PATCH_LIMIT).map_err(|e| git(&e))?;
        if cut {
            patch.push(b'\n');
            patch.extend_from_slice(crate::patch_text::CUT_NOTE.as_bytes());
            patch.push(b'\n');
        }
        let path = self.kept.run_dir.nodes_dir().join(stage).join("diff.patch");
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| CheckpointError::io(parent, &e))?;
        }
        std::fs::write(&path, &patch).map_err(|e| CheckpointError::io(&path, &e))?;
        Ok(files)
    }

    /// Writes final.patch (the base commit to the branch tip), merges the packs the session
    /// wrote and packs the loose objects left (the run's set-up writes some).
    pub fn finish(&mut self) -> Result<()> {
        for warning in self.publish()? {
            tracing::warn!(run = %self.kept.state.run_id, "{warning}");
        }
        self.write_final_patch()?;
        self.pack(1)
    }

    fn write_final_patch(&mut self) -> Result<()> {
        let base = Oid::from_str(&self.kept.state.base_sha)
            .map_err(|e| CheckpointError::git(&self.kept.state.git_dir, "base sha", &e))?;
        let Some(head) = tip(self.repo, &self.kept.state.branch)? else {
            return Ok(());
        };
        let git =
            |e: &git2::Error| CheckpointError::git(&self.kept.state.git_dir, "final.patch", e);
        let old = commit(self.repo, base)?.tree().map_err(|e| git(&e))?;
        let new = commit(self.repo, head)?.tree().map_err(|e| git(&e))?;
        let patch = match diff_trees(self.repo, &old, &new, &mut DiffOptions::new())
            .map_err(|e| git(&e))?
        {
            Some(diff) => patch_bytes(&diff, usize::MAX).map_err(|e| git(&e))?.0,
            None => Vec::new(),
        };
        let path = self.kept.run_dir.final_patch();
        std::fs::write(&path, &patch).map_err(|e| CheckpointError::io(&path, &e))
    }
}
