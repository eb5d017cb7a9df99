//! The condition language of edges (`condition="outcome=success && tests_passed"`).
//!
//! Grammar (lowest precedence first):
//!
//! ```text
//! expr    := and ( "||" and )*
//! and     := unary ( "&&" unary )*
//! unary   := "!" unary | "(" expr ")" | clause
//! clause  := key [ op value ]
//! op      := "=" | "==" | "!=" | "<" | ">" | "<=" | ">=" | "contains" | "matches"
//! value   := word | number | "double quoted" | 'single quoted'
//! ```
//!
//! A condition is parsed once into a [`Condition`] (regular expressions compiled then) and
//! evaluated against a [`ConditionContext`] as often as needed.

mod error;
mod eval;
mod lexer;
mod parser;

pub use error::{ConditionError, ConditionErrorKind};
pub use eval::ConditionContext;

use std::sync::Arc;

use regex::Regex;

/// How deep parentheses and `!` may nest.
pub const MAX_DEPTH: usize = 64;

/// A parsed condition. Cheap to clone (the tree is shared).
#[derive(Debug, Clone)]
pub struct Condition {
    inner: Arc<Parsed>,
}

#[derive(Debug)]
struct Parsed {
    source: String,
    expr: Expr,
}

impl PartialEq for Condition {
    fn eq(&self, other: &Self) -> bool {
        self.inner.source == other.inner.source
    }
}

/// A condition's expression tree.
#[derive(Debug, Clone)]
pub enum Expr {
    /// Holds when any operand holds.
    Or(Vec<Expr>),
    /// Holds when every operand holds.
    And(Vec<Expr>),
    /// Holds when the operand does not.
    Not(Box<Expr>),
    /// One test of one key.
    Clause(Clause),
}

/// `key`, or `key OP value`.
#[derive(Debug, Clone)]
pub struct Clause {
    /// The key as written (`outcome`, `context.tests`, `tests`).
    pub key: String,
    /// Byte range of the key in the condition text.
    pub key_span: (usize, usize),
    /// The comparison; `None` for a bare key (a truthiness test).
    pub test: Option<Comparison>,
}

/// The `OP value` part of a clause.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// `=`, `!=`, `<`, `>`, `<=`, `>=`, `contains` or `matches`.
    pub op: Op,
    /// The value, quotes removed.
    pub value: String,
    /// Whether the value was quoted.
    pub quoted: bool,
    /// Byte range of the value in the condition text (quotes included).
    pub value_span: (usize, usize),
    number: Option<f64>,
    outcome: Option<&'static str>,
    regex: Option<Regex>,
}

impl Comparison {
    /// The value as a number, when it is one.
    pub fn number(&self) -> Option<f64> {
        self.number
    }

    /// The canonical outcome name, when the key is `outcome` and the value names one.
    pub fn outcome(&self) -> Option<&'static str> {
        self.outcome
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=` or `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `>`.
    Gt,
    /// `<=`.
    Le,
    /// `>=`.
    Ge,
    /// `contains`: substring, or element of a list.
    Contains,
    /// `matches`: regular expression search.
    Matches,
}

impl Op {
    /// How the operator is written.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Ge => ">=",
            Op::Contains => "contains",
            Op::Matches => "matches",
        }
    }
}

impl Condition {
    /// Parses condition text. Never panics; every failure is a [`ConditionError`] with its
    /// position.
    pub fn parse(source: &str) -> Result<Condition, ConditionError> {
        let expr = parser::parse(source)?;
        Ok(Condition {
            inner: Arc::new(Parsed {
                source: source.to_owned(),
                expr,
            }),
        })
    }

    /// The text it was parsed from.
    pub fn source(&self) -> &str {
        &self.inner.source
    }

    /// The expression tree.
    pub fn expr(&self) -> &Expr {
        &self.inner.expr
    }

    /// Every clause, left to right.
    pub fn clauses(&self) -> Vec<&Clause> {
        let mut out = Vec::new();
        let mut stack = vec![&self.inner.expr];
        while let Some(expr) = stack.pop() {
            match expr {
                Expr::Or(items) | Expr::And(items) => stack.extend(items.iter().rev()),
                Expr::Not(inner) => stack.push(inner),
                Expr::Clause(clause) => out.push(clause),
            }
        }
        out
    }

    /// Evaluates the condition against `context`.
    pub fn evaluate(&self, context: &dyn ConditionContext) -> bool {
        eval::evaluate(&self.inner.expr, context)
    }
}

/// Whether a key names the stage outcome (`outcome` or `context.outcome`).
pub(crate) fn is_outcome_key(key: &str) -> bool {
    key == "outcome" || key == "context.outcome"
}

/// Whether `key` reads the failure class (compared by [`crate::failure_class_matches`]).
pub(crate) fn is_failure_class_key(key: &str) -> bool {
    key == "failure_class" || key == "context.failure_class"
}
