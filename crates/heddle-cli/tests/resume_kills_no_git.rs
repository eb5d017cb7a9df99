//! A kill loop against a run without git checkpoints (`--checkpoints none`), whose stages
//! count once their `head` line is in timeline.jsonl and whose checkpoint.json is only
//! rewritten every 64 stages: a chain of 500 conditional nodes is killed with SIGKILL at
//! random moments (a seeded RNG; `HEDDLE_KILL_SEED` replays one), resumes are killed too,
//! and the last resume runs to the end. Every finished run's timeline must hold each node
//! exactly once, in order, and the kills must have caught runs between two rewrites of
//! checkpoint.json.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::time::{Duration, Instant};

mod gitfixture;
mod killing;
mod sandbox;

use gitfixture::{Fixture, events, run_id};
use heddle_engine::Checkpoint;
use killing::{Rng, kill, resume_to_end, seed, spawn};

const NODES: usize = 500;

const ITERATIONS: u64 = 6;

fn chain() -> String {
    let mut dot = String::from("digraph Chain { start [shape=Mdiamond]; exit [shape=Msquare];\n");
    for i in 0..NODES {
        dot.push_str(&format!("n{i} [shape=diamond];\n"));
    }
    dot.push_str("start -> n0;\n");
    for i in 1..NODES {
        dot.push_str(&format!("n{} -> n{i};\n", i - 1));
    }
    dot.push_str(&format!("n{} -> exit; }}\n", NODES - 1));
    dot
}

/// Whether the killed run left stages that only its `head` lines record (checkpoint.json
/// covers fewer stages than the run loads with).
fn between_rewrites(run: &Path) -> bool {
    let path = run.join("checkpoint.json");
    let Ok(text) = std::fs::read(&path) else {
        return false;
    };
    let on_disk = Checkpoint::parse_head(&path, &text).unwrap().stages;
    let loaded = Checkpoint::load(&path).unwrap();
    loaded.timeline.len() > on_disk
}

/// One run: started, killed at a random moment, resumed (each resume killed with even
/// odds, at most three times) and finally resumed to the end. How many kills left it
/// between two rewrites of checkpoint.json.
fn one_run(fixture: &Fixture, flow: &Path, rng: &mut Rng, iteration: u64) -> usize {
    let mut child = spawn(
        fixture,
        &["run", flow.to_str().unwrap(), "--checkpoints", "none"],
    );
    let begun = Instant::now();
    let run = loop {
        assert!(
            begun.elapsed() < Duration::from_secs(30),
            "iteration {iteration}: the run did not start"
        );
        let started = fixture.runs().into_iter().next().filter(|run| {
            run.join("manifest.json").is_file()
                && events(run).iter().any(|e| e["event"] == "run.started")
        });
        if let Some(run) = started {
            break run;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    std::thread::sleep(rng.millis(800));
    kill(&mut child);
    let mut caught = usize::from(between_rewrites(&run));
    let id = run_id(&run);
    let mut resumes_killed = 0;
    loop {
        let conclusion = run.join("conclusion.json");
        if conclusion.is_file()
            && serde_json::from_slice::<serde_json::Value>(&std::fs::read(&conclusion).unwrap())
                .unwrap()["status"]
                == "success"
        {
            break;
        }
        if resumes_killed < 3 && rng.next().is_multiple_of(2) {
            let mut resume = spawn(fixture, &["resume", &id]);
            std::thread::sleep(rng.millis(400));
            if kill(&mut resume) {
                resumes_killed += 1;
                caught += usize::from(between_rewrites(&run));
            }
        } else {
            resume_to_end(fixture, &id, iteration);
        }
    }
    let loaded = Checkpoint::load(&run.join("checkpoint.json")).unwrap();
    let nodes: Vec<String> = loaded.timeline.iter().map(|s| s.node_id.clone()).collect();
    let mut expected = vec!["start".to_string()];
    expected.extend((0..NODES).map(|i| format!("n{i}")));
    expected.push("exit".to_string());
    assert_eq!(
        nodes, expected,
        "iteration {iteration}: each node once, in order"
    );
    // The end rewrote checkpoint.json: it covers the whole history.
    let history = std::fs::metadata(run.join("timeline.jsonl")).unwrap().len();
    let head = std::fs::read(run.join("checkpoint.json")).unwrap();
    let on_disk = Checkpoint::parse_head(&run.join("checkpoint.json"), &head).unwrap();
    assert_eq!(
        on_disk.history_bytes,
        Some(history),
        "iteration {iteration}"
    );
    caught
}

#[test]
fn killed_runs_without_git_resume_with_each_stage_once() {
    let mut rng = Rng(seed(20_261_127));
    let flow_text = chain();
    let mut caught = 0;
    for iteration in 0..ITERATIONS {
        let fixture = Fixture::new();
        let flow = fixture.write_flow("chain.dot", &flow_text);
        caught += one_run(&fixture, &flow, &mut rng, iteration);
    }
    println!("{ITERATIONS} runs, {caught} kills between two rewrites of checkpoint.json");
    // The loop must have caught runs whose latest stages only head lines record.
    assert!(
        caught > 0,
        "no kill landed between two rewrites; try another seed"
    );
}
