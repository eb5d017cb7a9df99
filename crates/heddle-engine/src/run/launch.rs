//! Preparing a run: validate the workflow, create the run directory, write the manifest and
//! graph.dot; or reopen a stopped run from its checkpoint.

use std::path::Path;

use std::collections::BTreeMap;

use heddle_workflow::template::{self, Inputs};
use heddle_workflow::{
    HandlerKind, OsFiles, Severity, Workflow, load_source_with, render_diagnostic,
};

use super::execute::PreparedRun;
use super::shared::RunShared;
use super::spec::{GraphIndex, RunSpec};
use super::state::{RunProgress, Written};
use super::{Engine, RunRequest};
use crate::checkpoint::Checkpoint;
use crate::clock::rfc3339;
use crate::emitter::Emitter;
use crate::entropy::new_ulid;
use crate::error::EngineError;
use crate::handlers::command::kill_orphaned_commands;
use crate::hooks::{NO_GIT_CHECKPOINTS, RunStart};
use crate::rundir::{Conclusion, Manifest, RunDir, RunStatus, write_json};
use crate::runlock::RunLock;
use crate::timeline_file::{self, History};

/// The request with every path made absolute, so a resume from another folder, and
/// commands given `HEDDLE_*` paths, see the same files.
fn absolute_paths(mut request: RunRequest) -> Result<RunRequest, EngineError> {
    let absolute = |path: &Path| std::path::absolute(path).map_err(|e| EngineError::io(path, &e));
    request.workflow_path = absolute(&request.workflow_path)?;
    request.runs_root = absolute(&request.runs_root)?;
    request.work_dir = absolute(&request.work_dir)?;
    if let Some(dir) = &request.run_dir {
        request.run_dir = Some(absolute(dir)?);
    }
    Ok(request)
}

/// Said when a run without checkpoints resumes after its process died.
const UNRESTORED: &str = "this run has no git checkpoints (--checkpoints none): its work tree \
     is used as it is, so a stage the crash interrupted runs again on top of whatever it had \
     already written";

/// The event recording that the work tree was put back to the last checkpoint.
fn recovered_event(recovery: crate::hooks::WorkTreeRecovery) -> crate::Event {
    crate::Event::RunRecovered {
        checkpoint: recovery.checkpoint,
        recovery_ref: recovery.recovery_ref,
        recovery_sha: recovery.recovery_sha,
        written: recovery.written,
        deleted: recovery.deleted,
        moved_aside: recovery.moved_aside,
        moved_aside_to: recovery.moved_aside_to,
    }
}

/// Child runs of manager loops inside `run_dir` (`nodes/*/child`), recursively.
fn child_runs(run_dir: &RunDir) -> Vec<RunDir> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(run_dir.nodes_dir()) else {
        return found;
    };
    for entry in entries.filter_map(Result::ok) {
        let child = RunDir::at(entry.path().join("child"));
        if child.manifest().is_file() {
            found.extend(child_runs(&child));
            found.push(child);
        }
    }
    found
}

