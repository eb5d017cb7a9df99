import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Edge } from '../../generated/Edge';
import type { EdgeRunMark, NodeRunMark } from '../flow/flowTypes';

/**
 * Where the canvas's nodes and edges read how a run stands at them (the run screen provides
 * one; the editor none). Each drawn element subscribes by its id, so a run's progress
 * redraws only the elements in view whose mark changed, and the flow React Flow holds never
 * changes with the progress (for a 20,000-node run, every change of the flow costs React
 * Flow a pass over every node and edge).
 */
export interface RunMarks {
  subscribe(listener: () => void): () => void;
  /** The node's mark; the same object while it does not change. */
  node(id: string): NodeRunMark | undefined;
  /**
   * The mark of canvas edge `id`, which draws workflow edge `edge` (undefined when not taken,
   * or without a workflow edge); the same object while it does not change.
   */
  edge(id: string, edge: Edge | undefined): EdgeRunMark | undefined;
}

export const RunMarksContext = createContext<RunMarks | null>(null);

const never = () => () => undefined;

/** Node `id`'s run mark (none on a canvas that shows no run). */
export function useNodeRunMark(id: string): NodeRunMark | undefined {
  const marks = useContext(RunMarksContext);
  return useSyncExternalStore(marks === null ? never : marks.subscribe, () => marks?.node(id));
}

/** The run mark of edge `id`, drawing workflow edge `edge` (none on a canvas that shows no run, or when not taken). */
export function useEdgeRunMark(id: string, edge: Edge | undefined): EdgeRunMark | undefined {
  const marks = useContext(RunMarksContext);
  return useSyncExternalStore(marks === null ? never : marks.subscribe, () => marks?.edge(id, edge));
}

/** Whether the canvas shows a run (its marks come from the context). */
export function useShowsRun(): boolean {
  return useContext(RunMarksContext) !== null;
}
