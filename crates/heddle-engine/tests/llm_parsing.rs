#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Routing directives, output schemas and the simulated backend, without a run.

use std::path::PathBuf;
use std::sync::Mutex;

use heddle_engine::llm::{
    LlmBackend, LlmEvent, LlmEventSink, LlmRequest, OutputSchema, SimulatedBackend,
    extract_directive, last_json_object,
};
use heddle_workflow::HandlerKind;
use serde_json::{Value as Json, json};
use tokio_util::sync::CancellationToken;

// ---- directives ----

fn outcome_of(text: &str) -> Option<String> {
    extract_directive(text).and_then(|d| d.outcome)
}

#[test]
fn directive_in_prose() {
    let text = r#"I fixed the tests. {"outcome": "success", "preferred_next_label": "Ship"} Bye."#;
    let directive = extract_directive(text).unwrap();
    assert_eq!(directive.outcome.as_deref(), Some("success"));
    assert_eq!(directive.preferred_next_label.as_deref(), Some("Ship"));
}

#[test]
fn directive_in_code_fence() {
    let text = "Summary.\n\n```json\n{\n  \"outcome\": \"fail\",\n  \"failure_reason\": \"lint\"\n}\n```\n";
    let directive = extract_directive(text).unwrap();
    assert_eq!(directive.outcome.as_deref(), Some("fail"));
    assert_eq!(directive.failure_reason.as_deref(), Some("lint"));
}

