//! `heddle doctor`: reads what the checks need from this process (the environment, where
//! the loader finds libraries, which UI `heddle serve` would show), runs heddle-api's
//! checks and prints them, as text or JSON.

use std::io::Write;
use std::path::PathBuf;

use heddle_api::doctor::{CheckStatus, DoctorReport, DoctorSetup, UiPresence, diagnose};
use heddle_api::runs::HeddleHome;

use crate::embedded_ui;

/// Runs the checks; `Ok(true)` when one failed.
pub async fn run(
    home: HeddleHome,
    vars: Vec<(String, String)>,
    json: bool,
    out: &mut dyn Write,
) -> Result<bool, String> {
    let ui = match vars
        .iter()
        .find(|(k, v)| k == "HEDDLE_UI_DIR" && !v.is_empty())
    {
        Some((name, dir)) => UiPresence::Folder {
            dir: PathBuf::from(dir),
            from: name.clone(),
        },
        None if embedded_ui::present() => UiPresence::Embedded,
        None => UiPresence::NotBuilt,
    };
    let library_dirs = library_dirs(&vars);
    let setup = DoctorSetup {
        home,
        vars,
        ui,
        library_dirs,
    };
    let report = diagnose(&setup).await;
    let written = if json {
        write_json(&report, out)
    } else {
        write_text(&report, out)
    };
    written.map_err(|e| format!("cannot write the report: {e}"))?;
    Ok(report.worst() == CheckStatus::Fail)
}

/// Where the dynamic loader looks for shared libraries: `LD_LIBRARY_PATH`, then the
/// system's folders (Debian's multiarch ones first). None off Linux, where the desktop app
/// does not use WebKitGTK.
fn library_dirs(vars: &[(String, String)]) -> Vec<PathBuf> {
    if !cfg!(target_os = "linux") {
        return Vec::new();
    }
    let mut dirs: Vec<PathBuf> = vars
        .iter()
        .filter(|(k, _)| k == "LD_LIBRARY_PATH")
        .flat_map(|(_, v)| std::env::split_paths(v).collect::<Vec<_>>())
        .filter(|d| !d.as_os_str().is_empty())
        .collect();
    let multiarch = format!("{}-linux-gnu", std::env::consts::ARCH);
    for dir in [
        format!("/usr/lib/{multiarch}"),
        format!("/lib/{multiarch}"),
        "/usr/local/lib".into(),
        "/usr/lib64".into(),
        "/usr/lib".into(),
        "/lib64".into(),
        "/lib".into(),
    ] {
        dirs.push(PathBuf::from(dir));
    }
    dirs
}

fn write_text(report: &DoctorReport, out: &mut dyn Write) -> std::io::Result<()> {
    let width = report
        .checks
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(0);
    for check in &report.checks {
        writeln!(
            out,
            "{:<4}  {:<width$}  {}",
            check.status.as_str(),
            check.name,
            check.summary
        )?;
        if let Some(fix) = &check.fix {
            writeln!(out, "{:<4}  {:<width$}  fix: {fix}", "", "")?;
        }
    }
    let count = |s: CheckStatus| report.checks.iter().filter(|c| c.status == s).count();
    writeln!(
        out,
        "\n{} ok, {} to look at, {} failed",
        count(CheckStatus::Ok),
        count(CheckStatus::Warn),
        count(CheckStatus::Fail)
    )?;
    out.flush()
}

fn write_json(report: &DoctorReport, out: &mut dyn Write) -> std::io::Result<()> {
    let value = serde_json::json!({
        "status": report.worst(),
        "checks": report.checks,
    });
    writeln!(out, "{value:#}")?;
    out.flush()
}
