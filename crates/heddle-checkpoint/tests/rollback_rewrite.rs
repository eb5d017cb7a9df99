//! A rollback rewrites the run's files where they are (no new file for the file system to
//! allocate) only when that cannot write anything but the run's own file: a file with a
//! second name is replaced, never written through, and the executable bit follows the
//! checkpoint either way.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use support::{Run, read, write};

fn inode(path: &Path) -> u64 {
    std::fs::symlink_metadata(path).unwrap().ino()
}

/// What a handle opened before the rollback reads now: the new bytes when the file was
/// rewritten where it is, the old ones when it was replaced (whatever inode number the
/// file system gives the new file).
fn content_through(file: &mut std::fs::File) -> String {
    use std::io::{Read, Seek};
    let mut text = String::new();
    file.rewind().unwrap();
    file.read_to_string(&mut text).unwrap();
    text
}

fn executable(path: &Path) -> bool {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
}

#[test]
fn a_plain_file_of_the_run_is_rewritten_where_it_is() {
    let (mut run, first) = Run::a_txt_edited_once("two, longer\n");
    let mut held = std::fs::File::open(run.work.join("a.txt")).unwrap();

    let report = run.rollback(&first, false);

    assert_eq!(report.written, ["a.txt"]);
    assert_eq!(read(&run.work.join("a.txt")), "one\n");
    assert_eq!(content_through(&mut held), "one\n", "the file was replaced");
}

#[test]
fn a_file_with_a_second_name_outside_is_replaced_not_written_through() {
    let (mut run, first) = Run::a_txt_edited_once("two\n");
    run.session = None;
    // Another name for the same file, outside the work tree.
    let outside = run.outside().join("precious.txt");
    std::fs::hard_link(run.work.join("a.txt"), &outside).unwrap();

    run.rollback(&first, false);

    assert_eq!(read(&run.work.join("a.txt")), "one\n");
    assert_eq!(read(&outside), "two\n");
    assert_ne!(inode(&run.work.join("a.txt")), inode(&outside));
}

#[test]
fn the_executable_bit_follows_the_checkpoint_both_ways() {
    let mut run = Run::new(&[("run.sh", "echo one\n")]);
    let plain = run.checkpoint("plain");
    let script = run.work.join("run.sh");
    write(&script, "echo two\n");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let made_executable = run.checkpoint("executable");

    run.rollback(&plain, false);
    assert_eq!(read(&script), "echo one\n");
    assert!(!executable(&script));

    run.rollback(&made_executable, false);
    assert_eq!(read(&script), "echo two\n");
    assert!(executable(&script));
    // Executable by whoever may read it, as git checks a script out.
    let mode = std::fs::metadata(&script).unwrap().permissions().mode();
    assert_eq!((mode & 0o444) >> 2, mode & 0o111, "{mode:o}");
}

#[test]
fn a_file_given_a_set_id_bit_is_made_afresh_without_it() {
    let mut run = Run::new(&[("tool.sh", "echo one\n")]);
    let tool = run.work.join("tool.sh");
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let first = run.checkpoint("first");
    write(&tool, "echo two\n");
    run.checkpoint("second");
    run.session = None;
    // Same bytes, same git mode: not a change the scan stops at.
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o4755)).unwrap();
    let mut held = std::fs::File::open(&tool).unwrap();

    run.rollback(&first, false);

    assert_eq!(read(&tool), "echo one\n");
    let mode = std::fs::metadata(&tool).unwrap().permissions().mode();
    assert_eq!(mode & 0o7000, 0, "{mode:o}");
    assert!(executable(&tool));
    assert_eq!(content_through(&mut held), "echo two\n", "written in place");
}
