import { ViewportPortal } from '@xyflow/react';
import { memo, useMemo } from 'react';
import type { CanvasSelection } from '../flow/elementIds';
import type { HandlerFlowNode, WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../flow/flowTypes';
import { outlinePath } from '../look/shapeGeometry';
import { roundedPolylinePath } from './edgePath';
import { handlerNodeClasses } from './handlerNodeClasses';
import { useEdgeRunMark, useNodeRunMark } from './runMarks';

/** Each node's top-left corner in flow coordinates (React Flow keeps children relative to parents). */
function absolutePositions(nodes: readonly WorkflowFlowNode[]): Map<string, { x: number; y: number }> {
  const at = new Map<string, { x: number; y: number }>();
  // Parents precede their children.
  for (const node of nodes) {
    const parent = node.parentId === undefined ? undefined : at.get(node.parentId);
    at.set(node.id, { x: node.position.x + (parent?.x ?? 0), y: node.position.y + (parent?.y ?? 0) });
  }
  return at;
}

/** One node of the sketch: its outline where the layout put it. Redrawn only when it changes. */
const SketchNode = memo(function SketchNode({
  node,
  x,
  y,
  selected,
  onSelect,
}: {
  node: HandlerFlowNode;
  x: number;
  y: number;
  selected: boolean;
  onSelect: (selection: CanvasSelection) => void;
}) {
  const { look, box } = node.data;
  const run = useNodeRunMark(node.id);
  const classes = [...handlerNodeClasses(node.data, selected, run), 'is-sketch'];
  // No transform per node: each would be a layer of its own for the compositor.
  return (
    <g
      className={classes.join(' ')}
      data-node-id={node.id}
      data-kind={node.data.node.kind}
      data-run-status={run?.status}
      onClick={() => onSelect({ type: 'node', id: node.id })}
    >
      <title>{node.data.node.label || node.id}</title>
      <path className="handler-node__shape" d={outlinePath(look.shape, box.width, box.height, 1.5, { x, y })} />
    </g>
  );
});

/** One edge of the sketch along its route. Redrawn only when it changes. */
const SketchEdge = memo(function SketchEdge({ edge, selected }: { edge: WorkflowFlowEdge; selected: boolean }) {
  const run = useEdgeRunMark(edge.id, edge.data?.edge);
  const route = edge.data?.route ?? null;
  if (route === null) return null;
  const classes = [
    'sketch-edge',
    edge.data?.edge.condition ? 'is-conditional' : '',
    run === undefined ? '' : 'is-taken',
    selected ? 'is-selected' : '',
  ];
  return <path className={classes.join(' ').trim()} d={roundedPolylinePath(route, 10)} data-edge-id={edge.id} />;
});

/**
 * The whole graph as one drawing, for a canvas zoomed out too far to read a label: subgraph
 * boxes, edges along their routes and every node as its outline in its kind's (or run
 * status's) colour, strokes kept a pixel wide whatever the zoom. A node is clicked to select it.
 * Far cheaper to draw than hundreds of React Flow nodes and edges, so a large graph opens,
 * pans and zooms smoothly; zoomed in, the canvas draws the real nodes instead. Nodes and edges
 * that did not change (the flow keeps their objects) are not drawn again.
 */
function SketchLayerView({
  flow,
  selection,
  onSelect,
}: {
  flow: WorkflowFlow;
  selection: CanvasSelection;
  onSelect: (selection: CanvasSelection) => void;
}) {
  const positions = useMemo(() => absolutePositions(flow.nodes), [flow.nodes]);
  const selectedNode = selection?.type === 'node' ? selection.id : null;
  const selectedEdge = selection?.type === 'edge' ? selection.id : null;
  return (
    <ViewportPortal>
      <svg className="sketch-layer" data-testid="sketch-layer" width={1} height={1} aria-label="Workflow graph, zoomed out">
        {flow.nodes.map((node) => {
          if (node.type !== 'subgraph') return null;
          const at = positions.get(node.id);
          if (at === undefined) return null;
          return <rect key={node.id} className="sketch-subgraph" x={at.x} y={at.y} width={node.width ?? 0} height={node.height ?? 0} rx={12} />;
        })}
        {flow.edges.map((edge) => (
          <SketchEdge key={edge.id} edge={edge} selected={edge.id === selectedEdge} />
        ))}
        {flow.nodes.map((node) => {
          const at = positions.get(node.id);
          if (node.type !== 'handler' || at === undefined) return null;
          return <SketchNode key={node.id} node={node} x={at.x} y={at.y} selected={node.id === selectedNode} onSelect={onSelect} />;
        })}
      </svg>
    </ViewportPortal>
  );
}

export const SketchLayer = memo(SketchLayerView);
