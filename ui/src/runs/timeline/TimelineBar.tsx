import { memo } from 'react';
import { barAriaLabel, barDurationMs, barName, barTooltip } from './barDescription';
import { formatDuration } from './timeAxis';
import { BAR_INSET, ROW_HEIGHT, customProperties, rowTop } from './timelineGeometry';
import type { TimelineBar as Bar } from './timelineLayout';
import type { BarPhase } from './timelineMoment';
import './timelineBar.css';

interface TimelineBarProps {
  bar: Bar;
  selected: boolean;
  /** Where the visit stood at the scrubber's time; null when nothing is scrubbed. */
  phase: BarPhase | null;
  /** Must keep its identity between renders, or every bar re-renders. */
  onSelect(bar: Bar): void;
}

/**
 * One stage visit: a button placed in time by CSS (see timeline.css), so zooming and
 * panning only change custom properties on the track and never re-render bars.
 */
function TimelineBarView({ bar, selected, phase, onSelect }: TimelineBarProps) {
  const { stage } = bar;
  const classes = [
    'timeline-bar',
    `status-${stage.status}`,
    bar.live ? 'is-live' : '',
    bar.open && !bar.live ? 'is-unfinished' : '',
    selected ? 'is-selected' : '',
    phase === 'pending' ? 'is-pending' : '',
    phase === 'running' ? 'is-current' : '',
  ];
  const style = {
    ...customProperties({ '--bar-start': bar.start, '--bar-end': bar.end }),
    top: rowTop(bar.row),
    height: ROW_HEIGHT - 2 * BAR_INSET,
  };
  return (
    <button
      type="button"
      className={classes.filter((c) => c !== '').join(' ')}
      style={style}
      data-testid="timeline-bar"
      data-node={stage.node_id}
      data-visit={stage.visit}
      data-status={stage.status}
      aria-label={barAriaLabel(bar)}
      aria-current={selected ? 'true' : undefined}
      title={barTooltip(bar)}
      onClick={() => onSelect(bar)}
    >
      {bar.waits.map((segment, i) => (
        <span
          key={i}
          className={segment.open ? 'timeline-bar__wait is-open' : 'timeline-bar__wait'}
          style={customProperties({ '--seg-start': segment.start, '--seg-end': segment.end })}
          aria-hidden="true"
        />
      ))}
      {bar.retryMarks.map((mark, i) => (
        <span key={i} className="timeline-bar__retry" style={customProperties({ '--mark': mark })} aria-hidden="true" />
      ))}
      <span className="timeline-bar__label" aria-hidden="true">
        <span className="timeline-bar__name">{barName(bar)}</span>
        <span className="timeline-bar__duration">{formatDuration(barDurationMs(bar))}</span>
        {stage.retries > 0 ? <span className="timeline-bar__retries">↻{stage.retries}</span> : null}
      </span>
    </button>
  );
}

/** Whether two bars would render the same. */
function sameBar(a: Bar, b: Bar): boolean {
  if (a === b) return true;
  const sa = a.stage;
  const sb = b.stage;
  return (
    a.key === b.key &&
    a.row === b.row &&
    a.start === b.start &&
    a.end === b.end &&
    a.open === b.open &&
    a.live === b.live &&
    sa.status === sb.status &&
    sa.kind === sb.kind &&
    sa.attempts === sb.attempts &&
    sa.retries === sb.retries &&
    sa.duration_ms === sb.duration_ms &&
    sa.notes === sb.notes &&
    sa.failure_reason === sb.failure_reason &&
    sa.failure_class === sb.failure_class &&
    sa.last_retry_reason === sb.last_retry_reason &&
    a.waits.length === b.waits.length &&
    a.waits.every((w, i) => {
      const other = b.waits[i];
      return (
        other !== undefined &&
        w.start === other.start &&
        w.end === other.end &&
        w.open === other.open &&
        w.wait.question === other.wait.question
      );
    })
  );
}

/** A stage visit's bar; re-renders only when what it shows changes. */
export const TimelineBar = memo(
  TimelineBarView,
  (prev, next) =>
    prev.selected === next.selected &&
    prev.phase === next.phase &&
    prev.onSelect === next.onSelect &&
    sameBar(prev.bar, next.bar),
);
