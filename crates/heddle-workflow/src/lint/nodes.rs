//! What each kind of node needs, and node ids the engine can use.

use super::{LintContext, RuleInfo};
use crate::access::Attrs;
use crate::{Diagnostic, HandlerKind, Node, Severity};

const PROMPT_ON_LLM_NODES: RuleInfo = RuleInfo {
    id: "prompt_on_llm_nodes",
    severity: Severity::Warning,
    summary: "Agent and prompt nodes have a `prompt` or a `label` to act on.",
};

const THREAD_ID_REQUIRES_FULL_FIDELITY: RuleInfo = RuleInfo {
    id: "thread_id_requires_full_fidelity",
    severity: Severity::Warning,
    summary: "`thread_id` is only set where the fidelity is `full` (other modes start fresh).",
};

const COMMAND_HAS_SCRIPT: RuleInfo = RuleInfo {
    id: "command_has_script",
    severity: Severity::Error,
    summary: "A command node has a `script` (or `tool_command`).",
};

const WAIT_HAS_DURATION: RuleInfo = RuleInfo {
    id: "wait_has_duration",
    severity: Severity::Error,
    summary: "A wait node has a `duration`.",
};

const MANAGER_HAS_CHILD: RuleInfo = RuleInfo {
    id: "manager_has_child",
    severity: Severity::Error,
    summary: "A manager loop names its child workflow (`stack.child_workflow`, or the graph's `stack.child_dotfile`).",
};

const NODE_ID_VALID: RuleInfo = RuleInfo {
    id: "node_id_valid",
    severity: Severity::Warning,
    summary: "Node ids are `[A-Za-z_][A-Za-z0-9_]*` (they become file names and context keys).",
};

pub(super) const RULES: &[RuleInfo] = &[
    PROMPT_ON_LLM_NODES,
    THREAD_ID_REQUIRES_FULL_FIDELITY,
    COMMAND_HAS_SCRIPT,
    WAIT_HAS_DURATION,
    MANAGER_HAS_CHILD,
    NODE_ID_VALID,
];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let graph_fidelity = ctx.workflow.attr_str("default_fidelity").map(str::trim);
    for (index, node) in ctx.workflow.nodes.iter().enumerate() {
        let declared = ctx.built.declared.get(index).copied().unwrap_or(true);
        requirements(node, declared, ctx.node_span(&node.id), out);
        if node.kind == HandlerKind::ManagerLoop
            && crate::manager_child(ctx.workflow, node).is_none()
        {
            out.push(
                MANAGER_HAS_CHILD
                    .diag(format!(
                        "manager loop `{}` has no child workflow to supervise",
                        node.id
                    ))
                    .at(ctx.node_span(&node.id))
                    .for_node(node.id.clone())
                    .with_hint("add `stack.child_workflow=\"child.dot\"` (or a graph-level `stack.child_dotfile`)"),
            );
        }
        if !valid_id(&node.id) {
            out.push(
                NODE_ID_VALID
                    .diag(format!(
                        "node id `{}` is not a plain identifier; it is used in file names and context keys",
                        node.id
                    ))
                    .at(ctx.node_span(&node.id))
                    .for_node(node.id.clone())
                    .with_hint("use letters, digits and `_`, not starting with a digit, and put the text in `label`"),
            );
        }
        if let Some(thread) = node.attr("thread_id") {
            let fidelity = node.attr_str("fidelity").map(str::trim).or(graph_fidelity);
            let full_edge_in = ctx.adjacency.incoming(index).iter().any(|&e| {
                ctx.workflow.edges[e].attr_str("fidelity").map(str::trim) == Some("full")
            });
            if fidelity != Some("full") && !full_edge_in {
                out.push(
                    thread_warning(&format!("node `{}`", node.id), fidelity, thread.span)
                        .for_node(node.id.clone()),
                );
            }
        }
    }
    for edge in &ctx.workflow.edges {
        let Some(thread) = edge.attr("thread_id") else {
            continue;
        };
        let target = ctx.adjacency.node(&edge.to).map(|t| &ctx.workflow.nodes[t]);
        let fidelity = edge
            .attr_str("fidelity")
            .or_else(|| target.and_then(|t| t.attr_str("fidelity")))
            .map(str::trim)
            .or(graph_fidelity);
        if fidelity != Some("full") {
            let what = format!("edge `{} -> {}`", edge.from, edge.to);
            out.push(thread_warning(&what, fidelity, thread.span).for_edge(edge.key()));
        }
    }
}

fn thread_warning(what: &str, fidelity: Option<&str>, span: heddle_dot::Span) -> Diagnostic {
    THREAD_ID_REQUIRES_FULL_FIDELITY
        .diag(format!(
            "{what} sets `thread_id` but its fidelity is `{}`, so the thread is not continued",
            fidelity.unwrap_or("compact")
        ))
        .at(span)
        .with_hint("add `fidelity=\"full\"` (or remove `thread_id`)")
}

/// `declared`: whether a node statement declares it (else `edge_target_exists` reports it).
fn requirements(node: &Node, declared: bool, span: heddle_dot::Span, out: &mut Vec<Diagnostic>) {
    let missing = |rule: RuleInfo, message: String, hint: &str| {
        rule.diag(message)
            .at(span)
            .for_node(node.id.clone())
            .with_hint(hint)
    };
    match node.kind {
        kind if kind.uses_llm()
            && declared
            && node.attr("prompt").is_none()
            && node.attr("label").is_none() =>
        {
            out.push(missing(
                PROMPT_ON_LLM_NODES,
                format!(
                    "{} node `{}` has no `prompt` or `label`; the model only gets its id",
                    kind.type_name(),
                    node.id
                ),
                "add `prompt=\"...\"` (or `prompt=\"@prompts/file.md\"`)",
            ));
        }
        HandlerKind::Command if node.attr("script").is_none() => out.push(missing(
            COMMAND_HAS_SCRIPT,
            format!("command node `{}` has no `script` to run", node.id),
            "add `script=\"make test\"`",
        )),
        HandlerKind::Wait if node.attr("duration").is_none() => out.push(missing(
            WAIT_HAS_DURATION,
            format!("wait node `{}` has no `duration`", node.id),
            "add `duration=\"30s\"`",
        )),
        _ => {}
    }
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
