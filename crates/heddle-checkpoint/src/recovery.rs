//! The recovery snapshot taken before anything restores files into a work tree: the work
//! tree as it is, committed under the run's next free `refs/heddle/recovery/{run}/{n}`
//! on top of a given commit, with its recovery area (`{run_dir}/recovery/{n}/`, see
//! [`SetAside`]) for what a restore must get out of the way but does not own. The scan
//! is one pass over the work tree, and the index is written once, by the restore; both
//! through Heddle's own reading of the index ([`RunIndex`]). When the scan changes
//! nothing in the index, the snapshot's tree is the one the index already names (stamped
//! by a restore, [`index_tree`], or valid in its tree cache), not rebuilt.

use crate::index_file::RunIndex;
use git2::{Index, Oid, Repository};
use heddle_engine::RunDir;

use crate::error::{CheckpointError, Result};
use crate::filters::Filters;
use crate::full_scan::full_scan_run_index;
use crate::index_tree;
use crate::repo::{commit, compare_and_swap, signature, tip};
use crate::restore::{Restored, restore_changes, restore_files, restore_tree, save_restored_index};
use crate::set_aside::SetAside;
use crate::state::GitState;
use crate::tree_diff::Change;

/// A recovery snapshot just taken.
pub struct RecoverySnapshot {
    /// The run's index, matching the work tree (written by [`RecoverySnapshot::restore`]).
    pub index: RunIndex,
    /// The tree of the work tree as it was.
    pub tree: Oid,
    /// Full ref name, `refs/heddle/recovery/{run}/{n}`.
    pub reference: String,
    /// The snapshot commit `reference` points at.
    pub commit: Oid,
    /// Where entries in a restore's way go.
    pub aside: SetAside,
    /// Warnings about files the snapshot skipped.
    pub warnings: Vec<String>,
}

/// The first half of a recovery snapshot: the work tree scanned into the run's index and
/// its tree known, nothing committed yet. A caller can decide from [`RecoveryScan::tree`]
/// whether to go on before [`RecoveryScan::commit`] makes it a [`RecoverySnapshot`].
pub struct RecoveryScan {
    /// The run's index, matching the work tree.
    pub index: RunIndex,
    /// The tree of the work tree as it is.
    pub tree: Oid,
    /// Warnings about files the scan skipped.
    pub warnings: Vec<String>,
}

impl RecoveryScan {
    /// Scans the work tree of the run `state` describes into its index (one pass) and
    /// finds its tree.
    pub fn scan(repo: &Repository, state: &GitState) -> Result<RecoveryScan> {
        let mut index = RunIndex::open(&state.index)?;
        let named = index_tree::stamped(&state.index).or_else(|| index.cached_tree());
        let mut filters = Filters::for_state(state);
        let scanned = full_scan_run_index(repo, &mut index, &mut filters)?;
        // The tree the index named before the scan, when the scan changed nothing in it
        // (a rollback refuses over changes unless forced, so this is the usual case).
        let tree = match named {
            Some(tree) if !scanned.tree_changed && repo.find_tree(tree).is_ok() => tree,
            _ => build_tree(repo, &mut index)?,
        };
        Ok(RecoveryScan {
            index,
            tree,
            warnings: scanned.warnings,
        })
    }

    /// Commits the scanned tree on top of commit `parent` under the run's next free
    /// recovery ref (`run_dir` is the run's folder); `why` ends the commit's subject
    /// ("… before {why}"), `now` (RFC 3339) dates it.
    pub fn commit(
        self,
        repo: &Repository,
        state: &GitState,
        run_dir: &RunDir,
        parent: Oid,
        why: &str,
        now: &str,
    ) -> Result<RecoverySnapshot> {
        let (reference, commit, n) = commit_recovery(repo, state, self.tree, parent, why, now)?;
        Ok(RecoverySnapshot {
            index: self.index,
            tree: self.tree,
            reference,
            commit,
            aside: SetAside::new(&state.work_tree, &SetAside::area(run_dir, n)),
            warnings: self.warnings,
        })
    }
}

