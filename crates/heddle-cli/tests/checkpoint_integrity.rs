//! Integrity of git checkpoints through the real `heddle` binary: a missing object and an
//! unreadable one are different errors, a damaged shadow repository stops a run with a
//! clear error and loses nothing, a branch moved outside Heddle is caught, and two runs in
//! the same repository at once both checkpoint correctly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod gitfixture;
mod sandbox;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use gitfixture::{Fixture, checkout, describe, git, git_ok, json, run_id, snapshot_files, text};

/// `one` writes a file; `two` fails until `go` exists, so the run stops resumable.
const STOPS: &str = r#"digraph Stops {
    start [shape=Mdiamond]; exit [shape=Msquare];
    one [shape=parallelogram, script="echo one > one.txt"];
    two [shape=parallelogram, script="test -f go && echo two > two.txt"];
    start -> one -> two;
    two -> exit [condition="outcome=success"];
}"#;

/// What must not change when a command is refused: the workspace and the run's own files.
#[derive(Debug, PartialEq, Eq)]
struct Untouched {
    workspace: BTreeMap<PathBuf, Vec<u8>>,
    run_files: Vec<Vec<u8>>,
    refs: String,
}

fn untouched(fx: &Fixture, run: &Path, shadow: &Path) -> Untouched {
    let git_dir = format!("--git-dir={}", shadow.display());
    Untouched {
        workspace: snapshot_files(&fx.repo(), true),
        run_files: [
            "checkpoint.json",
            "git.json",
            "manifest.json",
            "progress.jsonl",
        ]
        .iter()
        .map(|f| std::fs::read(run.join(f)).unwrap())
        .collect(),
        // Names and shas only: git must not need to read the (damaged) objects.
        refs: git(
            &fx.root(),
            &[
                &git_dir,
                "for-each-ref",
                "--format=%(refname) %(objectname)",
            ],
        ),
    }
}

/// Unpacks every pack of the repository at `git_dir` into loose objects (checkpoints write
/// packs), so one object can be damaged on its own.
fn loosen(git_dir: &Path) {
    let packs = git_dir.join("objects/pack");
    let aside = git_dir.join("packs-aside");
    std::fs::rename(&packs, &aside).unwrap();
    std::fs::create_dir(&packs).unwrap();
    for entry in std::fs::read_dir(&aside).unwrap().map(Result::unwrap) {
        if entry.path().extension().is_some_and(|e| e == "pack") {
            let status = std::process::Command::new("git")
                .arg(format!("--git-dir={}", git_dir.display()))
                .arg("unpack-objects")
                .arg("-q")
                .stdin(std::fs::File::open(entry.path()).unwrap())
                .status()
                .unwrap();
            assert!(status.success());
        }
    }
    std::fs::remove_dir_all(&aside).unwrap();
}

/// The loose object file of `sha` in the repository at `git_dir`.
fn object_file(git_dir: &Path, sha: &str) -> PathBuf {
    loosen(git_dir);
    let path = git_dir.join("objects").join(&sha[..2]).join(&sha[2..]);
    assert!(path.exists(), "{} is not a loose object", path.display());
    path
}

fn assert_refused(out: &Output, words: &[&str]) {
    assert_ne!(out.status.code(), Some(0), "{}", describe(out));
    let stderr = text(&out.stderr);
    for word in words {
        assert!(stderr.contains(word), "no `{word}` in: {stderr}");
    }
}

/// A shadow-mode run stopped at `two`: the fixture, the run folder, its id, the shadow repo.
fn stopped_shadow_run() -> (Fixture, PathBuf, String, PathBuf) {
    let fx = Fixture::new();
    fx.write("keep.txt", b"keep\n");
    let run = fx.run(&fx.write_flow("stops.dot", STOPS), &[], 1);
    let id = run_id(&run);
    let shadow = fx.shadow_dir();
    (fx, run, id, shadow)
}

