import { useCallback, useRef, useState } from 'react';
import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import type { ApiError } from '../generated/ApiError';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';

/** The open workflow, a pending open, and the last failure to open one. */
export interface WorkflowSession {
  opened: OpenedWorkflow | null;
  /** Path being opened right now. */
  pendingPath: string | null;
  /** Why the last open failed (a workflow already open stays shown). */
  failure: { path: string; error: ApiError } | null;
  open: (path: string) => Promise<void>;
  /** Shows `next` (the same file after an edit, an undo or a save). */
  replace: (next: OpenedWorkflow) => void;
  dismissFailure: () => void;
}

/** Opens workflows through the API; only the most recent request's answer is kept. */
export function useWorkflowSession(api: Api): WorkflowSession {
  const [opened, setOpened] = useState<OpenedWorkflow | null>(null);
  const [pendingPath, setPendingPath] = useState<string | null>(null);
  const [failure, setFailure] = useState<WorkflowSession['failure']>(null);
  const latest = useRef(0);

  const open = useCallback(
    async (path: string) => {
      const request = ++latest.current;
      setPendingPath(path);
      setFailure(null);
      try {
        const result = await api.openWorkflow({ path });
        if (request === latest.current) setOpened(result);
      } catch (reason) {
        if (request === latest.current) setFailure({ path, error: toApiError(reason) });
      } finally {
        if (request === latest.current) setPendingPath(null);
      }
    },
    [api],
  );

  const replace = useCallback((next: OpenedWorkflow) => setOpened(next), []);
  const dismissFailure = useCallback(() => setFailure(null), []);
  return { opened, pendingPath, failure, open, replace, dismissFailure };
}
