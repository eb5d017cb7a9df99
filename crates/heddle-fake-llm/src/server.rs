//! [`FakeLlm`]: the server's lifetime (its own thread and tokio runtime, bound to
//! 127.0.0.1 on a free port), its script queue and the requests it recorded.

use std::collections::VecDeque;
use std::future::IntoFuture;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use axum::routing::post;
use axum::serve::ListenerExt;
use serde_json::Value as Json;

use crate::respond::{Dialect, not_found, respond};
use crate::script::Scripted;
use crate::sse_frame::Ids;

/// A request the fake received.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    /// The path, like `/v1/messages`.
    pub path: String,
    /// The query string without `?` (`alt=sse`), empty when there was none.
    pub query: String,
    /// The headers, names lowercase, in arrival order.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (a JSON string holding the text when it was not JSON).
    pub body: Json,
}

impl RecordedRequest {
    pub(crate) fn new(uri: &Uri, headers: &HeaderMap, body: Json) -> Self {
        RecordedRequest {
            path: uri.path().to_owned(),
            query: uri.query().unwrap_or_default().to_owned(),
            headers: headers
                .iter()
                .map(|(name, value)| {
                    let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                    (name.as_str().to_ascii_lowercase(), value)
                })
                .collect(),
            body,
        }
    }

    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// State the handlers share with the [`FakeLlm`] handle.
#[derive(Default)]
pub(crate) struct Shared {
    script: Mutex<VecDeque<Scripted>>,
    requests: Mutex<Vec<RecordedRequest>>,
    arrived: Condvar,
    /// Ids for messages and tool calls.
    pub(crate) ids: Ids,
    /// Frames are sent back to back instead of a millisecond apart (benchmarks).
    pub(crate) no_frame_gap: std::sync::atomic::AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// Records a request; returns its number (1 for the first).
    pub(crate) fn record(&self, request: RecordedRequest) -> usize {
        let mut requests = lock(&self.requests);
        requests.push(request);
        self.arrived.notify_all();
        requests.len()
    }

    /// The next scripted answer.
    pub(crate) fn next_scripted(&self) -> Option<Scripted> {
        lock(&self.script).pop_front()
    }
}

/// A loopback fake LLM server for tests. Answers `POST /v1/messages` (Anthropic),
/// `POST /v1/responses` (OpenAI Responses), `POST /v1/chat/completions` and
/// `POST /v1/models/MODEL:streamGenerateContent?alt=sse` (Gemini; also under `/v1beta`) with
/// the scripted items in order, whichever endpoint asks. Dropping it stops the server.
pub struct FakeLlm {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for FakeLlm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeLlm").field("addr", &self.addr).finish()
    }
}

impl FakeLlm {
    /// Starts a server on 127.0.0.1 with an empty script.
    ///
    /// # Panics
    ///
    /// When it cannot bind a loopback port or start its runtime (see [`FakeLlm::try_start`]).
    #[allow(clippy::panic)]
    pub fn start() -> FakeLlm {
        match FakeLlm::try_start() {
            Ok(fake) => fake,
            Err(error) => panic!("cannot start the fake LLM server: {error}"),
        }
    }

    /// Starts a server on 127.0.0.1 with an empty script.
    pub fn try_start() -> io::Result<FakeLlm> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared::default());
        let app = router(Arc::clone(&shared));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ready, is_ready) = std::sync::mpsc::channel::<io::Result<()>>();
        let thread = std::thread::Builder::new()
            .name("heddle-fake-llm".to_owned())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(error) => {
                        let _ = ready.send(Err(error));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => listener,
                        Err(error) => {
                            let _ = ready.send(Err(error));
                            return;
                        }
                    };
                    let _ = ready.send(Ok(()));
                    tokio::select! {
                        // Without TCP_NODELAY each small SSE frame after the first waits
                        // for the client's delayed ACK (about 40 ms on Linux).
                        _ = axum::serve(
                            listener.tap_io(|tcp| {
                                let _ = tcp.set_nodelay(true);
                            }),
                            app,
                        )
                        .into_future() => {}
                        _ = stopped => {}
                    }
                });
                // Dropping the runtime here ends every open (stalled) connection.
            })?;
        is_ready
            .recv()
            .map_err(|_| io::Error::other("the fake LLM server thread ended early"))??;
        Ok(FakeLlm {
            addr,
            shared,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT/v1`, the base URL to give a client.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Appends one answer to the script.
    pub fn push(&self, item: impl Into<Scripted>) {
        lock(&self.shared.script).push_back(item.into());
    }

    /// Appends answers to the script, in order.
    pub fn script(&self, items: impl IntoIterator<Item = Scripted>) {
        lock(&self.shared.script).extend(items);
    }

    /// Sends stream frames back to back, without the millisecond between them that makes
    /// deltas arrive in separate chunks; for benchmarks, where the server's own time should
    /// be as small as it can be.
    pub fn without_frame_gap(&self) {
        self.shared
            .no_frame_gap
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// How many scripted answers are left.
    pub fn remaining(&self) -> usize {
        lock(&self.shared.script).len()
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// Waits until `count` requests have arrived or `timeout` passes, then returns the
    /// requests received (fewer than `count` after a timeout). It blocks the thread: in an
    /// async test call it once the client is done, or from `spawn_blocking`.
    pub fn wait_for_requests(&self, count: usize, timeout: Duration) -> Vec<RecordedRequest> {
        let deadline = Instant::now() + timeout;
        let mut requests = lock(&self.shared.requests);
        while requests.len() < count {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            requests = self
                .shared
                .arrived
                .wait_timeout(requests, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        requests.clone()
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/v1/messages", post(anthropic))
        .route("/v1/responses", post(responses))
        .route("/v1/chat/completions", post(chat))
        .route("/v1/models/{*model_and_method}", post(gemini))
        .route("/v1beta/models/{*model_and_method}", post(gemini))
        .fallback(fallback)
        .with_state(shared)
}

async fn anthropic(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    respond(shared, Dialect::Anthropic, uri, headers, body).await
}

async fn responses(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    respond(shared, Dialect::Responses, uri, headers, body).await
}

async fn chat(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    respond(shared, Dialect::Chat, uri, headers, body).await
}

async fn gemini(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    respond(shared, Dialect::Gemini, uri, headers, body).await
}

async fn fallback(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    not_found(shared, uri, headers, body).await
}
