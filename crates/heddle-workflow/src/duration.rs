//! Durations as the dialect writes them: `250ms`, `30s`, `15m`, `2h`, `1d`, and sums of
//! those written together (`1h30m`).

/// Why a duration does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Nothing was written.
    #[error("empty duration")]
    Empty,
    /// A number without a unit, e.g. `30`.
    #[error("`{0}` has no unit; write e.g. `{0}s` or `{0}ms`")]
    MissingUnit(String),
    /// A unit that is not one of `ms s m h d`.
    #[error("unknown duration unit `{unit}` in `{text}`; use ms, s, m, h or d")]
    UnknownUnit {
        /// The whole duration as written, e.g. `5x`.
        text: String,
        /// The unit letters that are not one of `ms s m h d`, e.g. `x`.
        unit: String,
    },
    /// Something other than digits where a number should be.
    #[error("`{0}` is not a duration; write a whole number and a unit, e.g. `30s`")]
    Malformed(String),
    /// The value does not fit in 64 bits of milliseconds.
    #[error("duration `{0}` is too large")]
    Overflow(String),
}

/// Milliseconds per unit.
fn unit_millis(unit: &str) -> Option<u64> {
    match unit {
        "ms" => Some(1),
        "s" => Some(1_000),
        "m" => Some(60_000),
        "h" => Some(3_600_000),
        "d" => Some(86_400_000),
        _ => None,
    }
}

/// Parses a duration into milliseconds. Surrounding whitespace is ignored; units are
/// lowercase ASCII.
pub fn parse_duration(text: &str) -> Result<u64, DurationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(DurationError::Empty);
    }
    let bytes = trimmed.as_bytes();
    let mut total: u64 = 0;
    let mut i = 0;
    while i < bytes.len() {
        let digits_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == digits_start {
            return Err(DurationError::Malformed(trimmed.to_owned()));
        }
        let number: u64 = trimmed[digits_start..i]
            .parse()
            .map_err(|_| DurationError::Overflow(trimmed.to_owned()))?;
        let unit_start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        let unit = &trimmed[unit_start..i];
        if unit.is_empty() {
            if i == bytes.len() {
                return Err(DurationError::MissingUnit(trimmed.to_owned()));
            }
            return Err(DurationError::Malformed(trimmed.to_owned()));
        }
        let Some(factor) = unit_millis(unit) else {
            return Err(DurationError::UnknownUnit {
                text: trimmed.to_owned(),
                unit: unit.to_owned(),
            });
        };
        total = number
            .checked_mul(factor)
            .and_then(|ms| total.checked_add(ms))
            .ok_or_else(|| DurationError::Overflow(trimmed.to_owned()))?;
    }
    Ok(total)
}

/// A bare whole number (`900`, ` 300 `) read as seconds, as Fabro reads it; `None` for
/// anything else. The `duration_unit` lint rule suggests writing the unit.
pub fn bare_seconds(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok()?.checked_mul(1_000)
}

/// Formats milliseconds with the largest units that divide it exactly, e.g. `90000` as
/// `1m30s`, `250` as `250ms`, `0` as `0ms`.
pub fn format_duration(millis: u64) -> String {
    if millis == 0 {
        return "0ms".to_owned();
    }
    let mut rest = millis;
    let mut out = String::new();
    for (unit, factor) in [
        ("d", 86_400_000),
        ("h", 3_600_000),
        ("m", 60_000),
        ("s", 1_000),
        ("ms", 1),
    ] {
        let count = rest / factor;
        if count > 0 {
            out.push_str(&count.to_string());
            out.push_str(unit);
            rest -= count * factor;
        }
    }
    out
}
