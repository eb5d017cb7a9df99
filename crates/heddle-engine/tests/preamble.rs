#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The preamble each fidelity mode renders (how the fidelity and thread are chosen is in
//! fidelity_resolution.rs).

use std::collections::{BTreeMap, HashMap};

use heddle_engine::context::keys;
use heddle_engine::preamble::{
    PreambleInput, RunDirOutputs, StageOutputs, build_preamble, shows_context_key,
    stages_shown_at_most, tokens,
};
use heddle_engine::{FailureClass, Fidelity, RunDir, StageRecord, StageStatus, Usage};
use heddle_workflow::HandlerKind;
use serde_json::{Value as Json, json};

// ---------------------------------------------------------------------------------------
// Helpers

/// Stage files kept in memory, keyed by (stage folder, file name).
#[derive(Default)]
struct MemOutputs(HashMap<(String, String), String>);

impl MemOutputs {
    fn with(mut self, stage_dir: &str, file: &str, text: &str) -> Self {
        self.0
            .insert((stage_dir.to_string(), file.to_string()), text.to_string());
        self
    }
}

impl StageOutputs for MemOutputs {
    fn read(&self, stage: &StageRecord, file: &str) -> Option<String> {
        self.0
            .get(&(stage.stage_dir.clone(), file.to_string()))
            .cloned()
    }
}

fn record(node: &str, kind: HandlerKind, status: StageStatus) -> StageRecord {
    StageRecord {
        node_id: node.to_string(),
        kind,
        visit: 1,
        attempts: 1,
        status,
        stage_dir: RunDir::stage_dir_name(node, 1),
        started_at: "2025-01-01T00:00:00Z".into(),
        ended_at: "2025-01-01T00:00:01Z".into(),
        duration_ms: 1000,
        branch: None,
        failure_reason: None,
        failure_class: None,
        notes: String::new(),
        preferred_label: None,
        model: None,
        usage: None,
        cost_usd: None,
        files_touched: Vec::new(),
        script: None,
        simulated: false,
        artifacts: 0,
        junit: None,
        blobs: Default::default(),
    }
}

/// plan (agent, success) → test (command, failed on its second visit) → review (human).
fn history() -> Vec<StageRecord> {
    let mut plan = record("plan", HandlerKind::Agent, StageStatus::Success);
    plan.model = Some("claude-sonnet-4-5".into());
    plan.usage = Some(Usage {
        input_tokens: 12_400,
        output_tokens: 3_200,
        ..Usage::default()
    });
    plan.files_touched = vec!["docs/plan.md".into()];
    let mut test = record("test", HandlerKind::Command, StageStatus::Fail);
    test.visit = 2;
    test.stage_dir = RunDir::stage_dir_name("test", 2);
    test.script = Some("cargo test 2>&1".into());
    test.failure_reason = Some("exit status 101".into());
    test.failure_class = Some(FailureClass::Deterministic);
    let mut review = record("review", HandlerKind::Human, StageStatus::Success);
    review.preferred_label = Some("Fix the tests".into());
    vec![plan, test, review]
}

fn outputs() -> MemOutputs {
    MemOutputs::default()
        .with(
            "nodes/plan",
            "response.md",
            "PLAN-RESPONSE: add a /health route, then test it.",
        )
        .with(
            "nodes/test-visit_2",
            "stdout.log",
            "running 42 tests\ntest health ... FAILED\n",
        )
        .with("nodes/test-visit_2", "stderr.log", "")
}

