//! Agent and prompt nodes: send the prompt, validate `output_schema` output with repair
//! turns, read the routing directive, and turn it all into an [`Outcome`].

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use heddle_workflow::HandlerKind;
use serde_json::Value as Json;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::context::keys;
use crate::emitter::NodeEvents;
use crate::llm::{
    LlmBackend, LlmConversation, LlmError, LlmErrorKind, LlmReply, LlmRequest, OutputSchema,
    RoutingDirective, SchemaOutcome, extract_directive, validate_with_repairs,
};
use crate::outcome::{FailureClass, Outcome, Usage};

/// How many characters of a response `last_response` keeps.
const LAST_RESPONSE_CHARS: usize = 200;

/// How many validation errors a schema failure's reason lists.
const REASON_ERRORS: usize = 5;

/// One LLM stage to run.
pub struct LlmStage {
    /// What to ask the backend for.
    pub request: LlmRequest,
    /// The full prompt: preamble, then the node's prompt.
    pub prompt: String,
    /// The stage folder (prompt.md, response.md, status.json).
    pub stage_dir: PathBuf,
    /// `output_schema`, loaded.
    pub output_schema: Option<OutputSchema>,
    /// `output_retries` (default 2).
    pub output_retries: u32,
    /// A conversation to continue (`full` fidelity on a shared thread).
    pub conversation: Option<Box<dyn LlmConversation>>,
}

/// Why a call to the backend did not return a value.
enum Stop {
    Llm(LlmError),
    Timeout,
    Cancelled,
}

/// The stage's time limit and cancellation, applied to every call.
struct Limits<'a> {
    node: &'a str,
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    cancel: &'a CancellationToken,
}

impl Limits<'_> {
    /// Runs `work` until it ends, the deadline passes or the run is cancelled.
    async fn run<T>(&self, work: impl Future<Output = Result<T, LlmError>>) -> Result<T, Stop> {
        let bounded = async {
            match self.deadline {
                Some(deadline) => match tokio::time::timeout_at(deadline, work).await {
                    Ok(result) => result.map_err(Stop::Llm),
                    Err(_) => Err(Stop::Timeout),
                },
                None => work.await.map_err(Stop::Llm),
            }
        };
        tokio::select! {
            biased;
            () = self.cancel.cancelled() => Err(Stop::Cancelled),
            result = bounded => result,
        }
    }

    /// The failed outcome for `stop`; its reason starts with the node id.
    fn outcome(&self, stop: Stop) -> Outcome {
        let node = self.node;
        match stop {
            Stop::Timeout => {
                let limit = self.timeout.map_or_else(String::new, |t| {
                    heddle_workflow::format_duration(
                        u64::try_from(t.as_millis()).unwrap_or(u64::MAX),
                    )
                });
                Outcome::fail(
                    FailureClass::Timeout,
                    format!(
                        "{node}: the LLM stage did not finish within its timeout of {limit} \
                         (raise `timeout` on the node to allow more)"
                    ),
                )
            }
            Stop::Cancelled => Outcome::fail(
                FailureClass::Cancelled,
                format!("{node}: cancelled while waiting for the model"),
            ),
            Stop::Llm(error) => {
                let class = match error.kind {
                    LlmErrorKind::Config => FailureClass::Setup,
                    LlmErrorKind::Transient => FailureClass::Transient,
                    LlmErrorKind::Timeout => FailureClass::Timeout,
                    LlmErrorKind::Cancelled => FailureClass::Cancelled,
                    LlmErrorKind::Fatal => FailureClass::Deterministic,
                };
                Outcome::fail(class, format!("{node}: {}", error.message))
            }
        }
    }
}

