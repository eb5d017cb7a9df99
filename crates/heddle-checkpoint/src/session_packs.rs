//! The packs a checkpoint session wrote, and how they are merged so that their number stays
//! small however long the run: every checkpoint leaves one small pack of whole objects
//! ([`crate::pending_objects`]); every [`crate::pack::PACK_EVERY`] checkpoints (and when
//! the run ends) those are merged with libgit2's pack builder into one pack with deltas,
//! leaving out what the session's earlier merged packs already hold. The merged packs then
//! merge among themselves by concatenation ([`crate::pack_format::concatenate`], no delta
//! search) whenever one is not at least [`GROWTH`] times the size of the next newer one:
//! their sizes fall geometrically, so a run of `n` objects keeps about `log2(n)` of them,
//! and each object is copied about that many times.
//!
//! Before this, merged packs piled up one per merge, and libgit2 searches every pack (and
//! lists the pack folder again) for each object a checkpoint writes: a stage got slower the
//! longer the run.

use std::collections::HashSet;
use std::path::Path;

use git2::{Oid, Repository};

use crate::error::{CheckpointError, Result};
use crate::pack::{PackReport, pack_dir, pack_path, remove_pack, write_encoded, write_synced};
use crate::pack_format::{concatenate, read_index};

/// A merged pack is merged again with the next newer one unless it holds at least this many
/// times as many objects.
pub const GROWTH: usize = 2;

/// The packs of one session (kept when its thread opens the repository again).
#[derive(Debug, Default)]
pub struct SessionPacks {
    /// Names (`pack-{name}.pack`) of the packs of one checkpoint each, since the last merge.
    small: Vec<String>,
    /// Merged packs, oldest first, with how many objects each holds. No object is in two.
    merged: Vec<(String, usize)>,
    /// Every object the merged packs hold.
    merged_ids: HashSet<Oid>,
}

impl SessionPacks {
    /// Records the small pack `name` a checkpoint wrote.
    pub fn wrote(&mut self, name: String) {
        self.small.push(name);
    }

    /// How many merged packs the session keeps.
    pub fn merged(&self) -> usize {
        self.merged.len()
    }

    /// Merges the small packs (when there are at least two) into one with deltas, then
    /// the merged packs as the module docs say. What was removed is not on disk any more,
    /// but a repository that loaded it keeps it listed (open it again).
    pub fn merge(&mut self, repo: &Repository) -> Result<PackReport> {
        if self.small.len() < 2 {
            return Ok(PackReport::default());
        }
        let dir = pack_dir(repo);
        let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
        let mut builder = repo.packbuilder().map_err(|e| git("pack builder", &e))?;
        let mut added = HashSet::new();
        for name in &self.small {
            for object in read_index(&pack_path(&dir, name).with_extension("idx"))? {
                if self.merged_ids.contains(&object.id) || !added.insert(object.id) {
                    continue;
                }
                builder
                    .insert_object(object.id, None)
                    .map_err(|e| git(&format!("pack object {}", object.id), &e))?;
            }
        }
        let mut report = PackReport {
            packed: added.len(),
            pack: None,
        };
        if !added.is_empty() {
            let pack = write_synced(repo, &mut builder)?;
            self.merged.push((pack_name(&pack), added.len()));
            self.merged_ids.extend(added);
            report.pack = Some(pack);
        }
        for name in std::mem::take(&mut self.small) {
            if self.merged.last().is_some_and(|(last, _)| *last == name) {
                continue;
            }
            remove_pack(&pack_path(&dir, &name))?;
        }
        while let [.., (older, older_count), (newer, newer_count)] = self.merged.as_slice() {
            if *older_count >= GROWTH * newer_count {
                break;
            }
            let (older, newer) = (pack_path(&dir, older), pack_path(&dir, newer));
            let joined = concatenate(&[&older, &newer])?;
            let count = joined.objects;
            let pack = write_encoded(repo, &joined)?;
            for old in [&older, &newer] {
                if *old != pack {
                    remove_pack(old)?;
                }
            }
            self.merged.truncate(self.merged.len() - 2);
            self.merged.push((pack_name(&pack), count));
            report.pack = Some(pack);
        }
        Ok(report)
    }
}

/// `{name}` of `…/pack-{name}.pack`.
fn pack_name(pack: &Path) -> String {
    pack.file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("pack-"))
        .unwrap_or_default()
        .to_string()
}
