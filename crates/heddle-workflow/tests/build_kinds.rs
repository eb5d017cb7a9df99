#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Handler kinds from `type`, shape and id.

use std::path::Path;

use heddle_workflow::{HandlerKind, MemoryFiles, load_source};

fn kind(node_stmt: &str) -> HandlerKind {
    let source = format!("digraph {{ {node_stmt} }}");
    let loaded = load_source(&source, Path::new("k.dot"), &MemoryFiles::new());
    loaded.workflow.unwrap().nodes[0].kind
}

#[test]
fn kinds_by_type() {
    for (ty, expected) in [
        ("start", HandlerKind::Start),
        ("exit", HandlerKind::Exit),
        ("codergen", HandlerKind::Agent),
        ("agent", HandlerKind::Agent),
        ("prompt", HandlerKind::Prompt),
        ("tool", HandlerKind::Command),
        ("command", HandlerKind::Command),
        ("wait.human", HandlerKind::Human),
        ("human", HandlerKind::Human),
        ("conditional", HandlerKind::Conditional),
        ("parallel", HandlerKind::Parallel),
        ("parallel.fan_in", HandlerKind::FanIn),
        ("fan_in", HandlerKind::FanIn),
        ("wait", HandlerKind::Wait),
        ("stack.manager_loop", HandlerKind::ManagerLoop),
        ("manager_loop", HandlerKind::ManagerLoop),
    ] {
        assert_eq!(
            kind(&format!("n [type=\"{ty}\", shape=Msquare]")),
            expected,
            "type {ty}"
        );
    }
}

#[test]
fn kinds_by_shape() {
    for (shape, expected) in [
        ("Mdiamond", HandlerKind::Start),
        ("Msquare", HandlerKind::Exit),
        ("box", HandlerKind::Agent),
        ("tab", HandlerKind::Prompt),
        ("parallelogram", HandlerKind::Command),
        ("hexagon", HandlerKind::Human),
        ("diamond", HandlerKind::Conditional),
        ("component", HandlerKind::Parallel),
        ("tripleoctagon", HandlerKind::FanIn),
        ("insulator", HandlerKind::Wait),
        ("house", HandlerKind::ManagerLoop),
        ("ellipse", HandlerKind::Agent),
    ] {
        assert_eq!(
            kind(&format!("n [shape={shape}]")),
            expected,
            "shape {shape}"
        );
    }
}

#[test]
fn kinds_by_id() {
    assert_eq!(kind("start"), HandlerKind::Start);
    assert_eq!(kind("Start"), HandlerKind::Start);
    assert_eq!(kind("exit"), HandlerKind::Exit);
    assert_eq!(kind("end"), HandlerKind::Exit);
    assert_eq!(kind("plan"), HandlerKind::Agent);
    assert_eq!(
        kind("node [shape=box]; start"),
        HandlerKind::Start,
        "box does not hide the id"
    );
    assert_eq!(
        kind("exit [shape=Mdiamond]"),
        HandlerKind::Start,
        "shape beats id"
    );
}

#[test]
fn unknown_type_falls_back_to_shape() {
    assert_eq!(kind("n [type=humna, shape=hexagon]"), HandlerKind::Human);
    assert_eq!(kind("n [type=humna]"), HandlerKind::Agent);
}

#[test]
fn kind_names_and_shapes() {
    assert_eq!(HandlerKind::FanIn.type_name(), "fan_in");
    assert_eq!(HandlerKind::Human.shape(), "hexagon");
    assert_eq!(HandlerKind::Agent.shape(), "box");
    assert!(HandlerKind::Prompt.uses_llm());
    assert!(!HandlerKind::Command.uses_llm());
}
