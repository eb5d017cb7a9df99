import type { ReactNode } from 'react';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import { loadCheckpointState } from './apiCalls';
import { ContextValues } from './ContextValues';
import { useApiRead } from '../../api/useApiRead';
import { checkpointLabel, formatTime, shortSha } from './format';
import { nodeRunAfter } from './rollbackPlan';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="checkpoint-facts__fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * Where the run stood at a checkpoint: the node it followed, how far it had come, the
 * node it goes on to, where the commit sits in the history, and the context it saved.
 */
export function CheckpointContext({ runId, entry, entries }: { runId: string; entry: CheckpointEntry; entries: CheckpointEntry[] }) {
  const parent = entries.find((e) => e.sha === entry.parent) ?? null;
  const after = nodeRunAfter(entries, entry.sha);
  const saved = useApiRead({ run_id: runId, at: entry.sha }, loadCheckpointState);
  const next = saved.state === 'ready' ? saved.value.next_node_id : undefined;
  return (
    <div className="checkpoint-context" data-testid="checkpoint-context">
      <dl className="checkpoint-facts">
        <Fact label="After node">
          <code>{entry.node_id}</code> ({entry.status.replaceAll('_', ' ')})
        </Fact>
        <Fact label="Nodes completed">{entry.completed}</Fact>
        <Fact label="Made">{formatTime(entry.time)}</Fact>
        <Fact label="Goes on to">
          {next === undefined ? (
            <span className="muted">…</span>
          ) : next === null ? (
            <span className="muted">nothing: the run ended here</span>
          ) : (
            <code>{next}</code>
          )}
        </Fact>
        <Fact label="Ran next">
          {after !== null ? <code>{after}</code> : <span className="muted">nothing ran after it yet</span>}
        </Fact>
        <Fact label="Checkpoint commit">
          <code>{entry.sha}</code>
        </Fact>
        <Fact label="Before it">
          {parent !== null ? (
            checkpointLabel(parent)
          ) : (
            <>
              the run's start{entry.parent !== null ? <> (<code>{shortSha(entry.parent)}</code>)</> : null}
            </>
          )}
        </Fact>
        <Fact label="Timeline">
          {entry.timeline}
          {entry.current ? ' (the run continues from here)' : ''}
        </Fact>
        <Fact label="On branches">
          {entry.branches.map((b) => (
            <code key={b} className="checkpoint-facts__branch">
              {b}
            </code>
          ))}
        </Fact>
        <Fact label="Metadata commit">
          <code>{entry.metadata_sha}</code>
        </Fact>
      </dl>
      <ContextValues saved={saved} />
    </div>
  );
}
