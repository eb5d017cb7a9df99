import { MiniMap, Panel, useReactFlow, useStore } from '@xyflow/react';
import { useMemo, type MouseEvent } from 'react';
import type { WorkflowFlow, WorkflowFlowNode } from '../flow/flowTypes';
import { drawingBounds, isWholeInView, type Bounds } from './fitViewport';
import { OVERVIEW_SIZE } from './overviewOutline';
import { useOutlineAfterDrawing } from './useOutlineAfterDrawing';

/**
 * From this many nodes on, the overview is one outline path (`overviewOutline`) instead of
 * React Flow's minimap, which draws an element per node and compares every node's id on
 * each change of the canvas (a pan frame, a status): for a 20,000-node run, seconds.
 */
export const OUTLINE_OVERVIEW_FROM = 1000;

const { width: WIDTH, height: HEIGHT } = OVERVIEW_SIZE;

function minimapClass(node: WorkflowFlowNode): string {
  return node.type === 'handler' ? `minimap-node ${node.data.look.tone}` : 'minimap-group';
}

/** A very large graph's overview: its outline and the part in view; a click centres there. */
function OutlineOverview({ flow, bounds }: { flow: WorkflowFlow; bounds: Bounds }) {
  const path = useOutlineAfterDrawing(flow.nodes)?.path ?? '';
  const [x, y, zoom] = useStore((s) => s.transform);
  const paneWidth = useStore((s) => s.width);
  const paneHeight = useStore((s) => s.height);
  const { setCenter } = useReactFlow();
  const scale = Math.min(WIDTH / bounds.width, HEIGHT / bounds.height);
  const left = bounds.x - (WIDTH / scale - bounds.width) / 2;
  const top = bounds.y - (HEIGHT / scale - bounds.height) / 2;
  const view = { x: -x / zoom, y: -y / zoom, width: paneWidth / zoom, height: paneHeight / zoom };
  const onClick = (event: MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    void setCenter(left + (event.clientX - box.left) / scale, top + (event.clientY - box.top) / scale, { zoom });
  };
  return (
    <Panel position="bottom-right" className="react-flow__minimap overview-outline">
      <svg
        width={WIDTH}
        height={HEIGHT}
        viewBox={`${left} ${top} ${WIDTH / scale} ${HEIGHT / scale}`}
        role="img"
        aria-label="Workflow overview"
        onClick={onClick}
      >
        <path className="overview-outline__nodes" d={path} />
        <rect className="overview-outline__view" x={view.x} y={view.y} width={view.width} height={view.height} vectorEffect="non-scaling-stroke" />
      </svg>
    </Panel>
  );
}

/**
 * The minimap, while part of the graph is out of view: with the whole graph on the canvas it
 * would show nothing more, and only cover the graph's bottom-right corner. Inside `ReactFlow`.
 */
export function OverviewMap({ flow }: { flow: WorkflowFlow }) {
  const bounds = useMemo(() => drawingBounds(flow.nodes), [flow.nodes]);
  const whole = useStore((s) => isWholeInView(bounds, s.transform, s.width, s.height));
  if (whole || bounds === null) return null;
  if (flow.nodes.length >= OUTLINE_OVERVIEW_FROM) return <OutlineOverview flow={flow} bounds={bounds} />;
  return (
    <MiniMap
      position="bottom-right"
      pannable
      zoomable
      nodeClassName={minimapClass}
      nodeBorderRadius={6}
      ariaLabel="Workflow overview"
      style={{ width: WIDTH, height: HEIGHT }}
    />
  );
}
