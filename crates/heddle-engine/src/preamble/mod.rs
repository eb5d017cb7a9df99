//! The preamble: what an LLM stage is told about the run so far, at the level of detail its
//! fidelity asks for (see docs/preamble.md). Building it is a pure function of its input.

mod text;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use heddle_workflow::{Attrs, Edge, HandlerKind, Node, Workflow};
use serde_json::Value as Json;

use crate::checkpoint::StageRecord;
use crate::context::keys;
use crate::fidelity::Fidelity;
use crate::outcome::StageStatus;
use crate::rundir::RunDir;

use text::{chars, clip, keep_head, keep_tail, one_line, write_fenced};

/// Reads a stage's saved files (stdout.log, response.md, ...).
pub trait StageOutputs {
    /// The content of `file` in `stage`'s folder, if it exists.
    fn read(&self, stage: &StageRecord, file: &str) -> Option<String>;
}

/// Reads stage files from a run directory.
#[derive(Debug, Clone, Copy)]
pub struct RunDirOutputs<'a>(pub &'a RunDir);

impl StageOutputs for RunDirOutputs<'_> {
    fn read(&self, stage: &StageRecord, file: &str) -> Option<String> {
        read_tail(&self.0.root().join(&stage.stage_dir).join(file))
    }
}

/// How much of the end of a stage file a preamble reads at most (it shows far less).
const READ_LIMIT: u64 = 256 * 1024;

/// The last [`READ_LIMIT`] bytes of a file, decoded leniently: a log with a stray invalid
/// byte still shows, and a huge log is not read whole for every later stage.
fn read_tail(path: &std::path::Path) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    if len > READ_LIMIT {
        file.seek(SeekFrom::Start(len - READ_LIMIT)).ok()?;
    }
    let mut bytes = Vec::new();
    file.take(READ_LIMIT).read_to_end(&mut bytes).ok()?;
    // Cutting mid-character leaves a replacement character at the start at most.
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Everything a preamble is built from.
pub struct PreambleInput<'a> {
    /// The run's goal.
    pub goal: Option<&'a str>,
    /// The run's id, quoted in the preamble.
    pub run_id: &'a str,
    /// The stage's fidelity.
    pub fidelity: Fidelity,
    /// Completed stages, in order: all of them, or the latest [`stages_shown_at_most`].
    pub stages: &'a [StageRecord],
    /// How many completed stages came before `stages` and were left out by the caller.
    pub earlier: usize,
    /// The run's context as the stage starts (the fidelity decides how much is shown).
    pub context: &'a BTreeMap<String, Json>,
    /// Stage files.
    pub outputs: &'a dyn StageOutputs,
}

/// Context keys the stage list already shows (besides `output.*` and internal keys).
pub const INLINE_KEYS: [&str; 10] = [
    keys::OUTCOME,
    keys::PREFERRED_LABEL,
    keys::LAST_STAGE,
    keys::LAST_RESPONSE,
    keys::COMMAND_OUTPUT,
    keys::TOOL_OUTPUT,
    keys::COMMAND_STDERR,
    keys::FAILURE_REASON,
    keys::FAILURE_CLASS,
    keys::FAILURE_SIGNATURE,
];

/// Whether context `key` is listed in a preamble's context section.
pub fn shows_context_key(key: &str) -> bool {
    !keys::is_internal(key) && !INLINE_KEYS.contains(&key) && !key.starts_with("output.")
}

/// Size limits of one mode, in characters: the goal, each command output tail, a script,
/// an LLM response excerpt (0: none), each context value / reason / note, the whole text.
struct Limits {
    goal: usize,
    output: usize,
    script: usize,
    response: usize,
    value: usize,
    total: usize,
}

