//! The live terminal view of a run: the stage list with statuses, the current stage with a
//! spinner and its elapsed time, redrawn in place on a terminal; one line per event
//! otherwise.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

use heddle_engine::event::Stream;
use heddle_engine::{Envelope, Event, StageStatus};

/// Stage rows the redrawn block shows (the newest).
const MAX_ROWS: usize = 15;

const SPINNER: [char; 8] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧'];

/// One stage line.
struct Line {
    node: String,
    kind: String,
    state: State,
    started: Instant,
    detail: String,
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    Running,
    Retrying,
    Done(StageStatus),
    Failed,
}

/// Renders events as they come.
pub struct LiveView {
    title: String,
    redraw: bool,
    started: Instant,
    lines: Vec<Line>,
    drawn: usize,
    tick: usize,
    paused: bool,
    last_output: BTreeMap<String, String>,
}

impl LiveView {
    /// A view titled `title`; `redraw` on a terminal.
    pub fn new(title: String, redraw: bool) -> Self {
        LiveView {
            title,
            redraw,
            started: Instant::now(),
            lines: Vec::new(),
            drawn: 0,
            tick: 0,
            paused: false,
            last_output: BTreeMap::new(),
        }
    }

    /// Takes in one event.
    pub fn event(&mut self, envelope: &Envelope, out: &mut dyn Write) {
        let node = envelope.node_id.clone().unwrap_or_default();
        match &envelope.event {
            Event::StageStarted { kind, attempt, .. } => {
                if let Some(line) = self
                    .lines
                    .iter_mut()
                    .rev()
                    .find(|l| l.node == node && l.state == State::Retrying)
                {
                    line.state = State::Running;
                    line.detail = format!("attempt {attempt}");
                } else {
                    self.lines.push(Line {
                        node: node.clone(),
                        kind: kind.clone(),
                        state: State::Running,
                        started: Instant::now(),
                        detail: String::new(),
                    });
                }
                if !self.redraw {
                    let _ = writeln!(out, "▶ {node} ({kind})");
                }
            }
            Event::StageCompleted {
                status,
                duration_ms,
                notes,
                ..
            } => {
                self.finish(
                    &node,
                    State::Done(*status),
                    format!("{} {notes}", ms(*duration_ms)),
                );
                if !self.redraw {
                    let _ = writeln!(out, "✓ {node} {status} in {} {notes}", ms(*duration_ms));
                }
            }
            Event::StageFailed {
                reason,
                duration_ms,
                ..
            } => {
                self.finish(
                    &node,
                    State::Failed,
                    format!("{} {reason}", ms(*duration_ms)),
                );
                if !self.redraw {
                    let _ = writeln!(out, "✗ {node} failed in {}: {reason}", ms(*duration_ms));
                }
            }
            Event::StageRetrying {
                attempt,
                max_attempts,
                delay_ms,
                reason,
            } => {
                if let Some(line) = self.lines.iter_mut().rev().find(|l| l.node == node) {
                    line.state = State::Retrying;
                    line.detail = format!(
                        "retry after {} ({attempt}/{max_attempts}): {reason}",
                        ms(*delay_ms)
                    );
                }
                if !self.redraw {
                    let _ = writeln!(
                        out,
                        "↻ {node} attempt {attempt}/{max_attempts} failed ({reason}); retrying in {}",
                        ms(*delay_ms)
                    );
                }
            }
            Event::EdgeSelected {
                from,
                to,
                reason,
                label,
                ..
            } if !self.redraw => {
                let label = label
                    .as_deref()
                    .map(|l| format!(" [{l}]"))
                    .unwrap_or_default();
                let reason = serde_json::to_value(reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                let _ = writeln!(out, "  {from} → {to}{label} ({reason})");
            }
            Event::RunEndedWithoutEdge { message, .. } => {
                if let Some(line) = self.lines.iter_mut().rev().find(|l| l.node == node) {
                    line.detail = format!("{}; the run ends here (no edge holds)", line.detail);
                }
                if !self.redraw {
                    let _ = writeln!(out, "  ■ {message}");
                }
            }
            Event::CommandOutput { stream, text } => {
                let last = text
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                if !last.is_empty() {
                    self.last_output.insert(node.clone(), truncate(last, 100));
                }
                if !self.redraw {
                    let prefix = if *stream == Stream::Stderr {
                        "  ! "
                    } else {
                        "  │ "
                    };
                    for line in text.lines() {
                        let _ = writeln!(out, "{prefix}{line}");
                    }
                }
            }
            Event::InterviewStarted { .. } => {
                self.draw(out);
                self.paused = true;
                self.drawn = 0;
            }
            Event::InterviewAnswered { .. } | Event::InterviewTimedOut { .. } => {
                self.paused = false
            }
            Event::AgentText { text, simulated } if !self.redraw => {
                let mark = if *simulated { " (simulated)" } else { "" };
                let _ = writeln!(
                    out,
                    "  💬{mark} {}",
                    truncate(text.lines().next().unwrap_or(""), 120)
                );
            }
            Event::Warning { message } => {
                let _ = writeln!(out, "warning: {message}");
            }
            _ => {}
        }
        self.draw(out);
    }

    fn finish(&mut self, node: &str, state: State, detail: String) {
        if let Some(line) = self.lines.iter_mut().rev().find(|l| l.node == node) {
            line.state = state;
            line.detail = detail.trim().to_string();
        }
    }

    /// Redraws the block (spinner frame advances); a no-op without a terminal.
    pub fn draw(&mut self, out: &mut dyn Write) {
        if !self.redraw || self.paused {
            return;
        }
        self.tick += 1;
        let mut text = String::new();
        if self.drawn > 0 {
            text.push_str(&format!("\x1b[{}A", self.drawn));
        }
        let mut rows = vec![format!(
            "{} · {}",
            self.title,
            elapsed(self.started.elapsed())
        )];
        let spinner = SPINNER[self.tick % SPINNER.len()];
        // Cursor movement cannot reach above the screen: keep the block short.
        let hidden = self.lines.len().saturating_sub(MAX_ROWS);
        if hidden > 0 {
            let failed = self.lines[..hidden]
                .iter()
                .filter(|l| l.state == State::Failed)
                .count();
            rows.push(format!(
                "  … {hidden} earlier stage(s){}",
                if failed > 0 {
                    format!(", {failed} failed")
                } else {
                    String::new()
                }
            ));
        }
        for line in &self.lines[hidden..] {
            let (mark, detail) = match line.state {
                State::Running => {
                    let output = self
                        .last_output
                        .get(&line.node)
                        .cloned()
                        .unwrap_or_default();
                    (
                        spinner.to_string(),
                        format!("{} {output}", elapsed(line.started.elapsed())),
                    )
                }
                State::Retrying => ("↻".to_string(), line.detail.clone()),
                State::Done(StageStatus::Success) => ("✓".to_string(), line.detail.clone()),
                State::Done(status) => (format!("✓ {status}"), line.detail.clone()),
                State::Failed => ("✗".to_string(), line.detail.clone()),
            };
            rows.push(format!(
                "  {mark} {:<20} {:<12} {}",
                line.node,
                line.kind,
                truncate(&detail, 90)
            ));
        }
        for row in &rows {
            text.push_str("\x1b[2K");
            text.push_str(row);
            text.push('\n');
        }
        self.drawn = rows.len();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

fn ms(millis: u64) -> String {
    elapsed(Duration::from_millis(millis))
}

/// `850ms`, `12.3s`, `4m05s`.
pub fn elapsed(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis < 1000 {
        format!("{millis}ms")
    } else if millis < 60_000 {
        format!("{:.1}s", duration.as_secs_f64())
    } else {
        let secs = duration.as_secs();
        format!("{}m{:02}s", secs / 60, secs % 60)
    }
}
