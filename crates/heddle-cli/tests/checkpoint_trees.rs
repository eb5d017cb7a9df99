//! Trees that break naive tools, checkpointed by `heddle run` and checked with the plain
//! `git` CLI: a nested git repository, ignored files, Git LFS files, symlinks, a file name
//! that is not UTF-8, a file over the 50 MB size cap and a file still being written. Each
//! is either stored as git stores it or skipped with a warning naming it, and never
//! changed on disk. In shadow mode they exist before the run (the setup scan) and are also
//! made by a stage (the watcher's path); in worktree mode a stage makes them in the run's
//! worktree.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

mod gitfixture;
mod sandbox;

use gitfixture::{
    Fixture, assert_warned, commit_all, git, git_ok, json, run_id, snapshot_files, tree,
};

/// A stage that makes one of each awkward thing, next to a plain `ok.txt`.
const AWKWARD: &str = r#"digraph Awkward {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    make  [shape=parallelogram, script="echo ok > ok.txt; echo log > made.log; mkdir -p build; echo o > build/late.o; echo lfs > late.bin; ln -s ok.txt late-link; git init -q inner; echo inner > inner/f.txt; truncate -s 51M late.dat; echo bad > \"$(printf 'late-\\377.txt')\""];
    start -> make -> exit;
}
"#;

const GITIGNORE: &str = "*.log\nbuild/\n";
const GITATTRIBUTES: &str = "*.bin filter=lfs diff=lfs merge=lfs -text\n";
const BIG: u64 = 51 * 1024 * 1024;

fn late_bad_name() -> PathBuf {
    PathBuf::from(OsStr::from_bytes(b"late-\xff.txt"))
}

fn paths(tree: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    tree.into_iter().collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

/// The warnings a run over the stage's files must give, and those files untouched.
fn assert_stage_files_skipped_and_kept(run: &Path, work: &Path) {
    assert_warned(run, &["`inner`", "nested git repository"]);
    assert_warned(run, &["late.bin", "Git LFS"]);
    assert_warned(run, &["late.dat", "50 MB"]);
    assert_warned(run, &["late-", "not valid UTF-8"]);
    assert!(work.join("inner/.git").is_dir(), "inner/.git was moved");
    assert_eq!(std::fs::read(work.join("inner/f.txt")).unwrap(), b"inner\n");
    assert_eq!(std::fs::metadata(work.join("late.dat")).unwrap().len(), BIG);
    assert_eq!(std::fs::read(work.join(late_bad_name())).unwrap(), b"bad\n");
    assert_eq!(std::fs::read(work.join("late.bin")).unwrap(), b"lfs\n");
}

#[test]
fn shadow_mode_skips_and_reports_what_git_cannot_or_should_not_store() {
    let fx = Fixture::new();
    let work = fx.repo();
    fx.write(".gitignore", GITIGNORE.as_bytes());
    fx.write(".gitattributes", GITATTRIBUTES.as_bytes());
    fx.write("keep.txt", b"keep\n");
    fx.write("debug.log", b"ignored\n");
    fx.write("build/out.o", b"ignored\n");
    fx.write("weights.bin", b"lfs content\n");
    std::os::unix::fs::symlink("keep.txt", work.join("link.txt")).unwrap();
    std::fs::write(work.join(OsStr::from_bytes(b"bad-\xff.txt")), b"bad\n").unwrap();
    std::fs::File::create(work.join("big.dat"))
        .unwrap()
        .set_len(BIG)
        .unwrap();
    let nested = work.join("vendor/lib");
    std::fs::create_dir_all(&nested).unwrap();
    git(&nested, &["init", "-q", "-b", "main"]);
    std::fs::write(nested.join("lib.txt"), "lib\n").unwrap();
    commit_all(&nested, "nested");
    std::fs::write(nested.join("wip.txt"), "uncommitted\n").unwrap();
    let nested_before = snapshot_files(&nested, true);

    let run = fx.run(&fx.write_flow("awkward.dot", AWKWARD), &[], 0);
    let id = run_id(&run);
    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        "shadow"
    );
    let shadow = fx.shadow_dir();
    let git_dir = format!("--git-dir={}", shadow.display());
    let branch = format!("heddle/run/{id}");

    // The setup commit: what was there before the run, minus what is skipped.
    let first = git(&work, &[&git_dir, "rev-list", "--max-parents=0", &branch]);
    let setup = tree(&work, Some(&shadow), first.trim());
    let wanted = [".gitattributes", ".gitignore", "keep.txt", "link.txt"];
    assert_eq!(paths(setup.clone().into_keys()), set(&wanted));
    assert_eq!(setup["link.txt"], "120000");
    assert_warned(&run, &["vendor/lib", "nested git repository"]);
    assert_warned(&run, &["weights.bin", "Git LFS"]);
    assert_warned(&run, &["big.dat", "50 MB"]);
    assert_warned(&run, &["bad-", "not valid UTF-8"]);

    // The tip: the stage's files too, with the same rules.
    let tip = tree(&work, Some(&shadow), &branch);
    let wanted = [
        ".gitattributes",
        ".gitignore",
        "keep.txt",
        "late-link",
        "link.txt",
        "ok.txt",
    ];
    assert_eq!(paths(tip.clone().into_keys()), set(&wanted));
    assert_eq!(tip["late-link"], "120000");
    let target = git(
        &work,
        &[&git_dir, "cat-file", "blob", &format!("{branch}:late-link")],
    );
    assert_eq!(target, "ok.txt");
    assert_stage_files_skipped_and_kept(&run, &work);

    // Nothing skipped was changed, moved or renamed.
    assert_eq!(snapshot_files(&nested, true), nested_before);
    assert!(nested.join(".git").is_dir());
    assert_eq!(git(&nested, &["log", "--format=%s"]), "nested\n");
    assert_eq!(
        std::fs::read(work.join("weights.bin")).unwrap(),
        b"lfs content\n"
    );
    assert_eq!(std::fs::metadata(work.join("big.dat")).unwrap().len(), BIG);
    let bad = work.join(OsStr::from_bytes(b"bad-\xff.txt"));
    assert_eq!(std::fs::read(bad).unwrap(), b"bad\n");
    assert_eq!(
        std::fs::read_link(work.join("link.txt")).unwrap(),
        Path::new("keep.txt")
    );
}

