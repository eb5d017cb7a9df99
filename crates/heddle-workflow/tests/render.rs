#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Rendering diagnostics, and the rule list against its documentation.

use heddle_dot::Span;
use heddle_workflow::{Diagnostic, Severity, render_diagnostic, rules};

const SOURCE: &str = "digraph flow {\n  start -> exit [condition=\"x &\"]\n}\n";

fn span(start: usize, end: usize, line: u32, column: u32) -> Span {
    Span {
        start,
        end,
        line,
        column,
    }
}

#[test]
fn rustc_style_with_hint() {
    let d = Diagnostic::new("condition_syntax", Severity::Error, "bad condition")
        .at(span(44, 45, 2, 30))
        .with_hint("write `&&`");
    let text = render_diagnostic(&d, SOURCE, "flow.dot", false);
    assert_eq!(
        text,
        "error[condition_syntax]: bad condition\n --> flow.dot:2:30\n  |\n2 |   start -> exit [condition=\"x &\"]\n  |                              ^\n  = help: write `&&`\n"
    );
}

#[test]
fn without_span_or_hint() {
    let d = Diagnostic::new("syntax", Severity::Warning, "the file holds no graph");
    assert_eq!(
        render_diagnostic(&d, "", "empty.dot", false),
        "warning[syntax]: the file holds no graph\n --> empty.dot\n"
    );
}

#[test]
fn span_in_another_file() {
    let d = Diagnostic::new("x", Severity::Info, "m")
        .at(span(0, 1, 12, 3))
        .in_file("prompts/a.md");
    assert_eq!(
        render_diagnostic(&d, SOURCE, "flow.dot", false),
        "info[x]: m\n  --> prompts/a.md:12:3\n"
    );
}

#[test]
fn colors_only_when_asked() {
    let d = Diagnostic::new("r", Severity::Error, "m")
        .at(span(0, 7, 1, 1))
        .with_hint("h");
    let plain = render_diagnostic(&d, SOURCE, "flow.dot", false);
    assert!(!plain.contains('\x1b'));
    let colored = render_diagnostic(&d, SOURCE, "flow.dot", true);
    assert!(colored.contains("\x1b[1;31merror[r]\x1b[0m"), "{colored:?}");
    assert!(colored.contains("\x1b[1;31m ^^^^^^^\x1b[0m"), "{colored:?}");
    let stripped = colored
        .split('\x1b')
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                part.split_once('m').map_or(part, |(_, rest)| rest)
            }
        })
        .collect::<String>();
    assert_eq!(stripped, plain);
}

#[test]
fn control_characters_are_not_printed() {
    let source = "digraph {\x1b[2J \0 }";
    let d = Diagnostic::new("syntax", Severity::Error, "found `\x1b`").at(span(9, 10, 1, 10));
    let text = render_diagnostic(&d, source, "x.dot", false);
    assert!(!text.contains('\x1b') && !text.contains('\0'), "{text:?}");
    assert!(text.contains("^"));
}

#[test]
fn every_rule_is_documented() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/lint-rules.md"
    ))
    .unwrap();
    let all = rules();
    assert!(all.len() >= 30, "{}", all.len());
    for rule in &all {
        let heading = format!("### `{}` ({}", rule.id, rule.severity.as_str());
        assert!(
            doc.contains(&heading),
            "docs/lint-rules.md lacks `{heading}`"
        );
    }
    let mut ids: Vec<&str> = all.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "rule ids are unique");
}