fn limits(mode: Fidelity) -> Limits {
    let l = |goal, output, script, response, value, total| Limits {
        goal,
        output,
        script,
        response,
        value,
        total,
    };
    match mode {
        Fidelity::SummaryHigh => l(4000, 4000, 2000, 2000, 1500, 100_000),
        Fidelity::SummaryMedium => l(1000, 600, 300, 0, 300, 6000),
        Fidelity::SummaryLow => l(400, 0, 0, 0, 120, 2400),
        _ => l(4000, 1500, 1000, 0, 500, 48_000),
    }
}

/// Fewer characters than any stage's entry in a preamble takes ("- a: fail" and a newline).
const MIN_STAGE_CHARS: usize = 8;

/// The most stages a preamble at `mode` can list: a caller may pass only that many of the
/// latest (and say how many came before), and gets the same text as with all of them.
pub fn stages_shown_at_most(mode: Fidelity) -> usize {
    match mode {
        Fidelity::Full | Fidelity::Truncate => 0,
        _ => limits(mode).total / MIN_STAGE_CHARS + 1,
    }
}

/// The preamble text (empty for `full`), ending with a newline otherwise.
pub fn build_preamble(input: &PreambleInput<'_>) -> String {
    let mode = input.fidelity;
    if mode == Fidelity::Full {
        return String::new();
    }
    let lim = limits(mode);
    let goal = input.goal.map(str::trim).filter(|g| !g.is_empty());
    let goal = goal.map_or_else(|| "(not set)".to_string(), |g| clip(g, lim.goal));
    let mut out = format!("Goal: {goal}\nRun: {}\n", input.run_id);
    if mode == Fidelity::Truncate {
        return out;
    }
    let mut context = render_context(input.context, &lim);
    if !context.is_empty() {
        context.insert_str(0, "\n## Context\n");
    }
    out.push_str("\n## Completed stages\n");
    let budget = lim.total.saturating_sub(chars(&out) + chars(&context));
    out.push_str(&fit_stages(input, &lim, budget));
    out.push_str(&context);
    out
}

/// Keeps the latest stages that fit in `budget` characters, noting how many were left out.
/// Stages are rendered from the latest back, only until they no longer all fit: the cost
/// does not grow with the run's length.
fn fit_stages(input: &PreambleInput<'_>, lim: &Limits, budget: usize) -> String {
    let stages = input.stages;
    if stages.is_empty() && input.earlier == 0 {
        return "(none yet)\n".to_string();
    }
    let last = stages.len().checked_sub(1);
    // Latest first.
    let mut chunks = Vec::new();
    let mut total = 0;
    for (i, stage) in stages.iter().enumerate().rev() {
        let chunk = render_stage(input, stage, Some(i) == last, lim);
        total += chars(&chunk);
        chunks.push(chunk);
        if total > budget {
            break;
        }
    }
    if total <= budget && input.earlier == 0 {
        chunks.reverse();
        return chunks.concat();
    }
    let mode = input.fidelity;
    let mut left = budget.saturating_sub(90); // room for the note below
    let mut kept = Vec::new();
    for chunk in &chunks {
        let n = chars(chunk);
        if n > left {
            if kept.is_empty() {
                let cut = clip(chunk.trim_end(), left.saturating_sub(40));
                kept.push(format!("{cut}\n"));
            }
            break;
        }
        left -= n;
        kept.push(chunk.clone());
    }
    let omitted = input.earlier + stages.len() - kept.len();
    let mut out = format!("- ({omitted} earlier stages omitted to fit the {mode} budget)\n");
    out.extend(kept.into_iter().rev());
    out
}

