//! JUnit parsing rules and summaries: errors for broken, non-JUnit, empty and missing files,
//! counts recomputed from the cases, the worst status winning, summaries, combining reports,
//! serialisation and text encodings.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod junit_support;

use std::time::Duration;

use heddle_artifacts::junit::{JUnitTotals, MAX_TEXT_CHARS};
use heddle_artifacts::{CaseStatus, JUnitError, JUnitReport};
use junit_support::*;

#[test]
fn broken_xml_is_an_error_with_a_position() {
    let error = JUnitReport::parse_file(&fixture_path("broken.xml")).unwrap_err();
    match &error {
        JUnitError::Xml {
            line,
            column,
            message,
        } => {
            assert_eq!((*line, *column), (6, 1), "at the start of the cut tag");
            assert!(message.contains("not closed"), "{message}");
        }
        other => panic!("expected an XML error, got {other:?}"),
    }
    assert!(
        error
            .to_string()
            .starts_with("not well-formed XML at line 6, column 1: ")
    );
}

#[test]
fn a_document_cut_between_elements_is_an_error() {
    let xml = "<testsuites>\n  <testsuite name=\"a\">\n    <testcase name=\"x\"/>\n";
    let error = JUnitReport::parse(xml).unwrap_err();
    assert_eq!(
        error,
        JUnitError::Xml {
            line: 4,
            column: 1,
            message: "the document ends inside <testsuite> (cut short?)".to_string(),
        }
    );
}

#[test]
fn mismatched_end_tag_is_an_error_with_its_position() {
    let xml = "<testsuite name=\"a\">\n  <testcase name=\"x\">\n  </testsuite>\n</testcase>";
    match JUnitReport::parse(xml).unwrap_err() {
        JUnitError::Xml {
            line,
            column,
            message,
        } => {
            assert_eq!(
                (line, column),
                (3, 3),
                "at the stray </testsuite>: {message}"
            );
            assert!(message.contains("testcase"), "{message}");
        }
        other => panic!("expected an XML error, got {other:?}"),
    }
}

#[test]
fn non_junit_xml_names_its_root() {
    let error = JUnitReport::parse_file(&fixture_path("coverage.xml")).unwrap_err();
    assert_eq!(
        error,
        JUnitError::NotJUnit {
            root: "coverage".to_string()
        }
    );
    assert_eq!(
        error.to_string(),
        "not a JUnit report (root element <coverage>)"
    );
}

#[test]
fn empty_and_text_only_documents_have_no_root() {
    for xml in [
        "",
        "   \n",
        "<?xml version=\"1.0\"?>\n<!-- nothing ran -->\n",
        "hello",
    ] {
        assert_eq!(
            JUnitReport::parse(xml).unwrap_err(),
            JUnitError::NoRoot,
            "{xml:?}"
        );
    }
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let path = fixture_path("does-not-exist.xml");
    match JUnitReport::parse_file(&path).unwrap_err() {
        JUnitError::Io { path: reported, .. } => assert_eq!(reported, path),
        other => panic!("expected an I/O error, got {other:?}"),
    }
}

#[test]
fn counts_are_recomputed_when_attributes_disagree() {
    let xml = r#"<testsuites tests="1" failures="0">
      <testsuite name="s" tests="1" failures="0" errors="3" skipped="7">
        <testcase classname="c" name="a"><failure message="boom"/></testcase>
        <testcase classname="c" name="b"><error/></testcase>
        <testcase classname="c" name="c"/>
      </testsuite>
    </testsuites>"#;
    let report = JUnitReport::parse(xml).unwrap();
    let suite = &report.suites[0];
    assert_eq!(
        (suite.tests, suite.failures, suite.errors, suite.skipped),
        (3, 1, 1, 0)
    );
    assert_eq!(
        report.totals(),
        JUnitTotals {
            total: 3,
            passed: 1,
            failed: 2,
            skipped: 0,
            seconds: None
        }
    );
    assert_eq!(report.duration(), None);
    assert_eq!(report.summary(), "1 passed, 2 failed: c::a — boom; c::b");
}

#[test]
fn the_worst_status_wins_and_the_first_failure_keeps_its_message() {
    let xml = r#"<testsuite name="s">
      <testcase name="skipped then failed"><skipped message="later"/><failure message="first">one</failure></testcase>
      <testcase name="failed twice"><failure message="first">one</failure><error message="second">two</error></testcase>
      <testcase name="failed then skipped"><failure message="first"/><skipped message="ignored"/></testcase>
    </testsuite>"#;
    let report = JUnitReport::parse(xml).unwrap();
    let statuses: Vec<(CaseStatus, Option<&str>, Option<&str>)> = report
        .cases()
        .map(|c| (c.status, c.message.as_deref(), c.text.as_deref()))
        .collect();
    assert_eq!(
        statuses,
        [
            (CaseStatus::Failed, Some("first"), Some("one")),
            (CaseStatus::Failed, Some("first"), Some("one")),
            (CaseStatus::Failed, Some("first"), None),
        ]
    );
}

