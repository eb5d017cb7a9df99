import { useCallback, useId, useMemo, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import { ArtifactCaption } from './ArtifactCaption';
import { ArtifactRunContext } from './ArtifactRunContext';
import { comparableShots, groupByKind, groupByStage } from './artifactGroups';
import { ArtifactSection } from './ArtifactSection';
import { DownloadLink } from './DownloadLink';
import { JunitTable } from './JunitTable';
import { Lightbox } from './Lightbox';
import { OtherFilesList } from './OtherFilesList';
import { ReportFrame } from './ReportFrame';
import { ScreenshotCompare } from './ScreenshotCompare';
import { ScreenshotGallery } from './ScreenshotGallery';
import { useRunArtifacts } from './useRunArtifacts';
import { shownValue } from '../../api/useApiRead';
import { VideoList } from './VideoList';
import './artifacts.css';
import { ErrorBanner } from '../../app/ErrorBanner';

/** What is open over the view: a screenshot, or a comparison (returning to a screenshot). */
type Overlay =
  | { kind: 'lightbox'; index: number }
  | { kind: 'compare'; shot: ListedArtifact; returnTo: number | null }
  | null;

const ALL_STAGES = '';

function Sections({
  runId,
  artifacts,
  everything,
  urlOf,
}: {
  runId: string;
  /** What to show (one stage, or all). */
  artifacts: readonly ListedArtifact[];
  /** Every artifact of the run (comparisons reach across stages). */
  everything: readonly ListedArtifact[];
  urlOf: (artifact: ListedArtifact) => string;
}) {
  const sections = useMemo(() => groupByKind(artifacts), [artifacts]);
  const [overlay, setOverlay] = useState<Overlay>(null);
  const candidatesOf = useCallback((shot: ListedArtifact) => comparableShots(everything, shot), [everything]);
  const canCompare = useCallback((shot: ListedArtifact) => candidatesOf(shot).length > 0, [candidatesOf]);
  const { screenshots, videos, junit, reports, other } = sections;

  return (
    <>
      {screenshots.length > 0 ? (
        <ArtifactSection title="Screenshots" count={screenshots.length} kind="screenshot">
          <ScreenshotGallery
            shots={screenshots}
            urlOf={urlOf}
            onOpen={(index) => setOverlay({ kind: 'lightbox', index })}
            canCompare={canCompare}
            onCompare={(shot) => setOverlay({ kind: 'compare', shot, returnTo: null })}
          />
        </ArtifactSection>
      ) : null}
      {videos.length > 0 ? (
        <ArtifactSection title="Videos" count={videos.length} kind="video">
          <VideoList videos={videos} urlOf={urlOf} />
        </ArtifactSection>
      ) : null}
      {junit.length > 0 ? (
        <ArtifactSection title="Test results" count={junit.length} kind="junit">
          {junit.map((file) => (
            <article key={file.path} className="junit-card">
              <header className="junit-card__header">
                <ArtifactCaption artifact={file} />
                <div className="artifact-actions">
                  <DownloadLink url={urlOf(file)} artifact={file} />
                </div>
              </header>
              <JunitTable runId={runId} path={file.path} />
            </article>
          ))}
        </ArtifactSection>
      ) : null}
      {reports.length > 0 ? (
        <ArtifactSection title="Reports" count={reports.length} kind="playwright_report">
          {reports.map((report) => (
            <ReportFrame key={report.root} report={report} urlOf={urlOf} />
          ))}
        </ArtifactSection>
      ) : null}
      {other.length > 0 ? (
        <ArtifactSection title="Other files" count={other.length} kind="other">
          <OtherFilesList files={other} urlOf={urlOf} />
        </ArtifactSection>
      ) : null}

      {overlay?.kind === 'lightbox' ? (
        <Lightbox
          shots={screenshots}
          index={Math.min(overlay.index, screenshots.length - 1)}
          urlOf={urlOf}
          onIndexChange={(index) => setOverlay({ kind: 'lightbox', index })}
          onClose={() => setOverlay(null)}
          canCompare={canCompare}
          onCompare={(shot) => setOverlay({ kind: 'compare', shot, returnTo: overlay.index })}
        />
      ) : overlay?.kind === 'compare' ? (
        <ScreenshotCompare
          key={overlay.shot.path}
          shot={overlay.shot}
          candidates={candidatesOf(overlay.shot)}
          urlOf={urlOf}
          onClose={() => setOverlay(overlay.returnTo === null ? null : { kind: 'lightbox', index: overlay.returnTo })}
        />
      ) : null}
    </>
  );
}

/**
 * A run's captured artifacts: screenshots (lightbox, comparison across stages), videos, JUnit
 * results, Playwright reports and other files, each downloadable; optionally one stage's only.
 * Lists them again whenever `refreshKey` changes.
 */
export function ArtifactsView({
  runId,
  refreshKey,
  initialStage = null,
}: {
  runId: string;
  refreshKey: unknown;
  /** The stage folder to show at first (`unit-visit_2`); null for every stage. */
  initialStage?: string | null;
}) {
  const api = useApi();
  const state = useRunArtifacts(runId, refreshKey);
  const stageSelectId = useId();
  const [stage, setStage] = useState(initialStage ?? ALL_STAGES);
  const [shownInitial, setShownInitial] = useState(initialStage);
  if (shownInitial !== initialStage) {
    setShownInitial(initialStage);
    setStage(initialStage ?? ALL_STAGES);
  }
  const urlOf = useCallback(
    (artifact: ListedArtifact) => api.runFileUrl({ run_id: runId, area: 'artifacts', path: artifact.path }),
    [api, runId],
  );
  // While the list is read again, the one read before stays shown.
  const listed = shownValue(state);
  const everything = useMemo(() => listed ?? [], [listed]);
  const stages = useMemo(() => groupByStage(everything), [everything]);
  const shown = useMemo(
    () => (stage === ALL_STAGES ? everything : everything.filter((a) => a.stage === stage)),
    [everything, stage],
  );
  const stageKnown = stage === ALL_STAGES || stages.some((g) => g.stage === stage);

  return (
    <div className="artifacts-view" data-testid="artifacts-view" data-state={state.state}>
      <header className="artifacts-view__header">
        <h2>Artifacts</h2>
        {listed !== null ? <span className="artifacts-view__count">{shown.length}</span> : null}
        {stages.length > 0 ? (
          <label className="artifacts-view__stage" htmlFor={stageSelectId}>
            Stage
            <select id={stageSelectId} value={stage} onChange={(e) => setStage(e.target.value)}>
              <option value={ALL_STAGES}>All stages ({everything.length})</option>
              {stages.map((g) => (
                <option key={g.stage} value={g.stage}>
                  {g.stage} ({g.artifacts.length})
                </option>
              ))}
              {stageKnown ? null : <option value={stage}>{stage} (0)</option>}
            </select>
          </label>
        ) : null}
      </header>
      <div className="artifacts-view__body">
        {state.state === 'loading' && listed === null ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Listing the artifacts…
          </p>
        ) : state.state === 'failed' ? (
          <ErrorBanner title="The artifacts could not be listed" message={state.error.message} />
        ) : everything.length === 0 ? (
          <p className="artifacts-view__empty muted">
            This run captured no artifacts. Screenshots, videos, JUnit XML and Playwright reports that a stage leaves in
            its work folder are kept here.
          </p>
        ) : shown.length === 0 ? (
          <p className="artifacts-view__empty muted">
            The stage <code>{stage}</code> captured no artifacts.
          </p>
        ) : (
          <ArtifactRunContext.Provider value={runId}>
            <Sections key={stage} runId={runId} artifacts={shown} everything={everything} urlOf={urlOf} />
          </ArtifactRunContext.Provider>
        )}
      </div>
    </div>
  );
}
