//! Garbage collection of checkpoint repositories, on real repositories with real runs
//! (`set_up` and `Session::checkpoint`): two runs, one run folder deleted. gc deletes only
//! that run's refs; in a shadow repository what only it used is gone and everything left
//! is one pack that `git fsck` accepts; in the user's own repository only refs and the
//! deleted run's worktree bookkeeping go. A dry run changes nothing; a live run refuses.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use git2::{ObjectType, Oid, Repository};
use heddle_checkpoint::gc::{GcError, GcOptions, RepositoryGc, RepositoryOwner, collect_garbage};
use heddle_checkpoint::session::Session;
use heddle_checkpoint::setup::{ModeChoice, SetupContext, set_up};
use heddle_checkpoint::state::GitState;
use heddle_checkpoint::tracker::Changes;
use heddle_engine::RunDir;
use heddle_engine::runlock::RunLock;
use support::{CAP, NOW, checkpoint, git, write, write_run_files_for};

const KEPT: &str = "01JKEPT0000000000000000000";
const GONE: &str = "01JGONE0000000000000000000";

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home/runs")).unwrap();
        Home { dir }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn run_dir(&self, id: &str) -> RunDir {
        RunDir::at(self.home().join("runs").join(format!("20260102-{id}")))
    }

    /// Run `id` over `workspace` in `choice` mode with one checkpoint after writing
    /// `files`; the sha of that checkpoint and of the metadata commit.
    fn run(&self, id: &str, workspace: &Path, choice: ModeChoice, files: &[(&str, &str)]) -> Oid {
        let run_dir = RunDir::create(self.run_dir(id).root()).unwrap();
        let mode = if choice == ModeChoice::Shadow {
            "shadow"
        } else {
            "worktree"
        };
        write_run_files_for(&run_dir, id, mode);
        let context = SetupContext {
            heddle_home: &self.home(),
            user_home: None,
            choice,
            size_cap: CAP,
            now: NOW,
        };
        let setup = set_up(&context, id, &run_dir, workspace, "t", Vec::new()).unwrap();
        for (path, content) in files {
            write(&setup.work_dir.join(path), content);
        }
        let mut session = Session::open(&run_dir, setup.state, false).unwrap();
        let mut state = checkpoint();
        state.run_id = id.into();
        state.current_node = Some("one".into());
        state.save_with(&run_dir.checkpoint(), false).unwrap();
        let made = session.checkpoint(&state).unwrap();
        Oid::from_str(&made.sha).unwrap()
    }

    fn options(&self, dry_run: bool) -> GcOptions {
        GcOptions {
            heddle_home: self.home(),
            runs_root: self.home().join("runs"),
            extra_repositories: Vec::new(),
            dry_run,
            started: SystemTime::now(),
        }
    }
}

fn refs(repo: &Repository) -> BTreeMap<String, Oid> {
    repo.references()
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|r| Some((r.name().ok()?.to_string(), r.target()?)))
        .collect()
}

fn blob_id(content: &str) -> Oid {
    Oid::hash_object(ObjectType::Blob, content.as_bytes()).unwrap()
}

/// Every file under `dir`, with its size.
fn files(dir: &Path) -> BTreeMap<PathBuf, u64> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files(&path));
        } else {
            found.insert(path.clone(), std::fs::metadata(&path).unwrap().len());
        }
    }
    found
}

fn fsck(git_dir: &Path) {
    git(git_dir, &["fsck", "--full", "--strict"]);
}

/// Every object reachable from `tip`, read back.
fn read_all_from(repo: &Repository, tip: Oid) -> usize {
    let mut walk = repo.revwalk().unwrap();
    walk.push(tip).unwrap();
    let mut read = 0;
    for commit in walk {
        let commit = repo.find_commit(commit.unwrap()).unwrap();
        commit
            .tree()
            .unwrap()
            .walk(git2::TreeWalkMode::PreOrder, |_, entry| {
                entry.to_object(repo).unwrap();
                read += 1;
                git2::TreeWalkResult::Ok
            })
            .unwrap();
    }
    read
}

