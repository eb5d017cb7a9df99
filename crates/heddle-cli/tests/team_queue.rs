//! The queue at team scale, through the real binaries: runs queued through one `heddle serve`
//! (`enqueue_run`), three `heddle worker` processes on machines of their own sharing the
//! PostgreSQL index and a bare repository as the remote; every run finishes, the runs are
//! spread over the workers, and the server's `run_queue` shows each entry finished by the
//! worker that ran it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::collections::{BTreeMap, BTreeSet};

use sandbox::served::serve_with;
use sandbox::team::{Team, Working};
use serde_json::json;

const RUNS: usize = 20;

const FLOW: &str = r#"digraph Batch {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    work  [shape=parallelogram, script="sleep 0.3; echo done > done.txt"];
    start -> work -> exit;
}
"#;

#[test]
fn twenty_runs_queued_through_a_server_finish_spread_over_three_workers() {
    let team = Team::with(&[("batch.dot", FLOW)]);
    let env = [("HEDDLE_DATABASE_URL", team.url.as_str())];
    let server = serve_with(&team.laptop, 1, &env);
    let flow = team.work().join("batch.dot").display().to_string();
    let mut queued = BTreeSet::new();
    for _ in 0..RUNS {
        let entry = server.ok(
            "enqueue_run",
            &json!({ "workflow_path": flow, "trust": true }),
        );
        assert_eq!(entry["state"], "queued", "{entry}");
        queued.insert(entry["id"].as_str().unwrap().to_string());
    }
    assert_eq!(queued.len(), RUNS);

    let workers: Vec<Working> = ["w1", "w2", "w3"]
        .iter()
        .map(|name| Working::start(&team, name))
        .collect();
    let reports: Vec<String> = workers.into_iter().map(Working::finish).collect();

    let queue = server.ok("run_queue", &json!({ "finished": 100 }));
    let entries = queue["entries"].as_array().unwrap();
    assert_eq!(entries.len(), RUNS, "{queue}");
    let mut by_worker: BTreeMap<String, usize> = BTreeMap::new();
    for entry in entries {
        assert!(queued.contains(entry["id"].as_str().unwrap()), "{entry}");
        assert_eq!(entry["state"], "finished", "{entry}");
        assert_eq!(entry["outcome"], "success", "{entry}");
        assert_eq!(entry["claims"], 1, "nothing was taken over: {entry}");
        assert_eq!(entry["run"]["workflow"], "batch.dot", "{entry}");
        let worker = entry["worker"].as_str().unwrap().to_string();
        let run = entry["run_id"].as_str().unwrap();
        let report = &reports[["w1", "w2", "w3"]
            .iter()
            .position(|w| *w == worker)
            .unwrap()];
        assert!(report.contains(&format!("run {run} success")), "{report}");
        *by_worker.entry(worker).or_default() += 1;
        assert_eq!(server.status_of(run), "success");
    }
    assert_eq!(
        by_worker.keys().collect::<Vec<_>>(),
        ["w1", "w2", "w3"],
        "every worker ran some: {by_worker:?}"
    );
    // Workers that ran out of entries (`--once`) left the workers list.
    assert_eq!(queue["workers"], json!([]), "{queue}");
}
