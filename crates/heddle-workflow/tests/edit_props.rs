//! Random edit sequences on the repository's example and conformance workflows: an edit
//! never adds a validation error about anything it did not touch, never leaves the text
//! unparsable, and changes no line that does not mention what it touched (so comments and
//! untouched statements stay byte-identical). A refused edit changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use heddle_dot::EdgeKey;
use heddle_workflow::{
    HandlerKind, OsFiles, Severity, Workflow, WorkflowEdit, apply_edit, load_source,
};
use proptest::prelude::*;

fn fixtures() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["examples", "tests/conformance"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "dot"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path, text));
        }
    }
    assert!(out.len() >= 30, "found only {} fixtures", out.len());
    out
}

/// What a random step asks for; turned into an edit against the current workflow.
#[derive(Debug, Clone)]
enum Step {
    Rename(usize, u16),
    SetNodeAttr(usize, usize),
    RemoveNodeAttr(usize, usize),
    AddNode(usize),
    Connect(usize, usize),
    DeleteNode(usize),
    DeleteEdge(usize),
    SetEdgeLabel(usize, u16),
    SetGraphGoal(u16),
}

fn step() -> impl Strategy<Value = Step> {
    let n = 0usize..64;
    prop_oneof![
        (n.clone(), any::<u16>()).prop_map(|(a, b)| Step::Rename(a, b)),
        (n.clone(), n.clone()).prop_map(|(a, b)| Step::SetNodeAttr(a, b)),
        (n.clone(), n.clone()).prop_map(|(a, b)| Step::RemoveNodeAttr(a, b)),
        n.clone().prop_map(Step::AddNode),
        (n.clone(), n.clone()).prop_map(|(a, b)| Step::Connect(a, b)),
        n.clone().prop_map(Step::DeleteNode),
        n.clone().prop_map(Step::DeleteEdge),
        (n, any::<u16>()).prop_map(|(a, b)| Step::SetEdgeLabel(a, b)),
        any::<u16>().prop_map(Step::SetGraphGoal),
    ]
}

/// Values that fit their attribute, so a set adds no error of its own.
const NODE_VALUES: &[(&str, &str)] = &[
    ("label", "Renamed step"),
    ("timeout", "30s"),
    ("model", "claude-opus"),
    ("max_retries", "2"),
    ("prompt", "Do the # thing, \"carefully\""),
    ("class", "fast"),
];

const KINDS: &[HandlerKind] = &[
    HandlerKind::Agent,
    HandlerKind::Prompt,
    HandlerKind::Conditional,
    HandlerKind::Parallel,
    HandlerKind::FanIn,
    HandlerKind::Exit,
];

/// The edit a step means, and the words (ids, keys) it touches.
fn edit_of(step: &Step, wf: &Workflow) -> Option<(WorkflowEdit, Vec<String>)> {
    let node = |i: usize| {
        wf.nodes
            .get(i % wf.nodes.len().max(1))
            .map(|n| n.id.clone())
    };
    let edge = |i: usize| {
        wf.edges.get(i % wf.edges.len().max(1)).map(|e| EdgeKey {
            from: e.from.clone(),
            to: e.to.clone(),
            occurrence: e.occurrence,
        })
    };
    let neighbours = |id: &str| -> Vec<String> {
        let mut out = vec![id.to_owned()];
        for e in &wf.edges {
            if e.from == id || e.to == id {
                out.push(e.from.clone());
                out.push(e.to.clone());
            }
        }
        out
    };
    Some(match step {
        Step::Rename(i, n) => {
            let from = node(*i)?;
            let to = format!("renamed_{n}");
            (
                WorkflowEdit::RenameNode {
                    from: from.clone(),
                    to: to.clone(),
                },
                vec![from, to],
            )
        }
        Step::SetNodeAttr(i, k) => {
            let id = node(*i)?;
            let (key, value) = NODE_VALUES[k % NODE_VALUES.len()];
            let edit = WorkflowEdit::SetNodeAttr {
                node: id.clone(),
                key: key.into(),
                value: value.into(),
            };
            (edit, vec![id, key.into()])
        }
        Step::RemoveNodeAttr(i, k) => {
            let found = wf.nodes.get(i % wf.nodes.len().max(1))?;
            let attr = found.attrs.get(k % found.attrs.len().max(1))?;
            // Removing what gives a node its kind or its work makes a different node.
            if ["shape", "type", "script", "duration", "prompt", "label"]
                .contains(&attr.canonical.as_ref())
            {
                return None;
            }
            let edit = WorkflowEdit::RemoveNodeAttr {
                node: found.id.clone(),
                key: attr.key.to_string(),
            };
            (edit, vec![found.id.clone(), attr.key.to_string()])
        }
        Step::AddNode(k) => {
            let kind = KINDS[k % KINDS.len()];
            let edit = WorkflowEdit::AddNode {
                id: None,
                kind: Some(kind),
                label: None,
                attrs: Vec::new(),
                allow_another_exit: Some(true),
            };
            (edit, vec![kind.type_name().to_owned()])
        }
        Step::Connect(a, b) => {
            let (from, to) = (node(*a)?, node(*b)?);
            let edit = WorkflowEdit::AddEdge {
                from: from.clone(),
                to: to.clone(),
                attrs: Vec::new(),
            };
            (edit, vec![from, to])
        }
        Step::DeleteNode(i) => {
            let id = node(*i)?;
            let touched = neighbours(&id);
            let edit = WorkflowEdit::Delete {
                nodes: vec![id],
                edges: Vec::new(),
            };
            (edit, touched)
        }
        Step::DeleteEdge(i) => {
            let key = edge(*i)?;
            let touched = vec![key.from.clone(), key.to.clone()];
            let edit = WorkflowEdit::Delete {
                nodes: Vec::new(),
                edges: vec![key],
            };
            (edit, touched)
        }
        Step::SetEdgeLabel(i, n) => {
            let key = edge(*i)?;
            let touched = vec![key.from.clone(), key.to.clone()];
            let edit = WorkflowEdit::SetEdgeAttr {
                edge: key,
                key: "label".into(),
                value: format!("choice {n}"),
            };
            (edit, touched)
        }
        Step::SetGraphGoal(n) => (
            WorkflowEdit::SetGraphAttr {
                key: "goal".into(),
                value: format!("Goal number {n}"),
            },
            vec!["goal".into(), "graph".into()],
        ),
    })
}

