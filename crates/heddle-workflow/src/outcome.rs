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
