//! JUnit parsing against reports as real producers write them (Playwright, cargo-nextest,
//! pytest, PHPUnit's nesting, a hand-rolled reporter with CDATA and entities), plus
//! broken and non-JUnit files.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::time::Duration;

use heddle_artifacts::junit::{JUnitTotals, MAX_TEXT_CHARS};
use heddle_artifacts::{CaseStatus, JUnitCase, JUnitError, JUnitReport, JUnitSuite};

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/junit")
        .join(name)
}

fn fixture(name: &str) -> JUnitReport {
    JUnitReport::parse_file(&fixture_path(name))
        .unwrap_or_else(|error| panic!("{name} should parse: {error}"))
}

fn case<'a>(report: &'a JUnitReport, name: &str) -> &'a JUnitCase {
    report
        .cases()
        .find(|case| case.name == name)
        .unwrap_or_else(|| panic!("no case {name:?}"))
}

fn suite<'a>(report: &'a JUnitReport, name: &str) -> &'a JUnitSuite {
    report
        .suites
        .iter()
        .find(|suite| suite.name == name)
        .unwrap_or_else(|| panic!("no suite {name:?}"))
}

fn assert_close(actual: Option<f64>, expected: f64) {
    let actual = actual.expect("a time");
    assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
}

#[test]
fn playwright_report_parses_suites_cases_and_the_failure() {
    let report = fixture("playwright.xml");
    assert_eq!(report.name, None, "an empty name attribute is no name");
    let names: Vec<&str> = report.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["home.spec.ts", "settings.spec.ts"]);

    let home = suite(&report, "home.spec.ts");
    assert_eq!(
        (home.tests, home.failures, home.errors, home.skipped),
        (3, 1, 0, 0)
    );
    assert_eq!(home.timestamp.as_deref(), Some("2025-06-12T09:14:03.512Z"));
    assert_close(home.time, 6.104);
    assert!(!home.counts_from_attributes);
    let settings = suite(&report, "settings.spec.ts");
    assert_eq!(
        (settings.tests, settings.skipped, settings.passed()),
        (2, 1, 1)
    );

    let title = case(&report, "home page › shows the title");
    assert_eq!(title.classname.as_deref(), Some("home.spec.ts"));
    assert_eq!(title.status, CaseStatus::Failed);
    assert_close(title.time, 5.214);
    assert_eq!(
        title.message.as_deref(),
        Some("home.spec.ts:8:5 shows the title")
    );
    assert_eq!(title.failure_type.as_deref(), Some("FAILURE"));
    let text = title.text.as_deref().unwrap();
    assert!(
        text.starts_with("[chromium] › home.spec.ts:8:5 › home page › shows the title"),
        "trimmed: {text:?}"
    );
    assert!(text.contains("9 × locator resolved to <html lang=\"en\">…</html>"));
    assert!(text.contains("    > 10 |     await expect(page).toHaveTitle(/Heddle/);"));
    assert!(text.ends_with('─'));
    assert_eq!(
        title.attachments,
        [
            "test-results/home-page-shows-the-title-chromium/test-failed-1.png",
            "test-results/home-page-shows-the-title-chromium/trace.zip",
        ]
    );
    assert!(
        title
            .system_out
            .as_deref()
            .unwrap()
            .starts_with("[[ATTACHMENT|")
    );
    assert_eq!(title.system_err, None);
    // Playwright's message only says where; the headline comes from the text.
    assert_eq!(
        title.headline().as_deref(),
        Some("Error: expect(page).toHaveTitle(expected) failed")
    );

    let search = case(&report, "search › finds \"heddle\" & highlights it");
    assert_eq!(search.status, CaseStatus::Passed);
    assert_eq!(search.system_out.as_deref(), Some("query took 41ms"));
    assert_eq!(
        (search.message.as_ref(), search.text.as_ref()),
        (None, None)
    );
    assert!(search.attachments.is_empty());

    let backup = case(&report, "settings › exports a backup");
    assert_eq!(backup.status, CaseStatus::Skipped);
    assert_eq!(backup.time, Some(0.0));
    assert_eq!(
        (backup.message.as_ref(), backup.text.as_ref()),
        (None, None)
    );

    assert_eq!(
        (
            report.total(),
            report.passed(),
            report.failed(),
            report.skipped()
        ),
        (5, 3, 1, 1)
    );
    assert_eq!(report.duration(), Some(Duration::from_millis(7842)));
    assert_eq!(
        report.summary(),
        "3 passed, 1 failed, 1 skipped: home.spec.ts::home page › shows the title — \
         Error: expect(page).toHaveTitle(expected) failed"
    );
}

