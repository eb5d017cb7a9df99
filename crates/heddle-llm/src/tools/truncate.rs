//! Shortening tool output for the model: the head and the tail are kept, and a note in
//! the middle says how much was left out and how to see less at a time.

use super::specs::Tool;

/// What the note suggests for `tool`'s output (`None`: an unknown tool).
pub(crate) fn hint_for(tool: Option<Tool>) -> &'static str {
    match tool {
        Some(Tool::ReadFile) => "use read_file with offset and limit to read a smaller range",
        Some(Tool::Shell) => {
            "narrow the command (for example pipe it through grep, head or tail) or use \
             read_file with offset/limit"
        }
        Some(Tool::Grep) => "narrow the pattern, path or glob, or lower max_results",
        Some(Tool::Glob) => "narrow the pattern or the path",
        Some(Tool::WriteFile | Tool::EditFile) | None => "ask for less at a time",
    }
}

/// `text` unchanged when it has at most `limit` characters; otherwise its first and last
/// characters with a note between, `limit` characters in all (the note alone may exceed a
/// very small limit). Never cuts inside a UTF-8 character.
pub(crate) fn truncate_middle(text: &str, limit: usize, hint: &str) -> String {
    let total = text.chars().count();
    if total <= limit {
        return text.to_string();
    }
    let note = |omitted: usize| {
        format!(
            "\n[... {omitted} characters omitted: output was longer than {limit} characters; \
             {hint} ...]\n"
        )
    };
    // The note is longest when the most is omitted; size the kept parts for that.
    let budget = limit.saturating_sub(note(total).chars().count());
    let head_chars = budget / 2;
    let tail_chars = budget - head_chars;
    let head_end = text
        .char_indices()
        .nth(head_chars)
        .map_or(text.len(), |(i, _)| i);
    let tail_start = if tail_chars == 0 {
        text.len()
    } else {
        text.char_indices()
            .rev()
            .nth(tail_chars - 1)
            .map_or(0, |(i, _)| i)
    };
    let omitted = total - head_chars - tail_chars;
    format!(
        "{}{}{}",
        &text[..head_end],
        note(omitted),
        &text[tail_start..]
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn short_text_is_unchanged() {
        assert_eq!(truncate_middle("héllo", 5, "h"), "héllo");
    }

    #[test]
    fn long_text_keeps_head_and_tail_within_the_limit() {
        let text = format!("{}{}{}", "é".repeat(500), "x".repeat(5000), "ü".repeat(500));
        let cut = truncate_middle(&text, 400, "read less");
        assert!(cut.chars().count() <= 400, "{}", cut.chars().count());
        assert!(cut.starts_with("éé"));
        assert!(cut.ends_with("üü"));
        assert!(cut.contains("characters omitted: output was longer than 400 characters"));
        assert!(cut.contains("read less"));
        let kept = cut.chars().filter(|c| *c == 'é' || *c == 'ü').count();
        let omitted: usize = cut
            .split("[... ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(kept + omitted, 6000);
    }

    #[test]
    fn tiny_limit_still_says_what_happened() {
        let cut = truncate_middle(&"a".repeat(100), 3, "h");
        assert!(cut.contains("100 characters omitted"));
    }
}
