#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Condition parsing: the tree it builds and the errors (with columns) it reports.

use heddle_workflow::condition::{Condition, ConditionErrorKind, Expr, Op};

fn shape(expr: &Expr) -> String {
    match expr {
        Expr::Or(items) => format!(
            "or({})",
            items.iter().map(shape).collect::<Vec<_>>().join(", ")
        ),
        Expr::And(items) => format!(
            "and({})",
            items.iter().map(shape).collect::<Vec<_>>().join(", ")
        ),
        Expr::Not(inner) => format!("not({})", shape(inner)),
        Expr::Clause(c) => match &c.test {
            None => c.key.clone(),
            Some(t) => format!("{}{}{}", c.key, t.op.as_str(), t.value),
        },
    }
}

fn tree(source: &str) -> String {
    shape(Condition::parse(source).unwrap().expr())
}

fn error(source: &str) -> (ConditionErrorKind, usize) {
    let e = Condition::parse(source).unwrap_err();
    (e.kind, e.column)
}

#[test]
fn precedence_and_grouping() {
    assert_eq!(tree("a && b || c"), "or(and(a, b), c)");
    assert_eq!(tree("a || b && c"), "or(a, and(b, c))");
    assert_eq!(tree("(a || b) && c"), "and(or(a, b), c)");
    assert_eq!(tree("!a && !(b || c)"), "and(not(a), not(or(b, c)))");
    assert_eq!(tree("a && b && c && d"), "and(a, b, c, d)");
}

#[test]
fn every_operator() {
    assert_eq!(tree("outcome=success"), "outcome=success");
    assert_eq!(tree("outcome == success"), "outcome=success");
    assert_eq!(tree("x!=1"), "x!=1");
    assert_eq!(
        tree("x<1 && x>0 && x<=2 && x>=3"),
        "and(x<1, x>0, x<=2, x>=3)"
    );
    assert_eq!(tree("log contains 'error'"), "logcontainserror");
    assert_eq!(
        tree(r#"branch matches "^feat/.*""#),
        "branchmatches^feat/.*"
    );
}

#[test]
fn keys_and_values() {
    let c = Condition::parse(r#"context.tests_passed = "yes it did" && preferred_label=Approve"#)
        .unwrap();
    let clauses = c.clauses();
    assert_eq!(clauses.len(), 2);
    assert_eq!(clauses[0].key, "context.tests_passed");
    let test = clauses[0].test.as_ref().unwrap();
    assert_eq!(test.value, "yes it did");
    assert!(test.quoted);
    assert_eq!(test.value_span, (23, 35));
    assert_eq!(clauses[1].key_span, (39, 54));
    assert_eq!(clauses[1].test.as_ref().unwrap().op, Op::Eq);
    assert_eq!(tree("model = gpt-5.2"), "model=gpt-5.2");
    assert_eq!(tree("score >= 0.75"), "score>=0.75");
    let c = Condition::parse("score >= 0.75").unwrap();
    assert_eq!(c.clauses()[0].test.as_ref().unwrap().number(), Some(0.75));
}

#[test]
fn outcome_aliases_are_recognised() {
    let c = Condition::parse("outcome=succeeded").unwrap();
    assert_eq!(
        c.clauses()[0].test.as_ref().unwrap().outcome(),
        Some("success")
    );
    let c = Condition::parse("outcome=sucess").unwrap();
    assert_eq!(c.clauses()[0].test.as_ref().unwrap().outcome(), None);
}

#[test]
fn quoted_escapes() {
    let c = Condition::parse(r#"x = "a \"b\" \\ \d""#).unwrap();
    assert_eq!(c.clauses()[0].test.as_ref().unwrap().value, r#"a "b" \ \d"#);
}

#[test]
fn errors_carry_columns() {
    assert_eq!(error(""), (ConditionErrorKind::Empty, 1));
    assert_eq!(error("   "), (ConditionErrorKind::Empty, 1));
    assert_eq!(error("a & b"), (ConditionErrorKind::SingleOperator('&'), 3));
    assert_eq!(error("a | b"), (ConditionErrorKind::SingleOperator('|'), 3));
    assert_eq!(
        error("x = \"abc"),
        (ConditionErrorKind::UnterminatedString, 5)
    );
    assert_eq!(
        error("outcome = "),
        (
            ConditionErrorKind::ExpectedValue {
                op: "=".into(),
                found: "the end of the condition".into()
            },
            11
        )
    );
    assert_eq!(
        error("a &&"),
        (
            ConditionErrorKind::ExpectedKey("the end of the condition".into()),
            5
        )
    );
    assert_eq!(
        error("(a || b"),
        (
            ConditionErrorKind::ExpectedCloseParen("the end of the condition".into()),
            8
        )
    );
    assert_eq!(
        error("a b"),
        (ConditionErrorKind::Trailing("`b`".into()), 3)
    );
    assert_eq!(error("a)"), (ConditionErrorKind::Trailing("`)`".into()), 2));
    assert_eq!(
        error("= x"),
        (ConditionErrorKind::ExpectedKey("`=`".into()), 1)
    );
    assert_eq!(
        error("9lives = 1"),
        (ConditionErrorKind::InvalidKey("9lives".into()), 1)
    );
    assert_eq!(
        error("\"quoted\" = 1"),
        (ConditionErrorKind::ExpectedKey("`\"quoted\"`".into()), 1)
    );
}

#[test]
fn columns_count_characters() {
    let e = Condition::parse("é = ü &").unwrap_err();
    assert_eq!(e.column, 7);
    assert_eq!(e.offset, 8);
}

#[test]
fn invalid_regex_is_a_parse_error() {
    let e = Condition::parse("x matches \"(unclosed\"").unwrap_err();
    assert!(matches!(e.kind, ConditionErrorKind::InvalidRegex(_)), "{e}");
    assert_eq!(e.column, 11);
    assert!(
        e.to_string()
            .starts_with("column 11: invalid regular expression"),
        "{e}"
    );
}

#[test]
fn nesting_is_bounded() {
    let deep = format!("{}a{}", "(".repeat(100), ")".repeat(100));
    assert_eq!(
        Condition::parse(&deep).unwrap_err().kind,
        ConditionErrorKind::TooDeep(64)
    );
    let nots = format!("{}a", "!".repeat(10_000));
    assert_eq!(
        Condition::parse(&nots).unwrap_err().kind,
        ConditionErrorKind::TooDeep(64)
    );
    let fine = format!("{}a{}", "(".repeat(20), ")".repeat(20));
    assert!(Condition::parse(&fine).is_ok());
}

#[test]
fn long_flat_chains_do_not_recurse() {
    let long = vec!["a=1"; 20_000].join(" || ");
    let c = Condition::parse(&long).unwrap();
    assert_eq!(c.clauses().len(), 20_000);
}
