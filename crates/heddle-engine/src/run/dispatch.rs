//! Calling the handler of a node's kind with what it needs from the run.

use std::path::Path;
use std::time::Duration;

use heddle_workflow::{Attrs, HandlerKind, Node};

use super::shared::Shared;
use super::spec::RunSpec;
use super::stage::StageCall;
use super::{fan_in, manager, parallel};
use crate::context::keys;
use crate::entropy::new_ulid;
use crate::fidelity::Fidelity;
use crate::handlers::command::{CommandSpec, Language, OutputLimits, run_command};
use crate::handlers::human::run_human;
use crate::handlers::llm_stage::{LlmStage, run_llm_stage};
use crate::handlers::wait::run_wait;
use crate::interviewer::{Question, choices_for, freeform_target};
use crate::llm::{LlmRequest, OutputSchema};
use crate::outcome::{FailureClass, Outcome, StageStatus};
use crate::preamble::{
    PreambleInput, RunDirOutputs, build_preamble, resolve_fidelity, resolve_thread,
    stages_shown_at_most,
};
use crate::routing::normalize_label;

/// Runs the handler of `call.node` (every kind but parallel).
pub(crate) async fn run_handler(
    shared: &Shared,
    call: &StageCall<'_>,
    stage_dir: &Path,
    attempt: u32,
) -> Outcome {
    let node = call.node;
    let clock = shared.spec.engine.env.clock.as_ref();
    match node.kind {
        HandlerKind::Start | HandlerKind::Exit => Outcome::success(),
        // Conditions on a conditional's edges test the stage before it: the run loop leaves
        // `outcome` and `preferred_label` as they were.
        HandlerKind::Conditional => Outcome::success().with_notes("routes on conditions"),
        HandlerKind::Wait => {
            let duration = Duration::from_millis(node.attr_duration_ms("duration").unwrap_or(0));
            run_wait(duration, clock, call.cancel).await
        }
        HandlerKind::Command => {
            let before = super::capture::before(shared).await;
            let mut outcome = command(shared, call, stage_dir).await;
            super::offload::store_logs(shared, call.node, stage_dir, &mut outcome).await;
            super::capture::after(shared, call.node, stage_dir, attempt, before, outcome).await
        }
        HandlerKind::Human => human(shared, call, stage_dir).await,
        HandlerKind::Agent | HandlerKind::Prompt => llm(shared, call, stage_dir).await,
        HandlerKind::FanIn => fan_in::run_fan_in(shared, call, stage_dir).await,
        HandlerKind::ManagerLoop => manager::run_manager(shared, call, stage_dir).await,
        HandlerKind::Parallel => parallel::run_parallel(shared, call).await,
    }
}

async fn command(shared: &Shared, call: &StageCall<'_>, stage_dir: &Path) -> Outcome {
    let node = call.node;
    let Some(script) = RunSpec::node_text(node, "script") else {
        return Outcome::fail(
            FailureClass::Setup,
            format!("node `{}` is a command node without `script`", node.id),
        );
    };
    let language = match node.attr_str("language").map(str::trim) {
        Some("python") => Language::Python,
        _ => Language::Shell,
    };
    let mut env = shared.spec.engine.env.env.clone();
    const SET_HERE: [&str; 6] = [
        "HEDDLE_RUN_ID",
        "HEDDLE_NODE_ID",
        "HEDDLE_RUN_DIR",
        "HEDDLE_STAGE_DIR",
        "HEDDLE_WORK_DIR",
        "HEDDLE_WORKFLOW_DIR",
    ];
    env.retain(|(k, _)| !SET_HERE.contains(&k.as_str()));
    env.extend([
        ("HEDDLE_RUN_ID".to_string(), shared.spec.run_id.clone()),
        ("HEDDLE_NODE_ID".to_string(), node.id.clone()),
        (
            "HEDDLE_RUN_DIR".to_string(),
            shared.spec.run_dir.root().to_string_lossy().into_owned(),
        ),
        (
            "HEDDLE_STAGE_DIR".to_string(),
            stage_dir.to_string_lossy().into_owned(),
        ),
        (
            "HEDDLE_WORK_DIR".to_string(),
            shared.spec.work_dir.to_string_lossy().into_owned(),
        ),
        (
            // Scripts kept next to the workflow find them through this.
            "HEDDLE_WORKFLOW_DIR".to_string(),
            shared
                .spec
                .workflow_path
                .parent()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default(),
        ),
    ]);
    let spec = CommandSpec {
        node_id: node.id.clone(),
        script,
        language,
        timeout: node.attr_duration_ms("timeout").map(Duration::from_millis),
        work_dir: shared.spec.work_dir.clone(),
        stage_dir: stage_dir.to_path_buf(),
        env,
        output_limits: OutputLimits::DEFAULT,
    };
    let events = shared.emitter.for_node(&node.id);
    run_command(
        &spec,
        &events,
        call.cancel,
        shared.spec.engine.env.clock.as_ref(),
    )
    .await
}

