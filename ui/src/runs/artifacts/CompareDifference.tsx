import { useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_THRESHOLD, describePixelDiff, pixelDiff, type PixelDiff } from './pixelDiff';
import { useImagePair } from './useImagePair';

function DiffCanvas({ diff, label }: { diff: PixelDiff; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    const { width, height, data } = diff.image;
    if (canvas === null || width === 0 || height === 0) return;
    canvas.width = width;
    canvas.height = height;
    // Copied into a fresh buffer: ImageData wants one backed by a plain ArrayBuffer.
    canvas.getContext('2d')?.putImageData(new ImageData(new Uint8ClampedArray(data), width, height), 0, 0);
  }, [diff]);
  return (
    <canvas
      ref={canvasRef}
      className="compare-difference__canvas"
      role="img"
      aria-label={label}
      style={{ width: `${diff.image.width}px` }}
    />
  );
}

/**
 * The pixel difference of two images: changed pixels highlighted over a faded copy of the
 * first, how many differ (anti-aliasing shown but not counted), and a tolerance for small
 * colour changes.
 */
export function CompareDifference({
  firstUrl,
  secondUrl,
  firstLabel,
  secondLabel,
}: {
  firstUrl: string;
  secondUrl: string;
  firstLabel: string;
  secondLabel: string;
}) {
  const pair = useImagePair(firstUrl, secondUrl);
  // The tolerance in hundredths of pixelmatch's 0–1 colour distance (a whole-number slider).
  const [tolerance, setTolerance] = useState(Math.round(DEFAULT_THRESHOLD * 100));
  const threshold = tolerance / 100;
  const diff = useMemo(
    () => (pair.status === 'loaded' ? pixelDiff(pair.first, pair.second, { threshold }) : null),
    [pair, threshold],
  );

  if (pair.status === 'loading') {
    return (
      <p className="muted" role="status" data-testid="pixel-diff-summary" data-state="loading">
        <span className="spinner" aria-hidden="true" /> Comparing the pixels…
      </p>
    );
  }
  if (pair.status === 'failed' || diff === null) {
    return (
      <p className="compare-difference__error" role="alert" data-testid="pixel-diff-summary" data-state="failed">
        The images could not be compared: {pair.status === 'failed' ? pair.message : 'they did not load'}
      </p>
    );
  }
  const { sizeMismatch } = diff;
  return (
    <div className="compare-difference">
      <div className="compare-difference__bar">
        <p
          className={`compare-difference__summary${diff.changed > 0 ? ' has-changes' : ''}`}
          data-testid="pixel-diff-summary"
          data-state="done"
          data-changed={diff.changed}
          role="status"
        >
          {describePixelDiff(diff)}
        </p>
        <label className="compare-difference__tolerance">
          Tolerance
          <input
            type="range"
            min={0}
            max={50}
            value={tolerance}
            onChange={(e) => setTolerance(Number(e.target.value))}
            aria-valuetext={`${tolerance}% colour distance`}
          />
          <output>{tolerance}%</output>
        </label>
      </div>
      {sizeMismatch !== null ? (
        <p className="compare-difference__note">
          The sizes differ ({sizeMismatch.first.width}×{sizeMismatch.first.height} and {sizeMismatch.second.width}×
          {sizeMismatch.second.height}); only the {diff.image.width}×{diff.image.height} area both cover, from the
          top-left corner, is compared.
        </p>
      ) : null}
      <div className="compare-difference__view">
        <DiffCanvas diff={diff} label={`Pixels that differ between ${firstLabel} and ${secondLabel}, highlighted`} />
      </div>
    </div>
  );
}
