/**
 * A flow packed for the layered engine's worker: only what the engine and the fold read (ids,
 * nesting, sizes, shapes, label chips), in flat arrays. Copying tens of thousands of node
 * objects into a worker takes longer than laying some of them out; arrays of numbers and
 * strings copy in a few milliseconds.
 */
import type { FlowDirection } from '../../flow/flowDirection';
import type { HandlerNodeData, SubgraphNodeData, WorkflowEdgeData, WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../../flow/flowTypes';
import type { NodeShape } from '../../look/handlerLooks';

export interface PackedFlow {
  direction: FlowDirection;
  /** Each node's id, in the flow's order. */
  ids: string[];
  /** 1 for a subgraph box, 0 for a handler node. */
  boxes: Uint8Array;
  /** Each node's parent box, as an index into `ids`; -1 at the top level. */
  parents: Int32Array;
  /** width, height of each node: a handler's box, a subgraph's size (NaN while it has none). */
  sizes: Float64Array;
  /** x, y of each node. */
  positions: Float64Array;
  /** Each handler's outline ('' for a box). */
  shapes: string[];
  edgeIds: string[];
  sources: string[];
  targets: string[];
  /** 1 for an edge with data (every edge of a workflow), 0 without. */
  withData: Uint8Array;
  /** width, height of each edge's label chip; NaN without one. */
  labels: Float64Array;
}

/** The arrays of `packed` to hand to `postMessage` as transferables. */
export function packedBuffers(packed: PackedFlow): ArrayBuffer[] {
  const { boxes, parents, sizes, positions, withData, labels } = packed;
  return [boxes, parents, sizes, positions, withData, labels].map((array) => array.buffer as ArrayBuffer);
}

export function packFlow(flow: WorkflowFlow): PackedFlow {
  const count = flow.nodes.length;
  const index = new Map<string, number>();
  flow.nodes.forEach((node, i) => index.set(node.id, i));
  const ids: string[] = [];
  const shapes: string[] = [];
  const boxes = new Uint8Array(count);
  const parents = new Int32Array(count);
  const sizes = new Float64Array(count * 2).fill(Number.NaN);
  const positions = new Float64Array(count * 2);
  flow.nodes.forEach((node, i) => {
    ids.push(node.id);
    parents[i] = node.parentId === undefined ? -1 : (index.get(node.parentId) ?? -1);
    positions[2 * i] = node.position.x;
    positions[2 * i + 1] = node.position.y;
    if (node.type === 'subgraph') {
      boxes[i] = 1;
      shapes.push('');
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
  const withData = new Uint8Array(edgeCount);
  const labels = new Float64Array(edgeCount * 2).fill(Number.NaN);
  flow.edges.forEach((edge, e) => {
    if (edge.data === undefined) return;
    withData[e] = 1;
    if (edge.data.labelBox !== null) {
      labels[2 * e] = edge.data.labelBox.width;
      labels[2 * e + 1] = edge.data.labelBox.height;
    }
  });
  return {
    direction: flow.direction,
    ids,
    boxes,
    parents,
    sizes,
    positions,
    shapes,
    edgeIds: flow.edges.map((edge) => edge.id),
    sources: flow.edges.map((edge) => edge.source),
    targets: flow.edges.map((edge) => edge.target),
    withData,
    labels,
  };
}

/**
 * The flow `packed` was made from, as far as the layered engine and the fold read it: laid
 * out, it gives the same placement. The rest (each node's workflow model, text, diagnostics)
 * stays behind in the page.
 */
export function unpackFlow(packed: PackedFlow): WorkflowFlow {
  const at = (array: Float64Array, i: number) => array[i] ?? Number.NaN;
  const nodes = packed.ids.map((id, i): WorkflowFlowNode => {
    const parent = packed.parents[i] ?? -1;
    const parentId = parent < 0 ? undefined : packed.ids[parent];
    const position = { x: at(packed.positions, 2 * i), y: at(packed.positions, 2 * i + 1) };
    const width = at(packed.sizes, 2 * i);
    const height = at(packed.sizes, 2 * i + 1);
    if (packed.boxes[i] === 1) {
      const data = { index: i, title: '' } as SubgraphNodeData;
      const size = Number.isNaN(width) || Number.isNaN(height) ? {} : { width, height };
      return { id, type: 'subgraph', position, ...(parentId === undefined ? {} : { parentId }), ...size, data };
    }
    const shape = (packed.shapes[i] ?? 'rect') as NodeShape;
    const data = { box: { width, height, lines: [] }, look: { shape } } as unknown as HandlerNodeData;
    return { id, type: 'handler', position, ...(parentId === undefined ? {} : { parentId }), data };
  });
  const edges = packed.edgeIds.map((id, e): WorkflowFlowEdge => {
    const source = packed.sources[e] ?? '';
    const target = packed.targets[e] ?? '';
    if (packed.withData[e] !== 1) return { id, source, target };
    const width = at(packed.labels, 2 * e);
    const height = at(packed.labels, 2 * e + 1);
    const labelBox = Number.isNaN(width) || Number.isNaN(height) ? null : { width, height, labelLines: [], conditionLines: [] };
    const data = { labelBox, route: null, labelCenter: null } as unknown as WorkflowEdgeData;
    return { id, source, target, data };
  });
  return { nodes, edges, direction: packed.direction };
}
