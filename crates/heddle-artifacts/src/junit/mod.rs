//! JUnit XML: parsing the reports test runners write (Playwright, cargo-nextest, pytest,
//! Surefire, …) into suites and cases, and a one-line summary a person and a model can read:
//! `41 passed, 1 failed: parser::rejects_tabs — expected tab error`.
//!
//! The parser is lenient about what producers disagree on and strict about XML itself:
//!
//! - the root is `<testsuites>` (with `<testsuite>` children) or a single `<testsuite>`;
//!   nested suites are flattened, their names joined with `" / "`;
//! - suite counts are recomputed from the cases, because the attributes are often wrong;
//!   a suite without cases keeps its count attributes;
//! - a case's `<failure>` is [`CaseStatus::Failed`], `<error>` is [`CaseStatus::Errored`],
//!   `<skipped>` is [`CaseStatus::Skipped`]; retry records (`<flakyFailure>`,
//!   `<rerunFailure>`, …) do not change the status;
//! - texts are trimmed and capped ([`MAX_TEXT_CHARS`], [`MAX_OUTPUT_CHARS`]);
//! - a document that is not well-formed is a [`JUnitError::Xml`] with a line and column,
//!   one whose root is something else is a [`JUnitError::NotJUnit`].
//!
//! The files come from test suites, so they are untrusted: a file over [`MAX_REPORT_BYTES`]
//! is refused unread ([`JUnitError::TooLarge`]), no DTD is read and no entity but XML's
//! five predefined ones and character references is expanded (others stay as written),
//! texts are capped while they are read, and nesting is followed without recursion.

mod parse;
mod summary;
mod text;

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The most characters kept of a failure's `message` or text; longer ones end in `…`.
pub const MAX_TEXT_CHARS: usize = 4000;
/// The most characters kept of a case's `<system-out>` or `<system-err>`; longer ones end
/// in `…`.
pub const MAX_OUTPUT_CHARS: usize = 2000;
/// The largest JUnit file read; larger ones are [`JUnitError::TooLarge`].
pub const MAX_REPORT_BYTES: u64 = 32 * 1024 * 1024;
/// The most failing cases [`JUnitReport::summary`] names before `and N more`.
pub const SUMMARY_FAILURES: usize = 3;
/// The most characters of one failure's first line in [`JUnitReport::summary`].
pub const SUMMARY_LINE_CHARS: usize = 120;

/// A parsed JUnit report: one file, or several combined with [`JUnitReport::combine`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub struct JUnitReport {
    /// The `name` of the `<testsuites>` root, when present and not empty.
    pub name: Option<String>,
    /// The run's time in seconds: the root element's `time` (with `<testsuites>`, the
    /// wall-clock time, less than the suites' sum when they ran in parallel), else the sum
    /// of the top-level suites' times.
    pub time: Option<f64>,
    /// The suites in document order, nested ones flattened.
    pub suites: Vec<JUnitSuite>,
}

/// One `<testsuite>`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub struct JUnitSuite {
    /// The suite's `name`; nested suites join their ancestors' names with `" / "`.
    /// Empty when the file gives none.
    pub name: String,
    /// Number of cases.
    pub tests: usize,
    /// Cases with a `<failure>`.
    pub failures: usize,
    /// Cases with an `<error>`.
    pub errors: usize,
    /// Skipped cases.
    pub skipped: usize,
    /// The `time` attribute in seconds, or the sum of the cases' times when it is missing.
    pub time: Option<f64>,
    /// The `timestamp` attribute, verbatim.
    pub timestamp: Option<String>,
    /// True when the suite has no cases and the counts above are its attributes.
    pub counts_from_attributes: bool,
    /// The cases in document order.
    pub cases: Vec<JUnitCase>,
}

