import type { Api } from '../api/Api';
import type { RunWorkflow } from '../generated/RunWorkflow';

/** Reads the workflow a run keeps in its folder (`graph.dot`, as the run parsed it). */
export function readRunGraph(api: Api, runId: string): Promise<RunWorkflow> {
  return api.runGraph({ run_id: runId });
}

/** Reads started before the run screen's code had loaded, by run (a run's graph.dot never
 * changes; a failed read is dropped). */
const prefetched = new WeakMap<Api, Map<string, Promise<RunWorkflow>>>();

/**
 * Starts reading a run's graph now: when the app opens on a run, before the run screen's
 * code has even loaded, so the graph is there about as soon as the screen is.
 */
export function prefetchRunGraph(api: Api, runId: string): void {
  let reads = prefetched.get(api);
  if (reads === undefined) {
    reads = new Map();
    prefetched.set(api, reads);
  }
  if (reads.has(runId)) return;
  const read = readRunGraph(api, runId);
  reads.set(runId, read);
  // A failure is reported by whoever took the read; later screens read afresh.
  read.catch(() => reads.delete(runId));
}

/** The prefetched read of a run's graph, for every screen that asks (null when there is none). */
export function prefetchedRunGraph(api: Api, runId: string): Promise<RunWorkflow> | null {
  return prefetched.get(api)?.get(runId) ?? null;
}
