//! Fidelity modes: how much of the run's history a stage's prompt carries.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How much prior context an LLM stage sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fidelity {
    /// No preamble: the stage continues the same conversation thread.
    #[serde(rename = "full")]
    Full,
    /// Nested bullets per stage with handler details (the default).
    #[serde(rename = "compact")]
    Compact,
    /// A detailed Markdown report per stage.
    #[serde(rename = "summary:high")]
    SummaryHigh,
    /// Outcomes and notable findings.
    #[serde(rename = "summary:medium")]
    SummaryMedium,
    /// One line per stage.
    #[serde(rename = "summary:low")]
    SummaryLow,
    /// Only the goal and the run id.
    #[serde(rename = "truncate")]
    Truncate,
}

impl Fidelity {
    /// Every mode, in order of detail.
    pub const ALL: [Fidelity; 6] = [
        Fidelity::Full,
        Fidelity::SummaryHigh,
        Fidelity::Compact,
        Fidelity::SummaryMedium,
        Fidelity::SummaryLow,
        Fidelity::Truncate,
    ];

    /// The name as written in DOT.
    pub fn as_str(self) -> &'static str {
        match self {
            Fidelity::Full => "full",
            Fidelity::Compact => "compact",
            Fidelity::SummaryHigh => "summary:high",
            Fidelity::SummaryMedium => "summary:medium",
            Fidelity::SummaryLow => "summary:low",
            Fidelity::Truncate => "truncate",
        }
    }

    /// Reads a mode name (trimmed, without case).
    pub fn parse(text: &str) -> Option<Fidelity> {
        let text = text.trim();
        Self::ALL
            .into_iter()
            .find(|f| f.as_str().eq_ignore_ascii_case(text))
    }
}

impl fmt::Display for Fidelity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
