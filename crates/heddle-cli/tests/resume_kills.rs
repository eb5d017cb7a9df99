//! A kill loop against `heddle run` / `heddle resume`: a five-stage command workflow, each
//! stage appending its line to `log.txt` and then sleeping, is killed with SIGKILL at
//! random moments (a seeded RNG; the seed is printed and `HEDDLE_KILL_SEED` replays one),
//! resumes are killed too, and the last resume runs to the end. Every finished run's
//! work tree must hold each stage's line exactly once, and every `run.recovered` event's
//! recovery snapshot must hold what the killed run had left. Worktree mode (a clean
//! repository) and shadow mode (a dirty one); `--checkpoints none` says it cannot do this.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod gitfixture;
mod killing;
mod sandbox;

use gitfixture::{Fixture, assert_warned, describe, events, git_command, json, run_id};
use killing::{Rng, kill, resume_to_end, seed, spawn};

/// Five stages; each writes its line at once and then sleeps, so most kills land after
/// the write and before the stage's checkpoint.
const FLOW: &str = r#"digraph Kills {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    s1 [shape=parallelogram, script="echo s1 >> log.txt; sleep 0.15"];
    s2 [shape=parallelogram, script="echo s2 >> log.txt; sleep 0.15"];
    s3 [shape=parallelogram, script="echo s3 >> log.txt; sleep 0.15"];
    s4 [shape=parallelogram, script="echo s4 >> log.txt; sleep 0.15"];
    s5 [shape=parallelogram, script="echo s5 >> log.txt; sleep 0.15"];
    start -> s1 -> s2 -> s3 -> s4 -> s5 -> exit;
}
"#;

const EXPECTED: &str = "s1\ns2\ns3\ns4\ns5\n";

const ITERATIONS: u64 = 10;

/// The only run folder, once `heddle run` made one with its manifest.
fn run_folder(fixture: &Fixture) -> Option<PathBuf> {
    fixture
        .runs()
        .into_iter()
        .next()
        .filter(|r| r.join("manifest.json").is_file())
}

fn started_count(run: &Path) -> usize {
    events(run)
        .iter()
        .filter(|e| e["event"] == "run.started")
        .count()
}

fn recovered(run: &Path) -> Vec<serde_json::Value> {
    events(run)
        .into_iter()
        .filter(|e| e["event"] == "run.recovered")
        .collect()
}

/// `log.txt` of the run's work tree, once the commands a killed run left behind finished
/// their write (each is one `echo` then a sleep shorter than the wait).
fn killed_state(work: &Path) -> Option<String> {
    std::thread::sleep(Duration::from_millis(250));
    std::fs::read_to_string(work.join("log.txt")).ok()
}

/// `log.txt` in commit `sha` of the run's repository.
fn log_in(run: &Path, sha: &str) -> Option<String> {
    let git_dir = json(&run.join("git.json"))["git_dir"]
        .as_str()
        .unwrap()
        .to_string();
    let out = git_command(run)
        .args([
            &format!("--git-dir={git_dir}"),
            "show",
            &format!("{sha}:log.txt"),
        ])
        .output()
        .unwrap();
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap())
}

