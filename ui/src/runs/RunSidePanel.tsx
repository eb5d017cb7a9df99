import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { SidePanelSplitter } from './SidePanelSplitter';
import { MIN_SIDE_WIDTH, clampSideWidth, rememberSideWidth, rememberedSideWidth } from './sidePanelWidth';

/**
 * The stage panel on the right of a run's screen, sharing the width with the graph and the
 * timeline (not covering them): a splitter to drag, then the panel, as wide as the person
 * last left it.
 */
export function RunSidePanel({ children }: { children: ReactNode }) {
  const panelRef = useRef<HTMLElement | null>(null);
  const [wanted, setWanted] = useState(rememberedSideWidth);
  // The width of the run body both sides share (0 until measured: the panel is not clamped).
  const [available, setAvailable] = useState(0);
  useLayoutEffect(() => {
    const body = panelRef.current?.parentElement;
    if (body === null || body === undefined) return;
    if (typeof ResizeObserver === 'undefined') {
      setAvailable(body.clientWidth);
      return;
    }
    // Measured once the frame is laid out (an observer's first report comes before that
    // frame is painted), not as the panel mounts: reading the width then would lay the whole
    // screen out an extra time, tens of ms beside a long run's graph and timeline. Applied
    // at once, so a narrow window never paints the panel unclamped.
    const observer = new ResizeObserver(() => flushSync(() => setAvailable(body.clientWidth)));
    observer.observe(body);
    return () => observer.disconnect();
  }, []);

  const width = clampSideWidth(wanted, available);
  const max = clampSideWidth(Number.POSITIVE_INFINITY, available);
  return (
    <>
      <SidePanelSplitter
        width={width}
        min={MIN_SIDE_WIDTH}
        max={Number.isFinite(max) ? max : width}
        onResize={(next) => setWanted(clampSideWidth(next, available))}
        onCommit={(next) => {
          const kept = clampSideWidth(next, available);
          setWanted(kept);
          rememberSideWidth(kept);
        }}
      />
      <aside ref={panelRef} className="run-side" style={{ width }} data-testid="run-side">
        {children}
      </aside>
    </>
  );
}
