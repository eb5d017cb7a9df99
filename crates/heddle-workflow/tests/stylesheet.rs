#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Model stylesheet: parsing, specificity, ties, errors.

use heddle_workflow::stylesheet::{SelectorKind, Stylesheet, StylesheetErrorKind};

fn resolve(sheet: &str, id: &str, shape: &str, classes: &[&str]) -> Vec<(String, String)> {
    let sheet = Stylesheet::parse(sheet).unwrap();
    let classes: Vec<String> = classes.iter().map(|c| (*c).to_owned()).collect();
    sheet
        .resolve(id, shape, &classes)
        .into_iter()
        .map(|(p, d)| (p.to_owned(), d.value.clone()))
        .collect()
}

fn model(sheet: &str, id: &str, shape: &str, classes: &[&str]) -> String {
    resolve(sheet, id, shape, classes)
        .into_iter()
        .find(|(p, _)| p == "model")
        .map(|(_, v)| v)
        .unwrap_or_default()
}

#[test]
fn parses_rules_selectors_and_declarations() {
    let sheet = Stylesheet::parse(
        "* { model: claude-sonnet-4-5; provider: anthropic }\n/* c */ box, .review { reasoning_effort: high; }\n#final { model: \"gpt-5.2\" }",
    )
    .unwrap();
    assert_eq!(sheet.rules.len(), 3);
    assert_eq!(sheet.rules[0].selectors[0].kind, SelectorKind::Universal);
    assert_eq!(
        sheet.rules[1].selectors[0].kind,
        SelectorKind::Shape("box".into())
    );
    assert_eq!(
        sheet.rules[1].selectors[1].kind,
        SelectorKind::Class("review".into())
    );
    assert_eq!(
        sheet.rules[2].selectors[0].kind,
        SelectorKind::Id("final".into())
    );
    let d = &sheet.rules[0].declarations[0];
    assert_eq!(
        (d.property.as_str(), d.value.as_str()),
        ("model", "claude-sonnet-4-5")
    );
    assert_eq!(d.value_span, (11, 28));
    assert_eq!(sheet.rules[2].declarations[0].value, "gpt-5.2");
}

#[test]
fn specificity_order() {
    let sheet =
        "#n { model: by-id }\n.c { model: by-class }\nbox { model: by-shape }\n* { model: any }";
    assert_eq!(model(sheet, "n", "box", &["c"]), "by-id");
    assert_eq!(model(sheet, "m", "box", &["c"]), "by-class");
    assert_eq!(model(sheet, "m", "box", &[]), "by-shape");
    assert_eq!(model(sheet, "m", "tab", &[]), "any");
}

#[test]
fn later_rule_wins_a_tie() {
    let sheet = ".a { model: first }\n.b { model: second }";
    assert_eq!(model(sheet, "n", "box", &["a", "b"]), "second");
    assert_eq!(model(sheet, "n", "box", &["b", "a"]), "second");
    let sheet = "* { model: one; model: two }";
    assert_eq!(model(sheet, "n", "box", &[]), "two");
}

#[test]
fn selector_lists_use_the_matching_selector() {
    let sheet = "#n, * { model: list }\n.c { model: class }";
    assert_eq!(model(sheet, "n", "box", &["c"]), "list");
    assert_eq!(model(sheet, "m", "box", &["c"]), "class");
}

#[test]
fn aliases_and_unknown_properties() {
    let resolved = resolve(
        "* { llm_model: m; llm_provider: p; temperature: 2; backend: cli }",
        "n",
        "box",
        &[],
    );
    assert_eq!(
        resolved,
        vec![
            ("backend".into(), "cli".into()),
            ("model".into(), "m".into()),
            ("provider".into(), "p".into())
        ]
    );
}

#[test]
fn newline_ends_a_value() {
    let sheet = Stylesheet::parse("* {\n  model: a\n  provider: b\n}").unwrap();
    let values: Vec<&str> = sheet.rules[0]
        .declarations
        .iter()
        .map(|d| d.value.as_str())
        .collect();
    assert_eq!(values, ["a", "b"]);
}

#[test]
fn empty_stylesheet() {
    assert!(Stylesheet::parse("").unwrap().rules.is_empty());
    assert!(
        Stylesheet::parse("  /* nothing */ ")
            .unwrap()
            .rules
            .is_empty()
    );
}

fn first_error(sheet: &str) -> (StylesheetErrorKind, usize, usize) {
    let e = Stylesheet::parse(sheet).unwrap_err();
    (e.kind, e.line, e.column)
}

#[test]
fn errors_with_positions() {
    assert_eq!(
        first_error("* model: x }"),
        (StylesheetErrorKind::ExpectedOpenBrace("`m`".into()), 1, 3)
    );
    assert_eq!(
        first_error("* { model x }"),
        (StylesheetErrorKind::ExpectedColon("model".into()), 1, 5)
    );
    assert_eq!(
        first_error("* { model: ; }"),
        (StylesheetErrorKind::ExpectedValue("model".into()), 1, 5)
    );
    assert_eq!(
        first_error("* { model: x"),
        (StylesheetErrorKind::UnclosedRule, 1, 1)
    );
    assert_eq!(
        first_error("\n. { }"),
        (StylesheetErrorKind::ExpectedName('.'), 2, 1)
    );
    assert_eq!(
        first_error("{ }"),
        (StylesheetErrorKind::ExpectedSelector("`{`".into()), 1, 1)
    );
    assert_eq!(
        first_error("* { model: \"x }"),
        (StylesheetErrorKind::UnterminatedString, 1, 12)
    );
    assert_eq!(
        first_error("/* open"),
        (StylesheetErrorKind::UnterminatedComment, 1, 1)
    );
    assert_eq!(
        first_error("* { : x }"),
        (StylesheetErrorKind::ExpectedProperty("`:`".into()), 1, 5)
    );
}

#[test]
fn recovers_after_errors() {
    let (sheet, errors) =
        Stylesheet::parse_recovering("* { model x; provider: p }\n! { }\n#n { model: m }");
    assert_eq!(errors.len(), 2);
    assert_eq!(sheet.rules.len(), 2);
    assert_eq!(sheet.rules[0].declarations[0].property, "provider");
    assert_eq!(sheet.rules[1].declarations[0].value, "m");
}

#[test]
fn arbitrary_text_never_panics() {
    for text in [
        "}",
        "{{{{",
        "*{",
        "#",
        ".",
        "*{a:\"",
        "é { model: ü }",
        "* { a: b; ; ; }",
        "\u{0}",
    ] {
        let _ = Stylesheet::parse_recovering(text);
    }
}
