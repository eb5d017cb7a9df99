import { useStore, useStoreApi } from '@xyflow/react';
import { useEffect } from 'react';
import type { Bounds } from './fitViewport';
import { keepsWindow, viewOf, windowAround } from './viewportWindow';

/**
 * Moves the window of a windowed graph (see `viewportWindow`) when the view leaves it (or
 * shrinks well inside it, zoomed in), to round the view again (inside `ReactFlow`); re-renders only when the view crosses its edge.
 */
export function WindowKeeper({ area, onMove }: { area: Bounds; onMove: (area: Bounds) => void }) {
  const inside = useStore((s) => s.width === 0 || s.height === 0 || keepsWindow(area, viewOf(s.transform, s.width, s.height)));
  const store = useStoreApi();
  useEffect(() => {
    if (inside) return;
    const { transform, width, height } = store.getState();
    onMove(windowAround(viewOf(transform, width, height)));
  }, [inside, store, onMove]);
  return null;
}
