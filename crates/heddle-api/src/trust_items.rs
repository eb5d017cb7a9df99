//! What an untrusted workflow will do, worded once for every door: the CLI prints these
//! items before asking y/N, and the Start-run dialog lists them beside its checkbox.

use heddle_workflow::WorkflowEffects;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Lines of a script shown before the rest is elided.
pub const SCRIPT_LINES: usize = 6;

/// What sort of thing an item is (the dialog gives each its own mark).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TrustItemKind {
    /// A command node's script.
    Command,
    /// An agent with the built-in shell tool.
    Shell,
    /// An external agent command (`backend="cli"` or `"acp"`).
    External,
    /// A file read from outside the workflow's folder.
    Outside,
    /// A manager loop's child workflow.
    Child,
}

/// One thing running the workflow will do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TrustItem {
    /// What sort of thing it is.
    pub kind: TrustItemKind,
    /// What it does, in a sentence.
    pub title: String,
    /// The script (its first lines), command line or path to show in full, if any.
    pub detail: Option<String>,
}

/// The first [`SCRIPT_LINES`] lines of `script`, and how many more there are.
pub fn script_preview(script: &str) -> String {
    let lines: Vec<&str> = script.split('\n').collect();
    if lines.len() <= SCRIPT_LINES {
        return script.to_string();
    }
    let more = lines.len() - SCRIPT_LINES;
    format!(
        "{}\n… ({more} more line{})",
        lines[..SCRIPT_LINES].join("\n"),
        if more == 1 { "" } else { "s" }
    )
}

/// `effects` as items, in the order they are listed: commands, shell agents, external
/// agents, outside files, child workflows. `main` is the analysed workflow (items from a
/// child say which file they are in), `folder` its folder, `work_dir` where the run works.
pub fn trust_items(
    effects: &WorkflowEffects,
    main: &str,
    folder: &str,
    work_dir: &str,
) -> Vec<TrustItem> {
    let from = |workflow: &str| {
        if workflow == main {
            String::new()
        } else {
            format!(" (in {workflow})")
        }
    };
    let item = |kind, title: String, detail: Option<String>| TrustItem {
        kind,
        title,
        detail,
    };
    let mut items = Vec::new();
    for c in &effects.commands {
        items.push(item(
            TrustItemKind::Command,
            format!(
                "Runs the {} script of “{}”{}",
                c.language,
                c.node_id,
                from(&c.workflow)
            ),
            Some(script_preview(&c.script)),
        ));
    }
    for a in &effects.shell_agents {
        items.push(item(
            TrustItemKind::Shell,
            format!(
                "Gives agent “{}”{} a shell in {work_dir}",
                a.node_id,
                from(&a.workflow)
            ),
            None,
        ));
    }
    for a in &effects.external_agents {
        items.push(item(
            TrustItemKind::External,
            format!(
                "Starts the external agent ({}) of “{}”{}",
                a.backend,
                a.node_id,
                from(&a.workflow)
            ),
            Some(if a.command.trim().is_empty() && a.backend == "cli" {
                // Without `cli.command` the model's family picks the CLI (heddle-llm).
                "claude, codex or gemini (the CLI of the node's model family)".to_string()
            } else {
                a.command.clone()
            }),
        ));
    }
    for f in &effects.outside_files {
        items.push(item(
            TrustItemKind::Outside,
            format!(
                "Reads a file outside {folder} for “{}” {}{}{}",
                f.node_id,
                f.attribute,
                from(&f.workflow),
                if f.through_symlink {
                    ", through a symlink"
                } else {
                    ""
                }
            ),
            Some(f.resolved.clone()),
        ));
    }
    for c in &effects.child_workflows {
        items.push(item(
            TrustItemKind::Child,
            format!(
                "Runs the child workflow of “{}”{}{}",
                c.node_id,
                from(&c.workflow),
                c.problem
                    .as_deref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default()
            ),
            Some(c.path.clone()),
        ));
    }
    items
}

#[cfg(test)]
mod tests {
    use heddle_workflow::{
        ChildWorkflow, CommandEffect, ExternalAgent, NodeEffect, OutsideFile, WorkflowEffects,
    };

    use super::*;

    #[test]
    fn every_kind_is_listed_naming_the_child_file_an_item_comes_from() {
        let main = "/repo/flows/main.dot";
        let effects = WorkflowEffects {
            commands: vec![CommandEffect {
                node_id: "build".into(),
                workflow: main.into(),
                language: "shell".into(),
                script: "make".into(),
            }],
            shell_agents: vec![NodeEffect {
                node_id: "fix".into(),
                workflow: "/repo/flows/child.dot".into(),
            }],
            external_agents: vec![ExternalAgent {
                node_id: "ask".into(),
                workflow: main.into(),
                backend: "cli".into(),
                command: "claude -p".into(),
            }],
            outside_files: vec![OutsideFile {
                node_id: "plan".into(),
                workflow: main.into(),
                attribute: "prompt".into(),
                reference: "../../home/.aws/credentials".into(),
                resolved: "/home/.aws/credentials".into(),
                through_symlink: true,
            }],
            child_workflows: vec![ChildWorkflow {
                node_id: "boss".into(),
                workflow: main.into(),
                path: "/repo/flows/child.dot".into(),
                problem: Some("cannot read it".into()),
            }],
            read_files: Vec::new(),
        };
        let items = trust_items(&effects, main, "/repo/flows", "/repo");
        let kinds: Vec<TrustItemKind> = items.iter().map(|i| i.kind).collect();
        assert_eq!(
            kinds,
            [
                TrustItemKind::Command,
                TrustItemKind::Shell,
                TrustItemKind::External,
                TrustItemKind::Outside,
                TrustItemKind::Child
            ]
        );
        assert_eq!(items[0].title, "Runs the shell script of “build”");
        assert_eq!(items[0].detail.as_deref(), Some("make"));
        assert_eq!(
            items[1].title,
            "Gives agent “fix” (in /repo/flows/child.dot) a shell in /repo"
        );
        assert_eq!(items[2].detail.as_deref(), Some("claude -p"));
        let no_command = ExternalAgent {
            node_id: "auto".into(),
            workflow: main.into(),
            backend: "cli".into(),
            command: String::new(),
        };
        let effects_without = WorkflowEffects {
            external_agents: vec![no_command],
            ..WorkflowEffects::default()
        };
        let listed = trust_items(&effects_without, main, "/repo/flows", "/repo");
        assert!(
            listed[0]
                .detail
                .as_deref()
                .unwrap_or_default()
                .contains("claude, codex or gemini"),
            "{listed:?}"
        );
        assert_eq!(
            items[3].title,
            "Reads a file outside /repo/flows for “plan” prompt, through a symlink"
        );
        assert_eq!(items[3].detail.as_deref(), Some("/home/.aws/credentials"));
        assert_eq!(
            items[4].title,
            "Runs the child workflow of “boss” (cannot read it)"
        );
    }

    #[test]
    fn a_long_script_shows_its_first_lines_and_counts_the_rest() {
        let script: Vec<String> = (0..9).map(|i| format!("step {i}")).collect();
        assert_eq!(
            script_preview(&script.join("\n")),
            "step 0\nstep 1\nstep 2\nstep 3\nstep 4\nstep 5\n… (3 more lines)"
        );
        assert_eq!(script_preview("make\nmake test"), "make\nmake test");
        let seven: Vec<String> = (0..7).map(|i| i.to_string()).collect();
        assert!(script_preview(&seven.join("\n")).ends_with("… (1 more line)"));
    }
}
