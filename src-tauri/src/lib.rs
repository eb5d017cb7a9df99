//! heddle-desktop owns Heddle's desktop shell: the Tauri window that hosts the web UI
//! (`ui/dist`, embedded at compile time), the command line (`heddle-desktop [PATH]`), and one
//! Tauri command per heddle-api operation, expanded from heddle-api's operation table. It
//! holds no application logic of its own; everything the window can do goes through
//! heddle-api.
//!
//! The Tauri configuration is `tauri.conf.json` at the repository root (read by `build.rs`).

mod byte_range;
mod commands;
pub mod compositing;
mod context;
mod file_watch_commands;
pub mod launch;
mod main_window;
mod run_commands;
mod run_file_protocol;
mod run_notifications;
pub mod second_launch;

use heddle_api::{LaunchInfo, RunHost};
use tauri::Manager;

/// Opens the main window and runs until it is closed. `launch` is what the UI is asked to
/// show first (see [`launch::parse_args`]); `host` executes the runs the window starts.
pub fn run(launch: LaunchInfo, host: RunHost) -> tauri::Result<()> {
    tauri::Builder::default()
        // First: a second launch hands its command line over and exits before the rest.
        .plugin(tauri_plugin_single_instance::init(second_launch::handle))
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(
            tauri_plugin_window_state::Builder::new()
                .with_filter(|label| label == "main")
                .build(),
        )
        .manage(launch)
        .manage(host)
        .manage(file_watch_commands::FileWatches::default())
        .setup(|app| {
            main_window::build(app)?;
            run_notifications::spawn(app.handle().clone(), app.state::<RunHost>().inner());
            Ok(())
        })
        .register_asynchronous_uri_scheme_protocol(
            run_file_protocol::SCHEME,
            run_file_protocol::handle,
        )
        .invoke_handler(commands::invoke_handler())
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
