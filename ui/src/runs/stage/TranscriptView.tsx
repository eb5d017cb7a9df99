import { useEffect, useRef } from 'react';
import type { Transcript } from '../transcript';

/**
 * What a stage visit produced live: streamed text (agent replies, command output) and tool
 * calls with their results. Follows the end while the person has not scrolled up.
 */
export function TranscriptView({
  transcript,
  running,
  version,
}: {
  transcript: Transcript | null;
  running: boolean;
  /** Changes when any transcript grew (follow the end then). */
  version: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (el !== null && stick.current) el.scrollTop = el.scrollHeight;
  }, [version]);
  if (transcript === null || transcript.items.length === 0) {
    return <p className="muted stage-file__empty">{running ? 'Waiting for output…' : 'This stage streamed no output.'}</p>;
  }
  return (
    <div
      className="transcript"
      ref={box}
      data-testid="transcript"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {transcript.cutChars > 0 ? (
        <p className="muted transcript__cut">{transcript.cutChars} earlier characters are only in the stage's logs.</p>
      ) : null}
      {transcript.items.map((item, i) =>
        item.kind === 'text' ? (
          <pre key={i} className={`transcript__text is-${item.stream}`}>
            {item.text}
          </pre>
        ) : (
          <details key={i} className={`transcript__tool${item.isError ? ' is-error' : ''}`} open={item.result === null}>
            <summary>
              <span className="transcript__tool-name">{item.tool}</span>
              {item.result === null ? <span className="spinner" aria-label="running" /> : item.isError ? ' failed' : ' done'}
            </summary>
            {item.arguments !== '' ? <pre className="transcript__args">{item.arguments}</pre> : null}
            {item.result !== null ? <pre className="transcript__result">{item.result}</pre> : null}
          </details>
        ),
      )}
      {running ? <span className="transcript__cursor" aria-hidden="true" /> : null}
    </div>
  );
}
