import { edgeSides, type FlowDirection } from '../../flow/flowDirection';
import type { WorkflowFlow, WorkflowFlowNode } from '../../flow/flowTypes';
import type { Side } from '../../look/shapeGeometry';
import { backEdges } from './backEdges';

/**
 * The DOT text handed to Graphviz for a flow, and what its names stand for. No text of the
 * workflow reaches the DOT: nodes, clusters and edges get generated names (`n0`, `cluster_0`,
 * `e0`), so ids may hold any character without escaping; the maps lead back to canvas ids.
 */
export interface GraphvizInput {
  dot: string;
  /** DOT node name → canvas id of the handler node. */
  nodes: Map<string, string>;
  /** DOT cluster name → canvas id of the subgraph box. */
  clusters: Map<string, string>;
  /** DOT edge `id` attribute → canvas id of the edge. */
  edges: Map<string, string>;
  /** Canvas ids of the edges that point back against the flow (see `graphvizEdgeSides`). */
  backEdges: Set<string>;
}

/** Points per inch: Graphviz takes sizes in inches and reports positions in points (= px here). */
export const POINTS_PER_INCH = 72;

/** Gaps matching the ELK engine's spacing, in pixels. */
const NODE_GAP = 44;
const RANK_GAP = 56;
/** Room kept around a cluster's members, and above them for the box's title. */
const CLUSTER_MARGIN = 20;
const CLUSTER_TITLE_HEIGHT = 24;

const RANKDIR: Record<FlowDirection, string> = { DOWN: 'TB', RIGHT: 'LR', UP: 'BT', LEFT: 'RL' };

/** Compass points name sides of the finished drawing, whatever the rankdir. */
const COMPASS: Record<Side, string> = { top: 'n', right: 'e', bottom: 's', left: 'w' };

/**
 * The sides an edge leaves (`source`) and enters (`target`) its nodes by: those the rank
 * direction implies, as on the ELK canvas; an edge pointing back against the flow leaves and
 * enters on the same flank (right of a vertical flow, below a horizontal one), so Graphviz
 * draws it as a loop beside the nodes rather than through them.
 */
export function graphvizEdgeSides(
  direction: FlowDirection,
  pointsBack: boolean,
): { source: Side; target: Side } {
  if (!pointsBack) return edgeSides(direction);
  const flank: Side = direction === 'DOWN' || direction === 'UP' ? 'right' : 'bottom';
  return { source: flank, target: flank };
}

/** A number as DOT wants it: plain decimal, a few places at most. */
function num(n: number): string {
  return String(Math.round(n * 10000) / 10000);
}

function inches(px: number): string {
  return num(Math.max(px, 1) / POINTS_PER_INCH);
}

/**
 * An empty HTML-like label of exactly `width` × `height` points: the way to make Graphviz keep
 * room for a box it does not draw (an edge's label chip, a cluster's title).
 */
export function blankLabel(width: number, height: number): string {
  const w = Math.max(1, Math.ceil(width));
  const h = Math.max(1, Math.ceil(height));
  return (
    `<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0" FIXEDSIZE="TRUE" ` +
    `WIDTH="${w}" HEIGHT="${h}"><TR><TD></TD></TR></TABLE>>`
  );
}

/**
 * DOT for laying `flow` out with `dot`: every handler node a fixed-size box of its measured
 * size, declared in document order (which is how `dot` breaks cycles); every subgraph box a
 * cluster of its members (nested as on the canvas) with room for its title; every edge between
 * the sides `graphvizEdgeSides` gives, with a blank label of its chip's size.
 */
export function toGraphvizDot(flow: WorkflowFlow): GraphvizInput {
  const nodes = new Map<string, string>();
  const clusters = new Map<string, string>();
  const edges = new Map<string, string>();
  const dotName = new Map<string, string>();
  const childrenOf = new Map<string | undefined, WorkflowFlowNode[]>();
  for (const node of flow.nodes) {
    const name = node.type === 'subgraph' ? `cluster_${clusters.size}` : `n${nodes.size}`;
    (node.type === 'subgraph' ? clusters : nodes).set(name, node.id);
    dotName.set(node.id, name);
    const siblings = childrenOf.get(node.parentId) ?? [];
    siblings.push(node);
    childrenOf.set(node.parentId, siblings);
  }

  const lines: string[] = [];
  for (const node of flow.nodes) {
    if (node.type !== 'handler') continue;
    const { width, height } = node.data.box;
    lines.push(`  "${dotName.get(node.id) ?? ''}" [width=${inches(width)}, height=${inches(height)}];`);
  }
  const emitCluster = (box: WorkflowFlowNode, indent: string) => {
    lines.push(`${indent}subgraph "${dotName.get(box.id) ?? ''}" {`);
    const title = blankLabel(1, CLUSTER_TITLE_HEIGHT);
    lines.push(`${indent}  graph [label=${title}, labelloc=t, labeljust=l, margin=${CLUSTER_MARGIN}];`);
    for (const member of childrenOf.get(box.id) ?? []) {
      if (member.type === 'subgraph') emitCluster(member, `${indent}  `);
      else lines.push(`${indent}  "${dotName.get(member.id) ?? ''}";`);
    }
    lines.push(`${indent}}`);
  };
  for (const node of flow.nodes) {
    const parentKnown = node.parentId !== undefined && dotName.has(node.parentId);
    if (node.type === 'subgraph' && !parentKnown) emitCluster(node, '  ');
  }

  const back = backEdges(flow);
  flow.edges.forEach((edge, index) => {
    const tail = dotName.get(edge.source);
    const head = dotName.get(edge.target);
    if (tail === undefined || head === undefined || !nodes.has(tail) || !nodes.has(head)) return;
    const id = `e${index}`;
    edges.set(id, edge.id);
    const box = edge.data?.labelBox ?? null;
    const label = box === null ? '' : `, label=${blankLabel(box.width, box.height)}`;
    const sides = graphvizEdgeSides(flow.direction, back.has(edge.id));
    const ports = back.has(edge.id)
      ? `, tailport=${COMPASS[sides.source]}, headport=${COMPASS[sides.target]}`
      : '';
    lines.push(`  "${tail}" -> "${head}" [id="${id}"${ports}${label}];`);
  });

  const forward = edgeSides(flow.direction);
  const header = [
    'digraph workflow {',
    `  graph [rankdir=${RANKDIR[flow.direction]}, newrank=true, ` +
      `nodesep=${inches(NODE_GAP)}, ranksep=${inches(RANK_GAP)}];`,
    '  node [shape=box, fixedsize=true, label=""];',
    `  edge [tailport=${COMPASS[forward.source]}, headport=${COMPASS[forward.target]}, arrowsize=0.8];`,
  ];
  return { dot: [...header, ...lines, '}', ''].join('\n'), nodes, clusters, edges, backEdges: back };
}
