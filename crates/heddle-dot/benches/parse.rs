//! Parses a generated 10,000-node / 20,000-edge workflow with heddle-dot, and with
//! graphviz-rust as a baseline, in the same run.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// The allocator the shipped binaries use (heddle-cli, heddle-desktop), for both sides of
/// the comparison.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench_parse(c: &mut Criterion) {
    let text = heddle_dot::testing::generate_workflow(10_000, 20_000, 42);
    let parsed = heddle_dot::parse(&text);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors.first());
    assert!(
        graphviz_rust::parse(&text).is_ok(),
        "graphviz-rust rejects the text"
    );

    let mut group = c.benchmark_group("parse_10k_nodes_20k_edges");
    group.throughput(Throughput::Bytes(text.len() as u64));
    // Parse time: each result is dropped after its timing, one parse per batch, so memory
    // is reused as when an editor re-parses on every change.
    group.bench_function("heddle-dot", |b| {
        b.iter_batched(
            || (),
            |()| heddle_dot::parse(black_box(&text)),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("heddle-dot parse+drop", |b| {
        b.iter(|| heddle_dot::parse(black_box(&text)))
    });
    group.bench_function("graphviz-rust", |b| {
        b.iter_batched(
            || (),
            |()| graphviz_rust::parse(black_box(&text)),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_parse
}
criterion_main!(benches);
