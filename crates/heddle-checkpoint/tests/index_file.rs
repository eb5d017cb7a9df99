//! Heddle's own index reader and writer against libgit2 and the git CLI on real
//! repositories: what one writes, the others read entry for entry, tree cache included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;

use git2::{Index, IndexAddOption, IndexEntry, IndexTime, Oid, Repository};
use heddle_checkpoint::index_file::RunIndex;
use support::{git, write};

/// A repository with nested folders, an executable, a link and a file at the top, all
/// added through libgit2, whose index (with its tree cache) libgit2 wrote; and that tree.
fn repository(dir: &Path) -> (Repository, Oid) {
    git(dir, &["init", "-q", "."]);
    for (path, content) in [
        ("top.txt", "top\n"),
        ("src/a.rs", "a\n"),
        ("src/b.rs", "b\n"),
        ("src/deep/er/c.rs", "c\n"),
        ("docs/readme.md", "read me\n"),
        ("z-last", "z\n"),
    ] {
        write(&dir.join(path), content);
    }
    let run = dir.join("run.sh");
    write(&run, "#!/bin/sh\n");
    std::fs::set_permissions(&run, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink("top.txt", dir.join("link")).unwrap();
    let repo = Repository::open(dir).unwrap();
    let mut index = repo.index().unwrap();
    index.add_all(["*"], IndexAddOption::DEFAULT, None).unwrap();
    let tree = index.write_tree().unwrap();
    index.write().unwrap();
    drop(index);
    (repo, tree)
}

fn libgit2_entries(path: &Path) -> Vec<IndexEntry> {
    Index::open(path).unwrap().iter().collect()
}

fn same(a: &[IndexEntry], b: &[&IndexEntry]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.path, y.path);
        assert_eq!(
            (x.id, x.mode, x.file_size, x.ino, x.dev),
            (y.id, y.mode, y.file_size, y.ino, y.dev)
        );
        assert_eq!(
            (x.mtime, x.ctime, x.uid, x.gid),
            (y.mtime, y.ctime, y.uid, y.gid)
        );
        assert_eq!(
            x.flags & 0x7000,
            y.flags & 0x7000,
            "stage and extended bit of {:?}",
            x.path
        );
    }
}

#[test]
fn an_index_libgit2_wrote_reads_the_same_and_saves_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, tree) = repository(dir.path());
    let path = repo.path().join("index");
    let before = std::fs::read(&path).unwrap();
    let mut index = RunIndex::open(&path).unwrap();
    same(&libgit2_entries(&path), &index.merged());
    assert_eq!(
        index.cached_tree(),
        Some(tree),
        "the tree cache names the tree"
    );
    assert_eq!(index.get(b"src/a.rs").map(|e| e.mode), Some(0o100644));
    assert_eq!(index.get(b"run.sh").map(|e| e.mode), Some(0o100755));
    assert_eq!(index.get(b"link").map(|e| e.mode), Some(0o120000));
    assert!(index.get(b"src").is_none());
    index.save().unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the same bytes, checksum included"
    );
}