impl Engine {
    /// Validates the workflow and creates its run directory. Nothing runs until
    /// [`PreparedRun::execute`]. A workflow with errors does not start: the error carries its
    /// diagnostics, rendered.
    pub fn prepare(&self, request: RunRequest) -> Result<PreparedRun, EngineError> {
        let request = absolute_paths(request)?;
        let path = &request.workflow_path;
        let source = match &request.source {
            Some(source) => source.clone(),
            None => std::fs::read_to_string(path).map_err(|e| EngineError::io(path, &e))?,
        };
        let workflow = self.validate(&source, path, request.goal.as_deref(), &request.inputs)?;
        let now = self.env.clock.now();
        let run_id = new_ulid(now, self.env.entropy.as_ref());
        let root = match &request.run_dir {
            Some(dir) => dir.clone(),
            None => request
                .runs_root
                .join(RunDir::folder_name(&rfc3339(now), &run_id)),
        };
        if root.join("manifest.json").exists() {
            return Err(EngineError::Io {
                path: root,
                message: "already holds a run; choose another --run-dir or resume that run".into(),
            });
        }
        if !request.work_dir.is_dir() {
            return Err(EngineError::Io {
                path: request.work_dir.clone(),
                message: "the work directory does not exist".into(),
            });
        }
        let run_dir = RunDir::create(root)?;
        let lock = RunLock::acquire(&run_dir, &run_id)?;
        let setup = match self.services.checkpoints.start(RunStart {
            run_id: &run_id,
            run_dir: &run_dir,
            workspace: &request.work_dir,
            workflow: &workflow,
            parent_run_id: request.parent_run_id.as_deref(),
        }) {
            Ok(setup) => setup,
            Err(message) => {
                drop(lock);
                // Nothing ran yet: the folder holds only what this call created.
                let _ = std::fs::remove_dir_all(run_dir.root());
                return Err(EngineError::CheckpointSetup(message));
            }
        };
        // The goal as rendered (`{{ inputs.NAME }}` in the graph's goal), or the one given.
        let goal = workflow.goal.clone();
        let manifest = Manifest {
            run_id: run_id.clone(),
            workflow_name: workflow.name.clone(),
            workflow_path: path.to_string_lossy().into_owned(),
            goal: goal.clone(),
            start_time: rfc3339(now),
            node_count: workflow.nodes.len(),
            edge_count: workflow.edges.len(),
            base_sha: setup.base_sha.clone(),
            run_branch: setup.run_branch.clone(),
            labels: request.labels.clone(),
            inputs: request.inputs.clone(),
            checkpoint_mode: setup.mode.clone(),
            work_dir: setup.work_dir.to_string_lossy().into_owned(),
            workspace: (setup.work_dir != request.work_dir)
                .then(|| request.work_dir.to_string_lossy().into_owned()),
            dry_run: request.dry_run,
            parent_run_id: request.parent_run_id.clone(),
            heddle_version: env!("CARGO_PKG_VERSION").to_string(),
        };
        write_json(&run_dir.manifest(), &manifest, true)?;
        crate::rundir::atomic_write(&run_dir.graph(), source.as_bytes(), true)?;
        // A top-level run kept elsewhere (`--run-dir`) is linked from the runs folder, so
        // every lookup, listing and index finds it like any other.
        let link_warning = match (&request.parent_run_id, request.run_dir.is_some()) {
            (None, true) => crate::runs::link_outside_run(
                &request.runs_root,
                run_dir.root(),
                &RunDir::folder_name(&manifest.start_time, &run_id),
            )
            .err(),
            _ => None,
        };
        let start = workflow
            .start_nodes()
            .next()
            .map(|n| n.id.clone())
            .ok_or(EngineError::NoStartNode)?;
        let emitter = self.emitter(&run_id, &run_dir)?;
        for message in setup.warnings.into_iter().chain(link_warning) {
            emitter.emit(None, crate::Event::Warning { message });
        }
        let spec = RunSpec {
            engine: self.clone(),
            graph: GraphIndex::new(&workflow),
            workflow,
            workflow_path: path.clone(),
            run_id,
            run_dir,
            work_dir: setup.work_dir,
            goal,
            inputs: request.inputs.clone(),
            dry_run: request.dry_run,
        };
        let shared = RunShared::new(spec, emitter, RunProgress::default(), false);
        Ok(PreparedRun::new(shared, lock, start, None))
    }

