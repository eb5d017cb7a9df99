#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `backend="cli"` without `cli.command`: the `claude`, `codex` or `gemini` CLI is chosen by
//! the model's family and run with the prompt on stdin. Fake CLIs (small scripts in a
//! folder the test puts on the `PATH` it passes in) record how they were called and print
//! what the real ones print.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Mutex;

use heddle_engine::Usage;
use heddle_engine::llm::{LlmBackend, LlmEvent, LlmEventSink, LlmRequest};
use heddle_llm::ProviderBackend;
use heddle_llm::external::open_external;
use heddle_workflow::{HandlerKind, MemoryFiles, Workflow, load_source};
use tokio_util::sync::CancellationToken;

#[derive(Default)]
struct Events(Mutex<Vec<LlmEvent>>);

impl LlmEventSink for Events {
    fn emit(&self, event: LlmEvent) {
        self.0.lock().unwrap().push(event);
    }
}

const CLAUDE: &str = r#"#!/bin/sh
{ echo "CLAUDECODE=${CLAUDECODE-unset}"; printf '%s\n' "$@"; } > claude.args
cat > claude.stdin
echo '{"type":"system","subtype":"init","model":"x"}'
echo '{"type":"assistant","message":{"content":[{"type":"text","text":"Working on it"}]}}'
echo '{"type":"result","subtype":"success","result":"claude fixed it","usage":{"input_tokens":11,"output_tokens":3,"cache_read_input_tokens":40}}'
"#;

const CODEX: &str = r#"#!/bin/sh
printf '%s\n' "$@" > codex.args
cat > codex.stdin
echo '{"type":"thread.started","thread_id":"t1"}'
echo '{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"codex fixed it"}}'
echo '{"type":"turn.completed","usage":{"input_tokens":21,"cached_input_tokens":0,"output_tokens":4}}'
"#;

const GEMINI: &str = r#"#!/bin/sh
printf '%s\n' "$@" > gemini.args
cat > gemini.stdin
echo '{"response": "gemini fixed it", "stats": {"models": {"m": {"tokens": {"prompt": 31, "candidates": 5, "cached": 0}}}}}'
"#;

