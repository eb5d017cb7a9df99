import type { WorkflowFlow } from '../../flow/flowTypes';
import type { FoldRoom } from '../fold/foldFlow';
import { withPlacement } from './flowPlacement';
import { layoutAndFold } from './layeredAnswer';
import { warmUpFlow } from '../warmUpFlow';
import type { LayeredRequest, LayeredResponse } from './layeredMessages';
import { packFlow, packedBuffers } from './packedFlow';

/**
 * From this many nodes on, the layered engine lays a workflow out in a web worker: the page
 * meanwhile draws the rest of the screen (a long run's timeline) and answers input, and the
 * layout runs on another core. Below it, sending the flow costs more than it saves.
 */
export const LAYERED_OFF_PAGE_FROM = 1000;

/** Lays flows out with the layered engine and folds them, somewhere. */
export interface LayeredLayouter {
  layout(flow: WorkflowFlow, room: FoldRoom | null): Promise<WorkflowFlow>;
}

/** The part of a `Worker` used here. */
export interface LayeredWorkerPort {
  postMessage(message: LayeredRequest, transfer: Transferable[]): void;
  addEventListener: Worker['addEventListener'];
}

interface Pending {
  flow: WorkflowFlow;
  resolve: (flow: WorkflowFlow) => void;
  reject: (error: Error) => void;
}

/**
 * A layouter that sends each flow, packed, to `worker` and puts the placement it answers with
 * on the flow.
 */
export function layeredInWorker(worker: LayeredWorkerPort): LayeredLayouter {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  // Once the worker has failed, it answers nothing more: later layouts are refused at once.
  let failed: Error | null = null;
  worker.addEventListener('message', (event: MessageEvent<LayeredResponse>) => {
    const answer = event.data;
    const waiting = pending.get(answer.id);
    if (waiting === undefined) return;
    pending.delete(answer.id);
    if ('error' in answer) {
      waiting.reject(new Error(answer.error));
      return;
    }
    try {
      waiting.resolve(withPlacement(waiting.flow, answer.placement));
    } catch (error) {
      waiting.reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
  worker.addEventListener('error', (event: ErrorEvent) => {
    const error = new Error(`The layout worker failed: ${event.message || 'it could not start'}`);
    failed = error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  });
  return {
    layout(flow, room) {
      if (failed !== null) return Promise.reject(failed);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const packed = packFlow(flow);
        // Waiting before it is posted (the answer cannot come sooner); a post that throws
        // rejects this layout alone and leaves nothing waiting.
        pending.set(id, { flow, resolve, reject });
        try {
          worker.postMessage({ id, flow: packed, room } satisfies LayeredRequest, packedBuffers(packed));
        } catch (error) {
          pending.delete(id);
          throw error;
        }
      });
    },
  };
}

let shared: LayeredLayouter | null = null;

/** The app's layered worker, started on first use; null where the page cannot start workers. */
function workerLayered(): LayeredLayouter | null {
  if (typeof Worker !== 'function') return null;
  shared ??= layeredInWorker(new Worker(new URL('./layeredWorker.ts', import.meta.url), { type: 'module' }));
  return shared;
}

/**
 * Starts the app's layered worker and has it lay a small workflow out, once: a screen that
 * may be about to show a very large workflow (a run's) calls this as it starts reading it,
 * so the worker's start and its code's compilation overlap the read instead of following it.
 */
export function warmUpLayeredWorker(): void {
  if (shared !== null) return;
  workerLayered()
    ?.layout(warmUpFlow(), null)
    .catch(() => {
      // The real layout finds the worker failed and lays out in the page.
    });
}

/**
 * Lays `flow` out with the layered engine and folds it to `room`: in `offPage` (the app's
 * worker) from LAYERED_OFF_PAGE_FROM nodes on, else in the page. A worker that fails to start
 * or answer costs only the time: the flow is then laid out in the page.
 */
export async function layoutLayeredFolded(
  flow: WorkflowFlow,
  room: FoldRoom | null,
  offPage: () => LayeredLayouter | null = workerLayered,
): Promise<WorkflowFlow> {
  const layouter = flow.nodes.length < LAYERED_OFF_PAGE_FROM ? null : offPage();
  if (layouter === null) return layoutAndFold(flow, room);
  try {
    return await layouter.layout(flow, room);
  } catch {
    return layoutAndFold(flow, room);
  }
}