    /// Reopens a run that stopped (crashed, cancelled, failed, interrupted) to continue from
    /// its checkpoint. Commands the crashed process left running are killed first.
    pub fn resume(&self, run_dir: &RunDir) -> Result<PreparedRun, EngineError> {
        let manifest = run_dir.read_manifest()?;
        let not_resumable = |reason: &str| EngineError::NotResumable {
            run_id: manifest.run_id.clone(),
            reason: reason.to_string(),
        };
        // The lock first: everything read below must not change under us, and a second
        // resume of the same run must stop here.
        let lock = RunLock::acquire(run_dir, &manifest.run_id)?;
        let settled = self
            .services
            .checkpoints
            .settle(run_dir)
            .map_err(EngineError::CheckpointSetup)?;
        if run_dir
            .read_conclusion()
            .is_some_and(|c| c.status == RunStatus::Success)
        {
            return Err(not_resumable("it already completed successfully"));
        }
        let source = std::fs::read_to_string(run_dir.graph())
            .map_err(|e| EngineError::io(&run_dir.graph(), &e))?;
        let workflow_path = Path::new(&manifest.workflow_path).to_path_buf();
        // The manifest holds the goal as the run had it: used as written.
        let workflow = self.validate(
            &source,
            &workflow_path,
            manifest.goal.as_deref(),
            &manifest.inputs,
        )?;
        let checkpoint_path = run_dir.checkpoint();
        let checkpoint = if checkpoint_path.exists() {
            Some(Checkpoint::load(&checkpoint_path)?)
        } else {
            None
        };
        let (start, progress, context) = match &checkpoint {
            Some(checkpoint) => {
                let Some(next) = checkpoint.next_node_id.clone() else {
                    let at_exit = checkpoint
                        .current_node
                        .as_deref()
                        .and_then(|n| workflow.node(n))
                        .is_some_and(|n| n.kind == HandlerKind::Exit);
                    if at_exit && run_dir.read_conclusion().is_none() {
                        // It crashed after its last checkpoint: record the success it reached.
                        let conclusion = Conclusion {
                            run_id: manifest.run_id.clone(),
                            status: RunStatus::Success,
                            duration_ms: 0,
                            failure_reason: None,
                            final_git_commit_sha: checkpoint.git_commit_sha.clone(),
                            completed_at: checkpoint.timestamp.clone(),
                            stages: checkpoint.timeline.len(),
                            artifact_count: checkpoint.timeline.iter().map(|s| s.artifacts).sum(),
                            notes: None,
                        };
                        write_json(&run_dir.conclusion(), &conclusion, true)?;
                        let _ = std::fs::remove_file(run_dir.pid());
                        return Err(not_resumable(
                            "it had already reached its exit; its missing conclusion.json was written",
                        ));
                    }
                    return Err(not_resumable(
                        "it stopped with no node left to run (see `heddle inspect` for why)",
                    ));
                };
                if workflow.node(&next).is_none() {
                    return Err(EngineError::UnknownNode {
                        node: next,
                        context: format!("next_node_id in {}", checkpoint_path.display()),
                    });
                }
                (
                    next,
                    RunProgress::from_checkpoint(checkpoint),
                    Some(checkpoint.context_values.clone()),
                )
            }
            None => (
                workflow
                    .start_nodes()
                    .next()
                    .map(|n| n.id.clone())
                    .ok_or(EngineError::NoStartNode)?,
                RunProgress::default(),
                None,
            ),
        };
        let mut killed = kill_orphaned_commands(run_dir, &manifest.run_id);
        for child in child_runs(run_dir) {
            if let Ok(child_manifest) = child.read_manifest() {
                killed.extend(kill_orphaned_commands(&child, &child_manifest.run_id));
            }
        }
        // No conclusion: the process died, maybe in the middle of a stage.
        let interrupted = run_dir.read_conclusion().is_none();
        let reopened = self
            .services
            .checkpoints
            .reopen(run_dir, &manifest, interrupted)
            .map_err(EngineError::CheckpointSetup)?;
        let _ = std::fs::remove_file(run_dir.conclusion());
        let emitter = self.emitter(&manifest.run_id, run_dir)?;
        for note in settled.into_iter().chain(killed).chain(reopened.warnings) {
            emitter.emit(None, crate::Event::Warning { message: note });
        }
        if let Some(recovery) = reopened.recovered {
            emitter.emit(None, recovered_event(recovery));
        } else if interrupted
            && manifest.checkpoint_mode == NO_GIT_CHECKPOINTS
            && manifest.parent_run_id.is_none()
            && !manifest.dry_run
        {
            emitter.emit(
                None,
                crate::Event::Warning {
                    message: UNRESTORED.into(),
                },
            );
        }
        let mut progress = progress;
        progress.written = reopen_history(run_dir, checkpoint.as_ref())?;
        let spec = RunSpec {
            engine: self.clone(),
            graph: GraphIndex::new(&workflow),
            workflow,
            workflow_path,
            run_id: manifest.run_id.clone(),
            run_dir: run_dir.clone(),
            work_dir: manifest.work_dir.clone().into(),
            goal: manifest.goal.clone(),
            inputs: manifest.inputs.clone(),
            dry_run: manifest.dry_run,
        };
        let shared = RunShared::new(spec, emitter, progress, true);
        Ok(PreparedRun::new(shared, lock, start, context))
    }

