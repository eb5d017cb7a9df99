import type { ElkExtendedEdge, ElkNode, ElkPort, LayoutOptions } from 'elkjs/lib/elk-api';
import { edgeSides, type FlowDirection } from '../flow/flowDirection';
import type { HandlerFlowNode, WorkflowFlow, WorkflowFlowNode } from '../flow/flowTypes';
import { outlineAnchor, type Side } from '../look/shapeGeometry';

/** Id of the ELK graph's root. */
export const ELK_ROOT = 'root';

const ELK_SIDE: Record<Side, string> = {
  top: 'NORTH',
  right: 'EAST',
  bottom: 'SOUTH',
  left: 'WEST',
};

/** Ids of a node's two ports: edges enter by `in` and leave by `out`. */
export function portId(nodeId: string, port: 'in' | 'out'): string {
  return `${nodeId}:${port}`;
}

/** Id of an edge's label in the ELK graph. */
export function labelId(edgeId: string): string {
  return `${edgeId}:label`;
}

/** Spacing, set on the root and on every box (boxes do not inherit it). */
const SPACING: LayoutOptions = {
  'elk.layered.spacing.nodeNodeBetweenLayers': '56',
  'elk.layered.spacing.edgeNodeBetweenLayers': '22',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '14',
  'elk.spacing.nodeNode': '44',
  'elk.spacing.edgeNode': '22',
  'elk.spacing.edgeEdge': '14',
  'elk.spacing.edgeLabel': '6',
  'elk.spacing.labelNode': '8',
};

function rootOptions(direction: FlowDirection): LayoutOptions {
  return {
    ...SPACING,
    'elk.algorithm': 'layered',
    'elk.direction': direction,
    'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
    'elk.json.edgeCoords': 'ROOT',
    'elk.edgeRouting': 'ORTHOGONAL',
    'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST',
    'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    'elk.edgeLabels.placement': 'CENTER',
    'elk.edgeLabels.inline': 'true',
    'elk.padding': '[top=24,left=24,bottom=24,right=24]',
  };
}

/** Padding inside a subgraph box; the top leaves room for its title. */
const GROUP_OPTIONS: LayoutOptions = {
  ...SPACING,
  'elk.padding': '[top=44,left=20,bottom=20,right=20]',
};

function handlerElkNode(node: HandlerFlowNode, direction: FlowDirection): ElkNode {
  const { width, height } = node.data.box;
  const sides = edgeSides(direction);
  const port = (which: 'in' | 'out', side: Side): ElkPort => {
    const at = outlineAnchor(node.data.look.shape, width, height, side);
    return {
      id: portId(node.id, which),
      x: at.x,
      y: at.y,
      width: 0,
      height: 0,
      layoutOptions: { 'elk.port.side': ELK_SIDE[side] },
    };
  };
  return {
    id: node.id,
    width,
    height,
    layoutOptions: { 'elk.portConstraints': 'FIXED_POS' },
    ports: [port('in', sides.target), port('out', sides.source)],
  };
}

/**
 * The ELK graph for a flow: nodes with fixed entry/exit ports at the middle of the sides
 * the rank direction implies, subgraph boxes as compound nodes, every edge at the root
 * (hierarchy handling crosses boxes) with its label chip's size, and edge coordinates
 * reported in root coordinates.
 */
export function toElkGraph(flow: WorkflowFlow): ElkNode {
  const elkNodes = new Map<string, ElkNode>();
  const root: ElkNode = {
    id: ELK_ROOT,
    layoutOptions: rootOptions(flow.direction),
    children: [],
    edges: [],
  };
  const containerOf = (node: WorkflowFlowNode): ElkNode =>
    (node.parentId === undefined ? undefined : elkNodes.get(node.parentId)) ?? root;

  for (const node of flow.nodes) {
    const elkNode: ElkNode =
      node.type === 'subgraph'
        ? { id: node.id, layoutOptions: GROUP_OPTIONS, children: [] }
        : handlerElkNode(node, flow.direction);
    elkNodes.set(node.id, elkNode);
    const container = containerOf(node);
    container.children = [...(container.children ?? []), elkNode];
  }

  root.edges = flow.edges.map((edge): ElkExtendedEdge => {
    const box = edge.data?.labelBox ?? null;
    return {
      id: edge.id,
      sources: [portId(edge.source, 'out')],
      targets: [portId(edge.target, 'in')],
      labels:
        box === null
          ? []
          : [
              {
                id: labelId(edge.id),
                text: ' ',
                width: box.width,
                height: box.height,
                layoutOptions: { 'elk.edgeLabels.inline': 'true' },
              },
            ],
    };
  });
  return root;
}
