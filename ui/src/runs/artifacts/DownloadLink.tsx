import type { ListedArtifact } from '../../generated/ListedArtifact';
import { fileName } from './artifactGroups';

/** A "Download" button-link that saves the artifact under its own file name. */
export function DownloadLink({ url, artifact }: { url: string; artifact: ListedArtifact }) {
  const name = fileName(artifact.path);
  return (
    <a className="button is-small" href={url} download={name} aria-label={`Download ${name}`}>
      Download
    </a>
  );
}
