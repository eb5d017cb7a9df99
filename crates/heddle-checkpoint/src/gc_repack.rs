//! Rewriting a Heddle-owned repository's objects as one pack: everything reachable from its
//! refs, their reflogs, HEAD and the given extra objects (the runs' private indexes) goes
//! into one new pack written with libgit2's pack builder; the pack and its index are
//! flushed to disk, and only then are the packs and loose objects that were there before
//! removed. A crash at any point leaves a valid repository: before the new pack is durable
//! nothing is removed, after it every object still needed is in it twice at worst.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use git2::{ObjectType, Oid, Repository};
use serde::Serialize;

use crate::error::{CheckpointError, Result};
use crate::pack::{loose_objects, write_synced};

/// The size of a repository's object store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObjectCounts {
    /// Distinct objects, loose and packed.
    pub objects: u64,
    /// Loose objects (one file each).
    pub loose: u64,
    /// Packs.
    pub packs: u64,
    /// Bytes of the object store (loose files, packs and their indexes).
    pub bytes: u64,
}

/// The object store of `repo` as it is now.
pub fn count_objects(repo: &Repository) -> Result<ObjectCounts> {
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), "count objects", e);
    let mut distinct = HashSet::new();
    repo.odb()
        .and_then(|odb| {
            odb.refresh()?;
            odb.foreach(|oid| {
                distinct.insert(*oid);
                true
            })
        })
        .map_err(|e| git(&e))?;
    let loose = loose_objects(repo)?;
    let mut bytes: u64 = loose
        .iter()
        .filter_map(|(_, path)| std::fs::metadata(path).ok())
        .map(|m| m.len())
        .sum();
    let pack_dir = pack_dir(repo);
    let mut packs = 0;
    for path in files_in(&pack_dir)? {
        if path.extension().is_some_and(|x| x == "pack") {
            packs += 1;
        }
        bytes += std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    }
    Ok(ObjectCounts {
        objects: distinct.len() as u64,
        loose: loose.len() as u64,
        packs,
        bytes,
    })
}

/// Every object the rewritten repository keeps: the targets of its refs except `skip`
/// (refs about to be deleted), every id their reflogs and HEAD's reflog name, HEAD, and
/// `extra`.
pub fn roots(repo: &Repository, skip: &BTreeSet<String>, extra: &[Oid]) -> Result<Vec<Oid>> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let mut names = vec!["HEAD".to_string()];
    for reference in repo.references().map_err(|e| git("list refs", &e))? {
        let reference = reference.map_err(|e| git("read a ref", &e))?;
        if let Some(name) = reference.name().ok().filter(|n| !skip.contains(*n)) {
            names.push(name.to_string());
        }
    }
    let mut roots: BTreeSet<Oid> = extra.iter().copied().collect();
    for name in &names {
        if let Ok(oid) = repo.refname_to_id(name) {
            roots.insert(oid);
        }
        // Reading a reflog that does not exist creates an empty one: look first.
        let logged = [repo.path(), repo.commondir()]
            .iter()
            .any(|dir| dir.join("logs").join(name).is_file());
        if !logged {
            continue;
        }
        if let Ok(reflog) = repo.reflog(name) {
            for entry in reflog.iter() {
                roots.extend([entry.id_old(), entry.id_new()]);
            }
        }
    }
    roots.remove(&Oid::ZERO_SHA1);
    Ok(roots.into_iter().collect())
}

/// The objects of `repo` a pack of everything reachable from `roots` holds (objects
/// missing from the repository are skipped).
fn builder_for<'r>(repo: &'r Repository, roots: &[Oid]) -> Result<git2::PackBuilder<'r>> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let odb = repo.odb().map_err(|e| git("object database", &e))?;
    let mut builder = repo.packbuilder().map_err(|e| git("pack builder", &e))?;
    let mut walk = repo.revwalk().map_err(|e| git("walk", &e))?;
    for &oid in roots {
        let Ok((_, kind)) = odb.read_header(oid) else {
            continue;
        };
        match kind {
            ObjectType::Commit => walk
                .push(oid)
                .map_err(|e| git(&format!("walk {oid}"), &e))?,
            _ => builder
                .insert_recursive(oid, None)
                .map_err(|e| git(&format!("pack {oid}"), &e))?,
        }
    }
    builder
        .insert_walk(&mut walk)
        .map_err(|e| git("pack the history", &e))?;
    Ok(builder)
}