/// Runs the stage; returns its outcome and the conversation (to keep for its thread). The
/// conversation is dropped after a timeout or cancellation, as a turn may be half done.
pub async fn run_llm_stage(
    backend: &dyn LlmBackend,
    stage: LlmStage,
    events: &NodeEvents,
    cancel: &CancellationToken,
) -> (Outcome, Option<Box<dyn LlmConversation>>) {
    let LlmStage {
        request,
        prompt,
        stage_dir,
        output_schema,
        output_retries,
        conversation,
    } = stage;
    let node = request.node_id.as_str();
    // status.json counts only when the agent wrote it during this stage; the work dir is
    // the user's, so an older one is neither used nor removed.
    let status_before = fingerprint(&request.work_dir.join("status.json"));
    let sink = events.clone().simulated(backend.simulated());
    let limits = Limits {
        node,
        timeout: request.timeout,
        deadline: request.timeout.map(|t| Instant::now() + t),
        cancel,
    };
    if let Err(reason) = write_file(&stage_dir, "prompt.md", &prompt, node) {
        return (Outcome::fail(FailureClass::Setup, reason), conversation);
    }
    let mut conversation = match conversation {
        Some(conversation) => conversation,
        None => match limits.run(backend.open(&request)).await {
            Ok(conversation) => conversation,
            Err(stop) => return (limits.outcome(stop), None),
        },
    };
    let first = match limits.run(conversation.send(&prompt, &sink, cancel)).await {
        Ok(reply) => reply,
        Err(stop) => return stopped(&limits, stop, conversation),
    };
    if let Err(reason) = write_file(&stage_dir, "response.md", &first.text, node) {
        let outcome = Outcome::fail(FailureClass::Setup, reason);
        return (with_turns(outcome, &[&first]), Some(conversation));
    }

    let mut repairs: Vec<LlmReply> = Vec::new();
    let checked = match &output_schema {
        None => Ok(None),
        Some(schema) => limits
            .run(validate_with_repairs(
                schema,
                &first.text,
                conversation.as_mut(),
                output_retries,
                &sink,
                cancel,
                &mut repairs,
            ))
            .await
            .map(|result| Some((schema, result))),
    };
    let written = write_repairs(&stage_dir, &repairs, node);
    let mut turns = vec![&first];
    turns.extend(repairs.iter());
    let finish = |outcome| with_turns(with_response(outcome, node, &first.text), &turns);
    let checked = match (checked, written) {
        (Err(stop), _) => {
            let (outcome, conversation) = stopped(&limits, stop, conversation);
            return (finish(outcome), conversation);
        }
        (Ok(_), Err(reason)) => {
            let outcome = Outcome::fail(FailureClass::Setup, reason);
            return (finish(outcome), Some(conversation));
        }
        (Ok(checked), Ok(())) => checked,
    };

    let mut notes = Vec::new();
    if turns.iter().any(|t| t.simulated) {
        notes.push("simulated reply".to_string());
    }
    let mut outcome = match checked {
        Some((schema, SchemaOutcome::Invalid { errors, repairs })) => {
            schema_failure(node, schema, &errors, repairs)
        }
        Some((_, SchemaOutcome::Valid { output, .. })) => {
            let found = find_directive(&request, Some(&output), &turns, status_before);
            let mut outcome = routed(node, found, &mut notes);
            outcome.context_updates.insert(keys::output(node), output);
            outcome
        }
        None => routed(
            node,
            find_directive(&request, None, &turns, status_before),
            &mut notes,
        ),
    };
    match repairs.len() {
        0 => {}
        1 => notes.push("1 repair turn".to_string()),
        n => notes.push(format!("{n} repair turns")),
    }
    outcome.notes = notes.join("; ");
    (finish(outcome), Some(conversation))
}

/// The outcome of a stage stopped by `stop`, and the conversation if it is still usable
/// (not after a timeout or cancellation, which may have cut a turn in half).
fn stopped(
    limits: &Limits<'_>,
    stop: Stop,
    conversation: Box<dyn LlmConversation>,
) -> (Outcome, Option<Box<dyn LlmConversation>>) {
    let keep = matches!(stop, Stop::Llm(_));
    (limits.outcome(stop), keep.then_some(conversation))
}

/// The outcome of the directive found (success without one), noting where it came from.
fn routed(
    node: &str,
    found: Option<(RoutingDirective, String)>,
    notes: &mut Vec<String>,
) -> Outcome {
    match found {
        None => Outcome::success(),
        Some((directive, source)) => {
            if !source.is_empty() {
                notes.push(format!("routing from {source}"));
            }
            directive.into_outcome(node)
        }
    }
}

