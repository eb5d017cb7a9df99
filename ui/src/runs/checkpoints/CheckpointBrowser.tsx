import { useMemo, useState } from 'react';
import type { RollbackReport } from '../../generated/RollbackReport';
import type { RunStatus } from '../../generated/RunStatus';
import { loadCheckpoints } from './apiCalls';
import { CheckpointPane } from './CheckpointPane';
import { CommitGraph } from './CommitGraph';
import { currentTip, layoutCommitGraph } from './graphLayout';
import { useApiRead } from '../../api/useApiRead';
import './checkpoints.css';
import { ErrorBanner } from '../../app/ErrorBanner';

/** What the checkpoint browser needs from the run screen. */
export interface CheckpointBrowserProps {
  runId: string;
  runStatus: RunStatus;
  /** Changes whenever the run's checkpoints may have changed (a new event…): reloads them. */
  refreshKey: unknown;
  /** A run started from here (a fork's new run, or this run resumed). */
  onRunStarted(runId: string): void;
  /** The run was rolled back (the browser reloads its checkpoints itself too). */
  onRolledBack(report: RollbackReport): void;
  /**
   * Set when the run's budget stopped it: resuming as it is would stop it again at once, so
   * "Resume run…" asks for a higher budget through this instead.
   */
  onRaiseBudget?: () => void;
}

function Browser({ runId, runStatus, refreshKey, onRunStarted, onRolledBack, onRaiseBudget }: CheckpointBrowserProps) {
  const [reloads, setReloads] = useState(0);
  const refresh = useMemo(() => [refreshKey, reloads], [refreshKey, reloads]);
  const list = useApiRead({ run_id: runId }, loadCheckpoints, refresh);
  const entries = list.state === 'ready' ? list.value : list.state === 'loading' ? list.previous : null;
  const graph = useMemo(() => layoutCommitGraph(entries ?? []), [entries]);
  const [selectedSha, setSelectedSha] = useState<string | null>(null);
  const tip = entries === null ? null : currentTip(entries);
  const selected = entries?.find((e) => e.sha === selectedSha) ?? tip ?? entries?.at(-1) ?? null;

  const rolledBack = (report: RollbackReport) => {
    setReloads((n) => n + 1);
    onRolledBack(report);
  };

  return (
    <div className="checkpoint-browser" data-testid="checkpoint-browser">
      <div className="checkpoint-browser__list">
        <div className="checkpoint-browser__title">
          <h2>Checkpoints</h2>
          {entries !== null ? <span className="muted">{entries.length}</span> : null}
          {list.state === 'loading' ? <span className="spinner" role="status" aria-label="Loading checkpoints" /> : null}
        </div>
        {list.state === 'failed' ? (
          <ErrorBanner title="Could not list the checkpoints" message={list.error.message} />
        ) : entries !== null && entries.length === 0 ? (
          <p className="checkpoint-pane__note">No checkpoints yet: one is made after each node finishes.</p>
        ) : (
          <CommitGraph graph={graph} selectedSha={selected?.sha ?? null} onSelect={setSelectedSha} />
        )}
      </div>
      <div className="checkpoint-browser__detail">
        {selected !== null && entries !== null ? (
          <CheckpointPane
            runId={runId}
            runStatus={runStatus}
            entry={selected}
            entries={entries}
            tip={tip}
            onRunStarted={onRunStarted}
            onRolledBack={rolledBack}
            onRaiseBudget={onRaiseBudget}
          />
        ) : list.state === 'loading' ? (
          <p className="checkpoint-pane__note" role="status">
            <span className="spinner" aria-hidden="true" /> Reading the run's history…
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A run's checkpoint history: its timelines as a commit graph on the left; the selected
 * checkpoint on the right, with its files, its diff against another checkpoint and where
 * the run stood, and rollback, fork and resume from there, each confirmed first.
 */
export function CheckpointBrowser(props: CheckpointBrowserProps) {
  // A fresh browser per run, so nothing of one run's history shows while another loads.
  return <Browser key={props.runId} {...props} />;
}