fn context() -> BTreeMap<String, Json> {
    let mut ctx = BTreeMap::new();
    ctx.insert("tests_passed".to_string(), json!(false));
    ctx.insert("ticket".to_string(), json!("HED-12"));
    ctx.insert("limits".to_string(), json!({"a": 1, "b": [1, 2]}));
    ctx.insert(keys::RUN_ID.to_string(), json!("SECRET-RUN-ID-KEY"));
    ctx.insert(keys::CURRENT_NODE.to_string(), json!("CURRENT-NODE-VALUE"));
    ctx.insert("graph.goal".to_string(), json!("GRAPH-GOAL-VALUE"));
    ctx.insert(keys::response("plan"), json!("RESPONSE-KEY-VALUE"));
    ctx.insert(keys::output("plan"), json!({"OUTPUT_KEY": 1}));
    ctx.insert(keys::OUTCOME.to_string(), json!("OUTCOME-VALUE"));
    ctx.insert(
        keys::COMMAND_OUTPUT.to_string(),
        json!("COMMAND-OUTPUT-VALUE"),
    );
    ctx.insert(
        keys::LAST_RESPONSE.to_string(),
        json!("LAST-RESPONSE-VALUE"),
    );
    ctx.insert(
        keys::FAILURE_SIGNATURE.to_string(),
        json!("SIGNATURE-VALUE"),
    );
    ctx
}

fn render(fidelity: Fidelity, stages: &[StageRecord], outputs: &dyn StageOutputs) -> String {
    let ctx = context();
    build_preamble(&PreambleInput {
        goal: Some("Add a /health endpoint"),
        run_id: "run-01JTEST",
        fidelity,
        stages,
        earlier: 0,
        context: &ctx,
        outputs,
    })
}

fn render_history(fidelity: Fidelity) -> String {
    render(fidelity, &history(), &outputs())
}

// ---------------------------------------------------------------------------------------
// Modes

#[test]
fn full_renders_nothing() {
    assert_eq!(render_history(Fidelity::Full), "");
}

#[test]
fn truncate_renders_only_goal_and_run_id() {
    let text = render_history(Fidelity::Truncate);
    assert_eq!(text, "Goal: Add a /health endpoint\nRun: run-01JTEST\n");
    let ctx = BTreeMap::new();
    let no_goal = build_preamble(&PreambleInput {
        goal: None,
        run_id: "r1",
        fidelity: Fidelity::Truncate,
        stages: &history(),
        earlier: 0,
        context: &ctx,
        outputs: &MemOutputs::default(),
    });
    assert_eq!(no_goal, "Goal: (not set)\nRun: r1\n");
}

