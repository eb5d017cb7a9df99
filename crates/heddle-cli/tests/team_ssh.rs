//! A team remote over SSH, through the real binaries: the bare remote served by
//! heddle-git-host's SSH server (keys made with ssh-keygen). A worker with the user's key (in
//! ~/.ssh, or held by its ssh-agent) and the host in known_hosts runs a queued run and pushes
//! it there; one that does not know the host, or whose key is not accepted, stops at start
//! saying so.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::process::Stdio;
use std::time::{Duration, Instant};

use heddle_git_host::{GitSsh, SshKeyPair};
use sandbox::team::{PUSHED_FLOW as FLOW, Team, ran};
use sandbox::{Sandbox, describe, git, text};

/// A machine whose `~/.ssh` holds `id_ed25519` and, when given, a known_hosts file.
fn ssh_machine(known_hosts: Option<&str>) -> (Sandbox, SshKeyPair) {
    let machine = Sandbox::new();
    let ssh = machine.path().join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    let key = SshKeyPair::make(&ssh.join("id_ed25519")).unwrap();
    if let Some(line) = known_hosts {
        std::fs::write(ssh.join("known_hosts"), format!("{line}\n")).unwrap();
    }
    (machine, key)
}

#[test]
fn a_worker_runs_a_queued_run_from_an_ssh_remote_with_the_user_s_key() {
    let team = Team::with(&[("net.dot", FLOW)]);
    let host_key = SshKeyPair::make(&team.laptop.path().join("host_key")).unwrap();
    let (machine, user_key) = ssh_machine(None);
    let server = GitSsh::start(team.laptop.path(), &user_key.public, &host_key.private).unwrap();
    std::fs::write(
        machine.path().join(".ssh/known_hosts"),
        format!("{}\n", server.known_hosts_line()),
    )
    .unwrap();
    let entry = team.queue("net.dot");

    let remote = server.url("git", "team.git");
    let out = team.work_once_from(&machine, &remote, &[("SSH_AUTH_SOCK", "")]);
    assert!(out.status.success(), "{}", describe(&out));
    let run_id = ran(&text(&out.stdout), &entry, "success");
    let made = git(
        &team.remote,
        &["show", &format!("heddle/run/{run_id}:made.txt")],
    );
    assert_eq!(made, "pushed by a worker\n");
    let pushes = server
        .ran()
        .iter()
        .filter(|r| r.program == "git-receive-pack" && r.exit == 0)
        .count();
    assert!(pushes >= 2, "a push per checkpoint: {:?}", server.ran());
}

#[test]
fn an_unknown_ssh_host_or_an_unaccepted_key_stops_the_worker_at_start() {
    let team = Team::with(&[("net.dot", FLOW)]);
    let host_key = SshKeyPair::make(&team.laptop.path().join("host_key")).unwrap();
    let (accepted, accepted_key) = ssh_machine(None);
    let server =
        GitSsh::start(team.laptop.path(), &accepted_key.public, &host_key.private).unwrap();
    let remote = server.url("git", "team.git");

    // The host is not in known_hosts: refused, never trusted on first use.
    let out = team.work_once_from(&accepted, &remote, &[("SSH_AUTH_SOCK", "")]);
    assert!(!out.status.success(), "{}", describe(&out));
    let said = text(&out.stderr);
    assert!(said.contains("known_hosts"), "{said}");
    assert!(server.ran().is_empty(), "{:?}", server.ran());

    // The host is known but the machine's key is not the accepted one.
    let (stranger, _) = ssh_machine(Some(&server.known_hosts_line()));
    let out = team.work_once_from(&stranger, &remote, &[("SSH_AUTH_SOCK", "")]);
    assert!(!out.status.success(), "{}", describe(&out));
    let said = text(&out.stderr);
    assert!(
        said.contains("ssh-agent") && said.contains("~/.ssh/id_"),
        "{said}"
    );
    assert!(server.ran().is_empty(), "{:?}", server.ran());
}

/// An `ssh-agent` on a socket in `folder`, holding `key`; killed when dropped.
struct Agent {
    child: std::process::Child,
    socket: std::path::PathBuf,
}

impl Agent {
    fn holding(folder: &std::path::Path, key: &std::path::Path) -> Agent {
        let socket = folder.join("agent.sock");
        let child = std::process::Command::new("ssh-agent")
            .arg("-D")
            .arg("-a")
            .arg(&socket)
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            assert!(Instant::now() < deadline, "ssh-agent made no socket");
            std::thread::sleep(Duration::from_millis(20));
        }
        let added = std::process::Command::new("ssh-add")
            .arg(key)
            .env("SSH_AUTH_SOCK", &socket)
            .output()
            .unwrap();
        assert!(added.status.success(), "{}", describe(&added));
        Agent { child, socket }
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_worker_uses_the_key_its_ssh_agent_holds() {
    let team = Team::with(&[("net.dot", FLOW)]);
    let host_key = SshKeyPair::make(&team.laptop.path().join("host_key")).unwrap();
    // The key lives outside ~/.ssh: only the agent offers it.
    let held = SshKeyPair::make(&team.laptop.path().join("agent_key")).unwrap();
    let server = GitSsh::start(team.laptop.path(), &held.public, &host_key.private).unwrap();
    let (machine, _other_key) = ssh_machine(Some(&server.known_hosts_line()));
    let agent = Agent::holding(team.laptop.path(), &held.private);
    let entry = team.queue("net.dot");

    let socket = agent.socket.to_str().unwrap();
    let out = team.work_once_from(
        &machine,
        &server.url("git", "team.git"),
        &[("SSH_AUTH_SOCK", socket)],
    );
    assert!(out.status.success(), "{}", describe(&out));
    let run_id = ran(&text(&out.stdout), &entry, "success");
    let refs = git(&team.remote, &["show-ref"]);
    assert!(refs.contains(&format!("refs/heddle/{run_id}")), "{refs}");
}
