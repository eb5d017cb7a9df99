//! The run queue end to end, through the real binary, with a PostgreSQL index and a bare git
//! repository as the team's remote: `heddle run --queue` on one machine, `heddle worker` on
//! another runs it in a fresh clone of the remote and pushes the run there; a worker killed
//! inside a stage is replaced without any finished stage running again; a run that cannot
//! start finishes its entry with the reason.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::ffi::OsStr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use sandbox::{Sandbox, describe, git, postgres_database, text};

const FLOW: &str = r#"digraph Queued {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    write [shape=parallelogram, script="echo made by a worker > made.txt"];
    start -> write -> exit;
}
"#;

const TAKEOVER: &str = r#"digraph Takeover {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    first [shape=parallelogram, script="echo first >> \"$LEDGER\" && echo one > first.txt"];
    slow  [shape=parallelogram,
           script="echo slow >> \"$LEDGER\"; [ -f \"$LEDGER.slept\" ] || { touch \"$LEDGER.slept\"; sleep 60; }; echo two > slow.txt"];
    last  [shape=parallelogram, script="echo last >> \"$LEDGER\""];
    start -> first -> slow -> last -> exit;
}
"#;

/// A team: the laptop's repository (its sandbox's `work/`), a bare clone of it as the
/// remote, and a run index on the test PostgreSQL that every machine shares.
struct Team {
    laptop: Sandbox,
    url: String,
    remote: PathBuf,
}

