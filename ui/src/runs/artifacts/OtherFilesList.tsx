import type { ArtifactKind } from '../../generated/ArtifactKind';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import { fileName, formatBytes, stageLabel } from './artifactGroups';
import { DownloadLink } from './DownloadLink';

const KIND_NOTES: Partial<Record<ArtifactKind, string>> = {
  trace: 'Playwright trace: open it with npx playwright show-trace, or at trace.playwright.dev',
  playwright_report: 'A file of a Playwright report',
};

/** Files the viewer cannot show (traces, logs, archives): name, stage, size and a download. */
export function OtherFilesList({
  files,
  urlOf,
}: {
  files: readonly ListedArtifact[];
  urlOf: (artifact: ListedArtifact) => string;
}) {
  return (
    <table className="other-files">
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Stage</th>
          <th scope="col" className="is-number">
            Size
          </th>
          <th scope="col">
            <span className="artifact-visually-hidden">Download</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {files.map((file) => (
          <tr key={file.path} data-kind={file.kind}>
            <td>
              <span className="other-files__name">{fileName(file.path)}</span>
              <span className="other-files__source" title={KIND_NOTES[file.kind] ?? file.media_type}>
                {file.source}
                {file.kind === 'trace' ? ' · Playwright trace' : ''}
              </span>
            </td>
            <td>
              <span className="artifact-stage">{stageLabel(file)}</span>
            </td>
            <td className="is-number">{formatBytes(file.size)}</td>
            <td className="is-action">
              <DownloadLink url={urlOf(file)} artifact={file} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
