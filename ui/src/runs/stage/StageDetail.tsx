import { useState } from 'react';
import { useApiRead } from '../../api/useApiRead';
import type { RunEvent } from '../../api/runEvent';
import type { TimelineStage } from '../../generated/TimelineStage';
import type { TranscriptBuilder } from '../transcript';
import { RunPatchView } from '../diff/RunPatchView';
import { StageFileView } from './StageFileView';
import { StageOverview } from './StageOverview';
import { readStageHistory, stageHistoryRequest, stageNeedsHistory } from './stageHistory';
import { TranscriptView } from './TranscriptView';
import { stageFolderOf } from './useStageFile';
import './stage.css';

type Tab = 'overview' | 'live' | 'prompt' | 'response' | 'stdout' | 'stderr' | 'diff';

const LLM_KINDS = new Set(['agent', 'prompt', 'codergen']);

/** The tabs a stage of this kind has (what its folder can hold). */
function tabsFor(kind: string): Tab[] {
  if (LLM_KINDS.has(kind)) return ['overview', 'live', 'prompt', 'response', 'diff'];
  if (kind === 'command') return ['overview', 'live', 'stdout', 'stderr', 'diff'];
  return ['overview', 'live'];
}

const TAB_LABEL: Record<Tab, string> = {
  overview: 'Overview',
  live: 'Transcript',
  prompt: 'Prompt',
  response: 'Response',
  stdout: 'stdout',
  stderr: 'stderr',
  diff: 'Diff',
};

/** Everything about one stage visit: overview, live transcript, prompt, response, logs, diff. */
export function StageDetail({
  runId,
  stage,
  events,
  transcripts,
  transcriptVersion,
  fileVersion,
  tailFrom,
  onClose,
}: {
  runId: string;
  stage: TimelineStage;
  events: readonly RunEvent[];
  transcripts: TranscriptBuilder;
  transcriptVersion: number;
  /** Changes when the stage's files may have changed (it ended, the run moved on). */
  fileVersion: unknown;
  /** Events up to this seq are not in `events` nor `transcripts` (a long run's history). */
  tailFrom: number;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<Tab>('overview');
  const tabs = tabsFor(stage.kind);
  const shown = tabs.includes(tab) ? tab : 'overview';
  const folder = stageFolderOf(stage.stage_dir);
  const running = stage.ended_at === null;
  // A finished stage's files do not change; a running one's are read again as the run moves.
  const version = running ? `${String(fileVersion)}:${stage.status}` : `${stage.stage_dir}:${stage.ended_at ?? ''}`;
  // A long run's stage that has ended is read from a page of its events, not from the tail.
  const needsHistory = stageNeedsHistory(stage, tailFrom);
  const history = useApiRead(needsHistory ? stageHistoryRequest(runId, stage) : null, readStageHistory, version);
  const read = history.state === 'ready' ? history.value : null;
  const stageEvents = needsHistory ? (read?.events ?? null) : events;
  const stageTranscripts = needsHistory ? (read?.transcripts ?? null) : transcripts;
  return (
    <section className="stage-detail" data-testid="stage-detail" data-node={stage.node_id} data-visit={stage.visit} aria-label={`Stage ${stage.node_id}`}>
      <header className="stage-detail__header">
        <div>
          <h3>
            {stage.node_id}
            {stage.visit > 1 ? <span className="muted"> visit {stage.visit}</span> : null}
          </h3>
          <span className={`stage-pill is-${stage.status}`}>{stage.status}</span> <span className="muted">{stage.kind}</span>
        </div>
        <button type="button" className="icon-button" aria-label="Close the stage" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="stage-detail__tabs" role="tablist">
        {tabs.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={t === shown} className={t === shown ? 'is-active' : ''} onClick={() => setTab(t)}>
            {TAB_LABEL[t]}
          </button>
        ))}
      </div>
      <div className="stage-detail__body" role="tabpanel">
        {shown === 'overview' ? <StageOverview runId={runId} stage={stage} stageFolder={folder} events={stageEvents} version={version} /> : null}
        {shown === 'live' ? (
          <TranscriptView transcript={stageTranscripts?.get(stage.node_id, stage.visit, stage.stage_dir) ?? null} running={running} version={transcriptVersion} />
        ) : null}
        {shown === 'prompt' ? (
          <StageFileView runId={runId} stageFolder={folder} name="prompt.md" mode="markdown" version={version} empty="No prompt was recorded." />
        ) : null}
        {shown === 'response' ? (
          <StageFileView runId={runId} stageFolder={folder} name="response.md" mode="markdown" version={version} empty={running ? 'No response yet.' : 'No response was recorded.'} />
        ) : null}
        {shown === 'stdout' ? (
          <StageFileView runId={runId} stageFolder={folder} name="stdout.log" mode="log" version={version} empty="Nothing on stdout." />
        ) : null}
        {shown === 'stderr' ? (
          <StageFileView runId={runId} stageFolder={folder} name="stderr.log" mode="log" version={version} empty="Nothing on stderr." />
        ) : null}
        {shown === 'diff' ? (
          <RunPatchView runId={runId} path={`${folder}/diff.patch`} version={version} empty="This stage changed no files." />
        ) : null}
      </div>
    </section>
  );
}