#[test]
fn summary_lists_three_failures_then_how_many_more() {
    let cases: String = (1..=5)
        .map(|i| {
            format!(
                "<testcase classname=\"m\" name=\"t{i}\"><failure message=\"bad {i}\"/></testcase>"
            )
        })
        .collect();
    let xml = format!("<testsuite name=\"s\"><testcase name=\"ok\"/>{cases}</testsuite>");
    assert_eq!(
        JUnitReport::parse(&xml).unwrap().summary(),
        "1 passed, 5 failed: m::t1 — bad 1; m::t2 — bad 2; m::t3 — bad 3; and 2 more"
    );
}

#[test]
fn summary_without_failures_and_without_cases() {
    let passing = JUnitReport::parse(
        "<testsuite><testcase name=\"a\"/><testcase name=\"b\"><skipped/></testcase></testsuite>",
    )
    .unwrap();
    assert_eq!(passing.summary(), "1 passed, 1 skipped");
    let all_pass = JUnitReport::parse("<testsuite><testcase name=\"a\"/></testsuite>").unwrap();
    assert_eq!(all_pass.summary(), "1 passed");
    let empty = JUnitReport::parse("<testsuites></testsuites>").unwrap();
    assert_eq!(empty.summary(), "no test cases");
    assert_eq!(empty.total(), 0);
}

#[test]
fn summary_cuts_long_headlines_and_uses_the_first_line() {
    let long = "x".repeat(300);
    let xml = format!(
        "<testsuite><testcase name=\"t\"><failure message=\"{long}&#10;second line\"/></testcase></testsuite>"
    );
    let report = JUnitReport::parse(&xml).unwrap();
    let expected = format!("0 passed, 1 failed: t — {}…", "x".repeat(119));
    assert_eq!(report.summary(), expected);
    let headline = report.cases().next().unwrap().headline().unwrap();
    assert_eq!(headline.chars().count(), 120);
}

#[test]
fn failure_texts_are_capped() {
    let long = "y".repeat(MAX_TEXT_CHARS + 500);
    let xml = format!(
        "<testsuite><testcase name=\"t\"><failure>\n  {long}\n</failure></testcase></testsuite>"
    );
    let report = JUnitReport::parse(&xml).unwrap();
    let text = report.cases().next().unwrap().text.clone().unwrap();
    assert_eq!(text.chars().count(), MAX_TEXT_CHARS);
    assert!(text.starts_with('y') && text.ends_with('…'));
}

#[test]
fn combine_sums_reports_of_one_stage() {
    let playwright = fixture("playwright.xml");
    let nextest = fixture("nextest.xml");
    let combined = JUnitReport::combine([playwright.clone(), nextest.clone()]);
    assert_eq!(combined.suites.len(), 4);
    assert_eq!(combined.name, None, "different names are dropped");
    assert_eq!(
        (
            combined.total(),
            combined.passed(),
            combined.failed(),
            combined.skipped()
        ),
        (11, 8, 2, 1)
    );
    assert_eq!(
        combined.duration(),
        Some(Duration::from_millis(7842 + 1284))
    );
    assert_eq!(
        combined.summary(),
        "8 passed, 2 failed, 1 skipped: home.spec.ts::home page › shows the title — \
         Error: expect(page).toHaveTitle(expected) failed; \
         heddle-dot::round_trip::rejects_tabs — assertion `left == right` failed: expected tab error"
    );
    assert_eq!(JUnitReport::combine([nextest.clone()]), nextest);
    assert_eq!(JUnitReport::combine([]).summary(), "no test cases");
}

#[test]
fn reports_serialize_in_snake_case() {
    let report = fixture("pytest.xml");
    let json = serde_json::to_value(&report).unwrap();
    let case = &json["suites"][0]["cases"][4];
    assert_eq!(case["name"], "test_loads_large_graph");
    assert_eq!(case["status"], "errored");
    assert_eq!(json["suites"][0]["counts_from_attributes"], false);
    assert!(case.get("failure_type").is_some());
    let back: JUnitReport = serde_json::from_value(json).unwrap();
    assert_eq!(back, report);
}

#[test]
fn utf16_and_bom_files_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let xml = "<testsuite name=\"ü\"><testcase name=\"a\"/></testsuite>";
    let utf8 = dir.path().join("bom.xml");
    std::fs::write(&utf8, format!("\u{feff}{xml}")).unwrap();
    let utf16 = dir.path().join("utf16.xml");
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(xml.encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(&utf16, bytes).unwrap();
    for path in [utf8, utf16] {
        let report = JUnitReport::parse_file(&path).unwrap();
        assert_eq!(report.suites[0].name, "ü");
        assert_eq!(report.summary(), "1 passed");
    }
}
