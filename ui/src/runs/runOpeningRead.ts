import type { Api } from '../api/Api';
import type { RunRecord } from '../generated/RunRecord';
import type { Timeline } from '../generated/Timeline';

/** What the run screen reads before it shows anything: the run's record and its timeline. */
export type RunOpening = readonly [RunRecord, Timeline];

/** The part of the API these reads use. */
export type OpeningApi = Pick<Api, 'getRun' | 'runTimeline'>;

/** Reads the run's record and timeline together. */
export function readRunOpening(api: OpeningApi, runId: string): Promise<RunOpening> {
  return Promise.all([api.getRun({ run_id: runId }), api.runTimeline({ run_id: runId })]);
}

/** Reads started before the run screen's code had loaded, by API and run, until taken. */
const prefetched = new WeakMap<OpeningApi, Map<string, Promise<RunOpening>>>();

/**
 * Starts reading a run's record and timeline now: when the app opens on a run, before the
 * run screen's code has loaded and mounted (a long run's timeline takes the server a while,
 * which then overlaps with loading the screen instead of following it).
 */
export function prefetchRunOpening(api: OpeningApi, runId: string): void {
  let reads = prefetched.get(api);
  if (reads === undefined) {
    reads = new Map();
    prefetched.set(api, reads);
  }
  if (reads.has(runId)) return;
  const read = readRunOpening(api, runId);
  reads.set(runId, read);
  // A failure is reported by whoever takes the read.
  read.catch(() => undefined);
}

/**
 * Takes the prefetched read of a run's record and timeline (null when there is none). Once
 * only: the run may go on, so every later load reads afresh.
 */
export function takeRunOpening(api: OpeningApi, runId: string): Promise<RunOpening> | null {
  const reads = prefetched.get(api);
  const read = reads?.get(runId) ?? null;
  reads?.delete(runId);
  return read;
}
