//! Diagnostics: exact positions, what was expected and what was found, several errors per
//! pass thanks to recovery, and the rendered snippets.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_dot::{parse, snippet};

/// `line:col: expected X, found Y` for every error.
fn diagnostics(src: &str) -> Vec<String> {
    let parsed = parse(src);
    assert_eq!(
        parsed.document.text(),
        src,
        "errors must not break the round trip"
    );
    parsed.errors.iter().map(ToString::to_string).collect()
}

/// Every error with its snippet, as shown to a user.
fn rendered(src: &str) -> String {
    parse(src)
        .errors
        .iter()
        .map(|e| format!("error: {e}\n{}", snippet(src, "flow.dot", e.span)))
        .collect::<Vec<_>>()
        .join("\n")
}

const SEVERAL: &str = r#"digraph G {
  a [label="x" shape=box;
  b -> c [x=];;
  d -> [y=1]
  e [1, f=2]
  ok -> fine
}
"#;

#[test]
fn one_pass_reports_several_errors() {
    assert_eq!(
        diagnostics(SEVERAL),
        [
            "3:3: expected `]`, found `b`",
            "3:13: expected a value, found `]`",
            "3:15: expected a statement or `}`, found `;`",
            "4:8: expected a node or subgraph, found `[`",
            "5:7: expected `=`, found `,`",
        ]
    );
    // Recovery kept the statements around the errors.
    let graph = parse(SEVERAL).document.graph().cloned().unwrap();
    assert_eq!(graph.stmts.len(), 4, "a, b -> c, e and ok -> fine");
    insta::assert_snapshot!("several_errors", rendered(SEVERAL));
}

#[test]
fn unterminated_tokens_are_reported_at_their_start() {
    assert_eq!(
        diagnostics("digraph {\n  a [label=\"never closed]\n}\n"),
        [
            "2:12: expected `\"` to close the string, found end of file",
            "4:1: expected `]`, found end of file",
        ]
    );
    assert_eq!(
        diagnostics("digraph { a /* comment\n never closed"),
        [
            "1:13: expected `*/` to close the comment, found end of file",
            "2:14: expected `}`, found end of file",
        ]
    );
    assert_eq!(
        diagnostics("digraph { a [label=<<b>x</b>] }"),
        [
            "1:20: expected `>` to close the HTML string, found end of file",
            "1:32: expected `]`, found end of file",
        ]
    );
    insta::assert_snapshot!(
        "unterminated_string",
        rendered("digraph {\n  a [label=\"never closed]\n}\n")
    );
}

#[test]
fn wrong_edge_operator_for_the_graph_kind() {
    assert_eq!(
        diagnostics("graph { a -> b }\ndigraph { a -- b }"),
        [
            "1:11: expected `--` (in an undirected graph), found `->`",
            "2:13: expected `->` (in a digraph), found `--`",
        ]
    );
}

#[test]
fn file_level_errors() {
    assert_eq!(
        diagnostics(""),
        ["1:1: expected `digraph` or `graph`, found end of file"]
    );
    assert_eq!(
        diagnostics("// only a comment\n"),
        ["2:1: expected `digraph` or `graph`, found end of file"]
    );
    assert_eq!(
        diagnostics("{ a }\ndigraph { b } }"),
        [
            "1:1: expected `digraph` or `graph`, found `{`",
            "2:15: expected `digraph` or `graph`, found `}`",
        ]
    );
    assert_eq!(
        diagnostics("digraph"),
        ["1:8: expected `{` or a graph name, found end of file"]
    );
    assert_eq!(
        diagnostics("digraph G x { }"),
        ["1:11: expected `{`, found `x`"]
    );
}

#[test]
fn token_level_errors() {
    assert_eq!(
        diagnostics("digraph { a $ b }"),
        ["1:13: expected a DOT token, found `$`"]
    );
    assert_eq!(
        diagnostics("digraph { \"a\" + b }"),
        ["1:17: expected a quoted string after `+`, found `b`"]
    );
    assert_eq!(
        diagnostics("digraph { a: -> b }"),
        ["1:14: expected a port name or compass point, found `->`"]
    );
    assert_eq!(
        diagnostics("digraph { node; a = ; }"),
        [
            "1:15: expected `[`, found `;`",
            "1:21: expected a value, found `;`",
        ]
    );
    assert_eq!(
        diagnostics("digraph { a [x=1 y] }"),
        ["1:19: expected `=`, found `]`"]
    );
}

#[test]
fn multibyte_text_gets_character_columns() {
    assert_eq!(
        diagnostics("digraph { été -> 名前 -> ; }"),
        ["1:24: expected a node or subgraph, found `;`"]
    );
    insta::assert_snapshot!("multibyte", rendered("digraph {\n\tété -> 名前 -> ; }"));
}

#[test]
fn nesting_is_capped() {
    let src = format!("digraph {{ {}{} }}", "{".repeat(300), "}".repeat(300));
    assert_eq!(
        diagnostics(&src),
        ["1:267: expected at most 256 nested subgraphs, found a deeper `{`"]
    );
}

#[test]
fn long_found_text_is_shortened() {
    let src = "digraph { a -> \"a very long quoted string that goes on and on\" -> ; }";
    assert_eq!(
        diagnostics(src),
        ["1:67: expected a node or subgraph, found `;`"]
    );
    assert_eq!(
        diagnostics("digraph { [\"a very long quoted string that goes on\"] }"),
        ["1:11: expected a statement or `}`, found `[`"]
    );
    assert_eq!(
        diagnostics("digraph { a -> \"a very long quoted string that goes on\":; }")[0],
        "1:57: expected a port name or compass point, found `;`"
    );
}

#[test]
fn snippet_never_panics_on_odd_spans() {
    let src = "digraph {\r\n  é\r\n}";
    for start in 0..src.len() + 3 {
        let span = heddle_dot::Span {
            start,
            end: start + 2,
            line: 2,
            column: 3,
        };
        let _ = snippet(src, "x.dot", span);
    }
}

#[test]
fn a_hash_after_code_says_to_use_double_slash() {
    let parsed =
        heddle_dot::parse("digraph g {\n  a -> b # why\n  # a whole-line comment is fine\n}\n");
    assert_eq!(parsed.errors.len(), 1, "{:?}", parsed.errors);
    let error = &parsed.errors[0];
    assert_eq!((error.span.line, error.span.column), (2, 10));
    assert!(
        error.expected.contains("use `//` after code"),
        "{}",
        error.expected
    );
}

#[test]
fn a_number_glued_to_a_name_is_reported_once_per_place() {
    let parsed = heddle_dot::parse("digraph g {\n  2fast [x=1]\n  a -> 3b\n  c [w=2s]\n}\n");
    let found: Vec<_> = parsed
        .errors
        .iter()
        .map(|e| (e.span.line, e.span.column, e.found.as_str()))
        .collect();
    // `w=2s` is a value, where the dialect reads `2s` as one bare value (a duration).
    assert_eq!(found, [(2, 3, "`2fast`"), (3, 8, "`3b`")]);
    assert!(
        parsed.errors[0].expected.contains("`\"2fast\"`"),
        "{}",
        parsed.errors[0].expected
    );
}

#[test]
fn a_stray_backtick_is_named_in_words() {
    let parsed = heddle_dot::parse("digraph g { a ` b }");
    assert_eq!(parsed.errors.len(), 1, "{:?}", parsed.errors);
    assert_eq!(parsed.errors[0].found, "a backtick");
}
