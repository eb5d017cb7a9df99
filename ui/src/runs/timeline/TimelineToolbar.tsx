import { formatDuration } from './timeAxis';

interface TimelineToolbarProps {
  /** The run's length, in ms. */
  span: number;
  /** Whether the whole run is visible (Fit does nothing then). */
  fitted: boolean;
  /** The scrubber's time as text, or null when not scrubbing. */
  scrubLabel: string | null;
  onZoomIn(): void;
  onZoomOut(): void;
  onFit(): void;
  onClearScrub(): void;
}

/** Zoom buttons, Fit, the run's length and the scrubber's time with a button to clear it. */
export function TimelineToolbar(props: TimelineToolbarProps) {
  const { span, fitted, scrubLabel, onZoomIn, onZoomOut, onFit, onClearScrub } = props;
  return (
    <div className="run-timeline__toolbar">
      <div className="run-timeline__zoom" role="group" aria-label="Zoom">
        <button type="button" className="button is-small" onClick={onZoomOut} aria-label="Zoom out" title="Zoom out (-)">
          −
        </button>
        <button type="button" className="button is-small" onClick={onZoomIn} aria-label="Zoom in" title="Zoom in (+)">
          +
        </button>
        <button type="button" className="button is-small" onClick={onFit} disabled={fitted} title="Show the whole run (0)">
          Fit
        </button>
      </div>
      <span className="run-timeline__span">Total {formatDuration(span)}</span>
      {scrubLabel === null ? null : (
        <span className="run-timeline__scrub">
          <span className="run-timeline__scrub-time">At {scrubLabel}</span>
          <button
            type="button"
            className="button is-small"
            onClick={onClearScrub}
            aria-label="Clear the scrubber"
            title="Clear the scrubber (Escape)"
          >
            Clear
          </button>
        </span>
      )}
    </div>
  );
}
