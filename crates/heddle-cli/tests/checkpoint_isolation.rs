//! Git checkpoints are isolated from the user's git setup: a global config that signs
//! every commit with a key that does not exist, runs hooks from its own folder, names
//! another author and converts line endings, plus hooks in the repository's own
//! `.git/hooks`, must change nothing about what `heddle run` records, in worktree mode
//! and in shadow mode (nor, for a shadow repository, stand in for its own settings). Checked
//! with the plain `git` CLI, which sees none of that config.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

mod gitfixture;
mod sandbox;

use gitfixture::{Fixture, describe, git, json, run_id};

const HOOKS: &[&str] = &[
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-checkout",
    "reference-transaction",
    "post-index-change",
];

/// Writes CRLF and LF files.
const FLOW: &str = r#"digraph Hostile {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    edit  [shape=parallelogram, script="printf 'a\\r\\nb\\r\\n' > crlf.txt; echo lf > lf.txt"];
    start -> edit -> exit;
}
"#;

fn executable(path: &Path, content: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Installs hooks in `hooks_dir` that leave a marker in `markers` when run.
fn install_hooks(hooks_dir: &Path, markers: &Path, origin: &str) {
    for hook in HOOKS {
        let script = format!(
            "#!/bin/sh\ntouch '{}/{origin}-{hook}'\nexit 0\n",
            markers.display()
        );
        executable(&hooks_dir.join(hook), &script);
    }
}

/// The hostile setup: hooks (global and in the repo's .git/hooks), a gpg that leaves a
/// marker and fails, and ~/.gitconfig; the markers folder and the config file.
fn hostile(fx: &Fixture) -> (PathBuf, PathBuf) {
    let markers = fx.root().join("markers");
    std::fs::create_dir_all(&markers).unwrap();
    let hooks = fx.root().join("hostile-hooks");
    install_hooks(&hooks, &markers, "global");
    install_hooks(&fx.repo().join(".git/hooks"), &markers, "repo");
    let gpg = fx.root().join("fake-gpg");
    let script = format!("#!/bin/sh\ntouch '{}/gpg'\nexit 1\n", markers.display());
    executable(&gpg, &script);
    let config = fx.home().join(".gitconfig");
    let text = format!(
        "[user]\n\tname = Hostile User\n\temail = hostile@example.com\n\tsigningkey = nonexistent\n\
         [commit]\n\tgpgsign = true\n[tag]\n\tgpgsign = true\n\
         [gpg]\n\tprogram = {}\n[core]\n\thooksPath = {}\n\tautocrlf = true\n",
        gpg.display(),
        hooks.display()
    );
    std::fs::write(&config, text).unwrap();
    (markers, config)
}

fn run_hostile(fx: &Fixture, config: &Path, checkpoints: &str) -> PathBuf {
    let flow = fx.write_flow("hostile.dot", FLOW);
    let args = ["run", flow.to_str().unwrap(), "--checkpoints", checkpoints];
    let env: &[(&str, &OsStr)] = &[
        ("GIT_CONFIG_GLOBAL", config.as_os_str()),
        ("GIT_AUTHOR_NAME", OsStr::new("Hostile Env")),
        ("GIT_COMMITTER_NAME", OsStr::new("Hostile Env")),
    ];
    let out = fx.heddle(&args, env);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    fx.only_run()
}

fn assert_no_markers(markers: &Path) {
    let left: Vec<_> = std::fs::read_dir(markers)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "hooks or gpg ran: {left:?}");
}

/// Every commit in `range` is unsigned and by Heddle.
fn assert_unsigned_and_by_heddle(dir: &Path, git_dir: &[&str], range: &str, commits: usize) {
    let mut args = git_dir.to_vec();
    args.extend(["log", "--format=%H %G? %an <%ae> | %cn <%ce>", range]);
    let log = git(dir, &args);
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), commits, "{log}");
    for line in lines {
        let (sha, rest) = line.split_once(' ').unwrap();
        assert_eq!(
            rest, "N Heddle <heddle@localhost> | Heddle <heddle@localhost>",
            "{line}"
        );
        let mut args = git_dir.to_vec();
        args.extend(["cat-file", "commit", sha]);
        let raw = git(dir, &args);
        assert!(!raw.contains("gpgsig"), "{raw}");
    }
}

