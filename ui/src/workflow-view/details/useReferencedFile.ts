import { useEffect, useMemo, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { toApiError } from '../../api/apiError';
import type { ApiError } from '../../generated/ApiError';
import type { ReferencedFile } from '../../generated/ReferencedFile';
import { latestAnswer, type Settled } from './latestAnswer';

/** The file an `@path` value refers to, as loaded so far. */
export type ReferencedFileState =
  | { status: 'loading' }
  | { status: 'loaded'; file: ReferencedFile }
  | { status: 'failed'; error: ApiError };

type Request = { workflowPath: string; reference: string };
type Answer = Request & { answer: Settled<ReferencedFile> };

/**
 * Reads the file `reference` (a path relative to the workflow, without `@`) points to, after
 * `delayMs` without another change; only the latest answer is kept.
 */
export function useReferencedFile(workflowPath: string, reference: string, delayMs: number): ReferencedFileState {
  const api = useApi();
  const [last, setLast] = useState<Answer | null>(null);
  const live = useMemo(
    () =>
      latestAnswer<Request, ReferencedFile>({
        ask: (req) => api.readReference({ path: req.workflowPath, reference: req.reference }),
        onAnswer: (req, answer) => setLast({ ...req, answer }),
        delayMs,
      }),
    [api, delayMs],
  );
  useEffect(() => live.request({ workflowPath, reference }), [live, workflowPath, reference]);
  useEffect(() => () => live.cancel(), [live]);

  if (last === null || last.workflowPath !== workflowPath || last.reference !== reference) return { status: 'loading' };
  return last.answer.ok
    ? { status: 'loaded', file: last.answer.value }
    : { status: 'failed', error: toApiError(last.answer.error) };
}
