import type { CheckWorkflowRequest } from '../generated/CheckWorkflowRequest';
import type { LaunchInfo } from '../generated/LaunchInfo';
import type { ListWorkflowsRequest } from '../generated/ListWorkflowsRequest';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import type { OpenWorkflowRequest } from '../generated/OpenWorkflowRequest';
import type { WorkflowEntry } from '../generated/WorkflowEntry';

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
  /** Tauri: native open dialog (null when cancelled). HTTP: always null. */
  pickWorkflowFile(): Promise<string | null>;
}
