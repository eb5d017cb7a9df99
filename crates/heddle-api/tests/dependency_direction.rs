//! The crate graph DESIGN.md describes, checked from the manifests: the four crates that
//! implement the engine's traits (llm, checkpoint, artifacts, store) know nothing of each
//! other, git2 is a dependency of heddle-checkpoint alone, the fakes are only ever
//! dev-dependencies, and the doors reach the implementations through heddle-api only.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::Path;

/// The crates each workspace member needs to build (normal and build dependencies; test
/// dependencies left out).
fn shipped_dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let parsed: toml::Table = toml::from_str(&text).unwrap();
    let mut names = BTreeSet::new();
    for section in ["dependencies", "build-dependencies"] {
        if let Some(table) = parsed.get(section).and_then(|v| v.as_table()) {
            names.extend(table.keys().cloned());
        }
    }
    names
}

fn members() -> Vec<(String, BTreeSet<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    for folder in std::fs::read_dir(root.join("crates")).unwrap() {
        let folder = folder.unwrap().path();
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        found.push((name, shipped_dependencies(&folder.join("Cargo.toml"))));
    }
    found.push((
        "src-tauri".to_string(),
        shipped_dependencies(&root.join("src-tauri/Cargo.toml")),
    ));
    found.sort();
    assert!(found.len() >= 12, "the workspace crates: {found:?}");
    found
}

#[test]
fn implementations_do_not_know_each_other() {
    let implementations = [
        "heddle-llm",
        "heddle-checkpoint",
        "heddle-artifacts",
        "heddle-store",
    ];
    for (name, deps) in members() {
        if !implementations.contains(&name.as_str()) {
            continue;
        }
        let known: Vec<&String> = deps
            .iter()
            .filter(|d| implementations.contains(&d.as_str()) || d.as_str() == "heddle-api")
            .collect();
        assert!(known.is_empty(), "{name} depends on {known:?}");
    }
}

#[test]
fn git2_belongs_to_heddle_checkpoint_alone() {
    for (name, deps) in members() {
        if name != "heddle-checkpoint" {
            assert!(!deps.contains("git2"), "{name} depends on git2");
        }
    }
}

#[test]
fn fakes_are_only_test_dependencies() {
    for (name, deps) in members() {
        for fake in ["heddle-fake-llm", "heddle-fake-acp"] {
            assert!(!deps.contains(fake), "{name} ships {fake}");
        }
    }
}

#[test]
fn doors_reach_the_implementations_through_heddle_api() {
    for door in ["heddle-cli", "heddle-server", "src-tauri"] {
        let (_, deps) = members().into_iter().find(|(n, _)| n == door).unwrap();
        assert!(
            deps.contains("heddle-api"),
            "{door} does not use heddle-api"
        );
        for inner in [
            "heddle-llm",
            "heddle-checkpoint",
            "heddle-artifacts",
            "heddle-store",
            "git2",
            "heddle-telemetry",
        ] {
            assert!(!deps.contains(inner), "{door} depends on {inner} directly");
        }
    }
}

/// The subscriber is set up in one place: heddle-telemetry alone builds one (the libraries
/// only emit through `tracing`), knows no other Heddle crate, and heddle-api re-exports it.
#[test]
fn subscriber_set_up_belongs_to_heddle_telemetry_alone() {
    let set_up = [
        "tracing-subscriber",
        "tracing-appender",
        "tracing-opentelemetry",
        "opentelemetry",
        "opentelemetry_sdk",
        "opentelemetry-otlp",
    ];
    for (name, deps) in members() {
        if name == "heddle-telemetry" {
            let heddle: Vec<&String> = deps.iter().filter(|d| d.starts_with("heddle-")).collect();
            assert!(heddle.is_empty(), "heddle-telemetry depends on {heddle:?}");
            continue;
        }
        for crate_name in set_up {
            assert!(!deps.contains(crate_name), "{name} depends on {crate_name}");
        }
    }
    let (_, api) = members()
        .into_iter()
        .find(|(n, _)| n == "heddle-api")
        .unwrap();
    assert!(
        api.contains("heddle-telemetry"),
        "heddle-api does not re-export it"
    );
}
