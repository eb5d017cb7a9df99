//! `heddle doctor` on real temp homes: a healthy one (warnings only, exit 0), a broken run
//! index, a home that cannot be written, git missing from PATH, a damaged shadow repository,
//! a UI folder without its page, WebKitGTK found where the loader looks; JSON output; API
//! keys never printed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::process::Output;

use sandbox::{Sandbox, describe, text};
use serde_json::Value;

const SECRET: &str = "sk-ant-doctor-must-never-print-this";

fn doctor_json(
    sandbox: &Sandbox,
    configure: impl FnOnce(&mut std::process::Command),
) -> (Output, Value) {
    let mut command = sandbox.command(&["doctor", "--json"]);
    command.env_remove("HEDDLE_UI_DIR");
    configure(&mut command);
    let output = command.output().unwrap();
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", describe(&output)));
    (output, report)
}

/// The check called `name`: its status and its summary and fix in one text.
fn check<'a>(report: &'a Value, name: &str) -> (&'a str, String) {
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no {name} check in {report:#}"));
    (
        check["status"].as_str().unwrap(),
        format!(
            "{} | {}",
            check["summary"].as_str().unwrap(),
            check["fix"].as_str().unwrap_or("")
        ),
    )
}

#[test]
fn a_fresh_home_passes_with_warnings_and_every_check_is_reported() {
    let sandbox = Sandbox::new();
    let (output, report) = doctor_json(&sandbox, |_| {});
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    let names: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "git",
            "providers",
            "ui",
            "webkitgtk",
            "home",
            "index",
            "shadow"
        ]
    );
    assert_eq!(check(&report, "git").0, "ok");
    let (status, providers) = check(&report, "providers");
    assert_eq!(status, "warn", "{providers}");
    assert!(providers.contains("ANTHROPIC_API_KEY"), "{providers}");
    let (status, ui) = check(&report, "ui");
    assert_eq!((status, ui.as_str()), ("ok", "built into this heddle | "));
    assert_eq!(check(&report, "home").0, "ok");
    assert_eq!(check(&report, "index").0, "ok");
    assert_eq!(check(&report, "shadow").0, "ok");
    assert_eq!(report["status"], "warn");

    // The text form: one line per check, each warning with its fix.
    let text_out = sandbox.heddle(&["doctor"]);
    let stdout = text(&text_out.stdout);
    assert_eq!(text_out.status.code(), Some(0), "{}", describe(&text_out));
    assert!(stdout.contains("warn  providers"), "{stdout}");
    assert!(stdout.contains("fix: set ANTHROPIC_API_KEY"), "{stdout}");
    assert!(stdout.contains("ok    index"), "{stdout}");
}

#[test]
fn a_configured_provider_is_named_without_its_key() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.home().join("heddle.toml"),
        "[providers.local]\nbase_url = \"http://127.0.0.1:9/v1\"\napi_key_env = \"LOCAL_KEY\"\n",
    )
    .unwrap();
    let (output, report) = doctor_json(&sandbox, |c| {
        c.env("ANTHROPIC_API_KEY", SECRET)
            .env("LOCAL_KEY", "local-secret-value");
    });
    let (status, providers) = check(&report, "providers");
    assert_eq!(status, "ok", "{providers}");
    assert!(providers.contains("anthropic (key set)"), "{providers}");
    assert!(providers.contains("local"), "{providers}");
    let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(
        !all.contains(SECRET) && !all.contains("local-secret-value"),
        "{all}"
    );
}

#[test]
fn a_broken_run_index_fails_with_how_to_rebuild_it() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.home().join("heddle.db"),
        "this is not a SQLite database, it is a sentence of plain text long enough",
    )
    .unwrap();
    let (output, report) = doctor_json(&sandbox, |_| {});
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let (status, index) = check(&report, "index");
    assert_eq!(status, "fail", "{index}");
    assert!(index.contains("heddle.db"), "{index}");
    assert!(index.contains("heddle reindex"), "{index}");
    assert_eq!(report["status"], "fail");
}

