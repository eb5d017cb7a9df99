import type { CheckExpressionRequest } from '../generated/CheckExpressionRequest';
import type { CreateWorkflowRequest } from '../generated/CreateWorkflowRequest';
import type { ExpressionProblem } from '../generated/ExpressionProblem';
import type { ReadReferenceRequest } from '../generated/ReadReferenceRequest';
import type { ReferencedFile } from '../generated/ReferencedFile';
import type { SaveLayoutRequest } from '../generated/SaveLayoutRequest';
import type { WorkflowChanged } from '../generated/WorkflowChanged';
import type { WorkflowLayout } from '../generated/WorkflowLayout';
import type { WorkflowPathRequest } from '../generated/WorkflowPathRequest';
import type { WorkflowTemplate } from '../generated/WorkflowTemplate';
import type { ApiError } from '../generated/ApiError';
import type { CheckWorkflowRequest } from '../generated/CheckWorkflowRequest';
import type { LaunchInfo } from '../generated/LaunchInfo';
import type { ListWorkflowsRequest } from '../generated/ListWorkflowsRequest';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import type { OpenWorkflowRequest } from '../generated/OpenWorkflowRequest';
import type { WorkflowEntry } from '../generated/WorkflowEntry';
import type { AnswerGateRequest } from '../generated/AnswerGateRequest';
import type { CheckpointDiff } from '../generated/CheckpointDiff';
import type { CheckpointEntry } from '../generated/CheckpointEntry';
import type { CheckpointFile } from '../generated/CheckpointFile';
import type { CheckpointFileRequest } from '../generated/CheckpointFileRequest';
import type { CheckpointRef } from '../generated/CheckpointRef';
import type { CheckpointState } from '../generated/CheckpointState';
import type { DiffRequest } from '../generated/DiffRequest';
import type { EventsRequest } from '../generated/EventsRequest';
import type { ForkRequest } from '../generated/ForkRequest';
import type { JUnitReport } from '../generated/JUnitReport';
import type { ListedArtifact } from '../generated/ListedArtifact';
import type { PatchFiles } from '../generated/PatchFiles';
import type { PendingGate } from '../generated/PendingGate';
import type { RollbackReport } from '../generated/RollbackReport';
import type { RollbackRequest } from '../generated/RollbackRequest';
import type { RunRef } from '../generated/RunRef';
import type { RunFileRequest } from '../generated/RunFileRequest';
import type { RunStarted } from '../generated/RunStarted';
import type { StartRunRequest } from '../generated/StartRunRequest';
import type { TreeFile } from '../generated/TreeFile';
import type { ListRunsRequest } from '../generated/ListRunsRequest';
import type { EditWorkflowRequest } from '../generated/EditWorkflowRequest';
import type { SaveWorkflowRequest } from '../generated/SaveWorkflowRequest';
import type { RecentWorkflow } from '../generated/RecentWorkflow';
import type { RecentWorkflowsRequest } from '../generated/RecentWorkflowsRequest';
import type { RunPage } from '../generated/RunPage';
import type { RunRecord } from '../generated/RunRecord';
import type { SavedRunFile } from '../generated/SavedRunFile';
import type { Timeline } from '../generated/Timeline';
import type { WorkflowTrust } from '../generated/WorkflowTrust';
import type { WorkflowTrustRequest } from '../generated/WorkflowTrustRequest';
import type { EventHandlers, Unsubscribe } from './runEvent';

/** What to do when a watched workflow file changes. */
export interface WatchHandlers {
  onChange(change: WorkflowChanged): void;
  onReady?(): void;
  /** The watch could not be set up or broke; no more changes will be reported. */
  onError?(error: ApiError): void;
}

/**
 * The application API as the UI sees it. Two implementations: Tauri commands in the
 * desktop window, `POST /api/{operation}` when heddle-server serves the UI to a browser.
 * Every failure rejects with an `ApiError` (see `apiError.ts`).
 */
