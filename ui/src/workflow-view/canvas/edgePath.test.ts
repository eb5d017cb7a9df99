import { describe, expect, it } from 'vitest';
import { polylineMidpoint, roundedPolylinePath } from './edgePath';

describe('roundedPolylinePath', () => {
  it('draws a straight segment as a line', () => {
    expect(roundedPolylinePath([{ x: 0, y: 0 }, { x: 0, y: 50 }], 8)).toBe('M0,0 L0,50');
  });

  it('rounds a bend with a quadratic curve through the corner', () => {
    const path = roundedPolylinePath(
      [
        { x: 0, y: 0 },
        { x: 0, y: 40 },
        { x: 40, y: 40 },
      ],
      8,
    );
    expect(path).toBe('M0,0 L0,32 Q0,40 8,40 L40,40');
  });

  it('shrinks the radius on short segments', () => {
    const path = roundedPolylinePath(
      [
        { x: 0, y: 0 },
        { x: 0, y: 4 },
        { x: 40, y: 4 },
      ],
      8,
    );
    expect(path).toBe('M0,0 L0,2 Q0,4 2,4 L40,4');
  });

  it('is empty for no points', () => {
    expect(roundedPolylinePath([], 8)).toBe('');
  });
});

describe('polylineMidpoint', () => {
  it('finds the point halfway along the length', () => {
    expect(
      polylineMidpoint([
        { x: 0, y: 0 },
        { x: 0, y: 10 },
        { x: 30, y: 10 },
      ]),
    ).toEqual({ x: 10, y: 10 });
  });

  it('handles degenerate input', () => {
    expect(polylineMidpoint([])).toBeNull();
    expect(polylineMidpoint([{ x: 3, y: 4 }])).toEqual({ x: 3, y: 4 });
  });
});
