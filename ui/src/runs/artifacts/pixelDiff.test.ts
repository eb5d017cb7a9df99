import { describe, expect, it } from 'vitest';
import { ANTIALIAS_HIGHLIGHT, DIFF_HIGHLIGHT, describePixelDiff, pixelDiff, type RgbaImage } from './pixelDiff';

const WHITE = [255, 255, 255, 255];
const BLACK = [0, 0, 0, 255];
const GREY = [128, 128, 128, 255];

/** An image filled with one colour. */
function solid(width: number, height: number, rgba: readonly number[]): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, data };
}

function pixel(image: RgbaImage, x: number, y: number): number[] {
  const at = (y * image.width + x) * 4;
  return [...image.data.slice(at, at + 4)];
}

function setPixel(image: RgbaImage, x: number, y: number, rgba: readonly number[]) {
  image.data.set(rgba, (y * image.width + x) * 4);
}

/**
 * White with a black area from column `edge` + 1 rightwards and one grey column at `edge`:
 * a vertical edge as a renderer anti-aliases it.
 */
function smoothEdge(width: number, height: number, edge: number): RgbaImage {
  const image = solid(width, height, WHITE);
  for (let y = 0; y < height; y++) {
    setPixel(image, edge, y, GREY);
    for (let x = edge + 1; x < width; x++) setPixel(image, x, y, BLACK);
  }
  return image;
}

describe('pixelDiff', () => {
  it('finds nothing between identical images and draws a faded copy', () => {
    const a = solid(3, 2, BLACK);
    const diff = pixelDiff(a, solid(3, 2, BLACK));
    expect(diff).toMatchObject({ changed: 0, compared: 6, percent: 0, sizeMismatch: null });
    // Black faded to 30% over white: 255 - 0.3 × 255 = 178.5, stored rounded to even.
    expect(pixel(diff.image, 0, 0)).toEqual([178, 178, 178, 255]);
  });

  it('does not count an anti-aliased edge moved by one pixel', () => {
    const diff = pixelDiff(smoothEdge(12, 8, 4), smoothEdge(12, 8, 5));
    expect(diff.changed).toBe(0);
    // The moved edge is still drawn, in the quieter anti-aliasing colour.
    expect(pixel(diff.image, 4, 3)).toEqual([...ANTIALIAS_HIGHLIGHT, 255]);
    expect(pixel(diff.image, 5, 3)).toEqual([...ANTIALIAS_HIGHLIGHT, 255]);
  });

  it('counts a real change next to the moved edge', () => {
    const second = smoothEdge(12, 8, 5);
    for (let y = 2; y < 5; y++) for (let x = 0; x < 3; x++) setPixel(second, x, y, [200, 30, 30, 255]);
    const diff = pixelDiff(smoothEdge(12, 8, 4), second);
    expect(diff.changed).toBe(9);
    expect(diff.percent).toBeCloseTo((9 / 96) * 100);
    expect(pixel(diff.image, 1, 3)).toEqual([...DIFF_HIGHLIGHT, 255]);
  });

  it('highlights changed pixels and counts them', () => {
    const a = solid(4, 4, WHITE);
    const b = solid(4, 4, WHITE);
    setPixel(b, 1, 2, [0, 90, 255, 255]);
    setPixel(b, 3, 3, [0, 0, 0, 255]);
    const diff = pixelDiff(a, b);
    expect(diff.changed).toBe(2);
    expect(diff.percent).toBeCloseTo(12.5);
    expect(pixel(diff.image, 1, 2)).toEqual([...DIFF_HIGHLIGHT, 255]);
    expect(pixel(diff.image, 3, 3)).toEqual([...DIFF_HIGHLIGHT, 255]);
    expect(pixel(diff.image, 0, 0)).toEqual([255, 255, 255, 255]);
  });

  it('ignores colour shifts below the perceptual threshold', () => {
    const a = solid(3, 3, [100, 100, 100, 255]);
    const b = solid(3, 3, [100, 100, 100, 255]);
    setPixel(b, 1, 1, [104, 100, 100, 255]);
    expect(pixelDiff(a, b).changed).toBe(0);
    expect(pixelDiff(a, b, { threshold: 0 }).changed).toBe(1);
  });

  it('compares the overlapping area of images of different sizes', () => {
    const a = solid(4, 2, BLACK);
    const b = solid(2, 3, BLACK);
    setPixel(b, 1, 1, [255, 255, 255, 255]);
    setPixel(b, 0, 2, [255, 255, 255, 255]); // outside the overlap
    const diff = pixelDiff(a, b, { highlight: [1, 2, 3], fade: 0 });
    expect(diff.image).toMatchObject({ width: 2, height: 2 });
    expect(diff).toMatchObject({
      changed: 1,
      compared: 4,
      sizeMismatch: { first: { width: 4, height: 2 }, second: { width: 2, height: 3 } },
    });
    expect(pixel(diff.image, 1, 1)).toEqual([1, 2, 3, 255]);
    expect(pixel(diff.image, 0, 0)).toEqual([255, 255, 255, 255]);
  });

  it('handles an empty overlap', () => {
    const diff = pixelDiff(solid(0, 0, []), solid(1, 1, [0, 0, 0, 0]));
    expect(diff).toMatchObject({ changed: 0, compared: 0, percent: 0 });
    expect(diff.sizeMismatch).not.toBeNull();
  });

  it('refuses a buffer that does not match its size', () => {
    const bad = { width: 2, height: 2, data: new Uint8ClampedArray(3) };
    expect(() => pixelDiff(bad, solid(2, 2, [0, 0, 0, 0]))).toThrow('first image has 3 bytes');
  });
});

describe('describePixelDiff', () => {
  it('says how many pixels differ', () => {
    expect(describePixelDiff({ changed: 0, percent: 0 })).toBe('0 pixels differ (0.0%)');
    expect(describePixelDiff({ changed: 1, percent: 0.01 })).toBe('1 pixel differs (<0.1%)');
    expect(describePixelDiff({ changed: 12345, percent: 3.0864 })).toBe('12,345 pixels differ (3.1%)');
  });
});
