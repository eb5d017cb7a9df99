//! Validation rules. Each rule has an id, a severity and a documented check (see
//! `docs/lint-rules.md`); each finding is a [`Diagnostic`] with a span, the node or edge
//! concerned, a message and, where one helps, a hint.
//!
//! Rules that judge the graph as a whole (start and exit nodes, reachability, targets, ...)
//! are skipped when the file has syntax errors: a partial graph would give false alarms.

mod attributes;
mod conditions;
mod files;
mod graph_kind;
mod nodes;
mod reach;
mod routing;
mod structure;
mod stylesheet;
mod targets;
mod templates;

use std::path::Path;

use heddle_dot::{Graph, Span};

use crate::adjacency::Adjacency;
use crate::build::{Built, Occurrence, Owner};
use crate::files::FileSource;
use crate::locate::LineIndex;
use crate::{Diagnostic, Severity, Workflow};

/// A rule's id, severity and one-line summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInfo {
    /// The id diagnostics carry (`start_node`).
    pub id: &'static str,
    /// Its usual severity.
    pub severity: Severity,
    /// What it checks.
    pub summary: &'static str,
}

impl RuleInfo {
    /// A diagnostic of this rule.
    pub(crate) fn diag(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.id, self.severity, message)
    }
}

/// Parse errors.
pub const SYNTAX: RuleInfo = RuleInfo {
    id: "syntax",
    severity: Severity::Error,
    summary: "The file is not valid DOT.",
};

/// Files that are not UTF-8 text.
pub const NOT_TEXT: RuleInfo = RuleInfo {
    id: "not_text",
    severity: Severity::Error,
    summary: "The file is UTF-8 text without NUL bytes.",
};

/// Every rule, in the order `docs/lint-rules.md` lists them.
pub fn rules() -> Vec<RuleInfo> {
    let mut all = vec![SYNTAX, NOT_TEXT];
    all.extend_from_slice(graph_kind::RULES);
    all.extend_from_slice(structure::RULES);
    all.extend_from_slice(reach::RULES);
    all.extend_from_slice(routing::RULES);
    all.extend_from_slice(targets::RULES);
    all.extend_from_slice(conditions::RULES);
    all.extend_from_slice(stylesheet::RULES);
    all.extend_from_slice(attributes::RULES);
    all.extend_from_slice(nodes::RULES);
    all.extend_from_slice(files::RULES);
    all.extend_from_slice(templates::RULES);
    all
}

/// What the rules look at.
pub(crate) struct LintContext<'a, 'g> {
    pub graph: &'g Graph,
    /// Graphs after the first in the same file.
    pub extra_graphs: &'g [Graph],
    pub built: &'a Built<'g>,
    pub workflow: &'a Workflow,
    pub adjacency: Adjacency<'a>,
    pub source: &'a str,
    pub lines: &'a LineIndex,
    pub path: &'a Path,
    pub files: &'a dyn FileSource,
    /// What is known about the run's inputs.
    pub inputs: &'a crate::template::Inputs,
    /// Per node: reachable from the (first) start node; `None` without a start.
    pub reachable: Option<Vec<bool>>,
}

impl LintContext<'_, '_> {
    /// A span for bytes `start..end` of the source.
    pub fn span(&self, start: usize, end: usize) -> Span {
        self.lines.span(self.source, start, end)
    }

    /// Where to report problems of the graph as a whole: its name, else its first line.
    pub fn graph_span(&self) -> Span {
        match &self.graph.id {
            Some(id) => id.span,
            None => {
                let start = self.graph.span.start;
                let rest = self.source.get(start..).unwrap_or_default();
                let len = rest.find(['{', '\n']).unwrap_or(rest.len());
                let len = rest[..len].trim_end().len().max(1);
                self.span(start, start + len)
            }
        }
    }

    /// The id of node `id` where it is first declared (else first used).
    pub fn node_span(&self, id: &str) -> Span {
        self.adjacency
            .node(id)
            .and_then(|i| self.built.id_spans.get(i).copied())
            .unwrap_or_default()
    }

    /// Fills in `node`/`edge` of a diagnostic about an occurrence.
    pub fn owned(&self, diagnostic: Diagnostic, occurrence: &Occurrence<'_>) -> Diagnostic {
        match occurrence.owner {
            Owner::Node(index) => match self.workflow.nodes.get(index) {
                Some(node) => diagnostic.for_node(node.id.clone()),
                None => diagnostic,
            },
            Owner::Edge(Some(index)) => match self.workflow.edges.get(index) {
                Some(edge) => diagnostic.for_edge(edge.key()),
                None => diagnostic,
            },
            _ => diagnostic,
        }
    }
}

/// The file being validated and how to reach the files it refers to.
pub(crate) struct Input<'a> {
    /// The workflow's text.
    pub source: &'a str,
    /// Its line starts.
    pub lines: &'a LineIndex,
    /// Its path (`@file` references are relative to it).
    pub path: &'a Path,
    /// Reads the files `@file` references and child workflows name.
    pub files: &'a dyn FileSource,
    /// What is known about the run's inputs.
    pub inputs: &'a crate::template::Inputs,
}

/// Runs every rule on the first graph (`graphs[0]`). `structural` is false when the file
/// has syntax errors.
pub(crate) fn run(
    graphs: &[Graph],
    built: &Built<'_>,
    input: &Input<'_>,
    structural: bool,
) -> Vec<Diagnostic> {
    let Some((graph, extra_graphs)) = graphs.split_first() else {
        return Vec::new();
    };
    let mut ctx = LintContext {
        graph,
        extra_graphs,
        built,
        workflow: &built.workflow,
        adjacency: Adjacency::new(&built.workflow),
        source: input.source,
        lines: input.lines,
        path: input.path,
        files: input.files,
        inputs: input.inputs,
        reachable: None,
    };
    ctx.reachable = reach::from_start(&ctx);
    let ctx = &ctx;
    // The rules only read the model, so they run as two groups of about equal cost on two
    // threads; the result does not depend on the split (diagnostics are sorted later).
    std::thread::scope(|scope| {
        let per_attribute = scope.spawn(move || {
            let mut out = Vec::new();
            graph_kind::check(ctx, &mut out);
            conditions::check(ctx, &mut out);
            stylesheet::check(ctx, &mut out);
            attributes::check(ctx, &mut out);
            files::check(ctx, &mut out);
            templates::check_all(ctx, ctx.inputs, &mut out);
            out
        });
        let mut out = Vec::new();
        if structural {
            structure::check(ctx, &mut out);
            reach::check(ctx, &mut out);
            routing::check(ctx, &mut out);
            targets::check(ctx, &mut out);
            nodes::check(ctx, &mut out);
        }
        match per_attribute.join() {
            Ok(mut first) => {
                first.append(&mut out);
                first
            }
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// Sorts by position (file-level findings first), then severity and rule; drops exact
/// duplicates.
pub(crate) fn sort(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| {
        let place = |d: &Diagnostic| d.span.map(|s| (s.start, s.end));
        place(a)
            .cmp(&place(b))
            .then(a.severity.cmp(&b.severity))
            .then_with(|| a.rule.cmp(&b.rule))
    });
    diagnostics.dedup();
}
