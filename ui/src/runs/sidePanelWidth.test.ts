import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SIDE_WIDTH,
  MIN_MAIN_WIDTH,
  MIN_SIDE_WIDTH,
  SIDE_WIDTH_STORAGE_KEY,
  clampSideWidth,
  rememberSideWidth,
  rememberedSideWidth,
} from './sidePanelWidth';

/** A Storage stand-in over a Map (only the two methods used). */
function memoryStore(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  };
}

describe('clampSideWidth', () => {
  it('keeps the panel wide enough for its tabs and the graph wide enough to read', () => {
    expect(clampSideWidth(100, 1400)).toBe(MIN_SIDE_WIDTH);
    expect(clampSideWidth(520.4, 1400)).toBe(520);
    expect(clampSideWidth(1300, 1400)).toBe(1400 - MIN_MAIN_WIDTH);
  });

  it('gives the panel its minimum when the body is too narrow for both', () => {
    expect(clampSideWidth(500, 500)).toBe(MIN_SIDE_WIDTH);
  });

  it('only applies the minimum while the body width is unknown', () => {
    expect(clampSideWidth(2000, 0)).toBe(2000);
  });
});

describe('remembered width', () => {
  it('reads back what was remembered', () => {
    const store = memoryStore();
    rememberSideWidth(612.6, store);
    expect(store.map.get(SIDE_WIDTH_STORAGE_KEY)).toBe('613');
    expect(rememberedSideWidth(store)).toBe(613);
  });

  it('falls back to the default for nothing, garbage or a too-small width', () => {
    expect(rememberedSideWidth(memoryStore())).toBe(DEFAULT_SIDE_WIDTH);
    expect(rememberedSideWidth(memoryStore({ [SIDE_WIDTH_STORAGE_KEY]: 'wide' }))).toBe(DEFAULT_SIDE_WIDTH);
    expect(rememberedSideWidth(memoryStore({ [SIDE_WIDTH_STORAGE_KEY]: '12' }))).toBe(DEFAULT_SIDE_WIDTH);
    expect(rememberedSideWidth(null)).toBe(DEFAULT_SIDE_WIDTH);
  });

  it('survives a storage that refuses to write', () => {
    const full = {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => rememberSideWidth(500, full)).not.toThrow();
  });
});
