import type { Api } from '../api/Api';
import type { RunRecord } from '../generated/RunRecord';
import type { Timeline } from '../generated/Timeline';
import { EarlyReads } from './earlyReads';

/** What the run screen reads before it shows anything: the run's record and its timeline. */
export type RunOpening = readonly [RunRecord, Timeline];

/** The part of the API these reads use. */
export type OpeningApi = Pick<Api, 'getRun' | 'runTimeline'>;

/** Reads the run's record and timeline together. */
export function readRunOpening(api: OpeningApi, runId: string): Promise<RunOpening> {
  return Promise.all([api.getRun({ run_id: runId }), api.runTimeline({ run_id: runId })]);
}

/** Reads started before the run screen's code had loaded, until taken (a failure is kept for
 * whoever takes the read, to report). */
const early = new EarlyReads<OpeningApi, RunOpening>(true);

/**
 * Starts reading a run's record and timeline now: when the app opens on a run, before the run
 * screen's code has loaded and mounted (a long run's timeline takes the server a while,
 * which then overlaps with loading the screen instead of following it).
 */
export function prefetchRunOpening(api: OpeningApi, runId: string): void {
  early.start(api, runId, () => readRunOpening(api, runId));
}

/**
 * Takes the prefetched read of a run's record and timeline (null when there is none). Once
 * only: the run may go on, so every later load reads afresh.
 */
export function takeRunOpening(api: OpeningApi, runId: string): Promise<RunOpening> | null {
  return early.take(api, runId);
}
