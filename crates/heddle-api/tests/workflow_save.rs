//! Editing workflow text with structured edits (minimal changes: comments and untouched
//! lines stay byte-identical) and saving it atomically, refusing to overwrite a change made
//! on disk since the file was opened.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;

use heddle_api::{
    EditWorkflowRequest, ErrorCode, SaveWorkflowRequest, edit_workflow, save_workflow,
};
use heddle_dot::EdgeKey;
use heddle_workflow::{Severity, WorkflowEdit as Edit};

const SOURCE: &str = r#"// Release flow: keep this comment.
digraph Release {
    graph [goal="Ship it"];

    /* the entry */
    start [shape=Mdiamond];
    exit  [shape=Msquare];

    build [shape=parallelogram, script="make"];   // compiles
    start -> build -> exit;
}
"#;

fn request(path: &std::path::Path, edits: Vec<Edit>) -> EditWorkflowRequest {
    EditWorkflowRequest {
        path: path.display().to_string(),
        source: SOURCE.to_string(),
        edits,
    }
}

#[test]
fn edits_change_only_what_they_must_and_keep_comments() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("release.dot");
    let edits = vec![
        Edit::AddNode {
            id: Some("test".into()),
            kind: None,
            label: None,
            allow_another_exit: None,
            attrs: vec![
                ("shape".into(), "parallelogram".into()),
                ("script".into(), "make test".into()),
            ],
        },
        Edit::AddEdge {
            from: "build".into(),
            to: "test".into(),
            attrs: Vec::new(),
        },
        Edit::SetNodeAttr {
            node: "build".into(),
            key: "timeout".into(),
            value: "10m".into(),
        },
        Edit::RenameNode {
            from: "exit".into(),
            to: "done".into(),
        },
        Edit::SetEdgeAttr {
            edge: EdgeKey {
                from: "start".into(),
                to: "build".into(),
                occurrence: 0,
            },
            key: "label".into(),
            value: "go".into(),
        },
    ];
    let edited = edit_workflow(&request(&path, edits)).unwrap();
    let text = &edited.source;
    for kept in [
        "// Release flow: keep this comment.",
        "    graph [goal=\"Ship it\"];",
        "    /* the entry */",
        "    start [shape=Mdiamond];",
        "// compiles",
    ] {
        assert!(text.contains(kept), "lost `{kept}`:\n{text}");
    }
    let workflow = edited.workflow.unwrap();
    let ids: Vec<&str> = workflow.nodes.iter().map(|n| n.id.as_str()).collect();
    for id in ["start", "build", "test", "done"] {
        assert!(ids.contains(&id), "no node {id}: {ids:?}");
    }
    assert!(!ids.contains(&"exit"), "{ids:?}");
    assert!(
        workflow
            .edges
            .iter()
            .any(|e| e.from == "build" && e.to == "done"),
        "the renamed node's edges follow it"
    );
    assert!(
        workflow
            .edges
            .iter()
            .any(|e| e.from == "build" && e.to == "test")
    );
    assert!(
        edited
            .diagnostics
            .iter()
            .all(|d| d.severity != Severity::Error),
        "{:?}",
        edited.diagnostics
    );
    // Lines no edit touched are byte-identical.
    let untouched: Vec<&str> = SOURCE
        .lines()
        .filter(|l| !l.contains("exit") && !l.contains("build"))
        .collect();
    for line in untouched {
        assert!(text.lines().any(|l| l == line), "`{line}` changed:\n{text}");
    }
    assert!(
        !std::path::Path::new(&path).exists(),
        "edit_workflow wrote a file"
    );
}

#[test]
fn a_failing_edit_applies_none_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("release.dot");
    let edits = vec![
        Edit::SetNodeAttr {
            node: "build".into(),
            key: "timeout".into(),
            value: "10m".into(),
        },
        Edit::RemoveNode { id: "ghost".into() },
    ];
    let error = edit_workflow(&request(&path, edits)).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    assert!(error.message.contains("edit 2 of 2"), "{}", error.message);
    assert!(error.message.contains("ghost"), "{}", error.message);
}

