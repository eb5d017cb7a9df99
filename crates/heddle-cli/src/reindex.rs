//! `heddle reindex`: rebuilds the run index (`$HEDDLE_HOME/heddle.db`) from the run folders,
//! which stay the source of truth.

use std::io::Write;

use heddle_api::RunLibrary;

/// Rebuilds the index; prints what it did. Folders that could not be read are listed and
/// make the exit code 1; everything else is indexed regardless.
pub async fn reindex(library: &RunLibrary, json: bool, out: &mut dyn Write) -> Result<u8, String> {
    let report = library.reindex().await.map_err(|e| e.message)?;
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        writeln!(out, "{text}").map_err(write)?;
    } else {
        writeln!(
            out,
            "indexed {} run(s), {} event(s) into {}{}",
            report.runs,
            report.events,
            library.index().describe(),
            if report.removed > 0 {
                format!("; dropped {} run(s) whose folder is gone", report.removed)
            } else {
                String::new()
            }
        )
        .map_err(write)?;
        for failure in &report.failures {
            writeln!(
                out,
                "  could not index {}: {}",
                failure.folder, failure.error
            )
            .map_err(write)?;
        }
    }
    Ok(u8::from(!report.failures.is_empty()))
}