impl Team {
    /// `flows` (path, source) committed in the laptop's repository, which the remote clones.
    fn with(flows: &[(&str, &str)]) -> Team {
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

    fn work(&self) -> PathBuf {
        self.laptop.work()
    }

    fn remote(&self) -> &str {
        self.remote.to_str().unwrap()
    }

    /// Commits `flows` in the laptop's repository (not pushed to the remote).
    fn commit(&self, flows: &[(&str, &str)]) {
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
    fn heddle(&self, machine: &Sandbox, args: &[&str]) -> Command {
        let mut command = machine.command(args);
        command.env("HEDDLE_DATABASE_URL", &self.url);
        command
    }

    /// `heddle run --queue FLOW` in the laptop's repository: the entry's id.
    fn queue(&self, flow: &str) -> String {
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
    fn work_once(&self, machine: &Sandbox, name: &str, env: &[(&str, &OsStr)]) -> String {
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

    /// The rows of `heddle ps -a` on `machine` that list run `run_id`.
    fn listed(&self, machine: &Sandbox, run_id: &str) -> Vec<String> {
        let ps = self.heddle(machine, &["ps", "-a"]).output().unwrap();
        assert!(ps.status.success(), "{}", describe(&ps));
        text(&ps.stdout)
            .lines()
            .filter(|l| l.starts_with(run_id))
            .map(str::to_string)
            .collect()
    }
}

/// The run a worker's report says it ran for `entry` with `status`.
fn ran(report: &str, entry: &str, status: &str) -> String {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("entry {entry}: run ")))
        .unwrap_or_else(|| panic!("no run for {entry}: {report}"));
    assert!(line.ends_with(&format!(" {status}")), "{report}");
    line.split_whitespace().nth(3).unwrap().to_string()
}

/// The lines of `ledger` (none while it is missing).
fn ledger_lines(ledger: &Path) -> Vec<String> {
    std::fs::read_to_string(ledger)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_queued_run_is_run_by_a_worker_and_pushed_to_the_remote() {
    let team = Team::with(&[("flows/queued.dot", FLOW)]);
    let entry = team.queue("flows/queued.dot");
    assert!(team.laptop.runs().is_empty(), "nothing runs on the laptop");

    let machine = Sandbox::new();
    let run_id = ran(&team.work_once(&machine, "w1", &[]), &entry, "success");

    // The remote holds the run: its branch (with what the stage wrote) and metadata ref.
    let refs = git(&team.remote, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{run_id}")), "{refs}");
    assert!(
        refs.contains(&format!("refs/heads/heddle/run/{run_id}")),
        "{refs}"
    );
    let made = git(
        &team.remote,
        &["show", &format!("heddle/run/{run_id}:made.txt")],
    );
    assert_eq!(made, "made by a worker\n");

    // Both machines list it, finished.
    for listing in [&team.laptop, &machine].map(|m| team.listed(m, &run_id)) {
        assert!(
            listing.len() == 1 && listing[0].contains("Queued") && listing[0].contains("success"),
            "{listing:?}"
        );
    }
    // Nothing is left for another worker.
    let idle = team.work_once(&machine, "w2", &[]);
    assert!(!idle.contains("entry "), "{idle}");
}

#[test]
fn a_worker_killed_mid_stage_is_replaced_and_no_finished_stage_runs_twice() {
    let team = Team::with(&[("takeover.dot", TAKEOVER)]);
    let ledger = team.laptop.path().join("ledger.txt");
    let entry = team.queue("takeover.dot");

    // The first worker takes the run and is killed (with the stage it runs) inside `slow`.
    let dies = Sandbox::new();
    let args = [
        "worker",
        "--remote",
        team.remote(),
        "--name",
        "dies",
        "--lease",
        "3",
    ];
    let mut first_worker = team
        .heddle(&dies, &args)
        .env("LEDGER", &ledger)
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ledger_lines(&ledger).contains(&"slow".to_string()) {
        assert!(Instant::now() < deadline, "slow never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    let group = format!("-{}", first_worker.id());
    let killed = Command::new("kill")
        .args(["-KILL", "--", &group])
        .status()
        .unwrap();
    assert!(killed.success());
    let _ = first_worker.wait();
    // Its lease (3 s, renewed every second) runs out.
    std::thread::sleep(Duration::from_secs(4));

    let takes_over = Sandbox::new();
    let report = team.work_once(&takes_over, "next", &[("LEDGER", ledger.as_os_str())]);
    let run_id = ran(&report, &entry, "success");

    // `first` finished on the dead worker and is not run again; `slow` was cut off there and
    // runs again from the checkpoint before it.
    assert_eq!(ledger_lines(&ledger), ["first", "slow", "slow", "last"]);
    let branch = format!("heddle/run/{run_id}");
    for (file, content) in [("first.txt", "one\n"), ("slow.txt", "two\n")] {
        let shown = git(&team.remote, &["show", &format!("{branch}:{file}")]);
        assert_eq!(shown, content, "{file} on the remote's run branch");
    }
    let listing = team.listed(&takes_over, &run_id);
    assert!(
        listing.len() == 1 && listing[0].contains("success"),
        "{listing:?}"
    );
}

#[test]
fn a_run_that_cannot_start_finishes_its_entry_with_the_reason() {
    let team = Team::with(&[]);
    // Committed on the laptop but never pushed: workers' clones of the remote lack it.
    team.commit(&[("unpushed.dot", FLOW)]);
    let entry = team.queue("unpushed.dot");

    let machine = Sandbox::new();
    let report = team.work_once(&machine, "w1", &[]);
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("entry {entry}: not started: ")))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        line.contains("unpushed.dot"),
        "names the missing workflow: {line}"
    );
    // The entry is finished: no other worker tries it again.
    let second = team.work_once(&machine, "w2", &[]);
    assert!(!second.contains("entry "), "{second}");
}

#[test]
fn queueing_a_workflow_outside_a_repository_is_refused() {
    let sandbox = Sandbox::new();
    let url = postgres_database(&sandbox);
    let flow = sandbox.write_flow("loose.dot", FLOW);
    let out = sandbox
        .command(&["run", "--queue", flow.to_str().unwrap()])
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", describe(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("loose.dot") && stderr.contains("not in a git repository"),
        "{stderr}"
    );
}
