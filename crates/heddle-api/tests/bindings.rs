//! The TypeScript bindings in `ui/src/generated` must match the Rust types. This test
//! regenerates them into a temporary folder and compares; run it with
//! `HEDDLE_UPDATE_BINDINGS=1` to rewrite the committed files after changing a type.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use heddle_api::*;
use ts_rs::{Config, TS};

#[path = "bindings/operations.rs"]
mod operations;

fn export_roots(dir: &Path) {
    // JSON numbers arrive in JavaScript as `number`; none of ours exceed 2^53.
    let cfg = Config::new().with_out_dir(dir).with_large_int("number");
    let dir = &cfg;
    OpenWorkflowRequest::export_all(dir).unwrap();
    CheckWorkflowRequest::export_all(dir).unwrap();
    OpenedWorkflow::export_all(dir).unwrap();
    RunWorkflow::export_all(dir).unwrap();
    ListWorkflowsRequest::export_all(dir).unwrap();
    WorkflowEntry::export_all(dir).unwrap();
    LaunchInfo::export_all(dir).unwrap();
    ApiError::export_all(dir).unwrap();
    StartRunRequest::export_all(dir).unwrap();
    WorkflowTrustRequest::export_all(dir).unwrap();
    WorkflowTrust::export_all(dir).unwrap();
    RunStarted::export_all(dir).unwrap();
    RunRef::export_all(dir).unwrap();
    ResumeRunRequest::export_all(dir).unwrap();
    AnswerGateRequest::export_all(dir).unwrap();
    PendingGate::export_all(dir).unwrap();
    RollbackRequest::export_all(dir).unwrap();
    ForkRequest::export_all(dir).unwrap();
    CheckpointRef::export_all(dir).unwrap();
    CheckpointFileRequest::export_all(dir).unwrap();
    CheckpointFile::export_all(dir).unwrap();
    CheckpointState::export_all(dir).unwrap();
    DiffRequest::export_all(dir).unwrap();
    EventsRequest::export_all(dir).unwrap();
    RunEventsRequest::export_all(dir).unwrap();
    RunEventPage::export_all(dir).unwrap();
    checkpoint::CheckpointEntry::export_all(dir).unwrap();
    checkpoint::TreeFile::export_all(dir).unwrap();
    checkpoint::CheckpointDiff::export_all(dir).unwrap();
    checkpoint::RollbackReport::export_all(dir).unwrap();
    heddle_artifacts::ListedArtifact::export_all(dir).unwrap();
    JUnitReport::export_all(dir).unwrap();
    checkpoint::PatchFiles::export_all(dir).unwrap();
    ListRunsRequest::export_all(dir).unwrap();
    EditWorkflowRequest::export_all(dir).unwrap();
    SaveWorkflowRequest::export_all(dir).unwrap();
    RecentWorkflowsRequest::export_all(dir).unwrap();
    index::RunPage::export_all(dir).unwrap();
    index::Timeline::export_all(dir).unwrap();
    index::RecentWorkflow::export_all(dir).unwrap();
    index::QueueEntry::export_all(dir).unwrap();
    RunQueueRequest::export_all(dir).unwrap();
    QueueEntryRef::export_all(dir).unwrap();
    RunQueue::export_all(dir).unwrap();
    WorkflowPathRequest::export_all(dir).unwrap();
    WorkflowLayout::export_all(dir).unwrap();
    SaveLayoutRequest::export_all(dir).unwrap();
    ReadReferenceRequest::export_all(dir).unwrap();
    ReferencedFile::export_all(dir).unwrap();
    CheckExpressionRequest::export_all(dir).unwrap();
    ExpressionProblem::export_all(dir).unwrap();
    WorkflowTemplate::export_all(dir).unwrap();
    CreateWorkflowRequest::export_all(dir).unwrap();
    WatchWorkflowRequest::export_all(dir).unwrap();
    WorkflowChanged::export_all(dir).unwrap();
    RunFileRequest::export_all(dir).unwrap();
    SavedRunFile::export_all(dir).unwrap();
    GarbageRequest::export_all(dir).unwrap();
    GarbageReport::export_all(dir).unwrap();
    // The run's event stream: the envelope and the union of every event.
    heddle_engine::Envelope::export_all(dir).unwrap();
}

