//! Human gates: ask the question, wait (with the node's timeout), turn the answer into an
//! outcome.
//!
//! The outcome prefers the chosen edge's label and suggests its target, and sets
//! `human.gate.selected` (the key, or `freeform`), `human.gate.label` and `human.gate.text`
//! (null unless freeform). The question and what came of it are written to
//! `interview.json` in the stage folder.

use std::path::Path;
use std::time::Duration;

use heddle_workflow::format_duration;
use serde::Serialize;
use serde_json::Value as Json;
use tokio_util::sync::CancellationToken;

use crate::clock::Clock;
use crate::context::keys;
use crate::emitter::NodeEvents;
use crate::event::Event;
use crate::interviewer::{Answer, InterviewError, Interviewer, Question, Resolved, resolve_answer};
use crate::outcome::{FailureClass, Outcome};
use crate::routing::{normalize_label, split_accelerator};

/// The file written into the stage folder.
pub const INTERVIEW_FILE: &str = "interview.json";

/// What came of the wait.
enum Waited {
    Answered(Result<Answer, InterviewError>),
    TimedOut,
    Cancelled,
}

/// `interview.json`: the question and what came of it.
#[derive(Debug, Serialize)]
struct Record<'a> {
    question: &'a Question,
    /// `answered`, `timed_out`, `closed`, `cancelled` or `invalid`.
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<&'a Answer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resolved: Option<&'a Resolved>,
    /// The default choice was taken (after a timeout or a closed input).
    default_taken: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Asks `question` through `interviewer` and returns the gate's outcome.
///
/// Waits until an answer comes, `cancel` fires, or the question's timeout passes on `clock`.
/// A timeout, or an interviewer that can no longer answer, takes `human.default_choice`
/// when the gate has one and fails the gate otherwise.
pub async fn run_human(
    question: &Question,
    interviewer: &dyn Interviewer,
    stage_dir: &Path,
    events: &NodeEvents,
    cancel: &CancellationToken,
    clock: &dyn Clock,
) -> Outcome {
    events.emit(Event::InterviewStarted {
        question: question.text.clone(),
        choices: question.choices.iter().map(|c| c.label.clone()).collect(),
        question_id: question.id.clone(),
    });
    let waited = wait(question, interviewer, cancel, clock).await;
    let node = &question.node_id;
    let default = default_choice(question);
    let mut record = Record {
        question,
        result: "answered",
        answer: None,
        resolved: None,
        default_taken: false,
        error: None,
    };
    let outcome = match &waited {
        Waited::Answered(Ok(answer)) => {
            record.answer = Some(answer);
            match resolve_answer(question, answer) {
                Ok(resolved) => {
                    events.emit(Event::InterviewAnswered {
                        selected: resolved.selected.clone(),
                        label: resolved.label.clone(),
                        text: resolved.text.clone(),
                    });
                    let note = match &resolved.text {
                        Some(text) => format!(
                            "answered \"{}\" -> {}",
                            clip(text),
                            describe(question, &resolved)
                        ),
                        None => format!("chose {}", describe(question, &resolved)),
                    };
                    let outcome = gate_outcome(question, &resolved, note);
                    record.resolved = Some(&resolved);
                    return finish(outcome, &record, stage_dir, events);
                }
                Err(message) => {
                    record.result = "invalid";
                    record.error = Some(message.clone());
                    Outcome::fail(FailureClass::Deterministic, format!("{node}: {message}"))
                }
            }
        }
        Waited::TimedOut => {
            record.result = "timed_out";
            events.emit(Event::InterviewTimedOut {
                default_choice: question
                    .default_choice
                    .clone()
                    .filter(|_| default.is_some()),
            });
            let waited = format_duration(millis(question.timeout.unwrap_or_default()));
            match &default {
                Some(resolved) => {
                    record.default_taken = true;
                    record.resolved = Some(resolved);
                    let note = format!(
                        "no answer within {waited}; took the default {}",
                        describe(question, resolved)
                    );
                    let outcome = gate_outcome(question, resolved, note);
                    return finish(outcome, &record, stage_dir, events);
                }
                None => {
                    let reason = match &question.default_choice {
                        Some(d) => format!(
                            "{node}: no answer within {waited} and human.default_choice `{d}` \
                             is not one of the choices"
                        ),
                        None => {
                            format!("{node}: no answer within {waited} and no human.default_choice")
                        }
                    };
                    record.error = Some(reason.clone());
                    Outcome::fail(FailureClass::Timeout, reason)
                }
            }
        }
        Waited::Answered(Err(InterviewError::Closed(why))) => {
            record.result = "closed";
            record.error = Some(why.clone());
            match &default {
                Some(resolved) => {
                    events.emit(Event::Warning {
                        message: format!(
                            "{node}: no answer ({why}); taking the default choice {}",
                            describe(question, resolved)
                        ),
                    });
                    record.default_taken = true;
                    record.resolved = Some(resolved);
                    let note = format!(
                        "no answer ({why}); took the default {}",
                        describe(question, resolved)
                    );
                    let outcome = gate_outcome(question, resolved, note);
                    return finish(outcome, &record, stage_dir, events);
                }
                None => Outcome::fail(
                    FailureClass::Setup,
                    format!(
                        "{node}: nobody can answer this gate ({why}) and it has no \
                         human.default_choice; run with --auto-approve to take the approving \
                         choice, or set human.default_choice"
                    ),
                ),
            }
        }
        Waited::Answered(Err(InterviewError::Cancelled)) | Waited::Cancelled => {
            record.result = "cancelled";
            Outcome::fail(
                FailureClass::Cancelled,
                format!("{node}: cancelled while waiting for an answer"),
            )
        }
    };
    finish(outcome, &record, stage_dir, events)
}

