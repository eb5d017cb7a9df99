//! Runs tauri-build against the repository-root `tauri.conf.json`: validates the config and
//! capabilities, and generates the app context (config, icons and the embedded `ui/dist`)
//! into `OUT_DIR` for `tauri::tauri_build_context!`. Cargo reruns it when the config, the
//! icons, the capabilities or `ui/dist` change.

use std::path::Path;

/// The config, relative to this crate; `frontendDist` and icon paths in it are relative to it.
const CONFIG: &str = "../tauri.conf.json";

/// The app's own commands, so tauri-build generates `allow-<command>` permissions for them.
const COMMANDS: &[&str] = &[
    "launch_info",
    "open_workflow",
    "check_workflow",
    "list_workflows",
    "edit_workflow",
    "save_workflow",
    "read_layout",
    "save_layout",
    "read_reference",
    "check_expression",
    "list_templates",
    "create_workflow",
    "watch_workflow",
    "unwatch_workflow",
    "start_run",
    "workflow_trust",
    "resume_run",
    "fork_run",
    "cancel_run",
    "pending_gates",
    "answer_gate",
    "list_runs",
    "get_run",
    "run_timeline",
    "recent_workflows",
    "run_checkpoints",
    "checkpoint_files",
    "checkpoint_file",
    "checkpoint_state",
    "checkpoint_diff",
    "rollback_run",
    "run_artifacts",
    "junit_report",
    "run_patch",
    "run_graph",
    "save_run_file",
    "follow_events",
];

fn main() -> Result<(), String> {
    // tauri-build watches the config file, the icons it lists and the capabilities folder;
    // the icons folder itself too, so a new or renamed icon is noticed.
    println!("cargo:rerun-if-changed=../icons");
    check_ui_built()?;
    let attributes = tauri_build::Attributes::new()
        .config_path(CONFIG)
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS))
        .codegen(tauri_build::CodegenContext::new());
    tauri_build::try_build(attributes).map_err(|err| format!("tauri-build failed: {err:#}"))
}

/// The release window embeds `ui/dist`; without it tauri-build's error is obscure.
fn check_ui_built() -> Result<(), String> {
    if tauri_build::is_dev() {
        return Ok(()); // the window loads `build.devUrl` instead
    }
    let index = Path::new("../ui/dist/index.html");
    println!("cargo:rerun-if-changed={}", index.display());
    if index.is_file() {
        return Ok(());
    }
    Err(format!(
        "{} is missing: build the UI first (`npm --prefix ui ci && npm --prefix ui run build`), \
         or build the shell with `--no-default-features` to load the Vite dev server instead",
        index.display()
    ))
}
