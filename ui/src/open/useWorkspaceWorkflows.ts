import { useEffect, useState } from 'react';
import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import type { ApiError } from '../generated/ApiError';
import type { WorkflowEntry } from '../generated/WorkflowEntry';
import { sortByRecent } from './workflowListing';

/** The workflows of the workspace folder, as loaded so far. */
export type WorkspaceListing =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'loaded'; entries: WorkflowEntry[] }
  | { status: 'failed'; error: ApiError };

/**
 * Lists the workflows in `dir` (none when there is no workspace folder), again whenever
 * `refresh` changes (a workflow was created or opened, the open dialog was shown); the
 * previous list stays up while the new one loads.
 */
export function useWorkspaceWorkflows(api: Api, dir: string | null, refresh: unknown = null): WorkspaceListing {
  const [listing, setListing] = useState<WorkspaceListing>({ status: 'none' });
  useEffect(() => {
    if (dir === null) {
      setListing({ status: 'none' });
      return;
    }
    let current = true;
    setListing((shown) => (shown.status === 'loaded' ? shown : { status: 'loading' }));
    api.listWorkflows({ dir }).then(
      (entries) => {
        if (current) setListing({ status: 'loaded', entries: sortByRecent(entries) });
      },
      (reason: unknown) => {
        if (current) setListing({ status: 'failed', error: toApiError(reason) });
      },
    );
    return () => {
      current = false;
    };
  }, [api, dir, refresh]);
  return listing;
}
