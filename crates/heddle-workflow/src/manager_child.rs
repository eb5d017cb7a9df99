//! Where a manager loop's child workflow comes from and where it runs. Fabro and the
//! Attractor spec spell this three ways, and the engine, the linter and the trust summary all
//! read it through here so they agree:
//! - the node's `stack.child_dot_source`: the child's DOT text inline (Fabro);
//! - the node's `stack.child_workflow` (alias `stack.child_dotfile`): a file;
//! - the graph's `stack.child_dotfile` (alias `stack.child_workflow`): a file for every manager
//!   loop of the graph that names none (the Attractor spec).
//!
//! `stack.child_workdir` (node, else graph) is the folder the child runs in.

use crate::{Attrs, Node, Workflow};

/// A manager loop's child workflow, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildSource<'a> {
    /// A workflow file, as referenced (trimmed, a leading `@` removed), resolved against the
    /// parent workflow's folder like every other reference.
    File {
        /// The path as written, trimmed and without `@`; relative to the parent's folder.
        reference: &'a str,
        /// The attribute it came from, for messages: `stack.child_workflow` on the node, or
        /// `graph stack.child_dotfile`.
        from: &'static str,
    },
    /// DOT text written in the node itself.
    Inline(&'a str),
}

/// The child `node` supervises: its own inline source or file first, then the graph's file.
pub fn manager_child<'a>(workflow: &'a Workflow, node: &'a Node) -> Option<ChildSource<'a>> {
    if let Some(source) = node.attr_str("stack.child_dot_source") {
        return Some(ChildSource::Inline(source));
    }
    let file = |text: &'a str, from: &'static str| {
        let reference = text.trim().trim_start_matches('@').trim();
        (!reference.is_empty()).then_some(ChildSource::File { reference, from })
    };
    node.attr_str("stack.child_workflow")
        .and_then(|text| file(text, "stack.child_workflow"))
        .or_else(|| {
            workflow
                .attr_str("stack.child_workflow")
                .and_then(|text| file(text, "graph stack.child_dotfile"))
        })
}

/// The folder `node`'s child runs in, as written (the node's `stack.child_workdir`, else the
/// graph's); relative to the parent run's work dir. `None`: the parent's work dir.
pub fn manager_child_workdir<'a>(workflow: &'a Workflow, node: &'a Node) -> Option<&'a str> {
    node.attr_str("stack.child_workdir")
        .or_else(|| workflow.attr_str("stack.child_workdir"))
        .map(str::trim)
        .filter(|dir| !dir.is_empty())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::{MemoryFiles, load_source};

    fn load(source: &str) -> Workflow {
        load_source(source, Path::new("/w/flow.dot"), &MemoryFiles::new())
            .workflow
            .unwrap()
    }

    #[test]
    fn the_node_wins_over_the_graph_and_inline_over_a_file() {
        let flow = load(
            r#"digraph G {
                graph [stack.child_dotfile="children/all.dot", stack.child_workdir="work"];
                own [shape=house, stack.child_workflow="@ mine.fabro"];
                legacy [shape=house, stack.child_dotfile="old.dot", stack.child_workdir="w2"];
                inline [shape=house, stack.child_dot_source="digraph C { start -> exit }", stack.child_workflow="x.dot"];
                plain [shape=house];
            }"#,
        );
        let child = |id: &str| manager_child(&flow, flow.node(id).unwrap());
        assert_eq!(
            child("own"),
            Some(ChildSource::File {
                reference: "mine.fabro",
                from: "stack.child_workflow"
            })
        );
        assert_eq!(
            child("legacy"),
            Some(ChildSource::File {
                reference: "old.dot",
                from: "stack.child_workflow"
            })
        );
        assert_eq!(
            child("inline"),
            Some(ChildSource::Inline("digraph C { start -> exit }"))
        );
        assert_eq!(
            child("plain"),
            Some(ChildSource::File {
                reference: "children/all.dot",
                from: "graph stack.child_dotfile"
            })
        );
        let workdir = |id: &str| manager_child_workdir(&flow, flow.node(id).unwrap());
        assert_eq!(workdir("legacy"), Some("w2"));
        assert_eq!(workdir("plain"), Some("work"));
    }

    #[test]
    fn nothing_named_is_no_child() {
        let flow = load(r#"digraph G { m [shape=house, stack.child_workflow="  "] }"#);
        assert_eq!(manager_child(&flow, flow.node("m").unwrap()), None);
        assert_eq!(manager_child_workdir(&flow, flow.node("m").unwrap()), None);
    }
}
