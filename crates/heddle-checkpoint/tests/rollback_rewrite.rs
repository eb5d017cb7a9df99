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

fn executable(path: &Path) -> bool {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
}

#[test]
fn a_plain_file_of_the_run_is_rewritten_where_it_is() {
    let mut run = Run::new(&[("a.txt", "one\n")]);
    let first = run.checkpoint("first");
    write(&run.work.join("a.txt"), "two, longer\n");
    run.checkpoint("second");
    let before = inode(&run.work.join("a.txt"));

    let report = run.rollback(&first, false);

    assert_eq!(report.written, ["a.txt"]);
    assert_eq!(read(&run.work.join("a.txt")), "one\n");
    assert_eq!(inode(&run.work.join("a.txt")), before);
}

#[test]
fn a_file_with_a_second_name_outside_is_replaced_not_written_through() {
    let mut run = Run::new(&[("a.txt", "one\n")]);
    let first = run.checkpoint("first");
    write(&run.work.join("a.txt"), "two\n");
    run.checkpoint("second");
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
