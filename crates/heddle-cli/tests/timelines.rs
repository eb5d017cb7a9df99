//! Rollback, timelines, fork, resume from git alone and crash safety of git checkpoints,
//! through the real `heddle` binary on real repositories, checked with the `git` CLI.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::path::{Path, PathBuf};
use std::process::Command;

use sandbox::{Sandbox, describe, git, json, run_id};
use serde_json::Value;

const FLOW: &str = r#"digraph T {
    start [shape=Mdiamond]; exit [shape=Msquare];
    one [shape=parallelogram, script="echo v1 > a.txt"];
    two [shape=parallelogram, script="date +%s%N > b.txt; echo two >> a.txt"];
    start -> one -> two -> exit;
}"#;

/// A clean repository in which FLOW ran to success: the sandbox, the run folder, its id.
fn finished_run() -> (Sandbox, PathBuf, String) {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let flow = sandbox.write_flow("t.dot", FLOW);
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let run = sandbox.only_run();
    let id = run_id(&run);
    (sandbox, run, id)
}

fn checkpoints(sandbox: &Sandbox, id: &str) -> Vec<Value> {
    let out = sandbox.heddle(&["checkpoints", id, "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    serde_json::from_slice::<Vec<Value>>(&out.stdout).unwrap()
}

fn worktree(run: &Path) -> PathBuf {
    run.join("worktree")
}

fn sha_of(entries: &[Value], node: &str, timeline: u64) -> String {
    entries
        .iter()
        .find(|e| e["node_id"] == node && e["timeline"] == timeline)
        .unwrap_or_else(|| panic!("no {node} on t{timeline}: {entries:?}"))["sha"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn rollback_continue_and_rollback_again_keep_every_timeline_restorable() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let user_before = (
        git(&sandbox.work(), &["rev-parse", "HEAD"]),
        git(&sandbox.work(), &["status", "--porcelain", "--ignored"]),
    );
    let flow = sandbox.write_flow("t.dot", FLOW);
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let run = sandbox.only_run();
    let id = run_id(&run);
    let first_b = std::fs::read_to_string(worktree(&run).join("b.txt")).unwrap();
    let t1 = checkpoints(&sandbox, &id);
    assert_eq!(t1.len(), 4, "{t1:?}");

    // Back to the end of `one`: b.txt (made by `two`) goes, a.txt is as `one` left it.
    let out = sandbox.heddle(&["rollback", &id, "--to", "one", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["next_node"], "two");
    // The rollback is in the event log, numbered after the run's last event: a monitor
    // learns which nodes are pending again.
    let progress = std::fs::read_to_string(run.join("progress.jsonl")).unwrap();
    let events: Vec<Value> = progress
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let last = events.last().unwrap();
    assert_eq!(last["event"], "run.rolled_back", "{last}");
    assert_eq!(
        last["seq"],
        events[events.len() - 2]["seq"].as_u64().unwrap() + 1
    );
    assert_eq!(last["properties"]["to"], report["target"]);
    assert_eq!(last["properties"]["next_node_id"], "two");
    assert_eq!(last["properties"]["timeline"], report["timeline"]);
    let completed = last["properties"]["completed_nodes"].as_array().unwrap();
    assert_eq!(completed.last().unwrap(), "one", "{completed:?}");
    assert!(!worktree(&run).join("b.txt").exists());
    assert_eq!(
        std::fs::read_to_string(worktree(&run).join("a.txt")).unwrap(),
        "v1\n"
    );
    // The recovery snapshot holds the state before, exactly.
    let recovery = report["recovery_ref"].as_str().unwrap();
    assert_eq!(
        git(&sandbox.work(), &["show", &format!("{recovery}:b.txt")]),
        first_b
    );
    assert_eq!(
        git(&sandbox.work(), &["show", &format!("{recovery}:a.txt")]),
        "v1\ntwo\n"
    );

    let out = sandbox.heddle(&["resume", &id]);
    assert!(out.status.success(), "{}", describe(&out));
    let second_b = std::fs::read_to_string(worktree(&run).join("b.txt")).unwrap();
    assert_ne!(first_b, second_b);

    // Back to the first timeline's `two`, by partial sha: its files come back.
    let t2 = checkpoints(&sandbox, &id);
    let first_two = sha_of(&t2, "two", 1);
    let out = sandbox.heddle(&["rollback", &id, "--to", &first_two[..10]]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(
        std::fs::read_to_string(worktree(&run).join("b.txt")).unwrap(),
        first_b
    );
    let out = sandbox.heddle(&["resume", &id]);
    assert!(out.status.success(), "{}", describe(&out));

    let all = checkpoints(&sandbox, &id);
    let timelines: std::collections::BTreeSet<u64> = all
        .iter()
        .map(|e| e["timeline"].as_u64().unwrap())
        .collect();
    assert_eq!(timelines.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    let branches = git(
        &sandbox.work(),
        &[
            "branch",
            "--list",
            "heddle/run/*",
            "--format=%(refname:short)",
        ],
    );
    assert_eq!(branches.lines().count(), 3, "{branches}");
    // Every checkpoint of every timeline is still there to restore.
    for entry in &all {
        let sha = entry["sha"].as_str().unwrap();
        assert_eq!(
            git(&sandbox.work(), &["cat-file", "-t", sha]).trim(),
            "commit"
        );
    }
    assert_eq!(
        (
            git(&sandbox.work(), &["rev-parse", "HEAD"]),
            git(&sandbox.work(), &["status", "--porcelain", "--ignored"])
        ),
        user_before,
        "the user's checkout changed"
    );
}

#[test]
fn rollback_refuses_outside_changes_unless_forced_and_saves_them_first() {
    let (sandbox, run, id) = finished_run();
    std::fs::write(worktree(&run).join("mine.txt"), "by hand\n").unwrap();
    std::fs::create_dir_all(worktree(&run).join("ignored")).unwrap();
    std::fs::write(worktree(&run).join("ignored/keep.txt"), "ignored\n").unwrap();
    let out = sandbox.heddle(&["rollback", &id, "--to", "one:start"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("mine.txt"),
        "{}",
        describe(&out)
    );
    assert!(
        worktree(&run).join("mine.txt").exists(),
        "a refused rollback changed files"
    );

    let out = sandbox.heddle(&["rollback", &id, "--to", "one:start", "--force", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let recovery = report["recovery_ref"].as_str().unwrap();
    assert_eq!(
        git(&sandbox.work(), &["show", &format!("{recovery}:mine.txt")]),
        "by hand\n"
    );
    // one:start is the base: a.txt did not exist; ignored files are never touched.
    assert!(!worktree(&run).join("a.txt").exists());
    assert!(worktree(&run).join("README.md").exists());
    assert_eq!(
        std::fs::read_to_string(worktree(&run).join("ignored/keep.txt")).unwrap(),
        "ignored\n"
    );
    let unknown = sandbox.heddle(&["rollback", &id, "--to", "nosuchnode"]);
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("checkpoints exist for"),
        "{}",
        describe(&unknown)
    );
}

#[test]
fn rollback_moves_a_folder_of_ignored_files_aside_instead_of_deleting_it() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let flow = sandbox.write_flow(
        "t.dot",
        r#"digraph T {
            start [shape=Mdiamond]; exit [shape=Msquare];
            one [shape=parallelogram, script="echo v1 > out"];
            two [shape=parallelogram, script="rm out && mkdir out && echo mine > out/owned.txt"];
            start -> one -> two -> exit;
        }"#,
    );
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let run = sandbox.only_run();
    let id = run_id(&run);
    // A build writes into the folder after the run, under a name .gitignore covers.
    let cache = worktree(&run).join("out/ignored/cache.bin");
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    std::fs::write(&cache, "built\n").unwrap();

    let out = sandbox.heddle(&["rollback", &id, "--to", "one"]);

    assert!(out.status.success(), "{}", describe(&out));
    let area = run.join("recovery/1");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("into {}: out", area.display())),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(worktree(&run).join("out")).unwrap(),
        "v1\n"
    );
    assert_eq!(
        std::fs::read_to_string(area.join("out/ignored/cache.bin")).unwrap(),
        "built\n"
    );
    let progress = std::fs::read_to_string(run.join("progress.jsonl")).unwrap();
    assert!(
        progress
            .lines()
            .any(|l| l.contains("\"warning\"") && l.contains("recovery/1")),
        "{progress}"
    );
}

#[test]
fn rollback_refuses_while_a_stage_runs() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let flow = sandbox.write_flow(
        "slow.dot",
        r#"digraph S { start [shape=Mdiamond]; exit [shape=Msquare];
            slow [shape=parallelogram, script="sleep 5"]; start -> slow -> exit; }"#,
    );
    let mut child = sandbox.spawn(&["run", flow.to_str().unwrap()]);
    let run = sandbox::wait_for_stage(&sandbox, &mut child, "slow");
    let out = sandbox.heddle(&["rollback", &run_id(&run), "--to", "start"]);
    let _ = child.kill();
    let _ = child.wait();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is running"),
        "{}",
        describe(&out)
    );
}

#[test]
fn fork_starts_a_new_run_from_a_checkpoint() {
    let (sandbox, source, id) = finished_run();
    let out = sandbox.heddle(&["fork", &id, "--from", "one@1"]);
    assert!(out.status.success(), "{}", describe(&out));
    let runs = sandbox.runs();
    assert_eq!(runs.len(), 2);
    let fork = runs.into_iter().find(|r| *r != source).unwrap();
    let manifest = json(&fork.join("manifest.json"));
    assert!(
        manifest["labels"]["forked_from"]
            .as_str()
            .unwrap()
            .starts_with(&id)
    );
    // It continued after `one`: `two` ran once in the fork, `one` did not run again.
    let ran = sandbox::completed_nodes(&fork);
    assert_eq!(ran, vec!["start", "one", "two", "exit"]);
    assert_eq!(
        std::fs::read_to_string(worktree(&fork).join("a.txt")).unwrap(),
        "v1\ntwo\n"
    );
    let fork_id = run_id(&fork);
    let log = git(
        &sandbox.work(),
        &["log", "--format=%s", &format!("heddle/run/{fork_id}")],
    );
    assert!(
        log.contains(&format!("heddle({fork_id}): two (success)")),
        "{log}"
    );
    assert!(
        log.contains(&format!("heddle({id}): one (success)")),
        "{log}"
    );
}

#[test]
fn a_fresh_clone_resumes_a_run_from_git_alone() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let flow = sandbox.write_flow(
        "f.dot",
        r#"digraph F { start [shape=Mdiamond]; exit [shape=Msquare];
            work [shape=parallelogram, script="echo work >> a.txt"];
            check [shape=parallelogram, script="test -n \"$FIXED\" && echo fixed > fixed.txt"];
            start -> work -> check; check -> exit [condition="outcome=success"]; }"#,
    );
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(!out.status.success(), "the check should fail first");
    let id = run_id(&sandbox.only_run());
    let (clone, rebuilt) = sandbox.resume_from_git_in_clone(&id, &[("FIXED", "1")]);
    assert_eq!(
        std::fs::read_to_string(worktree(&rebuilt).join("a.txt")).unwrap(),
        "work\n"
    );
    assert!(worktree(&rebuilt).join("fixed.txt").exists());
    let log = git(&clone, &["log", "--format=%s", &format!("heddle/run/{id}")]);
    assert!(
        log.starts_with(&format!("heddle({id}): exit (success)")),
        "{log}"
    );
    assert!(log.contains("check (fail)"), "{log}");
}

