//! `heddle run` and `heddle resume` on bad input: each gives one clear error, the right exit
//! code, and loses nothing; and run ids given as prefixes (unique, ambiguous, unknown).
//! Every test keeps HEDDLE_HOME and the work dir in its own temp dir and never reaches the
//! network.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

mod sandbox;

use sandbox::{Sandbox, describe, json, run_id, text};

/// A workflow `start -> {node} -> exit` where `{node}` has the given attributes; a failing
/// `{node}` has no edge to take (its edge to the exit needs success), so the run fails there.
fn one_stage(node: &str, attrs: &str) -> String {
    format!(
        "digraph One {{\n  start [shape=Mdiamond];\n  exit [shape=Msquare];\n  {node} [{attrs}];\n  start -> {node};\n  {node} -> exit [condition=\"outcome=success\"];\n}}\n"
    )
}

/// Exactly one `error:` line on stderr.
fn assert_one_error(out: &Output) {
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("error:").count(),
        1,
        "want one error: {}",
        describe(out)
    );
}

#[test]
fn a_workflow_with_errors_does_not_start() {
    let cases = [
        (
            "digraph Bad {\n  start [shape=Mdiamond];\n  exit [shape=Msquare];\n  start -> exit [condition=\"outcome==\"];\n}\n",
            "condition_syntax",
            ":4:",
        ),
        (
            "digraph Two {\n  start [shape=Mdiamond];\n  exit [shape=Msquare];\n  begin [shape=Mdiamond];\n  start -> exit;\n  begin -> exit;\n}\n",
            "start_node",
            ":4:3",
        ),
    ];
    for (source, rule, place) in cases {
        let sandbox = Sandbox::new();
        let flow = sandbox.write_flow("bad.dot", source);
        let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
        assert!(stderr.contains(&format!("error[{rule}]")), "{stderr}");
        assert!(
            stderr.contains(&format!("{}{place}", flow.display())),
            "no {place} location in {stderr}"
        );
        assert!(stderr.contains("cannot run"), "{stderr}");
        assert_eq!(stderr.matches("error[").count(), 1, "{stderr}");
        assert!(sandbox.runs().is_empty(), "a run folder was created");
    }
}

#[test]
fn a_missing_interpreter_fails_the_run_naming_the_node_and_program() {
    let sandbox = Sandbox::new();
    let bin = sandbox.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.join("sh")).unwrap();
    let flow = sandbox.write_flow(
        "py.dot",
        &one_stage(
            "compute",
            r#"shape=parallelogram, language="python", script="print(1)""#,
        ),
    );
    let out = sandbox
        .command(&["run", flow.to_str().unwrap()])
        .env("PATH", &bin)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let run = sandbox.only_run();
    let conclusion = json(&run.join("conclusion.json"));
    assert_eq!(conclusion["status"], "fail");
    let reason = conclusion["failure_reason"].as_str().unwrap();
    assert!(
        reason.contains("compute") && reason.contains("python3"),
        "{reason}"
    );
    assert!(stderr.contains("python3"), "{stderr}");
    assert_eq!(
        json(&run.join("checkpoint.json"))["next_node_id"],
        "compute"
    );
}

#[test]
fn a_command_timeout_fails_the_run_promptly() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow(
        "slow.dot",
        &one_stage(
            "nap",
            r#"shape=parallelogram, timeout="1s", script="sleep 30""#,
        ),
    );
    let begun = Instant::now();
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(
        begun.elapsed() < Duration::from_secs(10),
        "took {:?}",
        begun.elapsed()
    );
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let run = sandbox.only_run();
    let reason = json(&run.join("conclusion.json"))["failure_reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        reason.contains("timed out") && reason.contains("nap"),
        "{reason}"
    );
    let timing = json(&run.join("nodes/nap/script_timing.json"));
    assert_eq!(timing["timed_out"], true, "{timing}");
    assert!(
        text(&out.stderr).contains("timed out"),
        "{}",
        describe(&out)
    );
}

