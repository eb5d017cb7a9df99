import { describe, expect, it } from 'vitest';
import { clampScale, fitScale, formatScale, MAX_SCALE, MIN_SCALE, wheelFactor, zoomAround } from './zoomMath';

describe('fitScale', () => {
  it('shrinks a large image to fit and leaves a small one at 1:1', () => {
    expect(fitScale({ width: 1600, height: 1000 }, { width: 800, height: 800 })).toBe(0.5);
    expect(fitScale({ width: 1000, height: 2000 }, { width: 800, height: 500 })).toBe(0.25);
    expect(fitScale({ width: 100, height: 50 }, { width: 800, height: 500 })).toBe(1);
  });

  it('is 1:1 before anything is measured', () => {
    expect(fitScale({ width: 0, height: 0 }, { width: 800, height: 500 })).toBe(1);
  });
});

describe('zoomAround', () => {
  it('keeps the point under the anchor in place', () => {
    const view = { scale: 1, x: 10, y: -20 };
    const anchor = { x: 100, y: 50 };
    const next = zoomAround(view, 2, anchor);
    expect(next.scale).toBe(2);
    // The image point under the anchor, before and after: (anchor - offset) / scale.
    expect((anchor.x - next.x) / next.scale).toBeCloseTo((anchor.x - view.x) / view.scale);
    expect((anchor.y - next.y) / next.scale).toBeCloseTo((anchor.y - view.y) / view.scale);
  });

  it('zooms around the centre by default and stays within the limits', () => {
    expect(zoomAround({ scale: 1, x: 40, y: 8 }, 0.5)).toEqual({ scale: 0.5, x: 20, y: 4 });
    expect(zoomAround({ scale: 1, x: 0, y: 0 }, 1000).scale).toBe(MAX_SCALE);
    expect(clampScale(0)).toBe(MIN_SCALE);
  });
});

describe('wheelFactor', () => {
  it('zooms in when scrolling up and out when scrolling down', () => {
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelFactor(100, 0)).toBeLessThan(1);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48, 0));
    expect(wheelFactor(0, 0)).toBe(1);
  });
});

describe('formatScale', () => {
  it('reads as a percentage', () => {
    expect(formatScale(1.25)).toBe('125%');
    expect(formatScale(0.333)).toBe('33%');
  });
});
