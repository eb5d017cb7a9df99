//! Parallel nodes' `join_policy` (when the branches have done enough) and `error_policy`
//! (what a failing branch does to the others), as Fabro names them: `wait_all`,
//! `first_success`, `k_of_n(N)`, `quorum(F)`; `continue`, `fail_fast`, `ignore`.

use std::fmt;

/// When a parallel node's branches have done enough.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JoinPolicy {
    /// Wait for every branch (the default).
    WaitAll,
    /// Done once one branch succeeded.
    FirstSuccess,
    /// Done once this many branches succeeded (`k_of_n(2)`).
    KOfN(u32),
    /// Done once this fraction of the branches succeeded (`quorum(0.5)`), in (0, 1].
    Quorum(f64),
}

impl JoinPolicy {
    /// Reads `wait_all`, `first_success`, `k_of_n(N)` or `quorum(F)` (without case, spaces
    /// allowed around the parts). The error says what is wrong, for a diagnostic.
    pub fn parse(text: &str) -> Result<JoinPolicy, String> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "wait_all" => return Ok(JoinPolicy::WaitAll),
            "first_success" => return Ok(JoinPolicy::FirstSuccess),
            "k_of_n" => return Err("`k_of_n` needs the number of branches: `k_of_n(2)`".into()),
            "quorum" => {
                return Err("`quorum` needs the fraction of branches: `quorum(0.5)`".into());
            }
            _ => {}
        }
        let Some((name, rest)) = lower.split_once('(') else {
            return Err(format!(
                "`{text}` is not a join policy; write `wait_all`, `first_success`, `k_of_n(N)` or `quorum(F)`"
            ));
        };
        let Some(argument) = rest.trim_end().strip_suffix(')') else {
            return Err(format!("`{text}` lacks its closing `)`"));
        };
        let argument = argument.trim();
        match name.trim() {
            "k_of_n" => match argument.parse::<u32>() {
                Ok(k) if k >= 1 => Ok(JoinPolicy::KOfN(k)),
                _ => Err(format!(
                    "`{text}`: the number of branches must be a whole number of at least 1"
                )),
            },
            "quorum" => match argument.parse::<f64>() {
                Ok(f) if f > 0.0 && f <= 1.0 => Ok(JoinPolicy::Quorum(f)),
                _ => Err(format!(
                    "`{text}`: the fraction must be a number above 0 and at most 1 (`quorum(0.5)`)"
                )),
            },
            _ => Err(format!(
                "`{text}` is not a join policy; write `wait_all`, `first_success`, `k_of_n(N)` or `quorum(F)`"
            )),
        }
    }

    /// How many of `total` branches must succeed: all for `wait_all`, one for
    /// `first_success`, `N` for `k_of_n(N)`, `F × total` rounded up (at least one) for
    /// `quorum(F)`.
    pub fn needed(self, total: usize) -> usize {
        match self {
            JoinPolicy::WaitAll => total,
            JoinPolicy::FirstSuccess => 1,
            JoinPolicy::KOfN(k) => usize::try_from(k).unwrap_or(usize::MAX),
            JoinPolicy::Quorum(fraction) => {
                // total is a branch count (small), so the float product is exact enough;
                // a tiny tolerance keeps 0.3 × 10 at 3.
                let wanted = (fraction * total as f64 - 1e-9).ceil();
                (wanted.max(1.0) as usize).min(total.max(1))
            }
        }
    }

    /// Whether the parallel node stops the other branches once enough succeeded (every
    /// policy but `wait_all`).
    pub fn stops_early(self) -> bool {
        self != JoinPolicy::WaitAll
    }
}

impl fmt::Display for JoinPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinPolicy::WaitAll => f.write_str("wait_all"),
            JoinPolicy::FirstSuccess => f.write_str("first_success"),
            JoinPolicy::KOfN(k) => write!(f, "k_of_n({k})"),
            JoinPolicy::Quorum(q) => write!(f, "quorum({q})"),
        }
    }
}

