import { describe, expect, it } from 'vitest';
import { MIN_WINDOW_MS, clampWindow, fullWindow, isFullWindow, pan, reveal, zoomAround } from './timeWindow';

const SPAN = 10_000;

describe('zoomAround', () => {
  it('keeps the focus at the same place on screen', () => {
    expect(zoomAround({ start: 0, end: 10_000 }, 2500, 0.5, SPAN)).toEqual({ start: 1250, end: 6250 });
    expect(zoomAround({ start: 2000, end: 6000 }, 4000, 0.5, SPAN)).toEqual({ start: 3000, end: 5000 });
  });

  it('stops at the narrowest window', () => {
    const w = zoomAround({ start: 1000, end: 1100 }, 1050, 0.01, SPAN);
    expect(w.end - w.start).toBe(MIN_WINDOW_MS);
    expect(w).toEqual({ start: 1025, end: 1075 });
  });

  it('stops at the whole run and stays inside it', () => {
    expect(zoomAround({ start: 8000, end: 10_000 }, 9000, 100, SPAN)).toEqual({ start: 0, end: 10_000 });
    expect(zoomAround({ start: 8000, end: 10_000 }, 10_000, 2, SPAN)).toEqual({ start: 6000, end: 10_000 });
  });

  it('allows at least the narrowest window for a very short run', () => {
    expect(fullWindow(10)).toEqual({ start: 0, end: MIN_WINDOW_MS });
    expect(zoomAround({ start: 0, end: 50 }, 25, 0.5, 10)).toEqual({ start: 0, end: 50 });
  });
});

describe('pan and clamp', () => {
  it('moves the window and stops at the ends', () => {
    expect(pan({ start: 1000, end: 3000 }, 500, SPAN)).toEqual({ start: 1500, end: 3500 });
    expect(pan({ start: 1000, end: 3000 }, -5000, SPAN)).toEqual({ start: 0, end: 2000 });
    expect(pan({ start: 1000, end: 3000 }, 50_000, SPAN)).toEqual({ start: 8000, end: 10_000 });
  });

  it('narrows and moves a window that no longer fits', () => {
    expect(clampWindow({ start: -50, end: 20_000 }, SPAN)).toEqual({ start: 0, end: 10_000 });
    expect(clampWindow({ start: 500, end: 510 }, SPAN)).toEqual({ start: 500, end: 550 });
    expect(isFullWindow({ start: 0, end: 10_000 }, SPAN)).toBe(true);
    expect(isFullWindow({ start: 0, end: 9000 }, SPAN)).toBe(false);
  });

  it('reveals a time outside the window with the smallest pan', () => {
    expect(reveal({ start: 1000, end: 2000 }, 1500, SPAN)).toEqual({ start: 1000, end: 2000 });
    expect(reveal({ start: 1000, end: 2000 }, 2500, SPAN)).toEqual({ start: 1550, end: 2550 });
    expect(reveal({ start: 1000, end: 2000 }, 0, SPAN)).toEqual({ start: 0, end: 1000 });
  });
});
