import { useRef, useState } from 'react';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import { fileName, stageLabel } from './artifactGroups';
import { DownloadLink } from './DownloadLink';
import { useOverlayDialog } from './useOverlayDialog';
import { useZoomPan } from './useZoomPan';
import { formatScale } from './zoomMath';
import './artifact-overlay.css';

/**
 * A screenshot over the whole window: zoom (buttons, wheel, `+` `-` `0` `1`), drag to pan,
 * ← and → for the previous and next screenshot, Escape to close.
 */
export function Lightbox({
  shots,
  index,
  urlOf,
  onIndexChange,
  onClose,
  canCompare,
  onCompare,
}: {
  shots: readonly ListedArtifact[];
  index: number;
  urlOf: (artifact: ListedArtifact) => string;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** Whether `shot` has other screenshots to compare it with. */
  canCompare: (shot: ListedArtifact) => boolean;
  onCompare: (shot: ListedArtifact) => void;
}) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const shot = shots[index];
  const zoom = useZoomPan(shot?.path ?? '');
  const [failedPath, setFailedPath] = useState<string | null>(null);
  const hasPrevious = index > 0;
  const hasNext = index < shots.length - 1;
  const previous = () => {
    if (hasPrevious) onIndexChange(index - 1);
  };
  const next = () => {
    if (hasNext) onIndexChange(index + 1);
  };

  useOverlayDialog(dialogRef, {
    Escape: onClose,
    ArrowLeft: previous,
    ArrowRight: next,
    '+': zoom.zoomIn,
    '=': zoom.zoomIn,
    '-': zoom.zoomOut,
    '0': zoom.fit,
    '1': zoom.actualSize,
  });

  if (shot === undefined) return null;
  const name = fileName(shot.path);
  const url = urlOf(shot);
  return (
    <div
      ref={dialogRef}
      className="artifact-overlay lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={`Screenshot ${name}`}
      data-testid="lightbox"
      tabIndex={-1}
    >
      <header className="artifact-overlay__bar">
        <div className="artifact-overlay__title">
          <strong>{name}</strong>
          <span className="muted" title={shot.source}>
            {stageLabel(shot)} · {shot.source}
          </span>
        </div>
        <span className="lightbox__position muted" aria-live="polite">
          {index + 1} / {shots.length}
        </span>
        <div className="lightbox__zoom" role="group" aria-label="Zoom">
          <button type="button" className="button is-small" onClick={zoom.zoomOut} aria-label="Zoom out" title="Zoom out (−)">
            −
          </button>
          <output className="lightbox__scale" aria-label="Zoom level">
            {formatScale(zoom.view.scale)}
          </output>
          <button type="button" className="button is-small" onClick={zoom.zoomIn} aria-label="Zoom in" title="Zoom in (+)">
            +
          </button>
          <button type="button" className="button is-small" onClick={zoom.fit} aria-pressed={zoom.fitted} title="Fit to the window (0)">
            Fit
          </button>
          <button type="button" className="button is-small" onClick={zoom.actualSize} title="Actual size (1)">
            1:1
          </button>
        </div>
        {canCompare(shot) ? (
          <button type="button" className="button is-small" onClick={() => onCompare(shot)}>
            Compare…
          </button>
        ) : null}
        <DownloadLink url={url} artifact={shot} />
        <button type="button" className="icon-button artifact-overlay__close" onClick={onClose} aria-label="Close" title="Close (Esc)">
          ✕
        </button>
      </header>
      <div
        ref={zoom.stageRef}
        className={`lightbox__stage${zoom.dragging ? ' is-dragging' : ''}`}
        {...zoom.stageHandlers}
        onDoubleClick={zoom.fitted ? zoom.actualSize : zoom.fit}
      >
        {failedPath === shot.path ? (
          <p className="lightbox__error" role="alert">
            The screenshot could not be loaded.
          </p>
        ) : (
          <img
            key={shot.path}
            className="lightbox__image"
            src={url}
            alt={`${name} (${stageLabel(shot)})`}
            draggable={false}
            style={zoom.imageStyle}
            onLoad={zoom.onImageLoad}
            onError={() => setFailedPath(shot.path)}
          />
        )}
        <button
          type="button"
          className="lightbox__nav is-previous"
          onClick={previous}
          disabled={!hasPrevious}
          aria-label="Previous screenshot"
          title="Previous (←)"
        >
          ‹
        </button>
        <button
          type="button"
          className="lightbox__nav is-next"
          onClick={next}
          disabled={!hasNext}
          aria-label="Next screenshot"
          title="Next (→)"
        >
          ›
        </button>
      </div>
    </div>
  );
}