export interface Api {
  /** Whether `pickWorkflowFile` can show a native dialog (false in a browser). */
  readonly hasFileDialog: boolean;
  launchInfo(): Promise<LaunchInfo>;
  openWorkflow(req: OpenWorkflowRequest): Promise<OpenedWorkflow>;
  checkWorkflow(req: CheckWorkflowRequest): Promise<OpenedWorkflow>;
  listWorkflows(req: ListWorkflowsRequest): Promise<WorkflowEntry[]>;
  /** Applies structured edits to the text as minimal changes (nothing is written). */
  editWorkflow(req: EditWorkflowRequest): Promise<OpenedWorkflow>;
  /** Writes the text; rejects with `changed_on_disk` if the file changed since it was read. */
  saveWorkflow(req: SaveWorkflowRequest): Promise<OpenedWorkflow>;
  /** The workflow's layout sidecar (positions a person set); `text` null when there is none. */
  readLayout(req: WorkflowPathRequest): Promise<WorkflowLayout>;
  /** Writes the layout sidecar (a JSON object; anything else is refused). */
  saveLayout(req: SaveLayoutRequest): Promise<WorkflowLayout>;
  /** The start of the file an `@path` value refers to, resolved as a run would. */
  readReference(req: ReadReferenceRequest): Promise<ReferencedFile>;
  /** Problems in a condition or model stylesheet (none when it parses). */
  checkExpression(req: CheckExpressionRequest): Promise<ExpressionProblem[]>;
  listTemplates(): Promise<WorkflowTemplate[]>;
  /** Writes a new workflow from a template; rejects with `already_exists` rather than overwrite. */
  createWorkflow(req: CreateWorkflowRequest): Promise<OpenedWorkflow>;
  /**
   * Calls `onChange` whenever the file changes on disk (including the editor's own saves),
   * until the returned function is called. `onReady` once the watch is in place.
   */
  watchWorkflow(path: string, handlers: WatchHandlers): Unsubscribe;
  /** Tauri: native open dialog (null when cancelled). HTTP: always null. */
  pickWorkflowFile(): Promise<string | null>;

  /** Runs from the index, newest first, filtered and paged. */
  listRuns(req: ListRunsRequest): Promise<RunPage>;
  getRun(req: RunRef): Promise<RunRecord>;
  runTimeline(req: RunRef): Promise<Timeline>;
  recentWorkflows(req: RecentWorkflowsRequest): Promise<RecentWorkflow[]>;
  /**
   * What running a workflow will do (its commands, agents with a shell, external agents,
   * files outside its folder, child workflows) and whether it may run without asking.
   */
  workflowTrust(req: WorkflowTrustRequest): Promise<WorkflowTrust>;
  /** Refused with `untrusted_workflow` unless the workflow is trusted or `req.trust` is set. */
  startRun(req: StartRunRequest): Promise<RunStarted>;
  resumeRun(req: RunRef): Promise<RunStarted>;
  forkRun(req: ForkRequest): Promise<RunStarted>;
  cancelRun(req: RunRef): Promise<null>;
  pendingGates(req: RunRef): Promise<PendingGate[]>;
  answerGate(req: AnswerGateRequest): Promise<null>;
  runCheckpoints(req: RunRef): Promise<CheckpointEntry[]>;
  checkpointFiles(req: CheckpointRef): Promise<TreeFile[]>;
  checkpointFile(req: CheckpointFileRequest): Promise<CheckpointFile>;
  /** The run's saved state at a checkpoint: next node, nodes completed, its context. */
  checkpointState(req: CheckpointRef): Promise<CheckpointState>;
  checkpointDiff(req: DiffRequest): Promise<CheckpointDiff>;
  rollbackRun(req: RollbackRequest): Promise<RollbackReport>;
  runArtifacts(req: RunRef): Promise<ListedArtifact[]>;
  /** A JUnit XML file of the run, parsed; rejects with `wrong_kind` saying where it is malformed. */
  junitReport(req: RunFileRequest): Promise<JUnitReport>;
  /** A patch file the run wrote (a stage's `diff.patch`) as files and hunks. */
  runPatch(req: RunFileRequest): Promise<PatchFiles>;
  /** The workflow the run keeps in its folder (`graph.dot`), as the run parsed it. */
  runGraph(req: RunRef): Promise<OpenedWorkflow>;
  /** A URL the page can load a run's file from (an image, a video, a log, a report). */
  runFileUrl(req: RunFileRequest): string;
  /**
   * Saves a copy of a run's file into the user's Downloads folder and says where. The
   * desktop window needs it: a download link to another scheme only navigates there. Null
   * in a browser, whose own download of the file's URL does the job.
   */
  readonly saveRunFile: ((req: RunFileRequest) => Promise<SavedRunFile>) | null;
  /**
   * Delivers the run's events after `req.after_seq`, in order and each once, then new ones
   * as they happen; `onEnd` once the run has ended and everything was delivered.
   */
  followEvents(req: EventsRequest, handlers: EventHandlers): Unsubscribe;
}
