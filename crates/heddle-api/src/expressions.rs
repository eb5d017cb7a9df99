//! Checking the small languages inside attribute values (edge conditions, the model
//! stylesheet) while a person types them, with positions an editor can mark.

use heddle_workflow::{Condition, Stylesheet};

use crate::editor_types::{CheckExpressionRequest, ExpressionKind, ExpressionProblem};

/// Every problem in `req.text` (none when it parses). An empty condition is fine (the edge
/// is unconditional); an empty stylesheet too.
pub fn check_expression(req: &CheckExpressionRequest) -> Vec<ExpressionProblem> {
    let text = req.text.as_str();
    match req.kind {
        ExpressionKind::Condition => {
            if text.trim().is_empty() {
                return Vec::new();
            }
            match Condition::parse(text) {
                Ok(_) => Vec::new(),
                Err(e) => vec![problem(text, e.to_string(), e.offset, e.len)],
            }
        }
        ExpressionKind::Stylesheet => {
            let (_, errors) = Stylesheet::parse_recovering(text);
            errors
                .into_iter()
                .map(|e| problem(text, e.to_string(), e.offset, e.len))
                .collect()
        }
    }
}

fn problem(text: &str, message: String, offset: usize, len: usize) -> ExpressionProblem {
    let start = floor_boundary(text, offset);
    let end = floor_boundary(text, offset.saturating_add(len)).max(start);
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    ExpressionProblem {
        message,
        start: utf16_len(before),
        end: utf16_len(&text[..end]),
        line,
        column: text[line_start..start].chars().count() + 1,
    }
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn check(kind: ExpressionKind, text: &str) -> Vec<ExpressionProblem> {
        check_expression(&CheckExpressionRequest {
            kind,
            text: text.to_owned(),
        })
    }

    #[test]
    fn a_valid_condition_and_an_empty_one_have_no_problems() {
        assert!(
            check(
                ExpressionKind::Condition,
                "outcome=success && context.tries < 3"
            )
            .is_empty()
        );
        assert!(check(ExpressionKind::Condition, "  ").is_empty());
    }

    #[test]
    fn a_broken_condition_is_marked_where_it_breaks() {
        let problems = check(ExpressionKind::Condition, "outcome=success &&");
        assert_eq!(problems.len(), 1, "{problems:?}");
        let p = &problems[0];
        assert_eq!((p.line, p.start), (1, p.column - 1));
        assert!(p.start >= "outcome=success ".len(), "{p:?}");
        assert!(!p.message.is_empty());
    }

    #[test]
    fn positions_count_utf16_units_and_characters() {
        // "é" is 2 bytes, 1 UTF-16 unit, 1 character; "😀" is 4 bytes, 2 units, 1 character.
        let problems = check(ExpressionKind::Condition, "context.é😀 == ");
        assert_eq!(problems.len(), 1, "{problems:?}");
        let p = &problems[0];
        let text = "context.é😀 == ";
        assert!(p.end <= text.encode_utf16().count(), "{p:?}");
        assert!(p.column <= text.chars().count() + 1, "{p:?}");
    }

    #[test]
    fn a_stylesheet_reports_every_broken_rule_with_its_line() {
        let sheet =
            "* { model: claude-sonnet-4-5; }\n.fast { model: }\n#plan { reasoning_effort high; }\n";
        let problems = check(ExpressionKind::Stylesheet, sheet);
        assert!(problems.len() >= 2, "{problems:?}");
        assert_eq!(problems[0].line, 2, "{problems:?}");
        assert_eq!(problems.last().unwrap().line, 3, "{problems:?}");
        assert!(check(ExpressionKind::Stylesheet, "* { model: gpt-5; }").is_empty());
    }
}
