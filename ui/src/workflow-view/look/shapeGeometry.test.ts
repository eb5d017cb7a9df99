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
