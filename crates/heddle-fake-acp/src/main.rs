//! heddle-fake-acp owns a scripted Agent Client Protocol agent for tests: it speaks ACP
//! version 1 over stdio (newline-delimited JSON-RPC) like a real coding agent, but acts out
//! the scenario its first argument names instead of calling a model (see
//! [`scenario::Scenario`]). Its tests (`tests/`) drive heddle-llm's ACP client against it.
//!
//! Environment: `FAKE_ACP_PID_FILE` (the agent writes its process id there on start) and
//! `FAKE_ACP_CANCEL_MARKER` (written when a hanging turn gets `session/cancel`).

mod agent;
mod rpc;
mod scenario;

use std::process::ExitCode;

use agent::Agent;
use rpc::Channel;
use scenario::Scenario;

/// Where the agent writes its pid.
const PID_FILE: &str = "FAKE_ACP_PID_FILE";

fn main() -> ExitCode {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "echo".to_string());
    let Some(scenario) = Scenario::parse(&name) else {
        eprintln!(
            "heddle-fake-acp: unknown scenario `{name}` (one of: {})",
            Scenario::NAMES.join(", ")
        );
        return ExitCode::from(2);
    };
    if let Some(path) = std::env::var_os(PID_FILE)
        && let Err(e) = std::fs::write(&path, std::process::id().to_string())
    {
        eprintln!("heddle-fake-acp: could not write the pid file: {e}");
        return ExitCode::from(2);
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut channel = Channel::new(stdin.lock(), stdout.lock());
    let mut agent = Agent::new(scenario);
    while let Some(message) = channel.read() {
        if let Some(code) = agent.handle(&mut channel, &message) {
            return ExitCode::from(code);
        }
    }
    ExitCode::SUCCESS
}
