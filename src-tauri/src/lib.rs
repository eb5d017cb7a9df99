//! heddle-desktop owns Heddle's desktop shell: the Tauri window that hosts the web UI
//! (`ui/dist`, embedded at compile time), the command line (`heddle-desktop [PATH]`), and one
//! Tauri command per heddle-api operation, each a one-line adapter. It holds no application
//! logic of its own; everything the window can do goes through heddle-api.
//!
//! The Tauri configuration is `tauri.conf.json` at the repository root (read by `build.rs`).

mod commands;
mod context;
pub mod launch;

use heddle_api::LaunchInfo;

/// Opens the main window and runs until it is closed. `launch` is what the UI is asked to
/// show first (see [`launch::parse_args`]).
pub fn run(launch: LaunchInfo) -> tauri::Result<()> {
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(launch)
        .invoke_handler(tauri::generate_handler![
            commands::launch_info,
            commands::open_workflow,
            commands::check_workflow,
            commands::list_workflows,
        ])
        .run(context::generated())
}

/// Entry point on mobile targets, where there is no command line.
#[cfg(mobile)]
#[tauri::mobile_entry_point]
fn mobile_main() {
    if let Err(err) = run(LaunchInfo::default()) {
        eprintln!("heddle-desktop: {err}");
    }
}