#[test]
fn an_unwritable_run_dir_is_an_error_naming_it() {
    let sandbox = Sandbox::new();
    let afile = sandbox.path().join("afile");
    std::fs::write(&afile, "not a folder").unwrap();
    let run_dir = afile.join("run");
    let flow = sandbox.write_flow(
        "ok.dot",
        &one_stage("say", r#"shape=parallelogram, script="echo hi""#),
    );
    let out = sandbox.heddle(&[
        "run",
        flow.to_str().unwrap(),
        "--run-dir",
        run_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert_one_error(&out);
    assert!(
        text(&out.stderr).contains(run_dir.to_str().unwrap()),
        "{}",
        describe(&out)
    );
    assert_eq!(std::fs::read_to_string(&afile).unwrap(), "not a folder");
    assert!(sandbox.runs().is_empty());
    assert!(!sandbox.work().join("hi").exists());
}

#[test]
fn a_corrupt_checkpoint_stops_resume_and_is_left_as_it_was() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow(
        "fails.dot",
        &one_stage(
            "broken",
            r#"shape=parallelogram, script="echo nope >&2; exit 1""#,
        ),
    );
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let run = sandbox.only_run();
    let reason = json(&run.join("conclusion.json"))["failure_reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        reason.contains("broken") && reason.contains("exit code 1"),
        "{reason}"
    );

    let checkpoint = run.join("checkpoint.json");
    let garbage = b"{\"run_id\": ";
    std::fs::write(&checkpoint, garbage).unwrap();
    let progress = std::fs::read(run.join("progress.jsonl")).unwrap();
    let conclusion = std::fs::read(run.join("conclusion.json")).unwrap();
    let id = run_id(&run);

    let out = sandbox.heddle(&["resume", &id]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert_one_error(&out);
    assert!(
        stderr.contains(&format!("{}:1:", checkpoint.display())),
        "no path:line:column in {stderr}"
    );
    assert!(stderr.contains("corrupt"), "{stderr}");
    assert_eq!(std::fs::read(&checkpoint).unwrap(), garbage);
    assert_eq!(std::fs::read(run.join("progress.jsonl")).unwrap(), progress);
    assert_eq!(
        std::fs::read(run.join("conclusion.json")).unwrap(),
        conclusion
    );
    assert!(!run.join("run.pid").exists());
}

#[test]
fn an_llm_workflow_needs_dry_run_and_simulates_with_it() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow(
        "llm.dot",
        &one_stage("write", r#"shape=box, prompt="Write a haiku about looms""#),
    );
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert_one_error(&out);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--dry-run"), "{stderr}");
    assert!(stderr.contains("write"), "{stderr}");
    assert!(sandbox.runs().is_empty(), "a run folder was created");

    let out = sandbox.heddle(&["run", flow.to_str().unwrap(), "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let run = sandbox.only_run();
    let response = std::fs::read_to_string(run.join("nodes/write/response.md")).unwrap();
    assert!(response.starts_with("[simulated]"), "{response}");
    assert!(run.join("nodes/write/prompt.md").is_file());
    assert_eq!(json(&run.join("manifest.json"))["dry_run"], true);
    assert_eq!(json(&run.join("conclusion.json"))["status"], "success");
}

const QUICK: &str =
    "digraph Quick {\n  start [shape=Mdiamond];\n  exit [shape=Msquare];\n  start -> exit;\n}\n";

#[test]
fn run_ids_resolve_from_unique_prefixes_and_ambiguity_is_explained() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("quick.dot", QUICK);
    for _ in 0..2 {
        let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    }
    let runs = sandbox.runs();
    assert_eq!(runs.len(), 2);
    let ids: Vec<String> = runs.iter().map(|r| run_id(r)).collect();
    let shared = ids[0]
        .chars()
        .zip(ids[1].chars())
        .take_while(|(a, b)| a == b)
        .count();
    assert!(shared >= 1, "{ids:?}");

    // The shortest unique prefix of each resolves (lower case too).
    for (run, id) in runs.iter().zip(&ids) {
        let prefix = id[..=shared].to_ascii_lowercase();
        let out = sandbox.heddle(&["inspect", &prefix, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
        let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(shown["run"]["id"], id.as_str());
        assert_eq!(shown["run"]["folder"], run.to_str().unwrap());
    }

    // The shared prefix is ambiguous: each command says which runs and what to do.
    let ambiguous = &ids[0][..shared];
    for args in [
        vec!["inspect", ambiguous],
        vec!["events", ambiguous],
        vec!["resume", ambiguous],
    ] {
        let out = sandbox.heddle(&args);
        let stderr = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {}", describe(&out));
        for run in &runs {
            let folder = run.file_name().unwrap().to_str().unwrap();
            assert!(stderr.contains(folder), "{args:?}: {stderr}");
        }
        assert!(
            stderr.contains("give more characters"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    }
    let out = sandbox.heddle(&["resume", ambiguous]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));

    // An unknown id points at `heddle ps -a`.
    for args in [vec!["inspect", "ZZZZZZ"], vec!["resume", "ZZZZZZ"]] {
        let out = sandbox.heddle(&args);
        let stderr = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{}", describe(&out));
        assert!(stderr.contains("ZZZZZZ"), "{stderr}");
        assert!(stderr.contains("heddle ps -a"), "{stderr}");
    }
}
