/**
 * A flow packed for the layered engine and the fold: only what they read (nesting, sizes,
 * shapes, which node each edge joins, label chips), in flat arrays indexed like the flow's
 * nodes and edges. Copying tens of thousands of node objects into a worker takes longer than
 * laying some of them out; arrays of numbers copy in a few milliseconds, and the engine works
 * on indices from there on.
 */
import type { FlowDirection } from '../../flow/flowDirection';
import type { WorkflowFlow } from '../../flow/flowTypes';
import type { NodeShape } from '../../look/handlerLooks';

export interface PackedFlow {
  direction: FlowDirection;
  /** 1 for a subgraph box, 0 for a handler node, one per node in the flow's order. */
  boxes: Uint8Array;
  /** Each node's parent box, as a node index; `TOP_LEVEL` or `NO_SUCH_PARENT` for none. */
  parents: Int32Array;
  /** width, height of each node: a handler's box, a subgraph's size (NaN while it has none). */
  sizes: Float64Array;
  /** x, y of each node. */
  positions: Float64Array;
  /** Each handler's outline ('rect' for a box). */
  shapes: NodeShape[];
  /** The node each edge leaves and enters, as node indices; -1 when it is not a node. */
  sources: Int32Array;
  targets: Int32Array;
  /** 1 for an edge with data (every edge of a workflow), 0 without. */
  withData: Uint8Array;
  /** width, height of each edge's label chip; NaN without one. */
  labels: Float64Array;
}

/** `PackedFlow.parents` of a node without a parent id. */
export const TOP_LEVEL = -1;
/**
 * `PackedFlow.parents` of a node whose parent id names no node of the flow (only a hand-made
 * flow has one). The layered engine places it as a top-level node; the fold, which moves only
 * top-level nodes, leaves it where the layout put it, as the flow's own code always did.
 */
export const NO_SUCH_PARENT = -2;

/** The arrays of `packed` to hand to `postMessage` as transferables. */
export function packedBuffers(packed: PackedFlow): ArrayBuffer[] {
  const { boxes, parents, sizes, positions, sources, targets, withData, labels } = packed;
  return [boxes, parents, sizes, positions, sources, targets, withData, labels].map((array) => array.buffer as ArrayBuffer);
}

export function packFlow(flow: WorkflowFlow): PackedFlow {
  const count = flow.nodes.length;
  const index = new Map<string, number>();
  flow.nodes.forEach((node, i) => index.set(node.id, i));
  const shapes: NodeShape[] = [];
  const boxes = new Uint8Array(count);
  const parents = new Int32Array(count);
  const sizes = new Float64Array(count * 2).fill(Number.NaN);
  const positions = new Float64Array(count * 2);
  flow.nodes.forEach((node, i) => {
    parents[i] = node.parentId === undefined ? TOP_LEVEL : (index.get(node.parentId) ?? NO_SUCH_PARENT);
    positions[2 * i] = node.position.x;
    positions[2 * i + 1] = node.position.y;
    if (node.type === 'subgraph') {
      boxes[i] = 1;
      shapes.push('rect');
      if (node.width !== undefined && node.height !== undefined) {
        sizes[2 * i] = node.width;
        sizes[2 * i + 1] = node.height;
      }
    } else {
      shapes.push(node.data.look.shape);
      sizes[2 * i] = node.data.box.width;
      sizes[2 * i + 1] = node.data.box.height;
    }
  });
  const edgeCount = flow.edges.length;
  const sources = new Int32Array(edgeCount);
  const targets = new Int32Array(edgeCount);
  const withData = new Uint8Array(edgeCount);
  const labels = new Float64Array(edgeCount * 2).fill(Number.NaN);
  flow.edges.forEach((edge, e) => {
    sources[e] = index.get(edge.source) ?? -1;
    targets[e] = index.get(edge.target) ?? -1;
    if (edge.data === undefined) return;
    withData[e] = 1;
    if (edge.data.labelBox !== null) {
      labels[2 * e] = edge.data.labelBox.width;
      labels[2 * e + 1] = edge.data.labelBox.height;
    }
  });
  return { direction: flow.direction, boxes, parents, sizes, positions, shapes, sources, targets, withData, labels };
}
