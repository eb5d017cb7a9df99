// Generated from heddle_api::for_each_operation! by crates/heddle-api/tests/bindings/operations.rs. Do not edit.

import type { AnswerGateRequest } from './AnswerGateRequest';
import type { CheckExpressionRequest } from './CheckExpressionRequest';
import type { CheckWorkflowRequest } from './CheckWorkflowRequest';
import type { CheckpointDiff } from './CheckpointDiff';
import type { CheckpointEntry } from './CheckpointEntry';
import type { CheckpointFile } from './CheckpointFile';
import type { CheckpointFileRequest } from './CheckpointFileRequest';
import type { CheckpointRef } from './CheckpointRef';
import type { CheckpointState } from './CheckpointState';
import type { CreateWorkflowRequest } from './CreateWorkflowRequest';
import type { DiffRequest } from './DiffRequest';
import type { EditWorkflowRequest } from './EditWorkflowRequest';
import type { ExpressionProblem } from './ExpressionProblem';
import type { ForkRequest } from './ForkRequest';
import type { GarbageReport } from './GarbageReport';
import type { GarbageRequest } from './GarbageRequest';
import type { JUnitReport } from './JUnitReport';
import type { LaunchInfo } from './LaunchInfo';
import type { ListRunsRequest } from './ListRunsRequest';
import type { ListWorkflowsRequest } from './ListWorkflowsRequest';
import type { ListedArtifact } from './ListedArtifact';
import type { OpenWorkflowRequest } from './OpenWorkflowRequest';
import type { OpenedWorkflow } from './OpenedWorkflow';
import type { PatchFiles } from './PatchFiles';
import type { PendingGate } from './PendingGate';
import type { QueueEntry } from './QueueEntry';
import type { QueueEntryRef } from './QueueEntryRef';
import type { ReadReferenceRequest } from './ReadReferenceRequest';
import type { RecentWorkflow } from './RecentWorkflow';
import type { RecentWorkflowsRequest } from './RecentWorkflowsRequest';
import type { ReferencedFile } from './ReferencedFile';
import type { ResumeRunRequest } from './ResumeRunRequest';
import type { RollbackReport } from './RollbackReport';
import type { RollbackRequest } from './RollbackRequest';
import type { RunEventPage } from './RunEventPage';
import type { RunEventsRequest } from './RunEventsRequest';
import type { RunFileRequest } from './RunFileRequest';
import type { RunPage } from './RunPage';
import type { RunQueue } from './RunQueue';
import type { RunQueueRequest } from './RunQueueRequest';
import type { RunRecord } from './RunRecord';
import type { RunRef } from './RunRef';
import type { RunStarted } from './RunStarted';
import type { RunWorkflow } from './RunWorkflow';
import type { SaveLayoutRequest } from './SaveLayoutRequest';
import type { SaveWorkflowRequest } from './SaveWorkflowRequest';
import type { StartRunRequest } from './StartRunRequest';
import type { Timeline } from './Timeline';
import type { TreeFile } from './TreeFile';
import type { WorkflowEntry } from './WorkflowEntry';
import type { WorkflowLayout } from './WorkflowLayout';
import type { WorkflowPathRequest } from './WorkflowPathRequest';
import type { WorkflowTemplate } from './WorkflowTemplate';
import type { WorkflowTrust } from './WorkflowTrust';
import type { WorkflowTrustRequest } from './WorkflowTrustRequest';

