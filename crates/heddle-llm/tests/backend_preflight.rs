#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! What `ProviderBackend` checks before a run: each LLM node's provider (from the node, the
//! model stylesheet or the model family) must be configured, external agents need their
//! command, and a broken heddle.toml is reported with its position.

use std::path::Path;

use heddle_engine::llm::{LlmBackend, LlmErrorKind};
use heddle_llm::ProviderBackend;
use heddle_workflow::{MemoryFiles, Workflow, load_source};

fn workflow(source: &str) -> Workflow {
    let loaded = load_source(
        source,
        Path::new("/flows/test.dot"),
        &MemoryFiles::default(),
    );
    loaded.workflow.expect("the test workflow loads")
}

fn backend(home: &Path, env: &[(&str, &str)]) -> ProviderBackend {
    let env = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    ProviderBackend::load(
        home,
        env,
        std::sync::Arc::new(heddle_checkpoint::GitStatusWatch),
    )
}

const STYLED: &str = r#"digraph S {
    graph [model_stylesheet="* { model: gpt-5; } #review { provider: openai_compatible; model: local-coder; }"]
    start [shape=Mdiamond]; exit [shape=Msquare];
    plan   [shape=tab, prompt="Plan"];
    review [shape=tab, prompt="Review"];
    start -> plan -> review -> exit;
}
"#;

#[test]
fn the_stylesheet_decides_which_provider_each_node_needs() {
    let home = tempfile::tempdir().unwrap();
    let flow = workflow(STYLED);
    let only_openai = backend(home.path(), &[("OPENAI_API_KEY", "k")]);
    let error = only_openai.preflight(&flow).unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Config);
    assert!(error.message.contains("node `review`"), "{}", error.message);
    assert!(
        error.message.contains("OPENAI_COMPATIBLE_BASE_URL"),
        "{}",
        error.message
    );
    assert!(
        !error.message.contains("node `plan`"),
        "plan is served: {}",
        error.message
    );
    assert!(error.message.contains("--dry-run"), "{}", error.message);

    let both = backend(
        home.path(),
        &[
            ("OPENAI_API_KEY", "k"),
            ("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:9/v1"),
        ],
    );
    both.preflight(&flow).unwrap();
}

#[test]
fn nothing_configured_lists_the_nodes_and_the_variables() {
    let home = tempfile::tempdir().unwrap();
    let flow = workflow(
        r#"digraph N { start [shape=Mdiamond]; exit [shape=Msquare];
           a [shape=box, prompt="x"]; b [shape=tab, prompt="y"]; start -> a -> b -> exit; }"#,
    );
    let error = backend(home.path(), &[]).preflight(&flow).unwrap_err();
    assert!(
        error.message.contains("these nodes need one: a, b"),
        "{}",
        error.message
    );
    for variable in [
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "OPENAI_COMPATIBLE_BASE_URL",
    ] {
        assert!(error.message.contains(variable), "{}", error.message);
    }
}

#[test]
fn external_agents_need_their_command_but_no_provider() {
    let home = tempfile::tempdir().unwrap();
    let flow = workflow(
        r#"digraph E { start [shape=Mdiamond]; exit [shape=Msquare];
           a [shape=box, backend="acp", prompt="x"];
           b [shape=box, backend="cli", prompt="y", cli.command="cat"];
           c [shape=box, backend="carrier-pigeon", prompt="z"];
           start -> a -> b -> c -> exit; }"#,
    );
    let error = backend(home.path(), &[]).preflight(&flow).unwrap_err();
    assert!(error.message.contains("`acp.command`"), "{}", error.message);
    assert!(!error.message.contains("node `b`"), "{}", error.message);
    assert!(
        error.message.contains("carrier-pigeon"),
        "{}",
        error.message
    );
    assert!(
        !error.message.contains("these nodes need one"),
        "{}",
        error.message
    );
}

#[test]
fn a_broken_heddle_toml_is_reported_with_its_position() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("heddle.toml"), "[defaults\nprovider = 1\n").unwrap();
    let flow = workflow(
        r#"digraph N { start [shape=Mdiamond]; exit [shape=Msquare];
           a [shape=box, prompt="x"]; start -> a -> exit; }"#,
    );
    let error = backend(home.path(), &[("OPENAI_API_KEY", "k")])
        .preflight(&flow)
        .unwrap_err();
    assert!(
        error.message.contains("heddle.toml:1:"),
        "{}",
        error.message
    );
    // Workflows without LLM nodes do not care.
    let plain =
        workflow(r#"digraph P { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit; }"#);
    backend(home.path(), &[]).preflight(&plain).unwrap();
}
