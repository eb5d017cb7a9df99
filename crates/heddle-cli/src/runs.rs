//! `heddle ps`, `heddle events` and `heddle inspect`: runs as heddle-api reads them (the run
//! index, the event feed), rendered for the terminal.

use std::io::{BufWriter, Write};
use std::time::Duration;

use heddle_api::index::{PageRequest, RunFilter, RunStatus as RunState};
use heddle_api::{ListRunsRequest, RunLibrary, RunRef};
use heddle_engine::{Budget, Envelope};

use crate::live::elapsed;
use crate::run::Environment;

/// `heddle ps`: the runs the index lists (as the UI shows them), brought up to date first.
pub async fn ps(
    all: bool,
    json: bool,
    env: &Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let library = RunLibrary::open(env.home.clone())
        .await
        .map_err(|e| e.message)?;
    library.catch_up().await.map_err(|e| e.message)?;
    let filter = RunFilter {
        status: if all {
            Vec::new()
        } else {
            vec![RunState::Running]
        },
        ..RunFilter::default()
    };
    let mut runs = Vec::new();
    let mut after = None;
    loop {
        let page = library
            .list_runs(ListRunsRequest {
                filter: filter.clone(),
                page: PageRequest { limit: 1000, after },
            })
            .await
            .map_err(|e| e.message)?;
        runs.extend(page.items);
        match page.next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        let text = serde_json::to_string_pretty(&runs).map_err(|e| e.to_string())?;
        return writeln!(out, "{text}").map_err(write);
    }
    if runs.is_empty() {
        let hint = if all {
            ""
        } else {
            " (`heddle ps -a` shows finished ones)"
        };
        return writeln!(out, "no {}runs{hint}", if all { "" } else { "running " }).map_err(write);
    }
    writeln!(
        out,
        "{:<26}  {:<20}  {:<11}  {:<20}  {:>8}  {:>9}  {:>9}  LABELS",
        "RUN", "WORKFLOW", "STATUS", "STARTED", "TOOK", "COST", "BUDGET"
    )
    .map_err(write)?;
    for run in runs {
        let labels: Vec<String> = run.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let took = run
            .duration_ms
            .and_then(|ms| u64::try_from(ms).ok())
            .map(|ms| elapsed(Duration::from_millis(ms)))
            .unwrap_or_else(|| "-".into());
        let started: String = run
            .started_at
            .chars()
            .take(19)
            .collect::<String>()
            .replace('T', " ");
        let status = if run.dry_run {
            format!("{} (dry)", run.status.as_str())
        } else {
            run.status.as_str().to_string()
        };
        writeln!(
            out,
            "{:<26}  {:<20}  {:<11}  {:<20}  {:>8}  {:>9}  {:>9}  {}",
            run.id,
            run.workflow_name,
            status,
            started,
            took,
            dollars(run.cost_usd),
            listed_budget(run.max_cost_usd, run.max_tokens),
            labels.join(",")
        )
        .map_err(write)?;
    }
    Ok(())
}

/// A run's cost for people: `$0.45`, with four decimals under a cent (`$0.0042`), `-` when
/// no stage had a known price (dry runs included: nothing was spent or priced).
fn dollars(cost: Option<f64>) -> String {
    match cost {
        None => "-".to_string(),
        Some(usd) if usd > 0.0 && usd < 0.01 => format!("${usd:.4}"),
        Some(usd) => format!("${usd:.2}"),
    }
}

/// A run's limits as `ps` lists them: `$0.50`, `20000 tok`, both, or `-`.
fn listed_budget(max_cost_usd: Option<f64>, max_tokens: Option<i64>) -> String {
    let cost = max_cost_usd.map(|usd| dollars(Some(usd)));
    let tokens = max_tokens.map(|n| format!("{n} tok"));
    let parts: Vec<String> = cost.into_iter().chain(tokens).collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(", ")
    }
}

