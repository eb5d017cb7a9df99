//! The run queue end to end, through the real binary, with a PostgreSQL index and a bare git
//! repository as the team's remote: `heddle run --queue` on one machine, `heddle worker` on
//! another runs it in a fresh clone of the remote, pushes the run's branch and metadata ref
//! there, and the first machine lists the run as finished.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::os::unix::process::CommandExt;

use sandbox::{Sandbox, describe, git, postgres_database, text};

const FLOW: &str = r#"digraph Queued {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    write [shape=parallelogram, script="echo made by a worker > made.txt"];
    start -> write -> exit;
}
"#;

#[test]
fn a_queued_run_is_run_by_a_worker_and_pushed_to_the_remote() {
    let laptop = Sandbox::new();
    let url = postgres_database(&laptop);
    laptop.clean_repo();
    let work = laptop.work();
    std::fs::create_dir_all(work.join("flows")).unwrap();
    std::fs::write(work.join("flows/queued.dot"), FLOW).unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-qm", "a workflow"]);
    let remote = laptop.path().join("team.git");
    git(
        laptop.path(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            remote.to_str().unwrap(),
        ],
    );

    let queued = laptop
        .command(&["run", "--queue", "flows/queued.dot"])
        .current_dir(&work)
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(queued.status.success(), "{}", describe(&queued));
    let entry = text(&queued.stdout).trim().to_string();
    assert_eq!(entry.len(), 26, "a ULID: {}", describe(&queued));
    assert!(laptop.runs().is_empty(), "nothing runs on the laptop");

    let machine = Sandbox::new();
    let worked = machine
        .command(&[
            "worker",
            "--remote",
            remote.to_str().unwrap(),
            "--once",
            "--name",
            "w1",
        ])
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(worked.status.success(), "{}", describe(&worked));
    let report = text(&worked.stdout);
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("entry {entry}: run ")))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(line.ends_with(" success"), "{report}");
    let run_id = line.split_whitespace().nth(3).unwrap().to_string();

    // The remote holds the run: its branch (with what the stage wrote) and metadata ref.
    let refs = git(&remote, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{run_id}")), "{refs}");
    assert!(
        refs.contains(&format!("refs/heads/heddle/run/{run_id}")),
        "{refs}"
    );
    let made = git(&remote, &["show", &format!("heddle/run/{run_id}:made.txt")]);
    assert_eq!(made, "made by a worker\n");

    // Both machines list it, finished.
    for sandbox in [&laptop, &machine] {
        let ps = sandbox
            .command(&["ps", "-a"])
            .env("HEDDLE_DATABASE_URL", &url)
            .output()
            .unwrap();
        let listing = text(&ps.stdout);
        let row = listing.lines().find(|l| l.starts_with(&run_id));
        assert!(
            row.is_some_and(|r| r.contains("Queued") && r.contains("success")),
            "{listing}"
        );
    }

    // Nothing is left for another worker.
    let idle = machine
        .command(&["worker", "--remote", remote.to_str().unwrap(), "--once"])
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(idle.status.success(), "{}", describe(&idle));
    assert!(
        !text(&idle.stdout).contains("entry "),
        "{}",
        text(&idle.stdout)
    );
}

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

