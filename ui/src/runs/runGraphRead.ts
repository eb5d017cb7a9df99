import type { Api } from '../api/Api';
import type { RunWorkflow } from '../generated/RunWorkflow';
import { LAYERED_OFF_PAGE_FROM, warmUpLayeredWorker } from '../workflow-view/layout/layered/workerLayered';
import { EarlyReads } from './earlyReads';

/**
 * Reads the workflow a run keeps in its folder (`graph.dot`, as the run parsed it). When it
 * is large enough to be laid out in a worker, the worker starts as it arrives, while the page
 * maps it to canvas nodes.
 */
export async function readRunGraph(api: Api, runId: string): Promise<RunWorkflow> {
  const graph = await api.runGraph({ run_id: runId });
  if ((graph.workflow?.nodes.length ?? 0) >= LAYERED_OFF_PAGE_FROM) warmUpLayeredWorker();
  return graph;
}

/** Reads started before the run screen's code had loaded (a run's graph.dot never changes;
 * a failed read is dropped). */
const early = new EarlyReads<Api, RunWorkflow>(false);

/**
 * Starts reading a run's graph now: when the app opens on a run, before the run screen's
 * code has even loaded, so the graph is there about as soon as the screen is.
 */
export function prefetchRunGraph(api: Api, runId: string): void {
  early.start(api, runId, () => readRunGraph(api, runId));
}

/** The prefetched read of a run's graph, for every screen that asks (null when there is none). */
export function prefetchedRunGraph(api: Api, runId: string): Promise<RunWorkflow> | null {
  return early.peek(api, runId);
}
