//! What a workflow will do when it runs, for workspace trust: the command scripts it runs,
//! the agents that get a shell, the external agent commands it starts, the `@file`
//! references that reach outside its folder (also through symlinks), and the child
//! workflows its manager loops run (whose own effects are included). Pure analysis of the
//! model through a [`FileSource`]; deciding whether to trust is the caller's.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files::{FileSource, resolve_reference};
use crate::{Attrs, ChildSource, HandlerKind, Node, Value, Workflow, load_source, manager_child};

/// How deep manager loops may nest before the analysis stops following children.
const MAX_CHILD_DEPTH: usize = 8;

/// What running a workflow will do, in document order (a child workflow's items follow
/// its parent's).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WorkflowEffects {
    /// Command nodes and the scripts they run.
    pub commands: Vec<CommandEffect>,
    /// Agent nodes on the built-in agent loop, which has a shell tool in the run's work
    /// folder.
    pub shell_agents: Vec<NodeEffect>,
    /// Agent nodes that start an external agent program (`backend="cli"` or `"acp"`).
    pub external_agents: Vec<ExternalAgent>,
    /// `@file` references (and child workflows) that resolve outside the workflow's folder.
    pub outside_files: Vec<OutsideFile>,
    /// Child workflows of manager loops.
    pub child_workflows: Vec<ChildWorkflow>,
    /// Every file the run reads as instructions, resolved: `@file` references and child
    /// workflows, sorted and without duplicates (what a trust key must cover).
    pub read_files: Vec<String>,
}

impl WorkflowEffects {
    /// Whether the workflow does nothing that needs trust (no commands, shells, external
    /// agents, outside files or child workflows).
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
            && self.shell_agents.is_empty()
            && self.external_agents.is_empty()
            && self.outside_files.is_empty()
            && self.child_workflows.is_empty()
    }
}

/// A node, and the workflow file that declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NodeEffect {
    /// Id of the node in `workflow`, e.g. `implement`.
    pub node_id: String,
    /// The workflow file the node is in (the analysed one, or a child).
    pub workflow: String,
}

/// A command node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CommandEffect {
    /// Id of the node in `workflow`, e.g. `implement`.
    pub node_id: String,
    /// The workflow file the node is in.
    pub workflow: String,
    /// `shell` (the default) or `python`.
    pub language: String,
    /// The script as written (`script` or `tool_command`), empty when unset.
    pub script: String,
}

/// An agent node that runs an external program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExternalAgent {
    /// Id of the node in `workflow`, e.g. `implement`.
    pub node_id: String,
    /// The workflow file the node is in.
    pub workflow: String,
    /// The node's `backend` attribute: `cli` or `acp`.
    pub backend: String,
    /// The command line (`cli.command` / `acp.command`), empty when unset.
    pub command: String,
}

/// A file reference that reaches outside the workflow's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OutsideFile {
    /// Id of the node in `workflow`, e.g. `implement`.
    pub node_id: String,
    /// The workflow file the node is in.
    pub workflow: String,
    /// The attribute (`prompt`, `output_schema`, `stack.child_workflow`).
    pub attribute: String,
    /// The reference as written, without `@`.
    pub reference: String,
    /// Where it resolves (after symlinks when it exists).
    pub resolved: String,
    /// The path looks inside the folder but a symlink takes it out.
    pub through_symlink: bool,
}

/// A manager loop's child workflow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChildWorkflow {
    /// The manager loop's node id.
    pub node_id: String,
    /// The workflow file the manager loop is in.
    pub workflow: String,
    /// The child workflow file, resolved.
    pub path: String,
    /// Why the child's own effects are not listed (unreadable, a cycle, too deep).
    pub problem: Option<String>,
}

/// What running `workflow` (loaded from `path`) will do. References are judged against
/// `path`'s folder; child workflows are read through `files` and analysed too.
pub fn workflow_effects(
    workflow: &Workflow,
    path: &Path,
    files: &dyn FileSource,
) -> WorkflowEffects {
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut walk = Walk {
        files,
        real_folder: files.real_path(&folder),
        folder,
        effects: WorkflowEffects::default(),
        read: BTreeSet::new(),
        visited: vec![path.to_path_buf()],
    };
    walk.workflow(workflow, path, 0);
    walk.effects.read_files = walk.read.into_iter().collect();
    walk.effects
}

struct Walk<'a> {
    files: &'a dyn FileSource,
    folder: PathBuf,
    real_folder: Option<PathBuf>,
    effects: WorkflowEffects,
    read: BTreeSet<String>,
    visited: Vec<PathBuf>,
}

