import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';

/** The run's own `graph.dot` as read so far: loading, read, or why it could not be. */
export type RunGraph =
  | { status: 'loading' }
  | { status: 'read'; opened: OpenedWorkflow }
  | { status: 'failed'; message: string };

/**
 * Reads the workflow a run keeps in its folder (`graph.dot`, as the run parsed it) from the
 * moment the run screen opens: its own small look-up of the run's folder, then the file, both
 * outside React's updates, so the graph is laid out while the timeline and the event stream
 * load (and render) rather than after them.
 */
export function useRunGraph(runId: string): RunGraph {
  const api = useApi();
  const [graph, setGraph] = useState<{ runId: string; graph: RunGraph } | null>(null);
  useEffect(() => {
    let live = true;
    api
      .getRun({ run_id: runId })
      .then((record) => api.openWorkflow({ path: `${record.folder}/graph.dot` }))
      .then(
        (opened) => live && setGraph({ runId, graph: { status: 'read', opened } }),
        (reason: unknown) => live && setGraph({ runId, graph: { status: 'failed', message: toApiError(reason).message } }),
      );
    return () => {
      live = false;
    };
  }, [api, runId]);
  return graph !== null && graph.runId === runId ? graph.graph : { status: 'loading' };
}