/// Lists the UI needs as values, not types, written from the one Rust declaration.
fn export_constants(dir: &Path) {
    let extensions: Vec<String> = heddle_workflow::WORKFLOW_EXTENSIONS
        .iter()
        .map(|e| format!("'{e}'"))
        .collect();
    let text = format!(
        "// Generated from heddle_workflow::WORKFLOW_EXTENSIONS by crates/heddle-api/tests/bindings.rs. Do not edit.\n\n\
         /** File extensions (without the dot) of workflow files; the first is the default. */\n\
         export const WORKFLOW_EXTENSIONS = [{}] as const;\n",
        extensions.join(", ")
    );
    std::fs::write(dir.join("workflowExtensions.ts"), text).unwrap();
    std::fs::write(dir.join("dialectAttributes.ts"), dialect_attributes()).unwrap();
    let names: Vec<String> = heddle_engine::event::EVENT_NAMES
        .iter()
        .map(|n| format!("'{n}'"))
        .collect();
    let text = format!(
        "// Generated from heddle_engine::event::EVENT_NAMES by crates/heddle-api/tests/bindings.rs. Do not edit.\n\n\
         /** Every run event's name (`RunEvent['event']`), in declaration order. */\n\
         export const RUN_EVENT_NAMES = [{}] as const;\n",
        names.join(", ")
    );
    std::fs::write(dir.join("runEventNames.ts"), text).unwrap();
    let keys: Vec<String> = heddle_api::CARD_ATTRIBUTES
        .iter()
        .map(|k| format!("'{k}'"))
        .collect();
    let text = format!(
        "// Generated from heddle_api::CARD_ATTRIBUTES by crates/heddle-api/tests/bindings.rs. Do not edit.\n\n\
         /** The node attributes a node's card shows, the only ones a run's graph keeps. */\n\
         export const CARD_ATTRIBUTES = [{}] as const;\n\n\
         /** One of them. */\n\
         export type CardAttribute = (typeof CARD_ATTRIBUTES)[number];\n",
        keys.join(", ")
    );
    std::fs::write(dir.join("cardAttributes.ts"), text).unwrap();
    let cfg = Config::new().with_out_dir(dir).with_large_int("number");
    std::fs::write(dir.join("operations.ts"), operations::operations_ts(&cfg)).unwrap();
}

/// A value type as `ui/src/editing/attributeCatalog.ts`'s `AttrValueType` spells it; an
/// unbounded minimum is `null`.
fn value_type_ts(ty: heddle_workflow::ValueType) -> serde_json::Value {
    use heddle_workflow::ValueType;
    use serde_json::json;
    match ty {
        ValueType::String => json!({ "type": "string" }),
        ValueType::Integer { min } => {
            json!({ "type": "integer", "min": (min != i64::MIN).then_some(min) })
        }
        ValueType::Float { min } => {
            json!({ "type": "float", "min": (min > f64::MIN).then_some(min) })
        }
        ValueType::Boolean => json!({ "type": "boolean" }),
        ValueType::Flag => json!({ "type": "flag" }),
        ValueType::Duration => json!({ "type": "duration" }),
        ValueType::Enum(values) => json!({ "type": "enum", "values": values }),
        ValueType::TextOrFile => json!({ "type": "text_or_file" }),
        ValueType::Schema => json!({ "type": "schema" }),
        ValueType::NodeId => json!({ "type": "node_id" }),
        ValueType::Condition => json!({ "type": "condition" }),
        ValueType::Stylesheet => json!({ "type": "stylesheet" }),
    }
}

/// The dialect's attribute catalog, in the Rust catalog's order, for the inspector.
fn dialect_attributes() -> String {
    use heddle_workflow::catalog::{Source, all};
    let mut text = String::from(
        "// Generated from crates/heddle-workflow/src/catalog/dialect.rs by \
         crates/heddle-api/tests/bindings.rs. Do not edit.\n\n\
         /** The dialect's attributes: name, aliases, scopes (G, S, N, E), value type, summary. */\n\
         export const DIALECT_ATTRIBUTE_TABLE = [\n",
    );
    for spec in all().filter(|s| s.source == Source::Dialect) {
        let entry = serde_json::json!({
            "name": spec.name,
            "aliases": spec.aliases,
            "scopes": spec.scopes,
            "valueType": value_type_ts(spec.ty),
            "summary": spec.summary,
        });
        text.push_str(&format!("  {entry},\n"));
    }
    text.push_str("] as const;\n");
    text
}

fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "ts") {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                files.insert(rel, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    files
}

fn committed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/generated")
}

#[test]
fn typescript_bindings_match_rust_types() {
    let fresh_dir = tempfile::tempdir().unwrap();
    export_roots(fresh_dir.path());
    export_constants(fresh_dir.path());
    let fresh = read_tree(fresh_dir.path());
    assert!(
        fresh.contains_key("OpenedWorkflow.ts"),
        "export produced {:?}",
        fresh.keys()
    );

    let committed_path = committed_dir();
    if std::env::var_os("HEDDLE_UPDATE_BINDINGS").is_some() {
        if committed_path.exists() {
            std::fs::remove_dir_all(&committed_path).unwrap();
        }
        std::fs::create_dir_all(&committed_path).unwrap();
        for (rel, text) in &fresh {
            let target = committed_path.join(rel);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, text).unwrap();
        }
        return;
    }
    let committed = if committed_path.exists() {
        read_tree(&committed_path)
    } else {
        BTreeMap::new()
    };
    let stale: Vec<_> = fresh
        .iter()
        .filter(|(rel, text)| committed.get(*rel) != Some(*text))
        .map(|(rel, _)| rel.clone())
        .collect();
    let extra: Vec<_> = committed
        .keys()
        .filter(|rel| !fresh.contains_key(*rel))
        .cloned()
        .collect();
    assert!(
        stale.is_empty() && extra.is_empty(),
        "ui/src/generated is out of date (changed or missing: {stale:?}; no longer generated: {extra:?}). \
         Run `HEDDLE_UPDATE_BINDINGS=1 cargo nextest run -p heddle-api bindings` and commit the result."
    );
}
