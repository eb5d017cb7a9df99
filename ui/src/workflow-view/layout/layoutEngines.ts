import type { WorkflowFlow } from '../flow/flowTypes';
import { foldTo, type FoldRoom } from './fold/foldFlow';
import { layoutFlowWithGraphviz } from './graphviz/graphvizLayout';
import { layoutLayeredFolded } from './layered/workerLayered';
import { workerGraphviz } from './graphviz/workerGraphviz';
import { layoutFlow } from './layoutEngine';
import { warmUpFlow } from './warmUpFlow';
import { workerElk } from './workerElk';

/** The engines the canvas can lay a workflow out with. */
export type LayoutEngineName = 'elk' | 'graphviz' | 'layered';

export const LAYOUT_ENGINES: readonly { name: LayoutEngineName; title: string }[] = [
  { name: 'elk', title: 'ELK' },
  { name: 'graphviz', title: 'Graphviz' },
  { name: 'layered', title: 'Layered (fast)' },
];

export function isLayoutEngineName(value: unknown): value is LayoutEngineName {
  return LAYOUT_ENGINES.some((engine) => engine.name === value);
}

/** Which engine laid out a flow, and why it is not the one asked for when it fell back. */
export interface LayoutOrigin {
  engine: LayoutEngineName;
  fallbackReason: string | null;
}

const origins = new WeakMap<WorkflowFlow, LayoutOrigin>();

/** Which engine laid out `flow`; undefined for a flow that did not come from `layoutWithEngine`. */
export function layoutOriginOf(flow: WorkflowFlow): LayoutOrigin | undefined {
  return origins.get(flow);
}

/**
 * How each engine lays a flow out and folds the drawing to `room`, the canvas's shape (none:
 * not folded).
 */
export type LayoutRunners = Record<LayoutEngineName, (flow: WorkflowFlow, room: FoldRoom | null) => Promise<WorkflowFlow>>;

/**
 * The app's engines: ELK and Graphviz each in its own web worker; the layered one in the page,
 * or in its own worker for a very large workflow (`layoutLayeredFolded`), fold included.
 */
const APP_ENGINES: LayoutRunners = {
  elk: (flow, room) => layoutFlow(flow, workerElk()).then((laidOut) => foldTo(laidOut, room)),
  graphviz: (flow, room) => layoutFlowWithGraphviz(flow, workerGraphviz()).then((laidOut) => foldTo(laidOut, room)),
  layered: (flow, room) => layoutLayeredFolded(flow, room),
};

/**
 * Lays `flow` out with `engine`, in that engine's web worker, folded to `room` (the canvas
 * folds a long drawing to its shape). When Graphviz cannot run (its wasm refused, say), ELK
 * lays the flow out instead and the origin says why.
 */
export async function layoutWithEngine(
  engine: LayoutEngineName,
  flow: WorkflowFlow,
  room: FoldRoom | null,
  runners: LayoutRunners = APP_ENGINES,
): Promise<WorkflowFlow> {
  let laidOut: WorkflowFlow;
  let origin: LayoutOrigin = { engine, fallbackReason: null };
  try {
    laidOut = await runners[engine](flow, room);
  } catch (error) {
    if (engine === 'elk') throw error;
    const reason = error instanceof Error ? error.message : String(error);
    laidOut = await runners.elk(flow, room);
    origin = { engine: 'elk', fallbackReason: reason };
  }
  origins.set(laidOut, origin);
  return laidOut;
}

const warmedUp = new Set<LayoutEngineName>();

/**
 * Starts `engine`'s worker and lays a small workflow out in it, once: loading and compiling
 * the engine then overlaps with fetching the workflow instead of delaying its layout.
 */
export function warmUpLayoutEngine(engine: LayoutEngineName): void {
  if (engine === 'layered' || warmedUp.has(engine) || typeof Worker !== 'function') return;
  warmedUp.add(engine);
  APP_ENGINES[engine](warmUpFlow(), null).catch(() => {
    // A real layout reports the failure; the warm-up has nothing to show it to.
  });
}