/// One `<testcase>`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub struct JUnitCase {
    /// The `classname` attribute (a module, class or spec file), when present and not empty.
    pub classname: Option<String>,
    /// The `name` attribute.
    pub name: String,
    /// The `time` attribute in seconds.
    pub time: Option<f64>,
    /// Passed, failed, errored or skipped.
    pub status: CaseStatus,
    /// The `message` attribute of the `<failure>`, `<error>` or `<skipped>` element.
    pub message: Option<String>,
    /// The `type` attribute of the `<failure>` or `<error>` element.
    pub failure_type: Option<String>,
    /// The text of the `<failure>`, `<error>` or `<skipped>` element (a stack trace,
    /// a diff, …), trimmed.
    pub text: Option<String>,
    /// The start of the case's `<system-out>`.
    pub system_out: Option<String>,
    /// The start of the case's `<system-err>`.
    pub system_err: Option<String>,
    /// Paths from `[[ATTACHMENT|path]]` lines in the case's output (Playwright and
    /// Jenkins write screenshots, videos and traces this way), relative to where the
    /// runner ran.
    pub attachments: Vec<String>,
}

/// How a case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CaseStatus {
    /// No `<failure>`, `<error>` or `<skipped>`.
    #[default]
    Passed,
    /// A `<failure>`: an assertion did not hold.
    Failed,
    /// An `<error>`: the test could not run to its assertions (an exception, a crash).
    Errored,
    /// A `<skipped>`.
    Skipped,
}

/// The numbers of a report, for a stage outcome.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct JUnitTotals {
    /// All cases.
    pub total: usize,
    /// Passed cases.
    pub passed: usize,
    /// Failed and errored cases.
    pub failed: usize,
    /// Skipped cases.
    pub skipped: usize,
    /// The report's duration in seconds, when known.
    pub seconds: Option<f64>,
}

