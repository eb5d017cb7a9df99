//! Human gates: choices from edges, resolving answers, the interviewers (auto-approve,
//! queue, recording, terminal) and the gate handler.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use heddle_engine::handlers::human::run_human;
use heddle_engine::interviewer::{
    Answer, AutoApprove, Choice, InterviewError, Interviewer, Question, QueueInterviewer,
    RecordingInterviewer, TerminalInterviewer, choices_for,
};
use heddle_engine::{
    Emitter, Event, FailureClass, FakeClock, NodeEvents, Outcome, SeededEntropy, StageStatus,
};
use serde_json::{Value as Json, json};
use tokio_util::sync::CancellationToken;

type TestResult = Result<(), Box<dyn Error>>;

const GATE: &str = r#"digraph W {
  start [shape=Mdiamond]
  gate [shape=hexagon, prompt="Ship it?"]
  start -> gate
  gate -> ship [label="[A] Approve"]
  gate -> fix [label="Revise"]
  gate -> redo [label="Retry"]
  gate -> rework
  gate -> abort [label="x) Abort"]
  gate -> xylo [label="Xylo"]
  gate -> note [label="Other"]
}"#;

fn choices(src: &str) -> Result<Vec<Choice>, Box<dyn Error>> {
    let loaded = heddle_workflow::load_source(
        src,
        Path::new("w.dot"),
        &heddle_workflow::MemoryFiles::new(),
    );
    let workflow = loaded.workflow.ok_or("no workflow")?;
    let node = workflow.node("gate").ok_or("no gate")?;
    Ok(choices_for(&workflow, node))
}

fn question(choices: Vec<Choice>) -> Question {
    Question {
        id: "q1".into(),
        run_id: "run1".into(),
        node_id: "gate".into(),
        text: "Ship it?".into(),
        choices,
        allow_freeform: false,
        freeform_target: None,
        default_choice: None,
        timeout: None,
    }
}

#[tokio::test]
async fn queue_holds_questions_until_answered() -> TestResult {
    let queue = QueueInterviewer::new();
    let mut notifications = queue.subscribe();
    let asker = queue.clone();
    let q = question(choices(GATE)?);
    let asked = q.clone();
    let task = tokio::spawn(async move { asker.ask(&asked).await });
    let notified = notifications.recv().await?;
    assert_eq!(notified.question, q);
    let pending = queue.pending();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].question.id, "q1");
    assert!(queue.answer("q2", Answer::Choice("a".into())).is_err());
    queue.answer("q1", Answer::Choice("a".into()))?;
    assert_eq!(task.await?, Ok(Answer::Choice("a".into())));
    assert!(queue.pending().is_empty());
    assert!(queue.answer("q1", Answer::Choice("a".into())).is_err());
    Ok(())
}

#[tokio::test]
async fn closing_the_queue_fails_waiting_and_later_questions() -> TestResult {
    let queue = QueueInterviewer::new();
    let mut notifications = queue.subscribe();
    let asker = queue.clone();
    let q = question(choices(GATE)?);
    let asked = q.clone();
    let task = tokio::spawn(async move { asker.ask(&asked).await });
    notifications.recv().await?;
    queue.close();
    assert!(matches!(task.await?, Err(InterviewError::Closed(_))));
    assert!(queue.pending().is_empty());
    assert!(matches!(
        queue.ask(&q).await,
        Err(InterviewError::Closed(_))
    ));
    Ok(())
}

#[tokio::test]
async fn recording_keeps_every_question_and_result() -> TestResult {
    let q = question(choices(GATE)?);
    let approve = RecordingInterviewer::new(AutoApprove);
    approve.ask(&q).await?;
    let closed = QueueInterviewer::new();
    closed.close();
    let recording = RecordingInterviewer::new(closed);
    let _ = recording.ask(&q).await;
    let records = approve.records();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].question, q);
    assert_eq!(records[0].answer, Ok(Answer::Choice("A".into())));
    let records = recording.records();
    assert!(matches!(records[0].answer, Err(InterviewError::Closed(_))));
    Ok(())
}

