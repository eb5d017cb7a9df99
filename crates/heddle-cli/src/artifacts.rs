//! `heddle artifact list|cp` and `heddle dump`: what a run produced, read through
//! heddle-api and rendered for the terminal.

use std::io::Write;
use std::path::Path;

use heddle_api::{RunFileArea, RunFileRequest, RunLibrary, RunRef};

/// `heddle artifact list`.
pub async fn list(
    library: &RunLibrary,
    run: &str,
    node: Option<&str>,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let all = library
        .artifacts(RunRef {
            run_id: run.to_string(),
        })
        .await
        .map_err(|e| e.message)?;
    let listed: Vec<_> = all
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

/// `heddle artifact cp`: the artifact is resolved as the UI's file view resolves it (links
/// followed, and refused when it leads outside the run's artifacts).
pub fn copy(library: &RunLibrary, run: &str, path: &str, dest: &Path) -> Result<(), String> {
    let served = library
        .run_file(&RunFileRequest {
            run_id: run.to_string(),
            area: RunFileArea::Artifacts,
            path: path.to_string(),
        })
        .map_err(|e| e.message)?;
    let file = served.path;
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
    library: &RunLibrary,
    run: &str,
    out_dir: &Path,
    out: &mut dyn Write,
) -> Result<(), String> {
    let report = library.dump_run(run, out_dir).map_err(|e| e.message)?;
    writeln!(
        out,
        "wrote {} stage folder(s), {} file(s) to {}",
        report.stages,
        report.files,
        out_dir.display()
    )
    .map_err(|e| format!("cannot write: {e}"))
}
