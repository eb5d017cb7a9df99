import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useMemo } from 'react';
import type { RunWorkflow } from '../generated/RunWorkflow';
import type { Workflow } from '../generated/Workflow';
import type { CanvasSelection } from '../workflow-view/flow/elementIds';
import { RunMarksContext } from '../workflow-view/canvas/runMarks';
import { useFlowLayout } from '../workflow-view/layout/useFlowLayout';
import { WorkflowView } from '../workflow-view/WorkflowView';
import { LiveRunMarks } from './liveRunMarks';
import type { NodeProgress, RunProgress } from './runProgress';
import type { RunGraph } from './useRunGraph';
import './live-graph.css';

function LaidOutRun({
  opened,
  workflow,
  progress,
  timelineNodes,
  selectedNode,
  onSelectNode,
  onDrawn,
}: {
  opened: RunWorkflow;
  workflow: Workflow;
  progress: RunProgress;
  timelineNodes: ReadonlyMap<string, NodeProgress>;
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
  // The progress reaches the drawn nodes and edges through the marks, never through the flow:
  // React Flow goes over every node and edge whenever the flow changes.
  const marks = useMemo(() => (laidOut.status === 'ready' ? new LiveRunMarks(laidOut.flow) : null), [laidOut]);
  // Shown before the elements are drawn (they read it as they render); those drawn before
  // are told afterwards, and redraw only when their mark changed.
  marks?.show(progress, timelineNodes);
  useLayoutEffect(() => marks?.notify(), [marks, progress, timelineNodes]);
  const selection: CanvasSelection = useMemo(() => (selectedNode === null ? null : { type: 'node', id: selectedNode }), [selectedNode]);
  const onSelect = useCallback((next: CanvasSelection) => onSelectNode(next?.type === 'node' ? next.id : null), [onSelectNode]);
  return (
    <RunMarksContext.Provider value={marks}>
      <WorkflowView workflow={workflow} layout={laidOut} selection={selection} onSelect={onSelect} />
    </RunMarksContext.Provider>
  );
}

/**
 * The run's workflow (the `graph.dot` its folder keeps, as the run parsed it; see
 * `useRunGraph`) on the canvas, each node coloured by how it stands in `progress` (or, until
 * its events reach it, in `timelineNodes`), the edges taken highlighted.
 */
export function LiveGraph({
  graph,
  progress,
  timelineNodes,
  selectedNode,
  onSelectNode,
  onDrawn,
}: {
  graph: RunGraph;
  progress: RunProgress;
  /** Each node as the run's timeline has it (see `nodesOfTimeline`). */
  timelineNodes: ReadonlyMap<string, NodeProgress>;
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
        timelineNodes={timelineNodes}
        selectedNode={selectedNode}
        onSelectNode={onSelectNode}
        onDrawn={onDrawn}
      />
    </ReactFlowProvider>
  );
}
