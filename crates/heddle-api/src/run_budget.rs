//! A run's budget at the API door: the limits a caller gives (checked once here for every
//! door), laid over the run config's (the engine lays the graph's under both), and the limits
//! a run recorded in its last `run.started` event.

use heddle_engine::Budget;
use serde_json::Value;

use crate::error::{ApiError, ErrorCode};
use crate::run_library::RunLibrary;
use crate::run_types::RunRef;

/// The limits a caller asked for, refused unless each one given is positive.
pub(crate) fn caller_budget(
    max_cost_usd: Option<f64>,
    max_tokens: Option<u64>,
) -> Result<Budget, ApiError> {
    if let Some(cost) = max_cost_usd
        && !(cost.is_finite() && cost > 0.0)
    {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("max_cost_usd must be a positive number of US dollars, not {cost}"),
        ));
    }
    if max_tokens == Some(0) {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "max_tokens must be a positive number of tokens, not 0",
        ));
    }
    Ok(Budget {
        max_cost_usd,
        max_tokens,
    })
}

impl RunLibrary {
    /// The limits the run's latest start or resume ran under, as its `run.started` event
    /// recorded them (no limits for a run that has not started, or was recorded before
    /// Heddle wrote them).
    pub async fn recorded_budget(&self, run: &RunRef) -> Result<Budget, ApiError> {
        let mut feed = self.events(&run.run_id, 0).await?.until_now();
        let mut budget = Budget::default();
        while let Some(batch) = feed.next_batch().await {
            for event in batch? {
                if event["event"] == "run.started" {
                    let properties = &event["properties"];
                    budget = Budget {
                        max_cost_usd: properties.get("max_cost_usd").and_then(Value::as_f64),
                        max_tokens: properties.get("max_tokens").and_then(Value::as_u64),
                    };
                }
            }
        }
        Ok(budget)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_budget_must_be_positive() {
        assert!(caller_budget(Some(0.0), None).is_err());
        assert!(caller_budget(Some(-1.0), None).is_err());
        assert!(caller_budget(Some(f64::NAN), None).is_err());
        assert!(caller_budget(None, Some(0)).is_err());
        let budget = caller_budget(Some(0.5), Some(1000)).unwrap();
        assert_eq!(budget.max_cost_usd, Some(0.5));
        assert_eq!(budget.max_tokens, Some(1000));
        assert_eq!(caller_budget(None, None).unwrap(), Budget::default());
    }
}