#[test]
fn worktree_mode_ignores_signing_hooks_and_identity_from_the_users_config() {
    let fx = Fixture::new();
    fx.init_repo(&[("keep.txt", "one\n")]);
    let base = git(&fx.repo(), &["rev-parse", "HEAD"]).trim().to_string();
    let (markers, config) = hostile(&fx);
    let run = run_hostile(&fx, &config, "worktree");
    let id = run_id(&run);
    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        "worktree"
    );
    assert_no_markers(&markers);
    let range = format!("{base}..heddle/run/{id}");
    assert_unsigned_and_by_heddle(&fx.repo(), &[], &range, 3);
    assert_unsigned_and_by_heddle(&fx.repo(), &[], &format!("refs/heddle/{id}"), 3);
    let show = |path: &str| git(&fx.repo(), &["show", &format!("heddle/run/{id}:{path}")]);
    assert_eq!(show("lf.txt"), "lf\n");
    assert_eq!(show("keep.txt"), "one\n");
}

#[test]
fn shadow_mode_ignores_signing_hooks_identity_and_line_endings_from_the_users_config() {
    let fx = Fixture::new();
    fx.init_repo(&[("keep.txt", "one\n")]);
    // Dirty, so auto would pick shadow too; the hooks in .git/hooks are the user's.
    fx.write("keep.txt", b"one\nuncommitted\n");
    let (markers, config) = hostile(&fx);
    let run = run_hostile(&fx, &config, "shadow");
    let id = run_id(&run);
    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        "shadow"
    );
    assert_no_markers(&markers);
    let shadow = fx.shadow_dir();
    let git_dir = format!("--git-dir={}", shadow.display());
    // setup, start, edit, exit.
    assert_unsigned_and_by_heddle(&fx.repo(), &[&git_dir], &format!("heddle/run/{id}"), 4);
    assert_unsigned_and_by_heddle(&fx.repo(), &[&git_dir], &format!("refs/heddle/{id}"), 3);
    let blob = |path: &str| {
        let spec = format!("heddle/run/{id}:{path}");
        git(&fx.repo(), &[&git_dir, "cat-file", "blob", &spec])
    };
    // Stored as the stage wrote them: autocrlf from the user's config does not apply.
    assert_eq!(blob("crlf.txt"), "a\r\nb\r\n");
    assert_eq!(blob("keep.txt"), "one\nuncommitted\n");
    // The stage wrote the files in place, byte for byte.
    assert_eq!(
        std::fs::read(fx.repo().join("crlf.txt")).unwrap(),
        b"a\r\nb\r\n"
    );
}

#[test]
fn an_older_shadow_repository_pins_reflogs_off_in_its_own_config_whatever_the_user_s_says() {
    let fx = Fixture::new();
    fx.init_repo(&[("keep.txt", "one\n")]);
    let flow = fx.write_flow("hostile.dot", FLOW);
    fx.run(&flow, &["--checkpoints", "shadow"], 0);
    let shadow = fx.shadow_dir();
    let git_dir = format!("--git-dir={}", shadow.display());
    // As older versions made it: no key of its own. The user's config turns reflogs off,
    // which must not stand in for the repository's own setting.
    git(
        &fx.repo(),
        &[&git_dir, "config", "--unset", "core.logAllRefUpdates"],
    );
    let config = fx.home().join(".gitconfig");
    std::fs::write(&config, "[core]\n\tlogAllRefUpdates = false\n").unwrap();
    let args = ["run", flow.to_str().unwrap(), "--checkpoints", "shadow"];
    let out = fx.heddle(&args, &[("GIT_CONFIG_GLOBAL", config.as_os_str())]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let local = std::process::Command::new("git")
        .args([
            &git_dir,
            "config",
            "--local",
            "--get",
            "core.logAllRefUpdates",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&local.stdout).trim(),
        "false",
        "the shadow repository's own config: {}",
        String::from_utf8_lossy(&local.stderr)
    );
}