impl Walk<'_> {
    fn workflow(&mut self, workflow: &Workflow, path: &Path, depth: usize) {
        for node in &workflow.nodes {
            self.node(workflow, node, path, depth);
        }
    }

    fn node(&mut self, workflow: &Workflow, node: &Node, path: &Path, depth: usize) {
        let shown = path.display().to_string();
        let here = |node: &Node| NodeEffect {
            node_id: node.id.clone(),
            workflow: shown.clone(),
        };
        for entry in &node.attrs {
            if let Value::FileRef {
                path: reference, ..
            } = &entry.value
            {
                let resolved = resolve_reference(path, reference);
                self.reference(node, &shown, &entry.canonical, reference, &resolved);
            }
        }
        match node.kind {
            HandlerKind::Command => self.effects.commands.push(CommandEffect {
                node_id: node.id.clone(),
                workflow: shown.clone(),
                language: node
                    .attr_str("language")
                    .map_or("shell", str::trim)
                    .to_string(),
                script: node.attr_str("script").unwrap_or_default().to_string(),
            }),
            HandlerKind::Agent => match node.attr_str("backend").map(str::trim) {
                None | Some("") => self.effects.shell_agents.push(here(node)),
                Some(backend @ ("cli" | "acp")) => {
                    let key = format!("{backend}.command");
                    self.effects.external_agents.push(ExternalAgent {
                        node_id: node.id.clone(),
                        workflow: shown.clone(),
                        backend: backend.to_string(),
                        command: node.attr_str(&key).unwrap_or_default().to_string(),
                    });
                }
                // An unknown backend fails the stage before anything runs.
                Some(_) => {}
            },
            HandlerKind::ManagerLoop => self.child(workflow, node, path, depth),
            _ => {}
        }
    }

    /// Records a file the run reads, and lists it when it reaches outside the folder.
    fn reference(
        &mut self,
        node: &Node,
        workflow: &str,
        attribute: &str,
        reference: &str,
        resolved: &Path,
    ) {
        self.read.insert(resolved.display().to_string());
        let lexically_inside = resolved.starts_with(&self.folder);
        let real = self.files.real_path(resolved);
        let really_inside = match (&real, &self.real_folder) {
            (Some(real), Some(folder)) => real.starts_with(folder),
            _ => lexically_inside,
        };
        if lexically_inside && really_inside {
            return;
        }
        self.effects.outside_files.push(OutsideFile {
            node_id: node.id.clone(),
            workflow: workflow.to_string(),
            attribute: attribute.to_string(),
            reference: reference.to_string(),
            resolved: real.as_deref().unwrap_or(resolved).display().to_string(),
            through_symlink: lexically_inside,
        });
    }

    fn child(&mut self, workflow: &Workflow, node: &Node, path: &Path, depth: usize) {
        let shown = path.display().to_string();
        let (child_path, source) = match manager_child(workflow, node) {
            None => return,
            // Written in the node: its effects are the node's, read with the parent's folder.
            Some(ChildSource::Inline(source)) => (path.to_path_buf(), Ok(source.to_string())),
            Some(ChildSource::File { reference, .. }) => {
                let child_path = resolve_reference(path, reference);
                self.reference(node, &shown, "stack.child_workflow", reference, &child_path);
                let source = if self.visited.contains(&child_path) {
                    Err("it runs a workflow that is already listed (a cycle)".to_string())
                } else {
                    self.files
                        .read_to_string(&child_path)
                        .map_err(|error| format!("cannot read it: {error}"))
                };
                (child_path, source)
            }
        };
        let problem = if depth + 1 >= MAX_CHILD_DEPTH {
            Some(format!(
                "manager loops nest more than {MAX_CHILD_DEPTH} deep"
            ))
        } else {
            match source {
                Err(problem) => Some(problem),
                Ok(source) => match load_source(&source, &child_path, self.files).workflow {
                    None => Some("it holds no graph".to_string()),
                    Some(child) => {
                        self.effects.child_workflows.push(ChildWorkflow {
                            node_id: node.id.clone(),
                            workflow: shown,
                            path: child_path.display().to_string(),
                            problem: None,
                        });
                        self.visited.push(child_path.clone());
                        self.workflow(&child, &child_path, depth + 1);
                        return;
                    }
                },
            }
        };
        self.effects.child_workflows.push(ChildWorkflow {
            node_id: node.id.clone(),
            workflow: shown,
            path: child_path.display().to_string(),
            problem,
        });
    }
}
