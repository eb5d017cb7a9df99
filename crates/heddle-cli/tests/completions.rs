//! `heddle completions SHELL` and `heddle man`, from the real binary: the generated script
//! and pages know the subcommands, and `--out-dir` writes one page per command.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Output};

fn heddle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heddle"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let output = heddle(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Subcommands every generated text must name.
const SUBCOMMANDS: &[&str] = &[
    "validate",
    "serve",
    "run",
    "resume",
    "checkpoints",
    "completions",
    "man",
    "doctor",
];

#[test]
fn completion_scripts_name_the_subcommands_and_their_flags() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell}: no `{sub}`");
        }
        assert!(script.contains("ui-dir"), "{shell}: no serve flag");
    }
    let bash = stdout_of(&["completions", "bash"]);
    assert!(bash.contains("complete -F _heddle"), "{bash}");
    let unknown = heddle(&["completions", "tcsh"]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn the_manual_page_names_the_subcommands() {
    let page = stdout_of(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH heddle 1"),
        "{page}"
    );
    assert!(page.contains(".TH heddle 1"), "{page}");
    for sub in SUBCOMMANDS {
        assert!(
            page.contains(&format!("heddle\\-{sub}(1)")),
            "no `{sub}` in {page}"
        );
    }
}

#[test]
fn man_out_dir_writes_a_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let listed = stdout_of(&["man", "--out-dir", out.to_str().unwrap()]);
    for page in [
        "heddle.1",
        "heddle-serve.1",
        "heddle-run.1",
        "heddle-man.1",
        "heddle-doctor.1",
    ] {
        let path = out.join(page);
        assert!(path.is_file(), "{page} missing; listed {listed}");
        assert!(listed.contains(&path.display().to_string()), "{listed}");
    }
    let serve = std::fs::read_to_string(out.join("heddle-serve.1")).unwrap();
    assert!(serve.contains("ui\\-dir"), "{serve}");
    let artifact_list = out.join("heddle-artifact-list.1");
    assert!(artifact_list.is_file(), "nested subcommands get pages too");
}
