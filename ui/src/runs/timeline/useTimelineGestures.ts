import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import { useLatestRef } from './useLatestRef';
import type { TimelineViewport } from './useTimelineViewport';

/** How strongly one pixel of wheel movement zooms. */
const WHEEL_ZOOM_PER_PX = 0.002;
const LINE_PX = 16;

/** Elements the gestures need. */
export interface GestureTargets {
  /** Receives wheel events (the whole timeline). */
  frame: RefObject<HTMLElement | null>;
  /** The bars' area, whose left edge is time `visible.start`. */
  track: RefObject<HTMLElement | null>;
  /** The time axis: a plain wheel over it zooms. */
  axis: RefObject<HTMLElement | null>;
}

/** Wheel pixels, whatever unit the event used. */
function wheelPixels(delta: number, mode: number, pagePx: number): number {
  if (mode === 1) return delta * LINE_PX;
  if (mode === 2) return delta * pagePx;
  return delta;
}

/**
 * Wheel and drag gestures. Ctrl/⌘+wheel (or pinch) anywhere, or a plain wheel over the
 * axis, zooms around the pointer; shift+wheel or a sideways wheel pans; other wheeling
 * scrolls the lanes. Dragging the track's background pans. `scale` is px per ms.
 */
export function useTimelineGestures(targets: GestureTargets, viewport: TimelineViewport, scale: number) {
  const latest = useLatestRef({ viewport, scale });
  const [dragging, setDragging] = useState(false);
  const lastX = useRef(0);
  const { frame, track, axis } = targets;

  useEffect(() => {
    const element = frame.current;
    if (element === null) return;
    const onWheel = (event: WheelEvent) => {
      const { viewport: vp, scale: pxPerMs } = latest.current;
      const trackBox = track.current?.getBoundingClientRect();
      if (trackBox === undefined || !(pxPerMs > 0)) return;
      const dx = wheelPixels(event.deltaX, event.deltaMode, trackBox.width);
      const dy = wheelPixels(event.deltaY, event.deltaMode, trackBox.height);
      const overAxis = event.target instanceof Node && axis.current?.contains(event.target) === true;
      if ((event.ctrlKey || event.metaKey || overAxis) && dy !== 0 && !event.shiftKey) {
        event.preventDefault();
        const focus = vp.visible.start + (event.clientX - trackBox.left) / pxPerMs;
        vp.zoomBy(Math.exp(dy * WHEEL_ZOOM_PER_PX), focus);
      } else if (event.shiftKey || Math.abs(dx) > Math.abs(dy)) {
        event.preventDefault();
        const px = event.shiftKey && dx === 0 ? dy : dx;
        vp.panBy(px / pxPerMs);
      }
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [frame, track, axis, latest]);

  const endDrag = (event: ReactPointerEvent<HTMLElement>) => {
    if (event.currentTarget.hasPointerCapture(event.pointerId)) {
      event.currentTarget.releasePointerCapture(event.pointerId);
    }
    setDragging(false);
  };
  const trackHandlers = {
    onPointerDown(event: ReactPointerEvent<HTMLElement>) {
      if (event.button !== 0) return;
      if (event.target instanceof Element && event.target.closest('button') !== null) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      lastX.current = event.clientX;
      setDragging(true);
    },
    onPointerMove(event: ReactPointerEvent<HTMLElement>) {
      if (!dragging) return;
      const { viewport: vp, scale: pxPerMs } = latest.current;
      const dx = event.clientX - lastX.current;
      lastX.current = event.clientX;
      if (dx !== 0 && pxPerMs > 0) vp.panBy(-dx / pxPerMs);
    },
    onPointerUp: endDrag,
    onPointerCancel: endDrag,
  };

  return { dragging, trackHandlers };
}
