import type { ListedArtifact } from '../../generated/ListedArtifact';
import { ArtifactCaption } from './ArtifactCaption';
import { fileName, stageLabel } from './artifactGroups';
import { DownloadLink } from './DownloadLink';

/** Screenshot thumbnails (loaded lazily); clicking one opens it in the lightbox. */
export function ScreenshotGallery({
  shots,
  urlOf,
  onOpen,
  canCompare,
  onCompare,
}: {
  shots: readonly ListedArtifact[];
  urlOf: (artifact: ListedArtifact) => string;
  /** Opens the lightbox at `shots[index]`. */
  onOpen: (index: number) => void;
  canCompare: (shot: ListedArtifact) => boolean;
  onCompare: (shot: ListedArtifact) => void;
}) {
  return (
    <ul className="screenshot-gallery">
      {shots.map((shot, index) => {
        const url = urlOf(shot);
        return (
          <li key={shot.path} className="screenshot-card">
            <button
              type="button"
              className="screenshot-card__thumb"
              data-testid="screenshot-thumb"
              data-path={shot.path}
              onClick={() => onOpen(index)}
              aria-label={`View ${fileName(shot.path)} (${stageLabel(shot)})`}
            >
              <img src={url} alt="" loading="lazy" decoding="async" draggable={false} />
            </button>
            <div className="screenshot-card__footer">
              <ArtifactCaption artifact={shot} />
              <div className="artifact-actions">
                {canCompare(shot) ? (
                  <button
                    type="button"
                    className="button is-small"
                    onClick={() => onCompare(shot)}
                    aria-label={`Compare ${fileName(shot.path)} with another stage`}
                  >
                    Compare
                  </button>
                ) : null}
                <DownloadLink url={url} artifact={shot} />
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
