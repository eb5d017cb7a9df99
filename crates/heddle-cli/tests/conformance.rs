//! The conformance suite: every `tests/conformance/NAME.dot` (or `NAME.fabro`) is run through
//! the real `heddle` binary (`heddle run --dry-run --auto-approve`) in a sandbox of its own and
//! checked against `NAME.expect` (format in tests/conformance/README.md). All cases run; the
//! test fails listing every case that did not conform, and says how many passed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::Value;

mod sandbox;

use sandbox::{Sandbox, describe, events, json, text};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance")
}

/// The cases: every workflow file (`.dot`, `.fabro`) with its `.expect`, sorted by name.
fn cases() -> Vec<(String, PathBuf, String)> {
    let mut cases: Vec<(String, PathBuf, String)> = std::fs::read_dir(suite_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| heddle_workflow::is_workflow_path(p))
        .map(|dot| {
            let name = dot.file_stem().unwrap().to_string_lossy().into_owned();
            let expect = std::fs::read_to_string(dot.with_extension("expect"))
                .unwrap_or_else(|e| panic!("{name}.expect: {e}"));
            (name, dot, expect)
        })
        .collect();
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    cases
}

/// The value of the first `key:` line of `expect`.
fn setting<'a>(expect: &'a str, key: &str) -> Option<&'a str> {
    expect.lines().find_map(|line| {
        let (k, v) = line.trim().split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// Keys checked without a run folder (a run that could not start has none).
const WITHOUT_RUN: &[&str] = &["exit", "stderr", "lint", "args", "target"];

/// Runs one case; the list of what did not match (empty when it conforms).
fn check_case(dot: &Path, expect: &str) -> Vec<String> {
    let sandbox = Sandbox::new();
    // `target:` runs another file of the suite (a run config naming the case's graph).
    let target =
        setting(expect, "target").map_or_else(|| dot.to_path_buf(), |t| suite_dir().join(t));
    let mut args = vec!["run", "--dry-run", "--auto-approve"];
    args.extend(
        setting(expect, "args")
            .unwrap_or_default()
            .split_whitespace(),
    );
    args.push(target.to_str().unwrap());
    let out = sandbox.heddle(&args);
    let stderr = text(&out.stderr);
    let runs = sandbox.runs();
    let run = runs.first().cloned().unwrap_or_default();
    let mut problems = Vec::new();
    if runs.is_empty() {
        let needs_run = expect.lines().map(str::trim).any(|line| {
            !line.is_empty()
                && !line.starts_with('#')
                && !WITHOUT_RUN.contains(&line.split_once(':').map_or(line, |(k, _)| k).trim())
        });
        if needs_run {
            problems.push(format!("no run folder was created\n{}", describe(&out)));
            return problems;
        }
    }
    let run = run.as_path();
    let progress = if runs.is_empty() {
        Vec::new()
    } else {
        events(run)
    };
    let conclusion_path = run.join("conclusion.json");
    let conclusion = if conclusion_path.exists() {
        json(&conclusion_path)
    } else {
        Value::Null
    };
    for line in expect.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.trim();
        match key.trim() {
            "path" => {
                let path: Vec<&str> = progress
                    .iter()
                    .filter(|e| e["event"] == "stage.started")
                    .filter_map(|e| e["node_id"].as_str())
                    .collect();
                let want: Vec<&str> = value.split_whitespace().collect();
                if path != want {
                    problems.push(format!("path {path:?}, want {want:?}"));
                }
            }
            "nodes" => {
                let mut started: Vec<&str> = progress
                    .iter()
                    .filter(|e| e["event"] == "stage.started")
                    .filter_map(|e| e["node_id"].as_str())
                    .collect();
                let mut want: Vec<&str> = value.split_whitespace().collect();
                started.sort_unstable();
                want.sort_unstable();
                if started != want {
                    problems.push(format!("nodes started {started:?}, want {want:?}"));
                }
            }
            "status" => {
                let status = conclusion["status"].as_str().unwrap_or("(no conclusion)");
                if status != value {
                    problems.push(format!(
                        "status {status}, want {value} (reason: {})",
                        conclusion["failure_reason"]
                    ));
                }
                let code = if value == "success" { 0 } else { 1 };
                if out.status.code() != Some(code) {
                    problems.push(format!("exit code {:?}, want {code}", out.status.code()));
                }
            }
            "event" => {
                if !progress.iter().any(|e| e["event"] == value) {
                    problems.push(format!("no `{value}` event"));
                }
            }
            "reason" => {
                let reason = conclusion["failure_reason"].as_str().unwrap_or_default();
                if !reason.contains(value) {
                    problems.push(format!("failure reason {reason:?} lacks {value:?}"));
                }
            }
            "notes" => {
                let notes = conclusion["notes"].as_str().unwrap_or_default();
                if !notes.contains(value) {
                    problems.push(format!("conclusion notes {notes:?} lack {value:?}"));
                }
            }
            "stage" => {
                let (node, status) = value.split_once('=').unwrap();
                let file = run.join("nodes").join(node.trim()).join("status.json");
                let got = if file.exists() {
                    json(&file)["status"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string()
                } else {
                    "(no status.json)".to_string()
                };
                if got != status.trim() {
                    problems.push(format!(
                        "stage {} is {got}, want {}",
                        node.trim(),
                        status.trim()
                    ));
                }
            }
            "file" => {
                if !run.join(value).exists() {
                    problems.push(format!("no {value} in the run folder"));
                }
            }
            "no_file" => {
                if run.join(value).exists() {
                    problems.push(format!("{value} should not be in the run folder"));
                }
            }
            "work_file" => {
                let (name, content) = value.split_once('=').unwrap();
                let got = std::fs::read_to_string(sandbox.work().join(name.trim()))
                    .unwrap_or_else(|_| "(missing)".to_string());
                if got.trim() != content.trim() {
                    problems.push(format!(
                        "work file {} holds {got:?}, want {:?}",
                        name.trim(),
                        content.trim()
                    ));
                }
            }
            "args" | "target" => {}
            "exit" => {
                let want: i32 = value.parse().unwrap();
                if out.status.code() != Some(want) {
                    problems.push(format!("exit code {:?}, want {want}", out.status.code()));
                }
            }
            "contains" => {
                let (name, content) = value.split_once('=').unwrap();
                let got = std::fs::read_to_string(run.join(name.trim())).unwrap_or_default();
                if !got.contains(content.trim()) {
                    problems.push(format!(
                        "{} does not contain {:?}:\n{got}",
                        name.trim(),
                        content.trim()
                    ));
                }
            }
            "stderr" => {
                if !stderr.contains(value) {
                    problems.push(format!("stderr lacks {value:?}"));
                }
            }
            "lint" => {
                let checked = sandbox.heddle(&["validate", dot.to_str().unwrap()]);
                let said = format!("{}{}", text(&checked.stdout), text(&checked.stderr));
                if !said.contains(value) {
                    problems.push(format!(
                        "heddle validate does not report {value:?}:\n{said}"
                    ));
                }
            }
            other => problems.push(format!("unknown expectation `{other}`")),
        }
    }
    if !problems.is_empty() {
        problems.push(describe(&out));
    }
    problems
}

#[test]
fn every_conformance_case_runs_as_fabro_runs_it() {
    let cases = cases();
    assert!(cases.len() >= 10, "found only {} cases", cases.len());
    let mut failures = Vec::new();
    for (name, dot, expect) in &cases {
        let problems = check_case(dot, expect);
        if !problems.is_empty() {
            failures.push(format!("== {name}\n{}", problems.join("\n")));
        }
    }
    let passed = cases.len() - failures.len();
    println!("conformance: {passed} of {} cases passed", cases.len());
    assert!(
        failures.is_empty(),
        "{passed} of {} cases passed; failing:\n{}",
        cases.len(),
        failures.join("\n\n")
    );
}
