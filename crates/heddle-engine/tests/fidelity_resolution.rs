#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Which fidelity and thread a stage gets: from its incoming edge, then its node (a
//! subgraph's node defaults included), then the graph's defaults, and after a resume.

use std::path::Path;

use heddle_engine::Fidelity;
use heddle_engine::preamble::{fidelity_after_resume, resolve_fidelity, resolve_thread};
use heddle_workflow::{MemoryFiles, Workflow, load_source};

fn workflow(src: &str) -> Workflow {
    load_source(src, Path::new("w.dot"), &MemoryFiles::new())
        .workflow
        .unwrap()
}

fn resolve(w: &Workflow, from: &str, to: &str) -> (Fidelity, Option<String>) {
    let edge = w.edges.iter().find(|e| e.from == from && e.to == to);
    let node = w.node(to).unwrap();
    (
        resolve_fidelity(edge, node, w),
        resolve_thread(edge, node, w),
    )
}

const LAYERED: &str = r#"digraph w {
  graph [default_fidelity="summary:low", default_thread="graph-t"]
  start -> a
  a -> b [fidelity="truncate", thread_id="edge-t"]
  a -> c
  c -> b
  c -> d
  b [fidelity="summary:high", thread_id="node-t"]
  d [fidelity="nonsense"]
  d -> exit
  b -> exit
}"#;

#[test]
fn edge_beats_node_beats_graph_default() {
    let w = workflow(LAYERED);
    assert_eq!(
        resolve(&w, "a", "b"),
        (Fidelity::Truncate, Some("edge-t".into()))
    );
    assert_eq!(
        resolve(&w, "c", "b"),
        (Fidelity::SummaryHigh, Some("node-t".into()))
    );
    assert_eq!(
        resolve(&w, "a", "c"),
        (Fidelity::SummaryLow, Some("graph-t".into()))
    );
    // Entered without an edge (the start node, or a resume): node, then graph.
    let b = w.node("b").unwrap();
    assert_eq!(resolve_fidelity(None, b, &w), Fidelity::SummaryHigh);
    assert_eq!(resolve_thread(None, b, &w).as_deref(), Some("node-t"));
}

#[test]
fn unparsable_fidelity_falls_through_to_the_next_level() {
    let w = workflow(LAYERED);
    assert_eq!(resolve(&w, "c", "d").0, Fidelity::SummaryLow);
    let w = workflow(
        r#"digraph w { default_fidelity="bogus"; start -> a [fidelity="very-high"]; a -> exit }"#,
    );
    assert_eq!(resolve(&w, "start", "a").0, Fidelity::Compact);
}

#[test]
fn defaults_are_compact_and_no_thread() {
    let w = workflow("digraph w { start -> a -> exit }");
    assert_eq!(resolve(&w, "start", "a"), (Fidelity::Compact, None));
}

#[test]
fn node_defaults_from_a_subgraph_count_as_node_level() {
    let w = workflow(
        r#"digraph w {
      default_fidelity="truncate"
      subgraph cluster_impl { node [fidelity="FULL", thread_id="impl"]; plan; implement }
      start -> plan -> implement -> exit
    }"#,
    );
    assert_eq!(
        resolve(&w, "plan", "implement"),
        (Fidelity::Full, Some("impl".into()))
    );
    assert_eq!(fidelity_after_resume(Fidelity::Full), Fidelity::SummaryHigh);
    assert_eq!(fidelity_after_resume(Fidelity::Compact), Fidelity::Compact);
}
