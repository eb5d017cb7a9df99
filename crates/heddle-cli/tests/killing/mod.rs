//! What the kill loops share (`resume_kills`, `resume_kills_no_git`, `rollback_kills`): a
//! seeded random source, spawning `heddle` with its output dropped, SIGKILL, and a resume
//! run to its end.
#![allow(dead_code)]

use std::process::{Child, Stdio};
use std::time::Duration;

use crate::gitfixture::{Fixture, describe};

/// splitmix64: small, seeded, the same sequence everywhere.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A duration in [0, `max_ms`) milliseconds.
    pub fn millis(&mut self, max_ms: u64) -> Duration {
        Duration::from_millis(self.next() % max_ms.max(1))
    }
}

/// The loop's seed: `HEDDLE_KILL_SEED` when set, else `default`; printed, so a failure can
/// be replayed.
pub fn seed(default: u64) -> u64 {
    let seed = std::env::var("HEDDLE_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    println!("kill loop seed: {seed} (set HEDDLE_KILL_SEED to replay another)");
    seed
}

/// `heddle ARGS` started in the fixture's workspace, its output dropped.
pub fn spawn(fixture: &Fixture, args: &[&str]) -> Child {
    fixture
        .heddle_command(args, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// SIGKILLs `child` (if still running); whether it was.
pub fn kill(child: &mut Child) -> bool {
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    running
}

/// `heddle resume ID` in the fixture, run to its end: it must succeed, or say the run only
/// lacked its conclusion (killed after its exit's checkpoint, the resume writes it and
/// says there is nothing left to run).
pub fn resume_to_end(fixture: &Fixture, id: &str, iteration: u64) {
    let out = fixture.heddle(&["resume", id], &[]);
    let concluded = String::from_utf8_lossy(&out.stderr).contains("reached its exit");
    assert!(
        out.status.success() || concluded,
        "iteration {iteration}: resume failed: {}",
        describe(&out)
    );
}