/// Waits for the answer, the timeout or the cancellation, whichever comes first.
async fn wait(
    question: &Question,
    interviewer: &dyn Interviewer,
    cancel: &CancellationToken,
    clock: &dyn Clock,
) -> Waited {
    let timeout = async {
        match question.timeout {
            Some(timeout) => clock.sleep(timeout).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        biased;
        () = cancel.cancelled() => Waited::Cancelled,
        answer = interviewer.ask(question) => Waited::Answered(answer),
        () = timeout => Waited::TimedOut,
    }
}

/// The default choice, resolved; `None` when unset or not one of the choices.
fn default_choice(question: &Question) -> Option<Resolved> {
    let default = question.default_choice.as_deref()?;
    resolve_answer(question, &Answer::Choice(default.to_string())).ok()
}

/// A successful gate outcome routing to `resolved`.
fn gate_outcome(question: &Question, resolved: &Resolved, notes: String) -> Outcome {
    let mut outcome = Outcome::success()
        .with_update(keys::HUMAN_SELECTED, resolved.selected.clone())
        .with_update(
            keys::HUMAN_LABEL,
            resolved.label.clone().map_or(Json::Null, Json::String),
        )
        .with_update(
            keys::HUMAN_TEXT,
            resolved.text.clone().map_or(Json::Null, Json::String),
        )
        .with_notes(notes);
    // The label routes only when it names one choice, the one chosen; otherwise (free text
    // along a freeform edge, say) the target decides.
    if let Some(label) = &resolved.label {
        let wanted = normalize_label(label);
        let same: Vec<&crate::interviewer::Choice> = question
            .choices
            .iter()
            .filter(|c| normalize_label(&c.label) == wanted)
            .collect();
        if let [only] = same.as_slice()
            && only.target == resolved.target
        {
            outcome.preferred_label = Some(label.clone());
        }
    }
    outcome.suggested_next_ids = vec![resolved.target.clone()];
    outcome
}

/// `[A] Approve`: the chosen choice's key and label, for notes.
fn describe(question: &Question, resolved: &Resolved) -> String {
    let choice = question.choices.iter().find(|c| {
        c.target == resolved.target && Some(c.label.as_str()) == resolved.label.as_deref()
    });
    match choice {
        Some(choice) => format!("[{}] {}", choice.key, split_accelerator(&choice.label).1),
        None => resolved
            .label
            .clone()
            .unwrap_or_else(|| resolved.target.clone()),
    }
}

/// The first 60 characters of a freeform answer, for notes.
fn clip(text: &str) -> String {
    const MAX: usize = 60;
    let mut clipped: String = text.chars().take(MAX).collect();
    if text.chars().count() > MAX {
        clipped.push('…');
    }
    clipped
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Writes `interview.json` (a failure to write is a warning) and returns `outcome`.
fn finish(outcome: Outcome, record: &Record<'_>, stage_dir: &Path, events: &NodeEvents) -> Outcome {
    let path = stage_dir.join(INTERVIEW_FILE);
    let written = std::fs::create_dir_all(stage_dir)
        .map_err(|e| crate::describe_io(&e))
        .and_then(|()| crate::rundir::write_json(&path, record, false).map_err(|e| e.to_string()));
    if let Err(message) = written {
        events.emit(Event::Warning {
            message: format!("could not write {}: {message}", path.display()),
        });
    }
    outcome
}
