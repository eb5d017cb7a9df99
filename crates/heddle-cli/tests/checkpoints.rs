//! Git checkpoints of `heddle run`, checked with the plain `git` CLI on real repositories
//! in temp dirs: the run branch, trailers and metadata history of worktree mode, the
//! shadow repository of a dirty repository or a plain folder, and what is refused. The
//! user's own checkout must come out of every run byte for byte as it went in.
//! (Hostile git config is in checkpoint_isolation.rs; awkward trees in checkpoint_trees.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::Path;

mod gitfixture;
mod sandbox;

use gitfixture::{
    Fixture, assert_warned, checkout, describe, git, git_ok, json, run_id, snapshot_files, text,
    tree, warnings,
};

/// Edits keep.txt, adds added.txt, deletes gone.txt.
const EDIT: &str = r#"digraph Edit {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    edit  [shape=parallelogram, label="Edit files", script="echo changed >> keep.txt; echo new > added.txt; rm gone.txt"];
    start -> edit -> exit;
}
"#;

const FILES: &[(&str, &str)] = &[
    ("keep.txt", "one\n"),
    ("gone.txt", "bye\n"),
    ("sub/deep.txt", "deep\n"),
    (".gitignore", "*.log\n"),
];

/// One commit of `git log`: sha, subject and the three Heddle trailers.
#[derive(Debug)]
struct Logged {
    sha: String,
    subject: String,
    run: String,
    completed: String,
    checkpoint: String,
}

fn log(repo: &Path, range: &str) -> Vec<Logged> {
    let format = "--format=%H%x00%s%x00%(trailers:key=Heddle-Run,valueonly)%x00\
                  %(trailers:key=Heddle-Completed,valueonly)%x00\
                  %(trailers:key=Heddle-Checkpoint,valueonly)%x1e";
    git(repo, &["log", "--reverse", format, range])
        .split('\u{1e}')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|record| {
            let f: Vec<&str> = record.split('\0').map(str::trim).collect();
            assert_eq!(f.len(), 5, "{record:?}");
            Logged {
                sha: f[0].into(),
                subject: f[1].into(),
                run: f[2].into(),
                completed: f[3].into(),
                checkpoint: f[4].into(),
            }
        })
        .collect()
}

