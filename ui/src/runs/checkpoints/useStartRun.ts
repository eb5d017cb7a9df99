import { useState } from 'react';
import { toApiError } from '../../api/apiError';
import type { ApiError } from '../../generated/ApiError';
import type { RunStarted } from '../../generated/RunStarted';

/**
 * A dialog's action that starts a run (fork, resume): busy while it goes, the error when
 * it is refused; once started the dialog closes and `onRunStarted` gets the run.
 */
export function useStartRun(
  start: () => Promise<RunStarted>,
  onClose: () => void,
  onRunStarted: (runId: string) => void,
): { busy: boolean; error: ApiError | null; go: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const go = () => {
    setBusy(true);
    setError(null);
    start().then(
      (started) => {
        setBusy(false);
        onClose();
        onRunStarted(started.run_id);
      },
      (reason: unknown) => {
        setBusy(false);
        setError(toApiError(reason));
      },
    );
  };
  return { busy, error, go };
}
