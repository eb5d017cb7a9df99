//! The one-line summary of a report and the headline of a failing case.

use super::{JUnitCase, JUnitReport, SUMMARY_FAILURES, SUMMARY_LINE_CHARS};

/// See [`JUnitReport::summary`].
pub(super) fn summary(report: &JUnitReport) -> String {
    if report.total() == 0 {
        return "no test cases".to_string();
    }
    let mut line = format!("{} passed", report.passed());
    let failed = report.failed();
    if failed > 0 {
        line.push_str(&format!(", {failed} failed"));
    }
    let skipped = report.skipped();
    if skipped > 0 {
        line.push_str(&format!(", {skipped} skipped"));
    }
    let failing: Vec<&JUnitCase> = report.failed_cases().collect();
    if failing.is_empty() {
        return line;
    }
    let named: Vec<String> = failing
        .iter()
        .take(SUMMARY_FAILURES)
        .map(|case| match case.headline() {
            Some(headline) => format!("{} — {headline}", case.id()),
            None => case.id(),
        })
        .collect();
    line.push_str(": ");
    line.push_str(&named.join("; "));
    // Suites without cases add failures that cannot be named; they count as more, too.
    let more = failed.saturating_sub(named.len());
    if more > 0 {
        line.push_str(&format!("; and {more} more"));
    }
    line
}

/// See [`JUnitCase::headline`].
pub(super) fn headline(case: &JUnitCase) -> Option<String> {
    let message = case.message.as_deref().filter(|m| !m.trim().is_empty());
    let from_message = message
        .filter(|m| !restates_title(m, &case.name))
        .and_then(message_line);
    let line = from_message
        .or_else(|| case.text.as_deref().and_then(text_line))
        .or_else(|| message.and_then(first_line))?;
    Some(cut(line, SUMMARY_LINE_CHARS))
}

/// True when a one-line message ends with the test's own title, as Playwright's
/// `home.spec.ts:8:5 shows the title` does: it says where, not why.
fn restates_title(message: &str, name: &str) -> bool {
    let title = name.rsplit(" › ").next().unwrap_or(name).trim();
    let message = message.trim();
    !title.is_empty() && !message.contains('\n') && message.ends_with(title)
}

/// The line of a message to show: a Rust panic's message, else the first line.
fn message_line(message: &str) -> Option<&str> {
    panic_message(message).or_else(|| first_line(message))
}

/// The line of a failure's text to show: the first error line (`Error: …`,
/// `AssertionError: …`, pytest's `E   AssertionError: …`), a Rust panic's message, else
/// the first line.
fn text_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .map(|line| match line.strip_prefix("E ") {
            Some(rest) => rest.trim_start(),
            None => line,
        })
        .find(|line| is_error_line(line))
        .or_else(|| panic_message(text))
        .or_else(|| first_line(text))
}

/// `Error: …`, `TypeError: …`, `java.lang.AssertionError: …`: a word ending in `Error`
/// or `Exception`, then a colon.
fn is_error_line(line: &str) -> bool {
    line.split_once(':').is_some_and(|(kind, _)| {
        !kind.is_empty()
            && !kind.contains(char::is_whitespace)
            && (kind.ends_with("Error") || kind.ends_with("Exception"))
    })
}

/// The message of a Rust panic: the line after `thread 'x' panicked at src/lib.rs:3:5:`,
/// or the panic line itself in the older one-line form (`panicked at 'message', …`).
fn panic_message(text: &str) -> Option<&str> {
    let mut lines = text.lines().map(str::trim);
    let panic_line =
        lines.find(|line| line.starts_with("thread '") && line.contains("' panicked at "))?;
    if !panic_line.ends_with(':') {
        return Some(panic_line);
    }
    Some(lines.find(|line| !line.is_empty()).unwrap_or(panic_line))
}

fn first_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|line| !line.is_empty())
}

/// At most `max` characters, the last one `…` when cut.
fn cut(line: &str, max: usize) -> String {
    if line.chars().count() <= max {
        return line.to_string();
    }
    let kept: String = line.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}
