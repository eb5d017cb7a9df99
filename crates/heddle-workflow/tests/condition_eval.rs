#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Condition evaluation against a context map.

use std::collections::HashMap;

use heddle_workflow::Condition;
use serde_json::{Value, json};

fn context() -> HashMap<String, Value> {
    let mut map = HashMap::new();
    map.insert("outcome".into(), json!("success"));
    map.insert("preferred_label".into(), json!("Approve"));
    map.insert("tests_passed".into(), json!(true));
    map.insert("failures".into(), json!(0));
    map.insert("score".into(), json!("0.82"));
    map.insert("count".into(), json!(12));
    map.insert("log".into(), json!("3 errors found"));
    map.insert("tags".into(), json!(["fast", "ui"]));
    map.insert("empty".into(), json!(""));
    map.insert("no".into(), json!("false"));
    map.insert("branch".into(), json!("feat/login"));
    map
}

fn holds(condition: &str) -> bool {
    Condition::parse(condition).unwrap().evaluate(&context())
}

#[test]
fn equality_and_inequality() {
    assert!(holds("outcome=success"));
    assert!(holds("outcome = success && preferred_label = Approve"));
    assert!(!holds("outcome=fail"));
    assert!(holds("outcome!=fail"));
    assert!(holds("preferred_label=\"Approve\""));
    assert!(!holds("preferred_label=approve"));
}

#[test]
fn outcome_spellings_are_interchangeable() {
    assert!(holds("outcome=succeeded"));
    assert!(!holds("outcome=failed"));
    let mut fabro = HashMap::new();
    fabro.insert("outcome".to_owned(), json!("partially_succeeded"));
    assert!(
        Condition::parse("outcome=partial_success")
            .unwrap()
            .evaluate(&fabro)
    );
    assert!(
        Condition::parse("context.outcome=partially_succeeded")
            .unwrap()
            .evaluate(&fabro)
    );
}

#[test]
fn numeric_comparisons() {
    assert!(holds("score > 0.8"));
    assert!(holds("score >= 0.82 && score <= 0.82"));
    assert!(holds("count > 9"), "12 > 9 as numbers, not text");
    assert!(holds("count = 12.0"));
    assert!(holds("failures < 1"));
    assert!(!holds("failures > 0"));
}

#[test]
fn text_comparisons_when_not_numbers() {
    assert!(holds("branch > feat"));
    assert!(holds("branch < zzz"));
}

#[test]
fn ordering_an_unset_key_or_text_against_a_number_is_false() {
    for condition in [
        "retries < 3",
        "retries >= 0",
        "context.retries <= 3",
        "retries > -1",
        "branch > 9",
        "branch < 9",
        "count > 1e400",
        "count < 1e400",
    ] {
        assert!(!holds(condition), "{condition} should not hold");
    }
    // The negation of an unordered test holds, so a guard can be written either way.
    assert!(holds("!(retries < 3)"));
}

#[test]
fn contains_and_matches() {
    assert!(holds("log contains errors"));
    assert!(!holds("log contains warning"));
    assert!(holds("tags contains ui"));
    assert!(!holds("tags contains u"));
    assert!(holds("branch matches \"^feat/\""));
    assert!(!holds("branch matches \"^fix/\""));
    assert!(holds("log matches \"[0-9]+ errors\""));
}

#[test]
fn truthiness() {
    assert!(holds("tests_passed"));
    assert!(!holds("failures"));
    assert!(holds("count"));
    assert!(!holds("empty"));
    assert!(!holds("no"));
    assert!(!holds("missing"));
    assert!(holds("!missing"));
    assert!(holds("tags"));
    assert!(holds("log"));
}

#[test]
fn context_prefix() {
    assert!(holds("context.tests_passed"));
    assert!(holds("context.count > 10"));
    let mut map = HashMap::new();
    map.insert("context.raw".to_owned(), json!("x"));
    assert!(Condition::parse("context.raw = x").unwrap().evaluate(&map));
}

#[test]
fn missing_keys_read_as_empty() {
    assert!(holds("missing = \"\""));
    assert!(holds("missing != x"));
    assert!(!holds("missing contains x"));
}

#[test]
fn boolean_logic() {
    assert!(holds("outcome=fail || tests_passed"));
    assert!(!holds("outcome=fail && tests_passed"));
    assert!(holds("!(outcome=fail) && (count > 100 || tests_passed)"));
}

#[test]
fn other_context_types() {
    let mut btree = std::collections::BTreeMap::new();
    btree.insert("x".to_owned(), json!(1));
    assert!(Condition::parse("x=1").unwrap().evaluate(&btree));
    let mut map = serde_json::Map::new();
    map.insert("x".to_owned(), json!({"a": 1}));
    assert!(Condition::parse("x contains a").unwrap().evaluate(&map));
}
