import { memo, useMemo, useState } from 'react';
import { ansiLines, type AnsiSpan } from './ansi';
import { longestLine } from './logColumns';

/** Height of one log line in pixels (matches `.log-view__line` in stage.css). */
const LINE_HEIGHT = 18;
/** Lines drawn above and below the visible ones. */
const OVERSCAN = 30;

const Line = memo(function Line({ spans, number, top }: { spans: AnsiSpan[]; number: number; top: number }) {
  return (
    <div className="log-view__line" style={{ top }}>
      <span className="log-view__number">{number}</span>
      <span className="log-view__text">
        {spans.map((span, i) => (
          <span
            key={i}
            style={{ color: span.fg ?? undefined, background: span.bg ?? undefined }}
            className={[span.bold ? 'is-bold' : '', span.dim ? 'is-dim' : '', span.underline ? 'is-underline' : '']
              .join(' ')
              .trim() || undefined}
          >
            {span.text}
          </span>
        ))}
      </span>
    </div>
  );
});

/** The line-number column and the space after the text, in pixels (matches stage.css). */
const GUTTER = 52 + 10 + 16;

/**
 * A log with ANSI colours and line numbers. Only the lines in view are in the page, so a log
 * of a hundred thousand lines scrolls as smoothly as a short one; long lines scroll sideways
 * (the view is as wide as the longest line, whether it is drawn yet or not).
 */
export function LogView({ text, label }: { text: string; label: string }) {
  const lines = useMemo(() => ansiLines(text), [text]);
  const columns = useMemo(() => longestLine(lines), [lines]);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const first = Math.max(0, Math.floor(scrollTop / LINE_HEIGHT) - OVERSCAN);
  const last = Math.min(lines.length, Math.ceil((scrollTop + height) / LINE_HEIGHT) + OVERSCAN);
  const shown = [];
  for (let i = first; i < last; i += 1) {
    shown.push(<Line key={i} spans={lines[i] ?? []} number={i + 1} top={i * LINE_HEIGHT} />);
  }
  return (
    <div
      className="log-view"
      role="log"
      aria-label={label}
      tabIndex={0}
      data-testid="log-view"
      data-lines={lines.length}
      ref={(el) => {
        if (el !== null && el.clientHeight > 0 && el.clientHeight !== height) setHeight(el.clientHeight);
      }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div className="log-view__space" style={{ height: lines.length * LINE_HEIGHT, width: `calc(${columns}ch + ${GUTTER}px)` }}>
        {shown}
      </div>
    </div>
  );
}
