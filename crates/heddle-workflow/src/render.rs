//! Printing diagnostics the way rustc does.

use heddle_dot::snippet;

use crate::{Diagnostic, Severity};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const BLUE: &str = "\x1b[1;34m";

fn severity_color(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[1;33m",
        Severity::Info => "\x1b[1;36m",
    }
}

/// Renders one diagnostic:
///
/// ```text
/// error[start_node]: the workflow has no start node
///   --> flow.dot:1:9
///    |
///  1 | digraph flow {
///    |         ^^^^
///    = help: add `start [shape=Mdiamond]` with an edge to the first stage
/// ```
///
/// `source` is the workflow's text and `path` the name shown after `-->`. With `color`,
/// ANSI colors as in rustc. The result ends with a newline.
pub fn render_diagnostic(d: &Diagnostic, source: &str, path: &str, color: bool) -> String {
    let paint = |style: &str, text: &str| {
        if color {
            format!("{style}{text}{RESET}")
        } else {
            text.to_owned()
        }
    };
    let mut out = format!(
        "{}: {}\n",
        paint(
            severity_color(d.severity),
            &format!("{}[{}]", d.severity.as_str(), d.rule)
        ),
        paint(BOLD, &printable(&d.message))
    );
    let shown_path = d.file.as_deref().unwrap_or(path);
    let pad = match (d.span, &d.file) {
        (Some(span), None) if span.start <= source.len() => {
            let text = snippet(source, shown_path, span);
            let pad = " ".repeat(span.line.to_string().len());
            for line in text.lines() {
                let line = printable(line);
                let line = line.as_str();
                if color {
                    out.push_str(&color_snippet_line(line, &pad, severity_color(d.severity)));
                } else {
                    out.push_str(line);
                }
                out.push('\n');
            }
            pad
        }
        (Some(span), Some(_)) => {
            let pad = " ".repeat(span.line.to_string().len());
            out.push_str(&format!(
                "{pad}{} {shown_path}:{}:{}\n",
                paint(BLUE, "-->"),
                span.line,
                span.column
            ));
            pad
        }
        _ => {
            out.push_str(&format!(" {} {shown_path}\n", paint(BLUE, "-->")));
            " ".to_owned()
        }
    };
    if let Some(hint) = &d.hint {
        out.push_str(&format!(
            "{pad} {} {}\n",
            paint(BOLD, "= help:"),
            printable(hint)
        ));
    }
    out
}

/// Colors the gutter of a snippet line blue and its carets in the severity's color.
fn color_snippet_line(line: &str, pad: &str, caret_color: &str) -> String {
    if let Some(rest) = line.strip_prefix(&format!("{pad}--> ")) {
        return format!("{pad}{BLUE}-->{RESET} {rest}");
    }
    let Some((gutter, text)) = line.split_once(" |") else {
        return line.to_owned();
    };
    if gutter.trim().is_empty() && text.trim_start().starts_with('^') {
        return format!("{gutter}{BLUE} |{RESET}{caret_color}{text}{RESET}");
    }
    format!("{BLUE}{gutter} |{RESET}{text}")
}

/// Replaces control characters other than tab (a NUL, an escape sequence from a binary
/// file) with `�`, one for one, so carets stay aligned and terminals stay sane.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}
