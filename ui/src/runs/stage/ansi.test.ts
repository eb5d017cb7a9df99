import { describe, expect, it } from 'vitest';
import { ansiLines } from './ansi';

describe('ANSI colours', () => {
  it('plain text is one span per line', () => {
    expect(ansiLines('a\nb\n')).toEqual([
      [{ text: 'a', fg: null, bg: null, bold: false, dim: false, underline: false }],
      [{ text: 'b', fg: null, bg: null, bold: false, dim: false, underline: false }],
    ]);
  });

  it('colours, bold and resets, carried over a line end', () => {
    const [first, second] = ansiLines('\u001b[1;31mFAIL\u001b[0m ok\n\u001b[32mgreen\nstill');
    expect(first).toEqual([
      { text: 'FAIL', fg: 'var(--ansi-red)', bg: null, bold: true, dim: false, underline: false },
      { text: ' ok', fg: null, bg: null, bold: false, dim: false, underline: false },
    ]);
    expect(second?.[0]).toMatchObject({ text: 'green', fg: 'var(--ansi-green)' });
    expect(ansiLines('\u001b[32mgreen\nstill')[1]?.[0]).toMatchObject({ text: 'still', fg: 'var(--ansi-green)' });
  });

  it('256 and true colours, and other escape sequences dropped', () => {
    const [line] = ansiLines('\u001b[38;5;196mx\u001b[48;2;1;2;3my\u001b[2K\u001b[90mz\r');
    expect(line).toEqual([
      expect.objectContaining({ text: 'x', fg: 'rgb(255, 0, 0)' }),
      expect.objectContaining({ text: 'y', fg: 'rgb(255, 0, 0)', bg: 'rgb(1, 2, 3)' }),
      expect.objectContaining({ text: 'z', fg: 'var(--ansi-bright-black)' }),
    ]);
  });
});