#[test]
fn worktree_mode_skips_and_reports_what_a_stage_makes_that_git_should_not_store() {
    let fx = Fixture::new();
    fx.init_repo(&[
        (".gitignore", GITIGNORE),
        (".gitattributes", GITATTRIBUTES),
        ("keep.txt", "keep\n"),
    ]);
    let run = fx.run(&fx.write_flow("awkward.dot", AWKWARD), &[], 0);
    let id = run_id(&run);
    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        "worktree"
    );
    let repo = fx.repo();
    let branch = format!("heddle/run/{id}");

    let tip = tree(&repo, None, &branch);
    let wanted = [
        ".gitattributes",
        ".gitignore",
        "keep.txt",
        "late-link",
        "ok.txt",
    ];
    assert_eq!(paths(tip.clone().into_keys()), set(&wanted));
    assert_eq!(tip["late-link"], "120000");
    assert_eq!(
        git(&repo, &["cat-file", "blob", &format!("{branch}:late-link")]),
        "ok.txt"
    );
    // No gitlink for the nested repository either.
    assert!(!git_ok(
        &repo,
        &["cat-file", "-e", &format!("{branch}:inner")]
    ));
    assert_stage_files_skipped_and_kept(&run, &run.join("worktree"));
    // The stage ran in the worktree; the user's checkout got none of it.
    assert!(!repo.join("ok.txt").exists());
    assert!(!repo.join("inner").exists());
}

/// Stages that move, replace, retype and rewrite (same size) things, and change
/// `.gitignore` so a file made earlier (junk.tmp) is no longer ignored. After each,
/// RECORD (a script of `git` CLI calls on a separate repository and index) writes down
/// the tree plain `git add -A` makes of the same folder.
const SHUFFLE: &str = r#"digraph Shuffle {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    s1 [shape=parallelogram, script="mkdir -p a/b/c && echo 1 > a/b/c/f.txt && echo x > top.txt && printf '*.tmp\n' > .gitignore && echo t > junk.tmp && sh RECORD"];
    s2 [shape=parallelogram, script="mv a moved && ln -s moved/b/c/f.txt link && chmod +x top.txt && sh RECORD"];
    s3 [shape=parallelogram, script="echo y > top.txt && rm -rf moved link && mkdir link && echo now-dir > link/inside.txt && sh RECORD"];
    s4 [shape=parallelogram, script="rm -rf link && echo now-file > link && printf 'top.txt\n' > .gitignore && sh RECORD"];
    start -> s1 -> s2 -> s3 -> s4 -> exit;
}
"#;

