//! Reaching a team's git remote over the network: the credentials a worker offers (its
//! ssh-agent, its default SSH keys, git's credential helpers, or a user and token written in
//! an `https://` URL), how a remote is shown to people (never with its password), and what an
//! error from the transport tells the person who has to fix it.
//!
//! Nothing here prompts: a worker runs unattended, so a remote it cannot reach with what the
//! machine already has fails at once with the reason. SSH host keys are checked against
//! `~/.ssh/known_hosts` by libgit2; an unknown host is refused, never trusted on first use.

use auth_git2::GitAuthenticator;
use git2::{ErrorClass, ErrorCode, RemoteCallbacks};

/// The credentials offered to a network remote, tried in order: the ssh-agent and the
/// default SSH keys (`~/.ssh/id_*`) for SSH, git's credential helpers for HTTPS. A user and
/// password written in an `https://` URL are used by libgit2 before any of these.
pub struct RemoteAccess {
    authenticator: GitAuthenticator,
}

impl RemoteAccess {
    /// What an unattended worker offers: everything the machine has, no prompts.
    pub fn unattended() -> RemoteAccess {
        RemoteAccess {
            authenticator: GitAuthenticator::new_empty()
                .try_ssh_agent(true)
                .add_default_ssh_keys()
                .add_default_username()
                .try_cred_helper(true),
        }
    }

    /// Callbacks that answer the remote's credential requests from `config` (the git
    /// configuration that names the credential helpers).
    pub fn callbacks<'a>(&'a self, config: &'a git2::Config) -> RemoteCallbacks<'a> {
        let mut callbacks = RemoteCallbacks::new();
        callbacks.credentials(self.authenticator.credentials(config));
        callbacks
    }
}

/// The git configuration a clone is made with (the user's and the system's; there is no
/// repository yet), or an empty one when the machine has none.
pub fn machine_config() -> Result<git2::Config, git2::Error> {
    git2::Config::open_default().or_else(|_| git2::Config::new())
}

/// `remote` as it may be shown and stored: a password (or token) in a URL is replaced by
/// `***`. Paths and scp-like `user@host:path` remotes have none and are shown as they are.
pub fn shown_remote(remote: &str) -> String {
    match url::Url::parse(remote) {
        Ok(mut parsed) if parsed.password().is_some() => {
            if parsed.set_password(Some("***")).is_ok() {
                parsed.to_string()
            } else {
                "(a remote with a password)".into()
            }
        }
        _ => remote.to_string(),
    }
}

/// What failed reaching `remote`, with what to do about it when the transport says enough.
pub fn remote_failure(remote: &str, error: &git2::Error) -> String {
    let shown = shown_remote(remote);
    let said = error.message().replace(remote, &shown);
    // The credentials callback gives up with a plain error; libgit2's own refusals are `Auth`.
    let refused =
        error.code() == ErrorCode::Auth || said.to_ascii_lowercase().contains("authentication");
    let hint = match (error.class(), error.code()) {
        _ if refused => Some(
            "the worker offers its ssh-agent, its default SSH keys (~/.ssh/id_*) and git's \
             credential helpers (credential.helper), or a token in the URL \
             (https://user:TOKEN@host/repo.git); none was accepted",
        ),
        (_, ErrorCode::Certificate) if error.class() == ErrorClass::Ssh => Some(
            "the SSH host key is not in ~/.ssh/known_hosts; check the host and add its key \
             (ssh-keyscan -p PORT HOST >> ~/.ssh/known_hosts)",
        ),
        (_, ErrorCode::Certificate) => Some(
            "the server's TLS certificate is not trusted; add its CA to the system's \
             certificates or point SSL_CERT_FILE at it",
        ),
        _ if said.contains("unsupported URL protocol") => Some(
            "no repository at that path, or a scheme Heddle cannot reach; a remote is a path \
             every worker reaches, or an ssh://, user@host:path, https:// or git:// URL",
        ),
        (ErrorClass::Http, _) if said.contains("401") || said.contains("403") => {
            Some("the server refused the credentials the worker offered")
        }
        _ => None,
    };
    match hint {
        Some(hint) => format!("{shown}: {said} ({hint})"),
        None => format!("{shown}: {said}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_a_url_is_never_shown() {
        assert_eq!(
            shown_remote("https://ci:s3cret@git.example.com/team.git"),
            "https://ci:***@git.example.com/team.git"
        );
        assert_eq!(
            shown_remote("https://ci@git.example.com/team.git"),
            "https://ci@git.example.com/team.git"
        );
        assert_eq!(
            shown_remote("git@github.com:team/repo.git"),
            "git@github.com:team/repo.git"
        );
        assert_eq!(shown_remote("/srv/git/team.git"), "/srv/git/team.git");
    }

    #[test]
    fn an_authentication_failure_says_what_was_offered_and_hides_the_token() {
        let remote = "https://ci:s3cret@git.example.com/team.git";
        let error = git2::Error::new(
            ErrorCode::Auth,
            ErrorClass::Http,
            format!("authentication failed for {remote}"),
        );
        let told = remote_failure(remote, &error);
        assert!(!told.contains("s3cret"), "{told}");
        assert!(told.contains("credential helpers"), "{told}");
        assert!(
            told.starts_with("https://ci:***@git.example.com/team.git: "),
            "{told}"
        );
    }

    #[test]
    fn a_path_with_no_repository_says_what_a_remote_can_be() {
        let error = git2::Error::new(
            ErrorCode::GenericError,
            ErrorClass::Net,
            "unsupported URL protocol",
        );
        let told = remote_failure("/srv/git/typo.git", &error);
        assert!(told.starts_with("/srv/git/typo.git: "), "{told}");
        assert!(told.contains("no repository at that path"), "{told}");
    }

    #[test]
    fn credentials_that_ran_out_say_what_was_offered() {
        let error = git2::Error::from_str("all authentication attempts failed");
        let told = remote_failure("ssh://git@example.com/team.git", &error);
        assert!(told.contains("ssh-agent"), "{told}");
    }

    #[test]
    fn an_unknown_ssh_host_names_known_hosts() {
        let error = git2::Error::new(
            ErrorCode::Certificate,
            ErrorClass::Ssh,
            "invalid or unknown remote ssh hostkey",
        );
        let told = remote_failure("ssh://git@127.0.0.1:2222/team.git", &error);
        assert!(told.contains("known_hosts"), "{told}");
    }
}
