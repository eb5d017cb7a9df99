import type { KeyboardEvent, PointerEvent, Ref } from 'react';
import { formatOffset, stepDecimals, type AxisTick, type TimeWindow } from './timeAxis';
import { timeToPx } from './timelineGeometry';

interface TimelineAxisProps {
  ref: Ref<HTMLDivElement>;
  ticks: AxisTick[];
  /** The ticks' step, in ms: sets how precisely the cursor's time is shown. */
  step: number;
  visible: TimeWindow;
  /** px per ms. */
  scale: number;
  /** The run's length, in ms: the scrubber's range. */
  span: number;
  scrubTime: number | null;
  onScrub(t: number | null): void;
  /** Pans so `t` is visible (after moving the scrubber with the keyboard). */
  onReveal(t: number): void;
}

/**
 * The time axis: ticks, and the scrubber. It is a slider: clicking or dragging on it
 * sets the scrubber's time; arrows move it (Shift for bigger steps), Home/End jump to the
 * ends.
 */
export function TimelineAxis({ ref, ticks, step, visible, scale, span, scrubTime, onScrub, onReveal }: TimelineAxisProps) {
  const decimals = Math.min(3, stepDecimals(step) + 1);
  const clampTime = (t: number) => Math.round(Math.min(span, Math.max(0, t)));
  const timeAtPointer = (event: PointerEvent<HTMLDivElement>) => {
    const left = event.currentTarget.getBoundingClientRect().left;
    return clampTime(visible.start + (event.clientX - left) / (scale > 0 ? scale : 1));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    onScrub(timeAtPointer(event));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (event.currentTarget.hasPointerCapture(event.pointerId)) onScrub(timeAtPointer(event));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (event.currentTarget.hasPointerCapture(event.pointerId)) {
      event.currentTarget.releasePointerCapture(event.pointerId);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const nudge = Math.max(1, Math.round((visible.end - visible.start) / 100)) * (event.shiftKey ? 10 : 1);
    const from = scrubTime ?? visible.start;
    let to: number | null = null;
    if (event.key === 'ArrowLeft') to = from - nudge;
    else if (event.key === 'ArrowRight') to = from + nudge;
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = span;
    if (to === null) return;
    event.preventDefault();
    const t = clampTime(to);
    onScrub(t);
    onReveal(t);
  };

  const cursorX = scrubTime === null ? null : timeToPx(scrubTime, visible, scale);
  const cursorLabel = scrubTime === null ? null : formatOffset(scrubTime, decimals);
  return (
    <div
      ref={ref}
      className="timeline-axis"
      role="slider"
      tabIndex={0}
      aria-label="Time in the run"
      aria-valuemin={0}
      aria-valuemax={Math.round(span)}
      aria-valuenow={scrubTime === null ? undefined : Math.round(scrubTime)}
      aria-valuetext={cursorLabel ?? 'No time chosen'}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    >
      {ticks.map((tick) => (
        <span key={tick.t} className="timeline-axis__tick" style={{ left: timeToPx(tick.t, visible, scale) }}>
          {tick.label}
        </span>
      ))}
      {cursorX === null ? null : (
        <span className="timeline-axis__cursor" style={{ left: cursorX }}>
          {cursorLabel}
        </span>
      )}
    </div>
  );
}
