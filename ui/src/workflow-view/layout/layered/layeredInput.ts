import type { FlowDirection } from '../../flow/flowDirection';
import type { WorkflowFlow } from '../../flow/flowTypes';
import { backEdges } from '../graphviz/backEdges';

/**
 * The layered engine works in "layout space": ranks advance along the `along` axis (down the
 * screen for a DOWN flow) and nodes of a rank sit side by side on the `cross` axis. Sizes are
 * given on those axes, so one algorithm serves every rank direction.
 */
export interface LayeredNode {
  id: string;
  /** Size across the ranks (the width of a node in a DOWN flow). */
  cross: number;
  /** Size along the ranks (its height in a DOWN flow). */
  along: number;
  /** Index of the innermost subgraph box holding it; -1 when none does. */
  cluster: number;
}

/** A subgraph box and the room it keeps around its members on each side, in layout space. */
export interface LayeredCluster {
  id: string;
  /** Index of the box it sits in; -1 at the top level. */
  parent: number;
  /** Its own index and its ancestors', outermost first. */
  path: number[];
  crossLow: number;
  crossHigh: number;
  alongLow: number;
  alongHigh: number;
}

export interface LayeredEdge {
  id: string;
  from: number;
  to: number;
  /** The label chip's size in layout space, or null without a label. */
  label: { cross: number; along: number } | null;
  /** It points back against the flow (it closes a cycle), so it is laid out reversed. */
  back: boolean;
}

export interface LayeredInput {
  direction: FlowDirection;
  nodes: LayeredNode[];
  clusters: LayeredCluster[];
  edges: LayeredEdge[];
}

/** Room kept around a box's members, and above them for its title (as on the other engines). */
export const CLUSTER_MARGIN = 20;
export const CLUSTER_TITLE = 24;

export function isVertical(direction: FlowDirection): boolean {
  return direction === 'DOWN' || direction === 'UP';
}

/** The room a box keeps on each layout-space side: its title goes on the screen's top side. */
function clusterRoom(direction: FlowDirection): Omit<LayeredCluster, 'id' | 'parent' | 'path'> {
  const room = { crossLow: CLUSTER_MARGIN, crossHigh: CLUSTER_MARGIN, alongLow: CLUSTER_MARGIN, alongHigh: CLUSTER_MARGIN };
  const titled = CLUSTER_MARGIN + CLUSTER_TITLE;
  if (direction === 'DOWN') room.alongLow = titled;
  else if (direction === 'UP') room.alongHigh = titled;
  else room.crossLow = titled; // horizontal flows: the cross axis runs down the screen
  return room;
}

/** Reads the flow's handler nodes, boxes and edges into layout space (document order kept). */
export function layeredInput(flow: WorkflowFlow): LayeredInput {
  const vertical = isVertical(flow.direction);
  const room = clusterRoom(flow.direction);
  const clusterIndex = new Map<string, number>();
  const clusters: LayeredCluster[] = [];
  // Parents precede their children in the flow's nodes.
  for (const node of flow.nodes) {
    if (node.type !== 'subgraph') continue;
    const parent = node.parentId === undefined ? -1 : (clusterIndex.get(node.parentId) ?? -1);
    const index = clusters.length;
    clusterIndex.set(node.id, index);
    const path = [...(clusters[parent]?.path ?? []), index];
    clusters.push({ id: node.id, parent, path, ...room });
  }
  const nodeIndex = new Map<string, number>();
  const nodes: LayeredNode[] = [];
  for (const node of flow.nodes) {
    if (node.type !== 'handler') continue;
    const { width, height } = node.data.box;
    nodeIndex.set(node.id, nodes.length);
    nodes.push({
      id: node.id,
      cross: vertical ? width : height,
      along: vertical ? height : width,
      cluster: node.parentId === undefined ? -1 : (clusterIndex.get(node.parentId) ?? -1),
    });
  }
  const back = backEdges(flow);
  const edges: LayeredEdge[] = [];
  for (const edge of flow.edges) {
    const from = nodeIndex.get(edge.source);
    const to = nodeIndex.get(edge.target);
    if (from === undefined || to === undefined) continue;
    const box = edge.data?.labelBox ?? null;
    const label = box === null ? null : vertical ? { cross: box.width, along: box.height } : { cross: box.height, along: box.width };
    edges.push({ id: edge.id, from, to, label, back: back.has(edge.id) });
  }
  return { direction: flow.direction, nodes, clusters, edges };
}
