//! The live terminal view of a run: the stage list with statuses, the current stage with a
//! spinner and its elapsed time, redrawn in place on a terminal by `indicatif` with every row
//! cut to the terminal's width (so no row wraps and garbles the redraw); one line per event
//! otherwise.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

use heddle_api::telemetry::console as log_console;
use heddle_engine::event::Stream;
use heddle_engine::{Envelope, Event, StageStatus};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Stage rows the redrawn block shows (the newest).
const MAX_ROWS: usize = 15;
/// The width assumed when the terminal does not say.
const DEFAULT_WIDTH: usize = 80;

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
    /// The block drawn in place; `None` without a terminal or while an interview asks.
    block: Option<ProgressBar>,
    /// While the block is drawn, log lines are written with it cleared and then redrawn.
    logs_around_block: Option<log_console::Hold>,
    tick: usize,
    paused: bool,
    last_output: BTreeMap<String, String>,
}

impl LiveView {
    /// A view titled `title`; `redraw` on a terminal.
    pub fn new(title: String, redraw: bool) -> Self {
        let mut view = LiveView {
            title,
            redraw,
            started: Instant::now(),
            lines: Vec::new(),
            block: None,
            logs_around_block: None,
            tick: 0,
            paused: false,
            last_output: BTreeMap::new(),
        };
        view.show_block();
        view
    }

    /// Draws the block (on a terminal), with log lines written around it.
    fn show_block(&mut self) {
        if self.redraw && self.block.is_none() {
            let block = new_block();
            let shown = block.clone();
            self.logs_around_block = Some(log_console::hold(std::sync::Arc::new(move |write| {
                shown.suspend(&mut *write)
            })));
            self.block = Some(block);
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
                // The block stays as drawn; the questions are asked below it.
                self.leave_on_screen();
                self.paused = true;
            }
            Event::InterviewAnswered { .. } | Event::InterviewTimedOut { .. } => {
                self.paused = false;
                self.show_block();
            }
            Event::AgentText { text, simulated } if !self.redraw => {
                let mark = if *simulated { " (simulated)" } else { "" };
                let _ = writeln!(
                    out,
                    "  💬{mark} {}",
                    truncate(text.lines().next().unwrap_or(""), 120)
                );
            }
            Event::Warning { message } => match &self.block {
                Some(block) => block.suspend(|| {
                    let _ = writeln!(out, "warning: {message}");
                }),
                None => {
                    let _ = writeln!(out, "warning: {message}");
                }
            },
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

    /// Leaves the block on the screen as last drawn; what is written next goes below it.
    pub fn leave_on_screen(&mut self) {
        self.logs_around_block = None;
        if let Some(block) = self.block.take() {
            block.abandon();
        }
    }

    /// Redraws the block (spinner frame advances); a no-op without a terminal. The block
    /// is drawn on stderr, whatever `_out` is.
    pub fn draw(&mut self, _out: &mut dyn Write) {
        if self.paused || self.block.is_none() {
            return;
        }
        self.tick += 1;
        let width = console::Term::stderr()
            .size_checked()
            .map_or(DEFAULT_WIDTH, |(_, columns)| usize::from(columns));
        let message = fit_to_width(&self.rows(), width);
        if let Some(block) = &self.block {
            block.set_message(message);
        }
    }

    /// The rows of the block, uncut.
    fn rows(&self) -> Vec<String> {
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
        rows
    }
}

/// A block drawn in place on stderr, showing its message as it is.
fn new_block() -> ProgressBar {
    let block = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{msg}") {
        block.set_style(style);
    }
    block
}

/// `rows` joined by newlines, each cut to `width` columns (with `…`) so none wraps.
fn fit_to_width(rows: &[String], width: usize) -> String {
    rows.iter()
        .map(|row| console::truncate_str(row, width, "…").into_owned())
        .collect::<Vec<_>>()
        .join("\n")
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn a_long_stage_row_is_cut_to_the_terminal_width() {
        let long = format!(
            "  ✓ {:<20} {:<12} {}",
            "implement",
            "agent",
            "x".repeat(200)
        );
        let rows = vec!["plan · run 01 · 3.2s".to_string(), long];
        let fitted = fit_to_width(&rows, 40);
        let lines: Vec<&str> = fitted.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], "plan · run 01 · 3.2s");
        assert_eq!(console::measure_text_width(lines[1]), 40, "{}", lines[1]);
        assert!(lines[1].starts_with("  ✓ implement"), "{}", lines[1]);
        assert!(lines[1].ends_with('…'), "{}", lines[1]);
    }

    #[test]
    fn wide_characters_count_as_two_columns() {
        let fitted = fit_to_width(&["💬💬💬💬💬💬".to_string()], 7);
        assert!(console::measure_text_width(&fitted) <= 7, "{fitted}");
        assert!(fitted.ends_with('…'), "{fitted}");
    }
}
