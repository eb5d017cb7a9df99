//! Run totals: the tokens and cost of a run's priced stages are summed on its row, a run
//! without prices has no cost (not $0), and reindex rebuilds the totals from the events.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::{Event, StageStatus, Usage};
use support::{Home, append, line, manifest, synthetic_run};

const PRICED: &str = "01PRICED000000000000000000";
const UNPRICED: &str = "01UNPRICED0000000000000000";

fn stage(run: &str, seq: u64, node: &str, usage: Option<(u64, u64)>, cost: Option<f64>) -> String {
    let started = line(
        run,
        seq,
        Some(node),
        Event::StageStarted {
            kind: "codergen".into(),
            visit: 1,
            attempt: 1,
            branch: None,
            stage_dir: None,
        },
    );
    let usage = usage.map(|(input_tokens, output_tokens)| Usage {
        input_tokens,
        output_tokens,
        ..Usage::default()
    });
    let ended = if node == "fails" {
        Event::StageFailed {
            reason: "no".into(),
            failure_class: None,
            duration_ms: 1,
            visit: 1,
            attempts: 1,
            branch: None,
            stage_dir: None,
            usage,
            cost_usd: cost,
        }
    } else {
        Event::StageCompleted {
            status: StageStatus::Success,
            duration_ms: 1,
            visit: 1,
            attempts: 1,
            notes: String::new(),
            branch: None,
            stage_dir: None,
            usage,
            cost_usd: cost,
        }
    };
    started + &line(run, seq + 1, Some(node), ended)
}

#[tokio::test]
async fn priced_stages_sum_to_the_run_total_and_reindex_rebuilds_it() {
    let home = Home::new();
    let priced = synthetic_run(
        &home.runs(),
        &manifest(PRICED, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let unpriced = synthetic_run(
        &home.runs(),
        &manifest(UNPRICED, "W", "2026-01-01T00:01:00.000Z", &[]),
    );
    append(
        &priced,
        &format!(
            "{}{}{}{}",
            stage(PRICED, 1, "plan", Some((1000, 200)), Some(0.25)),
            stage(PRICED, 3, "test", None, None),
            stage(PRICED, 5, "fails", Some((500, 50)), Some(0.125)),
            stage(PRICED, 7, "review", Some((10, 5)), None),
        ),
    );
    append(&unpriced, &stage(UNPRICED, 1, "test", None, None));
    let store = home.store("heddle.db").await;
    store.ingest_run(&priced).await.unwrap();
    store.ingest_run(&unpriced).await.unwrap();

    let run = store.run(PRICED).await.unwrap();
    assert_eq!((run.input_tokens, run.output_tokens), (1510, 255));
    assert_eq!(run.cost_usd, Some(0.375));
    let none = store.run(UNPRICED).await.unwrap();
    assert_eq!(
        (none.input_tokens, none.output_tokens, none.cost_usd),
        (0, 0, None)
    );

    let fresh = home.store("rebuilt.db").await;
    fresh.reindex(&home.runs()).await.unwrap();
    let rebuilt = fresh.run(PRICED).await.unwrap();
    assert_eq!(
        (
            rebuilt.input_tokens,
            rebuilt.output_tokens,
            rebuilt.cost_usd
        ),
        (1510, 255, Some(0.375))
    );
    let listed = fresh
        .list_runs(&Default::default(), &Default::default())
        .await;
    let page = listed.unwrap();
    let costs: Vec<Option<f64>> = page.items.iter().map(|r| r.cost_usd).collect();
    assert_eq!(costs, [None, Some(0.375)], "newest first");
}
