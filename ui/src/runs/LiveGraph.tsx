import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import type { Workflow } from '../generated/Workflow';
import type { CanvasSelection } from '../workflow-view/flow/elementIds';
import type { WorkflowFlow } from '../workflow-view/flow/flowTypes';
import { useFlowLayout, type FlowLayoutState } from '../workflow-view/layout/useFlowLayout';
import { WorkflowView } from '../workflow-view/WorkflowView';
import { withRunProgress } from './liveFlow';
import type { RunProgress } from './runProgress';
import type { RunGraph } from './useRunGraph';
import './live-graph.css';

function LaidOutRun({
  opened,
  workflow,
  progress,
  selectedNode,
  onSelectNode,
  onDrawn,
}: {
  opened: OpenedWorkflow;
  workflow: Workflow;
  progress: RunProgress;
  selectedNode: string | null;
  onSelectNode: (node: string | null) => void;
  onDrawn: () => void;
}) {
  const laidOut = useFlowLayout(workflow, opened.diagnostics);
  const settled = laidOut.status !== 'pending';
  useEffect(() => {
    if (!settled) return;
    // After the frame that shows it (or says why it could not be laid out); a hidden page
    // draws no frames, so there it is at once.
    if (document.hidden) {
      onDrawn();
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(onDrawn, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [settled, onDrawn]);
  const previous = useRef<WorkflowFlow | undefined>(undefined);
  const layout: FlowLayoutState = useMemo(() => {
    if (laidOut.status !== 'ready') return laidOut;
    const flow = withRunProgress(laidOut.flow, progress, previous.current);
    previous.current = flow;
    return { status: 'ready', flow };
  }, [laidOut, progress]);
  const selection: CanvasSelection = useMemo(() => (selectedNode === null ? null : { type: 'node', id: selectedNode }), [selectedNode]);
  const onSelect = useCallback((next: CanvasSelection) => onSelectNode(next?.type === 'node' ? next.id : null), [onSelectNode]);
  return <WorkflowView workflow={workflow} layout={layout} selection={selection} onSelect={onSelect} />;
}

/**
 * The run's workflow (the `graph.dot` its folder keeps, as the run parsed it; see
 * `useRunGraph`) on the canvas, each node coloured by how it stands in `progress`, the edges
 * taken highlighted.
 */
export function LiveGraph({
  graph,
  progress,
  selectedNode,
  onSelectNode,
  onDrawn,
}: {
  graph: RunGraph;
  progress: RunProgress;
  selectedNode: string | null;
  onSelectNode: (node: string | null) => void;
  /** Called once the graph has been drawn (or its layout failed). */
  onDrawn: () => void;
}) {
  if (graph.state === 'failed') {
    return (
      <div className="canvas-message" role="alert">
        <div className="canvas-message__card is-error">
          <h2>The run's workflow could not be read</h2>
          <p>{graph.error.message}</p>
        </div>
      </div>
    );
  }
  if (graph.state === 'loading' || graph.value.workflow === null) {
    return (
      <div className="canvas-message" role="status">
        <span className="spinner" aria-hidden="true" /> Reading the run's workflow…
      </div>
    );
  }
  return (
    <ReactFlowProvider>
      <LaidOutRun
        opened={graph.value}
        workflow={graph.value.workflow}
        progress={progress}
        selectedNode={selectedNode}
        onSelectNode={onSelectNode}
        onDrawn={onDrawn}
      />
    </ReactFlowProvider>
  );
}
