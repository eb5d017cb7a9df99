//! `GET /api/events?run=ID[&after=SEQ]`: a run's events as Server-Sent Events. Each event's
//! SSE id is its `seq`, so a client that reconnects with `Last-Event-ID` continues right
//! after the last event it saw: nothing lost, nothing twice. The stream ends with an
//! `end` event once the run has ended, or a `failed` event (an `ApiError`) when the events
//! cannot be read.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use heddle_api::EventFeed;
use serde::Deserialize;

use crate::operations::ApiResponse;
use crate::router::AppState;

/// The query of the events route.
#[derive(Debug, Deserialize)]
pub struct EventsQuery {
    /// The run (id, prefix or folder).
    run: String,
    /// Start after this seq (`Last-Event-ID` wins when both are given).
    #[serde(default)]
    after: u64,
}

/// The route's handler.
pub async fn follow_events(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<EventsQuery>,
) -> Response {
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(query.after);
    match state.host.events(&query.run, after).await {
        Ok(feed) => Sse::new(sse_stream(feed))
            .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
            .into_response(),
        Err(error) => ApiResponse::<()>(Err(error)).into_response(),
    }
}

enum Step {
    Feed(EventFeed, VecDeque<Event>),
    Done,
}

fn sse_stream(feed: EventFeed) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(Step::Feed(feed, VecDeque::new()), |step| async move {
        let Step::Feed(mut feed, mut queued) = step else {
            return None;
        };
        loop {
            if let Some(event) = queued.pop_front() {
                return Some((Ok(event), Step::Feed(feed, queued)));
            }
            match feed.next_batch().await {
                Some(Ok(batch)) => {
                    queued.extend(batch.into_iter().map(|value| {
                        let seq = value["seq"].as_u64().unwrap_or(0);
                        Event::default().id(seq.to_string()).data(value.to_string())
                    }));
                }
                Some(Err(error)) => {
                    let body = serde_json::to_string(&error).unwrap_or_default();
                    return Some((Ok(Event::default().event("failed").data(body)), Step::Done));
                }
                None => {
                    let end = Event::default()
                        .event("end")
                        .data(format!("{{\"last_seq\":{}}}", feed.last_seq()));
                    return Some((Ok(end), Step::Done));
                }
            }
        }
    })
}

/// `GET /api/run_changes`: every change to the run index from now on (a run started,
/// progressed, ended or was removed, by any process), as SSE `data` of a `RunChange`, so a
/// run list can refresh what changed instead of polling. A client that falls behind gets a
/// `lagged` event and should reload its list.
pub async fn run_changes(State(state): State<AppState>) -> Response {
    let changes = state.host.index().subscribe();
    let stream = stream::unfold(changes, |mut changes| async move {
        let event = match changes.recv().await {
            Ok(change) => Event::default().data(serde_json::to_string(&change).unwrap_or_default()),
            Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
                Event::default().event("lagged").data(missed.to_string())
            }
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
        };
        Some((Ok::<_, Infallible>(event), changes))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}
