//! `heddle run`, `resume`, `ps`, `events` and `inspect` end to end: the run folder on disk,
//! crash and resume, Ctrl-C. Every test keeps HEDDLE_HOME and the work dir in its own temp
//! dir. (Bad input and run-id prefixes are in run_failures.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

mod sandbox;

use sandbox::{
    Sandbox, assert_seq_without_gaps, describe, events, exit_code_within, json, loaded_checkpoint,
    names, process_gone, read_pid, run_id, text, wait_for, wait_for_stage,
};

fn hello() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hello.dot")
}

#[test]
fn hello_runs_end_to_end_and_leaves_a_complete_run_folder() {
    let sandbox = Sandbox::new();
    let example = hello();
    let out = sandbox.heddle(&["run", example.to_str().unwrap(), "--label", "team=core"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let run = sandbox.only_run();
    let id = run_id(&run);
    let folder = run.file_name().unwrap().to_str().unwrap().to_string();
    let (date, ulid) = folder.split_once('-').unwrap();
    assert!(
        date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()),
        "{folder}"
    );
    assert_eq!(ulid, id);
    assert_eq!(id.len(), 26, "{id}");

    let manifest = json(&run.join("manifest.json"));
    assert_eq!(manifest["workflow_name"], "Hello");
    assert_eq!(manifest["node_count"], 6);
    assert_eq!(manifest["edge_count"], 7);
    assert_eq!(manifest["labels"], serde_json::json!({"team": "core"}));
    assert_eq!(
        std::fs::read(run.join("graph.dot")).unwrap(),
        std::fs::read(&example).unwrap(),
        "graph.dot must be the workflow byte for byte"
    );

    let all = events(&run);
    assert_seq_without_gaps(&all);
    for e in &all {
        for key in ["id", "ts", "run_id", "seq", "event"] {
            assert!(!e[key].is_null(), "envelope without {key}: {e}");
        }
        assert_eq!(e["run_id"], id.as_str());
    }
    let seen = names(&all);
    let wanted = "run.started stage.started stage.completed edge.selected checkpoint.saved \
                  command.output run.completed";
    for wanted in wanted.split_whitespace() {
        assert!(seen.contains(&wanted), "no {wanted} in {seen:?}");
    }
    assert_eq!(seen.last(), Some(&"run.completed"));
    let live = json(&run.join("live.json"));
    assert_eq!(live["run_id"], id.as_str());

    let checkpoint = json(&run.join("checkpoint.json"));
    assert!(checkpoint["next_node_id"].is_null(), "{checkpoint}");
    let completed = sandbox::completed_nodes(&run);
    assert_eq!(completed.last().unwrap(), "exit", "{completed:?}");
    let context = sandbox::context_values(&run);
    assert!(context["command.output"].is_string(), "{context:?}");
    assert_eq!(json(&run.join("conclusion.json"))["status"], "success");
    assert!(!run.join("run.pid").exists(), "run.pid left behind");

    let greet = run.join("nodes/greet");
    let files = "stdout.log stderr.log status.json script_invocation.json script_timing.json";
    for file in files.split_whitespace() {
        assert!(greet.join(file).is_file(), "no nodes/greet/{file}");
    }
    let stdout = std::fs::read_to_string(greet.join("stdout.log")).unwrap();
    assert!(stdout.contains("hello from heddle"), "{stdout}");
    let greeting = std::fs::read_to_string(sandbox.work().join("greeting.txt")).unwrap();
    assert_eq!(greeting.trim(), "hello from heddle");

    // ps -a lists it.
    let out = sandbox.heddle(&["ps", "-a", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["status"], "success");
    assert_eq!(listed[0]["labels"]["team"], "core");
    // Without -a, a finished run is not listed.
    let out = sandbox.heddle(&["ps", "--json"]);
    let running: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(running, serde_json::json!([]));

    // inspect by an 8-character prefix prints the stages.
    let out = sandbox.heddle(&["inspect", &id[..8]]);
    let shown = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(shown.contains(&id), "{shown}");
    assert!(shown.contains("stages (5)"), "{shown}");
    for node in ["start", "greet", "count", "check", "exit"] {
        assert!(
            shown.lines().any(|l| l.trim_start().starts_with(node)),
            "no stage line for {node}: {shown}"
        );
    }

    // events --json prints progress.jsonl, line for line.
    let out = sandbox.heddle(&["events", &id, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let printed: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(printed, all);
}

#[test]
fn json_prints_one_envelope_per_line_on_stdout() {
    let sandbox = Sandbox::new();
    let out = sandbox.heddle(&["run", hello().to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let stdout = text(&out.stdout);
    let printed: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}")))
        .collect();
    assert!(printed.iter().all(Value::is_object));
    assert_eq!(printed.first().unwrap()["event"], "run.started");
    assert_eq!(printed.last().unwrap()["event"], "run.completed");
    assert_eq!(printed, events(&sandbox.only_run()));
}

const CRASHY: &str = r#"digraph Crashy {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    a    [shape=parallelogram, script="echo a >> count.txt"];
    slow [shape=parallelogram, script="echo slow >> count.txt; echo $$ > slow.pid; if [ ! -e \"$HEDDLE_STAGE_DIR/began\" ]; then touch \"$HEDDLE_STAGE_DIR/began\"; sleep 60 & echo $! > sleep.pid.new; mv sleep.pid.new sleep.pid; wait; fi"];
    b    [shape=parallelogram, script="echo b >> count.txt"];
    start -> a -> slow -> b -> exit;
}
"#;

#[test]
fn a_killed_run_shows_as_interrupted_and_resumes_at_the_interrupted_stage() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("crashy.dot", CRASHY);
    let mut child = sandbox.spawn(&["run", flow.to_str().unwrap()]);
    let run = wait_for_stage(&sandbox, &mut child, "slow");
    // The command is running and its process group is on record.
    let work = sandbox.work();
    let recorded = wait_for(Duration::from_secs(20), || {
        work.join("sleep.pid").is_file()
            && std::fs::read_to_string(run.join("nodes/slow/script_invocation.json"))
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .is_some_and(|v| v["pid"].is_u64())
    });
    assert!(recorded, "slow never started: {}", sandbox.spawned_output());
    child.kill().unwrap();
    child.wait().unwrap();
    let shell = read_pid(&work.join("slow.pid"));
    let sleep = read_pid(&work.join("sleep.pid"));
    assert!(!process_gone(sleep), "the orphan should outlive a SIGKILL");
    let before = events(&run);

    let out = sandbox.heddle(&["ps", "-a", "--json"]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    // As the UI says it: the run index is what both read.
    assert_eq!(listed[0]["status"], "interrupted", "{listed}");
    assert!(run.join("run.pid").exists());

    let id = run_id(&run);
    let out = sandbox.heddle(&["resume", &id]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let count = std::fs::read_to_string(work.join("count.txt")).unwrap();
    let lines: Vec<&str> = count.lines().collect();
    // The interrupted stage ran again from the last checkpoint: its first line was put
    // back into the recovery snapshot, not left under the second.
    assert_eq!(lines, ["a", "slow", "b"], "{count}");
    assert_eq!(json(&run.join("conclusion.json"))["status"], "success");
    assert!(!run.join("run.pid").exists());
    assert!(
        wait_for(Duration::from_secs(5), || process_gone(sleep)
            && process_gone(shell)),
        "resume left the crashed run's `sleep 60` (pid {sleep}) or its shell (pid {shell}) running"
    );

    let after = events(&run);
    assert_seq_without_gaps(&after);
    assert_eq!(
        after[..before.len()],
        before[..],
        "earlier events must stay"
    );
    let resumed: Vec<&Value> = after
        .iter()
        .filter(|e| e["event"] == "run.started")
        .collect();
    assert_eq!(resumed.len(), 2, "{resumed:?}");
    assert_eq!(resumed[0]["properties"]["resumed"], false);
    assert_eq!(resumed[1]["properties"]["resumed"], true);
    let first_stage = after[before.len()..]
        .iter()
        .find(|e| e["event"] == "stage.started")
        .unwrap();
    assert_eq!(first_stage["node_id"], "slow");
    let cleanup = after[before.len()..]
        .iter()
        .find(|e| e["event"] == "warning");
    let message = cleanup.map_or("", |e| e["properties"]["message"].as_str().unwrap());
    assert!(
        message.contains("killed") && message.contains("slow"),
        "resume should report the orphans it killed: {cleanup:?}"
    );
}

const GATED: &str = r#"digraph Gated {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    first  [shape=parallelogram, script="echo first >> log.txt"];
    second [shape=parallelogram, script="echo second >> log.txt; if [ -f gate ]; then sleep 60 & echo $! > sleep.pid.new; mv sleep.pid.new sleep.pid; wait; fi"];
    start -> first -> second -> exit;
}
"#;

#[test]
fn ctrl_c_cancels_with_130_and_resume_continues_at_the_interrupted_stage() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("gated.dot", GATED);
    let work = sandbox.work();
    std::fs::write(work.join("gate"), "").unwrap();
    let mut child = sandbox.spawn(&["run", flow.to_str().unwrap()]);
    let run = wait_for_stage(&sandbox, &mut child, "second");
    assert!(
        wait_for(Duration::from_secs(20), || work.join("sleep.pid").is_file()),
        "second never slept: {}",
        sandbox.spawned_output()
    );
    let sleep = read_pid(&work.join("sleep.pid"));
    let interrupted = Instant::now();
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let code = exit_code_within(&mut child, Duration::from_secs(10), "heddle after SIGINT");
    assert_eq!(code, Some(130), "{}", sandbox.spawned_output());
    assert!(
        interrupted.elapsed() < Duration::from_secs(6),
        "cancelling took {:?}",
        interrupted.elapsed()
    );
    assert!(
        wait_for(Duration::from_secs(3), || process_gone(sleep)),
        "the cancelled stage's `sleep 60` (pid {sleep}) is still running"
    );
    let conclusion = json(&run.join("conclusion.json"));
    assert_eq!(conclusion["status"], "cancelled", "{conclusion}");
    let checkpoint = json(&run.join("checkpoint.json"));
    assert_eq!(checkpoint["next_node_id"], "second", "{checkpoint}");
    assert!(!run.join("run.pid").exists());
    assert_eq!(names(&events(&run)).last(), Some(&"run.cancelled"));

    std::fs::remove_file(work.join("gate")).unwrap();
    let before = events(&run).len();
    let out = sandbox.heddle(&["resume", &run_id(&run)]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(json(&run.join("conclusion.json"))["status"], "success");
    let log = std::fs::read_to_string(work.join("log.txt")).unwrap();
    assert_eq!(
        log.lines().collect::<Vec<_>>(),
        ["first", "second", "second"]
    );
    let after = events(&run);
    assert_seq_without_gaps(&after);
    let first_stage = after[before..]
        .iter()
        .find(|e| e["event"] == "stage.started")
        .unwrap();
    assert_eq!(first_stage["node_id"], "second");
}

const FORKED: &str = r#"digraph Forked {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    fork  [shape=component];
    join  [shape=tripleoctagon];
    quick [shape=parallelogram, script="echo quick >> count.txt; echo x >> ../quick.runs"];
    slow  [shape=parallelogram, script="until grep -q quick count.txt; do sleep 0.05; done; echo slow >> count.txt; echo x >> ../slow.runs; if [ \"$(wc -l < ../slow.runs)\" -lt 2 ]; then sleep 60; fi"];
    after [shape=parallelogram, script="echo after >> count.txt"];
    start -> fork; fork -> quick; fork -> slow; quick -> join; slow -> join; join -> after -> exit;
}
"#;

#[test]
fn a_run_killed_inside_a_parallel_node_resumes_only_the_unfinished_branch() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("forked.dot", FORKED);
    let mut child = sandbox.spawn(&["run", flow.to_str().unwrap()]);
    let run = wait_for_stage(&sandbox, &mut child, "slow");
    // Kill once the quick branch's end is checkpointed and slow is in its sleep.
    let ready = wait_for(Duration::from_secs(20), || {
        let checkpoint = loaded_checkpoint(&run);
        let quick_done = checkpoint["branches"].as_array().is_some_and(|b| {
            b.iter()
                .any(|b| b["branch"] == "quick" && b["result"].is_object())
        });
        let slow_sleeping = std::fs::read_to_string(sandbox.work().join("count.txt"))
            .is_ok_and(|c| c.contains("slow"));
        quick_done && slow_sleeping
    });
    assert!(
        ready,
        "the quick branch never checkpointed: {}",
        sandbox.spawned_output()
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let checkpoint = loaded_checkpoint(&run);
    assert_eq!(checkpoint["next_node_id"], "fork", "{checkpoint}");
    let out = sandbox.heddle(&["resume", &run_id(&run)]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    // `quick` had finished before the crash and is not run again; `slow` (interrupted)
    // runs again; the run then continues past the fan-in. Each script counts its runs
    // outside the work tree, which the resume does not restore.
    let runs = |name: &str| {
        std::fs::read_to_string(sandbox.path().join(name))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!((runs("quick.runs"), runs("slow.runs")), (1, 2));
    let count = std::fs::read_to_string(sandbox.work().join("count.txt")).unwrap();
    let lines: Vec<&str> = count.lines().collect();
    // The resume first puts the work tree back as the last checkpoint saw it: the
    // interrupted `slow` wrote its line either before the quick branch's checkpoint (kept,
    // then written again) or after it (taken out with the rest of its partial work).
    let slow = lines.iter().filter(|line| **line == "slow").count();
    assert!(
        lines.first() == Some(&"quick")
            && lines.last() == Some(&"after")
            && lines.len() == slow + 2
            && (1..=2).contains(&slow),
        "{count}"
    );
    assert_eq!(json(&run.join("conclusion.json"))["status"], "success");
}
