import { useLayoutEffect, useMemo, type KeyboardEvent, type RefObject } from 'react';
import type { ExpressionProblem } from '../../generated/ExpressionProblem';
import { markedPieces } from './expressionMarks';

/**
 * A text area for a condition or stylesheet that marks the offending ranges: a copy of the
 * text lies under the (transparent) text area with the ranges highlighted, so the marks
 * line up with what is typed. It grows with its text instead of scrolling.
 */
export function ExpressionField({
  label,
  value,
  rows,
  marks,
  invalid,
  describedBy,
  fieldRef,
  onChange,
  onKeyDown,
}: {
  label: string;
  value: string;
  rows: number;
  /** Problems to mark, for exactly this `value` (none while it is being checked). */
  marks: readonly ExpressionProblem[];
  invalid: boolean;
  describedBy: string;
  fieldRef: RefObject<HTMLTextAreaElement | null>;
  onChange: (value: string) => void;
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  const pieces = useMemo(() => markedPieces(value, marks), [value, marks]);

  // Grow to fit the text (the mirror underneath sizes itself the same way).
  useLayoutEffect(() => {
    const area = fieldRef.current;
    if (area === null) return;
    area.style.height = 'auto';
    area.style.height = `${area.scrollHeight + area.offsetHeight - area.clientHeight}px`;
  }, [fieldRef, value]);

  return (
    <div className={invalid ? 'expression-field is-invalid' : 'expression-field'}>
      <div className="expression-field__mirror" aria-hidden="true" data-testid="expression-marks">
        {pieces.map((piece, i) =>
          piece.kind === 'plain' ? (
            <span key={i}>{piece.text}</span>
          ) : piece.kind === 'mark' ? (
            <mark key={i}>{piece.text}</mark>
          ) : (
            <span key={i} className="expression-field__caret" />
          ),
        )}
        {/* A trailing newline needs something after it to take up its line. */}
        {value.endsWith('\n') ? ' ' : null}
      </div>
      <textarea
        ref={fieldRef}
        autoFocus
        rows={rows}
        spellCheck={false}
        aria-label={label}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
