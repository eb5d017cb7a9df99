//! Workflow edits as the editor means them: renames rewrite every reference, attributes
//! keep the spelling the file uses, and edits that would break the workflow's shape are
//! refused with the node named.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_dot::EdgeKey;
use heddle_workflow::{HandlerKind, WorkflowEdit, WorkflowEditError, edit_source};

const FLOW: &str = r##"digraph Flow {
    graph [retry_target=plan, model_stylesheet="* { model: a }
#plan, .x { model: b }"];
    start [shape=Mdiamond];
    exit [shape=Msquare];
    plan [llm_model="gpt-5", fallback_retry_target=build];
    build [shape=parallelogram, script=make, retry_target="plan"];
    start -> plan -> build -> exit;
}
"##;

fn one(edit: WorkflowEdit) -> Result<String, WorkflowEditError> {
    edit_source(FLOW, &[edit]).map_err(|(_, e)| e)
}

fn rename(from: &str, to: &str) -> WorkflowEdit {
    WorkflowEdit::RenameNode {
        from: from.into(),
        to: to.into(),
    }
}

#[test]
fn rename_rewrites_retry_targets_and_stylesheet_selectors_in_place() {
    let text = one(rename("plan", "design")).unwrap();
    assert_eq!(
        text,
        FLOW.replace("retry_target=plan", "retry_target=design")
            .replace("#plan,", "#design,")
            .replace("    plan [", "    design [")
            .replace("retry_target=\"plan\"", "retry_target=\"design\"")
            .replace("-> plan ->", "-> design ->")
    );
    let text = one(rename("build", "compile")).unwrap();
    assert!(text.contains("fallback_retry_target=compile]"), "{text}");
}

#[test]
fn rename_refusals_name_the_node() {
    let cases = [
        ("plan", "build", "build"),
        ("plan", "BUILD", "build"),
        ("plan", "2nd", "2nd"),
        ("plan", "Graph", "Graph"),
        ("ghost", "spirit", "ghost"),
        ("plan", "end", "plan"),
    ];
    for (from, to, named) in cases {
        let error = one(rename(from, to)).unwrap_err();
        assert_eq!(error.node(), Some(named), "{from} -> {to}: {error}");
    }
    assert!(matches!(
        one(rename("plan", "end")).unwrap_err(),
        WorkflowEditError::KindChange {
            kind: HandlerKind::Exit,
            ..
        }
    ));
    assert_eq!(one(rename("plan", "plan")).unwrap(), FLOW);
}

#[test]
fn attributes_keep_the_spelling_the_node_uses() {
    let set = one(WorkflowEdit::SetNodeAttr {
        node: "plan".into(),
        key: "model".into(),
        value: "claude".into(),
    })
    .unwrap();
    assert!(set.contains("plan [llm_model=\"claude\","), "{set}");
    let fresh = one(WorkflowEdit::SetNodeAttr {
        node: "build".into(),
        key: "model".into(),
        value: "claude".into(),
    })
    .unwrap();
    assert!(
        fresh.contains("retry_target=\"plan\", model=claude]"),
        "{fresh}"
    );
    let removed = one(WorkflowEdit::RemoveNodeAttr {
        node: "plan".into(),
        key: "model".into(),
    })
    .unwrap();
    assert!(
        removed.contains("plan [fallback_retry_target=build]"),
        "{removed}"
    );
}

#[test]
fn added_nodes_get_fresh_ids_kind_shapes_and_numbered_labels() {
    let add = |kind| WorkflowEdit::AddNode {
        id: None,
        kind: Some(kind),
        label: None,
        attrs: Vec::new(),
        allow_another_exit: None,
    };
    let text = edit_source(FLOW, &[add(HandlerKind::FanIn), add(HandlerKind::FanIn)]).unwrap();
    assert!(
        text.contains("fan_in [label=\"Fan-in\", shape=tripleoctagon]"),
        "{text}"
    );
    assert!(
        text.contains("fan_in_2 [label=\"Fan-in 2\", shape=tripleoctagon]"),
        "{text}"
    );
    let named = one(WorkflowEdit::AddNode {
        id: Some("reviewer".into()),
        kind: Some(HandlerKind::Human),
        label: None,
        attrs: Vec::new(),
        allow_another_exit: None,
    })
    .unwrap();
    assert!(
        named.contains("reviewer [label=Human, shape=hexagon]"),
        "{named}"
    );
    assert_eq!(
        one(add(HandlerKind::Start)).unwrap_err(),
        WorkflowEditError::StartExists {
            start: "start".into()
        }
    );
    assert!(matches!(
        one(add(HandlerKind::Exit)).unwrap_err(),
        WorkflowEditError::ExitExists { .. }
    ));
}

#[test]
fn connect_refuses_what_the_dialect_forbids() {
    let connect = |from: &str, to: &str| WorkflowEdit::AddEdge {
        from: from.into(),
        to: to.into(),
        attrs: Vec::new(),
    };
    assert!(matches!(
        one(connect("build", "start")),
        Err(WorkflowEditError::IntoStart { .. })
    ));
    assert!(matches!(
        one(connect("exit", "plan")),
        Err(WorkflowEditError::OutOfExit { .. })
    ));
    assert!(matches!(
        one(connect("plan", "build")),
        Err(WorkflowEditError::DuplicateEdge { .. })
    ));
    assert!(
        one(connect("build", "plan"))
            .unwrap()
            .contains("build -> plan")
    );
}

#[test]
fn delete_removes_references_and_keeps_a_start_and_an_exit() {
    let text = one(WorkflowEdit::Delete {
        nodes: vec!["plan".into()],
        edges: vec![EdgeKey {
            from: "build".into(),
            to: "exit".into(),
            occurrence: 0,
        }],
    })
    .unwrap();
    assert!(!text.contains("retry_target=plan"), "{text}");
    assert!(!text.contains("retry_target=\"plan\""), "{text}");
    assert!(!text.contains("build -> exit"), "{text}");
    assert!(
        text.contains("#plan"),
        "a stylesheet selector is harmless: {text}"
    );
    for id in ["start", "exit"] {
        let error = one(WorkflowEdit::RemoveNode { id: id.into() }).unwrap_err();
        assert_eq!(error.node(), Some(id), "{error}");
    }
}

#[test]
fn a_node_named_in_a_default_is_not_deleted_behind_its_back() {
    let source = "digraph { node [retry_target=fix]; start [shape=Mdiamond]; exit [shape=Msquare]; fix; start -> fix -> exit }";
    let error = edit_source(source, &[WorkflowEdit::RemoveNode { id: "fix".into() }])
        .unwrap_err()
        .1;
    assert!(
        matches!(error, WorkflowEditError::StillNamed { .. }),
        "{error}"
    );
    assert_eq!(error.node(), Some("fix"));
}
