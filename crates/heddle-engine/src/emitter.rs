//! Emitting events: numbering them, appending them to `progress.jsonl`, keeping `live.json`
//! current and broadcasting them to subscribers (the terminal view, the API).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::broadcast;

use crate::clock::{Clock, rfc3339};
use crate::entropy::{Entropy, new_ulid};
use crate::event::{Envelope, Event};
use crate::llm::{LlmEvent, LlmEventSink};
use crate::progress_tail::last_seq;
use crate::rundir::{RunDir, write_json};

/// How many events a slow subscriber may fall behind before it misses some.
const BROADCAST_CAPACITY: usize = 4096;

/// live.json is rewritten at most this often (plus at once for run-level events); on ext4
/// every replace-by-rename forces a flush, which dominated the engine's overhead per node.
pub const LIVE_INTERVAL: Duration = Duration::from_millis(200);

/// The event stream of one run. Cheap to clone.
#[derive(Clone)]
pub struct Emitter {
    inner: Arc<Inner>,
}

struct Inner {
    run_id: String,
    clock: Arc<dyn Clock>,
    entropy: Arc<dyn Entropy>,
    live_path: Option<PathBuf>,
    sender: broadcast::Sender<Envelope>,
    state: Mutex<State>,
}

struct State {
    seq: u64,
    progress: Option<File>,
    last_activity: Duration,
    current_node: Option<String>,
    write_error: Option<String>,
    /// When live.json was last written, and the newest event not yet in it.
    live_written: Option<Duration>,
    live_pending: Option<Envelope>,
    /// Stages running that may rightly be quiet for long (human gates, waits, manager loops).
    waiting: Vec<String>,
}

/// Stage kinds that wait on purpose; the stall watchdog leaves them alone.
const WAITING_KINDS: [&str; 3] = ["human", "wait", "manager_loop"];

/// live.json: the latest state of a run, for monitors.
#[derive(Debug, Serialize)]
struct Live<'a> {
    run_id: &'a str,
    seq: u64,
    current_node: Option<&'a str>,
    updated_at: &'a str,
    last_event: &'a Envelope,
}

impl std::fmt::Debug for Emitter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Emitter")
            .field("run_id", &self.inner.run_id)
            .finish_non_exhaustive()
    }
}

impl Emitter {
    /// An emitter for `run_id` writing into `run_dir` (appending to an existing
    /// `progress.jsonl` and continuing its numbering), or only broadcasting when `None`.
    pub fn open(
        run_id: &str,
        run_dir: Option<&RunDir>,
        clock: Arc<dyn Clock>,
        entropy: Arc<dyn Entropy>,
    ) -> Result<Emitter, crate::EngineError> {
        let (progress, seq) = match run_dir {
            Some(dir) => {
                let path = dir.progress();
                let seq = last_seq(&path);
                end_with_newline(&path).map_err(|e| crate::EngineError::io(&path, &e))?;
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .map_err(|e| crate::EngineError::io(&path, &e))?;
                (Some(file), seq)
            }
            None => (None, 0),
        };
        let (sender, _) = broadcast::channel(BROADCAST_CAPACITY);
        let last_activity = clock.monotonic();
        Ok(Emitter {
            inner: Arc::new(Inner {
                run_id: run_id.to_string(),
                clock,
                entropy,
                live_path: run_dir.map(RunDir::live),
                sender,
                state: Mutex::new(State {
                    seq,
                    progress,
                    last_activity,
                    current_node: None,
                    write_error: None,
                    live_written: None,
                    live_pending: None,
                    waiting: Vec::new(),
                }),
            }),
        })
    }

    /// The run id.
    pub fn run_id(&self) -> &str {
        &self.inner.run_id
    }

    /// Emits `event` about `node_id` and returns its envelope.
    pub fn emit(&self, node_id: Option<&str>, event: Event) -> Envelope {
        let inner = &self.inner;
        let now = inner.clock.now();
        let mut state = inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        state.seq += 1;
        state.last_activity = inner.clock.monotonic();
        match &event {
            Event::StageStarted { kind, .. } => {
                state.current_node = node_id.map(str::to_string);
                if WAITING_KINDS.contains(&kind.as_str())
                    && let Some(node) = node_id
                {
                    state.waiting.push(node.to_string());
                }
            }
            Event::StageCompleted { .. }
            | Event::StageFailed { .. }
            | Event::StageRetrying { .. } => {
                if let Some(node) = node_id
                    && let Some(at) = state.waiting.iter().position(|n| n == node)
                {
                    state.waiting.remove(at);
                }
            }
            _ => {}
        }
        let envelope = Envelope {
            id: new_ulid(now, inner.entropy.as_ref()),
            ts: rfc3339(now),
            run_id: inner.run_id.clone(),
            seq: state.seq,
            node_id: node_id.map(str::to_string),
            event,
        };
        if let Some(file) = state.progress.as_mut() {
            let mut line = serde_json::to_vec(&envelope).unwrap_or_default();
            line.push(b'\n');
            if let Err(error) = file.write_all(&line)
                && state.write_error.is_none()
            {
                state.write_error = Some(error.to_string());
            }
        }
        let is_output = matches!(
            envelope.event,
            Event::CommandOutput { .. } | Event::AgentText { .. }
        );
        if !is_output {
            let urgent = matches!(
                envelope.event,
                Event::RunStarted { .. }
                    | Event::RunCompleted { .. }
                    | Event::RunFailed { .. }
                    | Event::RunCancelled { .. }
                    | Event::InterviewStarted { .. }
            );
            let due = state
                .live_written
                .is_none_or(|at| state.last_activity.saturating_sub(at) >= LIVE_INTERVAL);
            if urgent || due {
                self.write_live(&mut state, &envelope);
            } else {
                state.live_pending = Some(envelope.clone());
            }
        }
        tracing::debug!(
            seq = envelope.seq,
            node_id = envelope.node_id.as_deref(),
            event = envelope.event.name(),
            "run event"
        );
        // Sent while the lock is held, so subscribers see events in `seq` order.
        let _ = inner.sender.send(envelope.clone());
        drop(state);
        envelope
    }