#[test]
fn worktree_mode_commits_every_node_with_trailers_and_a_metadata_history() {
    let fx = Fixture::new();
    fx.init_repo(FILES);
    let repo = fx.repo();
    let base = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let run = fx.run(&fx.write_flow("edit.dot", EDIT), &[], 0);
    let id = run_id(&run);
    let branch = format!("heddle/run/{id}");
    let meta = format!("refs/heddle/{id}");

    let manifest = json(&run.join("manifest.json"));
    assert_eq!(manifest["checkpoint_mode"], "worktree", "{manifest}");
    assert_eq!(manifest["run_branch"], branch.as_str());
    assert_eq!(manifest["base_sha"], base.as_str());
    assert!(git_ok(
        &repo,
        &["rev-parse", "--verify", &format!("refs/heads/{branch}")]
    ));
    assert!(warnings(&run).is_empty(), "{:?}", warnings(&run));

    // One commit per node on top of the base, each with its subject and trailers.
    let commits = log(&repo, &format!("{base}..{branch}"));
    let subjects: Vec<&str> = commits.iter().map(|c| c.subject.as_str()).collect();
    let nodes = ["start", "edit", "exit"];
    let wanted: Vec<String> = nodes
        .iter()
        .map(|n| format!("heddle({id}): {n} (success)"))
        .collect();
    assert_eq!(subjects, wanted);
    assert_eq!(
        git(&repo, &["rev-parse", &format!("{}^", commits[0].sha)]).trim(),
        base
    );
    let metadata_commits = git(&repo, &["rev-list", &meta]);
    let metadata_commits: BTreeSet<&str> = metadata_commits.lines().collect();
    assert!(
        !metadata_commits.contains(base.as_str()),
        "the metadata history is an orphan"
    );
    for (n, (commit, node)) in commits.iter().zip(nodes).enumerate() {
        assert_eq!(commit.run, id, "{commit:?}");
        assert_eq!(commit.completed, (n + 1).to_string(), "{commit:?}");
        assert!(
            metadata_commits.contains(commit.checkpoint.as_str()),
            "Heddle-Checkpoint of {commit:?} is not on {meta}: {metadata_commits:?}"
        );
        // The metadata commit it names holds the checkpoint taken after that node.
        let saved = git(
            &repo,
            &["show", &format!("{}:checkpoint.json", commit.checkpoint)],
        );
        let saved: serde_json::Value = serde_json::from_str(&saved).unwrap();
        assert_eq!(saved["current_node"], node, "{saved}");
    }

    let files: BTreeSet<String> = tree(&repo, None, &meta).into_keys().collect();
    for wanted in ["manifest.json", "graph.dot", "checkpoint.json"] {
        assert!(files.contains(wanted), "no {wanted} in {meta}: {files:?}");
    }
    // Trace files: `stages/{a}/{b}/{c}/{stage}/{file}`, `abc` being the first three hex
    // digits of the git blob id of the stage folder's name.
    let scratch = tempfile::tempdir().unwrap();
    for (stage, file) in [
        ("start", "status.json"),
        ("edit", "status.json"),
        ("edit", "diff.patch"),
        ("exit", "status.json"),
    ] {
        let name = scratch.path().join(stage);
        std::fs::write(&name, stage).unwrap();
        let id = git(&repo, &["hash-object", name.to_str().unwrap()]);
        let wanted = format!(
            "stages/{}/{}/{}/{stage}/{file}",
            &id[0..1],
            &id[1..2],
            &id[2..3]
        );
        assert!(files.contains(&wanted), "no {wanted} in {meta}: {files:?}");
    }
    let stored = git(&repo, &["show", &format!("{meta}:manifest.json")]);
    assert!(stored.contains(&id), "{stored}");

    // The branch holds the run's files; checkpoint.json and conclusion.json name its tip.
    let tip = git(&repo, &["rev-parse", &branch]).trim().to_string();
    assert_eq!(
        git(&repo, &["show", &format!("{branch}:keep.txt")]),
        "one\nchanged\n"
    );
    assert_eq!(
        git(&repo, &["show", &format!("{branch}:added.txt")]),
        "new\n"
    );
    assert!(!git_ok(
        &repo,
        &["cat-file", "-e", &format!("{branch}:gone.txt")]
    ));
    let checkpoint = json(&run.join("checkpoint.json"));
    assert_eq!(checkpoint["git_commit_sha"], tip.as_str(), "{checkpoint}");
    assert_eq!(
        json(&run.join("conclusion.json"))["final_git_commit_sha"],
        tip.as_str()
    );
    let stages = sandbox::timeline(&run);
    let edit = stages.iter().find(|r| r["node_id"] == "edit").unwrap();
    let mut touched: Vec<&str> = edit["files_touched"]
        .as_array()
        .unwrap_or_else(|| panic!("no files_touched: {edit}"))
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    touched.sort_unstable();
    assert_eq!(touched, ["added.txt", "gone.txt", "keep.txt"]);
    let stage = run.join(edit["stage_dir"].as_str().unwrap());
    let mut in_status: Vec<String> =
        serde_json::from_value(json(&stage.join("status.json"))["files_touched"].clone()).unwrap();
    in_status.sort_unstable();
    assert_eq!(
        in_status, touched,
        "status.json lists what the checkpoint found"
    );
    let patch = std::fs::read_to_string(stage.join("diff.patch")).unwrap();
    assert!(patch.contains("+++ b/added.txt"), "{patch}");

    let patch = std::fs::read_to_string(run.join("final.patch")).unwrap();
    for wanted in [
        "+changed",
        "deleted file mode",
        "+++ b/added.txt",
        "--- a/gone.txt",
    ] {
        assert!(
            patch.contains(wanted),
            "final.patch lacks {wanted}: {patch}"
        );
    }
    let stage = std::fs::read_to_string(run.join("nodes/edit/diff.patch")).unwrap();
    assert!(stage.contains("+changed"), "{stage}");
}