/// Two shadow-mode runs over one folder, each with a file only it saw; a ref of the
/// user's in the shadow repository; the deleted run has a recovery ref; the objects are
/// spread over a pack and loose files. The run folder of `GONE` is deleted.
fn two_shadow_runs() -> (Home, PathBuf, Oid, Oid) {
    let home = Home::new();
    let workspace = home.dir.path().join("workspace");
    write(&workspace.join("shared.txt"), "both runs see this\n");
    let gone = home.run(
        GONE,
        &workspace,
        ModeChoice::Shadow,
        &[("gone.txt", "only the deleted run\n")],
    );
    std::fs::remove_file(workspace.join("gone.txt")).unwrap();
    let shadow =
        heddle_checkpoint::shadow::shadow_dir(&home.home(), &workspace.canonicalize().unwrap());
    let repo = Repository::open_bare(&shadow).unwrap();
    repo.reference(&format!("refs/heddle/recovery/{GONE}/1"), gone, false, "t")
        .unwrap();
    heddle_checkpoint::pack::pack_loose(&repo, 0).unwrap();
    let kept = home.run(
        KEPT,
        &workspace,
        ModeChoice::Shadow,
        &[("kept.txt", "only the kept run\n")],
    );
    repo.reference("refs/heads/mine", kept, false, "a ref gc does not own")
        .unwrap();
    std::fs::remove_dir_all(home.run_dir(GONE).root()).unwrap();
    (home, shadow, gone, kept)
}

#[test]
fn gc_removes_only_the_deleted_runs_refs_and_objects_and_leaves_one_pack() {
    let (home, shadow, gone, kept) = two_shadow_runs();
    let repo = Repository::open_bare(&shadow).unwrap();
    let before = refs(&repo);
    assert!(
        repo.odb()
            .unwrap()
            .exists(blob_id("only the deleted run\n"))
    );
    let readable_before = read_all_from(&repo, kept);
    // A file the kept run's index holds but no checkpoint has committed yet.
    let run_dir = home.run_dir(KEPT);
    let state = GitState::load(&run_dir).unwrap().unwrap();
    write(&state.work_tree.join("pending.txt"), "in the index only\n");
    let mut session = Session::open(&run_dir, state, false).unwrap();
    session.snapshot(&Changes::Everything).unwrap();
    drop(session);
    assert!(repo.odb().unwrap().exists(blob_id("in the index only\n")));
    // A commit-graph git wrote (git gc does) names the deleted run's commits.
    git(
        &shadow,
        &["--git-dir", ".", "commit-graph", "write", "--reachable"],
    );
    assert!(shadow.join("objects/info/commit-graph").is_file());

    let reports = collect_garbage(&home.options(false)).unwrap();
    let report: &RepositoryGc = &reports[0];
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(report.owner, RepositoryOwner::Heddle);
    assert_eq!(report.runs_pruned, [GONE]);
    let expected_deleted = [
        format!("refs/heads/heddle/run/{GONE}"),
        format!("refs/heddle/{GONE}"),
        format!("refs/heddle/recovery/{GONE}/1"),
    ];
    assert_eq!(report.refs_deleted, expected_deleted);

    let repo = Repository::open_bare(&shadow).unwrap();
    let after = refs(&repo);
    let mut expected = before.clone();
    for name in &expected_deleted {
        expected.remove(name);
    }
    assert_eq!(after, expected, "only the deleted run's refs go");
    assert!(after.contains_key(&format!("refs/heddle/{KEPT}")));
    assert!(after.contains_key("refs/heads/mine"));

    let odb = repo.odb().unwrap();
    assert!(!odb.exists(blob_id("only the deleted run\n")));
    assert!(
        !odb.exists(gone),
        "the deleted run's checkpoint commit is gone"
    );
    assert!(odb.exists(blob_id("only the kept run\n")));
    assert!(odb.exists(blob_id("both runs see this\n")));
    assert!(
        odb.exists(blob_id("in the index only\n")),
        "the kept run's index is kept"
    );
    assert_eq!(read_all_from(&repo, kept), readable_before);
    let metadata = repo.refname_to_id(&format!("refs/heddle/{KEPT}")).unwrap();
    read_all_from(&repo, metadata);

    let (before, after) = (report.before.unwrap(), report.after.unwrap());
    assert!(before.packs >= 1 && before.loose > 0, "{before:?}");
    assert_eq!((after.packs, after.loose), (1, 0), "{after:?}");
    assert!(after.objects < before.objects, "{before:?} -> {after:?}");
    assert!(after.bytes < before.bytes, "{before:?} -> {after:?}");
    assert_eq!(Some(after.objects), report.kept_objects);
    fsck(&shadow);

    // A second collection finds nothing more to delete and keeps the one pack.
    let again = collect_garbage(&home.options(false)).unwrap();
    assert!(again[0].refs_deleted.is_empty());
    assert_eq!(again[0].after.unwrap().packs, 1);
    fsck(&shadow);
}

#[test]
fn a_dry_run_reports_what_would_go_and_changes_nothing() {
    let (home, shadow, _, _) = two_shadow_runs();
    let repo = Repository::open_bare(&shadow).unwrap();
    let refs_before = refs(&repo);
    let files_before = files(&shadow);

    let reports = collect_garbage(&home.options(true)).unwrap();
    assert_eq!(reports[0].runs_pruned, [GONE]);
    assert_eq!(reports[0].refs_deleted.len(), 3);
    let before = reports[0].before.unwrap();
    assert!(reports[0].kept_objects.unwrap() < before.objects);
    assert_eq!(reports[0].after, None);

    assert_eq!(refs(&repo), refs_before);
    assert_eq!(files(&shadow), files_before);
}

