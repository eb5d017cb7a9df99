//! Lossless printing: whatever goes in comes back byte for byte, valid or not, and valid
//! input parses without errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{DotGen, Options};
use heddle_dot::parse;
use proptest::prelude::*;

const CONSTRUCTS: &str = include_str!("fixtures/constructs.dot");
const WORKFLOW: &str = include_str!("fixtures/workflow.dot");

fn assert_clean_round_trip(src: &str) {
    let parsed = parse(src);
    assert_eq!(parsed.errors, vec![], "errors in:\n{src}");
    assert_eq!(parsed.document.text(), src);
    assert!(parsed.document.graph().is_some());
}

#[test]
fn fixtures_round_trip_without_errors() {
    for src in [CONSTRUCTS, WORKFLOW] {
        assert_clean_round_trip(src);
        assert_clean_round_trip(&src.replace('\n', "\r\n"));
    }
}

#[test]
fn every_bundled_example_round_trips_without_errors() {
    for (path, src) in common::examples() {
        let parsed = parse(&src);
        assert_eq!(parsed.errors, vec![], "errors in {}", path.display());
        assert_eq!(
            parsed.document.text(),
            src,
            "{} did not print back",
            path.display()
        );
    }
}

#[test]
fn small_inputs_round_trip() {
    let valid = [
        "digraph{}",
        "graph { a -- b }",
        "strict digraph x { a -> a }",
        "\u{feff}digraph { a }",
        "digraph { a -> b -> c; }",
        "digraph { subgraph { } }",
        "digraph { a [] [] }",
        "digraph { a [x=1,] }",
        "digraph { x = y; }",
        "digraph { \"\" }",
        "digraph { <> -> <a<b>c</b>> }",
        "digraph {}\ngraph {}",
        "digraph { a }  // trailing comment without newline",
    ];
    for src in valid {
        assert_clean_round_trip(src);
    }
    let invalid = [
        "",
        "   ",
        "digraph {",
        "digraph { a -> }",
        "digraph { \"unterminated }",
        "digraph { /* unterminated }",
        "digraph { <unterminated }",
        "}{][;,=:+->--",
        "digraph { a [x=] ; ; }",
        "\u{0}\u{7f}$%^&*()",
        "digraph { é -> \u{1F600} [ü=\"ö\"] } }",
    ];
    for src in invalid {
        let parsed = parse(src);
        assert!(!parsed.errors.is_empty(), "expected errors for {src:?}");
        assert_eq!(parsed.document.text(), src);
    }
}

#[test]
fn deep_nesting_is_capped_without_overflow() {
    // Run on a thread with a 2 MiB stack, like a default tokio worker.
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            for depth in [100, 300, 20_000] {
                let src = format!(
                    "digraph {{ {} a {} }}",
                    "{".repeat(depth),
                    "}".repeat(depth)
                );
                let parsed = parse(&src);
                assert_eq!(parsed.document.text(), src);
                assert_eq!(parsed.errors.is_empty(), depth <= 256, "depth {depth}");
                let edges = format!(
                    "digraph {{ {}c{} }}",
                    "a -> {".repeat(depth),
                    "}".repeat(depth)
                );
                assert_eq!(parse(&edges).document.text(), edges);
                let html = format!(
                    "digraph {{ a [label={}{}] }}",
                    "<".repeat(depth),
                    ">".repeat(depth)
                );
                assert!(parse(&html).errors.is_empty());
            }
        })
        .unwrap();
    handle.join().unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn generated_valid_dot_round_trips(seed in any::<u64>()) {
        let src = DotGen::generate(seed, Options { graphviz: false });
        let parsed = parse(&src);
        prop_assert_eq!(parsed.errors, vec![], "{}", src);
        prop_assert_eq!(parsed.document.text(), src);
    }

    #[test]
    fn generated_dot_with_crlf_round_trips(seed in any::<u64>()) {
        let src = DotGen::generate(seed, Options { graphviz: false }).replace('\n', "\r\n");
        let parsed = parse(&src);
        prop_assert_eq!(parsed.document.text(), src);
    }

    #[test]
    fn arbitrary_strings_round_trip(src in any::<String>()) {
        prop_assert_eq!(parse(&src).document.text(), src);
    }

    #[test]
    fn arbitrary_bytes_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let src = String::from_utf8_lossy(&bytes).into_owned();
        prop_assert_eq!(parse(&src).document.text(), src);
    }

    #[test]
    fn mutated_valid_dot_round_trips(
        seed in any::<u64>(),
        cuts in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..128), 1..6),
    ) {
        // Valid DOT with a few bytes replaced: the near-miss inputs an editor sees.
        let mut bytes = DotGen::generate(seed, Options { graphviz: false }).into_bytes();
        for (at, byte) in cuts {
            if !bytes.is_empty() {
                let i = at.index(bytes.len());
                bytes[i] = byte;
            }
        }
        let src = String::from_utf8_lossy(&bytes).into_owned();
        let parsed = parse(&src);
        prop_assert_eq!(parsed.document.text(), src.clone());
        for e in &parsed.errors {
            prop_assert!(src.is_char_boundary(e.span.start) && e.span.start <= src.len());
            let _ = heddle_dot::snippet(&src, "f.dot", e.span);
        }
    }
}
