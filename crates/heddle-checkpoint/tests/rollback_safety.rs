//! Rollback never deletes what the run does not own, and never writes or deletes through a
//! symlink. Each test builds a real git repository with the git CLI, runs a worktree-mode
//! run over it with real checkpoints (`Session::checkpoint`), changes the work tree as a
//! user or a tool would, and rolls back with `rollback::rollback` (what `heddle rollback`
//! and the API call).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;

use heddle_checkpoint::rollback::rollback;
use heddle_checkpoint::rollback_journal;
use heddle_checkpoint::state::{GitState, timeline_branch};
use support::{NOW, Run, git, read, write};

#[test]
fn a_recovery_ref_lock_left_by_a_killed_rollback_does_not_block_the_next() {
    let (mut run, first) = Run::a_txt_edited_once("two\n");
    // What a rollback killed while creating its recovery ref leaves behind.
    let lock = run
        .dir
        .path()
        .join("repo/.git/refs/heddle/recovery/r1/1.lock");
    write(&lock, "");
    let report = run.rollback(&first, false);
    assert_eq!(report.recovery_ref, "refs/heddle/recovery/r1/1");
    assert!(!lock.exists());
    assert_eq!(read(&run.work.join("a.txt")), "one\n");
}

#[test]
fn a_worktree_head_lock_left_by_a_killed_rollback_does_not_block_the_next() {
    let (mut run, first) = Run::a_txt_edited_once("two\n");
    // What a rollback killed while switching the worktree's branch leaves behind.
    let state = GitState::load(&run.run_dir).unwrap().unwrap();
    let worktrees: Vec<_> = std::fs::read_dir(state.git_dir.join("worktrees"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(worktrees.len(), 1, "{worktrees:?}");
    let lock = worktrees[0].join("HEAD.lock");
    write(&lock, "");
    run.rollback(&first, false);
    assert!(!lock.exists());
    assert_eq!(read(&run.work.join("a.txt")), "one\n");
}

#[test]
fn an_interrupted_rollback_is_finished_over_a_ref_lock_a_killed_checkpoint_left() {
    let (mut run, first) = Run::a_txt_edited_once("two\n");
    run.session = None;
    // A rollback to `first` killed after its branch and note, before its run files; and a
    // metadata-ref lock an earlier killed checkpoint left.
    let mut state = GitState::require(&run.run_dir).unwrap();
    let branch = timeline_branch(&state.run_id, state.timelines.len() + 1);
    git(&run.work, &["update-ref", &branch, &first]);
    state.branch = branch.clone();
    state.timelines.push(branch.clone());
    let target = git2::Oid::from_str(&first).unwrap();
    std::fs::write(
        rollback_journal::path(&run.run_dir),
        rollback_journal::bytes(target, &state).unwrap(),
    )
    .unwrap();
    let lock = state.git_dir.join(format!("{}.lock", state.metadata_ref));
    write(&lock, "");

    let report = run.rollback(&first, true);

    assert!(!lock.exists());
    assert!(!rollback_journal::path(&run.run_dir).exists());
    assert_eq!(read(&run.work.join("a.txt")), "one\n");
    let events = read(&run.run_dir.progress());
    assert!(
        events.contains("was interrupted; it was finished"),
        "{events}"
    );
    assert!(
        events.contains(".lock left by an interrupted checkpoint"),
        "{events}"
    );
    assert_ne!(report.timeline, GitState::short(&branch));
}

#[test]
fn a_folder_where_the_target_has_a_file_is_moved_aside_with_all_it_holds() {
    let mut run = Run::new(&[(".gitignore", "*.log\n"), ("out", "file v1\n")]);
    let first = run.checkpoint("one");
    // The next stage makes `out` a folder of the run's.
    std::fs::remove_file(run.work.join("out")).unwrap();
    write(&run.work.join("out/owned.txt"), "the run's\n");
    run.checkpoint("two");
    // Then tools put things in it that checkpoints do not own.
    let work = run.work.clone();
    write(&work.join("out/cache.log"), "ignored\n");
    write(&work.join("out/deep/er/trace.log"), "ignored too\n");
    write(&work.join("out/big.bin"), &"x".repeat(4096));
    let nested = work.join("out/nested");
    std::fs::create_dir_all(&nested).unwrap();
    git(&nested, &["init", "-q"]);
    write(&nested.join("lib.rs"), "nested history\n");
    git(&nested, &["add", "-A"]);
    git(&nested, &["commit", "-qm", "nested"]);

    let report = run.rollback(&first, false);

    assert_eq!(read(&work.join("out")), "file v1\n");
    let area = run.run_dir.root().join("recovery/1");
    assert_eq!(report.moved_aside, ["out"]);
    assert_eq!(
        report.moved_aside_to.as_deref(),
        Some(area.to_str().unwrap())
    );
    assert_eq!(read(&area.join("out/cache.log")), "ignored\n");
    assert_eq!(read(&area.join("out/deep/er/trace.log")), "ignored too\n");
    assert_eq!(read(&area.join("out/big.bin")).len(), 4096);
    assert_eq!(read(&area.join("out/nested/lib.rs")), "nested history\n");
    git(&area.join("out/nested"), &["log", "-1", "--format=%s"]);
    // The run's own file is in the recovery snapshot, not in the area.
    assert!(!area.join("out/owned.txt").exists());
    assert!(
        run.tree_of(&report.recovery_sha)
            .contains(&("out/owned.txt".into(), 0o100644))
    );
    let progress = read(&run.run_dir.progress());
    let warning = progress
        .lines()
        .find(|l| l.contains("\"warning\"") && l.contains("recovery/1"))
        .unwrap_or_else(|| panic!("no warning naming the area in {progress}"));
    assert!(warning.contains("out"), "{warning}");
}

#[test]
fn an_ignored_file_where_the_target_has_a_folder_is_moved_aside() {
    let mut run = Run::new(&[("notes/a.txt", "a\n")]);
    let first = run.checkpoint("one");
    std::fs::remove_dir_all(run.work.join("notes")).unwrap();
    write(&run.work.join(".gitignore"), "notes\n");
    run.checkpoint("two");
    write(&run.work.join("notes"), "a file of the user's, ignored\n");

    let report = run.rollback(&first, false);

    assert_eq!(read(&run.work.join("notes/a.txt")), "a\n");
    assert_eq!(report.moved_aside, ["notes"]);
    let area = run.run_dir.root().join("recovery/1");
    assert_eq!(read(&area.join("notes")), "a file of the user's, ignored\n");
}

#[test]
fn a_symlinked_parent_is_replaced_and_the_outside_file_is_untouched() {
    let mut run = Run::new(&[("data/file.txt", "v1\n")]);
    let first = run.checkpoint("one");
    // The run drops `data/` and ignores it from now on.
    std::fs::remove_dir_all(run.work.join("data")).unwrap();
    write(&run.work.join(".gitignore"), "data\n");
    run.checkpoint("two");
    // Something then links `data` to a folder outside the work tree.
    let outside = run.outside();
    write(&outside.join("file.txt"), "precious\n");
    std::os::unix::fs::symlink(&outside, run.work.join("data")).unwrap();

    let report = run.rollback(&first, false);

    assert_eq!(read(&outside.join("file.txt")), "precious\n");
    let data = std::fs::symlink_metadata(run.work.join("data")).unwrap();
    assert!(data.is_dir(), "data is a real folder again");
    assert_eq!(read(&run.work.join("data/file.txt")), "v1\n");
    assert_eq!(report.moved_aside, ["data"]);
    let moved = run.run_dir.root().join("recovery/1/data");
    assert_eq!(std::fs::read_link(&moved).unwrap(), outside);
}

#[test]
fn nothing_is_deleted_through_a_symlinked_parent() {
    let mut run = Run::new(&[("README", "r\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("gen/out.txt"), "generated\n");
    run.checkpoint("two");
    // `gen/out.txt` stays tracked while `gen` becomes ignored, as in git.
    write(&run.work.join(".gitignore"), "gen\n");
    run.checkpoint("three");
    std::fs::remove_dir_all(run.work.join("gen")).unwrap();
    let outside = run.outside();
    write(&outside.join("out.txt"), "precious\n");
    std::os::unix::fs::symlink(&outside, run.work.join("gen")).unwrap();

    let report = run.rollback(&first, true);

    assert_eq!(read(&outside.join("out.txt")), "precious\n");
    assert!(!run.work.join(".gitignore").exists());
    // The link was not the run's and nothing of the target's needs its place.
    assert!(
        std::fs::symlink_metadata(run.work.join("gen"))
            .unwrap()
            .is_symlink()
    );
    assert!(
        !run.tree_of(&report.recovery_sha)
            .iter()
            .any(|(p, _)| p.starts_with("gen")),
        "the snapshot never looks through the link"
    );
}

#[test]
fn a_file_the_run_owns_that_became_a_link_is_replaced_as_a_link() {
    let mut run = Run::new(&[("conf.txt", "v1\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("conf.txt"), "v2\n");
    run.checkpoint("two");
    let outside = run.outside();
    write(&outside.join("secret.txt"), "secret\n");
    std::fs::remove_file(run.work.join("conf.txt")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), run.work.join("conf.txt")).unwrap();

    let report = run.rollback(&first, true);

    assert_eq!(read(&outside.join("secret.txt")), "secret\n");
    let conf = std::fs::symlink_metadata(run.work.join("conf.txt")).unwrap();
    assert!(conf.is_file());
    assert_eq!(read(&run.work.join("conf.txt")), "v1\n");
    assert!(
        run.tree_of(&report.recovery_sha)
            .contains(&("conf.txt".into(), 0o120000))
    );
    assert!(report.moved_aside.is_empty());
    assert_eq!(report.moved_aside_to, None);
}

#[test]
fn a_tracked_file_that_grew_over_the_cap_is_moved_aside_not_replaced() {
    let mut run = Run::new(&[("model.bin", "small\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("model.bin"), &"y".repeat(8192));

    let report = run.rollback(&first, true);

    assert_eq!(read(&run.work.join("model.bin")), "small\n");
    assert_eq!(report.moved_aside, ["model.bin"]);
    let moved = run.run_dir.root().join("recovery/1/model.bin");
    assert_eq!(read(&moved).len(), 8192);
}

#[test]
fn back_and_forth_rollbacks_snapshot_the_tree_as_it_is_and_stop_at_changes() {
    let mut run = Run::new(&[("a.txt", "a1\n"), ("dir/b.txt", "b1\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("a.txt"), "a2\n");
    write(&run.work.join("dir/c.txt"), "c2\n");
    let second = run.checkpoint("two");

    let back = run.rollback(&first, false);
    assert_eq!(read(&run.work.join("a.txt")), "a1\n");
    assert!(!run.work.join("dir/c.txt").exists());
    assert_eq!(run.tree_of(&back.recovery_sha), run.tree_of(&second));
    // Nothing changed since: the next snapshot is the first checkpoint's tree, which the
    // restore left the run's index naming.
    let state = heddle_checkpoint::GitState::load(&run.run_dir)
        .unwrap()
        .unwrap();
    let repo = git2::Repository::open(&run.work).unwrap();
    let first_tree = repo
        .find_commit(git2::Oid::from_str(&first).unwrap())
        .unwrap()
        .tree_id();
    assert_eq!(
        heddle_checkpoint::index_tree::stamped(&state.index),
        Some(first_tree)
    );
    let forth = run.rollback(&second, false);
    assert_eq!(run.tree_of(&forth.recovery_sha), run.tree_of(&first));
    assert_eq!(read(&run.work.join("dir/c.txt")), "c2\n");

    // A change made after that rollback is seen, and stops the next one.
    std::thread::sleep(std::time::Duration::from_millis(20));
    write(&run.work.join("dir/b.txt"), "edited by hand\n");
    let refused = rollback(&run.run_dir, &first, false, NOW).unwrap_err();
    assert!(refused.to_string().contains("dir/b.txt"), "{refused}");
    let forced = run.rollback(&first, true);
    assert!(
        run.tree_of(&forced.recovery_sha)
            .contains(&("dir/b.txt".into(), 0o100644))
    );
    assert_eq!(read(&run.work.join("dir/b.txt")), "b1\n");
    let repo = git2::Repository::open(&run.work).unwrap();
    let blob = repo
        .find_commit(git2::Oid::from_str(&forced.recovery_sha).unwrap())
        .unwrap()
        .tree()
        .unwrap()
        .get_path(Path::new("dir/b.txt"))
        .unwrap()
        .id();
    assert_eq!(repo.find_blob(blob).unwrap().content(), b"edited by hand\n");
}

/// Every file directly in the run folder, with its bytes.
fn run_folder_files(run_dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(run_dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The run's side of a rollback is prepared while the work tree is scanned; when the scan
/// finds a change made outside the run, that preparation is thrown away: no run file, ref
/// or event moves, and no temporary file stays behind.
#[test]
fn a_rollback_refused_over_outside_changes_moves_nothing_of_the_run() {
    let (mut run, first) = Run::a_txt_edited_once("two\n");
    run.session = None;
    std::thread::sleep(std::time::Duration::from_millis(20));
    write(&run.work.join("a.txt"), "edited by hand\n");
    let before = run_folder_files(run.run_dir.root());
    let repo = git2::Repository::open(&run.work).unwrap();
    let state = GitState::load(&run.run_dir).unwrap().unwrap();
    let metadata = repo.refname_to_id(&state.metadata_ref).unwrap();
    let head = repo.head().unwrap().name().unwrap().to_string();

    let refused = rollback(&run.run_dir, &first, false, NOW).unwrap_err();
    assert!(refused.to_string().contains("a.txt"), "{refused}");

    assert_eq!(run_folder_files(run.run_dir.root()), before);
    let repo = git2::Repository::open(&run.work).unwrap();
    assert_eq!(repo.refname_to_id(&state.metadata_ref).unwrap(), metadata);
    assert_eq!(repo.head().unwrap().name().unwrap(), head);
    assert!(
        repo.find_reference(&timeline_branch("r1", 2)).is_err(),
        "a second timeline was made"
    );
    assert_eq!(read(&run.work.join("a.txt")), "edited by hand\n");
}
