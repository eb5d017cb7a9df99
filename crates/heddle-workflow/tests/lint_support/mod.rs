//! What the lint tests share: run the whole pipeline on a snippet and ask whether a rule fired.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use heddle_workflow::{Diagnostic, MemoryFiles, load_source};

/// Every diagnostic for `source`, with `@file` references served from `files`.
pub fn diagnostics_with(source: &str, files: &MemoryFiles) -> Vec<Diagnostic> {
    load_source(source, Path::new("t.dot"), files).diagnostics
}

/// Every diagnostic for `source`.
pub fn diagnostics(source: &str) -> Vec<Diagnostic> {
    diagnostics_with(source, &MemoryFiles::new())
}

/// The rule ids that fired, in order.
pub fn rules(source: &str) -> Vec<String> {
    diagnostics(source).into_iter().map(|d| d.rule).collect()
}

/// The first diagnostic of `rule`; fails the test when it did not fire.
pub fn fires(rule: &str, source: &str) -> Diagnostic {
    let all = diagnostics(source);
    all.iter()
        .find(|d| d.rule == rule)
        .cloned()
        .unwrap_or_else(|| panic!("`{rule}` did not fire on {source}; got {all:#?}"))
}

/// Fails the test when `rule` fired.
pub fn quiet(rule: &str, source: &str) {
    let all = diagnostics(source);
    assert!(
        !all.iter().any(|d| d.rule == rule),
        "`{rule}` fired on {source}: {all:#?}"
    );
}
