import type { FoldRoom } from '../fold/foldFlow';
import type { FlowPlacement } from './flowPlacement';
import type { PackedFlow } from './packedFlow';

/** What the page asks the layered engine's worker: lay `flow` out and fold it to `room`. */
export interface LayeredRequest {
  id: number;
  flow: PackedFlow;
  room: FoldRoom | null;
}

/** The worker's answer: where everything went, or why it could not be laid out. */
export type LayeredResponse = { id: number; placement: FlowPlacement } | { id: number; error: string };
