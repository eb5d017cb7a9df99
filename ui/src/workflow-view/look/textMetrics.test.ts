import { describe, expect, it } from 'vitest';
import { estimateTextWidth, wrapText } from './textMetrics';

const font = { size: 13 };

describe('estimateTextWidth', () => {
  it('grows with the text and the font size', () => {
    expect(estimateTextWidth('', font)).toBe(0);
    expect(estimateTextWidth('abcdef', font)).toBeGreaterThan(estimateTextWidth('abc', font));
    expect(estimateTextWidth('abc', { size: 26 })).toBeGreaterThan(estimateTextWidth('abc', font));
  });

  it('treats wide letters as wider than narrow ones', () => {
    expect(estimateTextWidth('WWWW', font)).toBeGreaterThan(estimateTextWidth('iiii', font));
  });

  it('gives every character the same advance in monospace', () => {
    const mono = { size: 11, mono: true };
    expect(estimateTextWidth('WWWW', mono)).toBe(estimateTextWidth('iiii', mono));
  });
});

describe('wrapText', () => {
  it('keeps short text on one line', () => {
    expect(wrapText('Plan', font, 200).lines).toEqual(['Plan']);
  });

  it('wraps at word boundaries within the width', () => {
    const wrapped = wrapText('Implement the feature and write the tests for it', font, 120);
    expect(wrapped.lines.length).toBeGreaterThan(1);
    expect(wrapped.lines.join(' ')).toBe('Implement the feature and write the tests for it');
    expect(wrapped.width).toBeLessThanOrEqual(120);
  });

  it('honours explicit newlines', () => {
    expect(wrapText('Review\ncode', font, 300).lines).toEqual(['Review', 'code']);
  });

  it('breaks a word longer than the width', () => {
    const wrapped = wrapText('x'.repeat(80), font, 100);
    expect(wrapped.lines.length).toBeGreaterThan(1);
    expect(wrapped.lines.join('')).toBe('x'.repeat(80));
  });

  it('measures a word that fits once rather than letter by letter', () => {
    const measured: string[] = [];
    const counting = (text: string, f: typeof font) => {
      measured.push(text);
      return estimateTextWidth(text, f);
    };
    wrapText('Implementation', font, 200, 3, counting);
    expect(measured.filter((text) => text.length < 'Implementation'.length)).toEqual([]);
  });

  it('measures a one-word label that fits once, with the same result as wrapping it', () => {
    const measured: string[] = [];
    const counting = (text: string, f: typeof font) => {
      measured.push(text);
      return estimateTextWidth(text, f) + 0.4;
    };
    expect(wrapText('n12345', font, 200, 3, counting)).toEqual({ lines: ['n12345'], width: Math.ceil(estimateTextWidth('n12345', font) + 0.4) });
    expect(measured).toEqual(['n12345']);
    expect(wrapText('', font, 200, 3, counting).lines).toEqual(['']);
    // A word that does not fit, or text with a space or a newline, is wrapped as before.
    expect(wrapText('x'.repeat(80), font, 100, 3, counting).lines).toHaveLength(3);
    expect(wrapText('a\nb', font, 200, 3, counting).lines).toEqual(['a', 'b']);
    expect(wrapText('a\r\nb', font, 200, 3, counting).lines).toEqual(['a', 'b']);
  });

  it('cuts to maxLines with an ellipsis', () => {
    const wrapped = wrapText('one two three four five six seven eight', font, 40, 2);
    expect(wrapped.lines).toHaveLength(2);
    expect(wrapped.lines[1]?.endsWith('…')).toBe(true);
  });
});