/// Asks `q` on a terminal fed `input`; returns the answer and what was printed.
async fn terminal(q: &Question, input: &'static str) -> (Result<Answer, InterviewError>, String) {
    let term = TerminalInterviewer::new(tokio::io::BufReader::new(input.as_bytes()), Vec::new());
    let answer = term.ask(q).await;
    let (_, output) = term.into_parts();
    (answer, String::from_utf8_lossy(&output).into_owned())
}

#[tokio::test]
async fn terminal_reads_choices_defaults_and_freeform() -> TestResult {
    let mut q = question(choices(GATE)?);
    let (answer, printed) = terminal(&q, "a\n").await;
    assert_eq!(answer, Ok(Answer::Choice("a".into())));
    assert!(printed.contains("Ship it?"), "{printed}");
    assert!(printed.contains("[A] Approve -> ship"), "{printed}");
    assert!(printed.contains("[W] rework -> rework"), "{printed}");
    assert!(!printed.contains("freeform"), "{printed}");

    assert_eq!(
        terminal(&q, "Revise\n").await.0,
        Ok(Answer::Choice("Revise".into()))
    );
    let (answer, printed) = terminal(&q, "\nmaybe\n3\n").await;
    assert_eq!(answer, Ok(Answer::Choice("3".into())));
    assert!(printed.contains("unknown choice `maybe`"), "{printed}");

    q.default_choice = Some("revise".into());
    q.allow_freeform = true;
    let (answer, printed) = terminal(&q, "\n").await;
    assert_eq!(answer, Ok(Answer::Choice("R".into())));
    assert!(
        printed.contains("[R] Revise -> fix  (default)"),
        "{printed}"
    );
    assert!(printed.contains("freeform"), "{printed}");
    let (answer, _) = terminal(&q, "  ship it friday \n").await;
    assert_eq!(answer, Ok(Answer::Freeform("ship it friday".into())));
    Ok(())
}

#[tokio::test]
async fn terminal_asks_for_text_at_a_gate_without_choices() -> TestResult {
    let mut q = question(Vec::new());
    q.allow_freeform = true;
    q.freeform_target = Some("notes".into());
    let (answer, printed) = terminal(&q, "\n  use staging \n").await;
    assert_eq!(answer, Ok(Answer::Freeform("use staging".into())));
    assert!(printed.contains("Type your answer."), "{printed}");
    assert!(printed.contains("please type an answer"), "{printed}");
    assert!(!printed.contains("key, label or number"), "{printed}");
    Ok(())
}

#[tokio::test]
async fn terminal_gives_up_on_eof_and_repeated_blank_lines() -> TestResult {
    let q = question(choices(GATE)?);
    let closed = Err(InterviewError::Closed("stdin closed".into()));
    assert_eq!(terminal(&q, "").await.0, closed);
    assert_eq!(terminal(&q, "nope\n").await.0, closed);
    let (answer, _) = terminal(&q, "\n\n\n\na\n").await;
    assert!(matches!(answer, Err(InterviewError::Closed(m)) if m.contains("no valid answer")));
    Ok(())
}

/// Always gives the same answer.
struct Fixed(Answer);

#[async_trait]
impl Interviewer for Fixed {
    async fn ask(&self, _: &Question) -> Result<Answer, InterviewError> {
        Ok(self.0.clone())
    }
}

struct Gate {
    tmp: tempfile::TempDir,
    emitter: Emitter,
    events: NodeEvents,
    clock: FakeClock,
}