#[test]
fn directive_with_braces_and_escaped_quotes_in_strings() {
    let text = r#"done {"outcome": "fail", "failure_reason": "a \"}\" b { c"} end"#;
    let directive = extract_directive(text).unwrap();
    assert_eq!(directive.failure_reason.as_deref(), Some(r#"a "}" b { c"#));
}

#[test]
fn nested_context_updates_belong_to_the_outer_object() {
    let text =
        r#"{"outcome": "success", "context_updates": {"outcome": "inner", "n": {"deep": 1}}}"#;
    let directive = extract_directive(text).unwrap();
    assert_eq!(directive.outcome.as_deref(), Some("success"));
    assert_eq!(
        directive.context_updates.get("n"),
        Some(&json!({"deep": 1}))
    );
    assert_eq!(
        directive.context_updates.get("outcome"),
        Some(&json!("inner"))
    );
}

#[test]
fn the_last_qualifying_object_wins() {
    let text = r#"First {"outcome": "fail"} then {"outcome": "retry"} and finally {"outcome": "success"}."#;
    assert_eq!(outcome_of(text).as_deref(), Some("success"));
}

#[test]
fn a_later_object_without_fields_does_not_hide_an_earlier_directive() {
    let text =
        r#"{"outcome": "partial_success"} and the data: {"rows": 3, "inner": {"outcome": "x"}}"#;
    assert_eq!(outcome_of(text).as_deref(), Some("partial_success"));
}

#[test]
fn no_directive_in_plain_text_or_unrelated_json() {
    assert_eq!(extract_directive("All done, nothing to report."), None);
    assert_eq!(extract_directive(r#"{"rows": 3}"#), None);
    assert_eq!(extract_directive("fn main() { let x = 1; }"), None);
}

#[test]
fn an_earlier_unbalanced_brace_is_ignored() {
    let text =
        "Use the {name placeholder, then \"quote it.\n```json\n{\"outcome\": \"success\"}\n```";
    assert_eq!(outcome_of(text).as_deref(), Some("success"));
    let text = r#"oops { and "a stray quote then {"outcome": "retry"}"#;
    assert_eq!(outcome_of(text).as_deref(), Some("retry"));
}

#[test]
fn an_unclosed_directive_is_not_a_directive() {
    assert_eq!(extract_directive(r#"{"outcome": "success""#), None);
}

#[test]
fn suggested_next_ids_as_array_or_string() {
    let list = extract_directive(r#"{"suggested_next_ids": ["a", "b"]}"#).unwrap();
    assert_eq!(list.suggested_next_ids, vec!["a", "b"]);
    assert_eq!(list.outcome, None);
    let single = extract_directive(r#"{"suggested_next_ids": "c"}"#).unwrap();
    assert_eq!(single.suggested_next_ids, vec!["c"]);
}

#[test]
fn many_braces_scan_quickly() {
    let mut text = "{ ".repeat(20_000);
    text.push_str(&"{\"a\": 1} ".repeat(20_000));
    text.push_str(r#"{"outcome": "success"}"#);
    let started = std::time::Instant::now();
    assert_eq!(outcome_of(&text).as_deref(), Some("success"));
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
}

#[test]
fn last_json_object_prefers_the_whole_text() {
    let whole = last_json_object("  {\"a\": {\"b\": 1}}  ").unwrap();
    assert_eq!(Json::Object(whole), json!({"a": {"b": 1}}));
    let embedded = last_json_object("x {\"a\": 1} y {\"b\": [2]} z").unwrap();
    assert_eq!(Json::Object(embedded), json!({"b": [2]}));
    assert_eq!(last_json_object("none {here"), None);
}

// ---- schemas ----

fn schema_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let workflow = dir.path().join("flow.dot");
    (dir, workflow)
}

#[test]
fn load_routing_and_files() {
    let (dir, workflow) = schema_dir();
    assert_eq!(
        OutputSchema::load("routing", &workflow).unwrap().source,
        "routing"
    );
    std::fs::create_dir(dir.path().join("schemas")).unwrap();
    let file = dir.path().join("schemas/out.schema.json");
    std::fs::write(&file, r#"{"type": "object", "required": ["x"]}"#).unwrap();
    let at = OutputSchema::load("@schemas/out.schema.json", &workflow).unwrap();
    assert_eq!(at.source, file.display().to_string());
    assert_eq!(at.schema["required"], json!(["x"]));
    let bare = OutputSchema::load("schemas/out.schema.json", &workflow).unwrap();
    assert_eq!(bare.schema, at.schema);
}

#[test]
fn load_missing_file_names_it() {
    let (dir, workflow) = schema_dir();
    let error = OutputSchema::load("@nope.schema.json", &workflow).unwrap_err();
    let expected = dir.path().join("nope.schema.json").display().to_string();
    assert!(error.0.contains(&expected), "{error}");
    assert!(error.0.contains("@nope.schema.json"), "{error}");
}

#[test]
fn load_bad_json_gives_line_and_column() {
    let (dir, workflow) = schema_dir();
    std::fs::write(
        dir.path().join("bad.json"),
        "{\n  \"type\": \"object\",\n  oops\n}",
    )
    .unwrap();
    let error = OutputSchema::load("@bad.json", &workflow).unwrap_err();
    let expected = format!(
        "{}:3:3: output schema is not valid JSON",
        dir.path().join("bad.json").display()
    );
    assert!(error.0.starts_with(&expected), "{error}");
}

#[test]
fn load_invalid_schema_says_so() {
    let (dir, workflow) = schema_dir();
    std::fs::write(
        dir.path().join("s.json"),
        r#"{"properties": {"a": {"type": 5}}}"#,
    )
    .unwrap();
    let error = OutputSchema::load("@s.json", &workflow).unwrap_err();
    assert!(error.0.contains("not a valid JSON Schema"), "{error}");
    assert!(error.0.contains("s.json"), "{error}");
    assert!(OutputSchema::load("  @ ", &workflow).is_err());
}

#[test]
fn validation_errors_carry_instance_paths() {
    let schema = OutputSchema::from_json(
        json!({
            "type": "object",
            "required": ["name", "items"],
            "properties": {"items": {"type": "array", "items": {"type": "integer"}}}
        }),
        "inline",
    )
    .unwrap();
    assert!(
        schema
            .validate(&json!({"name": "a", "items": [1]}))
            .is_empty()
    );
    let errors = schema.validate(&json!({"items": [1, "two"]}));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("(root): ") && e.contains("\"name\"")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.starts_with("/items/1: ")),
        "{errors:?}"
    );
}

#[test]
fn routing_schema_requires_a_known_outcome() {
    let schema = OutputSchema::routing();
    assert!(
        schema
            .validate(&json!({"outcome": "failed", "suggested_next_ids": ["a"]}))
            .is_empty()
    );
    assert_eq!(
        schema.validate(&json!({"preferred_next_label": "x"})).len(),
        1
    );
    assert_eq!(schema.validate(&json!({"outcome": "great"})).len(), 1);
    assert_eq!(
        schema
            .validate(&json!({"outcome": "success", "suggested_next_ids": "a"}))
            .len(),
        1
    );
}

// ---- simulated backend ----

#[derive(Default)]
struct Collect(Mutex<Vec<LlmEvent>>);

impl LlmEventSink for Collect {
    fn emit(&self, event: LlmEvent) {
        self.0.lock().unwrap().push(event);
    }
}

fn request(schema: Option<Json>) -> LlmRequest {
    LlmRequest {
        run_id: "run1".into(),
        node_id: "plan".into(),
        kind: HandlerKind::Prompt,
        model: None,
        provider: None,
        reasoning_effort: None,
        backend: None,
        command: None,
        max_turns: None,
        work_dir: PathBuf::from("."),
        timeout: None,
        output_schema: schema,
        thread_id: None,
    }
}

async fn simulate(schema: Option<&OutputSchema>) -> (String, Vec<LlmEvent>) {
    let backend = SimulatedBackend;
    assert!(backend.simulated());
    let mut conversation = backend
        .open(&request(schema.map(|s| s.schema.clone())))
        .await
        .unwrap();
    let sink = Collect::default();
    let cancel = CancellationToken::new();
    let reply = conversation
        .send("twelve chars", &sink, &cancel)
        .await
        .unwrap();
    assert!(reply.simulated);
    assert_eq!(reply.model, "simulated");
    let again = conversation.send("fix it", &sink, &cancel).await.unwrap();
    assert_eq!(last_json_object(&again.text), last_json_object(&reply.text));
    (reply.text, sink.0.into_inner().unwrap())
}

#[tokio::test]
async fn simulated_reply_is_marked_and_emits_events() {
    let (text, events) = simulate(None).await;
    assert!(text.starts_with("[simulated]"), "{text}");
    assert!(text.contains("no model was called"), "{text}");
    assert!(
        text.contains("`plan` (prompt)") && text.contains("12 characters"),
        "{text}"
    );
    assert_eq!(
        extract_directive(&text).unwrap().outcome.as_deref(),
        Some("success")
    );
    assert!(matches!(&events[0], LlmEvent::TextDelta(t) if *t == text));
    assert!(
        matches!(&events[1], LlmEvent::Usage { model, usage } if model == "simulated" && usage.input_tokens == 0)
    );
}

#[tokio::test]
async fn simulated_output_passes_the_routing_schema() {
    let schema = OutputSchema::routing();
    let (text, _) = simulate(Some(&schema)).await;
    assert_eq!(schema.check_reply(&text), Ok(json!({"outcome": "success"})));
}

#[tokio::test]
async fn simulated_output_passes_a_file_schema() {
    let (dir, workflow) = schema_dir();
    let document = json!({
        "type": "object",
        "required": ["summary", "risks", "score", "level", "meta"],
        "properties": {
            "summary": {"type": "string", "minLength": 3},
            "risks": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/risk"}},
            "score": {"type": "number", "minimum": 0.5, "maximum": 1},
            "level": {"enum": ["low", "high"]},
            "meta": {"anyOf": [{"type": "object", "required": ["v"], "properties": {"v": {"const": 2}}}, {"type": "null"}]}
        },
        "$defs": {"risk": {"type": "object", "required": ["id", "ok"],
            "properties": {"id": {"type": "integer", "minimum": 1}, "ok": {"type": "boolean"}}}}
    });
    std::fs::write(dir.path().join("out.json"), document.to_string()).unwrap();
    let schema = OutputSchema::load("@out.json", &workflow).unwrap();
    let (text, _) = simulate(Some(&schema)).await;
    let output = schema.check_reply(&text).unwrap();
    assert_eq!(output["risks"], json!([{"id": 1, "ok": true}]));
    assert_eq!(output["meta"], json!({"v": 2}));
}