async fn human(shared: &Shared, call: &StageCall<'_>, stage_dir: &Path) -> Outcome {
    let node = call.node;
    let choices = choices_for(&shared.spec.workflow, node);
    let freeform_target = freeform_target(&shared.spec.workflow, node);
    if choices.is_empty() && freeform_target.is_none() {
        return Outcome::fail(
            FailureClass::Setup,
            format!(
                "human gate `{}` has no outgoing edges to choose from",
                node.id
            ),
        );
    }
    // A `freeform=true` edge opens the gate to free text (as in Fabro); so does, in Heddle,
    // a choice labelled like one.
    let allow_freeform = freeform_target.is_some()
        || choices.iter().any(|c| {
            matches!(
                normalize_label(&c.label).as_str(),
                "freeform" | "other" | "custom"
            )
        });
    let question = Question {
        id: new_ulid(
            shared.spec.engine.env.clock.now(),
            shared.spec.engine.env.entropy.as_ref(),
        ),
        run_id: shared.spec.run_id.clone(),
        node_id: node.id.clone(),
        text: RunSpec::node_text(node, "prompt").unwrap_or_else(|| node.label.clone()),
        choices,
        allow_freeform,
        freeform_target,
        default_choice: RunSpec::node_text(node, "human.default_choice"),
        timeout: node.attr_duration_ms("timeout").map(Duration::from_millis),
    };
    let events = shared.emitter.for_node(&node.id);
    let interviewer = crate::control::Gated {
        board: &shared.gates,
        local: shared.spec.engine.services.interviewer.as_ref(),
    };
    run_human(
        &question,
        &interviewer,
        stage_dir,
        &events,
        call.cancel,
        shared.spec.engine.env.clock.as_ref(),
    )
    .await
}

