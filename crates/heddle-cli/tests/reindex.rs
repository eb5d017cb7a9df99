//! `heddle reindex` rebuilds the run index from the run folders: every run and event is
//! counted, and a run whose folder was deleted leaves the index.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use sandbox::{Sandbox, describe};
use serde_json::Value;

const FLOW: &str = r#"digraph Two {
    start [shape=Mdiamond]; exit [shape=Msquare];
    work [shape=parallelogram, script="echo hi"];
    start -> work -> exit;
}"#;

fn reindex(sandbox: &Sandbox) -> Value {
    let out = sandbox.heddle(&["reindex", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn reindex_counts_every_run_and_event_and_drops_deleted_runs() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("two.dot", FLOW);
    for _ in 0..2 {
        let out = sandbox.heddle(&["run", flow.to_str().unwrap(), "--checkpoints", "none"]);
        assert!(out.status.success(), "{}", describe(&out));
    }
    let runs = sandbox.runs();
    let events: usize = runs
        .iter()
        .map(|r| {
            std::fs::read_to_string(r.join("progress.jsonl"))
                .unwrap()
                .lines()
                .count()
        })
        .sum();
    let report = reindex(&sandbox);
    assert_eq!(report["runs"], 2, "{report}");
    assert_eq!(report["events"], events, "{report}");
    assert_eq!(report["failures"], Value::Array(Vec::new()));
    assert!(sandbox.home().join("heddle.db").is_file());

    std::fs::remove_dir_all(&runs[0]).unwrap();
    let report = reindex(&sandbox);
    assert_eq!(report["runs"], 1, "{report}");
    assert_eq!(report["removed"], 1, "{report}");

    let out = sandbox.heddle(&["reindex"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("indexed 1 run(s)"), "{text}");
}
