#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Every command the window can invoke must be listed three times: in `generate_handler!`
//! (src/lib.rs), in build.rs's `COMMANDS` (so tauri-build makes an `allow-` permission for
//! it) and in the window's capability. A command missing from the last two compiles fine and
//! then fails at run time with "not allowed" — which is how editing first failed in the
//! desktop smoke test. This test reads the three lists and compares them.

use std::collections::BTreeSet;

fn read(path: &str) -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_owned() + path).unwrap()
}

/// The command names in `generate_handler![...]`.
fn handler_commands() -> BTreeSet<String> {
    let lib = read("src/lib.rs");
    let start = lib
        .find("generate_handler![")
        .expect("lib.rs registers commands");
    let end = start + lib[start..].find(']').unwrap();
    lib[start..end]
        .split(',')
        .filter_map(|item| item.trim().rsplit("::").next())
        .map(str::trim)
        .filter(|name| !name.is_empty() && !name.contains('['))
        .map(str::to_owned)
        .collect()
}

/// The quoted names in build.rs's `COMMANDS`.
fn build_commands() -> BTreeSet<String> {
    let build = read("build.rs");
    let start = build.find("const COMMANDS").unwrap();
    let end = start + build[start..].find("];").unwrap();
    build[start..end]
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The `allow-*` permissions of the default capability, as command names.
fn allowed_commands() -> BTreeSet<String> {
    let capability: serde_json::Value =
        serde_json::from_str(&read("capabilities/default.json")).unwrap();
    capability["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str())
        .filter_map(|p| p.strip_prefix("allow-"))
        .map(|p| p.replace('-', "_"))
        .collect()
}

#[test]
fn every_registered_command_is_built_and_allowed() {
    let registered = handler_commands();
    assert!(registered.contains("edit_workflow"), "{registered:?}");
    assert_eq!(
        build_commands(),
        registered,
        "build.rs COMMANDS vs generate_handler!"
    );
    assert_eq!(
        allowed_commands(),
        registered,
        "capabilities/default.json vs generate_handler!"
    );
}
