import type { Api } from '../api/Api';
import { useApiRead } from '../api/useApiRead';
import type { RunQueueRequest } from '../generated/RunQueueRequest';
import { aliveWorkers } from './runPlace';

/** Only the workers matter here, not the finished entries. */
const REQUEST: RunQueueRequest = { finished: 0 };
const readQueue = (api: Api, request: RunQueueRequest) => api.runQueue(request);

/**
 * How many workers of the run queue are alive, read once when the caller mounts: 0 until the
 * queue is read, and when it cannot be.
 */
export function useAliveWorkers(): number {
  const read = useApiRead(REQUEST, readQueue);
  return aliveWorkers(read.state === 'ready' ? read.value : null);
}
