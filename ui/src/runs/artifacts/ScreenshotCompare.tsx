import { useId, useRef, useState } from 'react';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import { fileName, stageLabel } from './artifactGroups';
import { CompareDifference } from './CompareDifference';
import { CompareSlider } from './CompareSlider';
import { useOverlayDialog } from './useOverlayDialog';
import './artifact-overlay.css';

/** How the two screenshots are shown. */
export type CompareMode = 'side-by-side' | 'slider' | 'difference';

const MODES: readonly { mode: CompareMode; label: string }[] = [
  { mode: 'side-by-side', label: 'Side by side' },
  { mode: 'slider', label: 'Slider' },
  { mode: 'difference', label: 'Difference' },
];

/** "home.png (unit-visit_2)", or the path when the file names differ. */
function shotLabel(shot: ListedArtifact, other: ListedArtifact): string {
  const name = fileName(shot.source) === fileName(other.source) && shot.source !== other.source ? shot.source : fileName(shot.path);
  return `${name} (${stageLabel(shot)})`;
}

/**
 * Two screenshots of the same page from different stages or retries, over the whole window:
 * side by side, with a slider between them, or as a pixel difference. Escape closes.
 */
export function ScreenshotCompare({
  shot,
  candidates,
  urlOf,
  onClose,
}: {
  /** The screenshot being compared (shown first: left, under the highlights). */
  shot: ListedArtifact;
  /** What it can be compared with (see `comparableShots`); the first is picked at first. */
  candidates: readonly ListedArtifact[];
  urlOf: (artifact: ListedArtifact) => string;
  onClose: () => void;
}) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const pickerId = useId();
  const [otherPath, setOtherPath] = useState(candidates[0]?.path ?? '');
  const [mode, setMode] = useState<CompareMode>('side-by-side');
  useOverlayDialog(dialogRef, { Escape: onClose });

  const other = candidates.find((c) => c.path === otherPath) ?? candidates[0];
  const first = { url: urlOf(shot), label: other === undefined ? stageLabel(shot) : shotLabel(shot, other) };
  const second = other === undefined ? null : { url: urlOf(other), label: shotLabel(other, shot) };

  return (
    <div
      ref={dialogRef}
      className="artifact-overlay screenshot-compare"
      role="dialog"
      aria-modal="true"
      aria-label={`Compare ${fileName(shot.path)}`}
      data-testid="screenshot-compare"
      data-mode={mode}
      tabIndex={-1}
    >
      <header className="artifact-overlay__bar">
        <div className="artifact-overlay__title">
          <strong>Compare {fileName(shot.path)}</strong>
          <span className="muted">{stageLabel(shot)}</span>
        </div>
        {candidates.length > 0 ? (
          <label className="screenshot-compare__picker" htmlFor={pickerId}>
            with
            <select id={pickerId} value={other?.path ?? ''} onChange={(e) => setOtherPath(e.target.value)}>
              {candidates.map((c) => (
                <option key={c.path} value={c.path}>
                  {stageLabel(c)} — {c.source}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className="screenshot-compare__modes" role="group" aria-label="Comparison">
          {MODES.map(({ mode: m, label }) => (
            <button
              key={m}
              type="button"
              className={`button is-small${mode === m ? ' is-active' : ''}`}
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
            >
              {label}
            </button>
          ))}
        </div>
        <button type="button" className="icon-button artifact-overlay__close" onClick={onClose} aria-label="Close" title="Close (Esc)">
          ✕
        </button>
      </header>
      <div className="screenshot-compare__body">
        {second === null ? (
          <p className="muted">No other screenshot of this page was captured to compare with.</p>
        ) : mode === 'side-by-side' ? (
          <div className="compare-side-by-side">
            {[first, second].map((image, i) => (
              <figure key={i} className="compare-side-by-side__figure">
                <figcaption>{image.label}</figcaption>
                <img src={image.url} alt={image.label} draggable={false} />
              </figure>
            ))}
          </div>
        ) : mode === 'slider' ? (
          <CompareSlider first={first} second={second} />
        ) : (
          <CompareDifference firstUrl={first.url} secondUrl={second.url} firstLabel={first.label} secondLabel={second.label} />
        )}
      </div>
    </div>
  );
}
