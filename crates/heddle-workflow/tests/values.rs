#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Typed values and the attribute catalog.

use heddle_workflow::catalog::{self, Scope, Source};
use heddle_workflow::{Value, ValueError, ValueType, canonical_outcome, parse_value, typed_value};

#[test]
fn integers_respect_minimum() {
    let ty = ValueType::Integer { min: 0 };
    assert_eq!(parse_value(ty, "3"), Ok(Value::Integer(3)));
    assert_eq!(parse_value(ty, " 7 "), Ok(Value::Integer(7)));
    assert!(matches!(
        parse_value(ty, "-1"),
        Err(ValueError::BelowMinimum { .. })
    ));
    assert_eq!(
        parse_value(ty, "abc"),
        Err(ValueError::NotInteger("abc".into()))
    );
    assert_eq!(
        parse_value(ty, "1.5"),
        Err(ValueError::NotInteger("1.5".into()))
    );
}

#[test]
fn floats_and_booleans() {
    let ty = ValueType::Float { min: 0.0 };
    assert_eq!(parse_value(ty, "0.5"), Ok(Value::Float(0.5)));
    assert!(parse_value(ty, "NaN").is_err());
    assert!(parse_value(ty, "-2").is_err());
    assert_eq!(
        parse_value(ValueType::Boolean, "true"),
        Ok(Value::Boolean(true))
    );
    assert_eq!(
        parse_value(ValueType::Boolean, "FALSE"),
        Ok(Value::Boolean(false))
    );
    assert_eq!(
        parse_value(ValueType::Boolean, "yes"),
        Err(ValueError::NotBoolean("yes".into()))
    );
}

#[test]
fn durations_enums_and_files() {
    assert_eq!(
        parse_value(ValueType::Duration, "30s"),
        Ok(Value::Duration(30_000))
    );
    assert!(matches!(
        parse_value(ValueType::Duration, "30x"),
        Err(ValueError::Duration(_))
    ));
    let ty = ValueType::Enum(&["low", "medium", "high"]);
    assert_eq!(parse_value(ty, "High"), Ok(Value::Enum("high".into())));
    let error = parse_value(ty, "extreme").unwrap_err();
    assert_eq!(
        error.to_string(),
        "`extreme` is not one of `low`, `medium` or `high`"
    );
    assert_eq!(
        parse_value(ValueType::TextOrFile, "@prompts/a.md"),
        Ok(Value::FileRef {
            path: "prompts/a.md".into(),
            resolved: None
        })
    );
    assert_eq!(
        parse_value(ValueType::TextOrFile, "Write the plan"),
        Ok(Value::String("Write the plan".into()))
    );
    assert_eq!(
        parse_value(ValueType::TextOrFile, "@"),
        Err(ValueError::EmptyFileRef)
    );
    assert_eq!(
        parse_value(ValueType::Schema, "routing"),
        Ok(Value::Enum("routing".into()))
    );
    assert!(parse_value(ValueType::Schema, "json").is_err());
}

#[test]
fn invalid_values_are_kept() {
    assert_eq!(
        typed_value(ValueType::Integer { min: 0 }, "many"),
        Value::Invalid("many".into())
    );
}

#[test]
fn aliases_map_to_canonical_names() {
    assert_eq!(catalog::canonical(Scope::Node, "llm_model"), "model");
    assert_eq!(catalog::canonical(Scope::Node, "model"), "model");
    assert_eq!(catalog::canonical(Scope::Node, "llm_provider"), "provider");
    assert_eq!(catalog::canonical(Scope::Node, "tool_command"), "script");
    assert_eq!(
        catalog::canonical(Scope::Graph, "default_max_retry"),
        "default_max_retries"
    );
    assert_eq!(catalog::canonical(Scope::Node, "whatever"), "whatever");
}

#[test]
fn scopes_pick_the_right_entry() {
    let node_model = catalog::lookup(Scope::Node, "model").unwrap();
    assert_eq!(node_model.source, Source::Dialect);
    let graph_model = catalog::lookup(Scope::Graph, "model").unwrap();
    assert_eq!(graph_model.source, Source::Graphviz);
    assert!(catalog::lookup(Scope::Node, "condition").is_none());
    assert_eq!(
        catalog::other_scopes(Scope::Node, "condition"),
        vec![Scope::Edge]
    );
    assert!(catalog::lookup(Scope::Edge, "fidelity").is_some());
    assert!(catalog::lookup(Scope::Subgraph, "label").is_some());
}

#[test]
fn graphviz_attributes_are_known_as_text() {
    for (scope, key) in [
        (Scope::Node, "color"),
        (Scope::Node, "fillcolor"),
        (Scope::Node, "style"),
        (Scope::Node, "fontname"),
        (Scope::Edge, "penwidth"),
        (Scope::Edge, "xlabel"),
        (Scope::Graph, "rankdir"),
        (Scope::Graph, "splines"),
        (Scope::Graph, "nodesep"),
        (Scope::Graph, "compound"),
        (Scope::Subgraph, "bgcolor"),
        (Scope::Subgraph, "rank"),
        (Scope::Node, "width"),
        (Scope::Node, "tooltip"),
    ] {
        assert!(catalog::lookup(scope, key).is_some(), "{key} in {scope:?}");
    }
}

#[test]
fn dotted_keys() {
    assert_eq!(
        catalog::lookup(Scope::Node, "human.default_choice")
            .unwrap()
            .name,
        "human.default_choice"
    );
    assert_eq!(
        catalog::lookup(Scope::Node, "manager.poll_interval")
            .unwrap()
            .ty,
        ValueType::Duration
    );
    assert_eq!(
        catalog::lookup(Scope::Node, "manager.anything")
            .unwrap()
            .name,
        "manager.*"
    );
    assert!(catalog::lookup(Scope::Node, "manager.").is_none());
    assert_eq!(
        catalog::canonical(Scope::Node, "manager.anything"),
        "manager.anything"
    );
    assert_eq!(
        catalog::canonical(Scope::Node, "stack.child_dotfile"),
        "stack.child_workflow"
    );
}

#[test]
fn suggestions() {
    assert_eq!(catalog::suggest(Scope::Node, "promt"), Some("prompt"));
    assert_eq!(
        catalog::suggest(Scope::Node, "max_retry"),
        Some("max_retries")
    );
    assert_eq!(catalog::suggest(Scope::Edge, "conditon"), Some("condition"));
    assert_eq!(catalog::suggest(Scope::Node, "zzzzzzzzzz"), None);
}

#[test]
fn outcomes_accept_both_spellings() {
    assert_eq!(canonical_outcome("success"), Some("success"));
    assert_eq!(canonical_outcome("succeeded"), Some("success"));
    assert_eq!(canonical_outcome("FAILED"), Some("fail"));
    assert_eq!(
        canonical_outcome("partially_succeeded"),
        Some("partial_success")
    );
    assert_eq!(canonical_outcome("skipped"), Some("skipped"));
    assert_eq!(canonical_outcome("retry"), Some("retry"));
    assert_eq!(canonical_outcome("sucess"), None);
}
