// The Graphviz web worker: loads the wasm build once, then lays out each DOT it is sent with
// `dot` and posts back the placement (already read from JSON, so the page does little work).
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import type { GraphvizRequest, GraphvizResponse } from './graphvizMessages';
import { runGraphviz } from './runGraphviz';

/** The parts of the worker's global scope used here (the app's types are the DOM's, not a worker's). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<GraphvizRequest>) => void): void;
  postMessage(message: GraphvizResponse): void;
}

const scope = self as unknown as WorkerScope;
const loaded = Graphviz.load();

scope.addEventListener('message', (event) => {
  const { id, dot } = event.data;
  loaded.then(
    (graphviz) => {
      let response: GraphvizResponse;
      try {
        response = { id, placement: runGraphviz(graphviz, dot) };
      } catch (error) {
        response = { id, error: error instanceof Error ? error.message : String(error) };
      }
      scope.postMessage(response);
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      scope.postMessage({ id, error: `Graphviz could not be loaded: ${message}` });
    },
  );
});