#[test]
fn a_home_that_cannot_be_written_fails() {
    let sandbox = Sandbox::new();
    // A file where the home folder should be: nothing can be written under it, even by
    // root (whom permission bits do not stop).
    let file = sandbox.path().join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    for home in [file.clone(), file.join("heddle")] {
        let (output, report) = doctor_json(&sandbox, |c| {
            c.env("HEDDLE_HOME", &home);
        });
        assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
        let (status, summary) = check(&report, "home");
        assert_eq!(status, "fail", "{summary}");
        assert!(summary.contains("not a folder"), "{summary}");
        assert!(summary.contains("HEDDLE_HOME"), "{summary}");
    }
}

#[test]
fn git_missing_from_path_is_reported_with_how_to_install_it() {
    let sandbox = Sandbox::new();
    let empty = sandbox.path().join("empty-bin");
    std::fs::create_dir(&empty).unwrap();
    let (output, report) = doctor_json(&sandbox, |c| {
        c.env("PATH", &empty);
    });
    let (status, git) = check(&report, "git");
    assert_eq!(status, "warn", "{git}");
    assert!(
        git.contains("not on PATH") && git.contains("apt install git"),
        "{git}"
    );
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
}

#[test]
fn shadow_repositories_are_verified_and_a_damaged_one_fails() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow(
        "flow.dot",
        r#"digraph F { start [shape=Mdiamond]; exit [shape=Msquare];
           write [shape=parallelogram, script="echo hi > out.txt"]; start -> write -> exit; }"#,
    );
    let run = sandbox.heddle(&["run", flow.to_str().unwrap(), "--checkpoints", "shadow"]);
    assert!(run.status.success(), "{}", describe(&run));
    let (_, report) = doctor_json(&sandbox, |_| {});
    let (status, shadow) = check(&report, "shadow");
    assert_eq!(status, "ok", "{shadow}");
    assert!(
        shadow.contains("shadow repositories: 1; runs checkpointed in them, verified: 1"),
        "{shadow}"
    );

    // The run's branch lost: its checkpoints cannot be verified.
    let repo = std::fs::read_dir(sandbox.home().join("shadow"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    std::fs::remove_dir_all(repo.join("refs/heads")).unwrap();
    let _ = std::fs::remove_file(repo.join("packed-refs"));
    // And a folder that is no repository of Heddle's at all.
    std::fs::create_dir_all(sandbox.home().join("shadow/0123456789abcdef")).unwrap();
    let (output, report) = doctor_json(&sandbox, |_| {});
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let (status, shadow) = check(&report, "shadow");
    assert_eq!(status, "fail", "{shadow}");
    assert!(shadow.contains("run "), "{shadow}");
    assert!(
        shadow.contains("0123456789abcdef: no heddle-workspace"),
        "{shadow}"
    );
}

#[test]
fn a_ui_folder_without_its_page_fails() {
    let sandbox = Sandbox::new();
    let (output, report) = doctor_json(&sandbox, |c| {
        c.env("HEDDLE_UI_DIR", sandbox.path());
    });
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let (status, ui) = check(&report, "ui");
    assert_eq!(status, "fail", "{ui}");
    assert!(
        ui.contains("HEDDLE_UI_DIR") && ui.contains("no index.html"),
        "{ui}"
    );
}

#[test]
fn webkitgtk_is_found_where_the_loader_looks_first() {
    let sandbox = Sandbox::new();
    let libs = sandbox.path().join("libs");
    std::fs::create_dir(&libs).unwrap();
    std::fs::write(libs.join("libwebkit2gtk-4.1.so.0"), "").unwrap();
    let (_, report) = doctor_json(&sandbox, |c| {
        c.env("LD_LIBRARY_PATH", &libs);
    });
    let (status, webkit) = check(&report, "webkitgtk");
    assert_eq!(status, "ok", "{webkit}");
    assert!(webkit.contains(libs.to_str().unwrap()), "{webkit}");
}
