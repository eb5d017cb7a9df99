import type { ListedArtifact } from '../../generated/ListedArtifact';
import { ArtifactCaption } from './ArtifactCaption';
import { DownloadLink } from './DownloadLink';

/** Videos with the browser's own controls; only their metadata loads until played. */
export function VideoList({
  videos,
  urlOf,
}: {
  videos: readonly ListedArtifact[];
  urlOf: (artifact: ListedArtifact) => string;
}) {
  return (
    <ul className="video-list">
      {videos.map((video) => {
        const url = urlOf(video);
        return (
          <li key={video.path} className="video-card">
            <video className="video-card__player" src={url} controls preload="metadata" data-testid="artifact-video">
              <a href={url}>Open the video</a>
            </video>
            <div className="video-card__footer">
              <ArtifactCaption artifact={video} />
              <div className="artifact-actions">
                <DownloadLink url={url} artifact={video} />
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
