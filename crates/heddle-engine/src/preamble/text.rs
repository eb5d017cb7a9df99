//! Text shaping for the preamble: counting, cutting and clipping by characters (never
//! inside one), flattening to one line, and fenced blocks that no backtick run can close.

use std::fmt::Write as _;

/// The length of `text` in characters.
pub(super) fn chars(text: &str) -> usize {
    text.chars().count()
}

/// The first `limit` characters, and the total count when that cut something.
pub(super) fn keep_head(text: &str, limit: usize) -> (&str, Option<usize>) {
    match text.char_indices().nth(limit) {
        Some((at, _)) => (&text[..at], Some(chars(text))),
        None => (text, None),
    }
}

/// The last `limit` characters, and the total count when that cut something.
pub(super) fn keep_tail(text: &str, limit: usize) -> (&str, Option<usize>) {
    let total = chars(text);
    if total <= limit {
        return (text, None);
    }
    let at = text
        .char_indices()
        .nth(total - limit)
        .map_or(text.len(), |(at, _)| at);
    (&text[at..], Some(total))
}

/// At most `limit` characters of `text`, with a note of how many were cut.
pub(super) fn clip(text: &str, limit: usize) -> String {
    match keep_head(text, limit) {
        (kept, Some(total)) => format!("{kept}… [{} more chars cut]", total - chars(kept)),
        (kept, None) => kept.to_string(),
    }
}

/// `text` on one line (line breaks become spaces), clipped to `limit`.
pub(super) fn one_line(text: &str, limit: usize) -> String {
    clip(
        &text.split_whitespace().collect::<Vec<_>>().join(" "),
        limit,
    )
}

/// Appends `text` to `out` as a fenced block, each line starting with `indent` (empty lines
/// stay empty); the fence is longer than any run of backticks inside the text.
pub(super) fn write_fenced(out: &mut String, indent: &str, text: &str) {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    let _ = writeln!(out, "{indent}{fence}");
    for line in text.lines() {
        match line {
            "" => out.push('\n'),
            line => {
                let _ = writeln!(out, "{indent}{line}");
            }
        }
    }
    let _ = writeln!(out, "{indent}{fence}");
}
