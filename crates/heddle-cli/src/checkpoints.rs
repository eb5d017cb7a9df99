//! `heddle checkpoints`, `heddle rollback` and `heddle diff`: a run's git checkpoint
//! history, read and restored through heddle-api, rendered for the terminal.

use std::collections::BTreeSet;
use std::io::Write;

use heddle_api::{DiffRequest, RollbackRequest, RunLibrary, RunRef};

/// Prints `value` as indented JSON.
fn print_json(out: &mut dyn Write, value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    writeln!(out, "{text}").map_err(|e| format!("cannot write: {e}"))
}

/// `heddle checkpoints RUN`.
pub async fn list(
    library: &RunLibrary,
    run: &str,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let run = RunRef {
        run_id: run.to_string(),
    };
    let entries = library
        .checkpoints(run.clone())
        .await
        .map_err(|e| e.message)?;
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        return print_json(out, &entries);
    }
    let run_id = library.refresh(&run.run_id).await.map_err(|e| e.message)?;
    let record = library
        .run(RunRef { run_id })
        .await
        .map_err(|e| e.message)?;
    let timelines: BTreeSet<_> = entries.iter().map(|e| &e.timeline).collect();
    let base = record.base_sha.unwrap_or_default();
    writeln!(
        out,
        "{} checkpoint(s) of run {} ({} mode, {} timeline(s); base {})",
        entries.len(),
        record.id,
        record.checkpoint_mode,
        timelines.len(),
        &base[..base.len().min(12)]
    )
    .map_err(write)?;
    for entry in &entries {
        writeln!(
            out,
            "{} {} t{} {:>3} {} ({}){}",
            &entry.sha[..12],
            entry.time,
            entry.timeline,
            entry.completed,
            entry.node_id,
            entry.status,
            if entry.current { "  <- current" } else { "" }
        )
        .map_err(write)?;
    }
    Ok(())
}

/// `heddle rollback RUN --to TARGET`.
pub async fn rollback(
    library: &RunLibrary,
    run: &str,
    to: &str,
    force: bool,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let report = library
        .rollback(RollbackRequest {
            run_id: run.to_string(),
            to: to.to_string(),
            force,
        })
        .await
        .map_err(|e| e.message)?;
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        return print_json(out, &report);
    }
    writeln!(
        out,
        "rolled back to {} ({} file(s) written, {} deleted)\n  saved the state before as {} ({})\n  \
         the run continues on {}{}\n  continue with: heddle resume {}",
        &report.target[..12],
        report.written.len(),
        report.deleted.len(),
        report.recovery_ref,
        &report.recovery_sha[..12],
        report.timeline,
        report
            .next_node
            .as_deref()
            .map_or_else(|| " from the start".to_string(), |n| format!(" at `{n}`")),
        run
    )
    .map_err(write)?;
    if let Some(area) = &report.moved_aside_to {
        writeln!(
            out,
            "  moved what was in the way and not the run's into {area}: {}",
            report.moved_aside.join(", ")
        )
        .map_err(write)?;
    }
    Ok(())
}

/// `heddle diff RUN FROM [TO]`.
pub async fn diff(
    library: &RunLibrary,
    request: &DiffRequest,
    stat: bool,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if !json && !stat {
        let patch = library
            .diff_patch(request.clone())
            .await
            .map_err(|e| e.message)?;
        return write!(out, "{patch}").map_err(write);
    }
    let result = library.diff(request.clone()).await.map_err(|e| e.message)?;
    if json {
        return print_json(out, &result);
    }
    for file in &result.files {
        let counts = if file.binary {
            "binary".to_string()
        } else {
            format!("+{} -{}", file.additions, file.deletions)
        };
        writeln!(out, "{:<10} {:<12} {}", file.status, counts, file.path).map_err(write)?;
    }
    writeln!(out, "{} file(s) changed", result.files.len()).map_err(write)
}
