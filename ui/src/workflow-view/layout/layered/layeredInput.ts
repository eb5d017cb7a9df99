import type { FlowDirection } from '../../flow/flowDirection';
import { backEdgeFlags } from '../graphviz/backEdges';
import type { PackedFlow } from './packedFlow';

/** A subgraph box and the room it keeps around its members on each side, in layout space. */
export interface LayeredCluster {
  /** Its node's index among the flow's nodes. */
  index: number;
  /** Index of the box it sits in; -1 at the top level. */
  parent: number;
  /** Its own index and its ancestors', outermost first. */
  path: number[];
  crossLow: number;
  crossHigh: number;
  alongLow: number;
  alongHigh: number;
}

/**
 * The layered engine works in "layout space": ranks advance along the `along` axis (down the
 * screen for a DOWN flow) and nodes of a rank sit side by side on the `cross` axis. Sizes are
 * given on those axes, so one algorithm serves every rank direction. Nodes (the flow's handler
 * nodes) and edges (those between two of them) are numbered from 0, their properties in typed
 * arrays (a 20,000-node workflow then needs no object per node or edge); boxes are few and
 * kept as objects.
 */
export interface LayeredInput {
  direction: FlowDirection;
  nodeCount: number;
  /** Each node's index among the flow's nodes. */
  nodeIndex: Int32Array;
  /** Size across the ranks (the width of a node in a DOWN flow). */
  nodeCross: Float64Array;
  /** Size along the ranks (its height in a DOWN flow). */
  nodeAlong: Float64Array;
  /** Index of the innermost box holding each node; -1 when none does. */
  nodeCluster: Int32Array;
  clusters: LayeredCluster[];
  edgeCount: number;
  /** Each edge's index among the flow's edges. */
  edgeIndex: Int32Array;
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  /** The label chip's size in layout space; NaN without a label. */
  labelCross: Float64Array;
  labelAlong: Float64Array;
  /** 1 for an edge pointing back against the flow (it closes a cycle): it is laid out reversed. */
  back: Uint8Array;
}

/** Whether layout edge `e` has a label chip. */
export function isLabelled(input: LayeredInput, e: number): boolean {
  return !Number.isNaN(input.labelCross[e] ?? Number.NaN);
}

/** Room kept around a box's members, and above them for its title (as on the other engines). */
export const CLUSTER_MARGIN = 20;
export const CLUSTER_TITLE = 24;

export function isVertical(direction: FlowDirection): boolean {
  return direction === 'DOWN' || direction === 'UP';
}

/** The room a box keeps on each layout-space side: its title goes on the screen's top side. */
function clusterRoom(direction: FlowDirection): Omit<LayeredCluster, 'index' | 'parent' | 'path'> {
  const room = { crossLow: CLUSTER_MARGIN, crossHigh: CLUSTER_MARGIN, alongLow: CLUSTER_MARGIN, alongHigh: CLUSTER_MARGIN };
  const titled = CLUSTER_MARGIN + CLUSTER_TITLE;
  if (direction === 'DOWN') room.alongLow = titled;
  else if (direction === 'UP') room.alongHigh = titled;
  else room.crossLow = titled; // horizontal flows: the cross axis runs down the screen
  return room;
}

/** Reads the packed flow's handler nodes, boxes and edges into layout space (document order kept). */
export function layeredInput(flow: PackedFlow): LayeredInput {
  const vertical = isVertical(flow.direction);
  const room = clusterRoom(flow.direction);
  const count = flow.boxes.length;
  // Each box's index among the clusters, by node index; -1 for a handler (or a box not yet seen).
  const clusterOf = new Int32Array(count).fill(-1);
  const clusters: LayeredCluster[] = [];
  // Parents precede their children in the flow's nodes.
  for (let i = 0; i < count; i++) {
    if (flow.boxes[i] !== 1) continue;
    const parentNode = flow.parents[i] ?? -1;
    const parent = parentNode < 0 ? -1 : (clusterOf[parentNode] ?? -1);
    const index = clusters.length;
    clusterOf[i] = index;
    const path = [...(clusters[parent]?.path ?? []), index];
    clusters.push({ index: i, parent, path, ...room });
  }
  // Each handler's index among the layout's nodes, by node index; -1 for a box.
  const nodeOf = new Int32Array(count).fill(-1);
  let nodeCount = 0;
  for (let i = 0; i < count; i++) if (flow.boxes[i] !== 1) nodeOf[i] = nodeCount++;
  const nodeIndex = new Int32Array(nodeCount);
  const nodeCross = new Float64Array(nodeCount);
  const nodeAlong = new Float64Array(nodeCount);
  const nodeCluster = new Int32Array(nodeCount);
  for (let i = 0; i < count; i++) {
    const n = nodeOf[i] ?? -1;
    if (n < 0) continue;
    const width = flow.sizes[2 * i] ?? 0;
    const height = flow.sizes[2 * i + 1] ?? 0;
    const parentNode = flow.parents[i] ?? -1;
    nodeIndex[n] = i;
    nodeCross[n] = vertical ? width : height;
    nodeAlong[n] = vertical ? height : width;
    nodeCluster[n] = parentNode < 0 ? -1 : (clusterOf[parentNode] ?? -1);
  }
  const roots = new Uint8Array(count);
  for (let i = 0; i < count; i++) roots[i] = flow.boxes[i] === 1 ? 0 : 1;
  const backFlags = backEdgeFlags(roots, flow.sources, flow.targets);
  // The edges between two handler nodes, in the flow's order.
  const allEdges = flow.sources.length;
  const from = new Int32Array(allEdges);
  const to = new Int32Array(allEdges);
  let edgeCount = 0;
  for (let e = 0; e < allEdges; e++) {
    const source = flow.sources[e] ?? -1;
    const target = flow.targets[e] ?? -1;
    from[e] = source < 0 ? -1 : (nodeOf[source] ?? -1);
    to[e] = target < 0 ? -1 : (nodeOf[target] ?? -1);
    if ((from[e] ?? -1) >= 0 && (to[e] ?? -1) >= 0) edgeCount++;
  }
  const edgeIndex = new Int32Array(edgeCount);
  const edgeFrom = new Int32Array(edgeCount);
  const edgeTo = new Int32Array(edgeCount);
  const labelCross = new Float64Array(edgeCount).fill(Number.NaN);
  const labelAlong = new Float64Array(edgeCount).fill(Number.NaN);
  const back = new Uint8Array(edgeCount);
  let k = 0;
  for (let e = 0; e < allEdges; e++) {
    if ((from[e] ?? -1) < 0 || (to[e] ?? -1) < 0) continue;
    edgeIndex[k] = e;
    edgeFrom[k] = from[e] ?? 0;
    edgeTo[k] = to[e] ?? 0;
    const width = flow.labels[2 * e] ?? Number.NaN;
    const height = flow.labels[2 * e + 1] ?? Number.NaN;
    if (!Number.isNaN(width) && !Number.isNaN(height)) {
      labelCross[k] = vertical ? width : height;
      labelAlong[k] = vertical ? height : width;
    }
    back[k] = backFlags[e] ?? 0;
    k++;
  }
  return { direction: flow.direction, nodeCount, nodeIndex, nodeCross, nodeAlong, nodeCluster, clusters, edgeCount, edgeIndex, edgeFrom, edgeTo, labelCross, labelAlong, back };
}
