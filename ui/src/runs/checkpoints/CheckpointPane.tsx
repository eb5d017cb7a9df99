import { useId, useState } from 'react';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import type { RollbackReport } from '../../generated/RollbackReport';
import type { RunStatus } from '../../generated/RunStatus';
import { CheckpointActions } from './CheckpointActions';
import { CheckpointContext } from './CheckpointContext';
import { CheckpointDiffPanel } from './CheckpointDiffPanel';
import { CheckpointFiles } from './CheckpointFiles';
import { formatTime, nodesCompleted, shortSha } from './format';
import { CurrentBadge, StatusBadge } from './StatusBadge';

type Tab = 'files' | 'diff' | 'context';
const TABS: { id: Tab; label: string }[] = [
  { id: 'files', label: 'Files' },
  { id: 'diff', label: 'Diff' },
  { id: 'context', label: 'Context' },
];

/**
 * The selected checkpoint: its heading, the actions from it, and tabs for its files, the
 * diff against another checkpoint, and where the run stood. The tab and the compared
 * checkpoint stay as they are when another checkpoint is selected.
 */
export function CheckpointPane({
  runId,
  runStatus,
  entry,
  entries,
  tip,
  onRunStarted,
  onRolledBack,
  onRaiseBudget,
}: {
  runId: string;
  runStatus: RunStatus;
  entry: CheckpointEntry;
  entries: CheckpointEntry[];
  tip: CheckpointEntry | null;
  onRunStarted: (runId: string) => void;
  onRolledBack: (report: RollbackReport) => void;
  /** See `CheckpointBrowserProps.onRaiseBudget`. */
  onRaiseBudget?: (() => void) | undefined;
}) {
  const [tab, setTab] = useState<Tab>('files');
  const [compareWith, setCompareWith] = useState<string | null>(null);
  const panelId = useId();
  return (
    <section className="checkpoint-pane" aria-label={`Checkpoint ${shortSha(entry.sha)}`}>
      <header className="checkpoint-pane__header">
        <div className="checkpoint-pane__heading">
          <h2>
            <code>{entry.node_id}</code>
          </h2>
          <StatusBadge status={entry.status} />
          {entry.current ? <CurrentBadge /> : null}
        </div>
        <p className="checkpoint-pane__meta">
          <code title={entry.sha}>{shortSha(entry.sha)}</code> · {formatTime(entry.time)} · timeline {entry.timeline} ·{' '}
          {nodesCompleted(entry.completed)}
        </p>
        <CheckpointActions
          runId={runId}
          runStatus={runStatus}
          selected={entry}
          tip={tip}
          entries={entries}
          onRunStarted={onRunStarted}
          onRolledBack={onRolledBack}
          onRaiseBudget={onRaiseBudget}
        />
      </header>
      <div className="checkpoint-pane__tabs" role="tablist" aria-label="Checkpoint views">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${panelId}-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={panelId}
            className={tab === t.id ? 'checkpoint-pane__tab is-active' : 'checkpoint-pane__tab'}
            data-testid={`checkpoint-tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="checkpoint-pane__panel" role="tabpanel" id={panelId} aria-labelledby={`${panelId}-${tab}`}>
        {tab === 'files' ? (
          <CheckpointFiles runId={runId} sha={entry.sha} />
        ) : tab === 'diff' ? (
          <CheckpointDiffPanel
            runId={runId}
            entry={entry}
            entries={entries}
            compareWith={compareWith}
            onCompareWith={setCompareWith}
          />
        ) : (
          <CheckpointContext runId={runId} entry={entry} entries={entries} />
        )}
      </div>
    </section>
  );
}
