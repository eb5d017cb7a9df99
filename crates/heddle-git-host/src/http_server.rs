//! [`GitHttp`]: the server's lifetime (its own thread and tokio runtime, bound to 127.0.0.1
//! on a free port), its one user and password, and the requests it answered.

use std::future::IntoFuture;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::Response;
use base64::Engine;

use crate::backend::{CgiRequest, plain, run_backend};
use crate::loopback::Loopback;
use crate::tls::{TlsFiles, TlsListener};

/// A request the server answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// `GET` or `POST`.
    pub method: String,
    /// The path, like `/team.git/info/refs`.
    pub path: String,
    /// The status it answered with (401 when the credentials were missing or wrong).
    pub status: u16,
}

struct Shared {
    root: PathBuf,
    /// `Basic base64(user:password)`, as the `Authorization` header must be.
    expected: String,
    user: String,
    served: Mutex<Vec<Served>>,
}

/// A git server on loopback over the bare repositories under one folder; dropping it stops it.
pub struct GitHttp {
    base: String,
    shared: Arc<Shared>,
    _server: Loopback,
}

impl GitHttp {
    /// Serves the repositories under `root` over plain HTTP to `user` with `password`.
    pub fn start(root: &Path, user: &str, password: &str) -> io::Result<GitHttp> {
        GitHttp::launch(root, user, password, None)
    }

    /// Serves the repositories under `root` over HTTPS with `tls`'s certificate.
    pub fn start_tls(
        root: &Path,
        user: &str,
        password: &str,
        tls: &TlsFiles,
    ) -> io::Result<GitHttp> {
        GitHttp::launch(root, user, password, Some(tls))
    }

    fn launch(
        root: &Path,
        user: &str,
        password: &str,
        tls: Option<&TlsFiles>,
    ) -> io::Result<GitHttp> {
        let secret = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        let shared = Arc::new(Shared {
            root: root.to_path_buf(),
            expected: format!("Basic {secret}"),
            user: user.to_string(),
            served: Mutex::new(Vec::new()),
        });
        let acceptor = tls.map(TlsFiles::acceptor).transpose()?;
        let scheme = if acceptor.is_some() { "https" } else { "http" };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let app = Router::new().fallback(answer).with_state(shared.clone());
        let server = Loopback::start("git-http", runtime, move |listener| async move {
            // The server only ends with an I/O error, which the test sees as a refused request.
            let _ = match acceptor {
                Some(acceptor) => {
                    let tls = TlsListener::new(listener, acceptor);
                    axum::serve(tls, app).into_future().await
                }
                None => axum::serve(listener, app).into_future().await,
            };
        })?;
        Ok(GitHttp {
            base: format!("{scheme}://127.0.0.1:{}", server.port),
            shared,
            _server: server,
        })
    }

    /// The URL of repository `name` (a folder under the root, like `team.git`).
    pub fn url(&self, name: &str) -> String {
        format!("{}/{name}", self.base)
    }

    /// The URL of repository `name` with the user and password written in it.
    pub fn url_with_password(&self, name: &str, user: &str, password: &str) -> String {
        let (scheme, rest) = self.base.split_once("://").unwrap_or(("http", &self.base));
        format!("{scheme}://{user}:{password}@{rest}/{name}")
    }

    /// The requests answered so far, in order.
    pub fn served(&self) -> Vec<Served> {
        self.shared
            .served
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

async fn answer(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let authorised = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == shared.expected);
    let response = if authorised {
        let request = CgiRequest {
            method: &method,
            path: uri.path(),
            query: uri.query().unwrap_or_default(),
            headers: &headers,
            body,
            user: &shared.user,
        };
        run_backend(&shared.root, request).await
    } else {
        let mut refused = plain(StatusCode::UNAUTHORIZED, "credentials needed\n".into());
        refused.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            header::HeaderValue::from_static("Basic realm=\"heddle test remote\""),
        );
        refused
    };
    shared
        .served
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Served {
            method: method.to_string(),
            path: uri.path().to_string(),
            status: response.status().as_u16(),
        });
    response
}