impl Gate {
    fn new() -> Result<Gate, Box<dyn Error>> {
        let emitter = Emitter::open(
            "run1",
            None,
            Arc::new(FakeClock::new(SystemTime::UNIX_EPOCH)),
            Arc::new(SeededEntropy::new(1)),
        )?;
        Ok(Gate {
            tmp: tempfile::tempdir()?,
            events: emitter.for_node("gate"),
            emitter,
            clock: FakeClock::new(SystemTime::UNIX_EPOCH),
        })
    }

    /// Runs the gate; returns the outcome, the events and interview.json.
    async fn run(
        &self,
        q: &Question,
        interviewer: &dyn Interviewer,
        cancel: &CancellationToken,
    ) -> Result<(Outcome, Vec<Event>, Json), Box<dyn Error>> {
        let mut receiver = self.emitter.subscribe();
        let stage_dir = self.tmp.path().join("gate");
        let outcome = run_human(
            q,
            interviewer,
            &stage_dir,
            &self.events,
            cancel,
            &self.clock,
        )
        .await;
        let mut events = Vec::new();
        while let Ok(envelope) = receiver.try_recv() {
            assert_eq!(envelope.node_id.as_deref(), Some("gate"));
            events.push(envelope.event);
        }
        let record = std::fs::read_to_string(stage_dir.join("interview.json"))?;
        Ok((outcome, events, serde_json::from_str(&record)?))
    }
}

fn started(q: &Question) -> Event {
    Event::InterviewStarted {
        question: "Ship it?".into(),
        choices: q.choices.iter().map(|c| c.label.clone()).collect(),
        question_id: "q1".into(),
    }
}

#[tokio::test]
async fn gate_routes_a_choice() -> TestResult {
    let gate = Gate::new()?;
    let q = question(choices(GATE)?);
    let answer = Fixed(Answer::Choice("approve".into()));
    let (outcome, events, record) = gate.run(&q, &answer, &CancellationToken::new()).await?;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(outcome.preferred_label.as_deref(), Some("[A] Approve"));
    assert_eq!(outcome.suggested_next_ids, vec!["ship".to_string()]);
    assert_eq!(outcome.context_updates["human.gate.selected"], json!("A"));
    assert_eq!(
        outcome.context_updates["human.gate.label"],
        json!("[A] Approve")
    );
    assert_eq!(outcome.context_updates["human.gate.text"], Json::Null);
    assert_eq!(outcome.notes, "chose [A] Approve");
    let answered = Event::InterviewAnswered {
        selected: "A".into(),
        label: Some("[A] Approve".into()),
        text: None,
    };
    assert_eq!(events, vec![started(&q), answered]);
    assert_eq!(record["result"], json!("answered"));
    assert_eq!(record["question"]["id"], json!("q1"));
    assert_eq!(record["resolved"]["target"], json!("ship"));
    Ok(())
}

#[tokio::test]
async fn gate_routes_freeform_text() -> TestResult {
    let gate = Gate::new()?;
    let mut q = question(choices(GATE)?);
    q.allow_freeform = true;
    let answer = Fixed(Answer::Freeform("add a changelog".into()));
    let (outcome, events, record) = gate.run(&q, &answer, &CancellationToken::new()).await?;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(outcome.preferred_label.as_deref(), Some("Other"));
    assert_eq!(outcome.suggested_next_ids, vec!["note".to_string()]);
    assert_eq!(
        outcome.context_updates["human.gate.selected"],
        json!("freeform")
    );
    assert_eq!(
        outcome.context_updates["human.gate.text"],
        json!("add a changelog")
    );
    assert!(outcome.notes.contains("add a changelog") && outcome.notes.contains("[O] Other"));
    assert!(
        matches!(&events[1], Event::InterviewAnswered { selected, .. } if selected == "freeform")
    );
    assert_eq!(
        record["answer"],
        json!({"type": "freeform", "value": "add a changelog"})
    );
    Ok(())
}

