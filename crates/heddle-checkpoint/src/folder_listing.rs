//! Reading the work tree's folders for a full scan: one folder's children in git's order
//! with the metadata of its files and links ([`read_folder`]), and all the folders that
//! hold tracked files read ahead on several threads ([`read_ahead`]), so the scan's stat
//! calls, its main cost on a large tree, run side by side as git's preloaded index does.
//!
//! Reading ahead only lists and stats; the scan uses a listing only for a folder it
//! reached through real folders (a folder that became a link is a child it does not
//! enter), so nothing read through a link is ever used.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Below this many tracked files one thread is quicker than starting more.
pub(crate) const READ_AHEAD_FROM: usize = 4096;
/// At most this many threads read ahead.
const MAX_THREADS: usize = 4;

/// A child of a folder.
pub struct Child {
    /// The name, with `/` after a folder's: the order git sorts paths in.
    pub key: Vec<u8>,
    /// A file's or link's metadata (read through the folder's handle: one lookup);
    /// `None` for a folder.
    pub file: Option<std::fs::Metadata>,
}

/// What a folder holds.
pub enum Listing {
    /// Its children, in git's order.
    Children(Vec<Child>),
    /// It is a nested repository (it has a `.git`).
    Nested,
}

/// Reads folder `full` (the work tree's root when `root`: its `.git` is skipped).
pub fn read_folder(full: &Path, root: bool) -> std::io::Result<Listing> {
    let mut children = Vec::new();
    for entry in std::fs::read_dir(full)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == ".git" {
            if root {
                continue;
            }
            return Ok(Listing::Nested);
        }
        let kind = entry.file_type()?;
        let mut key = name.as_bytes().to_vec();
        let file = if kind.is_dir() {
            key.push(b'/');
            None
        } else if kind.is_file() || kind.is_symlink() {
            match entry.metadata() {
                Ok(meta) => Some(meta),
                // Gone since the folder was read.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            }
        } else {
            continue;
        };
        children.push(Child { key, file });
    }
    children.sort_unstable_by(|a, b| a.key.cmp(&b.key));
    Ok(Listing::Children(children))
}

/// Listings read ahead, by folder (`""` for the root, else `a/b/`).
pub type ReadAhead = HashMap<Vec<u8>, std::io::Result<Listing>>;

/// Reads, on several threads, every folder of `work_tree` that holds one of the tracked
/// `paths` (sorted, as the index keeps them); nothing when there are too few to gain.
pub fn read_ahead<'p>(work_tree: &Path, paths: impl Iterator<Item = &'p [u8]>) -> ReadAhead {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(MAX_THREADS);
    let mut count = 0;
    let mut folders: Vec<&[u8]> = vec![b""];
    let mut last: &[u8] = b"";
    for path in paths {
        count += 1;
        let Some(end) = path.iter().rposition(|&b| b == b'/') else {
            continue;
        };
        let parent = &path[..=end];
        if parent == last {
            continue;
        }
        // Every folder on the way that the previous file's folder did not share.
        let shared = last.iter().zip(parent).take_while(|(a, b)| a == b).count();
        for (i, &b) in parent.iter().enumerate().skip(shared) {
            if b == b'/' {
                folders.push(&parent[..=i]);
            }
        }
        last = parent;
    }
    if threads < 2 || count < READ_AHEAD_FROM {
        return ReadAhead::new();
    }
    let next = AtomicUsize::new(0);
    let read = |folders: &[&[u8]]| {
        let mut read = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(folder) = folders.get(i) else {
                return read;
            };
            let full = work_tree.join(OsStr::from_bytes(folder));
            read.push((folder.to_vec(), read_folder(&full, folder.is_empty())));
        }
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| scope.spawn(|| read(&folders)))
            .collect();
        let mut all: ReadAhead = read(&folders).into_iter().collect();
        for helper in helpers {
            // A helper that panicked read nothing usable: the scan reads those itself.
            if let Ok(read) = helper.join() {
                all.extend(read);
            }
        }
        all
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    #[test]
    fn every_folder_of_the_tracked_files_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for i in 0..READ_AHEAD_FROM {
            let path = format!("a{}/b{}/f{i:05}", i % 3, i % 2);
            paths.push(path);
        }
        paths.push("top".into());
        paths.sort();
        for path in &paths {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, "x").unwrap();
        }
        let read = read_ahead(dir.path(), paths.iter().map(|p| p.as_bytes()));
        if std::thread::available_parallelism().map_or(1, usize::from) < 2 {
            assert!(read.is_empty());
            return;
        }
        let mut folders: Vec<String> = read
            .keys()
            .map(|k| String::from_utf8(k.clone()).unwrap())
            .collect();
        folders.sort();
        let expected = [
            "", "a0/", "a0/b0/", "a0/b1/", "a1/", "a1/b0/", "a1/b1/", "a2/", "a2/b0/", "a2/b1/",
        ];
        assert_eq!(folders, expected);
        let Ok(Listing::Children(children)) = &read[b"a1/b0/".as_slice()] else {
            panic!("a1/b0 not listed");
        };
        assert!(children.iter().all(|c| c.file.is_some()));
        let Ok(Listing::Children(root)) = &read[b"".as_slice()] else {
            panic!("root not listed");
        };
        let keys: Vec<&[u8]> = root.iter().map(|c| c.key.as_slice()).collect();
        assert_eq!(keys, [&b"a0/"[..], b"a1/", b"a2/", b"top"]);
    }
}
