#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The window may invoke a command only if its capability allows it: a command missing from
//! the capability compiles fine and then fails at run time with "not allowed" (which is how
//! editing first failed in the desktop smoke test). The commands themselves,
//! `generate_handler!`, build.rs's permissions and the capability build.rs writes all come
//! from heddle-api's operation table; this test reads the capability the build generated.

use std::collections::BTreeSet;

use heddle_api::operations::OPERATIONS;

fn read(path: &str) -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_owned() + path).unwrap()
}

/// The `allow-*` permissions of the capability build.rs generated, as command names.
fn allowed_commands() -> BTreeSet<String> {
    let generated = concat!(env!("OUT_DIR"), "/capabilities/default.json");
    let capability: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(generated).unwrap()).unwrap();
    let permissions = capability["permissions"].as_array().unwrap();
    for base in ["core:default", "dialog:allow-open"] {
        assert!(permissions.iter().any(|p| p == base), "{base} missing");
    }
    permissions
        .iter()
        .filter_map(|p| p.as_str())
        .filter_map(|p| p.strip_prefix("allow-"))
        .map(|p| p.replace('-', "_"))
        .collect()
}

#[test]
fn the_capability_allows_exactly_the_commands_of_the_operation_table() {
    let commands: BTreeSet<String> = OPERATIONS
        .iter()
        .filter(|op| op.tauri_command)
        .map(|op| op.name.to_owned())
        .collect();
    assert!(commands.contains("edit_workflow"), "{commands:?}");
    let allowed = allowed_commands();
    let missing: Vec<_> = commands
        .difference(&allowed)
        .map(|c| format!("\"allow-{}\"", c.replace('_', "-")))
        .collect();
    let extra: Vec<_> = allowed.difference(&commands).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "the generated capability differs from heddle-api's operation table: it lacks \
         {missing:?} and has the permissions of {extra:?}"
    );
}

/// build.rs names every operation a command except the HTTP-only kinds; the table's own
/// description of the doors must agree, or tauri-build would make permissions for commands
/// that do not exist (or none for one that does).
#[test]
fn build_rs_and_the_table_agree_which_operations_are_commands() {
    let build = read("build.rs");
    assert!(build.contains(r#"!matches!(*kind, "changes" | "file")"#));
    let not_commands: BTreeSet<&str> = OPERATIONS
        .iter()
        .filter(|op| !op.tauri_command)
        .map(|op| op.kind)
        .collect();
    assert_eq!(not_commands, BTreeSet::from(["changes", "file"]));
}

/// The window may ask the system to open web addresses (links in rendered responses), and
/// nothing else: no `file:`, `mailto:` or custom scheme, no paths, no other opener command.
#[test]
fn the_opener_is_allowed_web_addresses_only() {
    let generated = concat!(env!("OUT_DIR"), "/capabilities/default.json");
    let capability: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(generated).unwrap()).unwrap();
    let permissions = capability["permissions"].as_array().unwrap();
    let opener: Vec<&serde_json::Value> = permissions
        .iter()
        .filter(|p| {
            let id = p
                .as_str()
                .or_else(|| p["identifier"].as_str())
                .unwrap_or("");
            id.starts_with("opener:")
        })
        .collect();
    assert_eq!(
        opener,
        [&serde_json::json!({
            "identifier": "opener:allow-open-url",
            "allow": [{ "url": "http://*" }, { "url": "https://*" }]
        })],
        "the opener permissions: {opener:?}"
    );
}
