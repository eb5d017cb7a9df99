import { useEffect, useRef, useState } from 'react';
import type { Api } from '../../api/Api';
import { useApiRead } from '../../api/useApiRead';
import type { ApiError } from '../../generated/ApiError';
import type { RunQueue } from '../../generated/RunQueue';
import type { RunQueueRequest } from '../../generated/RunQueueRequest';
import { heldRunsKey } from './queueView';

/** The queue is read again this long after each answer, while the runs list is shown. */
const POLL_MS = 2000;
/** Only the entries not finished are shown. */
const REQUEST: RunQueueRequest = { finished: 0 };

const readQueue = (api: Api, request: RunQueueRequest) => api.runQueue(request);

/**
 * The run queue and its workers, read every `POLL_MS` until unmounted. `queue` is the last
 * answer (kept while the next one loads or when it fails), `error` why the latest read failed.
 * `onHeldRunsChange` is called when a worker starts or stops holding a run (not on the
 * first answer); `reload` reads it again at once (after a change made here).
 */
export function useRunQueue(onHeldRunsChange: () => void): {
  queue: RunQueue | null;
  error: ApiError | null;
  reload: () => void;
} {
  const read = useApiRead(REQUEST, readQueue);
  const { reload } = read;
  const settled = read.state !== 'loading';
  useEffect(() => {
    if (!settled) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [settled, read, reload]);

  const [kept, setKept] = useState<RunQueue | null>(null);
  useEffect(() => {
    if (read.state === 'ready') setKept(read.value);
  }, [read]);
  const queue = read.state === 'ready' ? read.value : read.state === 'loading' ? (read.previous ?? kept) : kept;

  const heldRuns = queue === null ? null : heldRunsKey(queue);
  const lastHeldRuns = useRef<string | null>(null);
  useEffect(() => {
    if (heldRuns === null) return;
    const before = lastHeldRuns.current;
    lastHeldRuns.current = heldRuns;
    if (before !== null && before !== heldRuns) onHeldRunsChange();
  }, [heldRuns, onHeldRunsChange]);

  return { queue, error: read.state === 'failed' ? read.error : null, reload };
}
