import type { WorkflowFlow } from '../../flow/flowTypes';
import { foldPlacement, type FoldRoom, type FoldShape } from '../fold/foldFlow';
import { placementBuffers, withPlacement, type FlowPlacement } from './flowPlacement';
import { layeredPlacement } from './layeredLayout';
import type { LayeredRequest, LayeredResponse } from './layeredMessages';
import { packFlow, type PackedFlow } from './packedFlow';

/** What the fold reads of a packed flow laid out as `placement`: each box at its laid-out size. */
function foldShape(flow: PackedFlow, placement: FlowPlacement): FoldShape {
  const sizes = new Float64Array(flow.sizes.length);
  for (let i = 0; i < flow.boxes.length; i++) {
    const width = placement.sizes[2 * i] ?? Number.NaN;
    const height = placement.sizes[2 * i + 1] ?? Number.NaN;
    const sized = !Number.isNaN(width) && !Number.isNaN(height);
    // A box the layout did not size keeps the size it had, if any.
    sizes[2 * i] = sized ? width : (flow.sizes[2 * i] ?? 0);
    sizes[2 * i + 1] = sized ? height : (flow.sizes[2 * i + 1] ?? 0);
    if (Number.isNaN(sizes[2 * i] ?? 0)) sizes[2 * i] = 0;
    if (Number.isNaN(sizes[2 * i + 1] ?? 0)) sizes[2 * i + 1] = 0;
  }
  return { direction: flow.direction, parents: flow.parents, sizes, withData: flow.withData, labels: flow.labels };
}

/** `flow` laid out with the layered engine and folded to `room` (when there is one). */
export function layeredFolded(flow: PackedFlow, room: FoldRoom | null): FlowPlacement {
  const placement = layeredPlacement(flow);
  if (room === null) return placement;
  return foldPlacement(foldShape(flow, placement), placement, room) ?? placement;
}

/** `flow` laid out with the layered engine, then folded to `room` (when there is one). */
export function layoutAndFold(flow: WorkflowFlow, room: FoldRoom | null): WorkflowFlow {
  return withPlacement(flow, layeredFolded(packFlow(flow), room));
}

/** The worker's answer to one request, and the buffers to transfer with it. */
export function answerLayered(request: LayeredRequest): { response: LayeredResponse; transfer: ArrayBuffer[] } {
  const { id, flow, room } = request;
  try {
    const placement = layeredFolded(flow, room);
    return { response: { id, placement }, transfer: placementBuffers(placement) };
  } catch (error) {
    return { response: { id, error: error instanceof Error ? error.message : String(error) }, transfer: [] };
  }
}
