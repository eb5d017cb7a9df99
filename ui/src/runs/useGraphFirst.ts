import { useCallback, useEffect, useState } from 'react';
import type { RunGraph } from './useRunGraph';

/** The longest the events wait for the graph once it has been read (a layout that never
 * settles must not stall them). */
export const GRAPH_FIRST_MAX_MS = 2000;

/**
 * Whether the run's graph is still to be drawn before the events may start: it is being
 * read, or it has been read (with a workflow to draw) on the screen that shows it.
 */
export function graphStillToDraw(graphShown: boolean, graph: RunGraph, drawn: boolean): boolean {
  if (!graphShown || drawn) return false;
  return graph.state === 'loading' || (graph.state === 'ready' && graph.value.workflow !== null);
}

/**
 * Holds a run's event stream back until its graph has been drawn: thousands of replayed
 * events arrive as one long task, which would hold back the graph's answer and then its
 * first frame. Returns whether to hold, and the callback the graph calls once drawn. The
 * hold is let go once and for good: when the graph is drawn or failed, when another view
 * is shown instead of the graph, or after GRAPH_FIRST_MAX_MS.
 */
export function useGraphFirst(graphShown: boolean, graph: RunGraph): { hold: boolean; onDrawn: () => void } {
  const [drawn, setDrawn] = useState(false);
  const [released, setReleased] = useState(false);
  const onDrawn = useCallback(() => setDrawn(true), []);
  const waiting = !released && graphStillToDraw(graphShown, graph, drawn);
  // Let go for good the first time there is nothing to wait for.
  if (!released && !waiting) setReleased(true);
  // The wait is counted from when the graph has been read: a long run's graph may take the
  // server seconds to hand over, and the events streamed meanwhile would only slow it down.
  const read = graph.state !== 'loading';
  useEffect(() => {
    if (!read) return;
    const timer = setTimeout(() => setReleased(true), GRAPH_FIRST_MAX_MS);
    return () => clearTimeout(timer);
  }, [read]);
  return { hold: waiting, onDrawn };
}