#[test]
fn saving_is_atomic_keeps_permissions_and_never_overwrites_a_change_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("release.dot");
    std::fs::write(&path, SOURCE).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let edited = edit_workflow(&request(
        &path,
        vec![Edit::SetGraphAttr {
            key: "goal".into(),
            value: "Ship it today".into(),
        }],
    ))
    .unwrap();

    let saved = save_workflow(&SaveWorkflowRequest {
        path: path.display().to_string(),
        source: edited.source.clone(),
        expected_disk: Some(SOURCE.to_string()),
    })
    .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited.source);
    assert_eq!(saved.source, edited.source);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");

    // Someone else changes the file; a save based on the old text is refused.
    std::fs::write(&path, "digraph Other { a -> b }\n").unwrap();
    let error = save_workflow(&SaveWorkflowRequest {
        path: path.display().to_string(),
        source: SOURCE.to_string(),
        expected_disk: Some(edited.source.clone()),
    })
    .unwrap_err();
    assert_eq!(error.code, ErrorCode::ChangedOnDisk);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "digraph Other { a -> b }\n"
    );
    // Saving without an expectation overwrites on purpose.
    save_workflow(&SaveWorkflowRequest {
        path: path.display().to_string(),
        source: SOURCE.to_string(),
        expected_disk: None,
    })
    .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), SOURCE);
}

/// A workflow whose retry targets (graph, node, node default) and stylesheet name `draft`.
const RETRYING: &str = r##"digraph Notes {
    // retries come back to the draft
    graph [goal="Notes", retry_target=draft, model_stylesheet="#draft { model: fast }"];
    node [fallback_retry_target=" draft "];
    start [shape=Mdiamond];
    exit [shape=Msquare];
    draft [prompt="Write notes", llm_model="gpt-5"];
    review [prompt="Check them", goal_gate=true, retry_target="draft"];
    start -> draft -> review -> exit;
}
"##;

fn edit(
    source: &str,
    edits: Vec<Edit>,
) -> Result<heddle_api::OpenedWorkflow, heddle_api::ApiError> {
    let dir = tempfile::tempdir().unwrap();
    edit_workflow(&EditWorkflowRequest {
        path: dir.path().join("notes.dot").display().to_string(),
        source: source.to_string(),
        edits,
    })
}

fn errors(opened: &heddle_api::OpenedWorkflow) -> Vec<String> {
    opened
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}: {}", d.rule, d.message))
        .collect()
}

#[test]
fn rename_node_points_every_reference_at_the_new_id() {
    let before = edit(RETRYING, Vec::new()).unwrap();
    assert_eq!(errors(&before), Vec::<String>::new());
    let renamed = edit(
        RETRYING,
        vec![Edit::RenameNode {
            from: "draft".into(),
            to: "write".into(),
        }],
    )
    .unwrap();
    assert_eq!(errors(&renamed), Vec::<String>::new(), "{}", renamed.source);
    let text = &renamed.source;
    assert!(text.contains("retry_target=write,"), "{text}");
    assert!(text.contains("retry_target=\"write\"]"), "{text}");
    assert!(text.contains("fallback_retry_target=\" write \""), "{text}");
    assert!(
        text.contains("model_stylesheet=\"#write { model: fast }\""),
        "{text}"
    );
    // Comments are prose, not references: they stay as written.
    assert!(
        text.contains("    // retries come back to the draft\n"),
        "{text}"
    );
    assert_eq!(text.matches("draft").count(), 1, "{text}");
}

#[test]
fn set_node_attr_writes_back_the_alias_the_node_uses_and_remove_takes_every_spelling() {
    let set = edit(
        RETRYING,
        vec![Edit::SetNodeAttr {
            node: "draft".into(),
            key: "model".into(),
            value: "claude-opus".into(),
        }],
    )
    .unwrap();
    assert!(
        set.source
            .contains("draft [prompt=\"Write notes\", llm_model=\"claude-opus\"];"),
        "{}",
        set.source
    );
    let removed = edit(
        RETRYING,
        vec![Edit::RemoveNodeAttr {
            node: "draft".into(),
            key: "model".into(),
        }],
    )
    .unwrap();
    assert!(
        removed.source.contains("draft [prompt=\"Write notes\"];"),
        "{}",
        removed.source
    );
}

#[test]
fn refusals_name_the_node() {
    let cases = [
        (
            Edit::RenameNode {
                from: "draft".into(),
                to: "Review".into(),
            },
            "`review`",
        ),
        (
            Edit::AddNode {
                id: None,
                kind: Some(heddle_workflow::HandlerKind::Start),
                label: None,
                attrs: Vec::new(),
                allow_another_exit: None,
            },
            "`start`",
        ),
        (
            Edit::AddEdge {
                from: "review".into(),
                to: "start".into(),
                attrs: Vec::new(),
            },
            "`start`",
        ),
        (Edit::RemoveNode { id: "start".into() }, "`start`"),
    ];
    for (refused, named) in cases {
        let error = edit(RETRYING, vec![refused.clone()]).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidRequest, "{refused:?}");
        assert!(
            error.message.contains(named),
            "{refused:?}: {}",
            error.message
        );
    }
}