#[test]
fn worktree_mode_leaves_the_users_checkout_byte_for_byte() {
    let fx = Fixture::new();
    fx.init_repo(FILES);
    fx.write("secret.log", b"ignored, never touched\n");
    let before = checkout(&fx.repo());
    assert!(before.status.contains("!! secret.log"), "{}", before.status);
    let run = fx.run(&fx.write_flow("edit.dot", EDIT), &[], 0);
    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        "worktree"
    );
    assert_eq!(checkout(&fx.repo()), before);
    // The run's stages ran in its worktree, not here.
    assert!(run.join("worktree/added.txt").is_file());
    assert!(!fx.repo().join("added.txt").exists());
}

/// Adds a file, then fails.
const FAILING: &str = r#"digraph Failing {
    start  [shape=Mdiamond];
    exit   [shape=Msquare];
    edit   [shape=parallelogram, label="Edit files", script="echo new > added.txt"];
    broken [shape=parallelogram, label="Break", script="echo failing; exit 3"];
    start -> edit -> broken;
    broken -> exit [condition="outcome=success"];
}
"#;

#[test]
fn a_dirty_repository_gets_a_shadow_repository_and_its_git_folder_is_never_written() {
    let fx = Fixture::new();
    fx.init_repo(FILES);
    let repo = fx.repo();
    fx.write("keep.txt", b"one\nuncommitted\n");
    fx.write("notes.txt", b"untracked\n");
    fx.write("secret.log", b"ignored\n");
    let git_before = snapshot_files(&repo.join(".git"), true);
    let before = checkout(&repo);
    let run = fx.run(&fx.write_flow("failing.dot", FAILING), &[], 1);
    let id = run_id(&run);

    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        "shadow"
    );
    assert_warned(&run, &["shadow repository"]);
    // Not one byte of the user's .git changed: no branch, no ref, no object, same index.
    assert_eq!(snapshot_files(&repo.join(".git"), true), git_before);
    let after = checkout(&repo);
    assert_eq!(after.refs, before.refs);
    assert_eq!(after.index, before.index);
    assert_eq!(after.head, before.head);
    assert!(git(&repo, &["branch", "--list", "heddle/*"]).is_empty());
    // The run worked in place: the only change is its own new file.
    let mut status: BTreeSet<&str> = before.status.lines().collect();
    status.insert("?? added.txt");
    assert_eq!(after.status.lines().collect::<BTreeSet<&str>>(), status);
    let mut files = before.files.clone();
    files.insert("added.txt".into(), b"new\n".to_vec());
    assert_eq!(after.files, files);

    let shadow = fx.shadow_dir();
    assert_ne!(shadow.file_name().unwrap(), ".git");
    let git_dir = format!("--git-dir={}", shadow.display());
    let branch = format!("heddle/run/{id}");
    let subjects = git(
        &repo,
        &[&git_dir, "log", "--reverse", "--format=%s", &branch],
    );
    let subjects: Vec<&str> = subjects.lines().collect();
    assert_eq!(
        subjects.first(),
        Some(&format!("setup:start [run:{id}] Failing").as_str())
    );
    let edit = format!("completed:edit [run:{id}] Edit files");
    let error = format!("error:broken [run:{id}] Break");
    assert!(subjects.contains(&edit.as_str()), "{subjects:?}");
    assert_eq!(subjects.last(), Some(&error.as_str()), "{subjects:?}");
    let body = git(&repo, &[&git_dir, "log", "-1", "--format=%b", &branch]);
    for line in ["Node: Break", "Status: fail", "Timestamp: ", "Duration: "] {
        assert!(body.contains(line), "no `{line}` in {body}");
    }
    // The setup commit is the workspace as the run found it: dirty and untracked files
    // in, ignored files and the user's .git out.
    let root = git(&repo, &[&git_dir, "rev-list", "--max-parents=0", &branch]);
    let setup = tree(&repo, Some(&shadow), root.trim());
    let paths: BTreeSet<&str> = setup.keys().map(String::as_str).collect();
    let wanted = [
        ".gitignore",
        "gone.txt",
        "keep.txt",
        "notes.txt",
        "sub/deep.txt",
    ];
    assert_eq!(paths, wanted.into_iter().collect());
    let keep = git(
        &repo,
        &[&git_dir, "show", &format!("{}:keep.txt", root.trim())],
    );
    assert_eq!(keep, "one\nuncommitted\n");
    assert!(tree(&repo, Some(&shadow), &branch).contains_key("added.txt"));
}

