// The layered engine's web worker: lays out (and folds) the flows the page sends, so a very
// large workflow is laid out while the page keeps drawing the rest of the screen and answering.
import { answerLayered } from './layeredAnswer';
import type { LayeredRequest, LayeredResponse } from './layeredMessages';

/** The parts of the worker's global scope used here (the app's types are the DOM's, not a worker's). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<LayeredRequest>) => void): void;
  postMessage(message: LayeredResponse, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

scope.addEventListener('message', (event) => {
  const began = performance.now();
  const { response, transfer } = answerLayered(event.data);
  // For the browser's performance tools (and the runs-long test): what was laid out, how long it took.
  performance.measure(`layered layout of ${event.data.flow.boxes.length} nodes`, { start: began });
  scope.postMessage(response, transfer);
});
