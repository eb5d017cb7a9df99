#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! What a workflow will do when run (the workspace trust summary).

use std::path::Path;

use heddle_workflow::{
    FileSource, MemoryFiles, OsFiles, WorkflowEffects, load_source, workflow_effects,
};

fn effects(source: &str, path: &str, files: &dyn FileSource) -> WorkflowEffects {
    let loaded = load_source(source, Path::new(path), files);
    workflow_effects(&loaded.workflow.unwrap(), Path::new(path), files)
}

#[test]
fn lists_commands_shell_agents_and_external_agents_in_document_order() {
    let source = r#"digraph {
      start -> build -> lint -> fix -> ask -> review -> note -> exit
      build [type=command, script="make all\nmake test"]
      lint [shape=parallelogram, tool_command="ruff check .", language=python]
      fix [prompt="Fix the build"]
      ask [backend=cli, cli.command="claude -p"]
      review [backend=acp, "acp.command"="gemini --acp"]
      note [shape=tab, prompt="Summarise"]
    }"#;
    let found = effects(source, "/w/flow.dot", &MemoryFiles::new());
    let commands: Vec<_> = found
        .commands
        .iter()
        .map(|c| (c.node_id.as_str(), c.language.as_str(), c.script.as_str()))
        .collect();
    assert_eq!(
        commands,
        [
            ("build", "shell", "make all\nmake test"),
            ("lint", "python", "ruff check .")
        ]
    );
    let shells: Vec<_> = found.shell_agents.iter().map(|a| &a.node_id).collect();
    assert_eq!(shells, ["fix"], "a prompt node has no shell");
    let external: Vec<_> = found
        .external_agents
        .iter()
        .map(|a| (a.node_id.as_str(), a.backend.as_str(), a.command.as_str()))
        .collect();
    assert_eq!(
        external,
        [
            ("ask", "cli", "claude -p"),
            ("review", "acp", "gemini --acp")
        ]
    );
    assert!(found.commands.iter().all(|c| c.workflow == "/w/flow.dot"));
    assert!(!found.is_empty());
}

#[test]
fn a_prompt_only_workflow_with_its_own_files_needs_nothing() {
    let files = MemoryFiles::new().with("/w/prompts/plan.md", "Plan.");
    let source = r#"digraph { start -> plan -> exit plan [shape=tab, prompt="@prompts/plan.md"] }"#;
    let found = effects(source, "/w/flow.dot", &files);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(found.read_files, ["/w/prompts/plan.md"]);
}

#[test]
fn file_references_outside_the_folder_are_listed() {
    let source = r#"digraph {
      start -> a -> b -> c -> exit
      a [shape=tab, prompt="@../../home/.aws/credentials"]
      b [shape=tab, prompt="@/etc/passwd", output_schema="@schemas/out.json"]
      c [shape=tab, prompt="@sub/../../flows/inside.md"]
    }"#;
    let found = effects(source, "/repo/flows/flow.dot", &MemoryFiles::new());
    let outside: Vec<_> = found
        .outside_files
        .iter()
        .map(|f| {
            (
                f.node_id.as_str(),
                f.attribute.as_str(),
                f.resolved.as_str(),
            )
        })
        .collect();
    assert_eq!(
        outside,
        [
            ("a", "prompt", "/home/.aws/credentials"),
            ("b", "prompt", "/etc/passwd")
        ]
    );
    assert_eq!(
        found.outside_files[0].reference,
        "../../home/.aws/credentials"
    );
    assert!(found.outside_files.iter().all(|f| !f.through_symlink));
    assert_eq!(
        found.read_files,
        [
            "/etc/passwd",
            "/home/.aws/credentials",
            "/repo/flows/inside.md",
            "/repo/flows/schemas/out.json"
        ]
    );
}

