//! A run's budget: the most it may spend (`max_cost_usd`) and the most tokens its LLM calls
//! may use (`max_tokens`), and what the run has spent so far. A run over its budget stops at
//! the next stage boundary (the stage that crossed it finishes and is checkpointed first).
//!
//! The limits come from the caller (the CLI's `--max-cost` / `--max-tokens`, the run config)
//! and, for each limit the caller leaves unset, from the graph's attribute of the same name.
//! A resume takes the limits it is given, not the ones the run stopped under; each start and
//! resume records the limits in force in its `run.started` event.

use heddle_workflow::{Attrs, Value, Workflow};

use crate::checkpoint::StageRecord;

/// The limits of one run; `None`: no limit.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Budget {
    /// The most the run's LLM calls may cost, in US dollars.
    pub max_cost_usd: Option<f64>,
    /// The most input plus output tokens the run's LLM calls may use.
    pub max_tokens: Option<u64>,
}

/// What a run has spent so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    /// The summed cost of the stages whose price was known, in US dollars.
    pub cost_usd: f64,
    /// Input plus output tokens of every stage.
    pub tokens: u64,
}

impl Spent {
    /// What the stages of `timeline` spent.
    pub fn of(timeline: &[StageRecord]) -> Self {
        timeline.iter().fold(Spent::default(), Spent::plus)
    }

    /// This plus what `stage` spent (a running total kept as stages finish).
    pub fn plus(self, stage: &StageRecord) -> Self {
        Spent {
            cost_usd: self.cost_usd + stage.cost_usd.unwrap_or(0.0),
            tokens: self.tokens
                + stage
                    .usage
                    .map_or(0, |u| u.input_tokens.saturating_add(u.output_tokens)),
        }
    }
}

impl Budget {
    /// These limits, with each one left unset taken from `other` (flags over a config).
    pub fn or(self, other: Budget) -> Budget {
        Budget {
            max_cost_usd: self.max_cost_usd.or(other.max_cost_usd),
            max_tokens: self.max_tokens.or(other.max_tokens),
        }
    }

    /// These limits, with each one left unset taken from the graph's attribute
    /// (`max_cost_usd`, `max_tokens`).
    pub fn over_graph(self, workflow: &Workflow) -> Budget {
        let graph_cost = workflow.attr("max_cost_usd").and_then(|e| match e.value {
            Value::Float(n) => Some(n),
            Value::Integer(n) => Some(n as f64),
            _ => None,
        });
        let graph_tokens = workflow
            .attr_int("max_tokens")
            .and_then(|n| u64::try_from(n).ok());
        Budget {
            max_cost_usd: self.max_cost_usd.or(graph_cost),
            max_tokens: self.max_tokens.or(graph_tokens),
        }
    }

    /// Why `spent` is over these limits (reaching a limit exactly is not over it), or `None`.
    pub fn exceeded(&self, spent: Spent) -> Option<String> {
        if let Some(limit) = self.max_cost_usd
            && spent.cost_usd > limit
        {
            return Some(format!(
                "budget exceeded: the run spent ${:.4}, over its max_cost_usd of ${limit:.4}",
                spent.cost_usd
            ));
        }
        if let Some(limit) = self.max_tokens
            && spent.tokens > limit
        {
            return Some(format!(
                "budget exceeded: the run used {} tokens, over its max_tokens of {limit}",
                spent.tokens
            ));
        }
        None
    }
}
