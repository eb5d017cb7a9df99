import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { KEY_STEP } from './sidePanelWidth';

/**
 * The bar between a run's main view and the stage panel on its right: dragging it (or the
 * arrow keys while it has focus) sets the panel's width. `onResize` gets the wanted width,
 * `onCommit` the width to remember once the drag or key press is done.
 */
export function SidePanelSplitter({
  width,
  min,
  max,
  onResize,
  onCommit,
}: {
  width: number;
  min: number;
  max: number;
  onResize: (width: number) => void;
  onCommit: (width: number) => void;
}) {
  // Where the drag started: the pointer's x and the panel's width then.
  const drag = useRef<{ x: number; width: number; last: number } | null>(null);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, width, last: width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (start === null) return;
    // The panel is on the right: moving the bar left widens it.
    start.last = start.width + (start.x - e.clientX);
    onResize(start.last);
  };
  const endDrag = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (start === null) return;
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    onCommit(start.last);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next =
      e.key === 'ArrowLeft' ? width + KEY_STEP : e.key === 'ArrowRight' ? width - KEY_STEP : e.key === 'Home' ? max : e.key === 'End' ? min : null;
    if (next === null) return;
    e.preventDefault();
    onResize(next);
    onCommit(next);
  };

  return (
    <div
      className="run-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the stage panel"
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      data-testid="run-splitter"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onKeyDown={onKeyDown}
    />
  );
}
