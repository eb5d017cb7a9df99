import { useLayoutEffect, useRef, useState } from 'react';
import type { Workflow } from '../generated/Workflow';
import { noteCanvasSize } from './layout/fold/canvasRoom';
import { WorkflowCanvas, type CanvasEditing } from './canvas/WorkflowCanvas';
import type { HandlerKind } from '../generated/HandlerKind';
import { NodePalette } from './NodePalette';
import type { CanvasSelection } from './flow/elementIds';
import type { FlowLayoutState } from './layout/useFlowLayout';
import { WorkflowSummary } from './WorkflowSummary';
import './workflow-view.css';

/** The canvas area: the laid-out graph with its summary card. */
export function WorkflowView({
  workflow,
  layout,
  selection,
  onSelect,
  editing,
}: {
  workflow: Workflow;
  layout: FlowLayoutState;
  selection: CanvasSelection;
  onSelect: (selection: CanvasSelection) => void;
  editing?: CanvasEditing & { onAddNode: (kind: HandlerKind) => void };
}) {
  // Measured as the view appears (before its first layout is asked for) and when it resizes,
  // so a long graph is folded to the canvas's shape.
  // The cards over the top-left are measured too: fitting keeps the graph below them.
  const root = useRef<HTMLDivElement>(null);
  const overlay = useRef<HTMLDivElement>(null);
  const [topInset, setTopInset] = useState(0);
  useLayoutEffect(() => {
    const element = root.current;
    const cards = overlay.current;
    if (element === null) return;
    const note = () => {
      const inset = cards === null ? 0 : cards.offsetTop + cards.offsetHeight;
      noteCanvasSize(element.clientWidth, element.clientHeight, inset);
      setTopInset(inset);
    };
    note();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(note);
    observer.observe(element);
    if (cards !== null) observer.observe(cards);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={root} className="workflow-view" data-testid="workflow-view" data-layout={layout.status}>
      {layout.status === 'ready' ? (
        <WorkflowCanvas flow={layout.flow} selection={selection} onSelect={onSelect} editing={editing} topInset={topInset} />
      ) : null}
      {layout.status === 'pending' ? (
        <div className="canvas-message" role="status">
          <span className="spinner" aria-hidden="true" /> Laying out the graph…
        </div>
      ) : null}
      {layout.status === 'failed' ? (
        <div className="canvas-message" role="alert">
          <div className="canvas-message__card is-error">
            <h2>The graph could not be laid out</h2>
            <p>{layout.message}</p>
          </div>
        </div>
      ) : null}
      {layout.status === 'ready' && workflow.nodes.length === 0 ? (
        <div className="canvas-message">
          <div className="canvas-message__card">
            <h2>This workflow has no nodes yet</h2>
            <p className="muted">Add nodes to the digraph and open the file again.</p>
          </div>
        </div>
      ) : null}
      <div ref={overlay} className="workflow-view__overlay is-top-left">
        <WorkflowSummary workflow={workflow} />
        {editing !== undefined ? <NodePalette onAdd={editing.onAddNode} /> : null}
      </div>
    </div>
  );
}
