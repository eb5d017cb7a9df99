//! The environment of `shell`: the caller's variables without secrets.

/// Words (compared without case) that mark a variable as a secret wherever they appear in
/// its name: `AWS_SECRET_ACCESS_KEY`, `GH_TOKEN`, `PGPASSWORD`, `KEYRING_PASS`, ...
const SECRET_WORDS: [&str; 6] = ["KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL"];

/// Whether the variable called `name` holds a secret: its name contains `KEY`, `SECRET`,
/// `TOKEN`, `PASSWORD`, `PASSWD` or `CREDENTIAL` anywhere, in any case. Erring towards
/// keeping a variable out: one the agent needs is let through by name with
/// `[shell] pass_env` in `heddle.toml`.
pub(crate) fn is_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_WORDS.iter().any(|word| upper.contains(word))
}

/// `base` without the secret variables, except those named in `pass_env` (exact names).
pub(crate) fn shell_environment(
    base: &[(String, String)],
    pass_env: &[String],
) -> Vec<(String, String)> {
    base.iter()
        .filter(|(name, _)| !is_secret(name) || pass_env.iter().any(|allowed| allowed == name))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_by_any_part_of_the_name() {
        for name in [
            "OPENAI_API_KEY",
            "anthropic_api_key",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "GITHUB_TOKEN",
            "Gh_Token",
            "TOKEN_FOR_CI",
            "DB_PASSWORD",
            "PGPASSWORD",
            "MYSQL_PASSWD",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "NPM_CONFIG__AUTHTOKEN",
            "SECRETS_FILE",
            "MY_KEY",
            "api_key",
        ] {
            assert!(is_secret(name), "{name}");
        }
        for name in ["PATH", "HOME", "LANG", "CARGO_HOME", "SSH_AUTH_SOCK"] {
            assert!(!is_secret(name), "{name}");
        }
    }

    #[test]
    fn pass_env_lets_named_variables_through() {
        let base = vec![
            ("PATH".to_owned(), "/bin".to_owned()),
            ("TOKENIZERS_PARALLELISM".to_owned(), "false".to_owned()),
            ("AWS_SECRET_ACCESS_KEY".to_owned(), "s3cr3t".to_owned()),
        ];
        let kept = shell_environment(&base, &["TOKENIZERS_PARALLELISM".to_owned()]);
        let names: Vec<&str> = kept.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["PATH", "TOKENIZERS_PARALLELISM"]);
    }
}