/** The operations every door serves as one request and one answer, as `Api` methods. */
export interface RequestOperations {
  /** What the command line asked the app to show at start-up. */
  launchInfo(): Promise<LaunchInfo>;
  /** Reads, parses and validates a workflow file. */
  openWorkflow(req: OpenWorkflowRequest): Promise<OpenedWorkflow>;
  /** Parses and validates unsaved workflow text. */
  checkWorkflow(req: CheckWorkflowRequest): Promise<OpenedWorkflow>;
  /** Lists the workflow files under a folder. */
  listWorkflows(req: ListWorkflowsRequest): Promise<Array<WorkflowEntry>>;
  /** Applies structured edits to workflow text as minimal changes (nothing is written). */
  editWorkflow(req: EditWorkflowRequest): Promise<OpenedWorkflow>;
  /** Writes workflow text to its file; `changed_on_disk` if the file changed since it was read. */
  saveWorkflow(req: SaveWorkflowRequest): Promise<OpenedWorkflow>;
  /** Reads a workflow's layout sidecar (the node positions a person set). */
  readLayout(req: WorkflowPathRequest): Promise<WorkflowLayout>;
  /** Writes a workflow's layout sidecar (a JSON object; anything else is refused). */
  saveLayout(req: SaveLayoutRequest): Promise<WorkflowLayout>;
  /** The start of the file an `@path` value refers to, resolved as a run would. */
  readReference(req: ReadReferenceRequest): Promise<ReferencedFile>;
  /** Problems in a condition or model stylesheet as it is typed (none when it parses). */
  checkExpression(req: CheckExpressionRequest): Promise<Array<ExpressionProblem>>;
  /** The templates a new workflow can start from. */
  listTemplates(): Promise<Array<WorkflowTemplate>>;
  /** Writes a new workflow from a template; `already_exists` rather than overwrite. */
  createWorkflow(req: CreateWorkflowRequest): Promise<OpenedWorkflow>;
  /** Starts a run of a workflow file; `untrusted_workflow` unless trusted or `trust` is set. */
  startRun(req: StartRunRequest): Promise<RunStarted>;
  /** What running a workflow will do, and whether it may run without asking. */
  workflowTrust(req: WorkflowTrustRequest): Promise<WorkflowTrust>;
  /** Continues a stopped run, under a new budget if one is given. */
  resumeRun(req: ResumeRunRequest): Promise<RunStarted>;
  /** Starts a new run from a checkpoint of another. */
  forkRun(req: ForkRequest): Promise<RunStarted>;
  /** Cancels a running run, whichever process executes it. */
  cancelRun(req: RunRef): Promise<null>;
  /** The human gates of a run waiting for an answer. */
  pendingGates(req: RunRef): Promise<Array<PendingGate>>;
  /** Answers a waiting gate. */
  answerGate(req: AnswerGateRequest): Promise<null>;
  /** Queues a run for a worker of the run queue (the request `start_run` takes, for a workflow committed in a git repository); the entry. */
  enqueueRun(req: StartRunRequest): Promise<QueueEntry>;
  /** Cancels a queue entry: a waiting one never runs; a held one's run is cancelled. */
  cancelQueued(req: QueueEntryRef): Promise<QueueEntry>;
  /** The run queue (waiting, held and recently finished entries) and its workers. */
  runQueue(req: RunQueueRequest): Promise<RunQueue>;
  /** Runs from the index, newest first, filtered and paged. */
  listRuns(req: ListRunsRequest): Promise<RunPage>;
  /** One run from the index. */
  getRun(req: RunRef): Promise<RunRecord>;
  /** A run's timeline from the index. */
  runTimeline(req: RunRef): Promise<Timeline>;
  /** A page of a run's events from the index: after a seq, or from a moment. */
  runEvents(req: RunEventsRequest): Promise<RunEventPage>;
  /** Workflows opened recently, newest first. */
  recentWorkflows(req: RecentWorkflowsRequest): Promise<Array<RecentWorkflow>>;
  /** A run's checkpoints across every timeline. */
  runCheckpoints(req: RunRef): Promise<Array<CheckpointEntry>>;
  /** The files at a checkpoint. */
  checkpointFiles(req: CheckpointRef): Promise<Array<TreeFile>>;
  /** One file at a checkpoint. */
  checkpointFile(req: CheckpointFileRequest): Promise<CheckpointFile>;
  /** The run's saved state at a checkpoint: next node, nodes completed, its context. */
  checkpointState(req: CheckpointRef): Promise<CheckpointState>;
  /** The diff between two checkpoints. */
  checkpointDiff(req: DiffRequest): Promise<CheckpointDiff>;
  /** Rolls a stopped run back to a checkpoint. */
  rollbackRun(req: RollbackRequest): Promise<RollbackReport>;
  /** A run's captured artifacts. */
  runArtifacts(req: RunRef): Promise<Array<ListedArtifact>>;
  /** A JUnit XML file of the run, parsed; refused with `wrong_kind` saying where it is malformed. */
  junitReport(req: RunFileRequest): Promise<JUnitReport>;
  /** A patch file the run wrote (a stage's `diff.patch`) as files and hunks. */
  runPatch(req: RunFileRequest): Promise<PatchFiles>;
  /** The workflow the run keeps in its folder (`graph.dot`), as the run parsed it and its screen draws it: node attributes cut to those a node's card shows, no file text. */
  runGraph(req: RunRef): Promise<RunWorkflow>;
  /** Removes what deleted runs left: their refs in every checkpoint repository, the objects only they used in shadow repositories (one pack after), unreferenced blobs. */
  collectGarbage(req: GarbageRequest): Promise<GarbageReport>;
}