#[tokio::test]
async fn gate_takes_the_default_on_timeout() -> TestResult {
    let gate = Gate::new()?;
    let mut q = question(choices(GATE)?);
    q.timeout = Some(Duration::from_secs(30));
    q.default_choice = Some("R".into());
    let queue = QueueInterviewer::new();
    let (outcome, events, record) = gate.run(&q, &queue, &CancellationToken::new()).await?;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(outcome.suggested_next_ids, vec!["fix".to_string()]);
    assert_eq!(outcome.context_updates["human.gate.selected"], json!("R"));
    assert!(outcome.notes.contains("30s"), "{}", outcome.notes);
    let timed_out = Event::InterviewTimedOut {
        default_choice: Some("R".into()),
    };
    assert_eq!(events, vec![started(&q), timed_out]);
    assert_eq!(gate.clock.sleeps(), vec![Duration::from_secs(30)]);
    assert!(
        queue.pending().is_empty(),
        "the timed-out question left the queue"
    );
    assert_eq!(record["result"], json!("timed_out"));
    assert_eq!(record["default_taken"], json!(true));
    Ok(())
}

#[tokio::test]
async fn gate_fails_on_timeout_without_default() -> TestResult {
    let gate = Gate::new()?;
    let mut q = question(choices(GATE)?);
    q.timeout = Some(Duration::from_secs(30));
    let (outcome, events, _) = gate
        .run(&q, &QueueInterviewer::new(), &CancellationToken::new())
        .await?;
    assert_eq!(outcome.status, StageStatus::Fail);
    assert_eq!(outcome.failure_class, Some(FailureClass::Timeout));
    assert_eq!(
        outcome.failure_reason.as_deref(),
        Some("gate: no answer within 30s and no human.default_choice")
    );
    assert_eq!(
        events[1],
        Event::InterviewTimedOut {
            default_choice: None
        }
    );
    Ok(())
}

#[tokio::test]
async fn gate_stops_when_cancelled() -> TestResult {
    let gate = Gate::new()?;
    let q = question(choices(GATE)?);
    let cancel = CancellationToken::new();
    cancel.cancel();
    let (outcome, events, record) = gate.run(&q, &QueueInterviewer::new(), &cancel).await?;
    assert_eq!(outcome.failure_class, Some(FailureClass::Cancelled));
    assert_eq!(events, vec![started(&q)]);
    assert_eq!(record["result"], json!("cancelled"));
    Ok(())
}

#[tokio::test]
async fn gate_without_anyone_to_answer() -> TestResult {
    let gate = Gate::new()?;
    let mut q = question(choices(GATE)?);
    let closed = QueueInterviewer::new();
    closed.close();
    let (outcome, _, _) = gate.run(&q, &closed, &CancellationToken::new()).await?;
    assert_eq!(outcome.failure_class, Some(FailureClass::Setup));
    let reason = outcome.failure_reason.unwrap_or_default();
    assert!(
        reason.starts_with("gate:") && reason.contains("--auto-approve"),
        "{reason}"
    );

    q.default_choice = Some("abort".into());
    let (outcome, events, _) = gate.run(&q, &closed, &CancellationToken::new()).await?;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(outcome.suggested_next_ids, vec!["abort".to_string()]);
    assert!(matches!(&events[1], Event::Warning { message } if message.contains("[X] Abort")));
    Ok(())
}

#[tokio::test]
async fn gate_fails_on_an_unknown_answer() -> TestResult {
    let gate = Gate::new()?;
    let q = question(choices(GATE)?);
    let answer = Fixed(Answer::Choice("Z".into()));
    let (outcome, events, record) = gate.run(&q, &answer, &CancellationToken::new()).await?;
    assert_eq!(outcome.failure_class, Some(FailureClass::Deterministic));
    assert!(
        outcome
            .failure_reason
            .unwrap_or_default()
            .contains("unknown choice `Z`")
    );
    assert_eq!(events.len(), 1);
    assert_eq!(record["result"], json!("invalid"));
    Ok(())
}
