//! `heddle gc` on checkpoint repositories, with the real binary: two runs in one folder
//! (a shadow repository), the first run's folder deleted. A dry run changes nothing; gc
//! deletes only that run's refs and the objects only it used, leaves one pack that
//! `git fsck` accepts, and refuses while a run is live, naming it and its process.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use sandbox::{Sandbox, describe, exit_code_within, read_pid, run_id, text, wait_for_stage};

fn flow(file: &str, content: &str) -> String {
    format!(
        "digraph Write {{\n  start [shape=Mdiamond];\n  exit [shape=Msquare];\n  \
         write [shape=parallelogram, script=\"printf '{content}' > {file}\"];\n  \
         start -> write -> exit;\n}}\n"
    )
}

/// `git --git-dir DIR args`: its status and stdout.
fn git(git_dir: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(git_dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    (out.status.success(), said)
}

fn refs(git_dir: &Path) -> String {
    git(
        git_dir,
        &["for-each-ref", "--format=%(refname) %(objectname)"],
    )
    .1
}

fn blob_exists(git_dir: &Path, content: &str) -> bool {
    let hash = Command::new("git")
        .args(["hash-object", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(content.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let hash = text(&hash.stdout).trim().to_string();
    git(git_dir, &["cat-file", "-e", &hash]).0
}

fn shadow_dir(sandbox: &Sandbox) -> PathBuf {
    let shadows: Vec<PathBuf> = std::fs::read_dir(sandbox.home().join("shadow"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(shadows.len(), 1, "{shadows:?}");
    shadows[0].clone()
}

fn run(sandbox: &Sandbox, name: &str, file: &str, content: &str) -> PathBuf {
    let before = sandbox.runs();
    let path = sandbox.write_flow(name, &flow(file, content));
    let out = sandbox.heddle(&["run", path.to_str().unwrap(), "--checkpoints", "shadow"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    sandbox
        .runs()
        .into_iter()
        .find(|r| !before.contains(r))
        .unwrap()
}

#[test]
fn gc_prunes_a_deleted_runs_checkpoints_and_leaves_one_pack() {
    let sandbox = Sandbox::new();
    let gone = run(&sandbox, "gone.dot", "gone.txt", "only the deleted run");
    std::fs::remove_file(sandbox.work().join("gone.txt")).unwrap();
    let kept = run(&sandbox, "kept.dot", "kept.txt", "only the kept run");
    let (gone_id, kept_id) = (run_id(&gone), run_id(&kept));
    let shadow = shadow_dir(&sandbox);
    assert!(blob_exists(&shadow, "only the deleted run"));
    std::fs::remove_dir_all(&gone).unwrap();
    let refs_before = refs(&shadow);

    let out = sandbox.heddle(&["gc", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let said = text(&out.stdout);
    assert!(
        said.contains(&format!("would delete refs/heads/heddle/run/{gone_id}")),
        "{said}"
    );
    assert!(said.contains("would keep"), "{said}");
    assert!(!said.contains(&kept_id), "{said}");
    assert_eq!(refs(&shadow), refs_before, "a dry run deleted refs");
    assert!(blob_exists(&shadow, "only the deleted run"));

    let out = sandbox.heddle(&["gc", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let repo = &report["repositories"][0];
    assert_eq!(repo["owner"], "heddle", "{report}");
    assert_eq!(
        repo["runs_pruned"],
        serde_json::json!([gone_id]),
        "{report}"
    );
    assert_eq!(repo["after"]["packs"], 1, "{report}");
    assert_eq!(repo["after"]["loose"], 0, "{report}");
    assert!(
        repo["after"]["bytes"].as_u64() < repo["before"]["bytes"].as_u64(),
        "{report}"
    );

    let after = refs(&shadow);
    assert!(!after.contains(&gone_id), "{after}");
    for line in refs_before.lines().filter(|l| !l.contains(&gone_id)) {
        assert!(after.contains(line), "{line} went: {after}");
    }
    assert!(after.contains(&format!("refs/heddle/{kept_id}")), "{after}");
    assert!(!blob_exists(&shadow, "only the deleted run"));
    assert!(blob_exists(&shadow, "only the kept run"));
    let (ok, said) = git(&shadow, &["fsck", "--full", "--strict"]);
    assert!(ok, "{said}");
    let (_, counted) = git(&shadow, &["count-objects", "-v"]);
    assert!(counted.contains("count: 0\n"), "{counted}");
    assert!(counted.contains("packs: 1\n"), "{counted}");
    // The kept run still reads back through Heddle.
    let out = sandbox.heddle(&["checkpoints", &kept_id]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
}

#[test]
fn gc_refuses_while_a_run_is_live() {
    let sandbox = Sandbox::new();
    let path = sandbox.write_flow(
        "slow.dot",
        "digraph Slow { start [shape=Mdiamond]; exit [shape=Msquare]; \
         wait [shape=parallelogram, script=\"sleep 30\"]; start -> wait -> exit; }\n",
    );
    let mut child = sandbox.spawn(&["run", path.to_str().unwrap(), "--checkpoints", "shadow"]);
    let run = wait_for_stage(&sandbox, &mut child, "wait");
    let pid = read_pid(&run.join("run.pid"));

    let out = sandbox.heddle(&["gc"]);
    let cancelled = sandbox.heddle(&["cancel", &run_id(&run)]);
    assert_eq!(cancelled.status.code(), Some(0), "{}", describe(&cancelled));
    exit_code_within(&mut child, Duration::from_secs(20), "the cancelled run");
    assert_ne!(out.status.code(), Some(0), "{}", describe(&out));
    let said = text(&out.stderr);
    assert!(
        said.contains(&format!("run {} (pid {pid}) is running", run_id(&run))),
        "{said}"
    );
}
