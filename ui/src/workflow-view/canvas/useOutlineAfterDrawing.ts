import { useEffect, useState } from 'react';
import type { WorkflowFlow } from '../flow/flowTypes';
import { overviewOutline, type OverviewOutline } from './overviewOutline';

/**
 * The outline of `nodes`, made in a task of its own after the next frame, the canvas's first
 * with them (null until then): for a 20,000-node graph it takes milliseconds to make (a pass
 * over every node's box), which that frame need not wait for.
 */
export function useOutlineAfterDrawing(nodes: WorkflowFlow['nodes']): OverviewOutline | null {
  const [made, setMade] = useState<{ nodes: WorkflowFlow['nodes']; outline: OverviewOutline } | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setMade({ nodes, outline: overviewOutline(nodes) }), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [nodes]);
  return made?.nodes === nodes ? made.outline : null;
}