/** How each of them is called: the Tauri command (`name`, with `{ req }` when it takes a request) or `POST` to `path`. */
export const REQUEST_OPERATIONS = [
  { member: 'launchInfo', name: 'launch_info', path: '/api/launch_info', takesRequest: false },
  { member: 'openWorkflow', name: 'open_workflow', path: '/api/open_workflow', takesRequest: true },
  { member: 'checkWorkflow', name: 'check_workflow', path: '/api/check_workflow', takesRequest: true },
  { member: 'listWorkflows', name: 'list_workflows', path: '/api/list_workflows', takesRequest: true },
  { member: 'editWorkflow', name: 'edit_workflow', path: '/api/edit_workflow', takesRequest: true },
  { member: 'saveWorkflow', name: 'save_workflow', path: '/api/save_workflow', takesRequest: true },
  { member: 'readLayout', name: 'read_layout', path: '/api/read_layout', takesRequest: true },
  { member: 'saveLayout', name: 'save_layout', path: '/api/save_layout', takesRequest: true },
  { member: 'readReference', name: 'read_reference', path: '/api/read_reference', takesRequest: true },
  { member: 'checkExpression', name: 'check_expression', path: '/api/check_expression', takesRequest: true },
  { member: 'listTemplates', name: 'list_templates', path: '/api/list_templates', takesRequest: false },
  { member: 'createWorkflow', name: 'create_workflow', path: '/api/create_workflow', takesRequest: true },
  { member: 'startRun', name: 'start_run', path: '/api/start_run', takesRequest: true },
  { member: 'workflowTrust', name: 'workflow_trust', path: '/api/workflow_trust', takesRequest: true },
  { member: 'resumeRun', name: 'resume_run', path: '/api/resume_run', takesRequest: true },
  { member: 'forkRun', name: 'fork_run', path: '/api/fork_run', takesRequest: true },
  { member: 'cancelRun', name: 'cancel_run', path: '/api/cancel_run', takesRequest: true },
  { member: 'pendingGates', name: 'pending_gates', path: '/api/pending_gates', takesRequest: true },
  { member: 'answerGate', name: 'answer_gate', path: '/api/answer_gate', takesRequest: true },
  { member: 'enqueueRun', name: 'enqueue_run', path: '/api/enqueue_run', takesRequest: true },
  { member: 'cancelQueued', name: 'cancel_queued', path: '/api/cancel_queued', takesRequest: true },
  { member: 'runQueue', name: 'run_queue', path: '/api/run_queue', takesRequest: true },
  { member: 'listRuns', name: 'list_runs', path: '/api/list_runs', takesRequest: true },
  { member: 'getRun', name: 'get_run', path: '/api/get_run', takesRequest: true },
  { member: 'runTimeline', name: 'run_timeline', path: '/api/run_timeline', takesRequest: true },
  { member: 'runEvents', name: 'run_events', path: '/api/run_events', takesRequest: true },
  { member: 'recentWorkflows', name: 'recent_workflows', path: '/api/recent_workflows', takesRequest: true },
  { member: 'runCheckpoints', name: 'run_checkpoints', path: '/api/run_checkpoints', takesRequest: true },
  { member: 'checkpointFiles', name: 'checkpoint_files', path: '/api/checkpoint_files', takesRequest: true },
  { member: 'checkpointFile', name: 'checkpoint_file', path: '/api/checkpoint_file', takesRequest: true },
  { member: 'checkpointState', name: 'checkpoint_state', path: '/api/checkpoint_state', takesRequest: true },
  { member: 'checkpointDiff', name: 'checkpoint_diff', path: '/api/checkpoint_diff', takesRequest: true },
  { member: 'rollbackRun', name: 'rollback_run', path: '/api/rollback_run', takesRequest: true },
  { member: 'runArtifacts', name: 'run_artifacts', path: '/api/run_artifacts', takesRequest: true },
  { member: 'junitReport', name: 'junit_report', path: '/api/junit_report', takesRequest: true },
  { member: 'runPatch', name: 'run_patch', path: '/api/run_patch', takesRequest: true },
  { member: 'runGraph', name: 'run_graph', path: '/api/run_graph', takesRequest: true },
  { member: 'collectGarbage', name: 'collect_garbage', path: '/api/collect_garbage', takesRequest: true },
] as const;

