import type { ListedArtifact } from '../../generated/ListedArtifact';
import { fileName, formatBytes, stageLabel } from './artifactGroups';

/** An artifact's file name, the folder it was captured from, its stage and size. */
export function ArtifactCaption({ artifact }: { artifact: ListedArtifact }) {
  const folder = artifact.source.slice(0, Math.max(0, artifact.source.lastIndexOf('/')));
  return (
    <span className="artifact-caption" title={artifact.source}>
      <span className="artifact-caption__name">{fileName(artifact.path)}</span>
      {folder !== '' ? <span className="artifact-caption__source">{folder}/</span> : null}
      <span className="artifact-caption__meta">
        <span className="artifact-stage">{stageLabel(artifact)}</span>
        <span>{formatBytes(artifact.size)}</span>
      </span>
    </span>
  );
}
