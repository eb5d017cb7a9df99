//! Where the index lives: an SQLite file (the embedded default) or a PostgreSQL database
//! named by URL (a team's shared index), and how it is named in messages (never with its
//! password).

use std::path::PathBuf;

use crate::error::{Result, StoreError};

/// The index's database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexLocation {
    /// An SQLite file, created when missing.
    File(PathBuf),
    /// A PostgreSQL database (`postgres://` or `postgresql://` URL); it must exist.
    Postgres(String),
}

impl IndexLocation {
    /// The index a database URL names (`HEDDLE_DATABASE_URL`): `postgres://…` and
    /// `postgresql://…` a PostgreSQL database, `sqlite:PATH` a file; no URL (or an empty one)
    /// is `default_file`.
    pub fn choose(database_url: Option<&str>, default_file: PathBuf) -> Result<IndexLocation> {
        let Some(url) = database_url.map(str::trim).filter(|u| !u.is_empty()) else {
            return Ok(IndexLocation::File(default_file));
        };
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(IndexLocation::Postgres(url.to_string()));
        }
        if let Some(path) = url.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if !path.is_empty() {
                return Ok(IndexLocation::File(PathBuf::from(path)));
            }
        }
        Err(StoreError::Open {
            index: redact(url),
            message: "not a database URL Heddle can use: give postgres://user@host/database \
                      (a PostgreSQL database) or sqlite:/path/to/heddle.db"
                .to_string(),
        })
    }

    /// The index as messages name it: the file's path, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            IndexLocation::File(path) => path.display().to_string(),
            IndexLocation::Postgres(url) => redact(url),
        }
    }
}

impl From<PathBuf> for IndexLocation {
    fn from(path: PathBuf) -> Self {
        IndexLocation::File(path)
    }
}

impl From<&std::path::Path> for IndexLocation {
    fn from(path: &std::path::Path) -> Self {
        IndexLocation::File(path.to_path_buf())
    }
}

impl From<&PathBuf> for IndexLocation {
    fn from(path: &PathBuf) -> Self {
        IndexLocation::File(path.clone())
    }
}

impl From<&IndexLocation> for IndexLocation {
    fn from(location: &IndexLocation) -> Self {
        location.clone()
    }
}

/// `url` with the password of its user part (`user:password@`) replaced by `***`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let Some((user_info, host)) = authority.rsplit_once('@') else {
        return url.to_string();
    };
    match user_info.split_once(':') {
        Some((user, _password)) => format!("{scheme}://{user}:***@{host}{tail}"),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::PathBuf;

    use super::{IndexLocation, redact};

    #[test]
    fn a_url_picks_the_database_and_none_keeps_the_file() {
        let file = PathBuf::from("/home/me/.heddle/heddle.db");
        assert_eq!(
            IndexLocation::choose(None, file.clone()).unwrap(),
            IndexLocation::File(file.clone())
        );
        assert_eq!(
            IndexLocation::choose(Some("  "), file.clone()).unwrap(),
            IndexLocation::File(file.clone())
        );
        assert_eq!(
            IndexLocation::choose(Some("postgresql://db.team/heddle"), file.clone()).unwrap(),
            IndexLocation::Postgres("postgresql://db.team/heddle".into())
        );
        assert_eq!(
            IndexLocation::choose(Some("sqlite:///var/heddle/index.db"), file.clone()).unwrap(),
            IndexLocation::File("/var/heddle/index.db".into())
        );
        let refused = IndexLocation::choose(Some("mysql://u:pw@db/heddle"), file)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("mysql://u:***@db/heddle"), "{refused}");
        assert!(refused.contains("postgres://"), "{refused}");
    }

    #[test]
    fn messages_never_show_the_password() {
        assert_eq!(
            redact("postgres://heddle:s3cr@t@db.team:5432/heddle?sslmode=require"),
            "postgres://heddle:***@db.team:5432/heddle?sslmode=require"
        );
        assert_eq!(
            redact("postgres://heddle@127.0.0.1/postgres"),
            "postgres://heddle@127.0.0.1/postgres"
        );
        assert_eq!(
            IndexLocation::Postgres("postgres://a:b@h/d".into()).describe(),
            "postgres://a:***@h/d"
        );
    }
}
