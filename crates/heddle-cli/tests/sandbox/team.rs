//! A team for the run queue's tests: the laptop's git repository, a bare clone of it as the
//! team's remote, and a run index on the test PostgreSQL that every machine (sandbox) shares.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

use super::{Sandbox, describe, git, postgres_database, text};

/// A workflow whose one stage writes `made.txt` ("pushed by a worker"), for the tests of
/// the remotes a worker pushes to.
pub const PUSHED_FLOW: &str = r#"digraph Networked {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    write [shape=parallelogram, script="echo pushed by a worker > made.txt"];
    start -> write -> exit;
}
"#;

/// A team: the laptop's repository (its sandbox's `work/`), a bare clone of it as the
/// remote, and a run index on the test PostgreSQL that every machine shares.
pub struct Team {
    pub laptop: Sandbox,
    pub url: String,
    pub remote: PathBuf,
}

impl Team {
    /// `flows` (path, source) committed in the laptop's repository, which the remote clones.
    pub fn with(flows: &[(&str, &str)]) -> Team {
        let laptop = Sandbox::new();
        let url = postgres_database(&laptop);
        laptop.clean_repo();
        let team = Team {
            remote: laptop.path().join("team.git"),
            laptop,
            url,
        };
        if !flows.is_empty() {
            team.commit(flows);
        }
        git(
            team.laptop.path(),
            &[
                "clone",
                "-q",
                "--bare",
                team.work().to_str().unwrap(),
                team.remote(),
            ],
        );
        team
    }

    pub fn work(&self) -> PathBuf {
        self.laptop.work()
    }

    pub fn remote(&self) -> &str {
        self.remote.to_str().unwrap()
    }

    /// Commits `flows` in the laptop's repository (not pushed to the remote).
    pub fn commit(&self, flows: &[(&str, &str)]) {
        let work = self.work();
        for (path, source) in flows {
            let file = work.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, source).unwrap();
        }
        git(&work, &["add", "-A"]);
        git(&work, &["commit", "-qm", "workflows"]);
    }

    /// `heddle ARGS` on `machine`, sharing the team's index.
    pub fn heddle(&self, machine: &Sandbox, args: &[&str]) -> Command {
        let mut command = machine.command(args);
        command.env("HEDDLE_DATABASE_URL", &self.url);
        command
    }

    /// `heddle run --queue FLOW` in the laptop's repository: the entry's id.
    pub fn queue(&self, flow: &str) -> String {
        let queued = self
            .heddle(&self.laptop, &["run", "--queue", flow])
            .current_dir(self.work())
            .output()
            .unwrap();
        assert!(queued.status.success(), "{}", describe(&queued));
        let entry = text(&queued.stdout).trim().to_string();
        assert_eq!(entry.len(), 26, "a ULID: {}", describe(&queued));
        entry
    }

    /// `heddle worker --once --name NAME` on `machine`, with `env`; it must succeed.
    pub fn work_once(&self, machine: &Sandbox, name: &str, env: &[(&str, &OsStr)]) -> String {
        let args = [
            "worker",
            "--remote",
            self.remote(),
            "--once",
            "--name",
            name,
        ];
        let out: Output = self
            .heddle(machine, &args)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        text(&out.stdout)
    }

    /// `heddle worker --remote REMOTE --once` on `machine` with `env` (and without the
    /// caller's trusted certificates): what it did, succeeding or not.
    pub fn work_once_from(&self, machine: &Sandbox, remote: &str, env: &[(&str, &str)]) -> Output {
        self.heddle(
            machine,
            &["worker", "--remote", remote, "--once", "--name", "net"],
        )
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR")
        .envs(env.iter().copied())
        .output()
        .unwrap()
    }

    /// The rows of `heddle ps -a` on `machine` that list run `run_id`.
    pub fn listed(&self, machine: &Sandbox, run_id: &str) -> Vec<String> {
        let ps = self.heddle(machine, &["ps", "-a"]).output().unwrap();
        assert!(ps.status.success(), "{}", describe(&ps));
        text(&ps.stdout)
            .lines()
            .filter(|l| l.starts_with(run_id))
            .map(str::to_string)
            .collect()
    }
}

/// The settings every machine of `team` shares run files with: the index, and a prefix of
/// the test S3 server's bucket (`HEDDLE_TEST_S3_URL`) for this team alone.
pub fn shared_files_env(team: &Team) -> Vec<(&'static str, String)> {
    let endpoint = std::env::var("HEDDLE_TEST_S3_URL").unwrap_or_else(|_| {
        panic!(
            "HEDDLE_TEST_S3_URL is not set: start the test S3 server with \
             `export HEDDLE_TEST_S3_URL=$(scripts/s3-for-tests.sh start)` (scripts/test.sh does)"
        )
    });
    let store = format!(
        "s3://heddle-test/team-{}",
        team.laptop.path().file_name().unwrap().to_string_lossy()
    );
    vec![
        ("HEDDLE_DATABASE_URL", team.url.clone()),
        ("HEDDLE_RUN_FILES_URL", store),
        ("AWS_ENDPOINT_URL", endpoint),
        ("AWS_ALLOW_HTTP", "true".into()),
        ("AWS_ACCESS_KEY_ID", "test".into()),
        ("AWS_SECRET_ACCESS_KEY", "test".into()),
        ("AWS_REGION", "us-east-1".into()),
    ]
}

/// The run a worker's report says it ran for `entry` with `status`.
pub fn ran(report: &str, entry: &str, status: &str) -> String {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("entry {entry}: run ")))
        .unwrap_or_else(|| panic!("no run for {entry}: {report}"));
    assert!(line.ends_with(&format!(" {status}")), "{report}");
    line.split_whitespace().nth(3).unwrap().to_string()
}

/// A `heddle worker --once` running in the background on its own machine.
pub struct Working {
    child: Child,
    out: PathBuf,
    _machine: Sandbox,
}

impl Working {
    pub fn start(team: &Team, name: &str) -> Working {
        Working::start_with(team, name, &[])
    }

    /// [`Working::start`] with `env` set.
    pub fn start_with(team: &Team, name: &str, env: &[(&str, &str)]) -> Working {
        let machine = Sandbox::new();
        let out = machine.path().join("worker.out");
        let child = team
            .heddle(
                &machine,
                &[
                    "worker",
                    "--remote",
                    team.remote(),
                    "--once",
                    "--name",
                    name,
                ],
            )
            .envs(env.iter().copied())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        Working {
            child,
            out,
            _machine: machine,
        }
    }

    /// Waits for the worker to run out of entries; what it reported.
    pub fn finish(mut self) -> String {
        let status = self.child.wait().unwrap();
        let report = std::fs::read_to_string(&self.out).unwrap();
        assert!(status.success(), "{report}");
        report
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
