//! The editor's file operations against real folders: the layout sidecar, `@file`
//! previews, templates and watching a workflow for changes made elsewhere.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::time::Duration;

use heddle_api::*;
use heddle_workflow::Severity;

fn path_req(path: &Path) -> WorkflowPathRequest {
    WorkflowPathRequest {
        path: path.display().to_string(),
    }
}

#[test]
fn a_layout_sidecar_is_read_written_and_never_written_broken() {
    let dir = tempfile::tempdir().unwrap();
    let flow = dir.path().join("review.dot");
    std::fs::write(&flow, "digraph R { start -> exit }\n").unwrap();

    let none = read_layout(&path_req(&flow)).unwrap();
    assert_eq!(none.text, None);
    assert!(none.sidecar_path.ends_with("review.dot.heddle-layout.json"));

    let text = r#"{"version":1,"positions":{"start":{"x":10,"y":20}}}"#;
    save_layout(&SaveLayoutRequest {
        path: flow.display().to_string(),
        text: text.to_owned(),
    })
    .unwrap();
    let sidecar = dir.path().join("review.dot.heddle-layout.json");
    assert_eq!(std::fs::read_to_string(&sidecar).unwrap(), text);
    assert_eq!(
        read_layout(&path_req(&flow)).unwrap().text.as_deref(),
        Some(text)
    );
    // The workflow itself is untouched.
    assert_eq!(
        std::fs::read_to_string(&flow).unwrap(),
        "digraph R { start -> exit }\n"
    );

    for broken in ["{\"version\":1,", "[1,2]"] {
        let err = save_layout(&SaveLayoutRequest {
            path: flow.display().to_string(),
            text: broken.to_owned(),
        })
        .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidRequest, "{err:?}");
        assert!(
            err.message.contains("review.dot.heddle-layout.json"),
            "{err:?}"
        );
        assert_eq!(std::fs::read_to_string(&sidecar).unwrap(), text);
    }
}

#[test]
fn a_reference_is_read_relative_to_the_workflow() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("flows/prompts")).unwrap();
    let flow = dir.path().join("flows/plan.dot");
    std::fs::write(dir.path().join("flows/prompts/plan.md"), "# Plan\nDo it.\n").unwrap();
    let read = |reference: &str| {
        read_reference(&ReadReferenceRequest {
            path: flow.display().to_string(),
            reference: reference.to_owned(),
        })
    };

    let file = read("prompts/plan.md").unwrap();
    assert_eq!(file.text, "# Plan\nDo it.\n");
    assert!(!file.truncated);
    assert!(
        file.path.ends_with("flows/prompts/plan.md"),
        "{}",
        file.path
    );
    assert_eq!(read("@prompts/plan.md").unwrap().text, file.text);

    let missing = read("prompts/nope.md").unwrap_err();
    assert_eq!(missing.code, ErrorCode::NotFound);
    assert!(missing.message.contains("prompts/nope.md"), "{missing:?}");
    assert_eq!(read("prompts").unwrap_err().code, ErrorCode::WrongKind);
    assert_eq!(read(" ").unwrap_err().code, ErrorCode::InvalidRequest);

    std::fs::write(dir.path().join("flows/blob.bin"), [0xff, 0xfe, 0x00]).unwrap();
    assert_eq!(read("blob.bin").unwrap_err().code, ErrorCode::NotText);

    // A long file is cut at a character boundary and says so.
    let long = "é".repeat(REFERENCE_PREVIEW_BYTES);
    std::fs::write(dir.path().join("flows/long.md"), &long).unwrap();
    let cut = read("long.md").unwrap();
    assert!(cut.truncated);
    assert!(
        cut.text.len() <= REFERENCE_PREVIEW_BYTES && cut.text.len() + 2 > REFERENCE_PREVIEW_BYTES
    );
    assert!(cut.text.chars().all(|c| c == 'é'));
}

