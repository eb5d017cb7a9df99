import type { ListedArtifact } from '../../generated/ListedArtifact';
import { stageLabel, type PlaywrightReport } from './artifactGroups';
import { DownloadLink } from './DownloadLink';

/**
 * A Playwright HTML report in a sandboxed frame: its scripts run, but in an opaque origin,
 * away from the UI and its API. The server adds the same sandbox to the page itself.
 */
export function ReportFrame({
  report,
  urlOf,
}: {
  report: PlaywrightReport;
  urlOf: (artifact: ListedArtifact) => string;
}) {
  const { entry } = report;
  const url = urlOf(entry);
  const title = `Playwright report (${stageLabel(entry)})`;
  return (
    <article className="report-card">
      <header className="report-card__header">
        <strong>Playwright report</strong>
        <span className="artifact-stage">{stageLabel(entry)}</span>
        <span className="muted" title={report.root}>
          {entry.source} · {report.files.length} {report.files.length === 1 ? 'file' : 'files'}
        </span>
        <div className="artifact-actions">
          <a className="button is-small" href={url} target="_blank" rel="noopener noreferrer">
            Open in a new tab
          </a>
          <DownloadLink url={url} artifact={entry} />
        </div>
      </header>
      <iframe
        className="report-card__frame"
        src={url}
        title={title}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        loading="lazy"
        data-testid="report-frame"
      />
    </article>
  );
}