#[test]
fn edits_are_saved_where_libgit2_and_git_read_them_with_the_tree_cache_kept_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, _) = repository(dir.path());
    let path = repo.path().join("index");
    // The same edits through libgit2, for the expected entries and tree.
    write(&dir.path().join("src/new.rs"), "new\n");
    write(&dir.path().join("src/deep/er/c.rs"), "changed\n");
    std::fs::remove_file(dir.path().join("docs/readme.md")).unwrap();
    let expected_tree;
    let expected;
    {
        let mut index = Index::open(&path).unwrap();
        repo.set_index(&mut index).unwrap();
        index.add_path(Path::new("src/new.rs")).unwrap();
        index.add_path(Path::new("src/deep/er/c.rs")).unwrap();
        index.remove_path(Path::new("docs/readme.md")).unwrap();
        expected_tree = index.write_tree().unwrap();
        expected = index.iter().collect::<Vec<_>>();
    }
    let mut index = RunIndex::open(&path).unwrap();
    for edited in ["src/new.rs", "src/deep/er/c.rs"] {
        let mut scratch = Index::new().unwrap();
        repo.set_index(&mut scratch).unwrap();
        scratch.add_path(Path::new(edited)).unwrap();
        index.put(scratch.get_path(Path::new(edited), 0).unwrap());
    }
    index.remove(b"docs/readme.md");
    assert_eq!(
        index.cached_tree(),
        None,
        "edited: the cached root no longer counts"
    );
    assert!(index.get(b"docs/readme.md").is_none());
    assert_eq!(
        index.get(b"src/new.rs").map(|e| e.id),
        expected
            .iter()
            .find(|e| e.path == b"src/new.rs")
            .map(|e| e.id)
    );
    index.save().unwrap();

    same(
        &expected,
        &libgit2_entries(&path).iter().collect::<Vec<_>>(),
    );
    let mut reread = Index::open(&path).unwrap();
    assert_eq!(reread.write_tree_to(&repo).unwrap(), expected_tree);
    // The edited folders were invalidated in the tree cache, the root with them.
    let cache = RunIndex::open(&path).unwrap();
    assert_eq!(cache.cached_tree(), None);
    // diff-files trusts stat data alone: any entry whose stat data is off shows up.
    assert_eq!(
        git(dir.path(), &["diff-files", "--name-only"]),
        "",
        "git sees the work tree as the index has it"
    );
    assert!(git(dir.path(), &["ls-files", "-s"]).contains("src/new.rs"));
}

#[test]
fn a_version_4_index_git_wrote_is_read_like_libgit2_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, _) = repository(dir.path());
    git(dir.path(), &["update-index", "--index-version", "4"]);
    let path = repo.path().join("index");
    let index = RunIndex::open(&path).unwrap();
    same(&libgit2_entries(&path), &index.merged());
}

#[test]
fn a_path_longer_than_the_length_field_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, _) = repository(dir.path());
    let path = repo.path().join("index");
    let long = format!("{}/file", "d".repeat(5000)).into_bytes();
    let mut index = RunIndex::open(&path).unwrap();
    index.put(IndexEntry {
        ctime: IndexTime::new(1, 2),
        mtime: IndexTime::new(3, 4),
        dev: 5,
        ino: 6,
        mode: 0o100644,
        uid: 7,
        gid: 8,
        file_size: 9,
        id: Oid::from_str("4b825dc642cb6eb9a060e54bf8d69288fbee4904").unwrap(),
        flags: 0,
        flags_extended: 0,
        path: long.clone(),
    });
    index.save().unwrap();
    assert!(libgit2_entries(&path).iter().any(|e| e.path == long));
    assert_eq!(
        RunIndex::open(&path)
            .unwrap()
            .get(&long)
            .map(|e| e.file_size),
        Some(9)
    );
}

#[test]
fn a_damaged_index_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, _) = repository(dir.path());
    let path = repo.path().join("index");
    let bytes = std::fs::read(&path).unwrap();
    for cut in [10, 40, 200, bytes.len() - 30] {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let error = RunIndex::open(&path).unwrap_err().to_string();
        assert!(
            error.contains("delete it and resume"),
            "cut at {cut}: {error}"
        );
    }
    // A count far beyond the file's size is refused without allocating for it.
    let mut huge = bytes.clone();
    huge[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
    std::fs::write(&path, &huge).unwrap();
    assert!(RunIndex::open(&path).is_err());
    std::fs::remove_file(&path).unwrap();
    assert!(
        RunIndex::open(&path).unwrap().merged().is_empty(),
        "no file: an empty index"
    );
}

#[test]
fn no_single_damaged_byte_makes_the_reader_fail_other_than_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, _) = repository(dir.path());
    let path = repo.path().join("index");
    let bytes = std::fs::read(&path).unwrap();
    let mut opened = 0;
    for at in 0..bytes.len() - 20 {
        for value in [0x00, 0xff, b'/', bytes[at] ^ 0x80] {
            let mut damaged = bytes.clone();
            damaged[at] = value;
            std::fs::write(&path, &damaged).unwrap();
            // Either read (a damaged stat field is still an index) or refused; never a panic.
            opened += usize::from(RunIndex::open(&path).is_ok());
        }
    }
    assert!(opened > 0);
}
