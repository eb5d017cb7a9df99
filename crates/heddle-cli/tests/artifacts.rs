//! Test artifacts end to end: a command leaves a screenshot and a JUnit report, `heddle run`
//! captures them (events, conclusion, the JUnit summary), `heddle artifact list|cp` and
//! `heddle dump` read them back. Files that were already there are not captured.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use sandbox::{Sandbox, describe, events, json, run_id, text};

const TESTED: &str = r#"digraph Tested {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    test  [shape=parallelogram, script="mkdir -p test-results/home && printf 'PNG' > test-results/home/shot.png && printf '%s' '<testsuites><testsuite name=\"unit\"><testcase classname=\"parser\" name=\"accepts_spaces\" time=\"0.1\"/><testcase classname=\"parser\" name=\"rejects_tabs\" time=\"0.2\"><failure message=\"expected tab error\">boom</failure></testcase></testsuite></testsuites>' > junit.xml"];
    start -> test -> exit;
}
"#;

#[test]
fn a_commands_screenshot_and_junit_report_are_captured_listed_and_dumped() {
    let sandbox = Sandbox::new();
    // Present before the run: not captured.
    std::fs::create_dir_all(sandbox.work().join("test-results/old")).unwrap();
    std::fs::write(sandbox.work().join("test-results/old/before.png"), "old").unwrap();
    let flow = sandbox.write_flow("tested.dot", TESTED);
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let run = sandbox.only_run();

    let captured: Vec<String> = events(&run)
        .iter()
        .filter(|e| e["event"] == "artifact.captured")
        .map(|e| e["properties"]["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        captured,
        [
            "artifacts/test/retry_0/junit.xml",
            "artifacts/test/retry_0/test-results/home/shot.png"
        ]
    );
    assert_eq!(json(&run.join("conclusion.json"))["artifact_count"], 2);
    let stages = sandbox::timeline(&run);
    let stage = &stages[1];
    assert_eq!(
        stage["junit"],
        "1 passed, 1 failed: parser::rejects_tabs — expected tab error"
    );
    assert!(run.join("artifacts/test/retry_0/manifest.json").is_file());
    // The command's complete output is a blob the checkpoint refers to; gc keeps it.
    let stdout_blob = stage["blobs"]["stderr.log"].as_str().unwrap().to_string();
    assert!(stdout_blob.starts_with("blob://sha256/"), "{stage}");
    let blob: heddle_artifacts::BlobRef = stdout_blob.parse().unwrap();
    let store = heddle_artifacts::BlobStore::new(sandbox.home().join("blobs"));
    assert_eq!(
        store.read(&blob).unwrap(),
        std::fs::read(run.join("nodes/test/stderr.log")).unwrap()
    );
    let out = sandbox.heddle(&["gc", "--dry-run"]);
    assert!(
        !text(&out.stdout).contains(&stdout_blob),
        "{}",
        describe(&out)
    );
    assert!(!run.join("artifacts/test/retry_0/test-results/old").exists());

    let id = run_id(&run);
    let out = sandbox.heddle(&["artifact", "list", &id[..10], "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["junit", "screenshot"], "{listed}");
    let out = sandbox.heddle(&["artifact", "list", &id, "--node", "nope"]);
    assert!(text(&out.stdout).contains("no artifacts captured for node `nope`"));

    let dest = sandbox.path().join("shot-copy.png");
    let out = sandbox.heddle(&[
        "artifact",
        "cp",
        &id,
        "test/retry_0/test-results/home/shot.png",
        dest.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "PNG");
    let out = sandbox.heddle(&[
        "artifact",
        "cp",
        &id,
        "../manifest.json",
        dest.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    // Checked as the UI's file view checks it (one check, in heddle-api).
    assert!(
        text(&out.stderr).contains("`../manifest.json` is refused"),
        "{}",
        describe(&out)
    );

    let dump = sandbox.path().join("dump");
    let out = sandbox.heddle(&["dump", &id, "-o", dump.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(dump.join("stages/002-test@1/stdout.log").is_file());
    assert!(
        dump.join("stages/002-test@1/artifacts/retry_0/test-results/home/shot.png")
            .is_file()
    );
}

#[test]
fn gc_keeps_referenced_blobs_and_verify_reports_corruption() {
    use heddle_artifacts::BlobStore;

    let sandbox = Sandbox::new();
    let store = BlobStore::new(sandbox.home().join("blobs"));
    let kept = store.put_bytes(b"referenced by a run").unwrap();
    let orphan = store.put_bytes(b"referenced by nothing").unwrap();
    // A (finished) run whose checkpoint names the first blob.
    let run = sandbox.home().join("runs/20261122-01TEST");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(
        run.join("checkpoint.json"),
        format!(r#"{{"context_values": {{"response.plan": "{kept}"}}}}"#),
    )
    .unwrap();

    let out = sandbox.heddle(&["gc", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let listed = text(&out.stdout);
    assert!(
        listed.contains(&format!("would remove {orphan}")),
        "{listed}"
    );
    assert!(!listed.contains(&kept.to_string()), "{listed}");
    assert!(store.contains(&orphan), "a dry run deleted something");

    let out = sandbox.heddle(&["gc"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(!store.contains(&orphan));
    assert!(store.contains(&kept));

    let out = sandbox.heddle(&["blobs", "verify"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    std::fs::write(store.path(&kept), b"tampered").unwrap();
    let out = sandbox.heddle(&["blobs", "verify"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(text(&out.stdout).contains("corrupt:"), "{}", describe(&out));
}
