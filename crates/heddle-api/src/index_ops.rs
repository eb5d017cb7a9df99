//! Reading the run index (heddle-store): runs filtered and paged, one run, its timeline,
//! its events a page at a time, and recently opened workflows. The index follows every run folder through a watcher, so
//! runs started anywhere (another CLI, another window) show up here.

use heddle_store::{RecentWorkflow, RunPage, RunRecord, StoreError, Timeline};

use crate::error::{ApiError, ErrorCode};
use crate::run_library::RunLibrary;
use crate::run_types::{
    ListRunsRequest, RecentWorkflowsRequest, RunEventPage, RunEventsRequest, RunRef,
};

impl RunLibrary {
    /// Runs, newest first, filtered and paged.
    pub async fn list_runs(&self, request: ListRunsRequest) -> Result<RunPage, ApiError> {
        Ok(self
            .index()
            .list_runs(&request.filter, &request.page)
            .await?)
    }

    /// One run (id, unique prefix or folder), with the inputs its manifest.json records.
    pub async fn run(&self, request: RunRef) -> Result<RunRecord, ApiError> {
        let mut record = self.index().run(&request.run_id).await?;
        if let Ok(manifest) = heddle_engine::RunDir::at(&record.folder).read_manifest() {
            record.inputs = manifest.inputs;
        }
        Ok(record)
    }

    /// A run's stages on a time axis, with retries, parallel lanes and human waits.
    pub async fn timeline(&self, request: RunRef) -> Result<Timeline, ApiError> {
        Ok(self.index().timeline(&request.run_id).await?)
    }

    /// A page of a run's events (see [`RunEventsRequest`]), each in the envelope the event
    /// stream hands out.
    pub async fn event_page(&self, request: RunEventsRequest) -> Result<RunEventPage, ApiError> {
        let limit = request.limit.clamp(1, heddle_store::MAX_PAGE_EVENTS);
        let after = i64::try_from(request.after_seq).unwrap_or(i64::MAX);
        // One more than asked says whether more follow.
        let mut records = self
            .index()
            .events_page(&request.run_id, after, request.since.as_deref(), limit + 1)
            .await?;
        let more = records.len() > limit as usize;
        records.truncate(limit as usize);
        let run_id = match records.first() {
            Some(_) => self.index().run(&request.run_id).await?.id,
            None => String::new(),
        };
        let events = records
            .into_iter()
            .map(|record| crate::index_feed::envelope_of(&run_id, record))
            .collect();
        Ok(RunEventPage { events, more })
    }

    /// Workflows opened recently, newest first.
    pub async fn recent_workflows(
        &self,
        request: RecentWorkflowsRequest,
    ) -> Result<Vec<RecentWorkflow>, ApiError> {
        Ok(self.index().recent_workflows(request.limit).await?)
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        let code = match &error {
            StoreError::RunNotFound { .. } => ErrorCode::NotFound,
            StoreError::AmbiguousRun { .. } => ErrorCode::Ambiguous,
            StoreError::InvalidTime { .. } => ErrorCode::InvalidRequest,
            StoreError::Io { .. } | StoreError::Watch { .. } => ErrorCode::Io,
            StoreError::LeaseLost { .. } => ErrorCode::Busy,
            StoreError::Open { .. }
            | StoreError::Database { .. }
            | StoreError::CorruptEvent { .. }
            | StoreError::Checkpoints { .. } => ErrorCode::Storage,
        };
        ApiError::new(code, error.to_string())
    }
}
