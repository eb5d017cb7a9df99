//! Fabro's `.fabro` files are workflows like `.dot` ones: listed in a workspace (also inside
//! the `.fabro/workflows` folder Fabro keeps them in), created from templates and opened.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use heddle_api::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_fabro_repository_lists_its_workflows() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        &root.join(".fabro/workflows/fix-build/workflow.fabro"),
        "digraph F { start -> exit }",
    );
    write(&root.join("flows/plan.dot"), "digraph P { start -> exit }");
    write(
        &root.join("flows/Upper.FABRO"),
        "digraph U { start -> exit }",
    );
    // Other hidden folders stay skipped, and a file that only looks similar is not a workflow.
    write(&root.join(".git/x.fabro"), "digraph G { start -> exit }");
    write(&root.join(".cache/y.dot"), "digraph C { start -> exit }");
    write(&root.join("notes.fabro.md"), "# notes");

    let listed = list_workflows(&ListWorkflowsRequest {
        dir: root.display().to_string(),
    })
    .unwrap();
    let mut names: Vec<String> = listed.into_iter().map(|e| e.relative_path).collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".fabro/workflows/fix-build/workflow.fabro",
            "flows/Upper.FABRO",
            "flows/plan.dot"
        ]
    );
}

#[test]
fn a_fabro_file_is_created_and_opened_like_a_dot_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hello.fabro");
    let created = create_workflow(&CreateWorkflowRequest {
        template: "hello".into(),
        path: path.display().to_string(),
    })
    .unwrap();
    assert!(path.is_file());
    let opened = open_workflow(&OpenWorkflowRequest {
        path: path.display().to_string(),
    })
    .unwrap();
    assert_eq!(opened.source, created.source);
    assert!(!opened.workflow.unwrap().nodes.is_empty());

    let refused = create_workflow(&CreateWorkflowRequest {
        template: "hello".into(),
        path: dir.path().join("hello.txt").display().to_string(),
    })
    .unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidRequest);
    assert!(refused.message.contains(".dot or .fabro"), "{refused:?}");
}
