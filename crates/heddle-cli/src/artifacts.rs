//! `heddle artifact list|cp` and `heddle dump`: reading what a run produced.

use std::io::Write;
use std::path::Path;

use heddle_artifacts::{artifact_file, dump_run, list_artifacts};
use heddle_engine::runs::find_run;

use crate::run::Environment;

/// `heddle artifact list`.
pub fn list(
    run: &str,
    node: Option<&str>,
    json: bool,
    env: &Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let dir = find_run(&env.home.runs(), run).map_err(|e| e.to_string())?;
    let listed: Vec<_> = list_artifacts(&dir)
        .into_iter()
        .filter(|a| node.is_none_or(|n| a.node == n))
        .collect();
    let write = |out: &mut dyn Write, text: String| {
        writeln!(out, "{text}").map_err(|e| format!("cannot write the list: {e}"))
    };
    if json {
        return write(
            out,
            serde_json::to_string_pretty(&listed).unwrap_or_default(),
        );
    }
    if listed.is_empty() {
        let scope = node.map_or(String::new(), |n| format!(" for node `{n}`"));
        return write(out, format!("no artifacts captured{scope}"));
    }
    write(
        out,
        format!("{:<18} {:>10}  {:<28} PATH", "KIND", "SIZE", "TYPE"),
    )?;
    for artifact in listed {
        write(
            out,
            format!(
                "{:<18} {:>10}  {:<28} {}",
                artifact.kind.as_str(),
                artifact.size,
                artifact.media_type,
                artifact.path
            ),
        )?;
    }
    Ok(())
}

/// `heddle artifact cp`.
pub fn copy(run: &str, path: &str, dest: &Path, env: &Environment) -> Result<(), String> {
    let dir = find_run(&env.home.runs(), run).map_err(|e| e.to_string())?;
    let file = artifact_file(&dir, path)?;
    let target = if dest.is_dir() {
        dest.join(file.file_name().unwrap_or_default())
    } else {
        dest.to_path_buf()
    };
    std::fs::copy(&file, &target)
        .map(|_| ())
        .map_err(|e| format!("{}: {}", target.display(), heddle_engine::describe_io(&e)))
}

/// `heddle dump`.
pub fn dump(
    run: &str,
    out_dir: &Path,
    env: &Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let dir = find_run(&env.home.runs(), run).map_err(|e| e.to_string())?;
    let report = dump_run(&dir, out_dir).map_err(|e| e.to_string())?;
    writeln!(
        out,
        "wrote {} stage folder(s), {} file(s) to {}",
        report.stages,
        report.files,
        out_dir.display()
    )
    .map_err(|e| format!("cannot write: {e}"))
}
