//! A run's budget in the index: the limits its latest `run.started` recorded (a resume may
//! run under others, or none), beside its cost in the run list; a run recorded before the
//! limits were has none; reindex gives the same.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::{Event, StageStatus, Usage};
use heddle_store::RunRecord;
use support::{Home, append, line, manifest, synthetic_run};

const LIMITED: &str = "01LIMITED00000000000000000";
const OLD: &str = "01OLDRUN000000000000000000";

fn started(run: &str, seq: u64, cost: Option<f64>, tokens: Option<u64>) -> String {
    line(
        run,
        seq,
        None,
        Event::RunStarted {
            workflow: "W".into(),
            goal: None,
            work_dir: "/work".into(),
            run_dir: "/runs/x".into(),
            dry_run: false,
            resumed: seq > 1,
            max_cost_usd: cost,
            max_tokens: tokens,
        },
    )
}

fn priced_stage(run: &str, seq: u64, node: &str, cost: f64) -> String {
    line(
        run,
        seq,
        Some(node),
        Event::StageCompleted {
            status: StageStatus::Success,
            duration_ms: 1,
            visit: 1,
            attempts: 1,
            notes: String::new(),
            branch: None,
            stage_dir: None,
            usage: Some(Usage {
                input_tokens: 100,
                output_tokens: 10,
                ..Usage::default()
            }),
            cost_usd: Some(cost),
        },
    )
}

fn budget(run: &RunRecord) -> (Option<f64>, Option<i64>, Option<f64>) {
    (run.max_cost_usd, run.max_tokens, run.cost_usd)
}

#[tokio::test]
async fn the_budget_in_force_is_the_latest_starts_and_listed_with_the_cost() {
    let home = Home::new();
    let limited = synthetic_run(
        &home.runs(),
        &manifest(LIMITED, "W", "2026-01-01T00:01:00.000Z", &[]),
    );
    let old = synthetic_run(
        &home.runs(),
        &manifest(OLD, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    append(&old, &started(OLD, 1, None, None));
    append(
        &limited,
        &(started(LIMITED, 1, Some(0.5), Some(20_000)) + &priced_stage(LIMITED, 2, "plan", 0.25)),
    );
    let store = home.store("heddle.db").await;
    store.ingest_run(&limited).await.unwrap();
    store.ingest_run(&old).await.unwrap();
    assert_eq!(
        budget(&store.run(LIMITED).await.unwrap()),
        (Some(0.5), Some(20_000), Some(0.25))
    );
    assert_eq!(budget(&store.run(OLD).await.unwrap()), (None, None, None));

    // Ingested again without a new start: the budget stays. Resumed under a cost limit
    // only: that is the budget now.
    append(&limited, &priced_stage(LIMITED, 3, "review", 0.125));
    store.ingest_run(&limited).await.unwrap();
    assert_eq!(
        budget(&store.run(LIMITED).await.unwrap()),
        (Some(0.5), Some(20_000), Some(0.375))
    );
    append(&limited, &started(LIMITED, 4, Some(2.0), None));
    store.ingest_run(&limited).await.unwrap();
    assert_eq!(
        budget(&store.run(LIMITED).await.unwrap()),
        (Some(2.0), None, Some(0.375))
    );

    let page = store
        .list_runs(&Default::default(), &Default::default())
        .await
        .unwrap();
    let listed: Vec<_> = page.items.iter().map(budget).collect();
    assert_eq!(listed, [(Some(2.0), None, Some(0.375)), (None, None, None)]);

    let rebuilt = home.store("rebuilt.db").await;
    rebuilt.reindex(&home.runs()).await.unwrap();
    let again = rebuilt
        .list_runs(&Default::default(), &Default::default())
        .await
        .unwrap();
    assert_eq!(again.items, page.items);
}