fn render_stage(input: &PreambleInput<'_>, s: &StageRecord, last: bool, lim: &Limits) -> String {
    let title = match s.visit {
        0 | 1 => s.node_id.clone(),
        visit => format!("{} (visit {visit})", s.node_id),
    };
    let mut tags = String::new();
    if s.simulated {
        tags.push_str(" (simulated)");
    }
    if let Some(branch) = &s.branch {
        let _ = write!(tags, " [branch {branch}]");
    }
    let (head, indent, with_details) = match input.fidelity {
        Fidelity::SummaryLow => {
            return format!("- {}\n", clip(&format!("{title}: {}{tags}", s.status), 160));
        }
        Fidelity::SummaryMedium => {
            let mut head = format!("- **{title}**: {}{tags}", s.status);
            let detailed = s.status == StageStatus::Fail || last;
            if let (HandlerKind::Human, Some(label), false) = (s.kind, &s.preferred_label, detailed)
            {
                let _ = write!(head, ", chose \"{}\"", one_line(label, lim.value));
            }
            (head, "  ", detailed)
        }
        Fidelity::SummaryHigh => (format!("\n### {title} ({}){tags}", s.status), "", true),
        _ => (format!("- **{title}**: {}{tags}", s.status), "  ", true),
    };
    let mut out = Bullets {
        out: head + "\n",
        indent,
    };
    if with_details {
        out.details(input, s, lim);
    }
    out.out
}

/// Bullets under one stage (or in the context section), each line starting with `indent`.
struct Bullets<'a> {
    out: String,
    indent: &'a str,
}

impl Bullets<'_> {
    fn item(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}- {text}", self.indent);
    }

    /// Handler-specific bullets of one stage.
    fn details(&mut self, input: &PreambleInput<'_>, s: &StageRecord, lim: &Limits) {
        if s.attempts > 1 {
            self.item(&format!("Attempts: {}", s.attempts));
        }
        if let Some(reason) = &s.failure_reason {
            let class = s.failure_class.map(|c| format!(" ({})", c.as_str()));
            let reason = one_line(reason, lim.value);
            self.item(&format!("Failure{}: {reason}", class.unwrap_or_default()));
        }
        let label = s.preferred_label.as_deref().map(|l| one_line(l, lim.value));
        match (s.kind, label) {
            (HandlerKind::Human, label) => self.item(&format!(
                "Choice: {}",
                label.as_deref().unwrap_or("(none recorded)")
            )),
            (_, Some(label)) => self.item(&format!("Preferred next: {label}")),
            _ => {}
        }
        match s.kind {
            HandlerKind::Agent | HandlerKind::Prompt => {
                let mut parts = Vec::new();
                parts.extend(s.model.as_ref().map(|m| format!("Model: {m}")));
                parts.extend(s.usage.map(|u| {
                    let (i, o) = (tokens(u.input_tokens), tokens(u.output_tokens));
                    format!("{i} in / {o} out")
                }));
                if !parts.is_empty() {
                    self.item(&parts.join(", "));
                }
                if !s.files_touched.is_empty() {
                    let shown = s.files_touched.iter().take(20).cloned();
                    let mut files = shown.collect::<Vec<_>>().join(", ");
                    let more = s.files_touched.len().saturating_sub(20);
                    if more > 0 {
                        let _ = write!(files, " (and {more} more)");
                    }
                    self.item(&format!("Files: {files}"));
                }
                if lim.response > 0 {
                    let response = input.outputs.read(s, "response.md");
                    self.block("Response", response.as_deref(), lim.response, false);
                }
            }
            HandlerKind::Command => {
                match s.script.as_deref().map(str::trim) {
                    Some(one) if !one.contains(['\n', '`']) && chars(one) <= lim.script => {
                        self.item(&format!("Script: `{one}`"));
                    }
                    script => self.block("Script", script, lim.script, false),
                }
                for (label, file) in [("Stdout", "stdout.log"), ("Stderr", "stderr.log")] {
                    let text = input.outputs.read(s, file);
                    self.block(label, text.as_deref(), lim.output, true);
                }
            }
            _ => {}
        }
        if !s.notes.trim().is_empty() {
            self.item(&format!("Notes: {}", one_line(&s.notes, lim.value)));
        }
    }

    /// A labelled bullet holding `text` in a fenced block: its start (or its end, with
    /// `tail`) up to `limit` characters, the label saying what was cut.
    fn block(&mut self, label: &str, text: Option<&str>, limit: usize, tail: bool) {
        let text = text.map(str::trim_end);
        let (kept, cut) = match text {
            None => return self.item(&format!("{label}: (not recorded)")),
            Some(t) if t.trim().is_empty() => return self.item(&format!("{label}: (empty)")),
            Some(t) if tail => keep_tail(t, limit),
            Some(t) => keep_head(t, limit),
        };
        match cut {
            Some(total) if tail => self.item(&format!("{label} (last {limit} of {total} chars):")),
            Some(total) => self.item(&format!("{label} (first {limit} of {total} chars):")),
            None => self.item(&format!("{label}:")),
        }
        write_fenced(&mut self.out, &format!("{}  ", self.indent), kept);
    }
}