/// Why a JUnit file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JUnitError {
    /// The file could not be read.
    #[error("could not read {}: {message}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's error.
        message: String,
    },
    /// The document is not well-formed XML.
    #[error("not well-formed XML at line {line}, column {column}: {message}")]
    Xml {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column (in characters) of the problem.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The document is XML, but its root is neither `<testsuites>` nor `<testsuite>`.
    #[error("not a JUnit report (root element <{root}>)")]
    NotJUnit {
        /// The root element's name as written.
        root: String,
    },
    /// The file is larger than [`MAX_REPORT_BYTES`].
    #[error("{} is {size} bytes, over the {} MiB a JUnit report may have", path.display(), limit / (1024 * 1024))]
    TooLarge {
        /// The file.
        path: std::path::PathBuf,
        /// Its size in bytes.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The document has no root element (it is empty, or only text and comments).
    #[error("not a JUnit report (no root element)")]
    NoRoot,
}

impl CaseStatus {
    /// True for [`CaseStatus::Failed`] and [`CaseStatus::Errored`].
    pub fn is_failure(self) -> bool {
        matches!(self, CaseStatus::Failed | CaseStatus::Errored)
    }
}

impl JUnitCase {
    /// `classname::name`, or `name` when there is no classname.
    pub fn id(&self) -> String {
        match self.classname.as_deref() {
            Some(classname) => format!("{classname}::{}", self.name),
            None => self.name.clone(),
        }
    }

    /// The line that best says why the case failed, cut at [`SUMMARY_LINE_CHARS`]: the
    /// first line of the `message`, or when the message only restates the test's title
    /// (as Playwright's does), the first error line of the text (`Error: …`,
    /// `AssertionError: …`, a Rust panic's message), else its first line. `None` when
    /// the case has neither.
    pub fn headline(&self) -> Option<String> {
        summary::headline(self)
    }
}

impl JUnitSuite {
    /// Cases that passed (by the counts, so also for suites without cases).
    pub fn passed(&self) -> usize {
        self.tests
            .saturating_sub(self.failures)
            .saturating_sub(self.errors)
            .saturating_sub(self.skipped)
    }
}

impl JUnitReport {
    /// Parses a JUnit XML document.
    ///
    /// # Errors
    ///
    /// [`JUnitError::Xml`] when the text is not well-formed XML (including a file cut
    /// short), [`JUnitError::NotJUnit`] when the root is another element, and
    /// [`JUnitError::NoRoot`] when there is no element at all.
    pub fn parse(xml: &str) -> Result<JUnitReport, JUnitError> {
        parse::parse(xml)
    }

    /// Reads and parses a JUnit XML file of at most [`MAX_REPORT_BYTES`]. UTF-8 (with or
    /// without a byte-order mark) and UTF-16 with a byte-order mark are read; invalid
    /// UTF-8 is replaced, not refused.
    ///
    /// # Errors
    ///
    /// [`JUnitError::Io`] when the file cannot be read, [`JUnitError::TooLarge`] when it is
    /// over the limit, otherwise as [`JUnitReport::parse`].
    pub fn parse_file(path: &Path) -> Result<JUnitReport, JUnitError> {
        Self::parse_file_limited(path, MAX_REPORT_BYTES)
    }

    /// [`JUnitReport::parse_file`] with another size limit in bytes.
    ///
    /// # Errors
    ///
    /// As [`JUnitReport::parse_file`].
    pub fn parse_file_limited(path: &Path, limit: u64) -> Result<JUnitReport, JUnitError> {
        let io = |error: std::io::Error| JUnitError::Io {
            path: path.to_path_buf(),
            message: error.to_string(),
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        // Read one byte past the limit: a file that grew after a size check is still caught.
        std::io::Read::read_to_end(&mut std::io::Read::take(file, limit + 1), &mut bytes)
            .map_err(io)?;
        let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if read > limit {
            let size = std::fs::metadata(path).map_or(read, |m| m.len().max(read));
            return Err(JUnitError::TooLarge {
                path: path.to_path_buf(),
                size,
                limit,
            });
        }
        parse::parse(&text::decode(&bytes))
    }

    /// Sums several reports of one stage (one file per test runner or shard) into one.
    /// The suites are concatenated; the duration is the sum of the reports' durations.
    pub fn combine(reports: impl IntoIterator<Item = JUnitReport>) -> JUnitReport {
        let mut combined = JUnitReport::default();
        for report in reports {
            combined.merge(report);
        }
        combined
    }

    /// Adds another report's suites to this one (see [`JUnitReport::combine`]).
    pub fn merge(&mut self, other: JUnitReport) {
        if *self == JUnitReport::default() {
            *self = other;
            return;
        }
        self.time = match (self.seconds(), other.seconds()) {
            (Some(a), Some(b)) => Some(a + b),
            (known, None) | (None, known) => known,
        };
        if self.name != other.name {
            self.name = None;
        }
        self.suites.extend(other.suites);
    }

    /// All cases of all suites, in document order.
    pub fn cases(&self) -> impl Iterator<Item = &JUnitCase> {
        self.suites.iter().flat_map(|suite| suite.cases.iter())
    }

    /// The failed and errored cases, in document order.
    pub fn failed_cases(&self) -> impl Iterator<Item = &JUnitCase> {
        self.cases().filter(|case| case.status.is_failure())
    }

    /// Cases that passed.
    pub fn passed(&self) -> usize {
        self.suites.iter().map(JUnitSuite::passed).sum()
    }

    /// Cases that failed or errored.
    pub fn failed(&self) -> usize {
        self.suites.iter().map(|s| s.failures + s.errors).sum()
    }

    /// Cases that were skipped.
    pub fn skipped(&self) -> usize {
        self.suites.iter().map(|s| s.skipped).sum()
    }

    /// All cases.
    pub fn total(&self) -> usize {
        self.suites.iter().map(|s| s.tests).sum()
    }

    /// How long the run took: the root's `time`, else the sum of the suites' times;
    /// `None` when the file has no times.
    pub fn duration(&self) -> Option<Duration> {
        self.seconds()
            .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
    }

    /// The counts and duration together.
    pub fn totals(&self) -> JUnitTotals {
        JUnitTotals {
            total: self.total(),
            passed: self.passed(),
            failed: self.failed(),
            skipped: self.skipped(),
            seconds: self.seconds(),
        }
    }

    /// One line for people and models: `41 passed, 1 failed: parser::rejects_tabs —
    /// expected tab error`. Up to [`SUMMARY_FAILURES`] failing cases are named (each
    /// `classname::name — headline`, separated by `; `), then `and N more`. Without
    /// failures: `42 passed` or `42 passed, 3 skipped`. Without cases: `no test cases`.
    pub fn summary(&self) -> String {
        summary::summary(self)
    }

    fn seconds(&self) -> Option<f64> {
        self.time.or_else(|| {
            self.suites
                .iter()
                .filter_map(|suite| suite.time)
                .reduce(|a, b| a + b)
        })
    }
}
