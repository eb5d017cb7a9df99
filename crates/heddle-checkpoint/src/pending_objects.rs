//! The git objects a checkpoint session writes, held in memory until the checkpoint is
//! complete and then written to disk as one small pack: a checkpoint creates two files in
//! the repository (the pack and its index) instead of one loose file per object (about ten
//! per stage). The session writes through a libgit2 mempack backend put in front of the
//! repository's own object database and names the objects its commits added (each commit,
//! and what its tree has that the parent's tree has not: only the subtrees that differ are
//! read). [`PendingObjects::flush`] writes those, whole, as one pack in `objects/pack/`
//! ([`crate::pack_format`]: no delta search, no second pass to index it), flushes the pack,
//! its index and the folder to disk and only then empties the mempack, so a ref or index that
//! names the objects is written after they are on disk for good. The session merges the
//! small packs ([`crate::session_packs`]).

use git2::{Mempack, ObjectType, Oid, Repository};

use crate::error::{CheckpointError, Result};
use crate::pack::write_encoded;
use crate::pack_format::{EntryCompressor, encode_pack};

/// The mempack's priority among the object database's backends: above the loose (1) and
/// packed (2) ones, so every new object goes to it.
pub const MEMPACK_PRIORITY: i32 = 1000;

/// The objects written since the last flush.
pub struct PendingObjects<'r> {
    repo: &'r Repository,
    mempack: Mempack<'r>,
    /// The objects named since the last flush.
    named: Vec<Oid>,
    /// Kept from pack to pack for the objects too large to store uncompressed (a new one
    /// clears hundreds of KB).
    compressor: EntryCompressor,
}

impl<'r> PendingObjects<'r> {
    /// Holds the objects `repo` writes from now on through `mempack`, a backend of its
    /// object database added with [`MEMPACK_PRIORITY`].
    pub fn new(repo: &'r Repository, mempack: Mempack<'r>) -> Self {
        PendingObjects {
            repo,
            mempack,
            named: Vec::new(),
            compressor: EntryCompressor::new(),
        }
    }

    /// Names commit `commit`, whose tree `tree` replaces `parent_tree`, and the objects its
    /// tree added.
    pub fn add_commit(&mut self, commit: Oid, parent_tree: Option<Oid>, tree: Oid) -> Result<()> {
        self.named.push(commit);
        self.add_tree(parent_tree, tree)
    }

    /// Names tree `tree` and what it holds that `old` does not (every object, without
    /// `old`); subtrees that did not change are not read.
    pub fn add_tree(&mut self, old: Option<Oid>, tree: Oid) -> Result<()> {
        if old == Some(tree) {
            return Ok(());
        }
        let git =
            |e: &git2::Error| CheckpointError::git(self.repo.path(), &format!("tree {tree}"), e);
        self.named.push(tree);
        let new = self.repo.find_tree(tree).map_err(|e| git(&e))?;
        let old = match old {
            Some(old) => Some(self.repo.find_tree(old).map_err(|e| git(&e))?),
            None => None,
        };
        let mut subtrees = Vec::new();
        for entry in new.iter() {
            let before = old
                .as_ref()
                .and_then(|o| o.get_name_bytes(entry.name_bytes()))
                .map(|e| (e.id(), e.kind()));
            if before.is_some_and(|(id, _)| id == entry.id()) {
                continue;
            }
            match entry.kind() {
                Some(ObjectType::Tree) => {
                    let was = before.filter(|(_, kind)| *kind == Some(ObjectType::Tree));
                    subtrees.push((was.map(|(id, _)| id), entry.id()));
                }
                Some(ObjectType::Blob) => self.named.push(entry.id()),
                // Submodule commits live in other repositories.
                _ => {}
            }
        }
        for (was, now) in subtrees {
            self.add_tree(was, now)?;
        }
        Ok(())
    }

    /// Writes the objects named since the last flush to `objects/pack/` as one pack of
    /// whole objects, flushed to disk, and lets the objects held in memory go; the name
    /// of the pack written (`pack-{name}.pack`; `None` when nothing was named).
    pub fn flush(&mut self) -> Result<Option<String>> {
        if self.named.is_empty() {
            return Ok(None);
        }
        let git = |what: &str, e: &git2::Error| CheckpointError::git(self.repo.path(), what, e);
        let odb = self.repo.odb().map_err(|e| git("object database", &e))?;
        let mut entries = Vec::with_capacity(self.named.len());
        // A pack holds each object once; checkpoints published together can name one
        // twice (a file put back as it was two stages before).
        let mut seen = std::collections::HashSet::with_capacity(self.named.len());
        for &id in self.named.iter().filter(|id| seen.insert(**id)) {
            let object = odb
                .read(id)
                .map_err(|e| git(&format!("read object {id}"), &e))?;
            entries.push(self.compressor.whole(id, object.kind(), object.data())?);
        }
        let encoded = encode_pack(&entries);
        write_encoded(self.repo, &encoded)?;
        self.mempack
            .reset()
            .map_err(|e| git("empty the mempack", &e))?;
        self.named.clear();
        Ok(Some(encoded.name))
    }
}