#[test]
fn compact_lists_each_stage_with_handler_details() {
    let text = render_history(Fidelity::Compact);
    for expected in [
        "Goal: Add a /health endpoint",
        "## Completed stages",
        "- **plan**: success",
        "  - Model: claude-sonnet-4-5, 12.4k in / 3.2k out",
        "  - Files: docs/plan.md",
        "- **test (visit 2)**: fail",
        "  - Failure (deterministic): exit status 101",
        "  - Script: `cargo test 2>&1`",
        "test health ... FAILED",
        "  - Stderr: (empty)",
        "- **review**: success",
        "  - Choice: Fix the tests",
        "## Context",
        "- tests_passed: false",
        "- ticket: HED-12",
        r#"- limits: {"a":1,"b":[1,2]}"#,
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Compact never quotes responses.
    assert!(!text.contains("PLAN-RESPONSE"), "{text}");
    // Stages appear in order.
    let (p, t, r) = (
        text.find("**plan**").unwrap(),
        text.find("**test").unwrap(),
        text.find("**review**").unwrap(),
    );
    assert!(p < t && t < r, "{text}");
}

#[test]
fn compact_snapshot_of_a_small_history() {
    let mut fix = record("fix", HandlerKind::Command, StageStatus::Success);
    fix.script = Some("make fix".into());
    let outputs = MemOutputs::default().with("nodes/fix", "stdout.log", "fixed 2 files\n");
    let ctx = BTreeMap::from([("retries_left".to_string(), json!(2))]);
    let text = build_preamble(&PreambleInput {
        goal: Some("Fix lint"),
        run_id: "r7",
        fidelity: Fidelity::Compact,
        stages: &[fix],
        earlier: 0,
        context: &ctx,
        outputs: &outputs,
    });
    let expected = "\
Goal: Fix lint
Run: r7

## Completed stages
- **fix**: success
  - Script: `make fix`
  - Stdout:
    ```
    fixed 2 files
    ```
  - Stderr: (not recorded)

## Context
- retries_left: 2
";
    assert_eq!(text, expected);
}

#[test]
fn summary_high_has_a_section_per_stage_and_response_excerpts() {
    let text = render_history(Fidelity::SummaryHigh);
    for expected in [
        "### plan (success)",
        "### test (visit 2) (fail)",
        "### review (success)",
        "- Model: claude-sonnet-4-5, 12.4k in / 3.2k out",
        "- Response:",
        "PLAN-RESPONSE: add a /health route",
        "- Failure (deterministic): exit status 101",
        "test health ... FAILED",
        "- Choice: Fix the tests",
        "- tests_passed: false",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(!text.contains("- **plan**"), "{text}");
}

#[test]
fn summary_medium_details_only_failed_and_last_stages() {
    let text = render_history(Fidelity::SummaryMedium);
    for expected in [
        "- **plan**: success",
        "- **test (visit 2)**: fail",
        "  - Failure (deterministic): exit status 101",
        "test health ... FAILED",
        "- **review**: success\n  - Choice: Fix the tests\n",
        "- tests_passed: false",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // A human stage that is neither failed nor last gets its choice inline.
    let mut stages = history();
    stages.push(record("deploy", HandlerKind::Command, StageStatus::Success));
    let longer = render(Fidelity::SummaryMedium, &stages, &outputs());
    assert!(
        longer.contains("- **review**: success, chose \"Fix the tests\"\n- **deploy**"),
        "{longer}"
    );
    // plan succeeded and is not last: no model line, no files.
    assert!(!text.contains("claude-sonnet"), "{text}");
    assert!(!text.contains("docs/plan.md"), "{text}");
    assert!(!text.contains("PLAN-RESPONSE"), "{text}");
}

#[test]
fn summary_low_is_one_line_per_stage() {
    let text = render_history(Fidelity::SummaryLow);
    for expected in [
        "- plan: success\n",
        "- test (visit 2): fail\n",
        "- review: success\n",
        "- tests_passed: false",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    for absent in [
        "claude-sonnet",
        "cargo test",
        "FAILED",
        "exit status",
        "Fix the tests",
    ] {
        assert!(!text.contains(absent), "{absent:?} in:\n{text}");
    }
}

#[test]
fn internal_and_inline_keys_stay_out_of_every_mode() {
    for mode in [
        Fidelity::Compact,
        Fidelity::SummaryHigh,
        Fidelity::SummaryMedium,
        Fidelity::SummaryLow,
        Fidelity::Truncate,
    ] {
        let text = render_history(mode);
        for hidden in [
            "SECRET-RUN-ID-KEY",
            "CURRENT-NODE-VALUE",
            "GRAPH-GOAL-VALUE",
            "RESPONSE-KEY-VALUE",
            "OUTPUT_KEY",
            "OUTCOME-VALUE",
            "COMMAND-OUTPUT-VALUE",
            "LAST-RESPONSE-VALUE",
            "SIGNATURE-VALUE",
        ] {
            assert!(!text.contains(hidden), "{mode}: {hidden} leaked:\n{text}");
        }
    }
    assert!(shows_context_key("tests_passed"));
    assert!(shows_context_key("human.gate.text"));
    assert!(!shows_context_key("preferred_label"));
    assert!(!shows_context_key("output.plan"));
    assert!(!shows_context_key("thread.main"));
}

#[test]
fn labels_simulated_branch_and_attempts() {
    let mut lint = record("lint", HandlerKind::Agent, StageStatus::Success);
    lint.simulated = true;
    lint.branch = Some("lint_branch".into());
    lint.attempts = 3;
    let outputs = MemOutputs::default();
    let compact = render(Fidelity::Compact, std::slice::from_ref(&lint), &outputs);
    assert!(
        compact.contains("- **lint**: success (simulated) [branch lint_branch]"),
        "{compact}"
    );
    assert!(compact.contains("  - Attempts: 3"), "{compact}");
    let low = render(Fidelity::SummaryLow, &[lint], &outputs);
    assert!(
        low.contains("- lint: success (simulated) [branch lint_branch]\n"),
        "{low}"
    );
}

#[test]
fn long_stdout_keeps_its_tail_and_says_what_was_cut() {
    let mut stages = history();
    stages.truncate(2);
    // Multi-byte characters around the cut point must not split.
    let long = format!("HEAD-MARKER\n{}\nTAIL-MARKER\n", "é".repeat(5000));
    let outputs = outputs().with("nodes/test-visit_2", "stdout.log", &long);
    let total = long.trim_end().chars().count();
    let compact = render(Fidelity::Compact, &stages, &outputs);
    assert!(compact.contains("TAIL-MARKER"), "{compact}");
    assert!(!compact.contains("HEAD-MARKER"));
    assert!(
        compact.contains(&format!("- Stdout (last 1500 of {total} chars):")),
        "{compact}"
    );
    let high = render(Fidelity::SummaryHigh, &stages, &outputs);
    assert!(high.contains(&format!("- Stdout (last 4000 of {total} chars):")));
    assert!(high.len() > compact.len());
}

#[test]
fn long_context_values_are_clipped_with_a_note() {
    let mut ctx = BTreeMap::new();
    ctx.insert("notes".to_string(), json!("ü".repeat(2000)));
    ctx.insert(
        "blob".to_string(),
        json!("file:///runs/r1/artifacts/x.json"),
    );
    ctx.insert("multi".to_string(), json!("line one\nline two"));
    let text = build_preamble(&PreambleInput {
        goal: Some("g"),
        run_id: "r",
        fidelity: Fidelity::Compact,
        stages: &[],
        earlier: 0,
        context: &ctx,
        outputs: &MemOutputs::default(),
    });
    assert!(text.contains("(none yet)"), "{text}");
    assert!(text.contains("… [1500 more chars cut]"), "{text}");
    assert!(text.contains("- blob: (stored in file /runs/r1/artifacts/x.json)"));
    assert!(text.contains("- multi:\n  ```\n  line one\n  line two\n  ```\n"));
}

fn many_stages(n: usize) -> Vec<StageRecord> {
    (0..n)
        .map(|i| {
            let mut s = record(
                &format!("step_{i:03}"),
                HandlerKind::Command,
                StageStatus::Fail,
            );
            s.script = Some(format!("./check.sh {i}"));
            s.failure_reason = Some(format!("check {i} failed: {}", "x".repeat(200)));
            s
        })
        .collect()
}

#[test]
fn low_and_medium_are_capped_on_long_runs() {
    let stages = many_stages(200);
    let outputs = MemOutputs::default();
    for (mode, cap) in [
        (Fidelity::SummaryLow, 2400),
        (Fidelity::SummaryMedium, 6000),
    ] {
        let text = render(mode, &stages, &outputs);
        let n = text.chars().count();
        assert!(n <= cap, "{mode}: {n} chars");
        assert!(n > cap / 2, "{mode}: only {n} chars");
        assert!(
            text.contains("earlier stages omitted to fit the"),
            "{mode}:\n{text}"
        );
        // The latest stages survive, the first ones go.
        assert!(text.contains("step_199"), "{mode}");
        assert!(!text.contains("step_000"), "{mode}");
        assert!(text.contains("- tests_passed: false"), "{mode}");
    }
    // A short run needs no elision.
    let low = render(Fidelity::SummaryLow, &many_stages(5), &outputs);
    assert!(!low.contains("omitted"), "{low}");
}

#[test]
fn rendering_is_deterministic() {
    for mode in Fidelity::ALL {
        assert_eq!(render_history(mode), render_history(mode));
    }
}

#[test]
fn token_counts_read_like_people_write_them() {
    assert_eq!(tokens(0), "0");
    assert_eq!(tokens(999), "999");
    assert_eq!(tokens(1000), "1k");
    assert_eq!(tokens(12_449), "12.4k");
    assert_eq!(tokens(3_250), "3.3k");
    assert_eq!(tokens(999_999), "1M");
    assert_eq!(tokens(1_250_000), "1.3M");
}

#[test]
fn run_dir_outputs_read_stage_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = RunDir::create(tmp.path().join("run")).unwrap();
    let stage_dir = dir.stage_dir("test", 2);
    std::fs::create_dir_all(&stage_dir).unwrap();
    std::fs::write(stage_dir.join("stdout.log"), "ON-DISK-STDOUT\n").unwrap();
    std::fs::write(stage_dir.join("stderr.log"), "ON-DISK-STDERR\n").unwrap();
    let stages = history();
    let reader = RunDirOutputs(&dir);
    assert_eq!(
        reader.read(&stages[1], "stdout.log").as_deref(),
        Some("ON-DISK-STDOUT\n")
    );
    assert_eq!(reader.read(&stages[0], "response.md"), None);
    let text = render(Fidelity::Compact, &stages, &reader);
    assert!(text.contains("ON-DISK-STDOUT"), "{text}");
    assert!(text.contains("ON-DISK-STDERR"), "{text}");
}

#[test]
fn run_dir_outputs_read_logs_with_invalid_bytes_and_only_their_end() {
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::at(dir.path());
    std::fs::create_dir_all(dir.path().join("nodes/test")).unwrap();
    let mut log: Vec<u8> = std::iter::repeat_n(b'x', 600 * 1024).collect();
    log.extend(b"\ncaf\xe9 latin-1 byte\nFATAL: the last line\n");
    std::fs::write(dir.path().join("nodes/test/stdout.log"), &log).unwrap();
    let stage = record("test", HandlerKind::Command, StageStatus::Fail);
    let text = RunDirOutputs(&run).read(&stage, "stdout.log").unwrap();
    assert!(
        text.ends_with("caf\u{FFFD} latin-1 byte\nFATAL: the last line\n"),
        "{}",
        &text[text.len() - 60..]
    );
    assert!(text.len() <= 256 * 1024 + 4, "read {} bytes", text.len());
}

/// Counts the stage files a preamble reads.
struct CountingOutputs(std::sync::atomic::AtomicUsize);

impl StageOutputs for CountingOutputs {
    fn read(&self, _stage: &StageRecord, _file: &str) -> Option<String> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some("ok\n".repeat(20))
    }
}

#[test]
fn a_long_run_reads_only_the_stage_files_it_shows_and_the_latest_stages_suffice() {
    let stages = many_stages(7000);
    for mode in [
        Fidelity::Compact,
        Fidelity::SummaryHigh,
        Fidelity::SummaryLow,
    ] {
        let counting = CountingOutputs(0.into());
        let all = render(mode, &stages, &counting);
        let read = counting.0.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            read < 600,
            "{mode}: read {read} stage files for 7,000 stages"
        );
        // The caller may pass only the latest stages the mode can show: the same text.
        let from = stages.len().saturating_sub(stages_shown_at_most(mode));
        let ctx = context();
        let tail = build_preamble(&PreambleInput {
            goal: Some("Add a /health endpoint"),
            run_id: "run-01JTEST",
            fidelity: mode,
            stages: &stages[from..],
            earlier: from,
            context: &ctx,
            outputs: &CountingOutputs(0.into()),
        });
        assert_eq!(tail, all, "{mode}");
    }
}
