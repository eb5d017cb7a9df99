//! Two Heddle homes (two machines of a team) sharing one PostgreSQL run index through
//! `HEDDLE_DATABASE_URL`, against the test suite's throwaway PostgreSQL server: a run made on
//! one is listed by the other, each home's rescan keeps the other's runs, no SQLite file is
//! made, and a URL Heddle cannot use is refused with a message that hides its password.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use sandbox::{Sandbox, describe, postgres_database, run_id, text};

const FLOW: &str = r#"digraph Shared {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    write [shape=parallelogram, script="echo shared > shared.txt"];
    start -> write -> exit;
}
"#;

#[test]
fn a_run_on_one_home_is_listed_by_another_sharing_the_database() {
    let laptop = Sandbox::new();
    let server = Sandbox::new();
    let url = postgres_database(&laptop);
    let flow = laptop.write_flow("shared.dot", FLOW);

    let out = laptop
        .command(&["run", flow.to_str().unwrap()])
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let id = run_id(&laptop.only_run());
    assert!(
        !laptop.home().join("heddle.db").exists(),
        "the index is the database, not a file in the home"
    );

    // The other home has no run folders: its rescan (each `ps` makes one) must keep the
    // laptop's run, which lives under the laptop's runs folder.
    for _ in 0..2 {
        let ps = server
            .command(&["ps", "-a"])
            .env("HEDDLE_DATABASE_URL", &url)
            .output()
            .unwrap();
        assert!(ps.status.success(), "{}", describe(&ps));
        let listing = text(&ps.stdout);
        let row = listing.lines().find(|l| l.starts_with(&id));
        assert!(
            row.is_some_and(|r| r.contains("Shared") && r.contains("success")),
            "{listing}"
        );
    }

    // Without the URL the other home has its own (empty) index.
    let alone = server.heddle(&["ps", "-a"]);
    assert!(alone.status.success(), "{}", describe(&alone));
    assert!(
        !text(&alone.stdout).contains(&id),
        "{}",
        text(&alone.stdout)
    );

    let doctor = server
        .command(&["doctor"])
        .env("HEDDLE_DATABASE_URL", &url)
        .output()
        .unwrap();
    let report = text(&doctor.stdout);
    let line = report.lines().find(|l| l.contains("index")).unwrap();
    assert!(
        line.starts_with("ok") && line.contains(&url) && line.contains("schema current"),
        "{report}"
    );
}

#[test]
fn a_database_url_heddle_cannot_use_is_refused_without_its_password() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .command(&["ps"])
        .env(
            "HEDDLE_DATABASE_URL",
            "mysql://heddle:hunter2@db.team/heddle",
        )
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", describe(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("mysql://heddle:***@db.team/heddle") && stderr.contains("postgres://"),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
}
