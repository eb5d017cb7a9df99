//! JUnit files come from test suites: a huge file is refused unread, entities a DTD
//! declares are never expanded (nor external ones fetched), and deep nesting is no crash.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_artifacts::{JUnitError, JUnitReport, junit::MAX_REPORT_BYTES};

#[test]
fn a_file_over_the_limit_is_refused_with_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junit.xml");
    let file = std::fs::File::create(&path).unwrap();
    // Sparse: the size is what counts, not the content.
    file.set_len(MAX_REPORT_BYTES + 1).unwrap();
    match JUnitReport::parse_file(&path) {
        Err(JUnitError::TooLarge { size, limit, .. }) => {
            assert_eq!((size, limit), (MAX_REPORT_BYTES + 1, MAX_REPORT_BYTES));
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    let small = dir.path().join("small.xml");
    std::fs::write(
        &small,
        r#"<testsuite name="s"><testcase name="a"/></testsuite>"#,
    )
    .unwrap();
    let error = JUnitReport::parse_file_limited(&small, 10).unwrap_err();
    assert!(
        error.to_string().contains("over the 0 MiB"),
        "the message names the limit: {error}"
    );
    assert_eq!(
        JUnitReport::parse_file_limited(&small, 100)
            .unwrap()
            .total(),
        1
    );
}

#[test]
fn declared_entities_are_kept_as_written_not_expanded() {
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE testsuite [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<testsuite name="s">
  <testcase name="laughs"><failure message="&lol9;">&lol9; &amp; &#65;</failure></testcase>
  <testcase name="external"><failure message="x">&xxe;</failure></testcase>
</testsuite>"#;
    let report = JUnitReport::parse(laughs).unwrap();
    let cases: Vec<_> = report.cases().collect();
    assert_eq!(cases[0].message.as_deref(), Some("&lol9;"));
    assert_eq!(cases[0].text.as_deref(), Some("&lol9; & A"));
    assert_eq!(cases[1].text.as_deref(), Some("&xxe;"));
}

#[test]
fn deep_nesting_is_read_without_recursion() {
    let depth = 100_000;
    let xml = format!(
        "<testsuites>{}<testcase name=\"deep\"/>{}</testsuites>",
        "<testsuite>".repeat(depth),
        "</testsuite>".repeat(depth)
    );
    let report = JUnitReport::parse(&xml).unwrap();
    assert_eq!(report.total(), 1);
}
