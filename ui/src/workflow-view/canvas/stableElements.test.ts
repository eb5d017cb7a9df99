import { describe, expect, it } from 'vitest';
import { stableElements, type DrawnElement } from './stableElements';

type Source = { id: string; label: string };

describe('stable canvas elements', () => {
  it('keeps objects whose source and flags are unchanged, redraws the rest, forgets removed ones', () => {
    const cache = new Map<string, DrawnElement<Source, { id: string; selected: boolean }>>();
    const a = { id: 'a', label: 'A' };
    const b = { id: 'b', label: 'B' };
    let selected = 'a';
    const draw = (s: Source) => ({ id: s.id, selected: s.id === selected });
    const flags = (s: Source) => String(s.id === selected);
    const first = stableElements([a, b], cache, flags, draw);
    const second = stableElements([a, b], cache, flags, draw);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    selected = 'b';
    const third = stableElements([a, b], cache, flags, draw);
    expect(third[0]).not.toBe(first[0]);
    expect(third[1]).toEqual({ id: 'b', selected: true });
    const b2 = { id: 'b', label: 'B2' };
    const fourth = stableElements([b2], cache, flags, draw);
    expect(fourth[0]).not.toBe(third[1]);
    expect([...cache.keys()]).toEqual(['b']);
  });

  it('hands out the last array itself when no element changed', () => {
    const cache = new Map<string, DrawnElement<Source, Source>>();
    const a = { id: 'a', label: 'A' };
    const b = { id: 'b', label: 'B' };
    const draw = (s: Source) => ({ ...s });
    const first = stableElements([a, b], cache, () => '', draw);
    expect(stableElements([a, b], cache, () => '', draw)).toBe(first);
    const fewer = stableElements([a], cache, () => '', draw);
    expect(fewer).not.toBe(first);
    expect(fewer[0]).toBe(first[0]);
    expect(stableElements([a], cache, () => 'flag', draw)).not.toBe(fewer);
  });
});
