//! Writing entries and a tree cache as an index file git and libgit2 read: version 2, or
//! 3 when an entry has extended flags (intent-to-add, skip-worktree), with a `TREE`
//! extension and the SHA-1 checksum at the end.

use git2::IndexEntry;
use sha1::{Digest, Sha1};

use super::parse::{ENTRY_FIXED, EXTENDED, NAME_MASK};
use super::tree_cache::CachedTree;

/// The extended flags git writes to disk (intent-to-add, skip-worktree); the others are
/// libgit2's in-memory bits.
const DISK_EXTENDED: u16 = 0x6000;

/// The bytes of the index file holding `entries` (sorted by path, then stage) and `tree`.
pub fn serialize(entries: &[&IndexEntry], tree: Option<&CachedTree>) -> Vec<u8> {
    let extended = entries
        .iter()
        .any(|e| e.flags_extended & DISK_EXTENDED != 0);
    let mut out = Vec::with_capacity(64 + entries.len() * 96);
    out.extend_from_slice(b"DIRC");
    out.extend_from_slice(&(if extended { 3u32 } else { 2 }).to_be_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
    for entry in entries {
        write_entry(&mut out, entry);
    }
    if let Some(tree) = tree {
        let mut data = Vec::new();
        tree.write(&mut data);
        out.extend_from_slice(b"TREE");
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        out.extend_from_slice(&data);
    }
    let checksum = Sha1::digest(&out);
    out.extend_from_slice(&checksum);
    out
}

fn write_entry(out: &mut Vec<u8>, entry: &IndexEntry) {
    let start = out.len();
    for word in [
        entry.ctime.seconds() as u32,
        entry.ctime.nanoseconds(),
        entry.mtime.seconds() as u32,
        entry.mtime.nanoseconds(),
        entry.dev,
        entry.ino,
        entry.mode,
        entry.uid,
        entry.gid,
        entry.file_size,
    ] {
        out.extend_from_slice(&word.to_be_bytes());
    }
    out.extend_from_slice(entry.id.as_bytes());
    let extended = entry.flags_extended & DISK_EXTENDED;
    let name_length = entry.path.len().min(usize::from(NAME_MASK)) as u16;
    let mut flags = (entry.flags & !(NAME_MASK | EXTENDED)) | name_length;
    if extended != 0 {
        flags |= EXTENDED;
    }
    out.extend_from_slice(&flags.to_be_bytes());
    if extended != 0 {
        out.extend_from_slice(&extended.to_be_bytes());
    }
    out.extend_from_slice(&entry.path);
    let written = out.len() - start;
    debug_assert!(written >= ENTRY_FIXED);
    // 1 to 8 NULs, to a multiple of 8 bytes.
    let padded = (written + 8) & !7;
    out.resize(start + padded, 0);
}
