//! Stage outcome names: Attractor's and Fabro's spellings.

/// The canonical outcome names.
pub const OUTCOMES: &[&str] = &["success", "fail", "partial_success", "retry", "skipped"];

/// Fabro's spellings and the canonical names they stand for.
pub const OUTCOME_ALIASES: &[(&str, &str)] = &[
    ("succeeded", "success"),
    ("failed", "fail"),
    ("partially_succeeded", "partial_success"),
];

/// The canonical name of an outcome written either way (compared without case), or `None`
/// when `name` is not an outcome.
pub fn canonical_outcome(name: &str) -> Option<&'static str> {
    let name = name.trim();
    if let Some(canonical) = OUTCOMES.iter().find(|o| o.eq_ignore_ascii_case(name)) {
        return Some(canonical);
    }
    OUTCOME_ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
        .map(|(_, canonical)| *canonical)
}

/// Fabro's failure class names and the Heddle classes each stands for in a condition
/// (`failure_class=transient_infra` holds after a transient failure or a timeout).
pub const FAILURE_CLASS_ALIASES: &[(&str, &[&str])] = &[
    ("transient_infra", &["transient", "timeout"]),
    ("canceled", &["cancelled"]),
    ("deterministic", &["setup", "schema"]),
    ("budget_exhausted", &[]),
    ("compilation_loop", &[]),
    ("structural", &[]),
];

/// Whether a failure class `actual` (as the context holds it) is what a condition's
/// `expected` names: the same name (without case), or a Fabro name standing for it.
pub fn failure_class_matches(actual: &str, expected: &str) -> bool {
    let (actual, expected) = (actual.trim(), expected.trim());
    actual.eq_ignore_ascii_case(expected)
        || FAILURE_CLASS_ALIASES.iter().any(|(fabro, heddle)| {
            fabro.eq_ignore_ascii_case(expected)
                && heddle.iter().any(|h| h.eq_ignore_ascii_case(actual))
        })
}
