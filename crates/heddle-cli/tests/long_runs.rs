//! Long runs stay small in git: each metadata commit stores the run's history as chunks of
//! timeline.jsonl (only the last one changes per stage), a run rebuilt from git alone gets
//! its whole history back from those chunks, and a run leaves its repository packed.
//! Through the real `heddle` binary on real repositories, checked with the `git` CLI.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::path::Path;

use sandbox::{
    Sandbox, chain_of_conditions, completed_nodes, describe, git, json, loaded_checkpoint, run_id,
    wait_for_stage,
};
use serde_json::Value;

#[test]
fn metadata_commits_add_only_the_new_chunk_and_the_repository_ends_packed() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let flow = sandbox.write_flow("c.dot", &chain_of_conditions(40));
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let id = run_id(&sandbox.only_run());
    let work = sandbox.work();
    let reference = format!("refs/heddle/{id}");

    let tip = git(&work, &["ls-tree", "-r", "-l", &reference]);
    let size_of = |name: &str| -> u64 {
        tip.lines()
            .find(|l| l.ends_with(&format!("\t{name}")))
            .unwrap_or_else(|| panic!("no {name} in {tip}"))
            .split_whitespace()
            .nth(3)
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(size_of("timeline/0/0/0.jsonl") > 0);
    // The head holds no copy of the history.
    let head = git(
        &work,
        &["cat-file", "-p", &format!("{reference}:checkpoint.json")],
    );
    assert!(!head.contains("\"timeline\""), "{head}");
    assert!(size_of("checkpoint.json") < 8 * 1024, "{tip}");

    let commits = git(&work, &["rev-list", "--no-merges", &reference]);
    let commits: Vec<&str> = commits.lines().collect();
    assert!(commits.len() > 40);
    for commit in &commits[..commits.len() - 1] {
        let changed = git(
            &work,
            &["diff-tree", "-r", "--name-only", "--no-commit-id", commit],
        );
        let chunks = changed
            .lines()
            .filter(|l| l.starts_with("timeline/"))
            .count();
        assert!(chunks <= 2, "{commit} rewrote {chunks} chunks:\n{changed}");
    }
}

#[test]
fn a_run_leaves_its_repository_packed_and_whole() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let flow = sandbox.write_flow("c.dot", &chain_of_conditions(20));
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let id = run_id(&sandbox.only_run());
    let work = sandbox.work();
    let counts = git(&work, &["count-objects", "-v"]);
    assert!(counts.lines().any(|l| l == "count: 0"), "{counts}");
    let fsck = git(&work, &["fsck", "--no-dangling", "--full"]);
    assert!(!fsck.contains("missing"), "{fsck}");
    // Every checkpoint's files still read back from the pack.
    let log = git(&work, &["log", "--format=%s", &format!("heddle/run/{id}")]);
    assert!(
        log.starts_with(&format!("heddle({id}): exit (success)")),
        "{log}"
    );
    // Checkpoints of routing nodes are published in groups, and each keeps its own
    // commit, in order.
    let nodes: Vec<&str> = log
        .lines()
        .filter_map(|subject| subject.strip_prefix(&format!("heddle({id}): ")))
        .filter_map(|rest| rest.split(' ').next())
        .collect();
    let mut expected = vec!["start".to_string()];
    expected.extend((0..20).map(|i| format!("n{i}")));
    expected.push("exit".into());
    expected.reverse();
    assert_eq!(nodes, expected, "{log}");
    git(
        &work,
        &[
            "cat-file",
            "-p",
            &format!("refs/heddle/{id}:checkpoint.json"),
        ],
    );
}

#[test]
fn a_run_rebuilt_from_git_alone_gets_its_whole_history_back() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let flow = sandbox.write_flow(
        "f.dot",
        r#"digraph F { start [shape=Mdiamond]; exit [shape=Msquare];
            a [shape=diamond]; b [shape=diamond];
            check [shape=parallelogram, script="test -n \"$FIXED\""];
            start -> a -> b -> check; check -> exit [condition="outcome=success"]; }"#,
    );
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(!out.status.success(), "the check should fail first");
    let id = run_id(&sandbox.only_run());
    let (_, rebuilt) = sandbox.resume_from_git_in_clone(&id, &[("FIXED", "1")]);
    let history = std::fs::read_to_string(rebuilt.join("timeline.jsonl")).unwrap();
    let nodes: Vec<String> = history
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            Some(v["stage"]["node_id"].as_str()?.to_string())
        })
        .collect();
    assert_eq!(nodes, ["start", "a", "b", "check", "check", "exit"]);
}

/// A chain of `n` conditional nodes, then `slow`, a command that waits a minute unless the
/// file `proceed` exists.
fn chain_then_slow(n: usize, proceed: &Path) -> String {
    let nodes: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
    format!(
        "digraph C {{ start [shape=Mdiamond]; exit [shape=Msquare];\n{}\n\
         slow [shape=parallelogram, script=\"test -e '{}' || sleep 60\"];\n\
         start -> {} -> slow -> exit; }}",
        nodes
            .iter()
            .map(|n| format!("{n} [shape=diamond];"))
            .collect::<String>(),
        proceed.display(),
        nodes.join(" -> ")
    )
}

#[test]
fn with_git_the_head_lines_carry_the_checkpoint_and_its_commit_between_rewrites() {
    let sandbox = Sandbox::new();
    sandbox.clean_repo();
    let proceed = sandbox.path().join("proceed");
    let flow = sandbox.write_flow("c.dot", &chain_then_slow(100, &proceed));
    let mut child = sandbox.spawn(&["run", flow.to_str().unwrap()]);
    let run = wait_for_stage(&sandbox, &mut child, "slow");
    child.kill().unwrap();
    child.wait().unwrap();
    let id = run_id(&run);
    let work = sandbox.work();

    // checkpoint.json is rewritten every 64 stages: on disk it is at stage 65 ...
    let on_disk = json(&run.join("checkpoint.json"));
    assert_eq!(on_disk["stages"], 65, "{on_disk}");
    // ... and the head lines after it bring the run to stage 101 (start, n0..n99), with the
    // commit of the last checkpoint.
    let loaded = loaded_checkpoint(&run);
    assert_eq!(loaded["stages"], 101, "{loaded}");
    assert_eq!(loaded["current_node"], "n99");
    assert_eq!(loaded["next_node_id"], "slow");
    let tip = git(&work, &["rev-parse", &format!("heddle/run/{id}")]);
    assert_eq!(loaded["git_commit_sha"], tip.trim(), "{loaded}");
    // The metadata commit holds the checkpoint as it stood after that stage (before its
    // commit existed) and the history it covers.
    let reference = format!("refs/heddle/{id}");
    let committed: Value = serde_json::from_str(&git(
        &work,
        &["cat-file", "-p", &format!("{reference}:checkpoint.json")],
    ))
    .unwrap();
    assert_eq!(committed["stages"], 101, "{committed}");
    assert_eq!(committed["current_node"], "n99");

    // Resumed, it runs `slow` (killed mid-stage) and `exit`, and nothing twice.
    std::fs::write(&proceed, "").unwrap();
    let out = sandbox.heddle(&["resume", &id]);
    assert!(out.status.success(), "{}", describe(&out));
    let nodes = completed_nodes(&run);
    let mut expected = vec!["start".to_string()];
    expected.extend((0..100).map(|i| format!("n{i}")));
    expected.extend(["slow".to_string(), "exit".to_string()]);
    assert_eq!(nodes, expected);
    // A run that ended leaves checkpoint.json current.
    assert_eq!(json(&run.join("checkpoint.json"))["stages"], 103);
}
