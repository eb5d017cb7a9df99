import type { WorkflowFlow } from '../../flow/flowTypes';
import { foldPlacement, foldShape, type FoldRoom } from '../fold/foldFlow';
import { placementBuffers, withPlacement, type FlowPlacement } from './flowPlacement';
import { layeredPlacement } from './layeredLayout';
import type { LayeredRequest, LayeredResponse } from './layeredMessages';
import { packFlow, type PackedFlow } from './packedFlow';

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
