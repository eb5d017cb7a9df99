//! The tree a saved index names, remembered next to it (`{index}.heddle-tree`) when a
//! restore wrote it: libgit2 drops its cached trees for every path a restore adds, and
//! building the tree again re-reads every tree object of the work tree. The stamp holds
//! the index file's size and trailing checksum with the tree; it counts only while the
//! index file is byte for byte the one stamped, so an index written by anything else
//! (git itself, an older Heddle) is never trusted from it.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use git2::Oid;
use heddle_engine::atomic_file::replace_file;

/// How many bytes of the index file's end identify it (its SHA-1 or SHA-256 checksum).
const TRAILER: u64 = 32;

fn stamp_path(index: &Path) -> PathBuf {
    let mut name = index.as_os_str().to_os_string();
    name.push(".heddle-tree");
    PathBuf::from(name)
}

/// The size and trailing bytes of the index file, hex-encoded.
fn identity(index: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(index)?;
    let size = file.metadata()?.len();
    let mut trailer = Vec::new();
    file.seek(SeekFrom::Start(size.saturating_sub(TRAILER)))?;
    file.take(TRAILER).read_to_end(&mut trailer)?;
    Ok(format!("{size} {}", hex::encode(trailer)))
}

/// Records that the index file at `index`, as it is now, names `tree`. Without flushing:
/// a stamp lost in a crash only costs the next scan a tree rebuild.
pub fn stamp(index: &Path, tree: Oid) -> std::io::Result<()> {
    let line = format!("{} {tree}\n", identity(index)?);
    replace_file(&stamp_path(index), line.as_bytes(), false)
}

/// The tree the index file at `index` names, when it is the one stamped.
pub fn stamped(index: &Path) -> Option<Oid> {
    let line = std::fs::read_to_string(stamp_path(index)).ok()?;
    let (id, tree) = line.trim_end().rsplit_once(' ')?;
    (id == identity(index).ok()?).then(|| Oid::from_str(tree).ok())?
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_stamp_counts_only_for_the_index_file_it_was_made_for() {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join("index");
        assert_eq!(stamped(&index), None);
        std::fs::write(&index, b"DIRC entries ... checksum-one-0123456789abcdef").unwrap();
        let tree = Oid::from_str("4b825dc642cb6eb9a060e54bf8d69288fbee4904").unwrap();
        stamp(&index, tree).unwrap();
        assert_eq!(stamped(&index), Some(tree));
        std::fs::write(&index, b"DIRC entries ... checksum-two-0123456789abcdef").unwrap();
        assert_eq!(stamped(&index), None);
        std::fs::write(
            &index,
            b"DIRC other entries ... checksum-one-0123456789abcdef",
        )
        .unwrap();
        assert_eq!(stamped(&index), None, "same trailer, other size");
    }
}
