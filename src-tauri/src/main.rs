//! The `heddle-desktop` binary: parses the command line and opens the window.

// No console window next to the app in Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::process::ExitCode;

use heddle_desktop::launch::{Invocation, PathKind, USAGE, parse_args};

/// mimalloc: the model of a large workflow is many small allocations, and glibc's malloc
/// spent over a third of load time on them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Runs keep their data in `$HEDDLE_HOME` (default `~/.heddle`), and their commands get
/// this process's environment. Opens the run index on Tauri's runtime, where its watcher
/// then runs.
fn run_host() -> Result<heddle_api::RunHost, heddle_api::ApiError> {
    let home = heddle_api::runs::HeddleHome::resolve(
        std::env::var_os("HEDDLE_HOME").map(Into::into),
        std::env::var_os("HOME").map(Into::into),
    )
    .unwrap_or_else(|| heddle_api::runs::HeddleHome::at(".heddle"))
    .with_database_url(std::env::var("HEDDLE_DATABASE_URL").ok());
    let vars: Vec<(String, String)> = std::env::vars_os()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect();
    let home = home
        .with_run_files(std::env::var("HEDDLE_RUN_FILES_URL").ok(), &vars)
        .with_team_remote(std::env::var("HEDDLE_TEAM_REMOTE").ok());
    tauri::async_runtime::block_on(heddle_api::RunHost::open(home, vars))
}

fn main() -> ExitCode {
    // First, while this is the only thread: it may set an environment variable for WebKit.
    #[cfg(target_os = "linux")]
    let compositing_off = heddle_desktop::compositing::choose_for_this_machine();
    let _logs = heddle_api::start_app_logs("desktop", std::env::vars_os())
        .inspect_err(|err| eprintln!("heddle-desktop: logging is off: {err}"));
    #[cfg(target_os = "linux")]
    if compositing_off {
        tracing::info!("no GPU render node: WebKit paints without compositing");
    }
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        Err(err) => {
            eprintln!("heddle-desktop: cannot read the current folder: {err}");
            return ExitCode::FAILURE;
        }
    };
    match parse_args(std::env::args_os().skip(1), &cwd, PathKind::probe) {
        Ok(Invocation::Help) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Invocation::Launch(launch)) => match run_host() {
            Ok(host) => match heddle_desktop::run(launch, host) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("heddle-desktop: {err}");
                    ExitCode::FAILURE
                }
            },
            Err(err) => {
                eprintln!("heddle-desktop: {err}");
                ExitCode::FAILURE
            }
        },
        Err(err) => {
            eprintln!("heddle-desktop: {err}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