#[test]
fn nextest_report_parses_binaries_panics_and_ignores_flaky_retries() {
    let report = fixture("nextest.xml");
    assert_eq!(report.name.as_deref(), Some("nextest-run"));
    let names: Vec<&str> = report.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["heddle-dot", "heddle-dot::round_trip"]);
    let round_trip = suite(&report, "heddle-dot::round_trip");
    assert_eq!(
        (round_trip.tests, round_trip.failures, round_trip.passed()),
        (4, 1, 3)
    );
    assert_eq!(round_trip.timestamp, None);
    // No time attribute on the suite: the cases' sum.
    assert_close(round_trip.time, 0.031 + 0.012 + 0.405 + 0.826);

    let tabs = case(&report, "rejects_tabs");
    assert_eq!(tabs.id(), "heddle-dot::round_trip::rejects_tabs");
    assert_eq!(tabs.status, CaseStatus::Failed);
    assert_eq!(tabs.failure_type.as_deref(), Some("test failure"));
    assert_eq!(tabs.message, None);
    assert_close(tabs.time, 0.012);
    let text = tabs.text.as_deref().unwrap();
    assert!(text.starts_with(
        "thread 'rejects_tabs' panicked at crates/heddle-dot/tests/round_trip.rs:41:5:\n\
         assertion `left == right` failed: expected tab error\n  left: None\n right: Some(\"tab\")"
    ));
    assert!(text.ends_with("to display a backtrace"));
    assert!(
        tabs.system_out
            .as_deref()
            .unwrap()
            .starts_with("running 1 test\ntest rejects_tabs ... FAILED")
    );
    assert!(
        tabs.system_err
            .as_deref()
            .unwrap()
            .starts_with("thread 'rejects_tabs' panicked")
    );
    assert_eq!(
        tabs.headline().as_deref(),
        Some("assertion `left == right` failed: expected tab error")
    );

    // A test that failed once and passed on retry passed; the retry's output is not its own.
    let watch = case(&report, "watch::reloads_after_save");
    assert_eq!(watch.status, CaseStatus::Passed);
    assert_eq!(watch.message, None);
    assert_eq!(watch.text, None);
    assert_eq!(watch.system_out, None);
    assert_eq!(watch.system_err, None);

    let keywords = case(&report, "lexer::tests::keywords_are_case_insensitive");
    assert_eq!(keywords.classname.as_deref(), Some("heddle-dot"));
    assert_close(keywords.time, 0.004);

    assert_eq!(
        (report.total(), report.passed(), report.failed()),
        (6, 5, 1)
    );
    assert_eq!(report.duration(), Some(Duration::from_millis(1284)));
    assert_eq!(
        report.summary(),
        "5 passed, 1 failed: heddle-dot::round_trip::rejects_tabs — \
         assertion `left == right` failed: expected tab error"
    );
}

