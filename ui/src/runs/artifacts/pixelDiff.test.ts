import { describe, expect, it } from 'vitest';
import { DIFF_HIGHLIGHT, describePixelDiff, pixelDiff, type RgbaImage } from './pixelDiff';

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

describe('pixelDiff', () => {
  it('finds nothing between identical images and draws a faded copy', () => {
    const a = solid(3, 2, [0, 0, 0, 255]);
    const diff = pixelDiff(a, solid(3, 2, [0, 0, 0, 255]));
    expect(diff).toMatchObject({ changed: 0, compared: 6, percent: 0, sizeMismatch: null });
    // Black faded to 30% over white: 255 - 0.3 × 255 = 178.5, stored rounded to even.
    expect(pixel(diff.image, 0, 0)).toEqual([178, 178, 178, 255]);
  });

  it('highlights changed pixels and counts them', () => {
    const a = solid(4, 4, [255, 255, 255, 255]);
    const b = solid(4, 4, [255, 255, 255, 255]);
    setPixel(b, 1, 2, [250, 255, 255, 255]);
    setPixel(b, 3, 3, [255, 255, 255, 0]);
    const diff = pixelDiff(a, b);
    expect(diff.changed).toBe(2);
    expect(diff.percent).toBeCloseTo(12.5);
    expect(pixel(diff.image, 1, 2)).toEqual([...DIFF_HIGHLIGHT, 255]);
    expect(pixel(diff.image, 3, 3)).toEqual([...DIFF_HIGHLIGHT, 255]);
    expect(pixel(diff.image, 0, 0)).toEqual([255, 255, 255, 255]);
  });

  it('ignores differences within the per-channel threshold', () => {
    const a = solid(2, 1, [100, 100, 100, 255]);
    const b = solid(2, 1, [110, 100, 100, 255]);
    setPixel(b, 1, 0, [111, 100, 100, 255]);
    expect(pixelDiff(a, b, { threshold: 10 }).changed).toBe(1);
    expect(pixelDiff(a, b, { threshold: 11 }).changed).toBe(0);
  });

  it('compares the overlapping area of images of different sizes', () => {
    const a = solid(4, 2, [0, 0, 0, 255]);
    const b = solid(2, 3, [0, 0, 0, 255]);
    setPixel(b, 1, 1, [9, 9, 9, 255]);
    setPixel(b, 0, 2, [9, 9, 9, 255]); // outside the overlap
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
