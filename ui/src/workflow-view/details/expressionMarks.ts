/**
 * How problems in a condition or stylesheet are shown: where each one is (a column in a
 * one-line condition, line:column otherwise), its message without the position the backend
 * already put in front, and the text cut into pieces so the offending ranges can be marked.
 */
import type { ExpressionKind } from '../../generated/ExpressionKind';
import type { ExpressionProblem } from '../../generated/ExpressionProblem';

/** `col 19` for a one-line condition, `2:13` for anything else. */
export function problemPosition(kind: ExpressionKind, text: string, problem: ExpressionProblem): string {
  return kind === 'condition' && !text.includes('\n')
    ? `col ${problem.column}`
    : `${problem.line}:${problem.column}`;
}

/** The message without a leading `column 19: ` or `2:13: ` (shown separately). */
export function problemMessage(problem: ExpressionProblem): string {
  return problem.message.replace(/^(?:column \d+|\d+:\d+):\s*/, '');
}

/** A piece of the text: plain, marked as wrong, or a caret where something is missing. */
export type MarkedPiece = { kind: 'plain'; text: string } | { kind: 'mark'; text: string } | { kind: 'caret' };

/**
 * `text` cut into plain and marked pieces (overlapping ranges merged), with a caret piece
 * for each empty range (such as "expected a key" at the very end). Positions are UTF-16
 * offsets, clamped to the text.
 */
export function markedPieces(text: string, problems: readonly ExpressionProblem[]): MarkedPiece[] {
  const clamp = (n: number) => Math.max(0, Math.min(text.length, n));
  const ranges = problems
    .map((p) => ({ start: clamp(p.start), end: clamp(Math.max(p.start, p.end)) }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last !== undefined && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const carets = [
    ...new Set(
      problems
        .filter((p) => Math.max(p.start, p.end) <= p.start)
        .map((p) => clamp(p.start))
        .filter((at) => !merged.some((r) => at > r.start && at < r.end)),
    ),
  ].sort((a, b) => a - b);

  const pieces: MarkedPiece[] = [];
  const plain = (from: number, to: number) => {
    let at = from;
    for (const caret of carets) {
      if (caret < at || caret > to) continue;
      if (caret === to && to !== text.length && merged.some((r) => r.start === to)) continue;
      if (caret > at) pieces.push({ kind: 'plain', text: text.slice(at, caret) });
      pieces.push({ kind: 'caret' });
      at = caret;
    }
    if (to > at) pieces.push({ kind: 'plain', text: text.slice(at, to) });
  };
  let at = 0;
  for (const range of merged) {
    plain(at, range.start);
    pieces.push({ kind: 'mark', text: text.slice(range.start, range.end) });
    at = range.end;
  }
  plain(at, text.length);
  return pieces;
}
