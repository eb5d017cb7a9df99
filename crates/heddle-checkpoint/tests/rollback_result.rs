//! What a rollback leaves, as plain git and the run's files see it: the worktree checked
//! out on the new timeline branch, its index matching the restored files (`git status`
//! clean), checkpoint.json naming the target, and the metadata history recording the
//! rollback. The index and the run's files are written side by side; these tests check
//! both landed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::Checkpoint;
use support::{Run, git, read, write};

#[test]
fn the_worktree_follows_the_new_timeline_with_a_clean_index_and_matching_run_files() {
    let mut run = Run::new(&[("a.txt", "one\n"), ("dir/b.txt", "bee\n")]);
    let first = run.checkpoint("first");
    write(&run.work.join("a.txt"), "two\n");
    write(&run.work.join("dir/c.txt"), "sea\n");
    std::fs::remove_file(run.work.join("dir/b.txt")).unwrap();
    let second = run.checkpoint("second");

    let report = run.rollback(&first, false);
    let work = run.work.clone();
    assert_eq!(
        git(&work, &["symbolic-ref", "HEAD"]),
        format!("refs/heads/{}", report.timeline)
    );
    assert_eq!(git(&work, &["rev-parse", "HEAD"]), first);
    assert_eq!(git(&work, &["status", "--porcelain"]), "");
    assert_eq!(read(&work.join("a.txt")), "one\n");
    assert_eq!(read(&work.join("dir/b.txt")), "bee\n");
    assert!(!work.join("dir/c.txt").exists());
    let checkpoint = Checkpoint::load(&run.run_dir.checkpoint()).unwrap();
    assert_eq!(checkpoint.git_commit_sha.as_deref(), Some(first.as_str()));
    assert_eq!(checkpoint.current_node.as_deref(), Some("first"));
    assert!(
        git(&work, &["log", "-1", "--format=%s", "refs/heddle/r1"])
            .ends_with(&format!("rollback to {first}"))
    );

    // And forward again, from the state the first rollback left.
    let report = run.rollback(&second, false);
    assert_eq!(
        git(&work, &["symbolic-ref", "HEAD"]),
        format!("refs/heads/{}", report.timeline)
    );
    assert_eq!(git(&work, &["status", "--porcelain"]), "");
    assert_eq!(read(&work.join("a.txt")), "two\n");
    assert_eq!(read(&work.join("dir/c.txt")), "sea\n");
    assert!(!work.join("dir/b.txt").exists());
    let checkpoint = Checkpoint::load(&run.run_dir.checkpoint()).unwrap();
    assert_eq!(checkpoint.git_commit_sha.as_deref(), Some(second.as_str()));
}
