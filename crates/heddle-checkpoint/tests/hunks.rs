//! Structured hunks of a checkpoint diff and of patch text, on real git commits.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use git2::{Oid, Repository, Signature};
use heddle_checkpoint::diff::{FileChange, FileStatus, LineKind, diff};
use heddle_checkpoint::patch_text::{CUT_NOTE, read_patch};
use heddle_checkpoint::tree_diff::{diff_trees, patch_bytes};

/// Commits exactly `files` (path, bytes, executable) as the whole tree.
fn commit(repo: &Repository, files: &[(&str, &[u8], bool)]) -> Oid {
    let mut index = repo.index().unwrap();
    index.clear().unwrap();
    for (path, bytes, exec) in files {
        let entry = git2::IndexEntry {
            ctime: git2::IndexTime::new(0, 0),
            mtime: git2::IndexTime::new(0, 0),
            dev: 0,
            ino: 0,
            mode: if *exec { 0o100755 } else { 0o100644 },
            uid: 0,
            gid: 0,
            file_size: 0,
            id: Oid::ZERO_SHA1,
            flags: 0,
            flags_extended: 0,
            path: path.as_bytes().to_vec(),
        };
        index.add_frombuffer(&entry, bytes).unwrap();
    }
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = Signature::new("t", "t@example.com", &git2::Time::new(0, 0)).unwrap();
    repo.commit(None, &sig, &sig, "c", &tree, &[]).unwrap()
}

fn file<'a>(files: &'a [FileChange], path: &str) -> &'a FileChange {
    files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no {path} in {files:#?}"))
}

const LONG: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

fn fixture() -> (tempfile::TempDir, Repository, Oid, Oid) {
    let dir = tempfile::tempdir().unwrap();
    let repo = Repository::init(dir.path()).unwrap();
    let before = commit(
        &repo,
        &[
            ("edit.txt", b"a\nb\nc\n", false),
            ("gone.txt", b"bye\n", false),
            ("old/name.txt", LONG.as_bytes(), false),
            ("image.bin", b"\x00\x01\x02", false),
            ("tail.txt", b"x\ny", false),
            ("run.sh", b"echo\n", false),
        ],
    );
    let after = commit(
        &repo,
        &[
            ("edit.txt", b"a\nB\nc\n", false),
            ("new.txt", b"hello\nworld\n", false),
            ("new/name.txt", LONG.replace("ten", "TEN").as_bytes(), false),
            ("image.bin", b"\x00\x01\x03", false),
            ("tail.txt", b"x\nz", false),
            ("run.sh", b"echo\n", true),
        ],
    );
    (dir, repo, before, after)
}

#[test]
fn a_checkpoint_diff_carries_each_files_hunks_with_numbered_lines() {
    let (_dir, repo, before, after) = fixture();
    let files = diff(&repo, before, after).unwrap().files;

    let edit = file(&files, "edit.txt");
    assert_eq!(edit.status, FileStatus::Modified);
    assert_eq!((edit.additions, edit.deletions), (1, 1));
    let hunk = &edit.hunks[0];
    assert_eq!(hunk.header, "@@ -1,3 +1,3 @@");
    assert_eq!(
        (
            hunk.old_start,
            hunk.old_count,
            hunk.new_start,
            hunk.new_count
        ),
        (1, 3, 1, 3)
    );
    let lines: Vec<_> = hunk
        .lines
        .iter()
        .map(|l| (l.kind, l.text.as_str(), l.old_line, l.new_line))
        .collect();
    assert_eq!(
        lines,
        [
            (LineKind::Context, "a", Some(1), Some(1)),
            (LineKind::Removed, "b", Some(2), None),
            (LineKind::Added, "B", None, Some(2)),
            (LineKind::Context, "c", Some(3), Some(3)),
        ]
    );

    let added = file(&files, "new.txt");
    assert_eq!(added.status, FileStatus::Added);
    assert_eq!(added.old_path, None);
    assert_eq!((added.hunks[0].old_start, added.hunks[0].old_count), (0, 0));
    assert_eq!(added.hunks[0].lines[1].new_line, Some(2));

    let deleted = file(&files, "gone.txt");
    assert_eq!(deleted.status, FileStatus::Deleted);
    assert_eq!(deleted.hunks[0].lines[0].kind, LineKind::Removed);
    assert_eq!(deleted.hunks[0].lines[0].text, "bye");

    let renamed = file(&files, "new/name.txt");
    assert_eq!(renamed.status, FileStatus::Renamed);
    assert_eq!(renamed.old_path.as_deref(), Some("old/name.txt"));
    assert_eq!((renamed.additions, renamed.deletions), (1, 1));
    let last = renamed.hunks[0].lines.last().unwrap();
    assert_eq!(
        (last.kind, last.text.as_str(), last.new_line),
        (LineKind::Added, "TEN", Some(10))
    );

    let binary = file(&files, "image.bin");
    assert!(binary.binary);
    assert!(binary.hunks.is_empty());

    let tail = file(&files, "tail.txt");
    let kinds: Vec<_> = tail.hunks[0].lines.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        [
            LineKind::Context,
            LineKind::Removed,
            LineKind::NoNewline,
            LineKind::Added,
            LineKind::NoNewline
        ]
    );
    assert_eq!(tail.hunks[0].lines[2].text, "\\ No newline at end of file");

    let mode = file(&files, "run.sh");
    let change = mode.mode_change.as_ref().unwrap();
    assert_eq!(
        (change.from.as_str(), change.to.as_str()),
        ("100644", "100755")
    );
    assert!(mode.hunks.is_empty());
}

