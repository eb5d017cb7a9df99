//! The environment of `shell`: the caller's variables without secrets.

/// Name endings (compared without case) of the variables kept from the shell.
const SECRET_SUFFIXES: [&str; 4] = ["_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];

/// Whether the variable called `name` holds a secret: its name ends in `_API_KEY`,
/// `_TOKEN`, `_SECRET` or `_PASSWORD`, or is one of those words alone (`TOKEN`), in any
/// case.
pub(crate) fn is_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_SUFFIXES
        .iter()
        .any(|suffix| upper.ends_with(suffix) || upper == suffix[1..])
}

/// `base` without the secret variables.
pub(crate) fn shell_environment(base: &[(String, String)]) -> Vec<(String, String)> {
    base.iter()
        .filter(|(name, _)| !is_secret(name))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_by_name() {
        for name in [
            "OPENAI_API_KEY",
            "anthropic_api_key",
            "GITHUB_TOKEN",
            "Gh_Token",
            "AWS_SECRET",
            "DB_PASSWORD",
            "TOKEN",
            "api_key",
        ] {
            assert!(is_secret(name), "{name}");
        }
        for name in [
            "PATH",
            "HOME",
            "TOKENIZERS_PARALLELISM",
            "SECRETARY",
            "MY_KEY",
        ] {
            assert!(!is_secret(name), "{name}");
        }
    }
}
