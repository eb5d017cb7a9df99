//! A team remote over HTTPS, through the real binaries: the bare remote served by git's own
//! http-backend behind Basic authentication (heddle-git-host, with a certificate of the
//! test's own). A worker that trusts the certificate and finds the password through git's
//! credential helper runs a queued run and pushes it there; a worker that cannot reach the
//! remote (an untrusted certificate) stops when it starts, saying why, and never shows the
//! token written in the remote's URL; a worker whose remote goes away after it started puts
//! the entry it claimed back in the queue and runs it once the remote is back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::process::Stdio;
use std::time::{Duration, Instant};

use heddle_git_host::{GitHttp, TlsFiles};
use sandbox::team::{PUSHED_FLOW as FLOW, Team, ran};
use sandbox::{Sandbox, describe, git, text};

const USER: &str = "ci";
const TOKEN: &str = "tok-5f3a9c";

/// The team's remote served over HTTPS, and the certificate a worker must trust.
fn served_over_https(team: &Team) -> (GitHttp, TlsFiles) {
    let tls = TlsFiles::make(team.laptop.path()).unwrap();
    let server = GitHttp::start_tls(team.laptop.path(), USER, TOKEN, &tls).unwrap();
    (server, tls)
}

#[test]
fn a_worker_runs_a_queued_run_from_an_https_remote_with_git_s_credential_helper() {
    let team = Team::with(&[("flows/net.dot", FLOW)]);
    let (server, tls) = served_over_https(&team);
    let remote = server.url("team.git");
    let entry = team.queue("flows/net.dot");

    // The worker's machine keeps the password where git keeps it: a credential helper.
    let machine = Sandbox::new();
    let store = machine.path().join("git-credentials");
    let host = remote.trim_end_matches("/team.git");
    let with_password = host.replacen("https://", &format!("https://{USER}:{TOKEN}@"), 1);
    std::fs::write(&store, format!("{with_password}\n")).unwrap();
    std::fs::write(
        machine.path().join(".gitconfig"),
        format!(
            "[credential]\n\thelper = store --file={}\n",
            store.display()
        ),
    )
    .unwrap();

    let cert = tls.certificate.to_str().unwrap();
    let out = team.work_once_from(&machine, &remote, &[("SSL_CERT_FILE", cert)]);
    assert!(out.status.success(), "{}", describe(&out));
    let run_id = ran(&text(&out.stdout), &entry, "success");

    let bare = team.remote.clone();
    let made = git(&bare, &["show", &format!("heddle/run/{run_id}:made.txt")]);
    assert_eq!(made, "pushed by a worker\n");
    let refs = git(&bare, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{run_id}")), "{refs}");
    // Through the server, authenticated: its receive-pack took the run's pushes.
    let pushes = server
        .served()
        .iter()
        .filter(|s| s.path == "/team.git/git-receive-pack" && s.status == 200)
        .count();
    assert!(pushes >= 2, "a push per checkpoint: {:?}", server.served());
}

#[test]
fn a_worker_that_cannot_reach_the_remote_stops_at_start_and_hides_the_token() {
    let team = Team::with(&[("net.dot", FLOW)]);
    let (server, tls) = served_over_https(&team);
    let remote = server.url_with_password("team.git", USER, TOKEN);
    let entry = team.queue("net.dot");

    // No trust for the test's certificate: the TLS handshake fails.
    let machine = Sandbox::new();
    let refused = team.work_once_from(&machine, &remote, &[]);
    assert!(!refused.status.success(), "{}", describe(&refused));
    let said = format!("{}{}", text(&refused.stdout), text(&refused.stderr));
    assert!(!said.contains(TOKEN), "{said}");
    assert!(
        said.contains(&format!("https://{USER}:***@127.0.0.1:")),
        "{said}"
    );
    assert!(said.contains("certificate"), "says what failed: {said}");
    assert!(!said.contains(&entry), "it claimed nothing: {said}");

    // A worker that trusts the certificate runs it, with the token from the URL.
    let cert = tls.certificate.to_str().unwrap();
    let out = team.work_once_from(&Sandbox::new(), &remote, &[("SSL_CERT_FILE", cert)]);
    assert!(out.status.success(), "{}", describe(&out));
    let report = text(&out.stdout);
    assert!(!report.contains(TOKEN), "{report}");
    let run_id = ran(&report, &entry, "success");
    let refs = git(&team.remote, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{run_id}")), "{refs}");
}

/// Waits until `file` has a line containing `wanted`; the file's text.
fn wait_for_line(file: &std::path::Path, wanted: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let said = std::fs::read_to_string(file).unwrap_or_default();
        if said.lines().any(|l| l.contains(wanted)) {
            return said;
        }
        assert!(Instant::now() < deadline, "no `{wanted}` in: {said}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_entry_claimed_while_the_remote_is_away_goes_back_and_runs_once_it_is_back() {
    let team = Team::with(&[("net.dot", FLOW)]);
    let machine = Sandbox::new();
    let out = machine.path().join("worker.out");
    let mut worker = team
        .heddle(
            &machine,
            &["worker", "--remote", team.remote(), "--name", "steady"],
        )
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    wait_for_line(&out, "takes runs for");

    // The remote goes away (an unmounted share, a server down) and a run is queued.
    let away = team.laptop.path().join("team.git.away");
    std::fs::rename(&team.remote, &away).unwrap();
    let entry = team.queue("net.dot");
    let said = wait_for_line(&out, &format!("entry {entry}: back in the queue: "));
    assert!(said.contains("team.git"), "names the remote: {said}");

    // It comes back: the worker, after its wait, claims the entry again and runs it.
    std::fs::rename(&away, &team.remote).unwrap();
    let said = wait_for_line(&out, &format!("entry {entry}: run "));
    let _ = worker.kill();
    let _ = worker.wait();
    let run_id = ran(&said, &entry, "success");
    let refs = git(&team.remote, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{run_id}")), "{refs}");
}