#[test]
fn a_live_run_in_the_repository_refuses_and_nothing_changes() {
    let (home, shadow, _, _) = two_shadow_runs();
    let repo = Repository::open_bare(&shadow).unwrap();
    let refs_before = refs(&repo);
    let files_before = files(&shadow);
    let _lock = RunLock::acquire(&home.run_dir(KEPT), KEPT).unwrap();

    let error = collect_garbage(&home.options(false)).unwrap_err();
    assert!(matches!(error, GcError::Live { .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.contains(&format!("run {KEPT} (pid {})", std::process::id())),
        "{message}"
    );
    assert_eq!(refs(&repo), refs_before);
    assert_eq!(files(&shadow), files_before);
    // A dry run still answers.
    assert_eq!(
        collect_garbage(&home.options(true)).unwrap()[0].runs_pruned,
        [GONE]
    );
}

#[test]
fn in_the_users_repository_only_heddle_refs_and_worktrees_of_deleted_runs_go() {
    let home = Home::new();
    let repo_dir = home.dir.path().join("repo");
    std::fs::create_dir(&repo_dir).unwrap();
    git(&repo_dir, &["init", "-q"]);
    write(&repo_dir.join("base.txt"), "base\n");
    git(&repo_dir, &["add", "-A"]);
    git(&repo_dir, &["commit", "-qm", "base"]);
    git(&repo_dir, &["branch", "feature"]);
    git(&repo_dir, &["update-ref", "refs/heddle/notes/x", "HEAD"]);
    let gone = home.run(
        GONE,
        &repo_dir,
        ModeChoice::Worktree,
        &[("gone.txt", "only the deleted run\n")],
    );
    home.run(
        KEPT,
        &repo_dir,
        ModeChoice::Worktree,
        &[("kept.txt", "only the kept run\n")],
    );
    let git_dir = repo_dir.join(".git");
    let repo = Repository::open(&repo_dir).unwrap();
    let before = refs(&repo);
    let objects_before = files(&git_dir.join("objects"));
    std::fs::remove_dir_all(home.run_dir(GONE).root()).unwrap();

    let reports = collect_garbage(&home.options(false)).unwrap();
    assert_eq!(reports.len(), 1, "{reports:?}");
    let report = &reports[0];
    assert_eq!(report.owner, RepositoryOwner::User);
    assert_eq!(report.runs_pruned, [GONE]);
    assert_eq!(
        report.refs_deleted,
        [
            format!("refs/heads/heddle/run/{GONE}"),
            format!("refs/heddle/{GONE}")
        ]
    );
    assert_eq!(report.worktrees_pruned, [format!("heddle-{GONE}")]);
    assert!(
        report.notes.iter().any(|n| n.contains("git gc")),
        "{report:?}"
    );
    assert_eq!((report.before, report.after), (None, None));

    let after = refs(&repo);
    let mut expected = before.clone();
    for name in &report.refs_deleted {
        expected.remove(name);
    }
    assert_eq!(after, expected);
    assert!(after.contains_key("refs/heads/feature"));
    assert!(
        after.contains_key("refs/heddle/notes/x"),
        "not a shape Heddle owns"
    );
    assert!(!git_dir.join(format!("worktrees/heddle-{GONE}")).exists());
    assert!(git_dir.join(format!("worktrees/heddle-{KEPT}")).exists());
    assert_eq!(
        files(&git_dir.join("objects")),
        objects_before,
        "objects untouched"
    );
    assert!(repo.find_commit(gone).is_ok(), "left for git gc");
    fsck(&git_dir);
}

#[test]
fn a_missing_runs_folder_collects_nothing() {
    // A fresh install: nothing to do.
    let home = Home::new();
    std::fs::remove_dir_all(home.home().join("runs")).unwrap();
    assert_eq!(collect_garbage(&home.options(false)).unwrap(), []);
    // Shadow repositories without a runs folder: a wrong HEDDLE_HOME, refused.
    let (home, shadow, _, _) = two_shadow_runs();
    let refs_before = refs(&Repository::open_bare(&shadow).unwrap());
    std::fs::remove_dir_all(home.home().join("runs")).unwrap();
    let error = collect_garbage(&home.options(false)).unwrap_err();
    assert!(error.to_string().contains("HEDDLE_HOME"), "{error}");
    assert_eq!(refs(&Repository::open_bare(&shadow).unwrap()), refs_before);
}
