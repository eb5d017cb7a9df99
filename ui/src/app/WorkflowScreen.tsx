import { ReactFlowProvider } from '@xyflow/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { DiagnosticsPanel } from '../diagnostics/DiagnosticsPanel';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import type { Workflow } from '../generated/Workflow';
import type { CanvasSelection } from '../workflow-view/flow/elementIds';
import { WorkflowView } from '../workflow-view/WorkflowView';
import { useFocusElement } from '../workflow-view/canvas/useFocusElement';
import { useFlowLayout, type FlowLayoutState } from '../workflow-view/layout/useFlowLayout';
import { withPinnedPositions } from '../workflow-view/flow/pinnedFlow';
import type { LayoutSidecar } from './useLayoutSidecar';
import { ElementDetails, type ElementEditing } from '../workflow-view/details/ElementDetails';
import { GraphSettings } from '../workflow-view/details/GraphSettings';
import { WorkflowPathProvider } from '../workflow-view/details/WorkflowPathContext';
import {
  addedNodeId,
  addNodeEdit,
  connectEdit,
  deleteEdit,
  renameEdit,
  setAttributeEdit,
} from '../editing/canvasEdits';
import type { HandlerKind } from '../generated/HandlerKind';
import type { WorkflowEdit } from '../generated/WorkflowEdit';
import type { WorkflowEditing } from './useWorkflowEditing';
import { UnreadableWorkflow } from './UnreadableWorkflow';

// CodeMirror loads only when the source view is first shown, keeping it out of the start-up bundle.
const SourceView = lazy(() => import('../source/SourceView').then((m) => ({ default: m.SourceView })));

