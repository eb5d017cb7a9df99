import { describe, expect, it } from 'vitest';
import { HANDLER_KINDS, lookOf } from './handlerLooks';
import { outlineAnchor, outlinePath, roundedPolygonPath } from './shapeGeometry';

describe('handler looks', () => {
  it('gives every kind its own combination of shape, icon and colour', () => {
    const signatures = HANDLER_KINDS.map((k) => {
      const look = lookOf(k);
      return `${look.shape}/${look.icon}/${look.tone}`;
    });
    expect(new Set(signatures).size).toBe(HANDLER_KINDS.length);
    expect(new Set(HANDLER_KINDS.map((k) => lookOf(k).tone)).size).toBe(HANDLER_KINDS.length);
  });

  it('draws the kinds the dialect names by shape in that shape', () => {
    expect(lookOf('start').shape).toBe('pill');
    expect(lookOf('exit').shape).toBe('pill');
    expect(lookOf('conditional').shape).toBe('diamond');
    expect(lookOf('human').shape).toBe('hexagon');
    expect(lookOf('command').icon).toBe('terminal');
    expect(lookOf('parallel').icon).toBe('fork');
    expect(lookOf('fan_in').icon).toBe('join');
  });
});

describe('outlinePath', () => {
  it('draws a closed path for every shape', () => {
    for (const kind of HANDLER_KINDS) {
      const path = outlinePath(lookOf(kind).shape, 160, 60);
      expect(path.startsWith('M')).toBe(true);
      expect(path.endsWith('Z')).toBe(true);
    }
  });

  it('draws the diamond through the middle of each side', () => {
    const path = roundedPolygonPath(
      [
        { x: 50, y: 0 },
        { x: 100, y: 40 },
        { x: 50, y: 80 },
        { x: 0, y: 40 },
      ],
      0,
    );
    expect(path).toBe('M50,0 Q50,0 50,0 L100,40 Q100,40 100,40 L50,80 Q50,80 50,80 L0,40 Q0,40 0,40 Z');
  });
});

describe('outlineAnchor', () => {
  it('puts anchors in the middle of the requested side', () => {
    expect(outlineAnchor('rect', 160, 60, 'top')).toEqual({ x: 80, y: 0 });
    expect(outlineAnchor('rect', 160, 60, 'bottom')).toEqual({ x: 80, y: 60 });
    expect(outlineAnchor('diamond', 160, 100, 'left')).toEqual({ x: 0, y: 50 });
  });

  it('moves the anchor onto slanted sides', () => {
    expect(outlineAnchor('parallelogram', 160, 60, 'left').x).toBeGreaterThan(0);
    expect(outlineAnchor('parallelogram', 160, 60, 'right').x).toBeLessThan(160);
  });
});

describe('outlinePath at an origin', () => {
  it('draws the same outline moved by the origin', () => {
    const numbers = (d: string) => d.match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
    for (const shape of ['rect', 'parallelogram', 'diamond'] as const) {
      const moved = numbers(outlinePath(shape, 100, 40, 1.5, { x: 10, y: 20 }));
      const original = numbers(outlinePath(shape, 100, 40, 1.5));
      expect(moved.length).toBe(original.length);
      // A polygon's path is all x,y pairs (M, L, Q): each x moves by 10, each y by 20.
      moved.forEach((n, i) => expect(n - (original[i] ?? 0)).toBeCloseTo(i % 2 === 0 ? 10 : 20, 1));
    }
    // A pill's arcs keep their radii and flags; only the points move.
    expect(outlinePath('pill', 100, 40, 0, { x: 10, y: 20 })).toBe('M30,20 H90 A20,20 0 0 1 90,60 H30 A20,20 0 0 1 30,20 Z');
  });
});