#[test]
fn a_missing_object_is_not_found_and_an_unreadable_one_is_a_storage_error() {
    let (fx, run, id, shadow) = stopped_shadow_run();
    let tip = json(&run.join("checkpoint.json"))["git_commit_sha"]
        .as_str()
        .unwrap()
        .to_string();
    let object = object_file(&shadow, &tip);
    let original = std::fs::read(&object).unwrap();
    let before = untouched(&fx, &run, &shadow);

    // Unreadable: the object is there but is not zlib data.
    std::fs::remove_file(&object).unwrap();
    std::fs::write(&object, b"this is not a git object").unwrap();
    for args in [
        vec!["resume", id.as_str()],
        vec!["rollback", id.as_str(), "--to", "start"],
        vec!["checkpoints", id.as_str()],
    ] {
        let out = fx.heddle(&args, &[]);
        assert_refused(&out, &["git storage error", &shadow.display().to_string()]);
        assert!(
            !text(&out.stderr).contains("not found"),
            "{}",
            describe(&out)
        );
    }
    assert_eq!(untouched(&fx, &run, &shadow), before);

    // Missing: the object is gone.
    std::fs::remove_file(&object).unwrap();
    for args in [
        vec!["resume", id.as_str()],
        vec!["rollback", id.as_str(), "--to", "start"],
        vec!["fork", id.as_str(), "--from", "one"],
    ] {
        let out = fx.heddle(&args, &[]);
        assert_refused(&out, &["was not found", &tip]);
    }
    assert_eq!(untouched(&fx, &run, &shadow), before);
    assert_eq!(fx.runs(), vec![run.clone()], "a refused fork left a run");

    // Nothing was lost: with the object back, the run resumes and finishes.
    std::fs::write(&object, &original).unwrap();
    fx.write("go", b"");
    let out = fx.heddle(&["resume", &id], &[]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(std::fs::read(fx.repo().join("two.txt")).unwrap(), b"two\n");
    let git_dir = format!("--git-dir={}", shadow.display());
    assert!(git_ok(&fx.root(), &[&git_dir, "fsck", "--strict"]));
}

#[test]
fn a_damaged_shadow_repository_stops_a_new_run_and_is_kept() {
    let (fx, run, _id, shadow) = stopped_shadow_run();
    std::fs::remove_file(shadow.join("HEAD")).unwrap();
    let shadow_before = snapshot_files(&shadow, true);
    let workspace_before = snapshot_files(&fx.repo(), true);

    let flow = fx.write_flow("again.dot", STOPS);
    let out = fx.heddle(&["run", flow.to_str().unwrap()], &[]);
    assert_refused(
        &out,
        &[&shadow.display().to_string(), "may be damaged", "git fsck"],
    );
    assert_eq!(snapshot_files(&shadow, true), shadow_before);
    assert_eq!(snapshot_files(&fx.repo(), true), workspace_before);
    assert_eq!(fx.runs(), vec![run], "the refused run left a run folder");
}

#[test]
fn a_run_branch_moved_outside_heddle_is_reported_before_resuming() {
    let (fx, run, id, shadow) = stopped_shadow_run();
    let git_dir = format!("--git-dir={}", shadow.display());
    let branch = format!("refs/heads/heddle/run/{id}");
    let first = git(
        &fx.root(),
        &[&git_dir, "rev-list", "--max-parents=0", &branch],
    );
    git(&fx.root(), &[&git_dir, "update-ref", &branch, first.trim()]);
    let before = untouched(&fx, &run, &shadow);
    let out = fx.heddle(&["resume", &id], &[]);
    assert_refused(&out, &["not on the run branch", "moved outside Heddle"]);
    assert_eq!(untouched(&fx, &run, &shadow), before);

    git(
        &fx.root(),
        &[&git_dir, "update-ref", "-d", &format!("refs/heddle/{id}")],
    );
    let out = fx.heddle(&["checkpoints", &id], &[]);
    assert_refused(&out, &["metadata history", "was not found"]);
}

/// Two flows that write different files, slowly enough to overlap.
fn overlapping_flow(name: &str) -> String {
    let nodes: String = (1..=4)
        .map(|n| {
            format!(
                "n{n} [shape=parallelogram, script=\"sleep 0.2; echo {n} > {name}-{n}.txt\"];\n"
            )
        })
        .collect();
    format!(
        "digraph {name} {{ start [shape=Mdiamond]; exit [shape=Msquare];\n{nodes}\
         start -> n1 -> n2 -> n3 -> n4 -> exit; }}"
    )
}

/// Starts both flows at once and waits for both; each must succeed. The run folders, by
/// flow name.
fn run_two_at_once(fx: &Fixture) -> BTreeMap<String, PathBuf> {
    let children: Vec<_> = ["alpha", "beta"]
        .iter()
        .map(|name| {
            let flow = fx.write_flow(&format!("{name}.dot"), &overlapping_flow(name));
            fx.heddle_command(&["run", flow.to_str().unwrap()], &[])
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
    }
    fx.runs()
        .into_iter()
        .map(|run| {
            let name = json(&run.join("manifest.json"))["workflow_name"]
                .as_str()
                .unwrap()
                .to_string();
            (name, run)
        })
        .collect()
}

/// The Heddle-Run trailer and subject of every commit on `branch` after `base` (oldest first).
fn commits(dir: &Path, git_dir: Option<&Path>, range: &str) -> Vec<(String, String)> {
    let mut args: Vec<String> = Vec::new();
    if let Some(git_dir) = git_dir {
        args.push(format!("--git-dir={}", git_dir.display()));
    }
    args.extend(
        [
            "log",
            "--reverse",
            "--format=%(trailers:key=Heddle-Run,valueonly,separator=)%x09%s",
            range,
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    git(dir, &args)
        .lines()
        .map(|l| {
            let (run, subject) = l.split_once('\t').unwrap();
            (run.trim().to_string(), subject.to_string())
        })
        .collect()
}

#[test]
fn two_runs_in_one_repository_at_once_both_checkpoint_correctly() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "project\n")]);
    let repo = fx.repo();
    let base = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let before = checkout(&repo);
    let runs = run_two_at_once(&fx);
    assert_eq!(runs.len(), 2, "{runs:?}");
    for (name, run) in &runs {
        let id = run_id(run);
        let found = commits(&repo, None, &format!("{base}..heddle/run/{id}"));
        let subjects: Vec<&str> = found.iter().map(|(_, s)| s.as_str()).collect();
        let wanted: Vec<String> = ["start", "n1", "n2", "n3", "n4", "exit"]
            .iter()
            .map(|n| format!("heddle({id}): {n} (success)"))
            .collect();
        assert_eq!(subjects, wanted, "{name}");
        assert!(found.iter().all(|(r, _)| *r == id), "{found:?}");
        // Each worktree holds its own run's files only.
        let files = git(
            &repo,
            &["ls-tree", "--name-only", &format!("heddle/run/{id}")],
        );
        let other = if name == "alpha" { "beta" } else { "alpha" };
        assert!(files.contains(&format!("{name}-4.txt")), "{files}");
        assert!(!files.contains(other), "{files}");
        let tip = git(&repo, &["rev-parse", &format!("heddle/run/{id}")]);
        assert_eq!(
            json(&run.join("checkpoint.json"))["git_commit_sha"],
            tip.trim()
        );
        assert_eq!(
            git(
                &repo,
                &["rev-list", "--count", &format!("refs/heddle/{id}")]
            )
            .trim(),
            "6"
        );
    }
    assert!(git_ok(&repo, &["fsck", "--strict"]));
    assert_eq!(checkout(&repo), before);
}