/// The lines of `ledger` (missing: none).
fn ledger_lines(ledger: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(ledger)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_worker_killed_mid_stage_is_replaced_and_no_finished_stage_runs_twice() {
    let laptop = Sandbox::new();
    let url = postgres_database(&laptop);
    laptop.clean_repo();
    let work = laptop.work();
    std::fs::write(work.join("takeover.dot"), TAKEOVER).unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-qm", "a slow workflow"]);
    let remote = laptop.path().join("team.git");
    git(
        laptop.path(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            remote.to_str().unwrap(),
        ],
    );
    let ledger = laptop.path().join("ledger.txt");
    let queued = laptop
        .command(&["run", "--queue", "takeover.dot"])
        .current_dir(&work)
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(queued.status.success(), "{}", describe(&queued));
    let entry = text(&queued.stdout).trim().to_string();

    // The first worker takes the run and is killed (with the stage it runs) inside `slow`.
    let dies = Sandbox::new();
    let mut first_worker = dies
        .command(&[
            "worker",
            "--remote",
            remote.to_str().unwrap(),
            "--name",
            "dies",
            "--lease",
            "3",
        ])
        .env("HEDDLE_DATABASE_URL", &url)
        .env("LEDGER", &ledger)
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !ledger_lines(&ledger).contains(&"slow".to_string()) {
        assert!(std::time::Instant::now() < deadline, "slow never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let group = format!("-{}", first_worker.id());
    let killed = std::process::Command::new("kill")
        .args(["-KILL", "--", &group])
        .status()
        .unwrap();
    assert!(killed.success());
    let _ = first_worker.wait();
    // Its lease (3 s, renewed every second) runs out.
    std::thread::sleep(std::time::Duration::from_secs(4));

    let takes_over = Sandbox::new();
    let worked = takes_over
        .command(&[
            "worker",
            "--remote",
            remote.to_str().unwrap(),
            "--once",
            "--name",
            "next",
        ])
        .env("HEDDLE_DATABASE_URL", &url)
        .env("LEDGER", &ledger)
        .output()
        .unwrap();
    assert!(worked.status.success(), "{}", describe(&worked));
    let report = text(&worked.stdout);
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("entry {entry}: run ")))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(line.ends_with(" success"), "{report}");
    let run_id = line.split_whitespace().nth(3).unwrap().to_string();

    // `first` finished on the dead worker and is not run again; `slow` was cut off there and
    // runs again from the checkpoint before it.
    assert_eq!(ledger_lines(&ledger), ["first", "slow", "slow", "last"]);
    let branch = format!("heddle/run/{run_id}");
    for (file, content) in [("first.txt", "one\n"), ("slow.txt", "two\n")] {
        let shown = git(&remote, &["show", &format!("{branch}:{file}")]);
        assert_eq!(shown, content, "{file} on the remote's run branch");
    }
    let ps = takes_over
        .command(&["ps", "-a"])
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    let listing = text(&ps.stdout);
    let rows: Vec<&str> = listing.lines().filter(|l| l.starts_with(&run_id)).collect();
    assert!(rows.len() == 1 && rows[0].contains("success"), "{listing}");
}

#[test]
fn a_run_that_cannot_start_finishes_its_entry_with_the_reason() {
    let laptop = Sandbox::new();
    let url = postgres_database(&laptop);
    laptop.clean_repo();
    let work = laptop.work();
    let remote = laptop.path().join("team.git");
    git(
        laptop.path(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            remote.to_str().unwrap(),
        ],
    );
    // Committed here but never pushed: workers' clones of the remote do not have it.
    std::fs::write(work.join("unpushed.dot"), FLOW).unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-qm", "not pushed"]);
    let queued = laptop
        .command(&["run", "--queue", "unpushed.dot"])
        .current_dir(&work)
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(queued.status.success(), "{}", describe(&queued));
    let entry = text(&queued.stdout).trim().to_string();

    let machine = Sandbox::new();
    let worker = |name: &str| {
        machine
            .command(&[
                "worker",
                "--remote",
                remote.to_str().unwrap(),
                "--once",
                "--name",
                name,
            ])
            .env("HEDDLE_DATABASE_URL", &url)
            .output()
            .unwrap()
    };
    let first = worker("w1");
    assert!(first.status.success(), "{}", describe(&first));
    let report = text(&first.stdout);
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("entry {entry}: not started: ")))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        line.contains("unpushed.dot"),
        "names the missing workflow: {line}"
    );
    // The entry is finished: no other worker tries it again.
    let second = worker("w2");
    assert!(second.status.success(), "{}", describe(&second));
    assert!(
        !text(&second.stdout).contains("entry "),
        "{}",
        text(&second.stdout)
    );
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
