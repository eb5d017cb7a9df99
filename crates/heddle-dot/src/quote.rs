//! How Heddle writes identifiers and values: bare when Graphviz accepts them bare, quoted
//! (with escapes) otherwise.

use crate::IdKind;

const KEYWORDS: [&str; 6] = ["strict", "graph", "digraph", "node", "edge", "subgraph"];

/// `strict`, `graph`, `digraph`, `node`, `edge` or `subgraph`, in any case.
pub(crate) fn is_keyword(s: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(s))
}

/// `[A-Za-z_\u{80}-][A-Za-z0-9_\u{80}-]*`, as Graphviz reads an identifier.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || !c.is_ascii())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || !c.is_ascii())
}

/// `-?(\.[0-9]+|[0-9]+(\.[0-9]*)?)`
fn is_numeral(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    match digits.split_once('.') {
        None => !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
        Some((int, frac)) => {
            int.bytes().all(|b| b.is_ascii_digit())
                && frac.bytes().all(|b| b.is_ascii_digit())
                && (!int.is_empty() || !frac.is_empty())
        }
    }
}

/// True when Graphviz reads `s` bare as one identifier or numeral.
pub(crate) fn is_plain(s: &str) -> bool {
    (is_identifier(s) && !is_keyword(s)) || is_numeral(s)
}

/// A workflow node id: `[A-Za-z_][A-Za-z0-9_]*`, not a keyword.
pub(crate) fn is_node_id(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !is_keyword(s)
}

/// Balanced `<`/`>` with no `>` closing more than was opened: writable as `<s>`.
fn is_html_body(s: &str) -> bool {
    let mut depth = 0usize;
    for b in s.bytes() {
        match b {
            b'<' => depth += 1,
            b'>' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

/// Always double-quoted. The result reads back, through [`crate::Id::unescaped`], as `s`:
/// `"` becomes `\"`, a newline `\n`, and a backslash `\\` unless it starts a sequence that
/// the dialect keeps verbatim (such as Graphviz's `\l` or `\N`).
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\\' => {
                let kept_verbatim = chars
                    .peek()
                    .is_some_and(|&n| n.is_ascii_graphic() && !matches!(n, 'n' | 't' | '\\' | '"'));
                out.push_str(if kept_verbatim { "\\" } else { "\\\\" });
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes `value` as a DOT identifier: unchanged when Graphviz accepts it bare (an
/// identifier or numeral that is not a keyword), otherwise double-quoted so that
/// [`crate::Id::unescaped`] reads it back as `value`: `"` is escaped as `\"`, a newline
/// as `\n`, and a backslash as `\\` unless it starts an escape the dialect keeps verbatim
/// (`\l`, `\N`, ...: a lone backslash before any other visible character). An empty value
/// is written `""`.
pub fn quote_if_needed(value: &str) -> String {
    if is_plain(value) {
        value.to_owned()
    } else {
        quote(value)
    }
}

/// Writes `value` in the style of an id of kind `old` when possible: quoted stays quoted,
/// HTML stays HTML when the value is balanced, everything else is bare when Graphviz
/// accepts it bare.
pub(crate) fn write_like(old: IdKind, value: &str) -> String {
    match old {
        IdKind::Quoted => quote(value),
        IdKind::Html if is_html_body(value) => format!("<{value}>"),
        _ => quote_if_needed(value),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn bare_or_quoted() {
        assert_eq!(quote_if_needed("box"), "box");
        assert_eq!(quote_if_needed("-.5"), "-.5");
        assert_eq!(quote_if_needed("1."), "1.");
        assert_eq!(quote_if_needed("été"), "été");
        assert_eq!(quote_if_needed("Node"), "\"Node\"");
        assert_eq!(quote_if_needed("gpt-5.2"), "\"gpt-5.2\"");
        assert_eq!(quote_if_needed(""), "\"\"");
        assert_eq!(quote_if_needed("."), "\".\"");
        assert_eq!(quote_if_needed("a\"b"), r#""a\"b""#);
        assert_eq!(quote_if_needed("x\\"), r#""x\\""#);
        assert_eq!(quote_if_needed("a\\lb"), r#""a\lb""#);
        assert_eq!(quote_if_needed("a\\nb"), r#""a\\nb""#);
        assert_eq!(quote_if_needed("a\nb"), r#""a\nb""#);
    }

    #[test]
    fn html_style_kept_when_balanced() {
        assert_eq!(write_like(IdKind::Html, "<b>x</b>"), "<<b>x</b>>");
        assert_eq!(write_like(IdKind::Html, "a > b"), "\"a > b\"");
        assert_eq!(write_like(IdKind::Quoted, "x"), "\"x\"");
        assert_eq!(write_like(IdKind::Bare, "x"), "x");
    }
}
