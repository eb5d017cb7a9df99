import type { WorkflowFlow } from '../../flow/flowTypes';
import { foldTo, type FoldRoom } from '../fold/foldFlow';
import { placementBuffers, placementOf } from './flowPlacement';
import { layoutLayered } from './layeredLayout';
import type { LayeredRequest, LayeredResponse } from './layeredMessages';
import { unpackFlow } from './packedFlow';

/** `flow` laid out with the layered engine, then folded to `room` (when there is one). */
export function layoutAndFold(flow: WorkflowFlow, room: FoldRoom | null): WorkflowFlow {
  return foldTo(layoutLayered(flow), room);
}

/** The worker's answer to one request, and the buffers to transfer with it. */
export function answerLayered(request: LayeredRequest): { response: LayeredResponse; transfer: ArrayBuffer[] } {
  const { id, flow, room } = request;
  try {
    const placement = placementOf(layoutAndFold(unpackFlow(flow), room));
    return { response: { id, placement }, transfer: placementBuffers(placement) };
  } catch (error) {
    return { response: { id, error: error instanceof Error ? error.message : String(error) }, transfer: [] };
  }
}