/// Runs SHUFFLE in `fx`'s workspace; each stage's checkpoint tree must be plain git's.
fn assert_checkpoints_match_git_add_all(fx: &Fixture, checkpoints: &str) {
    let oracle = fx.root().join("oracle.git");
    git(
        &fx.root(),
        &["init", "-q", "--bare", oracle.to_str().unwrap()],
    );
    let trees = fx.root().join("oracle-trees");
    let record = fx.root().join("record.sh");
    let script = format!(
        "export GIT_DIR='{o}' GIT_WORK_TREE=\"$PWD\" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null\n\
         git add -A && git write-tree >> '{t}'\n",
        o = oracle.display(),
        t = trees.display()
    );
    std::fs::write(&record, script).unwrap();
    let flow = SHUFFLE.replace("RECORD", &record.to_string_lossy());
    let args = ["--checkpoints", checkpoints];
    let run = fx.run(&fx.write_flow("shuffle.dot", &flow), &args, 0);
    let id = run_id(&run);
    assert_eq!(
        json(&run.join("manifest.json"))["checkpoint_mode"],
        checkpoints
    );
    let git_dir =
        (checkpoints == "shadow").then(|| format!("--git-dir={}", fx.shadow_dir().display()));
    let branch = format!("heddle/run/{id}");
    let mut args: Vec<&str> = git_dir.iter().map(String::as_str).collect();
    args.extend(["log", "--reverse", "--format=%s%x00%T", &branch]);
    let log = git(&fx.repo(), &args);
    let stage = |subject: &str| {
        ["s1", "s2", "s3", "s4"].into_iter().any(|n| {
            subject.contains(&format!("): {n} (")) || subject.contains(&format!(":{n} [run:"))
        })
    };
    let stored: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split_once('\0'))
        .filter(|(subject, _)| stage(subject))
        .map(|(_, tree)| tree)
        .collect();
    let expected = std::fs::read_to_string(&trees).unwrap();
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(expected.len(), 4, "{expected:?}");
    assert_eq!(stored.len(), expected.len(), "{log}");
    for (n, (got, want)) in stored.iter().zip(&expected).enumerate() {
        if got != want {
            let mut listing: Vec<&str> = git_dir.iter().map(String::as_str).collect();
            listing.extend(["ls-tree", "-r", got]);
            let oracle_dir = format!("--git-dir={}", oracle.display());
            panic!(
                "after s{}, the checkpoint holds\n{}\nbut `git add -A` makes\n{}",
                n + 1,
                git(&fx.repo(), &listing),
                git(&fx.root(), &[&oracle_dir, "ls-tree", "-r", want])
            );
        }
    }
}

#[test]
fn worktree_checkpoints_store_what_git_add_all_would_after_every_stage() {
    let fx = Fixture::new();
    fx.init_repo(&[("seed.txt", "seed\n")]);
    assert_checkpoints_match_git_add_all(&fx, "worktree");
}

#[test]
fn shadow_checkpoints_store_what_git_add_all_would_after_every_stage() {
    let fx = Fixture::new();
    fx.write("seed.txt", b"seed\n");
    assert_checkpoints_match_git_add_all(&fx, "shadow");
}

#[test]
fn a_run_whose_output_goes_to_a_file_in_its_own_workspace_still_checkpoints() {
    // `heddle run flow.dot > run.log 2>&1` from the workspace: the file grows while
    // checkpoints read it. That used to fail the run ("failed to read file into stream").
    let fx = Fixture::new();
    fx.write("keep.txt", b"keep\n");
    let flow = fx.write_flow("chain.dot", &sandbox::chain_of_conditions(300));
    let log = std::fs::File::create(fx.repo().join("run.log")).unwrap();
    let out = fx
        .heddle_command(&["run", flow.to_str().unwrap()], &[])
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .output()
        .unwrap();
    let written = std::fs::read_to_string(fx.repo().join("run.log")).unwrap();
    let tail: String = written.lines().rev().take(8).collect::<Vec<_>>().join("\n");
    assert!(out.status.success(), "run.log ends (newest first):\n{tail}");
    assert!(written.contains("n299"), "{tail}");
    let shadow = fx.shadow_dir();
    let git_dir = format!("--git-dir={}", shadow.display());
    let id = run_id(&fx.only_run());
    let files = git(
        &fx.repo(),
        &[
            &git_dir,
            "ls-tree",
            "--name-only",
            &format!("heddle/run/{id}"),
        ],
    );
    assert!(files.lines().any(|f| f == "keep.txt"), "{files}");
    assert!(git_ok(&fx.root(), &[&git_dir, "fsck", "--strict"]));
}
