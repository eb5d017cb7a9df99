//! Runs tauri-build against the repository-root `tauri.conf.json`: validates the config and
//! capabilities, and generates the app context (config, icons and the embedded `ui/dist`)
//! into `OUT_DIR` for `tauri::tauri_build_context!`. The window's capability is generated
//! here too, from heddle-api's operation table (`OUT_DIR/capabilities/default.json`), so a
//! new operation is allowed by the same line that declares it. Cargo reruns it when the
//! config, the icons, the operation table or `ui/dist` change.

use std::path::Path;

/// The config, relative to this crate; `frontendDist` and icon paths in it are relative to it.
const CONFIG: &str = "../tauri.conf.json";

/// heddle-api's operation table, included as source: the build script learns the command
/// names from the same list the commands are expanded from, without building heddle-api.
const OPERATION_TABLE: &str = "../crates/heddle-api/src/operation_table.rs";

include!("../crates/heddle-api/src/operation_table.rs");

/// The names of the table's operations that are Tauri commands (every kind but the
/// HTTP-only `changes` and `file`).
macro_rules! command_names {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($($req:ty)?) -> $res:ty: $kind:ident $(($($arg:tt)*))?;
    )*) => {
        [$((stringify!($kind), stringify!($name))),*]
            .into_iter()
            .filter(|(kind, _)| !matches!(*kind, "changes" | "file"))
            .map(|(_, name)| name)
            .collect::<Vec<&'static str>>()
    };
}

/// Permissions of the main window besides Heddle's own commands, as the capability's JSON
/// entries. Single instance, notifications and the window's state are the shell's own
/// (Rust) business and need none.
const BASE_PERMISSIONS: [&str; 3] = [
    r#""core:default""#,
    r#""dialog:allow-open""#,
    // Links in rendered responses open in the system browser: web addresses only.
    r#"{ "identifier": "opener:allow-open-url", "allow": [{ "url": "http://*" }, { "url": "https://*" }] }"#,
];

fn main() -> Result<(), String> {
    // tauri-build watches the config file, the icons it lists and the capabilities folder;
    // the icons folder itself too, so a new or renamed icon is noticed.
    println!("cargo:rerun-if-changed=../icons");
    println!("cargo:rerun-if-changed={OPERATION_TABLE}");
    check_ui_built()?;
    // tauri-build wants the list for the whole program; the build script ends right after.
    let commands: &'static [&'static str] = for_each_operation!(command_names).leak();
    let capabilities = write_capability(commands)?;
    let attributes = tauri_build::Attributes::new()
        .config_path(CONFIG)
        .capabilities_path_pattern(capabilities)
        .app_manifest(tauri_build::AppManifest::new().commands(commands))
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

/// Writes the main window's capability (the base permissions and `allow-{command}` for each
/// of `commands`) into `OUT_DIR/capabilities/`; the glob pattern that finds it.
fn write_capability(commands: &[&str]) -> Result<&'static str, String> {
    let out_dir = std::env::var("OUT_DIR").map_err(|e| format!("OUT_DIR: {e}"))?;
    let folder = Path::new(&out_dir).join("capabilities");
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let entries: Vec<String> = BASE_PERMISSIONS
        .iter()
        .map(|p| (*p).to_owned())
        .chain(
            commands
                .iter()
                .map(|c| format!("\"allow-{}\"", c.replace('_', "-"))),
        )
        .map(|entry| format!("    {entry}"))
        .collect();
    let capability = format!(
        "{{\n  \"identifier\": \"default\",\n  \"description\": \"The main window: core \
         events and window basics, the file-open dialog, opening web links in the browser, and \
         Heddle's own commands (generated \
         by src-tauri/build.rs from heddle-api's operation table).\",\n  \"windows\": \
         [\"main\"],\n  \"permissions\": [\n{}\n  ]\n}}\n",
        entries.join(",\n")
    );
    let path = folder.join("default.json");
    std::fs::write(&path, capability).map_err(|e| format!("{}: {e}", path.display()))?;
    let pattern = format!("{}/*.json", folder.display());
    Ok(pattern.leak())
}
