import type { Diagnostic } from '../../generated/Diagnostic';
import type { Edge } from '../../generated/Edge';
import type { Node } from '../../generated/Node';
import type { Workflow } from '../../generated/Workflow';
import { worstSeverity } from '../../diagnostics/severity';
import { sizeEdgeLabel } from '../look/edgeLabelSize';
import { lookOf } from '../look/handlerLooks';
import { sizeNode } from '../look/nodeSize';
import { estimateTextWidth, type MeasureText } from '../look/textMetrics';
import { edgeId, subgraphId } from './elementIds';
import { directionOfRankdir, type FlowDirection } from './flowDirection';
import type {
  AttachedDiagnostics,
  HandlerFlowNode,
  SubgraphFlowNode,
  WorkflowFlow,
  WorkflowFlowEdge,
} from './flowTypes';
import { nodeSubtitle } from './nodeSubtitle';
import { drawnDepth, isDrawnSubgraph, nearestDrawn, subgraphTitle } from './subgraphBoxes';

function attach(list: Diagnostic[]): AttachedDiagnostics {
  return { list, worst: worstSeverity(list.map((d) => d.severity)) };
}

/** Groups diagnostics by the element they name (an edge id or a node id). */
function indexDiagnostics(diagnostics: readonly Diagnostic[]) {
  const byNode = new Map<string, Diagnostic[]>();
  const byEdge = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    if (d.edge !== null) {
      const id = edgeId(d.edge);
      byEdge.set(id, [...(byEdge.get(id) ?? []), d]);
    } else if (d.node !== null) {
      byNode.set(d.node, [...(byNode.get(d.node) ?? []), d]);
    }
  }
  return { byNode, byEdge };
}

function subgraphNodes(workflow: Workflow): SubgraphFlowNode[] {
  const { subgraphs } = workflow;
  return subgraphs
    .map((subgraph, index) => ({ subgraph, index }))
    .filter(({ subgraph }) => isDrawnSubgraph(subgraph))
    .sort((a, b) => drawnDepth(subgraphs, a.index) - drawnDepth(subgraphs, b.index))
    .map(({ subgraph, index }) => {
      const parent = nearestDrawn(subgraphs, subgraph.parent);
      const node: SubgraphFlowNode = {
        id: subgraphId(index),
        type: 'subgraph',
        position: { x: 0, y: 0 },
        data: { index, subgraph, title: subgraphTitle(subgraph) },
        selectable: false,
        focusable: false,
        zIndex: -1,
      };
      if (parent !== null) node.parentId = subgraphId(parent);
      return node;
    });
}

function handlerNode(
  node: Node,
  workflow: Workflow,
  direction: FlowDirection,
  diagnostics: Diagnostic[],
  measure: MeasureText,
): HandlerFlowNode {
  const look = lookOf(node.kind);
  const subtitle = nodeSubtitle(node);
  const box = sizeNode(node.label, subtitle, look.shape, measure);
  const flowNode: HandlerFlowNode = {
    id: node.id,
    type: 'handler',
    position: { x: 0, y: 0 },
    width: box.width,
    height: box.height,
    data: { node, look, subtitle, box, direction, diagnostics: attach(diagnostics) },
  };
  const group = nearestDrawn(workflow.subgraphs, node.subgraph);
  if (group !== null) flowNode.parentId = subgraphId(group);
  return flowNode;
}

function flowEdge(edge: Edge, diagnostics: Diagnostic[], measure: MeasureText): WorkflowFlowEdge {
  return {
    id: edgeId(edge),
    type: 'workflow',
    source: edge.from,
    target: edge.to,
    sourceHandle: 'out',
    targetHandle: 'in',
    data: {
      edge,
      labelBox: sizeEdgeLabel(edge.label, edge.condition, measure),
      diagnostics: attach(diagnostics),
      route: null,
      labelCenter: null,
    },
  };
}

/**
 * Maps a workflow to canvas elements (not yet positioned; see `applyLayout`): one node per
 * workflow node with its kind's look and size, one box per drawn subgraph (children get
 * `parentId`), one edge per workflow edge, and diagnostics attached to what they name.
 * Edges whose ends are not nodes (possible in a recovered, broken file) are left out.
 * `measure` sizes text (a canvas in the app, an estimate in tests).
 */
export function workflowToFlow(
  workflow: Workflow,
  diagnostics: readonly Diagnostic[],
  measure: MeasureText = estimateTextWidth,
): WorkflowFlow {
  const direction = directionOfRankdir(workflow.rankdir);
  const { byNode, byEdge } = indexDiagnostics(diagnostics);
  const groups = subgraphNodes(workflow);
  const handlers = workflow.nodes.map((n) =>
    handlerNode(n, workflow, direction, byNode.get(n.id) ?? [], measure),
  );
  const known = new Set(workflow.nodes.map((n) => n.id));
  const edges = workflow.edges
    .filter((e) => known.has(e.from) && known.has(e.to))
    .map((e) => flowEdge(e, byEdge.get(edgeId(e)) ?? [], measure));
  return { nodes: [...groups, ...handlers], edges, direction };
}