    /// Writes live.json if an event is waiting for it (the run calls this periodically, so
    /// a quiet stage still shows up within [`LIVE_INTERVAL`]).
    pub fn flush_live(&self) {
        let mut state = self
            .inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(envelope) = state.live_pending.take() {
            self.write_live(&mut state, &envelope);
        }
    }

    fn write_live(&self, state: &mut State, envelope: &Envelope) {
        state.live_pending = None;
        state.live_written = Some(self.inner.clock.monotonic());
        let Some(path) = &self.inner.live_path else {
            return;
        };
        let live = Live {
            run_id: &self.inner.run_id,
            seq: envelope.seq,
            current_node: state.current_node.as_deref(),
            updated_at: &envelope.ts,
            last_event: envelope,
        };
        // live.json is a convenience for monitors: failing to refresh it must not fail
        // the run (progress.jsonl and checkpoint.json are what count).
        let _ = write_json(path, &live, false);
    }

    /// Subscribes to events emitted from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Envelope> {
        self.inner.sender.subscribe()
    }

    /// Monotonic time of the last event (for the stall watchdog).
    pub fn last_activity(&self) -> Duration {
        self.inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .last_activity
    }

    /// Whether a human gate, wait or manager loop is running (quiet on purpose).
    pub fn is_waiting(&self) -> bool {
        !self
            .inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .waiting
            .is_empty()
    }

    /// The first error writing progress.jsonl or live.json, if any (a full disk).
    pub fn write_error(&self) -> Option<String> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .write_error
            .clone()
    }

    /// A handle that emits events about `node_id`.
    pub fn for_node(&self, node_id: &str) -> NodeEvents {
        NodeEvents {
            emitter: self.clone(),
            node_id: node_id.to_string(),
            simulated: false,
        }
    }
}

/// Completes a last line cut short by a crash, so the events appended after it stay
/// readable (the partial line is left for what it is).
fn end_with_newline(path: &std::path::Path) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = OpenOptions::new().read(true).append(true).open(path) else {
        return Ok(());
    };
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    if last[0] != b'\n' {
        file.write_all(b"\n")?;
    }
    Ok(())
}

/// Appends one run-level event to the progress.jsonl of a run that is not executing (a
/// rollback records itself this way): numbered after the last event, dated `at`, its id
/// drawn from `entropy`. The caller holds the run's lock.
pub fn append_run_event(
    run_dir: &RunDir,
    run_id: &str,
    at: std::time::SystemTime,
    entropy: &dyn crate::Entropy,
    event: Event,
) -> Result<Envelope, crate::EngineError> {
    let path = run_dir.progress();
    let envelope = Envelope {
        id: crate::entropy::new_ulid(at, entropy),
        ts: crate::clock::rfc3339(at),
        run_id: run_id.to_string(),
        seq: last_seq(&path) + 1,
        node_id: None,
        event,
    };
    let io = |e: std::io::Error| crate::EngineError::io(&path, &e);
    let mut line = serde_json::to_string(&envelope).map_err(|e| crate::EngineError::Io {
        path: path.clone(),
        message: e.to_string(),
    })?;
    line.push('\n');
    end_with_newline(&path).map_err(io)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io)?;
    file.write_all(line.as_bytes()).map_err(io)?;
    file.sync_data().map_err(io)?;
    Ok(envelope)
}

/// Emits events about one node.
#[derive(Clone, Debug)]
pub struct NodeEvents {
    emitter: Emitter,
    node_id: String,
    simulated: bool,
}

impl NodeEvents {
    /// Emits `event` about this node.
    pub fn emit(&self, event: Event) -> Envelope {
        self.emitter.emit(Some(&self.node_id), event)
    }

    /// The node.
    pub fn node_id(&self) -> &str {
        &self.node_id
    }

    /// The run's emitter.
    pub fn emitter(&self) -> &Emitter {
        &self.emitter
    }

    /// The same handle, marking LLM text as simulated.
    pub fn simulated(mut self, simulated: bool) -> Self {
        self.simulated = simulated;
        self
    }
}

impl LlmEventSink for NodeEvents {
    fn emit(&self, event: LlmEvent) {
        let event = match event {
            LlmEvent::TextDelta(text) => Event::AgentText {
                text,
                simulated: self.simulated,
            },
            LlmEvent::ToolCallStarted {
                call_id,
                tool,
                arguments,
            } => Event::AgentToolCallStarted {
                call_id,
                tool,
                arguments,
            },
            LlmEvent::ToolCallCompleted {
                call_id,
                tool,
                result,
                is_error,
            } => Event::AgentToolCallCompleted {
                call_id,
                tool,
                result,
                is_error,
            },
            LlmEvent::Usage { model, usage } => Event::AgentUsage { model, usage },
            LlmEvent::Note { kind, details } => Event::AgentNote { kind, details },
        };
        NodeEvents::emit(self, event);
    }
}