#[test]
fn a_plain_folder_gets_a_shadow_repository_without_a_warning() {
    let fx = Fixture::new();
    fx.write("keep.txt", b"one\n");
    fx.write("gone.txt", b"bye\n");
    let run = fx.run(&fx.write_flow("edit.dot", EDIT), &[], 0);
    let id = run_id(&run);
    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        "shadow"
    );
    assert!(warnings(&run).is_empty(), "{:?}", warnings(&run));
    assert!(
        !fx.repo().join(".git").exists(),
        "a .git appeared in the workspace"
    );

    let shadow = fx.shadow_dir();
    let git_dir = format!("--git-dir={}", shadow.display());
    let branch = format!("heddle/run/{id}");
    let subjects = git(
        &fx.root(),
        &[&git_dir, "log", "--reverse", "--format=%s", &branch],
    );
    let subjects: Vec<&str> = subjects.lines().collect();
    assert_eq!(
        subjects.first(),
        Some(&format!("setup:start [run:{id}] Edit").as_str())
    );
    let edit = format!("completed:edit [run:{id}] Edit files");
    assert!(subjects.contains(&edit.as_str()), "{subjects:?}");
    assert!(
        subjects.last().unwrap().starts_with("exit:exit "),
        "{subjects:?}"
    );
    let files: BTreeSet<String> = tree(&fx.root(), Some(&shadow), &branch)
        .into_keys()
        .collect();
    let wanted = ["added.txt", "keep.txt"].map(String::from);
    assert_eq!(files, wanted.into_iter().collect());
    let checkpoint = json(&run.join("checkpoint.json"));
    let tip = git(&fx.root(), &[&git_dir, "rev-parse", &branch]);
    assert_eq!(checkpoint["git_commit_sha"], tip.trim());
}

#[test]
fn the_home_folder_is_refused_unless_checkpoints_are_off() {
    let fx = Fixture::new();
    let flow = fx.write_flow("home.dot", EDIT.replace("rm gone.txt", "true").as_str());
    let home = fx.home();
    std::fs::write(home.join("keep.txt"), "one\n").unwrap();
    let home_arg = home.to_str().unwrap();
    let out = fx.heddle(
        &["run", flow.to_str().unwrap(), "--work-dir", home_arg],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(
        text(&out.stderr).contains("home folder"),
        "{}",
        describe(&out)
    );
    assert!(fx.runs().is_empty(), "a refused run left {:?}", fx.runs());
    assert!(!fx.heddle_home().join("shadow").exists());
    assert!(!home.join("added.txt").exists(), "a stage ran anyway");

    let args = [
        "run",
        flow.to_str().unwrap(),
        "--work-dir",
        home_arg,
        "--checkpoints",
        "none",
    ];
    let out = fx.heddle(&args, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let run = fx.only_run();
    assert_eq!(json(&run.join("manifest.json"))["checkpoint_mode"], "none");
    assert!(home.join("added.txt").is_file());
    assert!(!fx.heddle_home().join("shadow").exists());
    assert!(json(&run.join("checkpoint.json"))["git_commit_sha"].is_null());
}

#[test]
fn worktree_mode_in_a_dirty_repository_fails_before_starting() {
    let fx = Fixture::new();
    fx.init_repo(FILES);
    fx.write("keep.txt", b"one\nuncommitted\n");
    let git_before = snapshot_files(&fx.repo().join(".git"), true);
    let flow = fx.write_flow("edit.dot", EDIT);
    let args = ["run", flow.to_str().unwrap(), "--checkpoints", "worktree"];
    let out = fx.heddle(&args, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("clean git repository"), "{stderr}");
    assert!(stderr.contains("uncommitted changes"), "{stderr}");
    assert!(stderr.contains("keep.txt"), "{stderr}");
    assert!(fx.runs().is_empty(), "{:?}", fx.runs());
    assert!(!fx.repo().join("added.txt").exists(), "a stage ran anyway");
    assert_eq!(snapshot_files(&fx.repo().join(".git"), true), git_before);
}
