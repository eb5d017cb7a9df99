import type { GraphvizPlacement } from './graphvizJson';
import type { GraphvizLayouter } from './graphvizLayout';
import type { GraphvizRequest, GraphvizResponse } from './graphvizMessages';

interface Pending {
  resolve: (placement: GraphvizPlacement) => void;
  reject: (error: Error) => void;
}

/** A Graphviz layouter that sends each DOT to `worker` and resolves with its answer. */
export function graphvizInWorker(worker: Worker): GraphvizLayouter {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  worker.addEventListener('message', (event: MessageEvent<GraphvizResponse>) => {
    const answer = event.data;
    const waiting = pending.get(answer.id);
    if (waiting === undefined) return;
    pending.delete(answer.id);
    if ('error' in answer) waiting.reject(new Error(answer.error));
    else waiting.resolve(answer.placement);
  });
  worker.addEventListener('error', (event) => {
    const error = new Error(`The Graphviz worker failed: ${event.message || 'it could not start'}`);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  });
  return {
    layout(dot) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, dot } satisfies GraphvizRequest);
      });
    },
  };
}

let shared: GraphvizLayouter | null = null;

/** The app's Graphviz: one instance running in a Web Worker, created on first use. */
export function workerGraphviz(): GraphvizLayouter {
  shared ??= graphvizInWorker(
    new Worker(new URL('./graphvizWorker.ts', import.meta.url), { type: 'module' }),
  );
  return shared;
}