/// How many objects a pack of everything reachable from `roots` would hold.
pub fn reachable(repo: &Repository, roots: &[Oid]) -> Result<u64> {
    Ok(builder_for(repo, roots)?.object_count() as u64)
}

/// The object files of a repository before it is rewritten.
#[derive(Debug, Default)]
pub struct OldObjects {
    loose: Vec<PathBuf>,
    /// Pack paths without extension (`…/pack-{hash}`), `.keep` packs left out.
    packs: Vec<PathBuf>,
}

impl OldObjects {
    /// The loose objects and packs of `repo` now; list them before finding the roots, so
    /// anything written after that is never among them.
    pub fn list(repo: &Repository) -> Result<OldObjects> {
        let loose = loose_objects(repo)?.into_iter().map(|(_, p)| p).collect();
        let mut packs = BTreeSet::new();
        for path in files_in(&pack_dir(repo))? {
            let is_pack_file = matches!(
                path.extension().and_then(|x| x.to_str()),
                Some("pack" | "idx" | "rev" | "bitmap" | "mtimes")
            );
            if is_pack_file && !path.with_extension("keep").exists() {
                packs.insert(path.with_extension(""));
            }
        }
        Ok(OldObjects {
            loose,
            packs: packs.into_iter().collect(),
        })
    }
}

/// Writes one pack of everything reachable from `roots`; the pack's path (`None` when
/// nothing is reachable) and its object count. Nothing is removed.
pub fn write_pack(repo: &Repository, roots: &[Oid]) -> Result<(Option<PathBuf>, u64)> {
    let mut builder = builder_for(repo, roots)?;
    let count = builder.object_count() as u64;
    if count == 0 {
        return Ok((None, 0));
    }
    let pack = write_synced(repo, &mut builder)?;
    Ok((Some(pack), count))
}

/// Removes `old` objects, except the pack `keep` (the new one, which may have the name of
/// an old one) and files changed after `since` (another writer reused them).
pub fn remove_old(
    repo: &Repository,
    old: &OldObjects,
    keep: Option<&Path>,
    since: SystemTime,
) -> Result<()> {
    let keep = keep.map(|p| p.with_extension(""));
    let fresh = |path: &Path| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t > since)
    };
    for stem in &old.packs {
        if Some(stem) == keep.as_ref() || fresh(&stem.with_extension("pack")) {
            continue;
        }
        // The index first: a reader never finds an index whose pack is gone.
        for ext in ["idx", "pack", "rev", "bitmap", "mtimes"] {
            remove(&stem.with_extension(ext))?;
        }
    }
    for path in &old.loose {
        if fresh(path) {
            continue;
        }
        remove(path)?;
        if let Some(parent) = path.parent() {
            // Left when it still holds objects.
            let _ = std::fs::remove_dir(parent);
        }
    }
    // Caches git may have written (`git gc`, `git repack`) name objects and packs that are
    // gone now; git rebuilds them when it wants them.
    let objects = repo.commondir().join("objects");
    for cache in [
        objects.join("info/commit-graph"),
        objects.join("pack/multi-pack-index"),
    ] {
        remove(&cache)?;
    }
    let chain = objects.join("info/commit-graphs");
    if chain.is_dir() {
        std::fs::remove_dir_all(&chain).map_err(|e| CheckpointError::io(&chain, &e))?;
    }
    repo.odb()
        .and_then(|odb| odb.refresh())
        .map_err(|e| CheckpointError::git(repo.path(), "refresh the object database", &e))
}

fn remove(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CheckpointError::io(path, &e)),
        _ => Ok(()),
    }
}

fn pack_dir(repo: &Repository) -> PathBuf {
    repo.commondir().join("objects").join("pack")
}

fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    match std::fs::read_dir(dir) {
        Ok(entries) => Ok(entries
            .filter_map(std::result::Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(CheckpointError::io(dir, &e)),
    }
}
