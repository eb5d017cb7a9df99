import { useEffect, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { toApiError } from '../../api/apiError';
import type { ApiError } from '../../generated/ApiError';
import type { ListedArtifact } from '../../generated/ListedArtifact';

/** A run's artifact list, as loaded so far. */
export type RunArtifacts =
  | { status: 'loading' }
  | { status: 'loaded'; artifacts: ListedArtifact[] }
  | { status: 'failed'; error: ApiError };

type Answer = { runId: string; result: RunArtifacts };

/**
 * Lists the run's artifacts, again whenever `refreshKey` changes; while a refresh is under
 * way the previous list of the same run stays shown.
 */
export function useRunArtifacts(runId: string, refreshKey: unknown): RunArtifacts {
  const api = useApi();
  const [answer, setAnswer] = useState<Answer | null>(null);
  useEffect(() => {
    let live = true;
    api.runArtifacts({ run_id: runId }).then(
      (artifacts) => {
        if (live) setAnswer({ runId, result: { status: 'loaded', artifacts } });
      },
      (reason: unknown) => {
        if (live) setAnswer({ runId, result: { status: 'failed', error: toApiError(reason) } });
      },
    );
    return () => {
      live = false;
    };
  }, [api, runId, refreshKey]);
  return answer !== null && answer.runId === runId ? answer.result : { status: 'loading' };
}
