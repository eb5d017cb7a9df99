//! The recovery snapshot a rollback takes finds everything the work tree holds that the run
//! would checkpoint, however it got there: new files in folders the last scan saw
//! unchanged, in new folders, in empty folders, in a folder whose modification time was set
//! back, files a `.gitignore` change un-ignores, and deleted files. Each scenario first rolls
//! back once (so the run's index and whatever a scan remembers are fresh), changes the work
//! tree, then rolls back again: the second snapshot must hold the change, and the files
//! the restore removes stay readable from it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;
use std::time::{Duration, SystemTime};

use support::{Run, write};

/// A run with two checkpoints, rolled back to the first and forward to the second, so
/// the next rollback starts from an index (and any scan cache) a rollback just wrote;
/// the two shas.
fn rolled_back_and_forth(files: &[(&str, &str)]) -> (Run, String, String) {
    rolled_back_and_forth_after(files, |_| {})
}

/// [`rolled_back_and_forth`], with `prepare` changing the work tree before the first
/// checkpoint.
fn rolled_back_and_forth_after(
    files: &[(&str, &str)],
    prepare: impl FnOnce(&Run),
) -> (Run, String, String) {
    let mut run = Run::new(files);
    prepare(&run);
    let first = run.checkpoint("one");
    write(&run.work.join("changed.txt"), "second\n");
    let second = run.checkpoint("two");
    run.rollback(&first, false);
    run.rollback(&second, false);
    // Later changes are in another tick of the file system clock than the index.
    std::thread::sleep(Duration::from_millis(30));
    (run, first, second)
}

/// The content of `path` in commit `sha`, if it holds it.
fn blob_at(run: &Run, sha: &str, path: &str) -> Option<String> {
    let repo = git2::Repository::open(&run.work).unwrap();
    let commit = repo.find_commit(git2::Oid::from_str(sha).unwrap()).unwrap();
    let entry = commit.tree().unwrap().get_path(Path::new(path)).ok()?;
    let blob = repo.find_blob(entry.id()).unwrap();
    Some(String::from_utf8(blob.content().to_vec()).unwrap())
}

fn set_modified(path: &Path, time: SystemTime) {
    std::fs::File::open(path)
        .unwrap()
        .set_modified(time)
        .unwrap();
}

#[test]
fn a_new_file_in_an_unchanged_folder_is_in_the_snapshot() {
    let (mut run, first, _) =
        rolled_back_and_forth(&[("dir/a.txt", "a\n"), ("dir/sub/b.txt", "b\n")]);
    write(&run.work.join("dir/sub/new.txt"), "new\n");
    let report = run.rollback(&first, true);
    assert_eq!(
        blob_at(&run, &report.recovery_sha, "dir/sub/new.txt").as_deref(),
        Some("new\n")
    );
    assert!(!run.work.join("dir/sub/new.txt").exists());
}

#[test]
fn a_new_file_in_a_new_folder_is_in_the_snapshot() {
    let (mut run, first, _) = rolled_back_and_forth(&[("dir/a.txt", "a\n")]);
    write(&run.work.join("dir/fresh/deeper/new.txt"), "fresh\n");
    let report = run.rollback(&first, true);
    assert_eq!(
        blob_at(&run, &report.recovery_sha, "dir/fresh/deeper/new.txt").as_deref(),
        Some("fresh\n")
    );
}

#[test]
fn a_new_file_in_a_folder_that_was_empty_is_in_the_snapshot() {
    let (mut run, first, _) = rolled_back_and_forth_after(&[("a.txt", "a\n")], |run| {
        std::fs::create_dir_all(run.work.join("empty/inner")).unwrap();
    });
    write(&run.work.join("empty/inner/late.txt"), "late\n");
    let report = run.rollback(&first, true);
    assert_eq!(
        blob_at(&run, &report.recovery_sha, "empty/inner/late.txt").as_deref(),
        Some("late\n")
    );
}

#[test]
fn a_new_file_in_a_folder_whose_time_was_set_back_is_in_the_snapshot() {
    let (mut run, first, _) = rolled_back_and_forth(&[("dir/a.txt", "a\n")]);
    let dir = run.work.join("dir");
    let before = std::fs::metadata(&dir).unwrap().modified().unwrap();
    write(&dir.join("hidden.txt"), "hidden\n");
    // As a tool that restores timestamps (tar, rsync -t) would leave it.
    set_modified(&dir, before);
    assert_eq!(std::fs::metadata(&dir).unwrap().modified().unwrap(), before);
    let report = run.rollback(&first, true);
    assert_eq!(
        blob_at(&run, &report.recovery_sha, "dir/hidden.txt").as_deref(),
        Some("hidden\n")
    );
}

#[test]
fn files_a_gitignore_change_un_ignores_are_in_the_snapshot() {
    let (mut run, first, _) = rolled_back_and_forth(&[
        (".gitignore", "logs/\n*.tmp\n"),
        ("src/main.rs", "fn main() {}\n"),
    ]);
    write(&run.work.join("logs/run.log"), "log\n");
    write(&run.work.join("src/scratch.tmp"), "tmp\n");
    // One more rollback, so the ignored files are seen (and skipped) by a scan first.
    let report = run.rollback(&first, true);
    assert_eq!(blob_at(&run, &report.recovery_sha, "logs/run.log"), None);
    std::thread::sleep(Duration::from_millis(30));
    write(&run.work.join(".gitignore"), "\n");
    let report = run.rollback(&first, true);
    assert_eq!(
        blob_at(&run, &report.recovery_sha, "logs/run.log").as_deref(),
        Some("log\n")
    );
    assert_eq!(
        blob_at(&run, &report.recovery_sha, "src/scratch.tmp").as_deref(),
        Some("tmp\n")
    );
}

#[test]
fn a_deleted_file_is_missing_from_the_snapshot_and_restored() {
    let (mut run, first, _) = rolled_back_and_forth(&[("dir/a.txt", "a\n"), ("dir/b.txt", "b\n")]);
    std::fs::remove_file(run.work.join("dir/b.txt")).unwrap();
    let report = run.rollback(&first, true);
    assert_eq!(blob_at(&run, &report.recovery_sha, "dir/b.txt"), None);
    assert_eq!(
        blob_at(&run, &report.recovery_sha, "dir/a.txt").as_deref(),
        Some("a\n")
    );
    assert_eq!(support::read(&run.work.join("dir/b.txt")), "b\n");
}

#[test]
fn an_unchanged_work_tree_snapshots_the_checkpoint_it_is_at() {
    let (mut run, first, second) = rolled_back_and_forth(&[("dir/a.txt", "a\n")]);
    let report = run.rollback(&first, false);
    assert_eq!(run.tree_of(&report.recovery_sha), run.tree_of(&second));
}
