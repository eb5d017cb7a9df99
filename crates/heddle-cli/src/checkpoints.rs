//! `heddle checkpoints`, `heddle rollback` and `heddle diff`: a run's git checkpoint
//! history, read and restored through heddle-checkpoint.

use std::io::Write;

use heddle_checkpoint::{GitState, diff, history, integrity, rollback};
use heddle_engine::runs::find_run;

use crate::run::Environment;

/// The git state and verified repository of run `run` (id, prefix or folder).
fn open(
    run: &str,
    env: &Environment,
) -> Result<(GitState, heddle_checkpoint::git2::Repository), String> {
    let run_dir = find_run(&env.home.runs(), run).map_err(|e| e.to_string())?;
    integrity::open_run(&run_dir).map_err(|e| e.to_string())
}

/// Prints `value` as indented JSON.
fn print_json(out: &mut dyn Write, value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    writeln!(out, "{text}").map_err(|e| format!("cannot write: {e}"))
}

/// `heddle checkpoints RUN`.
pub fn list(run: &str, json: bool, env: &Environment, out: &mut dyn Write) -> Result<(), String> {
    let (state, repo) = open(run, env)?;
    let entries = history::list(&repo, &state).map_err(|e| e.to_string())?;
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        return print_json(out, &entries);
    }
    writeln!(
        out,
        "{} checkpoint(s) of run {} ({} mode, {} timeline(s); base {})",
        entries.len(),
        state.run_id,
        state.mode.as_str(),
        state.timelines.len(),
        &state.base_sha[..state.base_sha.len().min(12)]
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
pub fn rollback(
    run: &str,
    to: &str,
    force: bool,
    json: bool,
    env: &Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let run_dir = find_run(&env.home.runs(), run).map_err(|e| e.to_string())?;
    let now = heddle_engine::clock::rfc3339(std::time::SystemTime::now());
    let report = rollback::rollback(&run_dir, to, force, &now).map_err(|e| e.to_string())?;
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
pub fn diff(
    run: &str,
    from: &str,
    to: Option<&str>,
    stat: bool,
    json: bool,
    env: &Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let (state, repo) = open(run, env)?;
    let result = diff::diff_targets(&repo, &state, from, to).map_err(|e| e.to_string())?;
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        return print_json(out, &result);
    }
    if stat {
        for file in &result.files {
            let counts = if file.binary {
                "binary".to_string()
            } else {
                format!("+{} -{}", file.additions, file.deletions)
            };
            writeln!(out, "{:<10} {:<12} {}", file.status, counts, file.path).map_err(write)?;
        }
        return writeln!(out, "{} file(s) changed", result.files.len()).map_err(write);
    }
    write!(out, "{}", result.patch).map_err(write)
}