/// A folder with the fake CLIs named in `programs`.
fn fake_clis(dir: &Path, programs: &[&str]) {
    for program in programs {
        let script = match *program {
            "claude" => CLAUDE,
            "codex" => CODEX,
            _ => GEMINI,
        };
        let path = dir.join(program);
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// The environment the agent gets: only `PATH` (the fake CLIs first) and `CLAUDECODE`,
/// which the claude command line must clear.
fn env(bin: &Path) -> Vec<(String, String)> {
    vec![
        ("PATH".into(), format!("{}:/usr/bin:/bin", bin.display())),
        ("CLAUDECODE".into(), "1".into()),
    ]
}

fn request(model: Option<&str>, provider: Option<&str>, work_dir: &Path) -> LlmRequest {
    LlmRequest {
        run_id: "run-1".into(),
        node_id: "coder".into(),
        kind: HandlerKind::Agent,
        model: model.map(str::to_owned),
        provider: provider.map(str::to_owned),
        reasoning_effort: None,
        backend: Some("cli".into()),
        command: None,
        max_turns: None,
        work_dir: work_dir.to_path_buf(),
        timeout: None,
        output_schema: None,
        thread_id: None,
    }
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_default()
}

#[tokio::test]
async fn the_models_family_picks_the_cli_and_its_json_is_read() {
    let bin = tempfile::tempdir().unwrap();
    fake_clis(bin.path(), &["claude", "codex", "gemini"]);
    let cases = [
        // (model, provider, program, its arguments, reply, usage)
        (
            Some("opus"),
            None,
            "claude",
            "CLAUDECODE=\n-p\n--verbose\n--output-format\nstream-json\n\
             --dangerously-skip-permissions\n--model\nclaude-opus-4-8\n",
            "claude fixed it",
            (11, 3, 40),
        ),
        (
            Some("gpt-5.4"),
            None,
            "codex",
            "exec\n--json\n--full-auto\n-m\ngpt-5.4\n",
            "codex fixed it",
            (21, 4, 0),
        ),
        (
            Some("gemini-flash"),
            None,
            "gemini",
            "-o\njson\n--yolo\n-m\ngemini-3-flash-preview\n",
            "gemini fixed it",
            (31, 5, 0),
        ),
        (
            None,
            Some("gemini"),
            "gemini",
            "-o\njson\n--yolo\n",
            "gemini fixed it",
            (31, 5, 0),
        ),
    ];
    for (model, provider, program, args, answer, (input, output, cached)) in cases {
        let work = tempfile::tempdir().unwrap();
        let mut conversation = open_external(
            &request(model, provider, work.path()),
            &env(bin.path()),
            &work_tree(),
        )
        .await
        .unwrap();
        let events = Events::default();
        let reply = conversation
            .send("Fix the bug.", &events, &CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(reply.text, answer, "{program}");
        assert_eq!(
            reply.usage,
            Usage {
                input_tokens: input,
                output_tokens: output,
                cache_read_tokens: cached,
                cache_write_tokens: 0,
            },
            "{program}"
        );
        assert_eq!(read(work.path(), &format!("{program}.args")), args);
        assert_eq!(
            read(work.path(), &format!("{program}.stdin")),
            "Fix the bug."
        );
        // Only the chosen CLI ran, and the JSON was not streamed as text.
        let ran: Vec<&str> = ["claude", "codex", "gemini"]
            .into_iter()
            .filter(|p| work.path().join(format!("{p}.args")).exists())
            .collect();
        assert_eq!(ran, vec![program]);
        let deltas: Vec<LlmEvent> = events.0.lock().unwrap().clone();
        assert_eq!(deltas, vec![LlmEvent::TextDelta(answer.to_owned())]);
    }
}

#[tokio::test]
async fn output_that_is_not_the_clis_json_is_a_clear_error() {
    let bin = tempfile::tempdir().unwrap();
    let path = bin.path().join("codex");
    std::fs::write(
        &path,
        "#!/bin/sh\ncat > /dev/null\necho 'Usage: codex [OPTIONS]'\n",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let work = tempfile::tempdir().unwrap();
    let mut conversation = open_external(
        &request(Some("gpt-5.4"), None, work.path()),
        &env(bin.path()),
        &work_tree(),
    )
    .await
    .unwrap();
    let error = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(
        error.message.contains("codex exec --json"),
        "{}",
        error.message
    );
    assert!(error.message.contains("Usage: codex"), "{}", error.message);
}

fn workflow(source: &str) -> Workflow {
    let loaded = load_source(
        source,
        Path::new("/flows/test.dot"),
        &MemoryFiles::default(),
    );
    loaded.workflow.expect("the test workflow loads")
}

#[tokio::test]
async fn the_backend_checks_the_chosen_cli_is_installed_and_falls_back_to_the_default_provider() {
    let bin = tempfile::tempdir().unwrap();
    fake_clis(bin.path(), &["claude", "gemini"]);
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("heddle.toml"),
        "[defaults]\nprovider = \"gemini\"\n",
    )
    .unwrap();
    let backend = ProviderBackend::load(home.path(), env(bin.path()), work_tree());

    let flow = workflow(
        r#"digraph C { start [shape=Mdiamond]; exit [shape=Msquare];
           a [shape=box, backend="cli", model="sonnet", prompt="x"];
           b [shape=box, backend="cli", model="gpt-5.4", prompt="y"];
           c [shape=box, backend="cli", model="local-coder", prompt="z"];
           start -> a -> b -> c -> exit; }"#,
    );
    let error = backend.preflight(&flow).unwrap_err();
    assert!(error.message.contains("node `b`"), "{}", error.message);
    assert!(error.message.contains("`codex`"), "{}", error.message);
    assert!(error.message.contains("not on PATH"), "{}", error.message);
    assert!(!error.message.contains("node `a`"), "{}", error.message);
    assert!(!error.message.contains("node `c`"), "{}", error.message);

    // A model of no known family runs the CLI of heddle.toml's default provider.
    let work = tempfile::tempdir().unwrap();
    let mut conversation = backend
        .open(&request(Some("local-coder"), None, work.path()))
        .await
        .unwrap();
    let reply = conversation
        .send("Go.", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.text, "gemini fixed it");
    assert_eq!(
        read(work.path(), "gemini.args"),
        "-o\njson\n--yolo\n-m\nlocal-coder\n"
    );
}

/// Which files a turn touched, told by git status as heddle-api wires it.
fn work_tree() -> std::sync::Arc<dyn heddle_engine::work_tree::WorkTreeWatch> {
    std::sync::Arc::new(heddle_checkpoint::GitStatusWatch)
}
