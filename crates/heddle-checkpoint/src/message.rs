//! Commit messages: the run-branch subject and `Heddle-*` trailers (worktree mode), the
//! `{type}:{node} [run:{id}] {label}` format (shadow mode), and reading them back.

use git2::Commit;

/// The kind of moment a checkpoint records (shadow mode's message types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckpointType {
    /// The workspace as the run found it.
    Setup,
    /// A stage ended with any status but `fail` or `skipped`.
    Completed,
    /// A stage ended with status `fail`.
    Error,
    /// A stage ended with status `skipped`.
    Skipped,
    /// The run reached its exit.
    Exit,
}

impl CheckpointType {
    /// The word in the message.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckpointType::Setup => "setup",
            CheckpointType::Completed => "completed",
            CheckpointType::Error => "error",
            CheckpointType::Skipped => "skipped",
            CheckpointType::Exit => "exit",
        }
    }

    /// The type of a stage that ended with `status` (`exit` for the exit node).
    pub fn of(status: &str, is_exit: bool) -> Self {
        match status {
            _ if is_exit => CheckpointType::Exit,
            "fail" => CheckpointType::Error,
            "skipped" => CheckpointType::Skipped,
            _ => CheckpointType::Completed,
        }
    }
}

/// What a checkpoint commit says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitFacts {
    /// The run's id (`Heddle-Run` trailer).
    pub run_id: String,
    /// Id of the node whose stage the checkpoint follows.
    pub node_id: String,
    /// That stage's status (`success`, `fail`, ...).
    pub status: String,
    /// Nodes completed when it was taken (`Heddle-Completed` trailer).
    pub completed: usize,
    /// Sha of the run-state commit on the metadata ref (`Heddle-Checkpoint`); empty for none.
    pub metadata_sha: String,
}

/// Everything a message is made from.
#[derive(Debug, Clone)]
pub struct MessageParts<'a> {
    /// The facts the trailers carry.
    pub facts: &'a CommitFacts,
    /// Its type (shadow mode).
    pub kind: CheckpointType,
    /// The node's label (shadow mode).
    pub label: &'a str,
    /// When the stage ended, RFC 3339.
    pub timestamp: &'a str,
    /// How long the stage took.
    pub duration_ms: u64,
}

/// The `Heddle-*` trailers; a commit with no metadata commit (a run's setup commit, its
/// base rather than a checkpoint) has no `Heddle-Checkpoint`.
fn trailers(facts: &CommitFacts) -> String {
    let mut text = format!(
        "Heddle-Run: {}\nHeddle-Completed: {}\n",
        facts.run_id, facts.completed
    );
    if !facts.metadata_sha.is_empty() {
        text.push_str(&format!("Heddle-Checkpoint: {}\n", facts.metadata_sha));
    }
    text
}

/// The run-branch message in a user's repository.
pub fn worktree_message(facts: &CommitFacts) -> String {
    format!(
        "heddle({}): {} ({})\n\n{}",
        facts.run_id,
        facts.node_id,
        facts.status,
        trailers(facts)
    )
}

/// The message in a shadow repository.
pub fn shadow_message(parts: &MessageParts<'_>) -> String {
    let facts = parts.facts;
    format!(
        "{}:{} [run:{}] {}\n\nNode: {}\nStatus: {}\nTimestamp: {}\nDuration: {}ms\n\n{}",
        parts.kind.as_str(),
        facts.node_id,
        facts.run_id,
        parts.label,
        parts.label,
        facts.status,
        parts.timestamp,
        parts.duration_ms,
        trailers(facts)
    )
}

/// The value of trailer `key` in `message` (the last paragraph's `Key: value` lines).
pub fn trailer<'a>(message: &'a str, key: &str) -> Option<&'a str> {
    let last = message.trim_end().rsplit("\n\n").next()?;
    last.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// Reads the facts back from a checkpoint commit; `None` for a commit Heddle did not write
/// (the base commit, a user's commit).
pub fn facts(commit: &Commit<'_>) -> Option<CommitFacts> {
    let message = commit.message().ok()?;
    let run_id = trailer(message, "Heddle-Run")?.to_string();
    let metadata_sha = trailer(message, "Heddle-Checkpoint")?.to_string();
    let completed = trailer(message, "Heddle-Completed")?.parse().ok()?;
    let subject = message.lines().next().unwrap_or_default();
    let (node_id, mut status) = parse_subject(subject)?;
    if let Some(line) = message.lines().find_map(|l| l.strip_prefix("Status: ")) {
        // Shadow messages carry the stage status on their own line.
        status = line.trim().to_string();
    }
    Some(CommitFacts {
        run_id,
        node_id,
        status,
        completed,
        metadata_sha,
    })
}

/// Node and status from either subject format.
fn parse_subject(subject: &str) -> Option<(String, String)> {
    if let Some(rest) = subject.strip_prefix("heddle(") {
        // heddle({run}): {node} ({status})
        let (_, rest) = rest.split_once("): ")?;
        let (node, status) = rest.rsplit_once(" (")?;
        return Some((node.to_string(), status.strip_suffix(')')?.to_string()));
    }
    // {type}:{node} [run:{id}] {label}; the status is on its own line.
    let (kind, rest) = subject.split_once(':')?;
    let (node, _) = rest.split_once(" [run:")?;
    Some((node.to_string(), kind.to_string()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn sample() -> CommitFacts {
        CommitFacts {
            run_id: "01J".into(),
            node_id: "test".into(),
            status: "fail".into(),
            completed: 3,
            metadata_sha: "abc".into(),
        }
    }

    #[test]
    fn worktree_subject_and_trailers_read_back() {
        let message = worktree_message(&sample());
        assert!(message.starts_with("heddle(01J): test (fail)\n\n"));
        assert_eq!(trailer(&message, "Heddle-Completed"), Some("3"));
        assert_eq!(
            parse_subject(message.lines().next().unwrap()),
            Some(("test".into(), "fail".into()))
        );
    }

    #[test]
    fn shadow_message_has_the_type_line_format_and_trailers() {
        let facts = sample();
        let message = shadow_message(&MessageParts {
            facts: &facts,
            kind: CheckpointType::Error,
            label: "Run tests",
            timestamp: "2026-01-02T03:04:05Z",
            duration_ms: 1500,
        });
        assert!(
            message
                .starts_with("error:test [run:01J] Run tests\n\nNode: Run tests\nStatus: fail\n")
        );
        assert!(message.contains("Duration: 1500ms"));
        assert_eq!(trailer(&message, "Heddle-Checkpoint"), Some("abc"));
        assert_eq!(
            parse_subject(message.lines().next().unwrap()),
            Some(("test".into(), "error".into()))
        );
    }
}
