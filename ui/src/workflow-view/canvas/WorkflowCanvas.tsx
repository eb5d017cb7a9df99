import {
  Background,
  BackgroundVariant,
  Controls,
  MarkerType,
  ReactFlow,
  type EdgeMarker,
  type EdgeTypes,
  type NodeTypes,
  type Viewport,
} from '@xyflow/react';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { rerouteEdges } from '../flow/pinnedFlow';
import { useShownTheme } from '../../theme/useTheme';
import type { CanvasSelection } from '../flow/elementIds';
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../flow/flowTypes';
import { LayoutEnginePicker } from '../layout/LayoutEnginePicker';
import { FitWholeButton, useFitWhole } from './fitWhole';
import { fitPadding, fitViewOptions, type Bounds, type FitPadding } from './fitViewport';
import { openingFocus, openingViewport } from './openingViewport';
import { isSketchZoom } from './detailZoom';
import { HandlerNode } from './HandlerNode';
import { OverviewMap } from './OverviewMap';
import { RunArrowDefs } from './RunArrow';
import { useShowsRun } from './runMarks';
import { knownGeometry } from './knownGeometry';
import { SelectionContext } from './SelectionContext';
import { SketchLayer } from './SketchLayer';
import { SubgraphNode } from './SubgraphNode';
import { stableElements, type DrawnElement } from './stableElements';
import { elementsIn, flowPlaces, viewOf, windowAround, WINDOWED_FROM } from './viewportWindow';
import { WindowKeeper } from './WindowKeeper';
import { WorkflowEdge } from './WorkflowEdge';
import '@xyflow/react/dist/style.css';
import './canvas.css';

const nodeTypes: NodeTypes = { handler: HandlerNode, subgraph: SubgraphNode };
const edgeTypes: EdgeTypes = { workflow: WorkflowEdge };

const MIN_ZOOM = 0.05;

/** From this many nodes on, the canvas leaves elements out of view out of the page. */
const LARGE_FLOW = 150;

const hiddenCopies = new WeakMap<object, object>();

/** `element` hidden from React Flow (drawn in the sketch); the same copy for the same element,
 * so React Flow does not take unchanged elements in again on every update of a live run. */
function hiddenCopy<T extends object>(element: T): T & { hidden: true } {
  let copy = hiddenCopies.get(element) as (T & { hidden: true }) | undefined;
  if (copy === undefined) {
    copy = { ...element, hidden: true };
    hiddenCopies.set(element, copy);
  }
  return copy;
}

function arrow(color: string): EdgeMarker {
  return { type: MarkerType.ArrowClosed, width: 16, height: 16, color };
}

function isSelected(selection: CanvasSelection, type: 'node' | 'edge', id: string): boolean {
  return selection !== null && selection.type === type && selection.id === id;
}

/** What the canvas lets a person change; without it the canvas is read-only. */
export type CanvasEditing = {
  /** A new edge was dragged from `from`'s out-handle onto `to`. */
  onConnect: (from: string, to: string) => void;
  /** Node `id` was dragged to `position` (in its parent's frame, like `Node.position`). */
  onMoveNode?: (id: string, position: { x: number; y: number }) => void;
};

/** The zoom buttons and the layout engine's picker, fitting all of `flow` (inside `ReactFlow`). */
function CanvasControls({ flow, windowed, padding }: { flow: WorkflowFlow; windowed: boolean; padding: FitPadding }) {
  const options = useMemo(() => fitViewOptions(padding), [padding]);
  const fitWhole = useFitWhole(flow, windowed, options, padding, MIN_ZOOM);
  return (
    <>
      <Controls showInteractive={false} showFitView={!windowed} position="bottom-left" fitViewOptions={options}>
        {windowed ? <FitWholeButton onFit={fitWhole} /> : null}
      </Controls>
      <LayoutEnginePicker flow={flow} fit={fitWhole} />
    </>
  );
}

const NO_ELEMENTS = { nodes: [], edges: [] };

/** The node being dragged and where it is now. */
type Drag = { id: string; position: { x: number; y: number } };

