//! What a command writes: streamed live as it arrives, logged, its tail kept in the
//! context, and both capped so a runaway writer cannot fill the disk or the event log.

use std::time::Duration;

use heddle_engine::event::Stream;
use heddle_engine::handlers::command::{Language, OutputLimits, run_command};
use heddle_engine::{Event, StageStatus, SystemClock};
use tokio_util::sync::CancellationToken;

use crate::fixture::{Fixture, TestResult, context_text, read_json, streamed};

#[tokio::test]
async fn output_streams_while_the_process_runs() -> TestResult {
    let fx = Fixture::new("echo first; sleep 1; echo second", Language::Shell)?;
    let mut rx = fx.emitter.subscribe();
    let spec = fx.spec.clone();
    let events = fx.emitter.for_node("n");
    let task = tokio::spawn(async move {
        run_command(
            &spec,
            &events,
            &CancellationToken::new(),
            &SystemClock::new(),
        )
        .await
    });
    let first = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await??;
    assert!(
        !task.is_finished(),
        "the first chunk came only after the process ended"
    );
    assert_eq!(
        first.event,
        Event::CommandOutput {
            stream: Stream::Stdout,
            text: "first\n".into()
        }
    );
    assert_eq!(first.node_id.as_deref(), Some("n"));
    // The log already holds it (a `tail -f` sees it).
    assert_eq!(std::fs::read_to_string(fx.stage("stdout.log"))?, "first\n");
    let outcome = task.await?;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(streamed(&mut rx).0, "second\n");
    Ok(())
}

#[tokio::test]
async fn large_output_keeps_the_tail_in_the_context() -> TestResult {
    let script = "yes abcdefghi | head -c 300000; printf END; printf 'tail' >&2";
    let fx = Fixture::new(script, Language::Shell)?;
    let mut rx = fx.emitter.subscribe();
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Success, "{outcome:?}");
    let kept = context_text(&outcome, "command.output");
    let (first, rest) = kept.split_once('\n').unwrap_or_default();
    assert_eq!(
        first,
        "[197603 bytes cut; the full output is in stdout.log]"
    );
    assert_eq!(rest.len(), 100 * 1024);
    assert!(rest.ends_with("abcdefghi\nEND"));
    assert_eq!(context_text(&outcome, "command.stderr"), "tail");
    assert_eq!(std::fs::metadata(fx.stage("stdout.log"))?.len(), 300_003);
    assert_eq!(streamed(&mut rx).0.len(), 300_003);
    Ok(())
}

#[tokio::test]
async fn output_past_the_limits_is_counted_but_neither_logged_nor_streamed() -> TestResult {
    // 300 003 bytes of stdout; the log keeps 50 000, the live events 20 000.
    let script = "yes abcdefghi | head -c 300000; printf END; printf 'oops' >&2";
    let mut fx = Fixture::new(script, Language::Shell)?;
    fx.spec.output_limits = OutputLimits {
        log_bytes: 50_000,
        event_bytes: 20_000,
    };
    let mut rx = fx.emitter.subscribe();
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Success, "{outcome:?}");
    assert!(
        outcome
            .notes
            .contains("stdout.log keeps the first 50000 of 300003 bytes"),
        "{}",
        outcome.notes
    );

    let log = std::fs::read_to_string(fx.stage("stdout.log"))?;
    let (kept, note) = log.split_at(50_000);
    assert!(kept.starts_with("abcdefghi\n") && !kept.contains("END"));
    assert_eq!(
        note,
        "\n[heddle: the log stops at 50000 bytes; 250003 more bytes were read and not kept]\n"
    );
    assert_eq!(std::fs::read_to_string(fx.stage("stderr.log"))?, "oops");

    let (out, err) = streamed(&mut rx);
    let (live, notice) = out.split_at(20_000);
    assert!(live.starts_with("abcdefghi\n"));
    assert_eq!(
        notice,
        "\n[heddle: live output stops after 20000 bytes; the rest is in stdout.log]\n"
    );
    assert_eq!(err, "oops");

    // The context still ends with the real end of the output, and says where the rest is.
    let context = context_text(&outcome, "command.output");
    let (first, rest) = context.split_once('\n').unwrap_or_default();
    assert_eq!(
        first,
        "[197603 bytes cut; the first 50000 bytes are in stdout.log]"
    );
    assert!(rest.ends_with("abcdefghi\nEND"));

    let timing = read_json(&fx.stage("script_timing.json"))?;
    assert_eq!(timing["stdout_bytes"], 300_003);
    assert_eq!(timing["stderr_bytes"], 4);
    assert_eq!(timing["not_logged_bytes"], 250_003);
    Ok(())
}

#[tokio::test]
async fn the_live_limit_never_splits_a_character() -> TestResult {
    // "é" is two bytes; a limit of 5 falls inside the third.
    let mut fx = Fixture::new("printf 'ééééé'", Language::Shell)?;
    fx.spec.output_limits = OutputLimits {
        log_bytes: 1_000,
        event_bytes: 5,
    };
    let mut rx = fx.emitter.subscribe();
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Success, "{outcome:?}");
    let (out, _) = streamed(&mut rx);
    assert!(
        out.starts_with("éé\n[heddle: live output stops after 5 bytes"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(fx.stage("stdout.log"))?, "ééééé");
    assert_eq!(context_text(&outcome, "command.output"), "ééééé");
    Ok(())
}
