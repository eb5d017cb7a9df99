//! System notifications about the runs the desktop executes, shown while the window is not
//! focused: a human gate starts waiting, a run finishes, fails or stops over its budget.
//! [`RunNotices`] decides from the run events alone (pure, tested); [`spawn`] feeds it every
//! event of the window's [`RunHost`] and shows what it decides through the notification
//! plugin. The host is where the desktop sees every run's events, whichever screen the UI
//! shows; the UI only follows the run it displays.

use std::collections::{HashMap, HashSet};

use heddle_api::RunHost;
use heddle_engine::{Envelope, Event};
use tauri::Manager;
use tauri_plugin_notification::NotificationExt;
use tokio::sync::broadcast::error::RecvError;

/// The longest failure reason or question put in a notification's body, in characters.
const BODY_CHARS: usize = 200;

/// One notification: its title and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunNotice {
    /// The first line, naming the workflow and what happened.
    pub title: String,
    /// The detail: the question asked, why the run failed.
    pub body: String,
}

/// Decides which run events become notifications. It remembers each run's workflow name
/// (from `run.started`) to title them, and which runs already said they stopped over budget
/// (their end is then not announced again).
#[derive(Debug, Default)]
pub struct RunNotices {
    workflows: HashMap<String, String>,
    over_budget: HashSet<String>,
}

impl RunNotices {
    /// The notification `envelope` deserves, if any.
    pub fn on_event(&mut self, envelope: &Envelope) -> Option<RunNotice> {
        let run = envelope.run_id.as_str();
        if let Event::RunStarted { workflow, .. } = &envelope.event {
            self.workflows.insert(run.to_owned(), workflow.clone());
            self.over_budget.remove(run);
            return None;
        }
        let workflow = self.workflows.get(run).map_or(run, String::as_str);
        let notice = match &envelope.event {
            Event::InterviewStarted { question, .. } => Some(RunNotice {
                title: format!("{workflow} is waiting for you"),
                body: match &envelope.node_id {
                    Some(node) => format!("{node}: {}", shortened(question)),
                    None => shortened(question),
                },
            }),
            Event::RunCompleted {
                stages,
                duration_ms,
            } => Some(RunNotice {
                title: format!("{workflow} finished"),
                body: format!(
                    "{stages} {} in {}.",
                    if *stages == 1 { "stage" } else { "stages" },
                    duration(*duration_ms)
                ),
            }),
            Event::RunFailed { reason, .. } if !self.over_budget.contains(run) => Some(RunNotice {
                title: format!("{workflow} failed"),
                body: shortened(reason),
            }),
            Event::RunBudgetExceeded {
                cost_usd, tokens, ..
            } => Some(RunNotice {
                title: format!("{workflow} stopped over its budget"),
                body: format!(
                    "It spent ${cost_usd:.2} and {tokens} tokens; resume it with a higher budget."
                ),
            }),
            _ => None,
        };
        if matches!(envelope.event, Event::RunBudgetExceeded { .. }) {
            self.over_budget.insert(run.to_owned());
        }
        if envelope.event.ends_run() {
            self.workflows.remove(run);
            self.over_budget.remove(run);
        }
        notice
    }
}

