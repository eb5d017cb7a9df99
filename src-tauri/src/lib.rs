//! heddle-desktop owns Heddle's desktop shell: the Tauri window that hosts the web UI
//! (`ui/dist`, embedded at compile time), the command line (`heddle-desktop [PATH]`), and one
//! Tauri command per heddle-api operation, each a one-line adapter. It holds no application
//! logic of its own; everything the window can do goes through heddle-api.
//!
//! The Tauri configuration is `tauri.conf.json` at the repository root (read by `build.rs`).

mod byte_range;
mod commands;
mod context;
mod file_watch_commands;
pub mod launch;
mod main_window;
mod run_commands;
mod run_file_protocol;

use heddle_api::{LaunchInfo, RunHost};

/// Opens the main window and runs until it is closed. `launch` is what the UI is asked to
/// show first (see [`launch::parse_args`]); `host` executes the runs the window starts.
pub fn run(launch: LaunchInfo, host: RunHost) -> tauri::Result<()> {
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(launch)
        .manage(host)
        .manage(file_watch_commands::FileWatches::default())
        .setup(|app| Ok(main_window::build(app)?))
        .register_asynchronous_uri_scheme_protocol(
            run_file_protocol::SCHEME,
            run_file_protocol::handle,
        )
        .invoke_handler(tauri::generate_handler![
            commands::launch_info,
            commands::open_workflow,
            commands::check_workflow,
            commands::list_workflows,
            commands::edit_workflow,
            commands::save_workflow,
            commands::read_layout,
            commands::save_layout,
            commands::read_reference,
            commands::check_expression,
            commands::list_templates,
            commands::create_workflow,
            file_watch_commands::watch_workflow,
            file_watch_commands::unwatch_workflow,
            run_commands::start_run,
            run_commands::workflow_trust,
            run_commands::resume_run,
            run_commands::fork_run,
            run_commands::cancel_run,
            run_commands::pending_gates,
            run_commands::answer_gate,
            run_commands::list_runs,
            run_commands::get_run,
            run_commands::run_timeline,
            run_commands::recent_workflows,
            run_commands::run_checkpoints,
            run_commands::checkpoint_files,
            run_commands::checkpoint_file,
            run_commands::checkpoint_state,
            run_commands::checkpoint_diff,
            run_commands::rollback_run,
            run_commands::run_artifacts,
            run_commands::junit_report,
            run_commands::run_patch,
            run_commands::run_graph,
            run_commands::save_run_file,
            run_commands::follow_events,
        ])
        .run(context::generated())
}

/// Entry point on mobile targets, where there is no command line.
#[cfg(mobile)]
#[tauri::mobile_entry_point]
fn mobile_main() {
    let home = heddle_api::runs::HeddleHome::resolve(None, None)
        .unwrap_or_else(|| heddle_api::runs::HeddleHome::at(".heddle"));
    let host = match tauri::async_runtime::block_on(RunHost::open(home, Vec::new())) {
        Ok(host) => host,
        Err(err) => {
            eprintln!("heddle-desktop: {err}");
            return;
        }
    };
    if let Err(err) = run(LaunchInfo::default(), host) {
        eprintln!("heddle-desktop: {err}");
    }
}