/** One of `REQUEST_OPERATIONS`. */
export type RequestOperation = (typeof REQUEST_OPERATIONS)[number];

/**
 * Every operation: its kind in the table, how it is called, its HTTP route (`null`: desktop
 * only), whether the window has a Tauri command of its name, the `Api` member that calls it
 * (`null`: none), and its types (`null`: none, or not a generated type).
 */
export const OPERATIONS = [
  { name: 'launch_info', kind: 'launch', call: 'request', http: { method: 'POST', path: '/api/launch_info' }, tauriCommand: true, member: 'launchInfo', request: null, response: 'LaunchInfo' },
  { name: 'open_workflow', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/open_workflow' }, tauriCommand: true, member: 'openWorkflow', request: 'OpenWorkflowRequest', response: 'OpenedWorkflow' },
  { name: 'check_workflow', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/check_workflow' }, tauriCommand: true, member: 'checkWorkflow', request: 'CheckWorkflowRequest', response: 'OpenedWorkflow' },
  { name: 'list_workflows', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/list_workflows' }, tauriCommand: true, member: 'listWorkflows', request: 'ListWorkflowsRequest', response: 'Array<WorkflowEntry>' },
  { name: 'edit_workflow', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/edit_workflow' }, tauriCommand: true, member: 'editWorkflow', request: 'EditWorkflowRequest', response: 'OpenedWorkflow' },
  { name: 'save_workflow', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/save_workflow' }, tauriCommand: true, member: 'saveWorkflow', request: 'SaveWorkflowRequest', response: 'OpenedWorkflow' },
  { name: 'read_layout', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/read_layout' }, tauriCommand: true, member: 'readLayout', request: 'WorkflowPathRequest', response: 'WorkflowLayout' },
  { name: 'save_layout', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/save_layout' }, tauriCommand: true, member: 'saveLayout', request: 'SaveLayoutRequest', response: 'WorkflowLayout' },
  { name: 'read_reference', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/read_reference' }, tauriCommand: true, member: 'readReference', request: 'ReadReferenceRequest', response: 'ReferencedFile' },
  { name: 'check_expression', kind: 'pure', call: 'request', http: { method: 'POST', path: '/api/check_expression' }, tauriCommand: true, member: 'checkExpression', request: 'CheckExpressionRequest', response: 'Array<ExpressionProblem>' },
  { name: 'list_templates', kind: 'pure', call: 'request', http: { method: 'POST', path: '/api/list_templates' }, tauriCommand: true, member: 'listTemplates', request: null, response: 'Array<WorkflowTemplate>' },
  { name: 'create_workflow', kind: 'blocking', call: 'request', http: { method: 'POST', path: '/api/create_workflow' }, tauriCommand: true, member: 'createWorkflow', request: 'CreateWorkflowRequest', response: 'OpenedWorkflow' },
  { name: 'watch_workflow', kind: 'watch', call: 'stream', http: { method: 'GET', path: '/api/watch_workflow' }, tauriCommand: true, member: 'watchWorkflow', request: 'WatchWorkflowRequest', response: 'WorkflowChanged' },
  { name: 'unwatch_workflow', kind: 'unwatch', call: 'request', http: null, tauriCommand: true, member: null, request: 'WatchWorkflowRequest', response: 'null' },
  { name: 'start_run', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/start_run' }, tauriCommand: true, member: 'startRun', request: 'StartRunRequest', response: 'RunStarted' },
  { name: 'workflow_trust', kind: 'host', call: 'request', http: { method: 'POST', path: '/api/workflow_trust' }, tauriCommand: true, member: 'workflowTrust', request: 'WorkflowTrustRequest', response: 'WorkflowTrust' },
  { name: 'resume_run', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/resume_run' }, tauriCommand: true, member: 'resumeRun', request: 'ResumeRunRequest', response: 'RunStarted' },
  { name: 'fork_run', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/fork_run' }, tauriCommand: true, member: 'forkRun', request: 'ForkRequest', response: 'RunStarted' },
  { name: 'cancel_run', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/cancel_run' }, tauriCommand: true, member: 'cancelRun', request: 'RunRef', response: 'null' },
  { name: 'pending_gates', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/pending_gates' }, tauriCommand: true, member: 'pendingGates', request: 'RunRef', response: 'Array<PendingGate>' },
  { name: 'answer_gate', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/answer_gate' }, tauriCommand: true, member: 'answerGate', request: 'AnswerGateRequest', response: 'null' },
  { name: 'enqueue_run', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/enqueue_run' }, tauriCommand: true, member: 'enqueueRun', request: 'StartRunRequest', response: 'QueueEntry' },
  { name: 'cancel_queued', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/cancel_queued' }, tauriCommand: true, member: 'cancelQueued', request: 'QueueEntryRef', response: 'QueueEntry' },
  { name: 'run_queue', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/run_queue' }, tauriCommand: true, member: 'runQueue', request: 'RunQueueRequest', response: 'RunQueue' },
  { name: 'list_runs', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/list_runs' }, tauriCommand: true, member: 'listRuns', request: 'ListRunsRequest', response: 'RunPage' },
  { name: 'get_run', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/get_run' }, tauriCommand: true, member: 'getRun', request: 'RunRef', response: 'RunRecord' },
  { name: 'run_timeline', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/run_timeline' }, tauriCommand: true, member: 'runTimeline', request: 'RunRef', response: 'Timeline' },
  { name: 'run_events', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/run_events' }, tauriCommand: true, member: 'runEvents', request: 'RunEventsRequest', response: 'RunEventPage' },
  { name: 'recent_workflows', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/recent_workflows' }, tauriCommand: true, member: 'recentWorkflows', request: 'RecentWorkflowsRequest', response: 'Array<RecentWorkflow>' },
  { name: 'run_checkpoints', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/run_checkpoints' }, tauriCommand: true, member: 'runCheckpoints', request: 'RunRef', response: 'Array<CheckpointEntry>' },
  { name: 'checkpoint_files', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/checkpoint_files' }, tauriCommand: true, member: 'checkpointFiles', request: 'CheckpointRef', response: 'Array<TreeFile>' },
  { name: 'checkpoint_file', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/checkpoint_file' }, tauriCommand: true, member: 'checkpointFile', request: 'CheckpointFileRequest', response: 'CheckpointFile' },
  { name: 'checkpoint_state', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/checkpoint_state' }, tauriCommand: true, member: 'checkpointState', request: 'CheckpointRef', response: 'CheckpointState' },
  { name: 'checkpoint_diff', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/checkpoint_diff' }, tauriCommand: true, member: 'checkpointDiff', request: 'DiffRequest', response: 'CheckpointDiff' },
  { name: 'rollback_run', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/rollback_run' }, tauriCommand: true, member: 'rollbackRun', request: 'RollbackRequest', response: 'RollbackReport' },
  { name: 'run_artifacts', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/run_artifacts' }, tauriCommand: true, member: 'runArtifacts', request: 'RunRef', response: 'Array<ListedArtifact>' },
  { name: 'junit_report', kind: 'host', call: 'request', http: { method: 'POST', path: '/api/junit_report' }, tauriCommand: true, member: 'junitReport', request: 'RunFileRequest', response: 'JUnitReport' },
  { name: 'run_patch', kind: 'host', call: 'request', http: { method: 'POST', path: '/api/run_patch' }, tauriCommand: true, member: 'runPatch', request: 'RunFileRequest', response: 'PatchFiles' },
  { name: 'run_graph', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/run_graph' }, tauriCommand: true, member: 'runGraph', request: 'RunRef', response: 'RunWorkflow' },
  { name: 'collect_garbage', kind: 'host_async', call: 'request', http: { method: 'POST', path: '/api/collect_garbage' }, tauriCommand: true, member: 'collectGarbage', request: 'GarbageRequest', response: 'GarbageReport' },
  { name: 'save_run_file', kind: 'download', call: 'request', http: null, tauriCommand: true, member: 'saveRunFile', request: 'RunFileRequest', response: 'SavedRunFile' },
  { name: 'run_file', kind: 'file', call: 'file', http: { method: 'GET', path: '/api/runs/{run}/{area}/{*path}' }, tauriCommand: false, member: 'runFileUrl', request: 'RunFileRequest', response: null },
  { name: 'follow_events', kind: 'events', call: 'stream', http: { method: 'GET', path: '/api/events' }, tauriCommand: true, member: 'followEvents', request: 'EventsRequest', response: null },
  { name: 'run_changes', kind: 'changes', call: 'stream', http: { method: 'GET', path: '/api/run_changes' }, tauriCommand: false, member: null, request: null, response: null },
] as const;

/** The `Api` members that call an operation. */
export type OperationMember = NonNullable<(typeof OPERATIONS)[number]['member']>;