impl RecoverySnapshot {
    /// [`RecoveryScan::scan`] then [`RecoveryScan::commit`], with the same arguments.
    pub fn take(
        repo: &Repository,
        state: &GitState,
        run_dir: &RunDir,
        parent: Oid,
        why: &str,
        now: &str,
    ) -> Result<RecoverySnapshot> {
        RecoveryScan::scan(repo, state)?.commit(repo, state, run_dir, parent, why, now)
    }

    /// Restores the work tree from this snapshot to tree `target` (see [`restore_tree`]),
    /// and writes the run's index.
    pub fn restore(
        &mut self,
        repo: &Repository,
        state: &GitState,
        target: Oid,
    ) -> Result<Restored> {
        restore_tree(
            repo,
            &mut self.index,
            &state.work_tree,
            self.tree,
            target,
            &mut self.aside,
        )
    }

    /// Restores the work tree like [`RecoverySnapshot::restore`] but leaves the index
    /// unwritten: [`RecoverySnapshot::save_restored_index`] writes it, so a caller can
    /// do its other work meanwhile.
    pub fn restore_files(
        &mut self,
        repo: &Repository,
        state: &GitState,
        target: Oid,
    ) -> Result<Restored> {
        restore_files(
            repo,
            &mut self.index,
            &state.work_tree,
            self.tree,
            target,
            &mut self.aside,
        )
    }

    /// [`RecoverySnapshot::restore_files`] with the differences between this snapshot
    /// and `target` found already ([`crate::restore::changes_between`]).
    pub fn restore_changes(
        &mut self,
        repo: &Repository,
        state: &GitState,
        changes: Vec<Change>,
        target: Oid,
    ) -> Result<Restored> {
        restore_changes(
            repo,
            &mut self.index,
            &state.work_tree,
            changes,
            target,
            &mut self.aside,
        )
    }

    /// Writes the run's index as [`RecoverySnapshot::restore_files`] left it.
    pub fn save_restored_index(&mut self, repo: &Repository, restored: &Restored) -> Result<()> {
        save_restored_index(repo, &mut self.index, restored)
    }

    /// Writes the run's index as the scan left it (when nothing is restored).
    pub fn save_index(&mut self) -> Result<()> {
        self.index.save()?;
        // Only spares the next scan a tree rebuild.
        let _ = index_tree::stamp(self.index.path(), self.tree);
        Ok(())
    }
}

/// The tree of `index` when the scan changed it: saved, then built by libgit2 from the
/// file (reusing the subtrees its tree cache still has) and saved again with the full
/// tree cache, which `index` is then read back with.
fn build_tree(repo: &Repository, index: &mut RunIndex) -> Result<Oid> {
    index.save()?;
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), "build the snapshot's tree", e);
    let mut built = Index::open(index.path()).map_err(|e| git(&e))?;
    let tree = built.write_tree_to(repo).map_err(|e| git(&e))?;
    built.write().map_err(|e| git(&e))?;
    *index = RunIndex::open(index.path())?;
    Ok(tree)
}

/// Commits tree `tree` (the work tree as it was) on top of `parent` under the run's next
/// free recovery ref; the ref, the commit and the ref's number.
pub(crate) fn commit_recovery(
    repo: &Repository,
    state: &GitState,
    tree: Oid,
    parent: Oid,
    why: &str,
    now: &str,
) -> Result<(String, Oid, usize)> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let tree = repo.find_tree(tree).map_err(|e| git("recovery tree", &e))?;
    let parent = commit(repo, parent)?;
    let sig = signature(now)?;
    let message = format!(
        "heddle({}): recovery snapshot before {why}\n\nHeddle-Run: {}\n",
        state.run_id, state.run_id
    );
    let oid = repo
        .commit(None, &sig, &sig, &message, &tree, &[&parent])
        .map_err(|e| git("recovery commit", &e))?;
    let mut n = 1;
    while tip(repo, &state.recovery_ref(n))?.is_some() {
        n += 1;
    }
    let reference = state.recovery_ref(n);
    compare_and_swap(repo, &reference, None, oid, "heddle: recovery snapshot")?;
    Ok((reference, oid, n))
}
