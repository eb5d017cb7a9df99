/**
 * The pixel difference of two screenshots, computed by `pixelmatch`: a perceptual colour
 * distance with a threshold, and anti-aliasing detection so that font smoothing and edges
 * moved by a pixel do not count as change.
 */
import pixelmatch from 'pixelmatch';

/** Pixels in RGBA order, 4 bytes each, row by row (the layout of canvas `ImageData`). */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** How to compare and how to draw the result. */
export interface PixelDiffOptions {
  /**
   * How far apart two pixels' colours may be and still match, from 0 (any difference counts)
   * to 1 (black against white): pixelmatch's perceptual distance. Defaults to `DEFAULT_THRESHOLD`.
   */
  threshold?: number;
  /** The colour changed pixels are drawn in, as [r, g, b]. */
  highlight?: readonly [number, number, number];
  /** The colour of differing pixels read as anti-aliasing (drawn, not counted), as [r, g, b]. */
  antialiasing?: readonly [number, number, number];
  /** How much of the first image shows under the highlights (0 = white, 1 = unchanged). */
  fade?: number;
}

/** What comparing two images found. */
export interface PixelDiff {
  /** The overlay, as large as the area both images cover. */
  image: RgbaImage;
  /** Pixels of that area that differ (anti-aliasing left out). */
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
/** Anti-aliased pixels: a pale amber, visible but quieter than a change. */
export const ANTIALIAS_HIGHLIGHT: readonly [number, number, number] = [250, 210, 120];
/** pixelmatch's own default: small colour shifts (compression, gamma) do not count. */
export const DEFAULT_THRESHOLD = 0.1;

function checkImage(image: RgbaImage, which: string) {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`the ${which} image has an invalid size ${width}×${height}`);
  }
  if (data.length !== width * height * 4) {
    throw new RangeError(`the ${which} image has ${data.length} bytes, not ${width}×${height}×4`);
  }
}

/** The top-left `width`×`height` pixels of `image` (the image's own buffer when it is that size). */
function topLeft(image: RgbaImage, width: number, height: number): Uint8ClampedArray {
  if (image.width === width && image.height === height) return image.data;
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = y * image.width * 4;
    out.set(image.data.subarray(from, from + width * 4), y * width * 4);
  }
  return out;
}

/**
 * Compares `first` and `second` over the area both cover (from the top-left corner) and draws
 * the result: changed pixels in the highlight colour, anti-aliasing in a paler one, the rest
 * as a faded grey copy of `first`.
 */
export function pixelDiff(first: RgbaImage, second: RgbaImage, options: PixelDiffOptions = {}): PixelDiff {
  checkImage(first, 'first');
  checkImage(second, 'second');
  const threshold = Math.min(1, Math.max(0, options.threshold ?? DEFAULT_THRESHOLD));
  const width = Math.min(first.width, second.width);
  const height = Math.min(first.height, second.height);
  const out = new Uint8ClampedArray(width * height * 4);
  const compared = width * height;
  const changed =
    compared === 0
      ? 0
      : pixelmatch(topLeft(first, width, height), topLeft(second, width, height), out, width, height, {
          threshold,
          includeAA: false,
          alpha: Math.min(1, Math.max(0, options.fade ?? 0.3)),
          diffColor: [...(options.highlight ?? DIFF_HIGHLIGHT)] as [number, number, number],
          aaColor: [...(options.antialiasing ?? ANTIALIAS_HIGHLIGHT)] as [number, number, number],
          // Screenshots are compared as shown: transparent areas over white, not a checkerboard.
          checkerboard: false,
        });

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
