#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! grep and glob respect the work dir's ignore files, walk hidden files but not `.git`, do
//! not follow links out of the work dir, and match the glob patterns they describe.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

use heddle_llm::tools::{ToolContext, ToolOutcome, Toolbox};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

async fn call(dir: &Path, name: &str, args: Value) -> ToolOutcome {
    let outcome = Toolbox::new(ToolContext {
        work_dir: dir.to_path_buf(),
        env: Vec::new(),
        pass_env: Vec::new(),
        shell_timeout: Duration::from_secs(10),
        output_limit: 200_000,
    })
    .call(name, &args, &CancellationToken::new())
    .await;
    assert!(!outcome.is_error, "{name} {args}: {}", outcome.output);
    outcome
}

fn write(root: &Path, path: &str, text: &str) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

/// A Node project (not a git repository): `.gitignore` lists `node_modules/`, `dist` and
/// `*.log`; `node_modules` holds more `.ts` files than `glob` lists.
fn node_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "node_modules/\ndist\n*.log\n");
    write(root, "src/index.ts", "export const needle = 1;\n");
    write(root, "src/lib/util.ts", "// needle\n");
    write(root, "src/lib/util.js", "// needle\n");
    write(root, "src/debug.log", "needle in a log\n");
    write(root, "dist/index.js", "needle built\n");
    write(root, ".github/workflows/ci.yml", "needle: ci\n");
    write(root, "packages/app/main.ts", "needle\n");
    for n in 0..1001 {
        write(
            root,
            &format!("node_modules/pkg{n:04}/index.ts"),
            "needle vendored\n",
        );
    }
    write(root, "packages/app/node_modules/dep/index.ts", "needle\n");
    dir
}

#[tokio::test]
async fn glob_does_not_walk_a_gitignored_node_modules() {
    let dir = node_project();
    let ts = call(dir.path(), "glob", json!({"pattern": "**/*.ts"})).await;
    assert_eq!(
        ts.output,
        "packages/app/main.ts\nsrc/index.ts\nsrc/lib/util.ts"
    );
    assert!(!ts.output.contains("showing the first"), "{}", ts.output);

    let all = call(dir.path(), "glob", json!({"pattern": "**"})).await;
    assert_eq!(
        all.output,
        ".github/workflows/ci.yml\n.gitignore\npackages/app/main.ts\nsrc/index.ts\n\
         src/lib/util.js\nsrc/lib/util.ts"
    );
}

#[tokio::test]
async fn grep_skips_ignored_files_and_applies_parent_rules_to_a_subfolder() {
    let dir = node_project();
    let all = call(dir.path(), "grep", json!({"pattern": "needle"})).await;
    assert_eq!(
        all.output,
        ".github/workflows/ci.yml:1: needle: ci\npackages/app/main.ts:1: needle\n\
         src/index.ts:1: export const needle = 1;\nsrc/lib/util.js:1: // needle\n\
         src/lib/util.ts:1: // needle"
    );

    // The root `.gitignore` still applies when only `packages` is searched.
    let sub = call(
        dir.path(),
        "grep",
        json!({"pattern": "needle", "path": "packages"}),
    )
    .await;
    assert_eq!(sub.output, "packages/app/main.ts:1: needle");

    // A folder asked for by name is searched even though it is ignored.
    let asked = call(
        dir.path(),
        "grep",
        json!({"pattern": "needle", "path": "node_modules/pkg0007"}),
    )
    .await;
    assert_eq!(
        asked.output,
        "node_modules/pkg0007/index.ts:1: needle vendored"
    );
}

#[tokio::test]
async fn ignore_files_git_excludes_and_nested_gitignores_are_respected() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".git/info/exclude", "local-only.txt\n");
    write(root, ".git/config", "needle\n");
    write(root, ".ignore", "scratch/\n");
    write(root, "docs/.gitignore", "*.tmp\n!keep.tmp\n");
    write(root, "docs/a.tmp", "needle\n");
    write(root, "docs/keep.tmp", "needle\n");
    write(root, "docs/guide.md", "needle\n");
    write(root, "local-only.txt", "needle\n");
    write(root, "scratch/notes.md", "needle\n");
    write(root, "kept.md", "needle\n");
    let found = call(root, "grep", json!({"pattern": "needle"})).await;
    assert_eq!(
        found.output,
        "docs/guide.md:1: needle\ndocs/keep.tmp:1: needle\nkept.md:1: needle"
    );
}

#[tokio::test]
async fn links_out_of_the_work_dir_are_not_followed() {
    let temp = tempfile::tempdir().unwrap();
    let work = temp.path().join("work");
    let outside = temp.path().join("outside");
    write(&outside, "secret.ts", "needle secret\n");
    write(&outside, "deep/more.ts", "needle secret\n");
    write(&work, "src/app.ts", "needle\n");
    symlink(&outside, work.join("src/linked")).unwrap();
    symlink(outside.join("secret.ts"), work.join("src/secret.ts")).unwrap();
    symlink("app.ts", work.join("src/alias.ts")).unwrap();

    let glob = call(&work, "glob", json!({"pattern": "**/*.ts"})).await;
    assert_eq!(glob.output, "src/alias.ts\nsrc/app.ts");
    let grep = call(&work, "grep", json!({"pattern": "needle"})).await;
    assert_eq!(grep.output, "src/alias.ts:1: needle\nsrc/app.ts:1: needle");
}

#[tokio::test]
async fn glob_patterns_match_as_described() {
    let dir = node_project();
    let under_src = call(dir.path(), "glob", json!({"pattern": "src/**"})).await;
    assert_eq!(
        under_src.output,
        "src/index.ts\nsrc/lib/util.js\nsrc/lib/util.ts"
    );
    let both = call(
        dir.path(),
        "glob",
        json!({"pattern": "*.{js,ts}", "path": "src/lib"}),
    )
    .await;
    assert_eq!(both.output, "src/lib/util.js\nsrc/lib/util.ts");
    let grep_by_glob = call(
        dir.path(),
        "grep",
        json!({"pattern": "needle", "glob": "*.{js,ts}", "path": "src"}),
    )
    .await;
    assert_eq!(
        grep_by_glob.output,
        "src/index.ts:1: export const needle = 1;\nsrc/lib/util.js:1: // needle\n\
         src/lib/util.ts:1: // needle"
    );
}
