//! Loads (parse + model + validate) the benchmark's generated workflow once and reports
//! the time and the process's peak memory, for the figures the criterion bench can't give:
//!
//! ```sh
//! cargo run --release -p heddle-workflow --example load_generated -- 10000 20000
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;
use std::time::Instant;

use heddle_workflow::{MemoryFiles, load_source};

/// The allocator the shipped binaries use.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Peak resident memory so far, in KiB (Linux; `None` elsewhere).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<usize>().expect("a number"));
    let nodes = args.next().unwrap_or(10_000);
    let edges = args.next().unwrap_or(20_000);
    let source = heddle_dot::testing::generate_workflow(nodes, edges, 7);
    let before = peak_rss_kib();
    let started = Instant::now();
    let loaded = load_source(&source, Path::new("generated.dot"), &MemoryFiles::new());
    let elapsed = started.elapsed();
    let after = peak_rss_kib();
    let workflow = loaded.workflow.as_ref().expect("a model");
    println!(
        "{nodes} nodes, {edges} edges, {} KiB of DOT: loaded in {:.1} ms, {} diagnostics",
        source.len() / 1024,
        elapsed.as_secs_f64() * 1000.0,
        loaded.diagnostics.len()
    );
    assert_eq!(workflow.edges.len(), edges);
    match (before, after) {
        (Some(b), Some(a)) => println!(
            "peak RSS: {:.1} MiB in all, {:.1} MiB more than before loading",
            a as f64 / 1024.0,
            a.saturating_sub(b) as f64 / 1024.0
        ),
        _ => println!("peak RSS: not available on this platform"),
    }
}
