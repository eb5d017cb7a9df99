//! What a stage produced: its status, routing hints and context updates.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// A stage's status (the canonical outcome names of the dialect).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StageStatus {
    /// The stage did its work.
    Success,
    /// The stage failed; failure routing decides what happens next.
    Fail,
    /// Good enough to go on.
    PartialSuccess,
    /// Try the stage again (up to its attempts).
    Retry,
    /// The stage did nothing on purpose.
    Skipped,
}

impl StageStatus {
    /// The canonical name (`success`, `fail`, ...), as conditions compare it.
    pub fn as_str(self) -> &'static str {
        match self {
            StageStatus::Success => "success",
            StageStatus::Fail => "fail",
            StageStatus::PartialSuccess => "partial_success",
            StageStatus::Retry => "retry",
            StageStatus::Skipped => "skipped",
        }
    }

    /// Reads either spelling (`success`/`succeeded`, ...), without case.
    pub fn parse(text: &str) -> Option<StageStatus> {
        match heddle_workflow::canonical_outcome(text)? {
            "success" => Some(StageStatus::Success),
            "fail" => Some(StageStatus::Fail),
            "partial_success" => Some(StageStatus::PartialSuccess),
            "retry" => Some(StageStatus::Retry),
            "skipped" => Some(StageStatus::Skipped),
            _ => None,
        }
    }

    /// Success or partial success: what satisfies a goal gate.
    pub fn is_success(self) -> bool {
        matches!(self, StageStatus::Success | StageStatus::PartialSuccess)
    }

    /// Rank for fan-in (lower is better).
    pub fn rank(self) -> u8 {
        match self {
            StageStatus::Success => 0,
            StageStatus::PartialSuccess => 1,
            StageStatus::Skipped => 2,
            StageStatus::Retry => 3,
            StageStatus::Fail => 4,
        }
    }
}

impl fmt::Display for StageStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a stage failed, for loop detection and for the person reading the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    /// The stage ran and reported failure (non-zero exit, `outcome=fail`).
    Deterministic,
    /// A network, rate-limit or server error that may pass on retry.
    Transient,
    /// The stage ran out of time.
    Timeout,
    /// The output did not match `output_schema`.
    Schema,
    /// The stage could not start (missing interpreter, unreadable prompt file, ...).
    Setup,
    /// The run was cancelled or stalled while the stage ran.
    Cancelled,
}

impl FailureClass {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureClass::Deterministic => "deterministic",
            FailureClass::Transient => "transient",
            FailureClass::Timeout => "timeout",
            FailureClass::Schema => "schema",
            FailureClass::Setup => "setup",
            FailureClass::Cancelled => "cancelled",
        }
    }
}

/// Token counts of LLM calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Usage {
    /// Prompt tokens billed at the full input rate (cache reads and writes are counted
    /// separately below, not here).
    pub input_tokens: u64,
    /// Tokens the model generated, reasoning tokens included.
    pub output_tokens: u64,
    /// Input tokens read from the provider's cache.
    #[serde(default)]
    pub cache_read_tokens: u64,
    /// Input tokens written to the provider's cache.
    #[serde(default)]
    pub cache_write_tokens: u64,
}

impl Usage {
    /// Adds `other` to these counts.
    pub fn add(&mut self, other: &Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cache_read_tokens += other.cache_read_tokens;
        self.cache_write_tokens += other.cache_write_tokens;
    }
}

/// The result of one stage attempt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// How the attempt ended; decides retries, `goal_gate` checks and which edges may follow.
    pub status: StageStatus,
    /// Label of the outgoing edge the stage prefers (human choice, agent directive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_label: Option<String>,
    /// Node ids the stage suggests going to next, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggested_next_ids: Vec<String>,
    /// Keys to merge into the run context.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub context_updates: BTreeMap<String, Json>,
    /// Why the stage failed (or asked to retry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// The failure's class, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_class: Option<FailureClass>,
    /// A short human note on what happened.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Model used (LLM stages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Tokens used (LLM stages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// What the LLM calls cost in US dollars, when the models' prices are known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Files the stage changed, relative to the work dir.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_touched: Vec<String>,
    /// Whether the result came from the simulated (dry-run) backend.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub simulated: bool,
    /// Test artifacts captured from the stage.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub artifacts: usize,
    /// Summary of the JUnit reports the stage left ("41 passed, 1 failed: ...").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junit: Option<String>,
    /// The stage's complete outputs stored as blobs, by file name (`stdout.log` → ref).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub blobs: BTreeMap<String, String>,
}

/// For `skip_serializing_if`: counts of zero are left out.
pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Outcome {
    /// An outcome with `status` and nothing else.
    pub fn new(status: StageStatus) -> Self {
        Outcome {
            status,
            preferred_label: None,
            suggested_next_ids: Vec::new(),
            context_updates: BTreeMap::new(),
            failure_reason: None,
            failure_class: None,
            notes: String::new(),
            model: None,
            usage: None,
            cost_usd: None,
            files_touched: Vec::new(),
            simulated: false,
            artifacts: 0,
            junit: None,
            blobs: BTreeMap::new(),
        }
    }

    /// A success.
    pub fn success() -> Self {
        Self::new(StageStatus::Success)
    }

    /// A failure with its class and reason.
    pub fn fail(class: FailureClass, reason: impl Into<String>) -> Self {
        Outcome {
            failure_reason: Some(reason.into()),
            failure_class: Some(class),
            ..Self::new(StageStatus::Fail)
        }
    }

    /// Adds a context update.
    pub fn with_update(mut self, key: impl Into<String>, value: impl Into<Json>) -> Self {
        self.context_updates.insert(key.into(), value.into());
        self
    }

    /// Sets the note.
    pub fn with_notes(mut self, notes: impl Into<String>) -> Self {
        self.notes = notes.into();
        self
    }
}
