//! The test fixture of command stages: a script in a fresh work dir with a stage folder and
//! an emitter, plus ways to read what it left (context, events, files, processes).

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use heddle_engine::event::Stream;
use heddle_engine::handlers::command::{CommandSpec, Language, OutputLimits, run_command};
use heddle_engine::{Emitter, Envelope, Event, Outcome, SeededEntropy, SystemClock};
use serde_json::Value as Json;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

pub type TestResult = Result<(), Box<dyn Error>>;

pub struct Fixture {
    _tmp: tempfile::TempDir,
    pub spec: CommandSpec,
    pub emitter: Emitter,
}

impl Fixture {
    pub fn new(script: &str, language: Language) -> Result<Fixture, Box<dyn Error>> {
        let tmp = tempfile::tempdir()?;
        let work_dir = tmp.path().join("work");
        std::fs::create_dir_all(&work_dir)?;
        let env = std::env::vars()
            .filter(|(k, _)| k != "HEDDLE_RUN_ID")
            .chain([("HEDDLE_RUN_ID".to_string(), "run1".to_string())])
            .collect();
        let spec = CommandSpec {
            node_id: "n".into(),
            script: script.into(),
            language,
            timeout: None,
            work_dir,
            stage_dir: tmp.path().join("run/nodes/n"),
            env,
            output_limits: OutputLimits::DEFAULT,
        };
        let emitter = Emitter::open(
            "run1",
            None,
            Arc::new(SystemClock::new()),
            Arc::new(SeededEntropy::new(1)),
        )?;
        Ok(Fixture {
            _tmp: tmp,
            spec,
            emitter,
        })
    }

    pub fn work(&self, name: &str) -> PathBuf {
        self.spec.work_dir.join(name)
    }

    pub fn stage(&self, name: &str) -> PathBuf {
        self.spec.stage_dir.join(name)
    }

    pub async fn run_with(&self, cancel: &CancellationToken) -> Outcome {
        let events = self.emitter.for_node("n");
        run_command(&self.spec, &events, cancel, &SystemClock::new()).await
    }

    pub async fn run(&self) -> Outcome {
        self.run_with(&CancellationToken::new()).await
    }
}

pub fn context_text(outcome: &Outcome, key: &str) -> String {
    outcome
        .context_updates
        .get(key)
        .and_then(Json::as_str)
        .unwrap_or("<missing>")
        .to_string()
}

/// Every command.output event received so far, joined per stream.
pub fn streamed(rx: &mut broadcast::Receiver<Envelope>) -> (String, String) {
    let (mut out, mut err) = (String::new(), String::new());
    while let Ok(envelope) = rx.try_recv() {
        if let Event::CommandOutput { stream, text } = envelope.event {
            match stream {
                Stream::Stdout => out.push_str(&text),
                Stream::Stderr => err.push_str(&text),
            }
        }
    }
    (out, err)
}

pub fn read_json(path: &Path) -> Result<Json, Box<dyn Error>> {
    Ok(serde_json::from_str(&std::fs::read_to_string(path)?)?)
}

/// Alive and not a zombie (an unreaped dead process still answers kill(pid, 0)).
pub fn running(pid: i32) -> bool {
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rfind(')')
                .map(|i| s[i + 1..].trim_start().starts_with('Z'))
        })
        .unwrap_or(false);
    std::path::Path::new(&format!("/proc/{pid}")).exists() && !zombie
}

pub async fn gone_within(pid: i32, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if !running(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    !running(pid)
}

pub fn read_pid(path: &Path) -> Result<i32, Box<dyn Error>> {
    Ok(std::fs::read_to_string(path)?.trim().parse()?)
}