#[test]
fn templates_are_listed_with_what_they_bring() {
    let templates = list_templates();
    assert_eq!(templates[0].name, "blank");
    let pit = templates
        .iter()
        .find(|t| t.name == "plan-implement-test")
        .unwrap();
    assert!(pit.extra_files.contains(&"prompts/plan.md".to_owned()));
    assert!(pit.node_count > 4, "{pit:?}");
    for template in &templates {
        assert!(!template.summary.trim().is_empty(), "{template:?}");
    }
}

#[test]
fn every_template_creates_a_workflow_without_errors() {
    for template in list_templates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.dot");
        let opened = create_workflow(&CreateWorkflowRequest {
            template: template.name.clone(),
            path: path.display().to_string(),
        })
        .unwrap();
        let errors: Vec<_> = opened
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", template.name);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), opened.source);
        for extra in &template.extra_files {
            assert!(
                dir.path().join(extra).is_file(),
                "{}: {extra}",
                template.name
            );
        }
    }
}

#[test]
fn creating_never_overwrites_anything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.dot");
    std::fs::write(&path, "// my own work\ndigraph M { start -> exit }\n").unwrap();
    let create = |template: &str, path: &Path| {
        create_workflow(&CreateWorkflowRequest {
            template: template.to_owned(),
            path: path.display().to_string(),
        })
    };
    let err = create("hello", &path).unwrap_err();
    assert_eq!(err.code, ErrorCode::AlreadyExists);
    assert!(err.message.contains("mine.dot"), "{err:?}");
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("// my own work")
    );

    // A prompt the template needs is already there with the person's own text.
    std::fs::create_dir_all(dir.path().join("prompts")).unwrap();
    std::fs::write(dir.path().join("prompts/plan.md"), "my plan prompt").unwrap();
    let fresh = dir.path().join("pit.dot");
    let clash = create("plan-implement-test", &fresh).unwrap_err();
    assert_eq!(clash.code, ErrorCode::AlreadyExists);
    assert!(clash.message.contains("prompts/plan.md"), "{clash:?}");
    assert!(!fresh.exists());
    assert!(!dir.path().join("prompts/fix.md").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("prompts/plan.md")).unwrap(),
        "my plan prompt"
    );

    assert_eq!(
        create("nope", &fresh).unwrap_err().code,
        ErrorCode::NotFound
    );
    let not_dot = create("blank", &dir.path().join("x.txt")).unwrap_err();
    assert_eq!(not_dot.code, ErrorCode::InvalidRequest);
}

async fn next(
    watch: &mut WorkflowWatch,
) -> Result<Option<WorkflowChanged>, tokio::time::error::Elapsed> {
    tokio::time::timeout(Duration::from_secs(10), watch.next_change()).await
}

#[tokio::test]
async fn a_watch_reports_changes_to_its_file_only() {
    let dir = tempfile::tempdir().unwrap();
    let flow = dir.path().join("w.dot");
    std::fs::write(&flow, "digraph W { start -> exit }\n").unwrap();
    let mut watch = WorkflowWatches::default()
        .watch(&flow.display().to_string())
        .unwrap();

    // Another file in the folder is not a change, and neither is reading the file (the
    // editor re-reads it after every change; counting reads made that loop forever).
    std::fs::write(dir.path().join("other.dot"), "digraph O {}").unwrap();
    for _ in 0..3 {
        open_workflow(&OpenWorkflowRequest {
            path: flow.display().to_string(),
        })
        .unwrap();
    }
    let quiet = tokio::time::timeout(Duration::from_millis(400), watch.next_change()).await;
    assert!(quiet.is_err(), "{quiet:?}");

    // Written in place.
    std::fs::write(&flow, "digraph W { start -> a -> exit }\n").unwrap();
    let change = next(&mut watch).await.unwrap().unwrap();
    assert!(change.exists);
    assert!(change.path.ends_with("w.dot"));

    // Saved the way Heddle saves: a temp file renamed over it.
    save_workflow(&SaveWorkflowRequest {
        path: flow.display().to_string(),
        source: "digraph W { start -> b -> exit }\n".to_owned(),
        expected_disk: None,
    })
    .unwrap();
    assert!(next(&mut watch).await.unwrap().unwrap().exists);

    std::fs::remove_file(&flow).unwrap();
    assert!(!next(&mut watch).await.unwrap().unwrap().exists);
}
