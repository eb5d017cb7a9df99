import { rankCentres, RANK_GAP } from './alongRanks';
import { assignCross } from './coordinates';
import { isLabelled, layeredInput, type LayeredInput } from './layeredInput';
import { buildLayering, type Layering } from './layering';
import { adjacency, orderLayers } from './ordering';
import type { PackedFlow } from './packedFlow';
import { rankNodes } from './ranking';

/** Where everything went, in layout space (cross, along), before turning it onto the screen. */
export interface Placement {
  input: LayeredInput;
  layering: Layering;
  /** Each item's centre across and along the ranks. */
  cross: Float64Array;
  along: Float64Array;
}

/** Ranks, orders and places the flow's nodes in layout space. */
export function place(flow: PackedFlow): Placement {
  const input = layeredInput(flow);
  const { edgeCount } = input;
  // As in Graphviz's dot: with any label, every edge spans two ranks, the label taking the middle one.
  let minlen = 1;
  for (let e = 0; e < edgeCount; e++) if (isLabelled(input, e)) minlen = 2;
  // Every edge but a self-loop, a back edge turned round.
  let ranked = 0;
  for (let e = 0; e < edgeCount; e++) if (input.edgeFrom[e] !== input.edgeTo[e]) ranked++;
  const from = new Int32Array(ranked);
  const to = new Int32Array(ranked);
  let k = 0;
  for (let e = 0; e < edgeCount; e++) {
    const a = input.edgeFrom[e] ?? 0;
    const b = input.edgeTo[e] ?? 0;
    if (a === b) continue;
    const back = input.back[e] === 1;
    from[k] = back ? b : a;
    to[k] = back ? a : b;
    k++;
  }
  const ranks = rankNodes(input.nodeCount, from, to, new Int32Array(ranked).fill(minlen));
  const layering = buildLayering(input, ranks);
  const adj = adjacency(layering);
  orderLayers(layering, input.clusters, adj);
  const cross = assignCross(layering, input.clusters, adj);
  const rankAlong = rankCentres(layering, input.clusters, minlen === 2 ? RANK_GAP / 2 : RANK_GAP);
  const along = new Float64Array(layering.count);
  for (let i = 0; i < layering.count; i++) along[i] = rankAlong[layering.rank[i] ?? 0] ?? 0;
  return { input, layering, cross, along };
}
