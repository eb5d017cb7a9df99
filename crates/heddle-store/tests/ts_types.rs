//! With the `ts` feature, the store's types derive TypeScript declarations, with numbers
//! (not bigints) for the integer fields.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "ts")]

use heddle_store::{EventRecord, RunFilter, RunPage, RunRecord, Timeline};
use ts_rs::{Config, TS};

#[test]
fn types_declare_typescript_with_plain_numbers() {
    let cfg = Config::new();
    let record = RunRecord::decl(&cfg);
    assert!(record.contains("duration_ms: number | null"), "{record}");
    assert!(record.contains("event_count: number"), "{record}");
    assert!(record.contains("status: RunStatus"), "{record}");
    assert!(!record.contains("bigint"), "{record}");
    for decl in [
        RunPage::decl(&cfg),
        RunFilter::decl(&cfg),
        Timeline::decl(&cfg),
        EventRecord::decl(&cfg),
    ] {
        assert!(!decl.contains("bigint"), "{decl}");
    }
    assert!(EventRecord::decl(&cfg).contains("properties: Record<string, unknown>"));
}
