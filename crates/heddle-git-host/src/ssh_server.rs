//! [`GitSsh`]: git over SSH on loopback. An in-process SSH server (russh, on its own thread
//! and tokio runtime) that accepts one public key and runs what a git client asks for,
//! `git-upload-pack '/repo.git'` or `git-receive-pack '/repo.git'`, on the bare
//! repositories under one folder, with the channel as the program's stdin and stdout.
//! Keys are made with `ssh-keygen`, so they are the files a user would have.

use std::collections::HashMap;
use std::future::IntoFuture;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};

use russh::keys::ssh_key::PublicKey;
use russh::server::{Auth, ChannelOpenHandle, Msg, Server, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId};

use crate::loopback::Loopback;

/// An ed25519 key pair made with `ssh-keygen` (no passphrase).
pub struct SshKeyPair {
    /// The private key, in OpenSSH's format.
    pub private: PathBuf,
    /// The public key (`ssh-ed25519 AAAA… comment`).
    pub public: PathBuf,
}

impl SshKeyPair {
    /// Makes the key pair `path` and `path.pub`.
    pub fn make(path: &Path) -> io::Result<SshKeyPair> {
        let made = Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-C", "heddle-test", "-f"])
            .arg(path)
            .stdin(Stdio::null())
            .output()?;
        if !made.status.success() {
            return Err(io::Error::other(format!(
                "ssh-keygen failed: {}",
                String::from_utf8_lossy(&made.stderr)
            )));
        }
        let mut public = path.as_os_str().to_owned();
        public.push(".pub");
        Ok(SshKeyPair {
            private: path.to_path_buf(),
            public: PathBuf::from(public),
        })
    }
}

/// A command the server ran for a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// `git-upload-pack` or `git-receive-pack`.
    pub program: String,
    /// The repository asked for, as the client wrote it (`/team.git`).
    pub repository: String,
    /// The program's exit code.
    pub exit: i32,
}

struct Shared {
    root: PathBuf,
    authorized: PublicKey,
    ran: Mutex<Vec<Ran>>,
}

/// A git server over SSH on loopback; dropping it stops it.
pub struct GitSsh {
    host_key: String,
    shared: Arc<Shared>,
    server: Loopback,
}

impl GitSsh {
    /// Serves the repositories under `root` to the holder of `user_key`, with `host_key`
    /// (a private key file) as the server's identity.
    pub fn start(root: &Path, user_key: &Path, host_key: &Path) -> io::Result<GitSsh> {
        let authorized = russh::keys::load_public_key(user_key).map_err(io::Error::other)?;
        let identity = russh::keys::load_secret_key(host_key, None).map_err(io::Error::other)?;
        let host_public = identity
            .public_key()
            .to_openssh()
            .map_err(io::Error::other)?;
        let config = Arc::new(russh::server::Config {
            keys: vec![identity],
            auth_rejection_time: std::time::Duration::from_millis(10),
            auth_rejection_time_initial: Some(std::time::Duration::ZERO),
            inactivity_timeout: Some(std::time::Duration::from_secs(120)),
            ..Default::default()
        });
        let shared = Arc::new(Shared {
            root: root.to_path_buf(),
            authorized,
            ran: Mutex::new(Vec::new()),
        });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let mut hosting = Hosting {
            shared: shared.clone(),
        };
        let server = Loopback::start("git-ssh", runtime, move |listener| async move {
            // The server only ends with an I/O error, which the test sees as a refused connection.
            let _ = hosting.run_on_socket(config, &listener).into_future().await;
        })?;
        Ok(GitSsh {
            host_key: host_public,
            shared,
            server,
        })
    }

    /// The `ssh://` URL of repository `name` (a folder under the root) for `user`.
    pub fn url(&self, user: &str, name: &str) -> String {
        format!("ssh://{user}@127.0.0.1:{}/{name}", self.server.port)
    }

