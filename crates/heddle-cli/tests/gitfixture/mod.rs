//! Shared by the git checkpoint tests: a temp dir holding a user home (`home/`), Heddle's
//! data (`heddle/`), a workspace (`repo/`) and workflow files, a `heddle` runner with a
//! cleared environment, and the plain `git` CLI to check what a run left behind.
//!
//! Every `git` call made to *check* something ignores system and global config, so a
//! hostile config a test sets up for Heddle cannot change what the checks see.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[allow(unused_imports)] // Not every test crate uses all of them.
pub use super::sandbox::{describe, events, json, run_id, text};
use super::sandbox::{only_run_in, run_folders};

/// The temp dir of one test.
pub struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["home", "heddle", "repo", "flows"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        Fixture { dir }
    }

    /// The temp dir, canonical (so paths compare equal to what Heddle records).
    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    /// The user's home folder (HOME for `heddle`).
    pub fn home(&self) -> PathBuf {
        self.root().join("home")
    }

    /// HEDDLE_HOME.
    pub fn heddle_home(&self) -> PathBuf {
        self.root().join("heddle")
    }

    /// The workspace the run works in.
    pub fn repo(&self) -> PathBuf {
        self.root().join("repo")
    }

    /// Writes `relative` (folders made as needed) under the workspace.
    pub fn write(&self, relative: &str, content: &[u8]) -> PathBuf {
        let path = self.repo().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }

    pub fn write_flow(&self, name: &str, source: &str) -> PathBuf {
        let path = self.root().join("flows").join(name);
        std::fs::write(&path, source).unwrap();
        path
    }

    /// `git init` in the workspace with `files`, all committed on `main`.
    pub fn init_repo(&self, files: &[(&str, &str)]) {
        git(&self.repo(), &["init", "-q", "-b", "main"]);
        for (path, content) in files {
            self.write(path, content.as_bytes());
        }
        commit_all(&self.repo(), "initial");
    }

    /// `heddle ARGS` in the workspace, with only PATH, HOME, HEDDLE_HOME, NO_COLOR,
    /// HEDDLE_TRUST_WORKFLOWS=1 and `extra` in its environment.
    pub fn heddle(&self, args: &[&str], extra: &[(&str, &OsStr)]) -> Output {
        self.heddle_command(args, extra).output().unwrap()
    }

    /// The command [`Fixture::heddle`] runs, to spawn it instead.
    pub fn heddle_command(&self, args: &[&str], extra: &[(&str, &OsStr)]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_heddle"));
        command
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home())
            .env("HEDDLE_HOME", self.heddle_home())
            .env("NO_COLOR", "1")
            // The tests' own workflows are trusted, as in CI.
            .env("HEDDLE_TRUST_WORKFLOWS", "1")
            .current_dir(self.repo())
            .stdin(Stdio::null());
        for (key, value) in extra {
            command.env(key, value);
        }
        command
    }

    /// `heddle run FLOW ARGS...`, which must exit with `code`; the run folder.
    pub fn run(&self, flow: &Path, args: &[&str], code: i32) -> PathBuf {
        let mut all = vec!["run", flow.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = self.heddle(&all, &[]);
        assert_eq!(out.status.code(), Some(code), "{}", describe(&out));
        self.only_run()
    }

    /// The run folders under HEDDLE_HOME/runs.
    pub fn runs(&self) -> Vec<PathBuf> {
        run_folders(&self.heddle_home())
    }

    pub fn only_run(&self) -> PathBuf {
        only_run_in(&self.heddle_home())
    }

    /// The one shadow repository under HEDDLE_HOME/shadow/.
    pub fn shadow_dir(&self) -> PathBuf {
        let dirs: Vec<PathBuf> = std::fs::read_dir(self.heddle_home().join("shadow"))
            .unwrap_or_else(|e| panic!("no shadow folder: {e}"))
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(
            dirs.len(),
            1,
            "expected one shadow repository, found {dirs:?}"
        );
        dirs[0].clone()
    }
}

/// A `git` command in `dir` that sees no system or global config and no user hooks.
pub fn git_command(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("LC_ALL", "C")
        .stdin(Stdio::null());
    command
}

