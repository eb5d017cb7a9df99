//! JUnit parsing against reports as real producers write them (Playwright, cargo-nextest,
//! pytest, PHPUnit's nesting, a hand-rolled reporter with CDATA and entities). Broken and
//! non-JUnit files and the summaries are in junit_rules.rs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod junit_support;

use std::time::Duration;

use heddle_artifacts::CaseStatus;
use junit_support::*;

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
