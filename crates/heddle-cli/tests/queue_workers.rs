//! The run queue end to end, through the real binary, with a PostgreSQL index and a bare git
//! repository as the team's remote: `heddle run --queue` on one machine, `heddle worker` on
//! another runs it in a fresh clone of the remote and pushes the run there; a worker killed
//! inside a stage is replaced without any finished stage running again; a run that cannot
//! start finishes its entry with the reason; an entry cancelled with `heddle cancel --queued`
//! never runs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sandbox::team::{Team, ran};
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

#[test]
fn a_queued_entry_cancelled_from_the_command_line_never_runs() {
    let team = Team::with(&[("flows/queued.dot", FLOW)]);
    let entry = team.queue("flows/queued.dot");
    let cancel = |id: &str| {
        team.heddle(&team.laptop, &["cancel", "--queued", id])
            .output()
            .unwrap()
    };

    let cancelled = cancel(&entry);
    assert!(cancelled.status.success(), "{}", describe(&cancelled));
    assert_eq!(
        text(&cancelled.stdout).trim(),
        format!("cancelled queue entry {entry}; no worker will run it")
    );
    // No worker runs it.
    let idle = team.work_once(&Sandbox::new(), "w1", &[]);
    assert!(!idle.contains("entry "), "{idle}");

    // Cancelled once; asked again it says it finished; an unknown id is named.
    let again = cancel(&entry);
    assert!(!again.status.success());
    assert!(
        text(&again.stderr).contains("already finished (cancelled)"),
        "{}",
        describe(&again)
    );
    let unknown = cancel("01NOSUCHENTRY0000000000000");
    assert!(!unknown.status.success());
    assert!(
        text(&unknown.stderr).contains("no queue entry 01NOSUCHENTRY0000000000000"),
        "{}",
        describe(&unknown)
    );
}

#[test]
fn a_worker_takes_its_remote_from_heddle_team_remote() {
    let team = Team::with(&[("flows/queued.dot", FLOW)]);
    let entry = team.queue("flows/queued.dot");
    let machine = Sandbox::new();

    let without = team
        .heddle(&machine, &["worker", "--once"])
        .output()
        .unwrap();
    assert!(!without.status.success());
    assert!(
        text(&without.stderr).contains("give --remote")
            && text(&without.stderr).contains("HEDDLE_TEAM_REMOTE"),
        "{}",
        describe(&without)
    );

    let with_env = team
        .heddle(&machine, &["worker", "--once"])
        .env("HEDDLE_TEAM_REMOTE", team.remote())
        .output()
        .unwrap();
    assert!(with_env.status.success(), "{}", describe(&with_env));
    let run_id = ran(&text(&with_env.stdout), &entry, "success");
    let refs = git(&team.remote, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{run_id}")), "{refs}");
}