/// `git ARGS` in `dir`; its output (raw), which must be a success.
pub fn git_bytes(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = git_command(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        describe(&out)
    );
    out.stdout
}

/// `git ARGS` in `dir`; its output as text, which must be a success.
pub fn git(dir: &Path, args: &[&str]) -> String {
    text(&git_bytes(dir, args))
}

/// Whether `git ARGS` in `dir` succeeds.
pub fn git_ok(dir: &Path, args: &[&str]) -> bool {
    git_command(dir)
        .args(args)
        .output()
        .unwrap()
        .status
        .success()
}

/// Commits everything in `dir` as a test user.
pub fn commit_all(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(
        dir,
        &[
            "-c",
            "user.name=Test User",
            "-c",
            "user.email=test@example.com",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "--no-verify",
            "-m",
            message,
        ],
    );
}

/// The entries of `rev`'s tree, path (lossy for names that are not UTF-8) to mode.
pub fn tree(dir: &Path, git_dir: Option<&Path>, rev: &str) -> BTreeMap<String, String> {
    let mut args: Vec<String> = Vec::new();
    if let Some(git_dir) = git_dir {
        args.push(format!("--git-dir={}", git_dir.display()));
    }
    args.extend(["ls-tree", "-r", "-z", rev].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let raw = git_bytes(dir, &args);
    raw.split(|b| *b == 0)
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            let line = text(entry);
            let (meta, path) = line.split_once('\t').unwrap();
            let mode = meta.split_whitespace().next().unwrap().to_string();
            (path.to_string(), mode)
        })
        .collect()
}

/// The messages of the run's `warning` events.
pub fn warnings(run: &Path) -> Vec<String> {
    events(run)
        .iter()
        .filter(|e| e["event"] == "warning")
        .map(|e| e["properties"]["message"].as_str().unwrap().to_string())
        .collect()
}

/// Asserts some warning contains every one of `words`.
pub fn assert_warned(run: &Path, words: &[&str]) {
    let all = warnings(run);
    assert!(
        all.iter()
            .any(|w| words.iter().all(|word| w.contains(word))),
        "no warning mentions {words:?}; warnings: {all:#?}"
    );
}

/// What a checkout looks like from the outside; equal before and after a run.
#[derive(Debug, PartialEq, Eq)]
pub struct Checkout {
    pub head_file: Vec<u8>,
    pub head: String,
    pub index: Vec<u8>,
    pub config: Vec<u8>,
    pub files: BTreeMap<PathBuf, Vec<u8>>,
    pub status: String,
    pub refs: String,
}

pub fn checkout(repo: &Path) -> Checkout {
    // The index is read before any git command runs; status must not refresh it.
    let index = std::fs::read(repo.join(".git/index")).unwrap();
    Checkout {
        head_file: std::fs::read(repo.join(".git/HEAD")).unwrap(),
        head: git(repo, &["rev-parse", "HEAD"]),
        index,
        config: std::fs::read(repo.join(".git/config")).unwrap(),
        files: snapshot_files(repo, false),
        status: git(
            repo,
            &["--no-optional-locks", "status", "--porcelain", "--ignored"],
        ),
        // The run's own refs (worktree mode) are the only ones allowed to appear.
        refs: git(repo, &["for-each-ref", "--format=%(refname) %(objectname)"])
            .lines()
            .filter(|l| !l.starts_with("refs/heads/heddle/") && !l.starts_with("refs/heddle/"))
            .map(|l| format!("{l}\n"))
            .collect(),
    }
}

/// Every regular file, link and folder under `dir` (skipping `.git` folders at any depth
/// unless `with_git`), relative path to its content (a link's target; folders empty).
pub fn snapshot_files(dir: &Path, with_git: bool) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    walk(dir, dir, with_git, &mut found);
    found
}

fn walk(root: &Path, dir: &Path, with_git: bool, found: &mut BTreeMap<PathBuf, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if !with_git && entry.file_name() == ".git" {
            continue;
        }
        let relative = path.strip_prefix(root).unwrap().to_path_buf();
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            found.insert(relative, target.into_os_string().into_encoded_bytes());
        } else if kind.is_dir() {
            found.insert(relative, Vec::new());
            walk(root, &path, with_git, found);
        } else {
            found.insert(relative, std::fs::read(&path).unwrap());
        }
    }
}
