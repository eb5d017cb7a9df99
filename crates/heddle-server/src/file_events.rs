//! `GET /api/watch_workflow?path=FILE`: changes to a workflow file made outside the editor,
//! as Server-Sent Events. A `ready` event says the watch is in place; each `changed` event
//! carries a `WorkflowChanged`. Closing the stream stops the watch. At most
//! `WorkflowWatches::DEFAULT_LIMIT` streams run at once; one more is refused (`busy`).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, StreamExt};
use heddle_api::WorkflowWatch;
use serde::Deserialize;

use crate::operations::ApiResponse;
use crate::router::AppState;

/// The query of the watch route.
#[derive(Debug, Deserialize)]
pub struct WatchQuery {
    /// Path of the workflow file to watch; it need not exist yet.
    path: String,
}

/// The route's handler.
pub async fn watch_workflow(
    State(state): State<AppState>,
    Query(query): Query<WatchQuery>,
) -> Response {
    match state.watches.watch(&query.path) {
        Ok(watch) => {
            let ready = stream::once(async {
                Ok::<_, Infallible>(Event::default().event("ready").data("{}"))
            });
            Sse::new(ready.chain(changes(watch)))
                .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
                .into_response()
        }
        Err(error) => ApiResponse::<()>(Err(error)).into_response(),
    }
}

fn changes(watch: WorkflowWatch) -> impl futures_util::Stream<Item = Result<Event, Infallible>> {
    stream::unfold(watch, |mut watch| async move {
        let change = watch.next_change().await?;
        let data = serde_json::to_string(&change).unwrap_or_default();
        Some((Ok(Event::default().event("changed").data(data)), watch))
    })
}
