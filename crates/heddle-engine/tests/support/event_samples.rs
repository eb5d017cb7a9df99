//! One sample of every run event, shared by the tests that must cover each of them.
#![allow(dead_code)]

use heddle_engine::event::{EdgeReason, Stream};
use heddle_engine::outcome::Usage;
use heddle_engine::{Event, StageStatus};
use serde_json::json;

/// One of every event, in declaration order (`EVENT_NAMES`): heddle-engine's event tests
/// check the list is complete, and heddle-store's include this file to index every one.
pub fn samples() -> Vec<Event> {
    vec![
        Event::RunStarted {
            workflow: "W".into(),
            goal: None,
            work_dir: "/w".into(),
            run_dir: "/r".into(),
            dry_run: false,
            resumed: false,
            max_cost_usd: None,
            max_tokens: None,
        },
        Event::RunCompleted {
            duration_ms: 1,
            stages: 2,
        },
        Event::RunFailed {
            reason: "r".into(),
            duration_ms: 1,
        },
        Event::RunCancelled {
            reason: "r".into(),
            duration_ms: 1,
        },
        Event::RunBudgetExceeded {
            cost_usd: 0.5,
            tokens: 1200,
            max_cost_usd: Some(0.25),
            max_tokens: None,
            next_node: "review".into(),
        },
        Event::RunRolledBack {
            to: "abc".into(),
            timeline: "heddle/run/R-t2".into(),
            next_node_id: Some("b".into()),
            completed_nodes: vec!["start".into(), "a".into()],
        },
        Event::RunRecovered {
            checkpoint: "abc".into(),
            recovery_ref: "refs/heddle/recovery/R/1".into(),
            recovery_sha: "def".into(),
            written: vec!["log.txt".into()],
            deleted: vec!["partial.txt".into()],
            moved_aside: vec!["cache".into()],
            moved_aside_to: Some("/runs/R/recovery/1".into()),
        },
        Event::StageStarted {
            kind: "command".into(),
            visit: 1,
            attempt: 1,
            branch: None,
            stage_dir: Some("nodes/test".into()),
        },
        Event::StageCompleted {
            status: StageStatus::Success,
            duration_ms: 1,
            visit: 1,
            attempts: 1,
            notes: String::new(),
            branch: None,
            stage_dir: Some("nodes/test-rerun_2".into()),
            usage: None,
            cost_usd: None,
        },
        Event::StageFailed {
            reason: "r".into(),
            failure_class: None,
            duration_ms: 1,
            visit: 1,
            attempts: 1,
            branch: None,
            stage_dir: None,
            usage: None,
            cost_usd: None,
        },
        Event::StageRetrying {
            attempt: 1,
            max_attempts: 2,
            delay_ms: 200,
            reason: "r".into(),
        },
        Event::EdgeSelected {
            from: "a".into(),
            to: "b".into(),
            label: None,
            condition: None,
            reason: EdgeReason::Weight,
        },
        Event::RunEndedWithoutEdge {
            status: StageStatus::Success,
            message: "m".into(),
        },
        Event::GoalGateChecked {
            satisfied: true,
            status: StageStatus::Success,
            target: None,
        },
        Event::CheckpointSaved {
            next_node_id: None,
            git_commit_sha: None,
        },
        Event::ParallelBranchStarted { branch: "x".into() },
        Event::ParallelBranchCompleted {
            branch: "x".into(),
            status: StageStatus::Success,
            last_node: None,
        },
        Event::InterviewStarted {
            question: "q".into(),
            choices: vec![],
            question_id: "id".into(),
        },
        Event::InterviewAnswered {
            selected: "A".into(),
            label: None,
            text: None,
        },
        Event::InterviewTimedOut {
            default_choice: None,
        },
        Event::CommandOutput {
            stream: Stream::Stdout,
            text: "t".into(),
        },
        Event::AgentText {
            text: "t".into(),
            simulated: true,
        },
        Event::AgentToolCallStarted {
            call_id: "c".into(),
            tool: "shell".into(),
            arguments: json!({}),
        },
        Event::AgentToolCallCompleted {
            call_id: "c".into(),
            tool: "shell".into(),
            result: "ok".into(),
            is_error: false,
        },
        Event::AgentUsage {
            model: "m".into(),
            usage: Usage::default(),
        },
        Event::AgentNote {
            kind: "retry".into(),
            details: json!({}),
        },
        Event::ArtifactCaptured {
            path: "artifacts/test/retry_0/junit.xml".into(),
            kind: "junit".into(),
            media_type: "application/xml".into(),
            size: 10,
        },
        Event::LoopRestarted {
            target: "a".into(),
            restarts: 1,
        },
        Event::ManagerCycle {
            cycle: 1,
            child_run_id: "c".into(),
            child_status: "running".into(),
        },
        Event::Warning {
            message: "m".into(),
        },
    ]
}
