import { describe, expect, it } from 'vitest';
import { ansiLines } from './ansi';
import { lineColumns, longestLine } from './logColumns';

const columns = (text: string) => lineColumns(ansiLines(text)[0] ?? []);

describe('lineColumns', () => {
  it('counts characters, not the colour codes around them', () => {
    expect(columns('\u001b[31merror\u001b[0m: it broke')).toBe('error: it broke'.length);
  });

  it('expands tabs to the next stop of eight', () => {
    expect(columns('a\tb')).toBe(9);
    expect(columns('\t\tx')).toBe(17);
    expect(columns('12345678\tx')).toBe(17);
  });

  it('counts wide characters twice', () => {
    expect(columns('日本語 ok')).toBe(9);
  });
});

describe('longestLine', () => {
  it('finds the widest line of a log', () => {
    const lines = ansiLines(`short\n${'x'.repeat(400)}\n\tend`);
    expect(longestLine(lines)).toBe(400);
    expect(longestLine(ansiLines(''))).toBe(0);
  });

  it('does not skip a short line of wide characters', () => {
    expect(longestLine(ansiLines('abcd\n日本語'))).toBe(6);
  });
});