/// `text` on one line, cut to [`BODY_CHARS`] characters with an ellipsis.
fn shortened(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= BODY_CHARS {
        return line;
    }
    let mut cut: String = line.chars().take(BODY_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// A duration as a person says it: `42 s`, `3 min 5 s`, `2 h 10 min`.
fn duration(ms: u64) -> String {
    let seconds = ms / 1000;
    match seconds {
        0..60 => format!("{seconds} s"),
        60..3600 => format!("{} min {} s", seconds / 60, seconds % 60),
        _ => format!("{} h {} min", seconds / 3600, seconds % 3600 / 60),
    }
}

/// Shows a notification for each run event of `host` that deserves one, while the main
/// window is not focused, for as long as the app runs.
pub fn spawn<R: tauri::Runtime>(app: tauri::AppHandle<R>, host: &RunHost) {
    let mut events = host.subscribe();
    tauri::async_runtime::spawn(async move {
        let mut notices = RunNotices::default();
        loop {
            let envelope = match events.recv().await {
                Ok(envelope) => envelope,
                // Fallen behind a burst of output: the events lost were not the rare
                // ones notified about, or, if they were, the run's screen shows them.
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => break,
            };
            let Some(notice) = notices.on_event(&envelope) else {
                continue;
            };
            let focused = app
                .get_webview_window("main")
                .and_then(|window| window.is_focused().ok())
                .unwrap_or(false);
            if !focused {
                // Best effort: with no notification service there is nobody to tell.
                let _ = app
                    .notification()
                    .builder()
                    .title(notice.title)
                    .body(notice.body)
                    .show();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use heddle_engine::StageStatus;

    use super::*;

    fn envelope(run: &str, node: Option<&str>, event: Event) -> Envelope {
        Envelope {
            id: "E".into(),
            ts: "2026-01-01T00:00:00.000Z".into(),
            run_id: run.into(),
            seq: 1,
            node_id: node.map(str::to_owned),
            event,
        }
    }

    fn started(run: &str, workflow: &str) -> Envelope {
        envelope(
            run,
            None,
            Event::RunStarted {
                workflow: workflow.into(),
                goal: None,
                work_dir: "/w".into(),
                run_dir: "/r".into(),
                dry_run: false,
                resumed: false,
                max_cost_usd: None,
                max_tokens: None,
            },
        )
    }

    fn notice(title: &str, body: &str) -> Option<RunNotice> {
        Some(RunNotice {
            title: title.into(),
            body: body.into(),
        })
    }

    #[test]
    fn a_waiting_gate_names_the_workflow_the_node_and_the_question() {
        let mut notices = RunNotices::default();
        assert_eq!(notices.on_event(&started("R1", "ReviewGate")), None);
        let asked = envelope(
            "R1",
            Some("review"),
            Event::InterviewStarted {
                question: "Approve the notes?".into(),
                choices: vec!["Approve".into(), "Revise".into()],
                question_id: "q1".into(),
            },
        );
        assert_eq!(
            notices.on_event(&asked),
            notice(
                "ReviewGate is waiting for you",
                "review: Approve the notes?"
            )
        );
    }

    #[test]
    fn a_finished_run_says_how_many_stages_and_how_long() {
        let mut notices = RunNotices::default();
        notices.on_event(&started("R1", "Hello"));
        let done = Event::RunCompleted {
            duration_ms: 185_000,
            stages: 4,
        };
        assert_eq!(
            notices.on_event(&envelope("R1", None, done)),
            notice("Hello finished", "4 stages in 3 min 5 s.")
        );
    }

    #[test]
    fn a_failed_run_gives_its_reason_on_one_short_line() {
        let mut notices = RunNotices::default();
        notices.on_event(&started("R1", "Build"));
        let reason = format!("stage `test` failed:\n{}", "x".repeat(500));
        let failed = Event::RunFailed {
            reason,
            duration_ms: 1,
        };
        let got = notices.on_event(&envelope("R1", None, failed)).unwrap();
        assert_eq!(got.title, "Build failed");
        assert!(
            got.body.starts_with("stage `test` failed: xxx"),
            "{}",
            got.body
        );
        assert_eq!(got.body.chars().count(), BODY_CHARS);
        assert!(got.body.ends_with('…'));
    }

    #[test]
    fn a_run_over_budget_is_announced_once() {
        let mut notices = RunNotices::default();
        notices.on_event(&started("R1", "Loop"));
        let over = Event::RunBudgetExceeded {
            cost_usd: 5.123,
            tokens: 90_000,
            max_cost_usd: Some(5.0),
            max_tokens: None,
            next_node: "work".into(),
        };
        assert_eq!(
            notices.on_event(&envelope("R1", None, over)),
            notice(
                "Loop stopped over its budget",
                "It spent $5.12 and 90000 tokens; resume it with a higher budget."
            )
        );
        let failed = Event::RunFailed {
            reason: "over budget".into(),
            duration_ms: 1,
        };
        assert_eq!(notices.on_event(&envelope("R1", None, failed)), None);
    }

    #[test]
    fn progress_answers_and_cancellations_are_not_notified() {
        let mut notices = RunNotices::default();
        notices.on_event(&started("R1", "Hello"));
        for event in [
            Event::StageStarted {
                kind: "command".into(),
                visit: 1,
                attempt: 1,
                branch: None,
                stage_dir: None,
            },
            Event::InterviewAnswered {
                selected: "A".into(),
                label: None,
                text: None,
            },
            Event::RunEndedWithoutEdge {
                status: StageStatus::Success,
                message: "m".into(),
            },
            Event::RunCancelled {
                reason: "cancelled through the API".into(),
                duration_ms: 1,
            },
        ] {
            assert_eq!(
                notices.on_event(&envelope("R1", Some("n"), event.clone())),
                None,
                "{event:?}"
            );
        }
    }

    #[test]
    fn a_run_whose_start_was_not_seen_is_named_by_its_id() {
        let mut notices = RunNotices::default();
        let done = Event::RunCompleted {
            duration_ms: 42_000,
            stages: 1,
        };
        assert_eq!(
            notices.on_event(&envelope("01RUN", None, done)),
            notice("01RUN finished", "1 stage in 42 s.")
        );
    }

    #[test]
    fn each_run_keeps_its_own_name() {
        let mut notices = RunNotices::default();
        notices.on_event(&started("R1", "One"));
        notices.on_event(&started("R2", "Two"));
        let failed = |run| {
            envelope(
                run,
                None,
                Event::RunFailed {
                    reason: "boom".into(),
                    duration_ms: 1,
                },
            )
        };
        assert_eq!(
            notices.on_event(&failed("R2")),
            notice("Two failed", "boom")
        );
        assert_eq!(
            notices.on_event(&failed("R1")),
            notice("One failed", "boom")
        );
    }
}
