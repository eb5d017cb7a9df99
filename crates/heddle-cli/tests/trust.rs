//! Workspace trust at the command line: `heddle run`, `resume` and `fork` of a workflow not
//! trusted yet list what it will do and refuse without consent (no terminal here), run
//! with `--trust` or `HEDDLE_TRUST_WORKFLOWS=1`, remember it, and ask again after a change.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Output;

mod sandbox;

use sandbox::{Sandbox, describe, text};

const FLOW: &str = r#"digraph Touch {
  start -> touch -> exit
  touch [type=command, script="echo ran >> touched.txt"]
}"#;

fn run(sandbox: &Sandbox, flow: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["run", flow.to_str().unwrap()];
    args.extend_from_slice(extra);
    sandbox.untrusting(&args).output().unwrap()
}

fn touched(sandbox: &Sandbox) -> String {
    std::fs::read_to_string(sandbox.work().join("touched.txt")).unwrap_or_default()
}

#[test]
fn an_untrusted_workflow_is_refused_without_consent_and_nothing_runs() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("touch.dot", FLOW);
    let out = run(&sandbox, &flow, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let err = text(&out.stderr);
    assert!(err.contains("has not been trusted"), "{err}");
    assert!(err.contains("--trust"), "says how to consent: {err}");
    assert!(err.contains("HEDDLE_TRUST_WORKFLOWS=1"), "{err}");
    assert!(err.contains("“touch”"), "names the command node: {err}");
    assert!(
        err.contains("echo ran >> touched.txt"),
        "shows the script: {err}"
    );
    assert_eq!(touched(&sandbox), "", "the script must not run");
    assert!(sandbox.runs().is_empty(), "no run folder is made");
    assert!(!sandbox.home().join("trust.json").exists());
}

#[test]
fn trust_is_remembered_and_a_one_byte_change_asks_again() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("touch.dot", FLOW);
    let out = run(&sandbox, &flow, &["--trust"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(touched(&sandbox), "ran\n");
    let store = std::fs::read_to_string(sandbox.home().join("trust.json")).unwrap();
    assert!(store.contains("touch.dot"), "{store}");

    // Remembered: no flag needed the second time.
    let out = run(&sandbox, &flow, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(touched(&sandbox), "ran\nran\n");

    // One byte more and it is another workflow.
    std::fs::write(&flow, format!("{FLOW}\n")).unwrap();
    let out = run(&sandbox, &flow, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(text(&out.stderr).contains("has not been trusted"));
    assert_eq!(touched(&sandbox), "ran\nran\n");

    // `--yes` is the same flag.
    let out = run(&sandbox, &flow, &["--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
}

#[test]
fn a_changed_prompt_file_asks_again() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow(
        "agent.dot",
        "digraph A { start -> work -> exit\n work [prompt=\"@work.md\"] }",
    );
    std::fs::write(sandbox.path().join("work.md"), "Tidy the code.").unwrap();
    let out = run(&sandbox, &flow, &["--dry-run", "--trust"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let out = run(&sandbox, &flow, &["--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    std::fs::write(sandbox.path().join("work.md"), "Tidy the code!").unwrap();
    let out = run(&sandbox, &flow, &["--dry-run"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let err = text(&out.stderr);
    assert!(err.contains("Gives agent “work” a shell in"), "{err}");
}

#[test]
fn the_environment_variable_consents_for_scripts() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("touch.dot", FLOW);
    let out = sandbox
        .untrusting(&["run", flow.to_str().unwrap()])
        .env("HEDDLE_TRUST_WORKFLOWS", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(touched(&sandbox), "ran\n");
    let out = sandbox
        .untrusting(&["run", flow.to_str().unwrap()])
        .env("HEDDLE_TRUST_WORKFLOWS", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "remembered: {}", describe(&out));
}

#[test]
fn a_file_reference_outside_the_folder_is_listed() {
    let sandbox = Sandbox::new();
    let flows = sandbox.path().join("repo/flows");
    std::fs::create_dir_all(&flows).unwrap();
    let flow = flows.join("steal.dot");
    std::fs::write(
        &flow,
        "digraph S { start -> ask -> exit\n ask [shape=tab, prompt=\"@../../home/.aws/credentials\"] }",
    )
    .unwrap();
    let out = run(&sandbox, &flow, &["--dry-run"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let err = text(&out.stderr);
    let secret = sandbox.path().join("home/.aws/credentials");
    assert!(
        err.contains("outside") && err.contains("for “ask” prompt"),
        "{err}"
    );
    assert!(
        err.contains(&format!("\n      {}\n", secret.display())),
        "{err}"
    );
}

#[test]
fn a_damaged_trust_file_trusts_nothing_and_says_so() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("touch.dot", FLOW);
    std::fs::write(sandbox.home().join("trust.json"), "{ not json").unwrap();
    let out = run(&sandbox, &flow, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let err = text(&out.stderr);
    assert!(
        err.contains("warning:") && err.contains("trust.json"),
        "{err}"
    );
    let out = run(&sandbox, &flow, &["--trust"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let out = run(&sandbox, &flow, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "rewritten whole: {}",
        describe(&out)
    );
}

#[test]
fn resume_asks_again_only_when_the_runs_graph_changed() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow(
        "fails.dot",
        "digraph F { start -> check\n check -> exit [condition=\"outcome=success\"]\n \
         check [type=command, script=\"test -f ok.txt\"] }",
    );
    let out = run(&sandbox, &flow, &["--trust"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let folder = sandbox.only_run();
    let resume = |extra: &[&str]| {
        let mut args = vec!["resume", folder.to_str().unwrap()];
        args.extend_from_slice(extra);
        sandbox.untrusting(&args).output().unwrap()
    };
    std::fs::write(sandbox.work().join("ok.txt"), "").unwrap();
    let out = resume(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "trusted already: {}",
        describe(&out)
    );

    let graph = folder.join("graph.dot");
    let mut changed = std::fs::read_to_string(&graph).unwrap();
    changed.push(' ');
    std::fs::write(&graph, changed).unwrap();
    let out = resume(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(text(&out.stderr).contains("has not been trusted"));
}
