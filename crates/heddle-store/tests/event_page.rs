//! A long run's events read a page at a time from the index: pages after a seq cover every
//! event once and in order, and a page from a moment starts at the first event written then.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::Event;
use support::{Home, append, line, manifest, synthetic_run};

const RUN: &str = "01EVENTPAGE000000000000000";
const EVENTS: u64 = 2_500;

async fn indexed_run(home: &Home) -> heddle_store::Store {
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let text: String = (1..=EVENTS)
        .map(|seq| {
            let message = format!("event {seq}");
            line(RUN, seq, Some("a"), Event::Warning { message })
        })
        .collect();
    append(&folder, &text);
    let store = home.store("heddle.db").await;
    store.ingest_run(&folder).await.unwrap();
    store
}

#[tokio::test]
async fn pages_after_a_seq_hold_every_event_once_in_order() {
    let home = Home::new();
    let store = indexed_run(&home).await;
    let mut after = 0;
    let mut seen = Vec::new();
    loop {
        let page = store.events_page(RUN, after, None, 1_000).await.unwrap();
        let Some(last) = page.last() else { break };
        assert!(page.len() <= 1_000);
        after = last.seq;
        seen.extend(page.into_iter().map(|e| e.seq));
    }
    let all: Vec<i64> = (1..=EVENTS as i64).collect();
    assert_eq!(seen, all);
    let tail = store.events_page(RUN, 2_490, None, 1_000).await.unwrap();
    assert_eq!(tail.len(), 10);
    assert_eq!(tail[0].properties["message"], "event 2491");
}

#[tokio::test]
async fn a_page_from_a_moment_starts_at_the_first_event_written_then() {
    let home = Home::new();
    let store = indexed_run(&home).await;
    // Event 1,500 is stamped 00:00:01.500 (see `support::line`).
    let page = store
        .events_page(RUN, 0, Some("2026-01-01T00:00:01.500Z"), 3)
        .await
        .unwrap();
    let seqs: Vec<i64> = page.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1_500, 1_501, 1_502]);
    assert_eq!(page[0].event, "warning");
    // A moment after the last event: nothing.
    let after_end = store
        .events_page(RUN, 0, Some("2026-01-01T00:00:09.000Z"), 10)
        .await
        .unwrap();
    assert!(after_end.is_empty());
}

#[tokio::test]
async fn an_unknown_run_is_not_found() {
    let home = Home::new();
    let store = indexed_run(&home).await;
    let error = store
        .events_page("01NOSUCHRUN", 0, None, 10)
        .await
        .unwrap_err();
    assert!(
        matches!(error, heddle_store::StoreError::RunNotFound { .. }),
        "{error}"
    );
}
