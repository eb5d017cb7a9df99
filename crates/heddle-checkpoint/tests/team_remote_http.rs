//! A team remote over the network: `clone_with_runs` and `push_run` against git's own
//! `http-backend` on loopback behind Basic authentication (heddle-git-host). A clone brings
//! the default branch and only the refs of the run it carries on, a push moves a run's
//! branch and metadata ref there, and a wrong password fails at once with the reason and
//! without the password in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;

use heddle_checkpoint::CheckpointError;
use heddle_checkpoint::remote_access::RemoteAccess;
use heddle_checkpoint::team_remote::{clone_with_runs, push_run, push_with_retries};
use heddle_git_host::GitHttp;
use support::{git, write};

const RUN: &str = "01JTEAMHTTP0000000000000000";

/// A bare `team.git` under `root` with a main branch and one run's branch and metadata ref.
fn team_remote(root: &Path) {
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(&work, &["init", "-q"]);
    write(&work.join("flow.dot"), "digraph F { start -> exit }\n");
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-qm", "first"]);
    git(&work, &["branch", &format!("heddle/run/{RUN}")]);
    git(
        &work,
        &["update-ref", &format!("refs/heddle/{RUN}"), "HEAD"],
    );
    git(
        root,
        &["clone", "-q", "--bare", "--mirror", "work", "team.git"],
    );
}

#[test]
fn a_clone_over_http_brings_the_run_it_carries_on_and_a_push_moves_it_there() {
    let root = tempfile::tempdir().unwrap();
    team_remote(root.path());
    let server = GitHttp::start(root.path(), "ci", "s3cret").unwrap();
    let remote = server.url_with_password("team.git", "ci", "s3cret");
    let access = RemoteAccess::unattended();

    // A clone for a new run brings the default branch, checked out, and none of the runs'.
    let fresh = root.path().join("fresh");
    clone_with_runs(&remote, &fresh, None, &access).unwrap();
    let refs = git(&fresh, &["show-ref"]);
    assert!(refs.contains("refs/heads/main"), "{refs}");
    assert!(!refs.contains("heddle"), "no run's refs: {refs}");
    assert!(fresh.join("flow.dot").is_file(), "checked out");
    assert_eq!(git(&fresh, &["status", "--porcelain"]), "");

    // A clone to carry a run on brings that run's branch and metadata ref too.
    let clone = root.path().join("clone");
    clone_with_runs(&remote, &clone, Some(RUN), &access).unwrap();
    let refs = git(&clone, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{RUN}")), "{refs}");
    assert!(
        refs.contains(&format!("refs/heads/heddle/run/{RUN}")),
        "{refs}"
    );

    // A checkpoint on the run's branch in the clone, pushed back.
    git(&clone, &["checkout", "-q", &format!("heddle/run/{RUN}")]);
    write(&clone.join("made.txt"), "made on a worker\n");
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-qm", "stage write"]);
    let tip = git(&clone, &["rev-parse", "HEAD"]);
    git(
        &clone,
        &["update-ref", &format!("refs/heddle/{RUN}"), "HEAD"],
    );
    let pushed = push_run(&clone, &remote, RUN, &access).unwrap();
    assert_eq!(
        pushed,
        [
            format!("refs/heads/heddle/run/{RUN}"),
            format!("refs/heddle/{RUN}")
        ]
    );
    let bare = root.path().join("team.git");
    assert_eq!(
        git(&bare, &["rev-parse", &format!("heddle/run/{RUN}")]),
        tip
    );
    assert_eq!(
        git(&bare, &["rev-parse", &format!("refs/heddle/{RUN}")]),
        tip
    );

    // It went over HTTP: the server's receive-pack took the pack, authenticated.
    let served = server.served();
    assert!(
        served
            .iter()
            .any(|s| s.path == "/team.git/git-receive-pack" && s.status == 200),
        "{served:?}"
    );
    // The server wants credentials: libgit2 asks without them first and is refused.
    assert_eq!(served[0].status, 401, "{served:?}");
}

#[test]
fn a_wrong_password_fails_at_once_with_the_reason_and_without_the_password() {
    let root = tempfile::tempdir().unwrap();
    team_remote(root.path());
    let server = GitHttp::start(root.path(), "ci", "s3cret").unwrap();
    let remote = server.url_with_password("team.git", "ci", "wrong-token");

    let clone = root.path().join("clone");
    let error = clone_with_runs(&remote, &clone, None, &RemoteAccess::unattended())
        .err()
        .unwrap();
    let told = error.to_string();
    assert!(matches!(error, CheckpointError::Remote { .. }), "{error:?}");
    assert!(!told.contains("wrong-token"), "{told}");
    assert!(told.contains("ci:***@127.0.0.1"), "{told}");
    assert!(told.starts_with("cloning "), "{told}");
    assert!(
        server.served().iter().any(|s| s.status == 401),
        "{:?}",
        server.served()
    );
}

#[test]
fn a_remote_that_is_not_there_names_the_remote() {
    let root = tempfile::tempdir().unwrap();
    team_remote(root.path());
    let server = GitHttp::start(root.path(), "ci", "s3cret").unwrap();
    let remote = server.url_with_password("missing.git", "ci", "s3cret");
    let error = clone_with_runs(
        &remote,
        &root.path().join("c"),
        None,
        &RemoteAccess::unattended(),
    )
    .err()
    .unwrap();
    let told = error.to_string();
    assert!(told.contains("/missing.git"), "{told}");
    assert!(!told.contains("s3cret"), "{told}");
}

#[test]
fn a_push_tries_again_while_the_remote_cannot_be_reached() {
    let root = tempfile::tempdir().unwrap();
    team_remote(root.path());
    let work = root.path().join("work");
    // The remote is not there at the first try; it appears before the retry a second later.
    let later = root.path().join("later.git");
    let appears = {
        let (root, later) = (root.path().to_path_buf(), later.clone());
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            git(&root, &["init", "-q", "--bare", later.to_str().unwrap()]);
        })
    };
    let pushed = push_with_retries(&work, later.to_str().unwrap(), RUN).unwrap();
    appears.join().unwrap();
    assert_eq!(pushed.len(), 2, "{pushed:?}");
    let tip = git(&work, &["rev-parse", "HEAD"]);
    assert_eq!(
        git(&later, &["rev-parse", &format!("refs/heddle/{RUN}")]),
        tip
    );

    // A remote that never comes back fails after the retries, naming it.
    let never = root.path().join("never.git");
    let error = push_with_retries(&work, never.to_str().unwrap(), RUN).unwrap_err();
    assert!(matches!(error, CheckpointError::Remote { .. }), "{error:?}");
    assert!(error.to_string().contains("never.git"), "{error}");
}