    /// The server's line for `~/.ssh/known_hosts` (`[127.0.0.1]:PORT ssh-ed25519 AAAA…`).
    pub fn known_hosts_line(&self) -> String {
        format!("[127.0.0.1]:{} {}", self.server.port, self.host_key)
    }

    /// The git programs run so far, in order.
    pub fn ran(&self) -> Vec<Ran> {
        self.shared
            .ran
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

struct Hosting {
    shared: Arc<Shared>,
}

impl Server for Hosting {
    type Handler = Connection;

    fn new_client(&mut self, _: Option<std::net::SocketAddr>) -> Connection {
        Connection {
            shared: self.shared.clone(),
            channels: HashMap::new(),
        }
    }
}

/// One client's connection: its open session channels, until a command runs on one.
struct Connection {
    shared: Arc<Shared>,
    channels: HashMap<ChannelId, Channel<Msg>>,
}

/// `git-upload-pack '/team.git'` as (program, repository), for the two programs git uses.
fn git_command(line: &str) -> Option<(String, String)> {
    let (program, argument) = line.trim().split_once(' ')?;
    if program != "git-upload-pack" && program != "git-receive-pack" {
        return None;
    }
    let repository = argument.trim().trim_matches('\'').to_string();
    let safe = repository
        .trim_start_matches('/')
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != "..");
    safe.then(|| (program.to_string(), repository))
}

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn auth_publickey(
        &mut self,
        _user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        if key.public_key.key_data() == self.shared.authorized.key_data() {
            Ok(Auth::Accept)
        } else {
            Ok(Auth::reject())
        }
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.channels.insert(channel.id(), channel);
        reply.accept().await;
        Ok(())
    }

    async fn exec_request(
        &mut self,
        id: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let asked = git_command(&String::from_utf8_lossy(data));
        let (Some(channel), Some((program, repository))) = (self.channels.remove(&id), asked)
        else {
            return session.channel_failure(id);
        };
        session.channel_success(id)?;
        tokio::spawn(run_git(self.shared.clone(), channel, program, repository));
        Ok(())
    }
}

/// Runs `program` on `repository` with `channel` as its stdin and stdout, then reports its
/// exit code and closes the channel.
async fn run_git(shared: Arc<Shared>, channel: Channel<Msg>, program: String, repository: String) {
    let folder = shared.root.join(repository.trim_start_matches('/'));
    let child = tokio::process::Command::new(&program)
        .arg(&folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let (reading, writing) = channel.split();
    let exit = match child {
        Err(_) => 127,
        Ok(mut child) => {
            let (Some(mut stdin), Some(mut stdout)) = (child.stdin.take(), child.stdout.take())
            else {
                return;
            };
            let mut to_client = writing.make_writer();
            let feeding = tokio::spawn(async move {
                let mut reading = reading;
                let mut incoming = reading.make_reader();
                let _ = tokio::io::copy(&mut incoming, &mut stdin).await;
            });
            // The program ends the exchange: once all it wrote is sent, what the client may
            // still send is of no use.
            let _ = tokio::io::copy(&mut stdout, &mut to_client).await;
            let _ = tokio::io::AsyncWriteExt::flush(&mut to_client).await;
            feeding.abort();
            child.wait().await.ok().and_then(|s| s.code()).unwrap_or(-1)
        }
    };
    shared
        .ran
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Ran {
            program,
            repository,
            exit,
        });
    let _ = writing.exit_status(u32::try_from(exit).unwrap_or(1)).await;
    let _ = writing.eof().await;
    let _ = writing.close().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_git_s_two_programs_on_a_plain_repository_path_are_run() {
        assert_eq!(
            git_command("git-upload-pack '/team.git'"),
            Some(("git-upload-pack".into(), "/team.git".into()))
        );
        assert_eq!(
            git_command("git-receive-pack '/team.git'").map(|c| c.0),
            Some("git-receive-pack".into())
        );
        assert_eq!(git_command("rm -rf '/team.git'"), None);
        assert_eq!(git_command("git-upload-pack '/../etc'"), None);
        assert_eq!(git_command("git-upload-pack"), None);
    }
}
