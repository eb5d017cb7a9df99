import type { Api } from '../api/Api';
import { type ApiRead, useApiRead } from '../api/useApiRead';
import type { WorkflowEntry } from '../generated/WorkflowEntry';
import { sortByRecent } from './workflowListing';

/** The workflows of the workspace folder, as read so far. */
export type WorkspaceListing = ApiRead<WorkflowEntry[]>;

/** The workflows in a folder, most recently changed first. */
const listWorkflows = async (api: Api, request: { dir: string }) => sortByRecent(await api.listWorkflows(request));

/**
 * Lists the workflows in `dir` (nothing while there is no workspace folder), again whenever
 * `refresh` changes (a workflow was created or opened, the open dialog was shown).
 */
export function useWorkspaceWorkflows(dir: string | null, refresh: unknown = null): WorkspaceListing {
  return useApiRead(dir === null ? null : { dir }, listWorkflows, refresh);
}
