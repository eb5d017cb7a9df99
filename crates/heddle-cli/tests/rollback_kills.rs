//! A kill loop against `heddle rollback`: a finished five-stage run (each stage appends its
//! line to `log.txt`) is rolled back to its second stage, the rollback is killed with
//! SIGKILL at a random moment (a seeded RNG; `HEDDLE_KILL_SEED` replays another), and the
//! user then does what the run says: `heddle resume` when the rollback moved the run, or
//! the rollback again when it did not, then the resume to the end. The rollback writes
//! the run's side (new timeline, run files, metadata) and the work tree's side (recovery
//! snapshot, restore) at once; wherever the kill lands, the finished run's work tree must
//! hold each stage's line exactly once, and the work tree as it was before the rollback
//! must be in a recovery snapshot. Worktree mode and shadow mode.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::Instant;

mod gitfixture;
mod killing;
mod sandbox;

use gitfixture::{Fixture, describe, git_command, json, run_id};
use killing::{Rng, kill, seed, spawn};

const FLOW: &str = r#"digraph RollbackKills {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    s1 [shape=parallelogram, script="echo s1 >> log.txt"];
    s2 [shape=parallelogram, script="echo s2 >> log.txt"];
    s3 [shape=parallelogram, script="echo s3 >> log.txt"];
    s4 [shape=parallelogram, script="echo s4 >> log.txt"];
    s5 [shape=parallelogram, script="echo s5 >> log.txt"];
    start -> s1 -> s2 -> s3 -> s4 -> s5 -> exit;
}
"#;

const EXPECTED: &str = "s1\ns2\ns3\ns4\ns5\n";

const ITERATIONS: u64 = 8;

fn finished(run: &Path) -> bool {
    run.join("conclusion.json").is_file()
        && json(&run.join("conclusion.json"))["status"] == "success"
}

fn work_tree(run: &Path) -> PathBuf {
    PathBuf::from(
        json(&run.join("manifest.json"))["work_dir"]
            .as_str()
            .unwrap(),
    )
}

/// `git` on the run's own repository (its git dir from git.json).
fn run_git(run: &Path, args: &[&str]) -> std::process::Output {
    let git_dir = json(&run.join("git.json"))["git_dir"]
        .as_str()
        .unwrap()
        .to_string();
    git_command(run)
        .arg(format!("--git-dir={git_dir}"))
        .args(args)
        .output()
        .unwrap()
}

/// `log.txt` of every recovery snapshot of the run.
fn recovery_logs(run: &Path) -> Vec<String> {
    let refs = run_git(
        run,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/heddle/recovery/",
        ],
    );
    String::from_utf8(refs.stdout)
        .unwrap()
        .lines()
        .filter_map(|reference| {
            let out = run_git(run, &["show", &format!("{reference}:log.txt")]);
            out.status
                .success()
                .then(|| String::from_utf8(out.stdout).unwrap())
        })
        .collect()
}

fn rollback(fixture: &Fixture, id: &str, iteration: u64) {
    let out = fixture.heddle(&["rollback", id, "--to", "s2", "--force"], &[]);
    assert!(
        out.status.success(),
        "iteration {iteration}: rollback failed: {}",
        describe(&out)
    );
}

fn resume_to_the_end(fixture: &Fixture, run: &Path, id: &str, iteration: u64) {
    let out = fixture.heddle(&["resume", id], &[]);
    assert!(
        out.status.success() && finished(run),
        "iteration {iteration}: resume failed: {}",
        describe(&out)
    );
}

/// What the loop saw: kills that landed while the rollback ran, and of those, how many
/// left the run moved (resumed) or where it was (rolled back again).
#[derive(Debug, Default)]
struct Seen {
    landed: u64,
    moved: u64,
    not_moved: u64,
}

fn kill_loop(default_seed: u64, mode: &str, setup: impl Fn(&Fixture)) -> Seen {
    let mut rng = Rng(seed(default_seed));
    let fixture = Fixture::new();
    setup(&fixture);
    let flow = fixture.write_flow("kills.dot", FLOW);
    let run = fixture.run(&flow, &[], 0);
    assert_eq!(json(&run.join("manifest.json"))["checkpoint_mode"], mode);
    let id = run_id(&run);
    let work = work_tree(&run);
    assert_eq!(
        std::fs::read_to_string(work.join("log.txt")).unwrap(),
        EXPECTED
    );
    // How long a whole rollback takes here: the kills are spread over it.
    let begun = Instant::now();
    rollback(&fixture, &id, 0);
    let span = begun.elapsed().as_millis().max(20) as u64 * 5 / 4;
    resume_to_the_end(&fixture, &run, &id, 0);
    let mut seen = Seen::default();
    for iteration in 1..=ITERATIONS {
        let kept_before = recovery_logs(&run)
            .iter()
            .filter(|log| *log == EXPECTED)
            .count();
        let mut child = spawn(&fixture, &["rollback", &id, "--to", "s2", "--force"]);
        std::thread::sleep(rng.millis(span));
        if kill(&mut child) {
            seen.landed += 1;
        }
        if finished(&run) {
            // The run's side did not land: the run is where it was; roll back again.
            seen.not_moved += 1;
            rollback(&fixture, &id, iteration);
        } else {
            seen.moved += 1;
        }
        resume_to_the_end(&fixture, &run, &id, iteration);
        assert_eq!(
            std::fs::read_to_string(work.join("log.txt")).unwrap(),
            EXPECTED,
            "iteration {iteration}: each stage's line exactly once in {}",
            work.display()
        );
        let kept_after = recovery_logs(&run)
            .iter()
            .filter(|log| *log == EXPECTED)
            .count();
        assert!(
            kept_after > kept_before,
            "iteration {iteration}: the work tree before the rollback is in no recovery \
             snapshot"
        );
    }
    println!("{mode}: {seen:?}");
    assert!(
        seen.landed > 0,
        "no kill landed during a rollback; try another seed"
    );
    seen
}

#[test]
fn killed_rollbacks_leave_each_stage_once_and_lose_nothing_in_worktree_mode() {
    kill_loop(20_261_127, "worktree", |fixture| {
        fixture.init_repo(&[("README.md", "project\n")]);
    });
}

#[test]
fn killed_rollbacks_leave_each_stage_once_and_lose_nothing_in_shadow_mode() {
    kill_loop(5_551_212, "shadow", |fixture| {
        fixture.init_repo(&[("README.md", "project\n")]);
        // Uncommitted work: the run keeps checkpoints in a shadow repository.
        fixture.write("README.md", b"project, edited\n");
    });
}
