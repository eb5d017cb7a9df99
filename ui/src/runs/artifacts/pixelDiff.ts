/** Pixels in RGBA order, 4 bytes each, row by row (the layout of canvas `ImageData`). */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** How to compare and how to draw the result. */
export interface PixelDiffOptions {
  /** A pixel differs when any channel (alpha included) differs by more than this (0–255). */
  threshold?: number;
  /** The colour changed pixels are drawn in, as [r, g, b]. */
  highlight?: readonly [number, number, number];
  /** How much of the first image shows under the highlights (0 = white, 1 = unchanged). */
  fade?: number;
}

/** What comparing two images found. */
export interface PixelDiff {
  /** The overlay, as large as the area both images cover. */
  image: RgbaImage;
  /** Pixels of that area that differ. */
  changed: number;
  /** Pixels compared (width × height of the overlapping area). */
  compared: number;
  /** `changed` as a percentage of `compared` (0 when nothing was compared). */
  percent: number;
  /** The two sizes, when they differ (only the overlapping top-left area was compared). */
  sizeMismatch: { first: { width: number; height: number }; second: { width: number; height: number } } | null;
}

/** The default highlight: a strong magenta that stands out on screenshots. */
export const DIFF_HIGHLIGHT: readonly [number, number, number] = [255, 0, 160];

function checkImage(image: RgbaImage, which: string) {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`the ${which} image has an invalid size ${width}×${height}`);
  }
  if (data.length !== width * height * 4) {
    throw new RangeError(`the ${which} image has ${data.length} bytes, not ${width}×${height}×4`);
  }
}

/**
 * Compares `first` and `second` pixel by pixel over the area both cover (from the top-left
 * corner) and draws the result: changed pixels in the highlight colour, the rest as a faded
 * grey copy of `first`.
 */
export function pixelDiff(first: RgbaImage, second: RgbaImage, options: PixelDiffOptions = {}): PixelDiff {
  checkImage(first, 'first');
  checkImage(second, 'second');
  const threshold = Math.max(0, options.threshold ?? 0);
  const [hr, hg, hb] = options.highlight ?? DIFF_HIGHLIGHT;
  const fade = Math.min(1, Math.max(0, options.fade ?? 0.3));
  const width = Math.min(first.width, second.width);
  const height = Math.min(first.height, second.height);
  const out = new Uint8ClampedArray(width * height * 4);
  const a = first.data;
  const b = second.data;
  let changed = 0;

  for (let y = 0; y < height; y++) {
    let ia = y * first.width * 4;
    let ib = y * second.width * 4;
    let io = y * width * 4;
    for (let x = 0; x < width; x++, ia += 4, ib += 4, io += 4) {
      const differs =
        Math.abs(a[ia]! - b[ib]!) > threshold ||
        Math.abs(a[ia + 1]! - b[ib + 1]!) > threshold ||
        Math.abs(a[ia + 2]! - b[ib + 2]!) > threshold ||
        Math.abs(a[ia + 3]! - b[ib + 3]!) > threshold;
      if (differs) {
        changed++;
        out[io] = hr;
        out[io + 1] = hg;
        out[io + 2] = hb;
      } else {
        // Luma of the pixel over white, then faded towards white.
        const alpha = a[ia + 3]! / 255;
        const luma = 0.299 * a[ia]! + 0.587 * a[ia + 1]! + 0.114 * a[ia + 2]!;
        const grey = 255 - alpha * (255 - luma);
        const faded = 255 - fade * (255 - grey);
        out[io] = faded;
        out[io + 1] = faded;
        out[io + 2] = faded;
      }
      out[io + 3] = 255;
    }
  }

  const compared = width * height;
  const sameSize = first.width === second.width && first.height === second.height;
  return {
    image: { width, height, data: out },
    changed,
    compared,
    percent: compared === 0 ? 0 : (changed / compared) * 100,
    sizeMismatch: sameSize
      ? null
      : {
          first: { width: first.width, height: first.height },
          second: { width: second.width, height: second.height },
        },
  };
}

/** "1,234 pixels differ (0.3%)"; a share too small to show as 0.1% reads "<0.1%". */
export function describePixelDiff(diff: Pick<PixelDiff, 'changed' | 'percent'>): string {
  const count = diff.changed.toLocaleString('en-US');
  const noun = diff.changed === 1 ? 'pixel differs' : 'pixels differ';
  const share = diff.changed > 0 && diff.percent < 0.05 ? '<0.1' : diff.percent.toFixed(1);
  return `${count} ${noun} (${share}%)`;
}