async fn llm(shared: &Shared, call: &StageCall<'_>, stage_dir: &Path) -> Outcome {
    let node = call.node;
    let workflow = &shared.spec.workflow;
    let mut fidelity = resolve_fidelity(call.edge, node, workflow);
    if shared.take_resumed_flag() && fidelity == Fidelity::Full {
        fidelity = Fidelity::SummaryHigh;
    }
    let thread = resolve_thread(call.edge, node, workflow);
    call.context.set(keys::FIDELITY, fidelity.as_str());
    call.context.set(
        keys::THREAD_ID,
        thread.clone().map_or(serde_json::Value::Null, Into::into),
    );
    let instructions = match node_prompt(shared, node) {
        Ok(text) => text,
        Err(outcome) => return *outcome,
    };
    let output_schema = match node.attr_str("output_schema") {
        Some(value) => match OutputSchema::load(value, &shared.spec.workflow_path) {
            Ok(schema) => Some(schema),
            Err(error) => {
                return Outcome::fail(FailureClass::Setup, format!("node `{}`: {error}", node.id));
            }
        },
        None => None,
    };
    // A `full` stage on a thread with a live conversation continues it; otherwise it gets
    // a preamble like any other.
    let conversation = match (&thread, fidelity) {
        (Some(thread), Fidelity::Full) => shared.state().threads.remove(thread),
        _ => None,
    };
    let preamble = if conversation.is_some() {
        String::new()
    } else {
        let effective = if fidelity == Fidelity::Full {
            Fidelity::SummaryHigh
        } else {
            fidelity
        };
        // Only the stages the preamble can show: a copy that does not grow with the run.
        let (stages, earlier) = {
            let guard = shared.state();
            let timeline = &guard.progress.timeline;
            let from = timeline
                .len()
                .saturating_sub(stages_shown_at_most(effective));
            (timeline[from..].to_vec(), from)
        };
        let context =
            super::offload::materialise_for_preamble(shared, call.context.snapshot()).await;
        build_preamble(&PreambleInput {
            goal: shared.spec.goal.as_deref(),
            run_id: &shared.spec.run_id,
            fidelity: effective,
            stages: &stages,
            earlier,
            context: &context,
            outputs: &RunDirOutputs(&shared.spec.run_dir),
        })
    };
    let mut prompt = if preamble.is_empty() {
        instructions
    } else {
        format!("{preamble}\n\n---\n\n{instructions}")
    };
    if let Some(schema) = &output_schema {
        prompt.push_str("\n\n");
        prompt.push_str(&schema.prompt_instructions());
    }

    let request = LlmRequest {
        max_turns: node
            .attr_int("max_turns")
            .and_then(|n| u32::try_from(n).ok()),
        output_schema: output_schema.as_ref().map(|s| s.schema.clone()),
        thread_id: thread.clone(),
        ..node_llm_request(shared, node, node.kind)
    };
    let stage = LlmStage {
        request,
        prompt,
        stage_dir: stage_dir.to_path_buf(),
        output_schema,
        output_retries: node
            .attr_int("output_retries")
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(2),
        conversation,
    };
    let backend = shared.spec.engine.services.llm.clone();
    let events = shared
        .emitter
        .for_node(&node.id)
        .simulated(backend.simulated());
    let (outcome, conversation) =
        run_llm_stage(backend.as_ref(), stage, &events, call.cancel).await;
    if let (Some(thread), Some(conversation)) = (thread, conversation)
        && outcome.status != StageStatus::Fail
    {
        // A conversation it replaces is closed after the lock is released.
        let replaced = shared.state().threads.insert(thread, conversation);
        drop(replaced);
    }
    outcome
}

/// The model call `node` asks for, from its own attributes (model, provider, reasoning
/// effort, backend and its command, timeout), as `kind`; no turn limit, schema or thread.
pub(super) fn node_llm_request(shared: &Shared, node: &Node, kind: HandlerKind) -> LlmRequest {
    LlmRequest {
        run_id: shared.spec.run_id.clone(),
        node_id: node.id.clone(),
        kind,
        model: RunSpec::node_text(node, "model"),
        provider: RunSpec::node_text(node, "provider"),
        reasoning_effort: RunSpec::node_text(node, "reasoning_effort"),
        backend: RunSpec::node_text(node, "backend"),
        command: match node.attr_str("backend") {
            Some("acp") => RunSpec::node_text(node, "acp.command"),
            Some("cli") => RunSpec::node_text(node, "cli.command"),
            _ => None,
        },
        max_turns: None,
        work_dir: shared.spec.work_dir.clone(),
        timeout: node.attr_duration_ms("timeout").map(Duration::from_millis),
        output_schema: None,
        thread_id: None,
    }
}

/// The node's instructions: `prompt` (with `@file` read relative to the workflow), else the
/// label.
pub(super) fn node_prompt(shared: &Shared, node: &Node) -> Result<String, Box<Outcome>> {
    let Some(entry) = node.attr("prompt") else {
        return Ok(node.label.clone());
    };
    match &entry.value {
        heddle_workflow::Value::FileRef { path, .. } => {
            let resolved = heddle_workflow::resolve_reference(&shared.spec.workflow_path, path);
            std::fs::read_to_string(&resolved).map_err(|e| {
                Box::new(Outcome::fail(
                    FailureClass::Setup,
                    format!(
                        "node `{}`: cannot read prompt file {}: {}",
                        node.id,
                        resolved.display(),
                        crate::describe_io(&e)
                    ),
                ))
            })
        }
        _ => Ok(entry.raw.clone()),
    }
}
