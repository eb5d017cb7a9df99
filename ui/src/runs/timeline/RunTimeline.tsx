import { useCallback, useMemo, useRef, type KeyboardEvent } from 'react';
import type { Timeline } from '../../generated/Timeline';
import type { TimelineStage } from '../../generated/TimelineStage';
import { TimelineAxis } from './TimelineAxis';
import { TimelineBar } from './TimelineBar';
import { TimelineCluster, clusterPhaseAt } from './TimelineCluster';
import { LaneBands, LaneLabels } from './TimelineLanes';
import { TimelineToolbar } from './TimelineToolbar';
import { axisTicks, formatOffset } from './timeAxis';
import { ROW_HEIGHT, timeScaleStyle, timeToPx } from './timelineGeometry';
import { layoutTimeline, type TimelineBar as Bar } from './timelineLayout';
import { barPhaseAt } from './timelineMoment';
import { useElementWidth } from './useElementWidth';
import { useLatestRef } from './useLatestRef';
import { useTimelineGestures } from './useTimelineGestures';
import { useTimelineViewport } from './useTimelineViewport';
import { barRows, visibleItems, withKeptBar, type BarCluster } from './visibleBars';
import './timeline.css';

/** The track's width where it cannot be measured. */
const DEFAULT_TRACK_WIDTH = 800;
/** How much one press of a zoom button or key zooms. */
const ZOOM_STEP = 2;

/** What RunTimeline shows and reports. Times are ms since the run's start. */
export interface RunTimelineProps {
  timeline: Timeline;
  /** ms since the epoch: where running stages and open waits end. */
  now: number;
  selected: { node_id: string; visit: number } | null;
  onSelect(stage: TimelineStage): void;
  /** The scrubber's time, or null when not scrubbing. */
  scrubTime: number | null;
  onScrub(t: number | null): void;
}

function isSelected(bar: Bar, selected: RunTimelineProps['selected']): boolean {
  return selected !== null && bar.stage.node_id === selected.node_id && bar.stage.visit === selected.visit;
}

/**
 * A run's stages as bars on a time axis, one lane per parallel branch, with retries,
 * human waits, zoom and pan, and a scrubber. Only what is in view is drawn, and visits too
 * narrow to tell apart are drawn as clusters (see visibleBars), so a 20,000-stage run costs
 * about as much as a short one.
 */
export function RunTimeline({ timeline, now, selected, onSelect, scrubTime, onScrub }: RunTimelineProps) {
  const layoutNow = timeline.status === 'running' ? now : 0;
  const layout = useMemo(() => layoutTimeline(timeline, layoutNow), [timeline, layoutNow]);
  const rows = useMemo(() => barRows(layout), [layout]);
  const viewport = useTimelineViewport(layout.span);
  const { visible } = viewport;
  const frameRef = useRef<HTMLDivElement>(null);
  const axisRef = useRef<HTMLDivElement>(null);
  // The bars are drawn once the track's width is known, not first at a guessed width (a
  // second style and layout pass over every bar before the first paint).
  const [trackRef, measuredWidth] = useElementWidth<HTMLDivElement>();
  const measured = measuredWidth !== null || typeof ResizeObserver === 'undefined';
  const width = measuredWidth ?? DEFAULT_TRACK_WIDTH;
  const scale = width / (visible.end - visible.start);
  const { dragging, trackHandlers } = useTimelineGestures(
    { frame: frameRef, track: trackRef, axis: axisRef },
    viewport,
    scale,
  );
  const { step, ticks } = useMemo(() => axisTicks(visible, width), [visible, width]);
  const selectedKey = selected === null ? null : `${selected.node_id}#${selected.visit}`;
  // Selecting a visit splits the cluster it is in (when it is in one) rather than going over
  // the window's 20,000 visits again.
  const inView = useMemo(() => (measured ? visibleItems(rows, visible, scale) : []), [measured, rows, visible, scale]);
  const items = useMemo(() => withKeptBar(inView, selectedKey), [inView, selectedKey]);

  const latest = useLatestRef({ layout, onSelect });
  const selectBar = useCallback(
    (bar: Bar) => {
      const current = latest.current.layout.bars.find((b) => b.key === bar.key) ?? bar;
      latest.current.onSelect(current.stage);
    },
    [latest],
  );
  const { show } = viewport;
  const openCluster = useCallback((cluster: BarCluster) => show(cluster), [show]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Escape' && scrubTime !== null) onScrub(null);
    else if (event.key === '+' || event.key === '=') viewport.zoomBy(1 / ZOOM_STEP);
    else if (event.key === '-') viewport.zoomBy(ZOOM_STEP);
    else if (event.key === '0') viewport.fit();
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const cursorX = scrubTime === null ? null : timeToPx(scrubTime, visible, scale);
  return (
    <div
      className="run-timeline"
      data-testid="run-timeline"
      role="region"
      aria-label="Run timeline"
      onKeyDown={onKeyDown}
    >
      <TimelineToolbar
        span={layout.span}
        fitted={viewport.fitted}
        scrubLabel={scrubTime === null ? null : formatOffset(scrubTime, 1)}
        onZoomIn={() => viewport.zoomBy(1 / ZOOM_STEP)}
        onZoomOut={() => viewport.zoomBy(ZOOM_STEP)}
        onFit={viewport.fit}
        onClearScrub={() => onScrub(null)}
      />
      <div ref={frameRef} className="run-timeline__frame" style={timeScaleStyle(visible, scale, width)}>
        <div className="run-timeline__corner" />
        <TimelineAxis
          ref={axisRef}
          ticks={ticks}
          step={step}
          visible={visible}
          scale={scale}
          span={layout.span}
          scrubTime={scrubTime}
          onScrub={onScrub}
          onReveal={viewport.reveal}
        />
        <LaneLabels lanes={layout.lanes} />
        <div
          ref={trackRef}
          className={dragging ? 'run-timeline__track is-dragging' : 'run-timeline__track'}
          style={{ height: layout.rowCount * ROW_HEIGHT }}
          {...trackHandlers}
        >
          <LaneBands lanes={layout.lanes} />
          {ticks.map((tick) => (
            <div key={tick.t} className="run-timeline__gridline" style={{ left: timeToPx(tick.t, visible, scale) }} />
          ))}
          {items.map((item) =>
            item.type === 'bar' ? (
              <TimelineBar
                key={item.bar.key}
                bar={item.bar}
                selected={isSelected(item.bar, selected)}
                phase={scrubTime === null ? null : barPhaseAt(item.bar, scrubTime)}
                onSelect={selectBar}
              />
            ) : (
              <TimelineCluster
                key={item.cluster.key}
                cluster={item.cluster}
                phase={scrubTime === null ? null : clusterPhaseAt(item.cluster, scrubTime)}
                onOpen={openCluster}
              />
            ),
          )}
          {layout.bars.length === 0 ? <div className="run-timeline__empty">No stages have started yet.</div> : null}
          {cursorX === null ? null : (
            <div
              className="run-timeline__cursor"
              data-testid="timeline-scrubber"
              style={{ left: cursorX }}
              aria-hidden="true"
            />
          )}
        </div>
      </div>
    </div>
  );
}