#[test]
fn two_runs_in_one_shadowed_folder_at_once_both_checkpoint_correctly() {
    let fx = Fixture::new();
    fx.write("README.md", b"project\n");
    let runs = run_two_at_once(&fx);
    assert_eq!(runs.len(), 2, "{runs:?}");
    let shadow = fx.shadow_dir();
    for (name, run) in &runs {
        let id = run_id(run);
        let branch = format!("heddle/run/{id}");
        let found = commits(&fx.root(), Some(&shadow), &branch);
        assert_eq!(found.len(), 7, "setup and six checkpoints: {found:?}");
        assert!(found.iter().all(|(r, _)| *r == id), "{found:?}");
        assert!(found[0].1.starts_with("setup:start"), "{found:?}");
        let git_dir = format!("--git-dir={}", shadow.display());
        let files = git(&fx.root(), &[&git_dir, "ls-tree", "--name-only", &branch]);
        for n in 1..=4 {
            assert!(files.contains(&format!("{name}-{n}.txt")), "{files}");
        }
        let tip = git(&fx.root(), &[&git_dir, "rev-parse", &branch]);
        assert_eq!(
            json(&run.join("checkpoint.json"))["git_commit_sha"],
            tip.trim()
        );
    }
    let git_dir = format!("--git-dir={}", shadow.display());
    assert!(git_ok(&fx.root(), &[&git_dir, "fsck", "--strict"]));
}