/// One run: started, killed at a random moment after it began, resumed (each resume
/// killed with even odds, at most three times) and finally resumed to the end. Returns
/// how many `run.recovered` events it wrote.
fn one_run(fixture: &Fixture, flow: &Path, rng: &mut Rng, iteration: u64) -> usize {
    let mut child = spawn(fixture, &["run", flow.to_str().unwrap()]);
    let begun = Instant::now();
    let mut run = None;
    while run.is_none() || started_count(run.as_deref().unwrap()) == 0 {
        assert!(
            begun.elapsed() < Duration::from_secs(30),
            "iteration {iteration}: the run did not start"
        );
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
        run = run_folder(fixture);
    }
    std::thread::sleep(rng.millis(1_200));
    kill(&mut child);
    let run = run_folder(fixture).unwrap_or_else(|| panic!("iteration {iteration}: no run"));
    let work = PathBuf::from(
        json(&run.join("manifest.json"))["work_dir"]
            .as_str()
            .unwrap(),
    );
    let id = run_id(&run);
    let mut killed = killed_state(&work);
    let mut resumes_killed = 0;
    loop {
        let done = run.join("conclusion.json").is_file()
            && json(&run.join("conclusion.json"))["status"] == "success";
        if done {
            break;
        }
        let before = recovered(&run).len();
        let killing = resumes_killed < 3 && rng.next().is_multiple_of(2);
        if killing {
            let mut resume = spawn(fixture, &["resume", &id]);
            std::thread::sleep(rng.millis(800));
            if kill(&mut resume) {
                resumes_killed += 1;
            }
        } else {
            resume_to_end(fixture, &id, iteration);
        }
        let after = recovered(&run);
        if after.len() > before {
            assert_eq!(after.len(), before + 1, "one recovery per resume");
            let event = &after[before]["properties"];
            let sha = event["recovery_sha"].as_str().unwrap();
            assert_eq!(
                log_in(&run, sha),
                killed,
                "iteration {iteration}: the recovery snapshot {sha} must hold the killed \
                 state; event {event}"
            );
        }
        killed = killed_state(&work);
    }
    let log = std::fs::read_to_string(work.join("log.txt")).unwrap();
    assert_eq!(
        log,
        EXPECTED,
        "iteration {iteration}: each stage's line exactly once in {}; events: {:#?}",
        work.display(),
        events(&run)
            .iter()
            .map(|e| format!("{} {} {}", e["event"], e["node_id"], e["properties"]))
            .collect::<Vec<_>>()
    );
    recovered(&run).len()
}

/// Runs the loop, each iteration in a fresh fixture made by `setup`; the recoveries seen.
fn kill_loop(default_seed: u64, mode: &str, setup: impl Fn(&Fixture)) -> usize {
    let mut rng = Rng(seed(default_seed));
    let mut recoveries = 0;
    for iteration in 0..ITERATIONS {
        let fixture = Fixture::new();
        setup(&fixture);
        let flow = fixture.write_flow("kills.dot", FLOW);
        recoveries += one_run(&fixture, &flow, &mut rng, iteration);
        let run = fixture.only_run();
        assert_eq!(
            json(&run.join("manifest.json"))["checkpoint_mode"],
            mode,
            "iteration {iteration}"
        );
    }
    println!("{mode}: {ITERATIONS} runs, {recoveries} recoveries");
    // The loop must have exercised the restore, or it proved nothing.
    assert!(recoveries > 0, "no kill landed mid-stage; try another seed");
    recoveries
}

#[test]
fn killed_runs_resume_with_each_stage_once_in_worktree_mode() {
    kill_loop(20_261_126, "worktree", |fixture| {
        fixture.init_repo(&[("README.md", "project\n")]);
    });
}

#[test]
fn killed_runs_resume_with_each_stage_once_in_shadow_mode() {
    kill_loop(7_350_211, "shadow", |fixture| {
        fixture.init_repo(&[("README.md", "project\n")]);
        // Uncommitted work: the run keeps checkpoints in a shadow repository.
        fixture.write("README.md", b"project, edited\n");
    });
}

#[test]
fn resume_without_checkpoints_says_the_work_tree_is_used_as_it_is() {
    let fixture = Fixture::new();
    fixture.init_repo(&[("README.md", "project\n")]);
    let flow = fixture.write_flow(
        "slow.dot",
        r#"digraph Slow { start [shape=Mdiamond]; exit [shape=Msquare];
            slow [shape=parallelogram, script="echo once >> log.txt; sleep 1"];
            start -> slow -> exit; }"#,
    );
    let mut child = spawn(
        &fixture,
        &["run", flow.to_str().unwrap(), "--checkpoints", "none"],
    );
    let seen = sandbox::wait_for(Duration::from_secs(20), || {
        std::fs::read_to_string(fixture.repo().join("log.txt")).is_ok()
    });
    kill(&mut child);
    assert!(seen, "the stage did not start");
    let run = fixture.only_run();
    let out = fixture.heddle(&["resume", &run_id(&run)], &[]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_warned(&run, &["--checkpoints none", "as it is"]);
    assert!(recovered(&run).is_empty());
    // Today's behaviour, kept and said: the stage ran again on top of its first write.
    assert_eq!(
        std::fs::read_to_string(fixture.repo().join("log.txt")).unwrap(),
        "once\nonce\n"
    );
}
