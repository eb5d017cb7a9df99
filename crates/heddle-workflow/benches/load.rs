//! Parse + build + validate a generated workflow of 10,000 nodes and 20,000 edges, with
//! graphviz-rust parsing the same text as the baseline, in the same run.

#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use heddle_workflow::{MemoryFiles, load_source};

/// The allocator the shipped binaries use (heddle-cli, heddle-desktop), for both sides of
/// the comparison.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn load(c: &mut Criterion) {
    let source = heddle_dot::testing::generate_workflow(10_000, 20_000, 7);
    let files = MemoryFiles::new();
    let loaded = load_source(&source, Path::new("bench.dot"), &files);
    let workflow = loaded.workflow.as_ref().map_or(0, |w| w.edges.len());
    assert_eq!(workflow, 20_000, "the generator makes 20,000 edges");
    c.bench_function("load_10k_nodes_20k_edges", |b| {
        // The result is dropped outside the timed section, one iteration at a time.
        b.iter_batched(
            || (),
            |()| load_source(black_box(&source), Path::new("bench.dot"), &files),
            BatchSize::PerIteration,
        );
    });
    // The baseline: graphviz-rust only parsing the same text (no model, no validation).
    assert!(
        graphviz_rust::parse(&source).is_ok(),
        "graphviz-rust rejects the text"
    );
    c.bench_function("graphviz_rust_parse_10k_nodes_20k_edges", |b| {
        b.iter_batched(
            || (),
            |()| graphviz_rust::parse(black_box(&source)),
            BatchSize::PerIteration,
        );
    });
    c.bench_function("parse_only_10k_nodes_20k_edges", |b| {
        b.iter_batched(
            || (),
            |()| heddle_dot::parse(black_box(&source)),
            BatchSize::PerIteration,
        );
    });
}

criterion_group!(benches, load);
criterion_main!(benches);
