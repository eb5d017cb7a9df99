//! Shared by the CLI's run tests: a sandbox (HEDDLE_HOME and a work dir in one temp dir)
//! that runs the real `heddle` binary, and small readers of what it leaves on disk.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

/// A temp dir holding `home/` (HEDDLE_HOME) and `work/` (where stages run).
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        Sandbox { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_heddle"));
        command
            .args(args)
            .env("HEDDLE_HOME", self.home())
            .env("HOME", self.dir.path())
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .env("NO_COLOR", "1")
            .current_dir(self.work())
            .stdin(Stdio::null());
        command
    }

    pub fn heddle(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Starts `heddle args` in the background, its output going to files in the sandbox.
    pub fn spawn(&self, args: &[&str]) -> Child {
        let log = |name: &str| std::fs::File::create(self.dir.path().join(name)).unwrap();
        self.command(args)
            .stdout(log("spawned.out"))
            .stderr(log("spawned.err"))
            .spawn()
            .unwrap()
    }

    pub fn spawned_output(&self) -> String {
        let read = |name: &str| std::fs::read_to_string(self.dir.path().join(name));
        format!(
            "{}{}",
            read("spawned.out").unwrap_or_default(),
            read("spawned.err").unwrap_or_default()
        )
    }

    pub fn write_flow(&self, name: &str, source: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, source).unwrap();
        path
    }

    /// The run folders under HEDDLE_HOME/runs, sorted.
    pub fn runs(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.home().join("runs")) else {
            return Vec::new();
        };
        let mut runs: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        runs.sort();
        runs
    }

    pub fn only_run(&self) -> PathBuf {
        let runs = self.runs();
        assert_eq!(runs.len(), 1, "expected one run folder, found {runs:?}");
        runs[0].clone()
    }
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn describe(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

pub fn json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The run id in a run folder's manifest.
pub fn run_id(run: &Path) -> String {
    json(&run.join("manifest.json"))["run_id"]
        .as_str()
        .unwrap()
        .to_string()
}