#[test]
fn killed_mid_run_then_resumed_leaves_consistent_refs() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let mut nodes = String::new();
    let mut chain = vec!["start".to_string()];
    for n in 0..40 {
        nodes.push_str(&format!(
            "s{n} [shape=parallelogram, script=\"echo {n} >> log.txt\"];\n"
        ));
        chain.push(format!("s{n}"));
    }
    chain.push("exit".into());
    let flow = sandbox.write_flow(
        "long.dot",
        &format!(
            "digraph L {{ start [shape=Mdiamond]; exit [shape=Msquare];\n{nodes}{};\n}}",
            chain.join(" -> ")
        ),
    );
    let mut child = sandbox.spawn(&["run", flow.to_str().unwrap()]);
    // Mid-run, however slowly a loaded machine starts the process: a few stages are done.
    let run = sandbox::wait_for_stage(&sandbox, &mut child, "s3");
    let _ = child.kill(); // SIGKILL, wherever it is (often inside a checkpoint)
    let _ = child.wait();
    let id = run_id(&run);
    let out = sandbox.heddle(&["resume", &id]);
    assert!(out.status.success(), "{}", describe(&out));
    let work = sandbox.work();
    let fsck = Command::new("git")
        .args(["fsck", "--no-dangling"])
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        fsck.status.success(),
        "{}",
        String::from_utf8_lossy(&fsck.stderr)
    );
    // Every run-branch commit names a metadata commit of the run's metadata history.
    let metadata: std::collections::BTreeSet<String> =
        git(&work, &["rev-list", &format!("refs/heddle/{id}")])
            .lines()
            .map(str::to_string)
            .collect();
    let trailers = git(
        &work,
        &[
            "log",
            "--format=%(trailers:key=Heddle-Checkpoint,valueonly)",
            &format!("heddle/run/{id}"),
            "--not",
            "HEAD",
        ],
    );
    for sha in trailers.lines().map(str::trim).filter(|l| !l.is_empty()) {
        assert!(metadata.contains(sha), "{sha} is not in refs/heddle/{id}");
    }
    let lines = std::fs::read_to_string(worktree(&run).join("log.txt")).unwrap();
    assert!(lines.lines().count() >= 40, "{lines}");
    let tip = git(
        &work,
        &["log", "-1", "--format=%s", &format!("heddle/run/{id}")],
    );
    assert_eq!(tip.trim(), format!("heddle({id}): exit (success)"));
}