/// What a failing branch does to a parallel node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorPolicy {
    /// The other branches run on (the default).
    #[default]
    Continue,
    /// The other branches are stopped and the parallel node fails.
    FailFast,
    /// A failed branch counts as a success.
    Ignore,
}

impl ErrorPolicy {
    /// The spellings, in the order the docs list them.
    pub const NAMES: &'static [&'static str] = &["continue", "fail_fast", "ignore"];

    /// Reads one of [`ErrorPolicy::NAMES`] (without case); `None` for anything else.
    pub fn parse(text: &str) -> Option<ErrorPolicy> {
        match text.trim().to_ascii_lowercase().as_str() {
            "continue" => Some(ErrorPolicy::Continue),
            "fail_fast" => Some(ErrorPolicy::FailFast),
            "ignore" => Some(ErrorPolicy::Ignore),
            _ => None,
        }
    }

    /// The spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorPolicy::Continue => "continue",
            ErrorPolicy::FailFast => "fail_fast",
            ErrorPolicy::Ignore => "ignore",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_parse_with_their_parameters() {
        assert_eq!(JoinPolicy::parse("wait_all"), Ok(JoinPolicy::WaitAll));
        assert_eq!(
            JoinPolicy::parse(" First_Success "),
            Ok(JoinPolicy::FirstSuccess)
        );
        assert_eq!(JoinPolicy::parse("k_of_n(2)"), Ok(JoinPolicy::KOfN(2)));
        assert_eq!(JoinPolicy::parse("K_OF_N( 3 )"), Ok(JoinPolicy::KOfN(3)));
        assert_eq!(
            JoinPolicy::parse("quorum(0.5)"),
            Ok(JoinPolicy::Quorum(0.5))
        );
        assert_eq!(JoinPolicy::parse("quorum(1)"), Ok(JoinPolicy::Quorum(1.0)));
        for bad in [
            "k_of_n",
            "quorum",
            "k_of_n(0)",
            "k_of_n(x)",
            "k_of_n(2",
            "quorum(0)",
            "quorum(1.5)",
            "majority",
            "best_of(2)",
        ] {
            assert!(JoinPolicy::parse(bad).is_err(), "{bad} parsed");
        }
        assert!(JoinPolicy::parse("k_of_n").is_err_and(|e| e.contains("k_of_n(2)")));
    }

    #[test]
    fn needed_counts_branches() {
        assert_eq!(JoinPolicy::WaitAll.needed(3), 3);
        assert_eq!(JoinPolicy::FirstSuccess.needed(3), 1);
        assert_eq!(JoinPolicy::KOfN(2).needed(3), 2);
        assert_eq!(JoinPolicy::Quorum(0.5).needed(3), 2);
        assert_eq!(JoinPolicy::Quorum(0.5).needed(4), 2);
        assert_eq!(JoinPolicy::Quorum(0.3).needed(10), 3);
        assert_eq!(JoinPolicy::Quorum(0.01).needed(3), 1);
        assert_eq!(JoinPolicy::Quorum(1.0).needed(3), 3);
        assert_eq!(JoinPolicy::KOfN(2).to_string(), "k_of_n(2)");
        assert_eq!(JoinPolicy::Quorum(0.5).to_string(), "quorum(0.5)");
    }

    #[test]
    fn error_policies_parse() {
        assert_eq!(ErrorPolicy::parse("FAIL_FAST"), Some(ErrorPolicy::FailFast));
        assert_eq!(ErrorPolicy::parse("ignore"), Some(ErrorPolicy::Ignore));
        assert_eq!(ErrorPolicy::parse("continue"), Some(ErrorPolicy::Continue));
        assert_eq!(ErrorPolicy::parse("stop"), None);
        assert_eq!(ErrorPolicy::default(), ErrorPolicy::Continue);
    }
}
