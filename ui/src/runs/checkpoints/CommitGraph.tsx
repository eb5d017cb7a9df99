import type { GraphLayout } from './graphLayout';
import { formatTime, shortSha } from './format';
import { GraphLanes } from './GraphLanes';
import { CurrentBadge, StatusBadge } from './StatusBadge';

/**
 * The run's checkpoints as a commit graph, newest first: one lane per timeline, the lines
 * between each commit and its parent, and per row the node, its status, the time, the
 * commit and the timeline. Clicking a row selects that checkpoint.
 */
export function CommitGraph({
  graph,
  selectedSha,
  onSelect,
}: {
  graph: GraphLayout;
  selectedSha: string | null;
  onSelect: (sha: string) => void;
}) {
  return (
    <ol className="commit-graph" aria-label="Checkpoints">
      {graph.rows.map((row) => {
        const { entry } = row;
        const selected = entry.sha === selectedSha;
        return (
          <li key={entry.sha}>
            <button
              type="button"
              className={selected ? 'commit-graph__row is-selected' : 'commit-graph__row'}
              data-testid="checkpoint-row"
              data-sha={entry.sha}
              data-node={entry.node_id}
              data-timeline={entry.timeline}
              aria-pressed={selected}
              onClick={() => onSelect(entry.sha)}
            >
              <GraphLanes row={row} laneCount={graph.laneCount} />
              <span className="commit-graph__text">
                <span className="commit-graph__title">
                  <strong className="commit-graph__node">{entry.node_id}</strong>
                  <StatusBadge status={entry.status} />
                  {entry.current ? <CurrentBadge /> : null}
                </span>
                <span className="commit-graph__meta">
                  <span>{formatTime(entry.time)}</span>
                  <code>{shortSha(entry.sha)}</code>
                  <span title={entry.branches.join(', ')}>t{entry.timeline}</span>
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
