// The one list of Heddle's API operations; see `operations.rs` for what each part means.
// This file holds only the macro so that src-tauri's build.rs can `include!` it to learn the
// command names at build time (no inner doc comment or `use` here for that reason).

/// Calls `$callback! { ... }` with every API operation, in this shape:
///
/// ```text
/// /// What it does (one or more doc lines).
/// name(RequestType) -> ResponseType: kind(argument);
/// ```
///
/// `name` is the operation's name on every door (the Tauri command, `POST /api/{name}`, the
/// docs); the request is empty for an operation that takes none; for a stream the response
/// is the type of each item. `kind` says how the operation is called and served:
///
/// | kind | heddle-api | HTTP | Tauri |
/// |---|---|---|---|
/// | `blocking(f)` | `f(&Req) -> Result<Res, ApiError>`, file or git I/O | `POST /api/{name}` | command off the UI thread |
/// | `pure(f)` | `f(&Req) -> Res` or `f() -> Res`, no I/O | `POST /api/{name}` | command |
/// | `host(m)` | `RunHost::m(&self, &Req) -> Result<Res, ApiError>` | `POST /api/{name}` | command off the UI thread |
/// | `host_async(m)` | `async RunHost::m(&self, Req) -> Result<Res, ApiError>` | `POST /api/{name}` | async command |
/// | `launch` | the door's own `LaunchInfo` | `POST /api/{name}` | command |
/// | `events(path)` | `RunHost::events` (an `EventFeed`) | SSE at `GET /api{path}` | command streaming to a channel |
/// | `watch(path)` | `WorkflowWatches::watch` | SSE at `GET /api{path}` | command streaming to a channel |
/// | `unwatch` | stops a `watch` | — (closing the stream stops it) | command |
/// | `download` | `RunHost::save_run_file` into the desktop's Downloads | — (the browser downloads) | command |
/// | `changes(path)` | the run index's change feed | SSE at `GET /api{path}` | — |
/// | `file(path)` | `RunHost::run_file` | `GET /api{path}` | the `heddle-run://` scheme |
///
/// A door expands the kinds it can serve generically and names a hand-written adapter for the
/// others, so an operation added here without its adapter does not compile.
///
/// To add an operation: write it in heddle-api (a function or a `RunHost` method), add one
/// line here, add its request and response types to `tests/bindings.rs` if they are new, run
/// `HEDDLE_UPDATE_BINDINGS=1 cargo nextest run -p heddle-api -E 'binary(bindings)'`, and add
/// a row to docs/api.md's Operations tables. The Tauri command, its permission, the window's
/// capability (src-tauri/build.rs), the HTTP route and the UI's `Api` method follow; a test
/// fails until the docs list it.
#[macro_export]
macro_rules! for_each_operation {
    ($callback:ident) => {
        $callback! {
            /// What the command line asked the app to show at start-up.
            launch_info() -> $crate::LaunchInfo: launch;
            /// Reads, parses and validates a workflow file.
            open_workflow($crate::OpenWorkflowRequest) -> $crate::OpenedWorkflow:
                blocking($crate::open_workflow);
            /// Parses and validates unsaved workflow text.
            check_workflow($crate::CheckWorkflowRequest) -> $crate::OpenedWorkflow:
                blocking($crate::check_workflow);
            /// Lists the workflow files under a folder.
            list_workflows($crate::ListWorkflowsRequest) -> Vec<$crate::WorkflowEntry>:
                blocking($crate::list_workflows);
            /// Applies structured edits to workflow text as minimal changes (nothing is written).
            edit_workflow($crate::EditWorkflowRequest) -> $crate::OpenedWorkflow:
                blocking($crate::edit_workflow);
            /// Writes workflow text to its file; `changed_on_disk` if the file changed since it was read.
            save_workflow($crate::SaveWorkflowRequest) -> $crate::OpenedWorkflow:
                blocking($crate::save_workflow);
            /// Reads a workflow's layout sidecar (the node positions a person set).
            read_layout($crate::WorkflowPathRequest) -> $crate::WorkflowLayout:
                blocking($crate::read_layout);
            /// Writes a workflow's layout sidecar (a JSON object; anything else is refused).
            save_layout($crate::SaveLayoutRequest) -> $crate::WorkflowLayout:
                blocking($crate::save_layout);
            /// The start of the file an `@path` value refers to, resolved as a run would.
            read_reference($crate::ReadReferenceRequest) -> $crate::ReferencedFile:
                blocking($crate::read_reference);
            /// Problems in a condition or model stylesheet as it is typed (none when it parses).
            check_expression($crate::CheckExpressionRequest) -> Vec<$crate::ExpressionProblem>:
                pure($crate::check_expression);
            /// The templates a new workflow can start from.
            list_templates() -> Vec<$crate::WorkflowTemplate>: pure($crate::list_templates);
            /// Writes a new workflow from a template; `already_exists` rather than overwrite.
            create_workflow($crate::CreateWorkflowRequest) -> $crate::OpenedWorkflow:
                blocking($crate::create_workflow);
            /// Streams changes to a workflow file made by anyone until the watch is stopped.
            watch_workflow($crate::WatchWorkflowRequest) -> $crate::WorkflowChanged:
                watch("/watch_workflow");
            /// Stops a watch `watch_workflow` started (the desktop window's channels cannot tell).
            unwatch_workflow($crate::WatchWorkflowRequest) -> (): unwatch;
            /// Starts a run of a workflow file; `untrusted_workflow` unless trusted or `trust` is set.
            start_run($crate::StartRunRequest) -> $crate::RunStarted: host_async(start);
            /// What running a workflow will do, and whether it may run without asking.
            workflow_trust($crate::WorkflowTrustRequest) -> $crate::WorkflowTrust:
                host(workflow_trust);
            /// Continues a stopped run, under a new budget if one is given.
            resume_run($crate::ResumeRunRequest) -> $crate::RunStarted: host_async(resume);
            /// Starts a new run from a checkpoint of another.
            fork_run($crate::ForkRequest) -> $crate::RunStarted: host_async(fork);
            /// Cancels a running run, whichever process executes it.
            cancel_run($crate::RunRef) -> (): host_async(cancel);
            /// The human gates of a run waiting for an answer.
            pending_gates($crate::RunRef) -> Vec<$crate::PendingGate>:
                host_async(pending_gates);
            /// Answers a waiting gate.
            answer_gate($crate::AnswerGateRequest) -> (): host_async(answer_gate);
            /// Queues a run for a worker of the run queue (the request `start_run` takes, for a
            /// workflow committed in a git repository); the entry.
            enqueue_run($crate::StartRunRequest) -> $crate::index::QueueEntry: host_async(enqueue);
            /// Cancels a queue entry: a waiting one never runs; a held one's run is cancelled.
            cancel_queued($crate::QueueEntryRef) -> $crate::index::QueueEntry:
                host_async(cancel_queued);
            /// The run queue (waiting, held and recently finished entries) and its workers.
            run_queue($crate::RunQueueRequest) -> $crate::RunQueue: host_async(run_queue);
            /// Runs from the index, newest first, filtered and paged.
            list_runs($crate::ListRunsRequest) -> $crate::index::RunPage: host_async(list_runs);
            /// One run from the index.
            get_run($crate::RunRef) -> $crate::index::RunRecord: host_async(run);
            /// A run's timeline from the index.
            run_timeline($crate::RunRef) -> $crate::index::Timeline: host_async(timeline);
            /// A page of a run's events from the index: after a seq, or from a moment.
            run_events($crate::RunEventsRequest) -> $crate::RunEventPage: host_async(event_page);
            /// Workflows opened recently, newest first.
            recent_workflows($crate::RecentWorkflowsRequest) -> Vec<$crate::index::RecentWorkflow>:
                host_async(recent_workflows);
            /// A run's checkpoints across every timeline.
            run_checkpoints($crate::RunRef) -> Vec<$crate::checkpoint::CheckpointEntry>:
                host_async(checkpoints);
            /// The files at a checkpoint.
            checkpoint_files($crate::CheckpointRef) -> Vec<$crate::checkpoint::TreeFile>:
                host_async(checkpoint_files);
            /// One file at a checkpoint.
            checkpoint_file($crate::CheckpointFileRequest) -> $crate::CheckpointFile:
                host_async(checkpoint_file);
            /// The run's saved state at a checkpoint: next node, nodes completed, its context.
            checkpoint_state($crate::CheckpointRef) -> $crate::CheckpointState:
                host_async(checkpoint_state);
            /// The diff between two checkpoints.
            checkpoint_diff($crate::DiffRequest) -> $crate::checkpoint::CheckpointDiff:
                host_async(diff);
            /// Rolls a stopped run back to a checkpoint.
            rollback_run($crate::RollbackRequest) -> $crate::checkpoint::RollbackReport:
                host_async(rollback);
            /// A run's captured artifacts.
            run_artifacts($crate::RunRef) -> Vec<$crate::ListedArtifact>: host_async(artifacts);
            /// A JUnit XML file of the run, parsed; refused with `wrong_kind` saying where it is
            /// malformed.
            junit_report($crate::RunFileRequest) -> $crate::JUnitReport: host(junit_report);
            /// A patch file the run wrote (a stage's `diff.patch`) as files and hunks.
            run_patch($crate::RunFileRequest) -> $crate::checkpoint::PatchFiles: host(run_patch);
            /// The workflow the run keeps in its folder (`graph.dot`), as the run parsed it and its
            /// screen draws it: node attributes cut to those a node's card shows, no file text.
            run_graph($crate::RunRef) -> $crate::RunWorkflow: host_async(run_graph);
            /// Removes what deleted runs left: their refs in every checkpoint repository, the
            /// objects only they used in shadow repositories (one pack after), unreferenced blobs.
            collect_garbage($crate::GarbageRequest) -> $crate::GarbageReport:
                host_async(collect_garbage);
            /// Saves a copy of a run's file into the user's Downloads folder and says where.
            save_run_file($crate::RunFileRequest) -> $crate::SavedRunFile: download;
            /// Serves one of a run's files (an artifact or a stage folder's file), range requests included.
            run_file($crate::RunFileRequest) -> $crate::ServedFile:
                file("/runs/{run}/{area}/{*path}");
            /// Streams a run's events after a seq, each once and in order, until the run ends.
            follow_events($crate::EventsRequest) -> serde_json::Value: events("/events");
            /// Streams every change to the run index (any process's runs) from now on.
            run_changes() -> $crate::index::RunChange: changes("/run_changes");
        }
    };
}