/// An error diagnostic as `(rule, node, message)`.
type Found = (String, Option<String>, String);

/// The model and its error diagnostics.
fn errors(text: &str, path: &Path) -> (Option<Workflow>, Vec<Found>) {
    let loaded = load_source(text, path, &OsFiles);
    let errors = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let node = d
                .node
                .clone()
                .or_else(|| d.edge.as_ref().map(|e| e.from.clone()));
            (d.rule.clone(), node, d.message.clone())
        })
        .collect();
    (loaded.workflow, errors)
}

/// Indices of the lines of `a` not in `b`, by longest common subsequence.
fn removed_lines(a: &[&str], b: &[&str]) -> Vec<usize> {
    let mut table = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i][j] = if a[i] == b[j] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            out.push(i);
            i += 1;
        } else {
            j += 1;
        }
    }
    out.extend(i..a.len());
    out
}

/// The spans of the statements that hold no other statement, subgraphs entered.
fn leaf_spans(stmts: &[heddle_dot::Stmt], out: &mut Vec<(usize, usize)>) {
    for stmt in stmts {
        match stmt {
            heddle_dot::Stmt::Subgraph(s) => leaf_spans(&s.stmts, out),
            other => out.push((other.span().start, other.span().end)),
        }
    }
}

/// Whether line `index` of `text` is blank or part of a statement mentioning one of `words`.
fn line_is_touched(text: &str, index: usize, words: &[String]) -> bool {
    let start: usize = text.split_inclusive('\n').take(index).map(str::len).sum();
    let line = text[start..].lines().next().unwrap_or("");
    if line.trim().is_empty() || words.iter().any(|w| mentions(line, w)) {
        return true;
    }
    let end = start + line.len();
    let parsed = heddle_dot::parse(text);
    let mut spans = Vec::new();
    if let Some(graph) = parsed.document.graph() {
        leaf_spans(&graph.stmts, &mut spans);
    }
    spans
        .iter()
        .filter(|(s, e)| *s < end.max(start + 1) && *e > start)
        .any(|&(s, e)| words.iter().any(|w| mentions(&text[s..e], w)))
}

fn mentions(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !part(before) && !part(after)
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_edits_add_no_error_they_did_not_cause(
        file in 0usize..1000,
        steps in proptest::collection::vec(step(), 1..8),
    ) {
        let all = fixtures();
        let (path, original) = &all[file % all.len()];
        let mut doc = heddle_dot::parse(original).document;
        prop_assume!(doc.error_count() == 0 && doc.graph().is_some());
        for step in &steps {
            let before = doc.text();
            let (workflow, errors_before) = errors(&before, path);
            let Some(workflow) = workflow else { break };
            let Some((edit, mut touched)) = edit_of(step, &workflow) else { continue };
            if apply_edit(&mut doc, &edit).is_err() {
                prop_assert_eq!(doc.text(), before, "a refused edit changed the text");
                continue;
            }
            let after = doc.text();
            prop_assert_eq!(heddle_dot::parse(&after).errors.len(), 0, "{:?} broke the syntax", edit);
            let (edited, errors_after) = errors(&after, path);
            // A new node is touched by the edit that adds it.
            for n in edited.iter().flat_map(|w| &w.nodes) {
                if !workflow.nodes.iter().any(|o| o.id == n.id) {
                    touched.push(n.id.clone());
                }
            }
            let renamed = match &edit {
                WorkflowEdit::RenameNode { from, to } => Some((from.as_str(), to.as_str())),
                _ => None,
            };
            let known = |e: &Found| {
                errors_before.iter().any(|b| {
                    let (rule, node, message) = b;
                    let (node, message) = match renamed {
                        Some((from, to)) => (
                            node.as_ref().map(|n| if n == from { to.to_owned() } else { n.clone() }),
                            message.replace(&format!("`{from}`"), &format!("`{to}`")),
                        ),
                        None => (node.clone(), message.clone()),
                    };
                    *rule == e.0 && node == e.1 && message == e.2
                })
            };
            for error in &errors_after {
                let caused = error.1.as_ref().is_some_and(|n| touched.contains(n));
                prop_assert!(
                    known(error) || caused,
                    "{:?} on {} added {:?}\nbefore:\n{}\nafter:\n{}",
                    edit, path.display(), error, before, after
                );
            }
            let old: Vec<&str> = before.lines().collect();
            let new: Vec<&str> = after.lines().collect();
            for index in removed_lines(&old, &new) {
                let line = old[index];
                prop_assert!(
                    line_is_touched(&before, index, &touched),
                    "{:?} on {} changed an untouched line `{}`\nafter:\n{}",
                    edit, path.display(), line, after
                );
                prop_assert!(
                    !line.trim_start().starts_with("//") && !line.trim_start().starts_with("/*")
                        && !line.trim_start().starts_with('#'),
                    "{:?} removed the comment line `{}`", edit, line
                );
            }
        }
    }
}