/// A run's limits as `inspect` shows them: `$0.5, 20000 tokens`, or `none`.
fn limits(budget: Budget) -> String {
    let cost = budget.max_cost_usd.map(|usd| format!("${usd}"));
    let tokens = budget.max_tokens.map(|n| format!("{n} tokens"));
    let parts: Vec<String> = cost.into_iter().chain(tokens).collect();
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

/// `heddle events`: a run's events as heddle-api's feed hands them out (the same the UI
/// streams), following the run until it ends with `follow`.
pub async fn events(
    library: &RunLibrary,
    run: &str,
    follow: bool,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let feed = library.events(run, 0).await.map_err(|e| e.message)?;
    let mut feed = if follow { feed } else { feed.until_now() };
    // Written a batch at a time (stdout is line-buffered: one write per event otherwise),
    // and flushed after each, so `--follow` shows an event as soon as it is read.
    let mut out = BufWriter::new(out);
    while let Some(batch) = feed.next_batch().await {
        for event in batch.map_err(|e| e.message)? {
            print_event(&event, json, &mut out);
        }
        let _ = out.flush();
    }
    if feed.skipped_lines() > 0 {
        let _ = writeln!(
            out,
            "({} line(s) of progress.jsonl were not events this version reads, and were skipped)",
            feed.skipped_lines()
        );
    }
    let _ = out.flush();
    Ok(())
}

fn print_event(event: &serde_json::Value, json: bool, out: &mut dyn Write) {
    if json {
        let _ = writeln!(out, "{event}");
        return;
    }
    match serde_json::from_value::<Envelope>(event.clone()) {
        Ok(envelope) => {
            let time: String = envelope.ts.chars().skip(11).take(12).collect();
            let node = envelope.node_id.as_deref().unwrap_or("-");
            let properties = event
                .get("properties")
                .map(|p| p.to_string())
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{:>5} {time} {:<26} {:<14} {properties}",
                envelope.seq,
                envelope.event.name(),
                node
            );
        }
        Err(_) => {
            let _ = writeln!(out, "{event}");
        }
    }
}

/// `heddle inspect`: the run as the index records it, and its stages in order.
pub async fn inspect(
    library: &RunLibrary,
    run: &str,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let run = RunRef {
        run_id: library.refresh(run).await.map_err(|e| e.message)?,
    };
    let record = library.run(run.clone()).await.map_err(|e| e.message)?;
    let budget = library.recorded_budget(&run).await.map_err(|e| e.message)?;
    let timeline = library.timeline(run).await.map_err(|e| e.message)?;
    let write = |e: std::io::Error| format!("cannot write: {e}");
    if json {
        let budget = serde_json::json!({
            "max_cost_usd": budget.max_cost_usd,
            "max_tokens": budget.max_tokens,
        });
        let value = serde_json::json!({ "run": record, "budget": budget, "timeline": timeline });
        let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
        return writeln!(out, "{text}").map_err(write);
    }
    let mut lines = vec![
        format!("run       {}", record.id),
        format!(
            "workflow  {} ({})",
            record.workflow_name, record.workflow_path
        ),
    ];
    if let Some(goal) = &record.goal {
        lines.push(format!("goal      {goal}"));
    }
    let dry = if record.dry_run { " (dry run)" } else { "" };
    lines.push(format!("status    {}{dry}", record.status.as_str()));
    lines.push(format!("started   {}", record.started_at));
    if let Some(ms) = record.duration_ms.and_then(|ms| u64::try_from(ms).ok()) {
        lines.push(format!("took      {}", elapsed(Duration::from_millis(ms))));
    }
    if let Some(reason) = &record.failure_reason {
        lines.push(format!("reason    {reason}"));
    }
    lines.push(format!(
        "cost      {} ({} input + {} output tokens)",
        dollars(record.cost_usd),
        record.input_tokens,
        record.output_tokens
    ));
    lines.push(format!("budget    {}", limits(budget)));
    if !record.labels.is_empty() {
        let labels: Vec<String> = record
            .labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        lines.push(format!("labels    {}", labels.join(", ")));
    }
    if !record.inputs.is_empty() {
        let inputs: Vec<String> = record
            .inputs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        lines.push(format!("inputs    {}", inputs.join(", ")));
    }
    lines.push(format!("work dir  {}", record.work_dir));
    lines.push(format!("folder    {}", record.folder));
    lines.push(format!("\nstages ({}):", timeline.stages.len()));
    for stage in &timeline.stages {
        let visit = if stage.visit > 1 {
            format!(" (visit {})", stage.visit)
        } else {
            String::new()
        };
        let took = stage
            .duration_ms
            .and_then(|ms| u64::try_from(ms).ok())
            .map_or_else(|| "-".to_string(), |ms| elapsed(Duration::from_millis(ms)));
        let detail = stage
            .failure_reason
            .clone()
            .or_else(|| stage.notes.clone())
            .unwrap_or_default();
        lines.push(format!(
            "  {:<24} {:<16} {:>8}  {}",
            format!("{}{visit}", stage.node_id),
            stage.status.as_str(),
            took,
            detail
        ));
    }
    // One write per buffer, not per line (a long run has a line per stage).
    let mut out = BufWriter::new(out);
    for line in lines {
        writeln!(out, "{line}").map_err(write)?;
    }
    out.flush().map_err(write)
}