#[test]
fn a_huge_file_is_counted_but_sent_without_hunks() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Repository::init(dir.path()).unwrap();
    let big: String = (0..25_000).map(|i| format!("line {i}\n")).collect();
    let before = commit(&repo, &[("small.txt", b"a\n", false)]);
    let after = commit(
        &repo,
        &[
            ("small.txt", b"b\n", false),
            ("big.txt", big.as_bytes(), false),
        ],
    );
    let files = diff(&repo, before, after).unwrap().files;
    let big = file(&files, "big.txt");
    assert!(big.too_large);
    assert!(big.hunks.is_empty());
    assert_eq!(big.additions, 25_000);
    assert!(!file(&files, "small.txt").too_large);
}

/// The patch text of the fixture's change, as a stage's diff.patch holds it.
fn fixture_patch() -> Vec<u8> {
    let (_dir, repo, before, after) = fixture();
    let old = repo.find_commit(before).unwrap().tree().unwrap();
    let new = repo.find_commit(after).unwrap().tree().unwrap();
    let mut options = git2::DiffOptions::new();
    let diff = diff_trees(&repo, &old, &new, options.show_binary(false))
        .unwrap()
        .unwrap();
    patch_bytes(&diff, usize::MAX).unwrap().0
}

#[test]
fn patch_text_reads_back_as_the_same_files_and_hunks() {
    let read = read_patch(&fixture_patch()).unwrap();
    assert!(!read.cut);
    let edit = file(&read.files, "edit.txt");
    assert_eq!(edit.hunks[0].lines[2].kind, LineKind::Added);
    assert_eq!(edit.hunks[0].lines[2].new_line, Some(2));
    assert_eq!(file(&read.files, "new.txt").status, FileStatus::Added);
    assert_eq!(file(&read.files, "gone.txt").status, FileStatus::Deleted);
    assert!(file(&read.files, "image.bin").binary);
    let tail = file(&read.files, "tail.txt");
    assert_eq!(tail.hunks[0].lines[2].kind, LineKind::NoNewline);
    assert!(read_patch(b"").unwrap().files.is_empty());
}

#[test]
fn a_cut_patch_drops_the_file_it_was_cut_in_and_says_so() {
    let mut patch = fixture_patch();
    let second = patch
        .windows(12)
        .enumerate()
        .filter(|(_, w)| *w == b"\ndiff --git ")
        .nth(1)
        .unwrap()
        .0;
    patch.truncate(second + 40);
    patch.extend_from_slice(format!("\n{CUT_NOTE}\n").as_bytes());
    let read = read_patch(&patch).unwrap();
    assert!(read.cut);
    assert_eq!(read.files.len(), 2, "{:#?}", read.files);
}