    fn emitter(&self, run_id: &str, run_dir: &RunDir) -> Result<Emitter, EngineError> {
        Emitter::open(
            run_id,
            Some(run_dir),
            self.env.clock.clone(),
            self.env.entropy.clone(),
        )
    }

    /// Parses, validates (an input without a value is an error) and renders the templates
    /// with `goal` and `inputs`; errors (with their diagnostics rendered) keep the run from
    /// starting, and so does an LLM backend that cannot serve the workflow.
    fn validate(
        &self,
        source: &str,
        path: &Path,
        goal: Option<&str>,
        inputs: &BTreeMap<String, String>,
    ) -> Result<Workflow, EngineError> {
        let given = Inputs::Given {
            values: inputs.clone(),
            missing: Severity::Error,
        };
        let loaded = load_source_with(source, path, &OsFiles, &given);
        let shown = path.to_string_lossy();
        let errors: Vec<String> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| render_diagnostic(d, source, &shown, false))
            .collect();
        let workflow = match loaded.workflow {
            Some(workflow) if errors.is_empty() => {
                template::expand(&workflow, goal, inputs, &OsFiles).map_err(|e| {
                    EngineError::InvalidWorkflow {
                        path: path.to_path_buf(),
                        count: 1,
                        rendered: format!("error: {e}"),
                    }
                })?
            }
            _ => {
                return Err(EngineError::InvalidWorkflow {
                    path: path.to_path_buf(),
                    count: errors.len().max(1),
                    rendered: errors.join("\n"),
                });
            }
        };
        if workflow
            .nodes
            .iter()
            .any(|n| matches!(n.kind, HandlerKind::Agent | HandlerKind::Prompt))
        {
            self.services
                .llm
                .preflight(&workflow)
                .map_err(|e| EngineError::LlmSetup(e.message))?;
        }
        Ok(workflow)
    }
}

/// Makes timeline.jsonl hold exactly the history `checkpoint` covers, for the resumed run to
/// append to: bytes a crash left after it are cut off; a format 1 checkpoint's inline
/// history is written out once. Without a checkpoint the first append starts the file over.
fn reopen_history(
    run_dir: &RunDir,
    checkpoint: Option<&Checkpoint>,
) -> Result<Written, EngineError> {
    let path = run_dir.timeline();
    let Some(checkpoint) = checkpoint else {
        return Ok(Written::default());
    };
    let bytes = match checkpoint.history_bytes {
        Some(bytes) => timeline_file::reopen(&path, bytes)?,
        None => {
            let text = History::to_text(&checkpoint.timeline, &checkpoint.logs, None)?;
            crate::rundir::atomic_write(&path, &text, true)?;
            text.len() as u64
        }
    };
    Ok(Written {
        head_stages: None,
        stages: checkpoint.timeline.len(),
        logs: checkpoint.logs.len(),
        bytes,
        state_of: None,
    })
}
