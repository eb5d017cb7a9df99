import type { Api } from '../api/Api';
import { type ApiRead, useApiRead } from '../api/useApiRead';
import type { RunWorkflow } from '../generated/RunWorkflow';
import { readRunGraph, prefetchedRunGraph } from './runGraphRead';

/** The run's own `graph.dot` as read so far. */
export type RunGraph = ApiRead<RunWorkflow>;

/** Takes over the read the app started on load, or reads the graph now. */
const readGraph = (api: Api, { runId }: { runId: string }) => prefetchedRunGraph(api, runId) ?? readRunGraph(api, runId);

/**
 * The workflow a run keeps in its folder (`graph.dot`, as the run parsed it), read from the
 * moment the run screen opens (or taken over from the read the app started on load, see
 * `prefetchRunGraph`): one `run_graph` call outside React's updates, so the graph is laid
 * out while the timeline loads rather than after it.
 */
export function useRunGraph(runId: string): RunGraph {
  return useApiRead({ runId }, readGraph);
}
