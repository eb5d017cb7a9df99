import { describe, expect, it } from 'vitest';
import { utf16Offset } from './sourceOffsets';

describe('utf16Offset', () => {
  it('is the identity on ASCII', () => {
    expect(utf16Offset('digraph G {}', 8)).toBe(8);
  });
  it('counts multi-byte characters once', () => {
    // "é" is two bytes, "🙂" four bytes and two UTF-16 units.
    const text = 'aé🙂b';
    expect(utf16Offset(text, 1)).toBe(1);
    expect(utf16Offset(text, 3)).toBe(2);
    expect(utf16Offset(text, 7)).toBe(4);
    expect(utf16Offset(text, 8)).toBe(5);
    expect(utf16Offset(text, 99)).toBe(5);
  });
});