#[test]
fn a_reference_through_a_symlink_out_of_the_folder_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let secrets = root.join("secrets");
    std::fs::create_dir_all(&secrets).unwrap();
    std::fs::write(secrets.join("token"), "s3cret").unwrap();
    let flows = root.join("flows");
    std::fs::create_dir_all(&flows).unwrap();
    std::os::unix::fs::symlink(&secrets, flows.join("prompts")).unwrap();
    std::fs::write(flows.join("own.md"), "Plan.").unwrap();
    let source = r#"digraph {
      start -> a -> b -> exit
      a [shape=tab, prompt="@prompts/token"]
      b [shape=tab, prompt="@own.md"]
    }"#;
    let path = flows.join("flow.dot");
    let loaded = load_source(source, &path, &OsFiles);
    let found = workflow_effects(&loaded.workflow.unwrap(), &path, &OsFiles);
    assert_eq!(found.outside_files.len(), 1, "{found:?}");
    let link = &found.outside_files[0];
    assert_eq!(link.node_id, "a");
    assert!(link.through_symlink);
    assert_eq!(link.resolved, secrets.join("token").display().to_string());
}

#[test]
fn child_workflows_are_followed_and_cycles_stop() {
    let files = MemoryFiles::new()
        .with(
            "/w/child.dot",
            r#"digraph { start -> deploy -> again -> exit
                 deploy [type=command, script="./deploy.sh"]
                 again [shape=house, stack.child_workflow="flow.dot"] }"#,
        )
        .with("/w/flow.dot", "digraph { start -> exit }");
    let source = r#"digraph { start -> boss -> exit boss [shape=house, stack.child_workflow="@child.dot"] }"#;
    let found = effects(source, "/w/flow.dot", &files);
    let children: Vec<_> = found
        .child_workflows
        .iter()
        .map(|c| (c.node_id.as_str(), c.path.as_str(), c.problem.is_some()))
        .collect();
    assert_eq!(
        children,
        [
            ("boss", "/w/child.dot", false),
            ("again", "/w/flow.dot", true)
        ]
    );
    assert_eq!(found.commands.len(), 1);
    assert_eq!(found.commands[0].node_id, "deploy");
    assert_eq!(found.commands[0].workflow, "/w/child.dot");
    assert_eq!(found.read_files, ["/w/child.dot", "/w/flow.dot"]);
}

#[test]
fn an_unreadable_child_is_listed_with_its_problem() {
    let source = r#"digraph { start -> boss -> exit boss [shape=house, stack.child_workflow="../other/child.dot"] }"#;
    let found = effects(source, "/w/flow.dot", &MemoryFiles::new());
    assert_eq!(found.child_workflows.len(), 1);
    assert!(
        found.child_workflows[0]
            .problem
            .as_deref()
            .unwrap()
            .contains("cannot read")
    );
    assert_eq!(found.outside_files[0].attribute, "stack.child_workflow");
}

#[test]
fn a_graph_level_child_and_an_inline_child_are_followed() {
    let files = MemoryFiles::new().with(
        "/w/children/worker.dot",
        r#"digraph { start -> build -> exit build [type=command, script="make"] }"#,
    );
    let source = r#"digraph {
        graph [stack.child_dotfile="children/worker.dot"]
        start -> boss -> inline -> exit
        boss [shape=house]
        inline [shape=house, stack.child_dot_source="digraph { start -> t -> exit t [type=command, script=\"make test\"] }"]
    }"#;
    let found = effects(source, "/w/flow.dot", &files);
    let children: Vec<_> = found
        .child_workflows
        .iter()
        .map(|c| (c.node_id.as_str(), c.path.as_str(), c.problem.is_some()))
        .collect();
    assert_eq!(
        children,
        [
            ("boss", "/w/children/worker.dot", false),
            ("inline", "/w/flow.dot", false)
        ]
    );
    let scripts: Vec<_> = found.commands.iter().map(|c| c.script.as_str()).collect();
    assert_eq!(scripts, ["make", "make test"]);
}
