//! `heddle validate`: diagnostics for one or more files, as text or JSON.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use heddle_api::{ApiError, OpenWorkflowRequest, OpenedWorkflow, open_workflow};
use heddle_workflow::{Diagnostic, Severity, render_diagnostic};
use serde::Serialize;

/// One file's result in `--json` output.
#[derive(Debug, Serialize)]
struct FileReport<'a> {
    path: String,
    errors: usize,
    warnings: usize,
    diagnostics: &'a [Diagnostic],
    /// Set when the file could not be read at all.
    error: Option<&'a ApiError>,
}

/// Validates `files`, writes the report to `out`, and returns whether any file had errors.
pub fn run(
    files: &[PathBuf],
    json: bool,
    color: bool,
    out: &mut dyn Write,
) -> std::io::Result<bool> {
    let results: Vec<(PathBuf, Result<OpenedWorkflow, ApiError>)> = files
        .iter()
        .map(|f| {
            let req = OpenWorkflowRequest {
                path: f.display().to_string(),
            };
            (f.clone(), open_workflow(&req))
        })
        .collect();
    let failed = results.iter().any(|(_, r)| match r {
        Ok(opened) => count(&opened.diagnostics, Severity::Error) > 0,
        Err(_) => true,
    });
    // One write per buffer, not per line: stdout is line-buffered, and a report of a large
    // workflow (pretty JSON) has hundreds of thousands of lines.
    let mut buffered = BufWriter::new(out);
    if json {
        write_json(&results, &mut buffered)?;
    } else {
        write_text(&results, color, &mut buffered)?;
    }
    buffered.flush()?;
    Ok(failed)
}

fn count(diagnostics: &[Diagnostic], severity: Severity) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.severity == severity)
        .count()
}

fn write_json(
    results: &[(PathBuf, Result<OpenedWorkflow, ApiError>)],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let reports: Vec<FileReport<'_>> = results
        .iter()
        .map(|(path, result)| match result {
            Ok(opened) => FileReport {
                path: path.display().to_string(),
                errors: count(&opened.diagnostics, Severity::Error),
                warnings: count(&opened.diagnostics, Severity::Warning),
                diagnostics: &opened.diagnostics,
                error: None,
            },
            Err(err) => FileReport {
                path: path.display().to_string(),
                errors: 1,
                warnings: 0,
                diagnostics: &[],
                error: Some(err),
            },
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &reports)?;
    writeln!(out)
}

fn write_text(
    results: &[(PathBuf, Result<OpenedWorkflow, ApiError>)],
    color: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for (path, result) in results {
        let shown = path.display().to_string();
        match result {
            Err(err) => writeln!(out, "{}: {shown}: {}\n", paint("error", color), err.message)?,
            Ok(opened) => {
                for d in &opened.diagnostics {
                    writeln!(
                        out,
                        "{}",
                        render_diagnostic(d, &opened.source, &shown, color)
                    )?;
                }
                let errors = count(&opened.diagnostics, Severity::Error);
                let warnings = count(&opened.diagnostics, Severity::Warning);
                let verdict = if errors == 0 && warnings == 0 {
                    "ok".to_owned()
                } else {
                    format!(
                        "{} and {}",
                        plural(errors, "error"),
                        plural(warnings, "warning")
                    )
                };
                writeln!(out, "{shown}: {verdict}")?;
            }
        }
    }
    Ok(())
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn paint(text: &str, color: bool) -> String {
    if color {
        format!("\x1b[1;31m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}