/// The context section's bullets: shown keys in key order, within a third of the budget.
fn render_context(context: &BTreeMap<String, Json>, lim: &Limits) -> String {
    let mut out = String::new();
    let mut omitted = 0;
    for (key, value) in context.iter().filter(|(k, _)| shows_context_key(k)) {
        let mut entry = Bullets {
            out: String::new(),
            indent: "",
        };
        match value {
            Json::String(s) if s.starts_with("file://") => {
                entry.item(&format!(
                    "{key}: (stored in file {})",
                    &s["file://".len()..]
                ));
            }
            Json::String(s) if s.trim_end().contains('\n') => {
                entry.block(key, Some(s), lim.value, false);
            }
            Json::String(s) => entry.item(&format!("{key}: {}", clip(s, lim.value))),
            other => entry.item(&format!("{key}: {}", clip(&other.to_string(), lim.value))),
        }
        if omitted > 0 || chars(&out) + chars(&entry.out) > lim.total / 3 {
            omitted += 1;
        } else {
            out.push_str(&entry.out);
        }
    }
    if omitted > 0 {
        let _ = writeln!(out, "- ({omitted} more keys omitted)");
    }
    out
}

/// A token count as people read it: `950`, `12.4k`, `1.2M`.
pub fn tokens(n: u64) -> String {
    let (tenths, unit) = match n {
        0..1000 => return n.to_string(),
        1000..999_950 => ((n + 50) / 100, "k"),
        _ => ((n + 50_000) / 100_000, "M"),
    };
    match tenths % 10 {
        0 => format!("{}{unit}", tenths / 10),
        d => format!("{}.{d}{unit}", tenths / 10),
    }
}

/// Fidelity of a stage entered through `edge`: edge, then node, then the graph's
/// `default_fidelity`, then `compact`. A value that is not a mode falls through.
pub fn resolve_fidelity(edge: Option<&Edge>, node: &Node, workflow: &Workflow) -> Fidelity {
    [
        edge.and_then(|e| e.attr_str("fidelity")),
        node.attr_str("fidelity"),
        workflow.attr_str("default_fidelity"),
    ]
    .into_iter()
    .flatten()
    .find_map(Fidelity::parse)
    .unwrap_or(Fidelity::Compact)
}

/// The fidelity of the first stage after a resume: `full` needs a conversation that no
/// longer exists, so it drops to `summary:high`; other modes stay.
pub fn fidelity_after_resume(fidelity: Fidelity) -> Fidelity {
    match fidelity {
        Fidelity::Full => Fidelity::SummaryHigh,
        other => other,
    }
}

/// Thread of a stage: edge `thread_id`, then node, then the graph's `default_thread`.
/// Blank values fall through.
pub fn resolve_thread(edge: Option<&Edge>, node: &Node, workflow: &Workflow) -> Option<String> {
    [
        edge.and_then(|e| e.attr_str("thread_id")),
        node.attr_str("thread_id"),
        workflow.attr_str("default_thread"),
    ]
    .into_iter()
    .flatten()
    .map(str::trim)
    .find(|t| !t.is_empty())
    .map(str::to_string)
}
