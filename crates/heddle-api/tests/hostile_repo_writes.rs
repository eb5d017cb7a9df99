//! The editor's writes in a repository someone else prepared: links planted where Heddle
//! writes (the old fixed temporary names, the sidecar itself, a template's folders) never
//! carry a write outside the repository, and the files stay regular files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use heddle_api::*;

/// A "cloned repository" holding a workflow, and a file outside it the attacker wants
/// changed (standing in for `.git/hooks/pre-commit` or `~/.bashrc`).
struct Hostile {
    _tmp: tempfile::TempDir,
    repo: PathBuf,
    victim: PathBuf,
}

const VICTIM_TEXT: &str = "#!/bin/sh\necho original hook\n";
const FLOW: &str =
    "digraph R {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n}\n";

fn hostile() -> Hostile {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    let victim = tmp.path().join("pre-commit");
    std::fs::write(&victim, VICTIM_TEXT).unwrap();
    std::fs::write(repo.join("flow.dot"), FLOW).unwrap();
    Hostile {
        _tmp: tmp,
        repo,
        victim,
    }
}

fn victim_untouched(h: &Hostile) {
    assert_eq!(std::fs::read_to_string(&h.victim).unwrap(), VICTIM_TEXT);
}

fn is_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_file()
}

#[test]
fn links_at_the_old_temp_names_catch_no_save() {
    let h = hostile();
    let flow = h.repo.join("flow.dot");
    // Every fixed name the writers used before: `.{name}.tmp`.
    symlink(&h.victim, h.repo.join(".flow.dot.tmp")).unwrap();
    symlink(&h.victim, h.repo.join(".flow.dot.heddle-layout.json.tmp")).unwrap();

    save_layout(&SaveLayoutRequest {
        path: flow.display().to_string(),
        text: r#"{"version":1,"positions":{"$(touch pwned)":{"x":1,"y":2}}}"#.to_owned(),
    })
    .unwrap();
    let edited = FLOW.replace("start -> exit", "start -> exit [label=\"go\"]");
    save_workflow(&SaveWorkflowRequest {
        path: flow.display().to_string(),
        source: edited.clone(),
        expected_disk: Some(FLOW.to_owned()),
    })
    .unwrap();

    victim_untouched(&h);
    assert!(is_regular(&flow));
    assert!(is_regular(&h.repo.join("flow.dot.heddle-layout.json")));
    assert_eq!(std::fs::read_to_string(&flow).unwrap(), edited);
}

#[test]
fn a_sidecar_that_is_a_link_is_refused_by_name() {
    let h = hostile();
    let flow = h.repo.join("flow.dot");
    let sidecar = h.repo.join("flow.dot.heddle-layout.json");
    symlink(&h.victim, &sidecar).unwrap();

    let err = save_layout(&SaveLayoutRequest {
        path: flow.display().to_string(),
        text: r#"{"version":1}"#.to_owned(),
    })
    .unwrap_err();
    assert!(
        err.message.contains("flow.dot.heddle-layout.json"),
        "{err:?}"
    );
    assert!(err.message.contains("symbolic link"), "{err:?}");
    victim_untouched(&h);
    assert!(std::fs::symlink_metadata(&sidecar).unwrap().is_symlink());
}

#[test]
fn a_workflow_that_is_a_link_is_not_saved_through() {
    let h = hostile();
    let flow = h.repo.join("linked.dot");
    symlink(&h.victim, &flow).unwrap();
    let err = save_workflow(&SaveWorkflowRequest {
        path: flow.display().to_string(),
        source: FLOW.to_owned(),
        expected_disk: None,
    })
    .unwrap_err();
    assert!(err.message.contains("linked.dot"), "{err:?}");
    victim_untouched(&h);
}

#[test]
fn a_template_does_not_write_through_a_linked_folder() {
    let h = hostile();
    let elsewhere = h.victim.parent().unwrap().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    symlink(&elsewhere, h.repo.join("prompts")).unwrap();

    let err = create_workflow(&CreateWorkflowRequest {
        template: "plan-implement-test".to_owned(),
        path: h.repo.join("new.dot").display().to_string(),
    })
    .unwrap_err();
    assert!(err.message.contains("symbolic link"), "{err:?}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert!(!h.repo.join("new.dot").exists());
}

#[test]
fn a_dangling_link_at_a_new_workflow_path_is_not_followed() {
    let h = hostile();
    let target = h.victim.parent().unwrap().join("created-by-link.dot");
    symlink(&target, h.repo.join("new.dot")).unwrap();
    let err = create_workflow(&CreateWorkflowRequest {
        template: "blank".to_owned(),
        path: h.repo.join("new.dot").display().to_string(),
    })
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::AlreadyExists, "{err:?}");
    assert!(!target.exists());
}
