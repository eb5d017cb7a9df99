//! `heddle answer` and `heddle cancel`: reaching a running run from this terminal, whichever
//! process executes it (heddle-api's run control).

use std::io::Write;
use std::time::Duration;

use heddle_api::index::QueueState;
use heddle_api::{AnswerGateRequest, PendingGate, QueueEntryRef, RunLibrary, RunRef};

use crate::run::Environment;

/// How long `heddle answer` waits to see the run take the answer.
const TAKEN_WITHIN: Duration = Duration::from_secs(10);

/// What `heddle answer` gives.
pub struct AnswerArgs {
    pub run: String,
    pub question: Option<String>,
    pub choice: Option<String>,
    pub text: Option<String>,
    pub json: bool,
}

/// `heddle answer`.
pub async fn answer(
    args: AnswerArgs,
    env: &Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let library = RunLibrary::open(env.home.clone())
        .await
        .map_err(|e| e.message)?;
    let run = RunRef {
        run_id: args.run.clone(),
    };
    let waiting = library.pending_gates(&run).await.map_err(|e| e.message)?;
    let (answer, freeform) = match (args.choice, args.text) {
        (Some(choice), _) => (choice, false),
        (None, Some(text)) => (text, true),
        (None, None) => return list(&waiting, &args.run, args.json, out),
    };
    library
        .ensure_executing(&args.run)
        .await
        .map_err(|e| e.message)?;
    let gate = pick(&waiting, args.question.as_deref(), &args.run)?;
    let question_id = gate.question_id.clone();
    library
        .answer_gate(&AnswerGateRequest {
            run_id: args.run.clone(),
            question_id: question_id.clone(),
            answer,
            freeform,
        })
        .await
        .map_err(|e| e.message)?;
    let taken = wait_until_taken(&library, &run, &question_id).await;
    let message = if taken {
        format!("answered gate `{}` of run {}", gate.node_id, gate.run_id)
    } else {
        format!(
            "sent the answer to gate `{}`; run {} has not taken it yet",
            gate.node_id, gate.run_id
        )
    };
    writeln!(out, "{message}").map_err(|e| format!("cannot write: {e}"))
}

/// `heddle cancel`.
pub async fn cancel(
    run: &str,
    queued: bool,
    env: &Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let library = RunLibrary::open(env.home.clone())
        .await
        .map_err(|e| e.message)?;
    if queued {
        let entry = library
            .cancel_queued(QueueEntryRef {
                entry: run.to_string(),
            })
            .await
            .map_err(|e| e.message)?;
        let said = match entry.run_id {
            Some(run_id) if entry.state == QueueState::Claimed => format!(
                "asked run {run_id} of queue entry {run} to cancel; it stops after saving a \
                 checkpoint"
            ),
            _ => format!("cancelled queue entry {run}; no worker will run it"),
        };
        return writeln!(out, "{said}").map_err(|e| format!("cannot write: {e}"));
    }
    library
        .cancel(&RunRef {
            run_id: run.to_string(),
        })
        .await
        .map_err(|e| e.message)?;
    writeln!(
        out,
        "asked run {run} to cancel; it stops after saving a checkpoint"
    )
    .map_err(|e| format!("cannot write: {e}"))
}

/// The gate to answer: the one `question` names, or the only one waiting.
fn pick<'a>(
    waiting: &'a [PendingGate],
    question: Option<&str>,
    run: &str,
) -> Result<&'a PendingGate, String> {
    match question {
        Some(id) => waiting.iter().find(|g| g.question_id == id).ok_or_else(|| {
            format!(
                "no gate with question `{id}` waits in run {run}; `heddle answer {run}` lists them"
            )
        }),
        None => match waiting {
            [] => Err(format!("no gate of run {run} is waiting for an answer")),
            [only] => Ok(only),
            _ => Err(format!(
                "{} gates wait in run {run}; choose one with --question (`heddle answer {run}` \
                 lists them)",
                waiting.len()
            )),
        },
    }
}

/// Whether the run took the answer (its gate stopped waiting) within [`TAKEN_WITHIN`].
async fn wait_until_taken(library: &RunLibrary, run: &RunRef, question_id: &str) -> bool {
    let started = tokio::time::Instant::now();
    while started.elapsed() < TAKEN_WITHIN {
        match library.pending_gates(run).await {
            Ok(gates) if gates.iter().any(|g| g.question_id == question_id) => {}
            _ => return true,
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

fn list(waiting: &[PendingGate], run: &str, json: bool, out: &mut dyn Write) -> Result<(), String> {
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        let text = serde_json::to_string_pretty(waiting).map_err(|e| e.to_string())?;
        return writeln!(out, "{text}").map_err(write);
    }
    if waiting.is_empty() {
        return writeln!(out, "no gate of run {run} is waiting for an answer").map_err(write);
    }
    for gate in waiting {
        writeln!(
            out,
            "gate `{}` (question {}): {}",
            gate.node_id, gate.question_id, gate.text
        )
        .map_err(write)?;
        for choice in &gate.choices {
            writeln!(
                out,
                "  [{}] {} -> {}",
                choice.key, choice.label, choice.target
            )
            .map_err(write)?;
        }
        if gate.allow_freeform {
            writeln!(out, "  or any text with --text").map_err(write)?;
        }
    }
    writeln!(out, "answer with: heddle answer {run} --choice KEY").map_err(write)
}
