import { describe, expect, it } from 'vitest';
import {
  applyPositions,
  followEdits,
  parsePositions,
  pinPosition,
  serializePositions,
  sidecarPathFor,
  unpinPosition,
  type PinnedPositions,
} from './positions';

function pinned(entries: Record<string, [number, number]>): PinnedPositions {
  return new Map(Object.entries(entries).map(([id, [x, y]]) => [id, { x, y }]));
}

describe('sidecarPathFor', () => {
  it('appends the sidecar suffix to the whole file name', () => {
    expect(sidecarPathFor('/work/flows/review.dot')).toBe('/work/flows/review.dot.heddle-layout.json');
    expect(sidecarPathFor('C:\\flows\\review.gv')).toBe('C:\\flows\\review.gv.heddle-layout.json');
  });
});

describe('parsePositions', () => {
  it('reads the version 1 format', () => {
    const parsed = parsePositions('{"version":1,"positions":{"plan":{"x":120,"y":-40.5}}}');
    expect(parsed.problems).toEqual([]);
    expect([...parsed.positions]).toEqual([['plan', { x: 120, y: -40.5 }]]);
  });

  it('treats empty text as no positions and no problem', () => {
    expect(parsePositions('  \n')).toEqual({ positions: new Map(), problems: [] });
  });

  it.each([
    ['{"version":1,', 'not JSON'],
    ['[1,2]', 'JSON object'],
    ['{"version":2,"positions":{}}', 'version 2'],
    ['{"positions":{}}', 'version undefined'],
    ['{"version":1,"positions":[]}', '`positions`'],
  ])('gives nothing and a problem for %s', (text, expected) => {
    const parsed = parsePositions(text);
    expect(parsed.positions.size).toBe(0);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toContain(expected);
  });

  it('skips entries that are not points and keeps the rest', () => {
    const parsed = parsePositions(
      '{"version":1,"positions":{"a":{"x":1,"y":2},"b":{"x":"1","y":2},"c":null,"d":{"x":3}}}',
    );
    expect([...parsed.positions.keys()]).toEqual(['a']);
    expect(parsed.problems).toHaveLength(3);
    expect(parsed.problems[0]).toContain('`b`');
  });

  it('keeps an id such as __proto__ as a plain entry', () => {
    const parsed = parsePositions('{"version":1,"positions":{"__proto__":{"x":5,"y":6}}}');
    expect(parsed.positions.get('__proto__')).toEqual({ x: 5, y: 6 });
  });
});

describe('serializePositions', () => {
  it('writes sorted keys, one per line, with a trailing newline', () => {
    const text = serializePositions(pinned({ plan: [120, 40], exit: [0, 300.25], Zed: [1, 2] }));
    expect(text).toBe(
      [
        '{',
        '  "version": 1,',
        '  "positions": {',
        '    "Zed": { "x": 1, "y": 2 },',
        '    "exit": { "x": 0, "y": 300.25 },',
        '    "plan": { "x": 120, "y": 40 }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes an empty object when nothing is pinned', () => {
    expect(serializePositions(new Map())).toBe('{\n  "version": 1,\n  "positions": {}\n}\n');
  });

  it('round-trips through parsePositions, odd ids included', () => {
    const positions = pinPosition(pinned({ plan: [1.5, -2], 'a"b': [3, 4], '12': [5, 6] }), '__proto__', {
      x: 7,
      y: 8,
    });
    const parsed = parsePositions(serializePositions(positions));
    expect(parsed.problems).toEqual([]);
    expect(parsed.positions).toEqual(positions);
  });
});

describe('pinPosition and unpinPosition', () => {
  it('return new maps and leave the input alone', () => {
    const before = pinned({ a: [1, 1] });
    const after = pinPosition(before, 'b', { x: 2, y: 3 });
    expect(after.get('b')).toEqual({ x: 2, y: 3 });
    expect(before.has('b')).toBe(false);
    expect(unpinPosition(after, 'a').has('a')).toBe(false);
    expect(after.has('a')).toBe(true);
  });
});

describe('applyPositions', () => {
  it('moves pinned nodes and returns the others unchanged', () => {
    const plan = { id: 'plan', position: { x: 0, y: 0 }, type: 'handler' };
    const exit = { id: 'exit', position: { x: 10, y: 200 }, type: 'handler' };
    const [placedPlan, placedExit] = applyPositions([plan, exit], pinned({ plan: [50, 60], ghost: [1, 1] }));
    expect(placedPlan).toEqual({ id: 'plan', position: { x: 50, y: 60 }, type: 'handler' });
    expect(placedExit).toBe(exit);
    expect(plan.position).toEqual({ x: 0, y: 0 });
  });
});

describe('followEdits', () => {
  it('moves the entry of a renamed node and drops a removed one', () => {
    const next = followEdits(pinned({ plan: [1, 2], check: [3, 4], exit: [5, 6] }), [
      { op: 'rename_node', from: 'plan', to: 'design' },
      { op: 'remove_node', id: 'check' },
      { op: 'set_node_attr', node: 'exit', key: 'label', value: 'Done' },
    ]);
    expect(next).toEqual(pinned({ design: [1, 2], exit: [5, 6] }));
  });

  it('follows renames in order, and clears a stale entry under the new id', () => {
    const next = followEdits(pinned({ a: [1, 1], c: [9, 9] }), [
      { op: 'rename_node', from: 'a', to: 'b' },
      { op: 'rename_node', from: 'b', to: 'd' },
      { op: 'rename_node', from: 'x', to: 'c' },
    ]);
    expect(next).toEqual(pinned({ d: [1, 1] }));
  });

  it('drops the entries of the nodes a delete removes', () => {
    const next = followEdits(pinned({ a: [1, 1], b: [2, 2] }), [
      { op: 'delete', nodes: ['a'], edges: [{ from: 'b', to: 'a', occurrence: 0 }] },
    ]);
    expect(next).toEqual(pinned({ b: [2, 2] }));
  });

  it('starts an added node without a pinned position', () => {
    const next = followEdits(pinned({ agent: [7, 7] }), [{ op: 'add_node', id: 'agent', attrs: [] }]);
    expect(next.size).toBe(0);
  });
});
