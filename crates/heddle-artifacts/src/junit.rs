//! JUnit XML. (stub; being written)

/// A parsed report.
#[derive(Debug, Clone, Default)]
pub struct JUnitReport;
/// A suite.
#[derive(Debug, Clone, Default)]
pub struct JUnitSuite;
/// A case.
#[derive(Debug, Clone, Default)]
pub struct JUnitCase;
/// A case's status.
#[derive(Debug, Clone, Copy)]
pub enum CaseStatus {
    /// Passed.
    Passed,
}
/// A parse error.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct JUnitError(pub String);