function LaidOutWorkflow({
  opened,
  workflow,
  editing,
  sidecar,
}: {
  opened: OpenedWorkflow;
  workflow: Workflow;
  editing: WorkflowEditing;
  sidecar: LayoutSidecar;
}) {
  const laidOut = useFlowLayout(workflow, opened.diagnostics);
  const layout: FlowLayoutState = useMemo(
    () =>
      laidOut.status === 'ready' ? { status: 'ready', flow: withPinnedPositions(laidOut.flow, sidecar.positions) } : laidOut,
    [laidOut, sidecar.positions],
  );
  const [selection, setSelection] = useState<CanvasSelection>(null);
  const [showSource, setShowSource] = useState(false);

  const focus = useFocusElement(layout.status === 'ready' ? layout.flow : null);
  const { apply } = editing;

  // The API decides what an edit means and refuses what the dialect forbids (the refusal
  // shows as the editor's error); the canvas only names the operation and shows the answer.
  const applyOne = useCallback(
    async (edit: WorkflowEdit) => {
      const next = await apply([edit]);
      if (next !== null) sidecar.follow([edit]);
      return next;
    },
    [apply, sidecar],
  );
  const elementEditing: ElementEditing = useMemo(
    () => ({
      onNodeAttribute: (id, key, value) => void applyOne(setAttributeEdit({ type: 'node', id }, key, value)),
      onEdgeAttribute: (edge, key, value) => void applyOne(setAttributeEdit({ type: 'edge', edge }, key, value)),
      onRename: (from, to) => {
        void applyOne(renameEdit(from, to)).then((next) => {
          if (next !== null) setSelection({ type: 'node', id: to });
        });
      },
    }),
    [applyOne],
  );
  const canvasEditing = useMemo(
    () => ({
      onConnect: (from: string, to: string) => void applyOne(connectEdit(from, to)),
      onMoveNode: sidecar.pin,
      onAddNode: (kind: HandlerKind) => {
        void apply([addNodeEdit(kind)]).then((next) => {
          const id = next === null ? null : addedNodeId(workflow, next.workflow);
          if (id === null) return;
          sidecar.follow([{ op: 'add_node', id, attrs: [] }]);
          setSelection({ type: 'node', id });
        });
      },
    }),
    [apply, applyOne, sidecar, workflow],
  );
  const flow = layout.status === 'ready' ? layout.flow : null;
  const deleteSelection = useCallback(() => {
    if (selection === null) return;
    const edge =
      selection.type === 'edge' ? flow?.edges.find((e) => e.id === selection.id)?.data?.edge : undefined;
    const target =
      selection.type === 'node'
        ? { nodes: [selection.id], edges: [] }
        : edge !== undefined
          ? { nodes: [], edges: [{ from: edge.from, to: edge.to, occurrence: edge.occurrence }] }
          : null;
    if (target === null) return;
    void applyOne(deleteEdit(target)).then((next) => {
      if (next !== null) setSelection(null);
    });
  }, [applyOne, flow, selection]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target;
      const typing =
        target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
      if (event.key === 'Escape') setSelection(null);
      else if ((event.key === 'Delete' || event.key === 'Backspace') && !typing) deleteSelection();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [deleteSelection]);

  const isOnCanvas = useCallback(
    (s: NonNullable<CanvasSelection>) =>
      flow !== null &&
      (s.type === 'node'
        ? flow.nodes.some((n) => n.type === 'handler' && n.id === s.id)
        : flow.edges.some((e) => e.id === s.id)),
    [flow],
  );
  const reveal = useCallback(
    (s: NonNullable<CanvasSelection>) => {
      setSelection(s);
      focus(s);
    },
    [focus],
  );

  return (
    <div className={showSource ? 'workflow-screen has-source' : 'workflow-screen'}>
      <WorkflowView
        workflow={workflow}
        layout={layout}
        selection={selection}
        onSelect={setSelection}
        editing={canvasEditing}
      />
      <button
        type="button"
        className={`button is-small source-toggle${showSource ? ' is-active' : ''}`}
        data-testid="source-toggle"
        aria-pressed={showSource}
        onClick={() => setShowSource((shown) => !shown)}
      >
        {showSource ? 'Hide source' : 'Source'}
      </button>
      {sidecar.positions.size > 0 ? (
        <button
          type="button"
          className="button is-small layout-reset"
          data-testid="layout-reset"
          title="Forget the positions you set by dragging and lay the whole graph out again"
          onClick={sidecar.reset}
        >
          Reset layout
        </button>
      ) : null}
      {sidecar.problems.length > 0 || sidecar.error !== null ? (
        <div className="toast banner is-error" role="alert" data-testid="layout-problem">
          <strong>Layout file {sidecar.error === null ? 'partly ignored' : 'not read or saved'}</strong>
          <span>{sidecar.error?.message ?? sidecar.problems.join('; ')}</span>
          <button type="button" className="button is-small" onClick={sidecar.dismiss}>
            Dismiss
          </button>
        </div>
      ) : null}
      {showSource ? (
        <div className="source-panel">
          <Suspense
            fallback={
              <div className="canvas-message" role="status">
                <span className="spinner" aria-hidden="true" /> Loading the source view…
              </div>
            }
          >
            <SourceView source={opened.source} diagnostics={opened.diagnostics} onChange={editing.typeText} />
          </Suspense>
        </div>
      ) : null}
      <div className="side-panel">
        {flow !== null && selection !== null ? (
          <ElementDetails
            flow={flow}
            selection={selection}
            onClose={() => setSelection(null)}
            editing={elementEditing}
          />
        ) : (
          <GraphSettings
            workflow={workflow}
            onChange={(key, value) => void applyOne(setAttributeEdit({ type: 'graph' }, key, value))}
          />
        )}
        <DiagnosticsPanel
          diagnostics={opened.diagnostics}
          selection={selection}
          isOnCanvas={isOnCanvas}
          onReveal={reveal}
        />
      </div>
    </div>
  );
}

/** An opened workflow: the canvas, its diagnostics and the editable details of the selection, or
 * the diagnostics alone when no graph could be read. */
export function WorkflowScreen({
  opened,
  editing,
  sidecar,
}: {
  opened: OpenedWorkflow;
  editing: WorkflowEditing;
  sidecar: LayoutSidecar;
}) {
  if (opened.workflow === null) {
    return (
      <div className="workflow-screen">
        <UnreadableWorkflow opened={opened} />
        <div className="side-panel">
          <DiagnosticsPanel
            diagnostics={opened.diagnostics}
            selection={null}
            isOnCanvas={() => false}
            onReveal={() => {}}
          />
        </div>
      </div>
    );
  }
  return (
    <ReactFlowProvider key={opened.path}>
      <WorkflowPathProvider path={opened.path}>
        <LaidOutWorkflow opened={opened} workflow={opened.workflow} editing={editing} sidecar={sidecar} />
      </WorkflowPathProvider>
    </ReactFlowProvider>
  );
}