/// Adds `response.{node}` and `last_response`.
fn with_response(mut outcome: Outcome, node: &str, text: &str) -> Outcome {
    let head: String = text.chars().take(LAST_RESPONSE_CHARS).collect();
    outcome
        .context_updates
        .insert(keys::response(node), Json::String(text.to_string()));
    outcome
        .context_updates
        .insert(keys::LAST_RESPONSE.to_string(), Json::String(head));
    outcome
}

/// Adds the model, the summed usage, the files touched and the simulated flag of `turns`.
fn with_turns(mut outcome: Outcome, turns: &[&LlmReply]) -> Outcome {
    if turns.is_empty() {
        return outcome;
    }
    let mut usage = Usage::default();
    let mut cost: Option<f64> = None;
    for turn in turns {
        usage.add(&turn.usage);
        if let Some(turn_cost) = turn.cost_usd {
            cost = Some(cost.unwrap_or(0.0) + turn_cost);
        }
        for file in &turn.files_touched {
            outcome.files_touched.retain(|f| f != file);
            outcome.files_touched.push(file.clone());
        }
        if !turn.model.is_empty() {
            outcome.model = Some(turn.model.clone());
        }
    }
    outcome.usage = Some(usage);
    outcome.cost_usd = cost;
    outcome.simulated = turns.iter().any(|t| t.simulated);
    outcome
}

/// The failure of an output that still does not match after every repair turn.
fn schema_failure(node: &str, schema: &OutputSchema, errors: &[String], repairs: u32) -> Outcome {
    let mut listed = errors
        .iter()
        .take(REASON_ERRORS)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if errors.len() > REASON_ERRORS {
        listed.push_str(&format!("; and {} more", errors.len() - REASON_ERRORS));
    }
    let turns = if repairs == 1 { "turn" } else { "turns" };
    Outcome::fail(
        FailureClass::Schema,
        format!(
            "{node}: the output does not match output_schema {} after {repairs} repair {turns}: \
             {listed}",
            schema.source
        ),
    )
}

/// The routing directive of the stage and where it came from (empty for the reply itself):
/// the schema-validated output, the replies (last first), then, for agents, `status.json` in
/// the work dir and the last JSON file the agent touched.
fn find_directive(
    request: &LlmRequest,
    schema_output: Option<&Json>,
    turns: &[&LlmReply],
    status_before: Option<(std::time::SystemTime, u64)>,
) -> Option<(RoutingDirective, String)> {
    // With a schema, only the reply that passed it counts: a rejected earlier reply must
    // not route the stage.
    let candidates = match schema_output {
        Some(_) => &turns[turns.len().saturating_sub(1)..],
        None => turns,
    };
    let from_reply = schema_output
        .and_then(Json::as_object)
        .and_then(RoutingDirective::from_object)
        .or_else(|| {
            candidates
                .iter()
                .rev()
                .find_map(|t| extract_directive(&t.text))
        });
    if let Some(directive) = from_reply {
        return Some((directive, String::new()));
    }
    if request.kind != HandlerKind::Agent {
        return None;
    }
    let status = request.work_dir.join("status.json");
    if fingerprint(&status) != status_before
        && let Some(directive) = RoutingDirective::from_file(&status)
    {
        return Some((directive, status.display().to_string()));
    }
    let last = turns.iter().rev().find_map(|t| t.files_touched.last())?;
    let is_json = Path::new(last)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if !is_json {
        return None;
    }
    let path = request.work_dir.join(last);
    RoutingDirective::from_file(&path).map(|d| (d, path.display().to_string()))
}

/// Modification time and size of a file, if it exists.
fn fingerprint(path: &Path) -> Option<(std::time::SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// Writes `name` into the stage folder (creating it); the error names the file.
fn write_file(dir: &Path, name: &str, text: &str, node: &str) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, text))
        .map_err(|e| {
            format!(
                "{node}: cannot write {}: {}",
                path.display(),
                crate::describe_io(&e)
            )
        })
}

/// Writes `response.repair_N.md` for each repair reply.
fn write_repairs(dir: &Path, repairs: &[LlmReply], node: &str) -> Result<(), String> {
    for (index, reply) in repairs.iter().enumerate() {
        let name = format!("response.repair_{}.md", index + 1);
        write_file(dir, &name, &reply.text, node)?;
    }
    Ok(())
}
