import { describe, expect, it } from 'vitest';
import type { ExpressionProblem } from '../../generated/ExpressionProblem';
import { markedPieces, problemMessage, problemPosition } from './expressionMarks';

function problem(start: number, end: number, message = 'wrong', line = 1, column = start + 1): ExpressionProblem {
  return { message, start, end, line, column };
}

describe('problemPosition', () => {
  it('gives a column for a one-line condition and line:column otherwise', () => {
    const p = problem(18, 18, 'm', 1, 19);
    expect(problemPosition('condition', 'outcome=success &&', p)).toBe('col 19');
    expect(problemPosition('condition', 'a &&\n', p)).toBe('1:19');
    expect(problemPosition('stylesheet', '* {}', { ...p, line: 2, column: 13 })).toBe('2:13');
  });
});

describe('problemMessage', () => {
  it('drops the position the backend puts in front', () => {
    expect(problemMessage(problem(0, 0, 'column 19: expected a key, found the end of the condition'))).toBe(
      'expected a key, found the end of the condition',
    );
    expect(problemMessage(problem(0, 0, '2:13: expected `:` after `reasoning_effort`'))).toBe(
      'expected `:` after `reasoning_effort`',
    );
    expect(problemMessage(problem(0, 0, 'no position here: fine'))).toBe('no position here: fine');
  });
});

describe('markedPieces', () => {
  it('is the plain text when there are no problems', () => {
    expect(markedPieces('outcome=success', [])).toEqual([{ kind: 'plain', text: 'outcome=success' }]);
  });

  it('marks a range', () => {
    expect(markedPieces('a { b c; }', [problem(4, 7)])).toEqual([
      { kind: 'plain', text: 'a { ' },
      { kind: 'mark', text: 'b c' },
      { kind: 'plain', text: '; }' },
    ]);
  });

  it('puts a caret where something is missing, also at the very end', () => {
    expect(markedPieces('outcome=success &&', [problem(18, 18)])).toEqual([
      { kind: 'plain', text: 'outcome=success &&' },
      { kind: 'caret' },
    ]);
    expect(markedPieces('ab', [problem(1, 1), problem(1, 1)])).toEqual([
      { kind: 'plain', text: 'a' },
      { kind: 'caret' },
      { kind: 'plain', text: 'b' },
    ]);
  });

  it('merges overlapping ranges and drops carets inside them', () => {
    expect(markedPieces('abcdefgh', [problem(1, 4), problem(3, 6), problem(4, 4)])).toEqual([
      { kind: 'plain', text: 'a' },
      { kind: 'mark', text: 'bcdef' },
      { kind: 'plain', text: 'gh' },
    ]);
  });

  it('keeps a caret right after a mark', () => {
    expect(markedPieces('abcd', [problem(0, 2), problem(2, 2)])).toEqual([
      { kind: 'mark', text: 'ab' },
      { kind: 'caret' },
      { kind: 'plain', text: 'cd' },
    ]);
  });

  it('clamps positions past the end (the text changed meanwhile)', () => {
    expect(markedPieces('ab', [problem(1, 9), problem(7, 7)])).toEqual([
      { kind: 'plain', text: 'a' },
      { kind: 'mark', text: 'b' },
      { kind: 'caret' },
    ]);
  });
});
