//! The run's timeline.jsonl in the metadata tree, cut into fixed-size chunks so a metadata
//! commit stores only what changed: chunk `k` holds bytes `[k * CHUNK_BYTES, (k + 1) *
//! CHUNK_BYTES)` of the file, at the tree's layout's [`MetadataLayout::chunk_path`]. After
//! a stage only the last chunk (and the small trees above it) is new, however long the run.
//!
//! Which chunks to write is found from the end: each chunk of the local file is hashed and
//! compared with the tree's, going back until one matches. Normally that is the one before
//! the last; after a rollback (the file cut back and appended to) or a crash between the
//! checkpoint and its metadata commit, it is wherever the file and the tree last agree.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use git2::build::TreeUpdateBuilder;
use git2::{FileMode, ObjectType, Oid, Repository, Tree};

use crate::error::{CheckpointError, Result};
use crate::metadata_layout::MetadataLayout;

/// Bytes of timeline.jsonl per chunk.
pub const CHUNK_BYTES: u64 = 16 * 1024;

/// Adds to `update` the chunks of the first `bytes` bytes of the file at `path` that
/// differ from those in `base`, and removes chunks of `base` past them.
pub fn update_chunks(
    repo: &Repository,
    update: &mut TreeUpdateBuilder,
    base: &Tree<'_>,
    path: &Path,
    bytes: u64,
) -> Result<()> {
    let io = |e: std::io::Error| CheckpointError::io(path, &e);
    let mut file = None;
    update_chunks_with(
        repo,
        update,
        base,
        bytes,
        &path.to_string_lossy(),
        |start, len| {
            let file = match &mut file {
                Some(file) => file,
                None => file.insert(File::open(path).map_err(io)?),
            };
            let mut chunk = vec![0; usize::try_from(len).unwrap_or(0)];
            file.seek(SeekFrom::Start(start)).map_err(io)?;
            file.read_exact(&mut chunk).map_err(io)?;
            Ok(chunk)
        },
    )
}

/// [`update_chunks`] for a timeline.jsonl held in memory, `text` whole.
pub fn update_chunks_from_text(
    repo: &Repository,
    update: &mut TreeUpdateBuilder,
    base: &Tree<'_>,
    text: &[u8],
) -> Result<()> {
    update_chunks_with(
        repo,
        update,
        base,
        text.len() as u64,
        "timeline.jsonl",
        |start, len| {
            let start = usize::try_from(start).unwrap_or(usize::MAX);
            let end = start.saturating_add(usize::try_from(len).unwrap_or(0));
            Ok(text.get(start..end).unwrap_or_default().to_vec())
        },
    )
}

/// The chunks of a `bytes`-long history whose chunk at an offset and length `read` gives
/// (`what` names it in errors), compared with `base` from the end as the module says.
fn update_chunks_with(
    repo: &Repository,
    update: &mut TreeUpdateBuilder,
    base: &Tree<'_>,
    bytes: u64,
    what: &str,
    mut read: impl FnMut(u64, u64) -> Result<Vec<u8>>,
) -> Result<()> {
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let layout = MetadataLayout::of(base);
    let chunk_path = |k: u64| layout.chunk_path(k);
    let count = bytes.div_ceil(CHUNK_BYTES);
    let mut stale = count;
    while base.get_path(Path::new(&chunk_path(stale))).is_ok() {
        update.remove(chunk_path(stale));
        stale += 1;
    }
    for k in (0..count).rev() {
        let start = k * CHUNK_BYTES;
        let chunk = read(start, (bytes - start).min(CHUNK_BYTES))?;
        let name = chunk_path(k);
        let id = Oid::hash_object(ObjectType::Blob, &chunk).map_err(|e| git(&e))?;
        if base
            .get_path(Path::new(&name))
            .is_ok_and(|entry| entry.id() == id)
        {
            break;
        }
        let blob = repo.blob(&chunk).map_err(|e| git(&e))?;
        update.upsert(name, blob, FileMode::Blob);
    }
    Ok(())
}

/// The first `bytes` bytes of timeline.jsonl as the metadata tree `tree` holds them.
pub fn read_chunks(repo: &Repository, tree: &Tree<'_>, bytes: u64) -> Result<Vec<u8>> {
    let layout = MetadataLayout::of(tree);
    let mut text = Vec::with_capacity(usize::try_from(bytes).unwrap_or(0));
    for k in 0..bytes.div_ceil(CHUNK_BYTES) {
        let name = layout.chunk_path(k);
        let git = |e: &git2::Error| CheckpointError::git(repo.path(), &name, e);
        let entry = tree.get_path(Path::new(&name)).map_err(|e| git(&e))?;
        let blob = repo.find_blob(entry.id()).map_err(|e| git(&e))?;
        text.extend_from_slice(blob.content());
    }
    text.truncate(usize::try_from(bytes).unwrap_or(usize::MAX));
    Ok(text)
}

/// timeline.jsonl of the run folder `root`.
pub fn local_file(root: &Path) -> PathBuf {
    root.join(heddle_engine::timeline_file::TIMELINE_FILE)
}
