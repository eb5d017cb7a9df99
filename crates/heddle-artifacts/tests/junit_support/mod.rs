//! Shared by the JUnit tests: the fixtures under tests/fixtures/junit and lookups into a
//! parsed report.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use heddle_artifacts::{JUnitCase, JUnitReport, JUnitSuite};

pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/junit")
        .join(name)
}

pub fn fixture(name: &str) -> JUnitReport {
    JUnitReport::parse_file(&fixture_path(name))
        .unwrap_or_else(|error| panic!("{name} should parse: {error}"))
}

pub fn case<'a>(report: &'a JUnitReport, name: &str) -> &'a JUnitCase {
    report
        .cases()
        .find(|case| case.name == name)
        .unwrap_or_else(|| panic!("no case {name:?}"))
}

pub fn suite<'a>(report: &'a JUnitReport, name: &str) -> &'a JUnitSuite {
    report
        .suites
        .iter()
        .find(|suite| suite.name == name)
        .unwrap_or_else(|| panic!("no suite {name:?}"))
}

pub fn assert_close(actual: Option<f64>, expected: f64) {
    let actual = actual.expect("a time");
    assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
}
