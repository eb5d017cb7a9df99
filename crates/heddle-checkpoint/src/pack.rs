//! Keeping a repository packed while runs write to it: the loose objects (one file each
//! under `objects/xx/`) that checkpoints leave are written into one new pack with libgit2's
//! pack builder, the pack and its index are flushed to disk, and only then are the loose
//! files it holds removed. A checkpoint session packs every [`PACK_EVERY`] checkpoints and
//! when the run ends, so the work per pack is bounded by what those checkpoints wrote.

use std::fs::File;
use std::path::{Path, PathBuf};

use git2::{Oid, Repository};

use heddle_engine::atomic_file::replace_files;

use crate::error::{CheckpointError, Result};
use crate::pack_format::{EncodedPack, read_index};

/// A session merges its small packs (and packs loose objects) after this many checkpoints.
pub const PACK_EVERY: u64 = 32;

/// Fewer loose objects than this are left loose (a pack per handful of objects would cost
/// more lookups than it saves).
pub const MIN_LOOSE: usize = 64;

/// What packing did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackReport {
    /// Loose objects written into the new pack and removed.
    pub packed: usize,
    /// The new pack (`objects/pack/pack-{hash}.pack`); `None` when nothing was packed.
    pub pack: Option<PathBuf>,
}

/// The loose objects of `repo`'s object database, with their files.
pub fn loose_objects(repo: &Repository) -> Result<Vec<(Oid, PathBuf)>> {
    let objects = objects_dir(repo);
    let mut found = Vec::new();
    let dirs = match std::fs::read_dir(&objects) {
        Ok(dirs) => dirs,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(CheckpointError::io(&objects, &e)),
    };
    for dir in dirs.filter_map(std::result::Result::ok) {
        let prefix = dir.file_name().to_string_lossy().into_owned();
        if prefix.len() != 2 || !prefix.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let Ok(files) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for file in files.filter_map(std::result::Result::ok) {
            let rest = file.file_name().to_string_lossy().into_owned();
            if rest.len() != 38 {
                continue;
            }
            if let Ok(oid) = Oid::from_str(&format!("{prefix}{rest}")) {
                found.push((oid, file.path()));
            }
        }
    }
    Ok(found)
}

/// Packs `repo`'s loose objects when there are at least `min_loose` of them.
pub fn pack_loose(repo: &Repository, min_loose: usize) -> Result<PackReport> {
    let loose = loose_objects(repo)?;
    if loose.is_empty() || loose.len() < min_loose {
        return Ok(PackReport::default());
    }
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let mut builder = repo.packbuilder().map_err(|e| git("pack builder", &e))?;
    for (oid, _) in &loose {
        builder
            .insert_object(*oid, None)
            .map_err(|e| git(&format!("pack object {oid}"), &e))?;
    }
    // The loose copies go only once the pack is on disk for good.
    let pack = write_synced(repo, &mut builder)?;
    for (_, path) in &loose {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(CheckpointError::io(path, &e));
            }
            _ => {}
        }
        if let Some(parent) = path.parent() {
            // Left when another writer added to it meanwhile.
            let _ = std::fs::remove_dir(parent);
        }
    }
    Ok(PackReport {
        packed: loose.len(),
        pack: Some(pack),
    })
}

/// Removes pack `pack` (`objects/pack/pack-{name}.pack`): its index first, so the pack is
/// never listed without its data.
pub fn remove_pack(pack: &Path) -> Result<()> {
    for path in [pack.with_extension("idx"), pack.to_path_buf()] {
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(CheckpointError::io(&path, &e));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The object ids a version 2 pack index (`.idx`) lists.
pub fn pack_index_ids(path: &Path) -> Result<Vec<Oid>> {
    Ok(read_index(path)?.into_iter().map(|o| o.id).collect())
}

/// Writes the pack `builder` holds into `objects/pack/`, flushes it and its index to disk
/// and makes the object database list it; its path.
pub fn write_synced(repo: &Repository, builder: &mut git2::PackBuilder<'_>) -> Result<PathBuf> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let dir = pack_dir(repo);
    std::fs::create_dir_all(&dir).map_err(|e| CheckpointError::io(&dir, &e))?;
    builder.write(&dir, 0).map_err(|e| git("write pack", &e))?;
    let name = builder
        .name()
        .map_err(|e| git("pack name", &e))?
        .map(str::to_string)
        .ok_or_else(|| CheckpointError::Storage {
            path: dir.clone(),
            message: "the pack builder named no pack".into(),
        })?;
    let pack = pack_path(&dir, &name);
    sync_file(&pack)?;
    sync_file(&pack.with_extension("idx"))?;
    sync_dir(&dir)?;
    repo.odb()
        .and_then(|odb| odb.refresh())
        .map_err(|e| git("refresh the object database", &e))?;
    Ok(pack)
}

/// Writes `encoded` into `objects/pack/` (the pack, then its index, both flushed to disk
/// with the folder) and makes the object database list it; the pack's path.
pub fn write_encoded(repo: &Repository, encoded: &EncodedPack) -> Result<PathBuf> {
    let dir = pack_dir(repo);
    std::fs::create_dir_all(&dir).map_err(|e| CheckpointError::io(&dir, &e))?;
    let pack = pack_path(&dir, &encoded.name);
    let index = pack.with_extension("idx");
    replace_files(&[(&pack, &encoded.pack), (&index, &encoded.index)])
        .map_err(|e| CheckpointError::io(&pack, &e))?;
    repo.odb()
        .and_then(|odb| odb.refresh())
        .map_err(|e| CheckpointError::git(repo.path(), "refresh the object database", &e))?;
    Ok(pack)
}

fn objects_dir(repo: &Repository) -> PathBuf {
    repo.commondir().join("objects")
}

/// `objects/pack/` of `repo`.
pub fn pack_dir(repo: &Repository) -> PathBuf {
    objects_dir(repo).join("pack")
}

/// The pack named `name` in the pack folder `dir`: `{dir}/pack-{name}.pack`.
pub fn pack_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("pack-{name}.pack"))
}

/// Flushes the file at `path` to disk.
pub fn sync_file(path: &Path) -> Result<()> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| CheckpointError::io(path, &e))
}

/// Flushes folder `dir`'s entries to disk.
pub fn sync_dir(dir: &Path) -> Result<()> {
    File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(|e| CheckpointError::io(dir, &e))
}
