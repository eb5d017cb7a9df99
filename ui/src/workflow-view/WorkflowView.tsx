import type { Workflow } from '../generated/Workflow';
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
  return (
    <div className="workflow-view" data-testid="workflow-view" data-layout={layout.status}>
      {layout.status === 'ready' ? (
        <WorkflowCanvas flow={layout.flow} selection={selection} onSelect={onSelect} editing={editing} />
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
      <div className="workflow-view__overlay is-top-left">
        <WorkflowSummary workflow={workflow} />
        {editing !== undefined ? <NodePalette onAdd={editing.onAddNode} /> : null}
      </div>
    </div>
  );
}
