//! `heddle graph`: the typed model, as JSON or a readable summary.

use std::io::{BufWriter, Write};
use std::path::Path;

use heddle_api::{ApiError, OpenWorkflowRequest, open_workflow};
use heddle_workflow::{Severity, Workflow};

/// Why `heddle graph` printed no model.
#[derive(Debug)]
pub enum GraphFailure {
    /// The file could not be read.
    Api(ApiError),
    /// The file has no parseable graph; the count of errors found.
    Unparseable(usize),
}

/// Prints the model of `file`. Syntax errors that still leave a graph are reported on
/// stderr by the caller via the returned count; the model is printed regardless.
pub fn run(file: &Path, json: bool, out: &mut dyn Write) -> Result<usize, GraphFailure> {
    let opened = open_workflow(&OpenWorkflowRequest {
        path: file.display().to_string(),
    })
    .map_err(GraphFailure::Api)?;
    let errors = opened
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let Some(workflow) = opened.workflow else {
        return Err(GraphFailure::Unparseable(errors));
    };
    // One write per buffer, not per line: stdout is line-buffered, and a 20,000-node model
    // as pretty JSON is over a million lines.
    let mut buffered = BufWriter::new(out);
    let written = if json {
        serde_json::to_writer_pretty(&mut buffered, &workflow)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(buffered))
    } else {
        write_summary(&workflow, &mut buffered)
    }
    .and_then(|()| buffered.flush());
    written.map_err(|e| GraphFailure::Api(ApiError::from_io(file, &e)))?;
    Ok(errors)
}

fn write_summary(w: &Workflow, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "workflow {}",
        if w.name.is_empty() {
            "(anonymous)"
        } else {
            &w.name
        }
    )?;
    if let Some(goal) = &w.goal {
        writeln!(out, "goal: {goal}")?;
    }
    writeln!(out, "\n{} nodes:", w.nodes.len())?;
    let width = w.nodes.iter().map(|n| n.id.len()).max().unwrap_or(0);
    for n in &w.nodes {
        writeln!(
            out,
            "  {:<width$}  {:<12}  {}",
            n.id,
            n.kind.type_name(),
            n.label
        )?;
    }
    writeln!(out, "\n{} edges:", w.edges.len())?;
    for e in &w.edges {
        let mut line = format!("  {} -> {}", e.from, e.to);
        if let Some(label) = &e.label {
            line.push_str(&format!("  [{label}]"));
        }
        if let Some(condition) = &e.condition {
            line.push_str(&format!("  if {condition}"));
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