#[test]
fn pytest_report_parses_failures_errors_and_skips() {
    let report = fixture("pytest.xml");
    assert_eq!(report.name.as_deref(), Some("pytest tests"));
    assert_eq!(report.suites.len(), 1);
    let pytest = &report.suites[0];
    assert_eq!(pytest.name, "pytest");
    assert_eq!(
        (
            pytest.tests,
            pytest.failures,
            pytest.errors,
            pytest.skipped,
            pytest.passed()
        ),
        (6, 1, 1, 1, 3)
    );
    assert_eq!(
        pytest.timestamp.as_deref(),
        Some("2025-06-12T09:31:45.118324+00:00")
    );

    let tabs = case(&report, "test_rejects_tabs");
    assert_eq!(tabs.classname.as_deref(), Some("tests.test_parser"));
    assert_eq!(tabs.status, CaseStatus::Failed);
    // `&#10;` in an attribute is a newline that attribute normalisation keeps.
    assert_eq!(
        tabs.message.as_deref(),
        Some(
            "AssertionError: expected tab error\nassert None == 'tab'\n +  where None = parse('a\\tb')"
        )
    );
    let text = tabs.text.as_deref().unwrap();
    assert!(
        text.starts_with("def test_rejects_tabs():\n>       assert parse(\"a\\tb\") == \"tab\"")
    );
    assert!(text.ends_with("tests/test_parser.py:14: AssertionError"));
    assert_eq!(tabs.failure_type, None);

    let large = case(&report, "test_loads_large_graph");
    assert_eq!(large.status, CaseStatus::Errored);
    assert!(large.status.is_failure());
    assert_eq!(
        large.message.as_deref(),
        Some(
            "failed on setup with \"FileNotFoundError: [Errno 2] No such file or directory: \
             'fixtures/big.dot'\""
        )
    );

    let fetch = case(&report, "test_fetch_remote");
    assert_eq!(fetch.status, CaseStatus::Skipped);
    assert_eq!(fetch.message.as_deref(), Some("needs network"));
    assert_eq!(
        fetch.text.as_deref(),
        Some("/work/app/tests/test_fetch.py:9: needs network")
    );
    assert_eq!(fetch.time, Some(0.0));

    let writes = case(&report, "test_writes_dot");
    assert_eq!(writes.status, CaseStatus::Passed);
    assert_eq!(writes.system_out.as_deref(), Some("wrote 3 nodes"));
    assert_close(writes.time, 0.389);

    assert_eq!(report.duration(), Some(Duration::from_millis(412)));
    assert_eq!(
        report.summary(),
        "3 passed, 2 failed, 1 skipped: tests.test_parser::test_rejects_tabs — \
         AssertionError: expected tab error; tests.test_loader::test_loads_large_graph — \
         failed on setup with \"FileNotFoundError: [Errno 2] No such file or directory: \
         'fixtures/big.dot'\""
    );
}