/** The canvas: a laid-out flow with minimap and zoom controls, fitted on mount; with
 * `editing`, edges can be drawn by dragging from a node's out-handle. */
export function WorkflowCanvas({
  flow,
  selection,
  onSelect,
  editing,
  topInset = 0,
}: {
  flow: WorkflowFlow;
  selection: CanvasSelection;
  onSelect: (selection: CanvasSelection) => void;
  editing?: CanvasEditing;
  /** How far down the cards over the canvas's top-left reach (px): a fit keeps below them. */
  topInset?: number;
}) {
  const theme = useShownTheme();
  const showsRun = useShowsRun();
  const [drag, setDrag] = useState<Drag | null>(null);
  const lastDrag = useRef<Drag | null>(null);
  const movable = editing?.onMoveNode !== undefined;
  // A very large graph gives React Flow only what is near the view (see `viewportWindow`).
  const places = useMemo(() => (flow.nodes.length >= WINDOWED_FROM ? flowPlaces(flow) : null), [flow]);
  const [area, setArea] = useState<Bounds | null>(null);
  // Zoomed far out the graph is one sketch and React Flow's own nodes and edges are hidden.
  const [sketch, setSketch] = useState(false);
  const windowed = useMemo(() => {
    if (places === null) return flow;
    // Zoomed far out the sketch draws it all and React Flow would only hide what it is given.
    if (sketch || area === null) return NO_ELEMENTS;
    return elementsIn(places, area);
  }, [flow, places, area, sketch]);
  // The drawn nodes and edges, then the dragged node and its edges swapped in: every other
  // element keeps its object, so React Flow redraws only what moved on each pointer move.
  const nodeCache = useRef(new Map<string, DrawnElement<WorkflowFlowNode, WorkflowFlowNode>>());
  const shownNodes = useMemo(
    () =>
      stableElements(
        windowed.nodes,
        nodeCache.current,
        (n) => `${String(isSelected(selection, 'node', n.id))}:${String(movable)}`,
        (n) => ({
          ...n,
          ...knownGeometry(n),
          selected: isSelected(selection, 'node', n.id),
          draggable: movable && n.type === 'handler',
        }),
      ),
    [windowed.nodes, selection, movable],
  );
  const nodes = useMemo(
    () =>
      drag === null ? shownNodes : shownNodes.map((n) => (n.id === drag.id ? { ...n, position: drag.position } : n)),
    [shownNodes, drag],
  );
  const edgeCache = useRef(new Map<string, DrawnElement<WorkflowFlowEdge, WorkflowFlowEdge>>());
  const shownEdges = useMemo(
    () =>
      stableElements(windowed.edges, edgeCache.current, (e) => String(isSelected(selection, 'edge', e.id)), (e): WorkflowFlowEdge => {
        const selected = isSelected(selection, 'edge', e.id);
        const worst = e.data?.diagnostics.worst ?? null;
        // A run's marks (taken, latest) are drawn by the edge itself (see runMarks).
        const classes = [e.data?.edge.condition ? 'is-conditional' : '', worst === null ? '' : `has-${worst}`];
        const stroke = selected ? 'var(--accent)' : 'var(--edge-stroke)';
        return {
          ...e,
          selected,
          className: classes.join(' ').trim(),
          markerEnd: arrow(stroke),
        };
      }),
    [windowed.edges, selection],
  );
  // Rerouted once when a drag starts (not on every move): the handles follow the node.
  const draggedId = drag?.id ?? null;
  const edges = useMemo(
    () => (draggedId === null ? shownEdges : rerouteEdges(shownEdges, new Set([draggedId]))),
    [shownEdges, draggedId],
  );

  // The pane's size, read before React Flow is first drawn, so it starts at its opening zoom:
  // fitted, or readable around the selection or the start node when the fit would be smaller.
  const pane = useRef<HTMLDivElement>(null);
  const [startViewport, setStartViewport] = useState<Viewport | null>(null);
  const firstNodes = useRef(flow.nodes);
  const firstSelection = useRef(selection?.type === 'node' ? selection.id : null);
  const padding = useMemo(() => fitPadding(topInset), [topInset]);
  const fit = useMemo(() => fitViewOptions(padding), [padding]);
  const windowedGraph = places !== null;
  const firstPadding = useRef(padding);
  useLayoutEffect(() => {
    const box = pane.current?.getBoundingClientRect();
    const focus = openingFocus(firstNodes.current, firstSelection.current);
    const viewport = openingViewport(firstNodes.current, box?.width ?? 0, box?.height ?? 0, focus, MIN_ZOOM, firstPadding.current);
    setSketch(isSketchZoom(viewport.zoom));
    setArea(windowAround(viewOf([viewport.x, viewport.y, viewport.zoom], box?.width ?? 0, box?.height ?? 0)));
    setStartViewport(viewport);
  }, []);
  const nodesForReactFlow = useMemo(() => (sketch ? nodes.map(hiddenCopy) : nodes), [sketch, nodes]);
  const edgesForReactFlow = useMemo(() => (sketch ? edges.map(hiddenCopy) : edges), [sketch, edges]);
  if (startViewport === null) return <div ref={pane} className="workflow-canvas-pane" />;

  return (
    <SelectionContext.Provider value={onSelect}>
      <ReactFlow<WorkflowFlowNode, WorkflowFlowEdge>
        className={editing === undefined ? 'workflow-canvas' : 'workflow-canvas is-editable'}
        nodes={nodesForReactFlow}
        edges={edgesForReactFlow}
        onMove={(_, viewport) => setSketch(isSketchZoom(viewport.zoom))}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        defaultViewport={startViewport}
        fitViewOptions={fit}
        minZoom={MIN_ZOOM}
        // A big graph keeps only what is in view in the page: less to style, lay out and paint
        // while a run's statuses change or the canvas is panned. It opens readable, zoomed in
        // on its start, so that is a small part of it (zoomed far out, the sketch draws it).
        onlyRenderVisibleElements={flow.nodes.length > LARGE_FLOW}
        maxZoom={2.5}
        nodesDraggable={movable}
        onNodesChange={(changes) => {
          for (const change of changes) {
            if (change.type === 'position' && change.dragging === true && change.position !== undefined) {
              lastDrag.current = { id: change.id, position: change.position };
              setDrag(lastDrag.current);
            }
          }
        }}
        onNodeDragStop={(_, node) => {
          const dropped = lastDrag.current;
          lastDrag.current = null;
          // In the same batch as the parent's new positions, so the node does not jump back.
          if (dropped !== null && dropped.id === node.id) editing?.onMoveNode?.(dropped.id, dropped.position);
          setDrag(null);
        }}
        nodesConnectable={editing !== undefined}
        connectionRadius={40}
        onConnect={(connection) => editing?.onConnect(connection.source, connection.target)}
        edgesReconnectable={false}
        elementsSelectable
        selectNodesOnDrag={false}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        deleteKeyCode={null}
        onNodeClick={(_, node) => {
          if (node.type === 'handler') onSelect({ type: 'node', id: node.id });
        }}
        onEdgeClick={(_, edge) => onSelect({ type: 'edge', id: edge.id })}
        onPaneClick={() => onSelect(null)}
        colorMode={theme}
        attributionPosition="bottom-center"
      >
        {/* Zoomed far out the dots would be a pixel apart: millions to paint on every pan frame. */}
        {sketch ? null : <Background variant={BackgroundVariant.Dots} gap={22} size={1.3} />}
        {showsRun ? <RunArrowDefs /> : null}
        <CanvasControls flow={flow} windowed={windowedGraph} padding={padding} />
        {windowedGraph && area !== null ? <WindowKeeper area={area} onMove={setArea} /> : null}
        {sketch ? <SketchLayer flow={flow} selection={selection} onSelect={onSelect} /> : null}
        {/* Zoomed out the canvas is the overview; the minimap shows React Flow's (hidden) nodes. */}
        {sketch ? null : <OverviewMap flow={flow} />}
      </ReactFlow>
    </SelectionContext.Provider>
  );
}
