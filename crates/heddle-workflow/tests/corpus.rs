#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The bad-input corpus: every file under `tests/corpus/bad/` is loaded and its rendered
//! diagnostics compared with a reviewed snapshot. Huge and deeply nested inputs are
//! generated here rather than committed.

use std::path::{Path, PathBuf};

use heddle_workflow::{MemoryFiles, load_source, render_diagnostic};

/// Loads `source` as the file `name` and renders what a user would see.
fn report(name: &str, source: &str) -> String {
    let loaded = load_source(source, Path::new(name), &MemoryFiles::new());
    let mut out = String::new();
    for diagnostic in &loaded.diagnostics {
        out.push_str(&render_diagnostic(diagnostic, source, name, false));
        out.push('\n');
    }
    let workflow = match &loaded.workflow {
        Some(w) => format!("{} nodes, {} edges", w.nodes.len(), w.edges.len()),
        None => "no workflow".to_owned(),
    };
    out.push_str(&format!(
        "-- {} diagnostic(s); {workflow}\n",
        loaded.diagnostics.len()
    ));
    out
}

fn snapshot(name: &str, output: &str) {
    insta::with_settings!({
        snapshot_path => "corpus/snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, output);
    });
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/bad");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dot"))
        .collect();
    files.sort();
    files
}

#[test]
fn corpus_has_enough_files() {
    assert!(corpus_files().len() >= 30, "{}", corpus_files().len());
}

#[test]
fn every_corpus_file_matches_its_snapshot() {
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Binary input is read the way the CLI reads it: invalid UTF-8 replaced.
        let bytes = std::fs::read(&path).unwrap();
        let source = String::from_utf8_lossy(&bytes);
        let output = report(&name, &source);
        snapshot(name.trim_end_matches(".dot"), &output);
    }
}

#[test]
fn every_corpus_file_reports_something() {
    for path in corpus_files() {
        let source = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let loaded = load_source(&source, &path, &MemoryFiles::new());
        assert!(
            !loaded.diagnostics.is_empty(),
            "{} is reported clean",
            path.display()
        );
    }
}

/// A long, valid chain with one typo near the end.
fn huge_source(nodes: usize) -> String {
    let mut source =
        String::from("digraph huge {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n");
    for i in 0..nodes {
        source.push_str(&format!(
            "  n{i} [label=\"Stage {i}\", prompt=\"Do step {i} of the plan carefully.\", timeout=\"15m\"]\n"
        ));
    }
    source.push_str("  start -> n0\n");
    for i in 1..nodes {
        source.push_str(&format!(
            "  n{} -> n{i} [condition=\"outcome=success\"]\n",
            i - 1
        ));
    }
    source.push_str(&format!(
        "  n{} -> exit\n  n7 [max_retries=lots]\n}}\n",
        nodes - 1
    ));
    source
}

#[test]
fn huge_input() {
    let source = huge_source(20_000);
    assert!(source.len() > 2_000_000);
    let output = report("huge.dot", &source);
    snapshot("generated_huge", &output);
}

#[test]
fn deeply_nested_subgraphs() {
    let depth = 150;
    let mut source = String::from(
        "digraph deep {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n",
    );
    for _ in 0..depth {
        source.push_str("subgraph { ");
    }
    source.push_str("lost [prompt=\"x\"] ");
    for _ in 0..depth {
        source.push_str("} ");
    }
    source.push_str("\n}\n");
    let output = report("deep.dot", &source);
    snapshot("generated_deeply_nested", &output);
}

#[test]
fn pathologically_nested_input_does_not_crash() {
    // Far deeper than any workflow: must end with diagnostics, not a stack overflow.
    let depth = 5_000;
    let source = format!(
        "digraph {{ {} a {} }}",
        "{ ".repeat(depth),
        "} ".repeat(depth)
    );
    let handle = std::thread::Builder::new()
        .stack_size(8 * 1024 * 1024)
        .spawn(move || {
            load_source(&source, Path::new("deeper.dot"), &MemoryFiles::new())
                .diagnostics
                .len()
        })
        .unwrap();
    assert!(handle.join().unwrap() > 0);
}