#[test]
fn single_testsuite_root_with_cdata_entities_and_stale_counts() {
    let report = fixture("cdata-entities.xml");
    assert_eq!(report.name, None);
    assert_eq!(report.suites.len(), 1);
    let suite = &report.suites[0];
    assert_eq!(suite.name, "dot & graph <tools>");
    // The attributes say 10 tests and no failures; the cases say otherwise.
    assert_eq!(
        (
            suite.tests,
            suite.failures,
            suite.errors,
            suite.skipped,
            suite.passed()
        ),
        (5, 1, 1, 1, 2)
    );
    assert!(!suite.counts_from_attributes);
    assert_eq!(suite.timestamp.as_deref(), Some("2025-06-12T10:02:00"));
    assert_close(suite.time, 2.5);
    assert_eq!(report.duration(), Some(Duration::from_millis(2500)));

    let names: Vec<&str> = report.cases().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "escapes <angle> brackets",
            "keeps CDATA verbatim",
            "joins split CDATA",
            "unicode → arrows ✓",
            "not yet supported",
        ],
        "a <testcase> inside a property value is not a case"
    );

    let verbatim = case(&report, "keeps CDATA verbatim");
    assert_eq!(verbatim.status, CaseStatus::Failed);
    assert_eq!(
        verbatim.message.as_deref(),
        Some("expected \"a & b\", got 'a &amp; b'")
    );
    assert_eq!(verbatim.failure_type.as_deref(), Some("AssertionError"));
    assert_eq!(
        verbatim.text.as_deref(),
        Some(
            "Expected: \"a & b\"\nActual:   'a &amp; b'\n  at <anonymous> (escaping.test.js:12:7)"
        )
    );
    assert_close(verbatim.time, 0.5);

    let split = case(&report, "joins split CDATA");
    assert_eq!(split.status, CaseStatus::Errored);
    assert_eq!(
        split.message.as_deref(),
        Some("TypeError: cannot read property 'id' of undefined")
    );
    assert_eq!(
        split.text.as_deref(),
        Some(
            "TypeError: cannot read property 'id' of undefined\n    at render (render.js:3:10) \
             -- the marker ]]> survives → & after the CDATA"
        )
    );

    let unicode = case(&report, "unicode → arrows ✓");
    assert_eq!(unicode.classname.as_deref(), Some("dot.Unicode"));
    assert_close(unicode.time, 1.5); // written with a decimal comma

    let skipped = case(&report, "not yet supported");
    assert_eq!(skipped.status, CaseStatus::Skipped);
    assert_eq!(
        skipped.message.as_deref(),
        Some("waiting for upstream / #42")
    );
    assert_eq!(skipped.time, None, "a missing time is None, not zero");

    assert_eq!(
        report.summary(),
        "2 passed, 2 failed, 1 skipped: dot.Escaping::keeps CDATA verbatim — \
         expected \"a & b\", got 'a &amp; b'; dot.Escaping::joins split CDATA — \
         TypeError: cannot read property 'id' of undefined"
    );
}

#[test]
fn nested_suites_are_flattened_with_joined_names() {
    let report = fixture("nested.xml");
    let names: Vec<&str> = report.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "heddle / Tests\\Unit\\GraphTest",
            "heddle / Tests\\Unit\\GraphTest / Tests\\Unit\\GraphTest::testRejectsNames",
            "heddle / Tests\\Integration\\RunTest",
        ],
        "a parent with cases comes before its children; a pure grouping suite is dropped"
    );
    let graph = &report.suites[0];
    assert_eq!((graph.tests, graph.failures), (1, 0), "only its own cases");
    let data_sets = &report.suites[1];
    assert_eq!(
        (data_sets.tests, data_sets.failures, data_sets.passed()),
        (2, 1, 1)
    );
    let failed = case(&report, "testRejectsNames with data set \"space\"");
    assert_eq!(failed.classname.as_deref(), Some("Tests.Unit.GraphTest"));
    assert_eq!(
        failed.failure_type.as_deref(),
        Some("PHPUnit\\Framework\\ExpectationFailedException")
    );

    // A suite without cases keeps its count attributes.
    let run = &report.suites[2];
    assert!(run.counts_from_attributes);
    assert!(run.cases.is_empty());
    assert_eq!(
        (
            run.tests,
            run.failures,
            run.errors,
            run.skipped,
            run.passed()
        ),
        (12, 2, 0, 3, 7)
    );
    assert_close(run.time, 4.5);

    assert_eq!(
        (
            report.total(),
            report.passed(),
            report.failed(),
            report.skipped()
        ),
        (15, 9, 3, 3)
    );
    // No root time: the top-level suite's, not the sum of the flattened (nested) ones.
    assert_eq!(report.duration(), Some(Duration::from_millis(4531)));
    // Two failures have no case to name.
    assert_eq!(
        report.summary(),
        "9 passed, 3 failed, 3 skipped: Tests.Unit.GraphTest::testRejectsNames with data set \
         \"space\" — Tests\\Unit\\GraphTest::testRejectsNames with data set \"space\" ('a b'); \
         and 2 more"
    );
}

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
