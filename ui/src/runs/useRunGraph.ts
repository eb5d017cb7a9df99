import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import { readRunGraph, prefetchedRunGraph } from './runGraphRead';

/** The run's own `graph.dot` as read so far: loading, read, or why it could not be. */
export type RunGraph =
  | { status: 'loading' }
  | { status: 'read'; opened: OpenedWorkflow }
  | { status: 'failed'; message: string };

/**
 * The workflow a run keeps in its folder (`graph.dot`, as the run parsed it), read from the
 * moment the run screen opens (or taken over from the read the app started on load, see
 * `prefetchRunGraph`): one `run_graph` call outside React's updates, so the graph is laid
 * out while the timeline loads rather than after it.
 */
export function useRunGraph(runId: string): RunGraph {
  const api = useApi();
  const [graph, setGraph] = useState<{ runId: string; graph: RunGraph } | null>(null);
  useEffect(() => {
    let live = true;
    (prefetchedRunGraph(api, runId) ?? readRunGraph(api, runId)).then(
        (opened) => live && setGraph({ runId, graph: { status: 'read', opened } }),
        (reason: unknown) => live && setGraph({ runId, graph: { status: 'failed', message: toApiError(reason).message } }),
      );
    return () => {
      live = false;
    };
  }, [api, runId]);
  return graph !== null && graph.runId === runId ? graph.graph : { status: 'loading' };
}
